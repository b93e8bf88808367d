// Told when it is your turn with the page closed: this device's Web Push subscription
// (the service worker /sw.js shows the notice and opens the room) or an email address,
// opted in per room for this browser's seat; and the page telling the server whether it
// is visible (a visible page gets no notice: the table's own alerts are there).
import { api, rememberRoom } from "../api.js";
import { t } from "../i18n.js";
import { $, app, CODE, mySeat } from "./state.js";

const ROOM = `/api/rooms/${encodeURIComponent(CODE)}`;
let info = null; // GET /api/notifications: {push_key, email}

const pushSupported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

function keyBytes(b64url) {
  const b64 = b64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64url.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

function status(text) {
  $("notify-status").textContent = text;
}

/** Tell the server whether this page is visible (on each connect and each change). */
export function sendVisibility() {
  if (app.socket && mySeat() !== null) app.socket.send({ type: "visibility", visible: document.visibilityState === "visible" });
}
document.addEventListener("visibilitychange", sendVisibility);
// the installable app's service worker (it shows pushes; it caches nothing)
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});

async function loadInfo() {
  if (info) return info;
  info = await api("GET", "/api/notifications");
  return info;
}

async function enablePush() {
  if (!pushSupported()) {
    status(t("This browser cannot show notices with the page closed. On an iPhone or iPad, add this site to the home screen first (Share, then Add to Home Screen)."));
    return false;
  }
  const { push_key: key } = await loadInfo();
  const registration = await navigator.serviceWorker.register("/sw.js");
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    status(t("Notices are blocked for this site: allow them in the browser's settings."));
    return false;
  }
  await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  if (!subscription) subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  await api("POST", `${ROOM}/notifications`, { token: app.mem.token, body: { push: subscription.toJSON() } });
  app.mem = rememberRoom(CODE, { push: true });
  status(t("This device will be told when the table waits for you."));
  return true;
}

async function disablePush() {
  await api("DELETE", `${ROOM}/notifications?kind=push`, { token: app.mem.token });
  app.mem = rememberRoom(CODE, { push: false });
  status(t("This device will not be told any more."));
}

/** The opt-in controls of the Alerts dialog, as this browser's seat has them. */
export async function renderNotify() {
  const box = $("notify-box");
  if (!box) return;
  const seated = mySeat() !== null && !!app.mem.token;
  box.hidden = !seated;
  if (!seated) return;
  $("notify-push").checked = !!app.mem.push;
  try {
    const { email } = await loadInfo();
    $("notify-email-form").hidden = !email;
  } catch (err) {
    box.hidden = true; // notifications are off on this server
  }
}

document.addEventListener("change", async (event) => {
  if (event.target.id !== "notify-push") return;
  const box = event.target;
  box.disabled = true;
  try {
    const on = box.checked ? await enablePush() : (await disablePush(), false);
    box.checked = on;
  } catch (err) {
    box.checked = false;
    status(err.message);
  } finally {
    box.disabled = false;
  }
});

// (inside the Alerts dialog's form, so a button and the Enter key rather than a form)
document.addEventListener("keydown", (event) => {
  if (event.target.id === "notify-email" && event.key === "Enter") {
    event.preventDefault();
    sendAddress();
  }
});
document.addEventListener("click", (event) => {
  if (event.target.closest("#notify-email-send")) sendAddress();
});

async function sendAddress() {
  const address = $("notify-email").value.trim();
  try {
    if (address) {
      await api("POST", `${ROOM}/notifications`, { token: app.mem.token, body: { email: address } });
      status(t("A mail will tell you when the table waits for you. Each mail has a link to stop them."));
    } else {
      await api("DELETE", `${ROOM}/notifications?kind=email`, { token: app.mem.token });
      status(t("No more mails for this game."));
    }
    $("notify-email").value = "";
  } catch (err) {
    status(err.message);
  }
}

document.addEventListener("click", (event) => {
  if (event.target.closest("#alerts-btn")) renderNotify();
});
