// Turn alerts: when the table waits for this seat (program, ready, a reveal choice, a
// side, a give back), the tab's title and icon say so; optionally a short sound (made
// with WebAudio, no file) and, when the tab is hidden, a desktop notification. The two
// options are remembered in this browser (localStorage "dameNature.alerts").
import { t } from "../i18n.js";
import { TEXTS } from "../texts.js";
import { $, app, inGame, mySeat, players } from "./state.js";

const KEY = "dameNature.alerts";
const BASE_TITLE = t("Dame Nature Online");
const ICON = "/static/img/favicon.svg";
const ICON_ALERT = "/static/img/favicon-alert.svg";

function loadSettings() {
  try {
    return { sound: false, notify: false, ...(JSON.parse(localStorage.getItem(KEY) || "{}") || {}) };
  } catch (err) {
    return { sound: false, notify: false };
  }
}

const settings = loadSettings();
let audio = null; // one AudioContext, made on a user gesture (browsers' autoplay rules)
let wasWaiting = false;

function saveSettings() {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch (err) {
    /* storage disabled: the choice lasts for this page */
  }
}

/** What the table waits for from this seat ("" when nothing): the view's `to_act` when
 * the engine gives it, else derived from `awaiting` and the programming state. */
export function waitingFor(v) {
  const me = mySeat();
  if (!v || me === null || !inGame() || v.phase === "over") return "";
  const aw = v.awaiting;
  if (aw && aw.seat === me) {
    return { reveal: TEXTS.todoReveal, choose_side: TEXTS.todoSide, give_back: TEXTS.todoGiveBack }[aw.kind] || TEXTS.todoReveal;
  }
  if (Array.isArray(v.to_act) && !v.to_act.includes(me)) return "";
  if (v.phase !== "programming" || v.pending_give || aw) return "";
  const p = players().find((x) => x.seat === me) || {};
  if (p.ready) return "";
  if (!v.programmed) return (v.hand || []).length ? TEXTS.todoProgram : "";
  return TEXTS.todoReady;
}

function ensureAudio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) audio = new Ctx();
  if (audio.state === "suspended") audio.resume();
  return audio;
}

/** Two soft notes (a rising fifth), about 0.4 s. */
export function chime() {
  const ctx = ensureAudio();
  if (!ctx) return;
  const start = ctx.currentTime + 0.02;
  [659.25, 987.77].forEach((freq, i) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    const t = start + i * 0.16;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.18, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.32);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.35);
  });
}

function notify(todo) {
  if (!settings.notify || !("Notification" in window) || Notification.permission !== "granted") return;
  try {
    const n = new Notification(TEXTS.notifyTitle, { body: todo, tag: `dame-nature-${app.view.room}`, icon: ICON });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch (err) {
    /* some browsers only notify from a service worker: the title and icon still say it */
  }
}

/** Title, icon, sound and notification for the latest view (called after each render). */
export function updateAlerts() {
  const v = app.view;
  const todo = waitingFor(v);
  let title = BASE_TITLE;
  if (v && inGame() && mySeat() !== null) {
    if (v.phase === "over") title = `${v.result && v.result.outcome === "won" ? t("Won!") : t("Game over")} · ${BASE_TITLE}`;
    else title = `${todo ? TEXTS.titleYourTurn(todo) + " · " : ""}${t("Turn {turn}", { turn: v.turn })} · ${BASE_TITLE}`;
  }
  if (document.title !== title) document.title = title;
  const icon = $("favicon");
  const href = todo ? ICON_ALERT : ICON;
  if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
  if (todo && !wasWaiting) {
    if (settings.sound) chime();
    if (document.hidden) notify(todo);
  }
  wasWaiting = !!todo;
}

function showSettings() {
  $("alert-sound").checked = !!settings.sound;
  $("alert-notify").checked = !!settings.notify && "Notification" in window && Notification.permission === "granted";
  $("alerts-status").textContent = "Notification" in window ? (Notification.permission === "denied" ? TEXTS.notifyDenied : "") : TEXTS.notifyUnsupported;
}

$("alerts-btn").addEventListener("click", () => {
  showSettings();
  $("alerts-dialog").showModal();
});

$("alert-sound").addEventListener("change", (event) => {
  settings.sound = event.target.checked;
  saveSettings();
  if (settings.sound) chime(); // this gesture also unlocks the audio
});

$("alert-notify").addEventListener("change", async (event) => {
  if (!event.target.checked) {
    settings.notify = false;
    saveSettings();
    return;
  }
  if (!("Notification" in window)) {
    event.target.checked = false;
    $("alerts-status").textContent = TEXTS.notifyUnsupported;
    return;
  }
  const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  settings.notify = permission === "granted";
  event.target.checked = settings.notify;
  $("alerts-status").textContent = permission === "denied" ? TEXTS.notifyDenied : "";
  saveSettings();
});

$("alert-test").addEventListener("click", () => chime());

// a sound needs an unlocked AudioContext: the first click or key on the page unlocks it
const unlock = () => {
  if (settings.sound) ensureAudio();
  window.removeEventListener("pointerdown", unlock);
  window.removeEventListener("keydown", unlock);
};
window.addEventListener("pointerdown", unlock);
window.addEventListener("keydown", unlock);
