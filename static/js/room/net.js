// The live connection: the websocket (views in, actions out), the REST fallback for an
// action, and the room's public info.
import { api, forgetSeat, LiveSocket, roomMemory } from "../api.js";
import { recordGame } from "../history.js";
import { serverMessage, t } from "../i18n.js";
import { sendVisibility } from "./notify.js";
import { announceTableEvents } from "./seats.js";
import { $, app, CODE, inGame, render, screens, show, toast } from "./state.js";

export function connect() {
  if (app.socket) app.socket.stop();
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // the seat token goes as a subprotocol, never in the URL (which proxies log); the
  // server answers "dame-nature"
  const protocols = ["dame-nature"];
  if (app.mem.token) protocols.push(`dame-nature.token.${app.mem.token}`);
  app.socket = new LiveSocket(`${proto}://${location.host}/api/rooms/${encodeURIComponent(CODE)}/ws`, {
    protocols,
    onMessage,
    onStatus: (status, event) => {
      setConn(status);
      if (status === "open") sendVisibility();
      if (status !== "closed") return;
      if (event && event.code === 4404) {
        if (app.closedMessage !== undefined) showClosed(app.closedMessage);
        show("error-view");
        return;
      }
      if (app.mem.token) {
        // the server refused our token: the seat is gone (e.g. a new server)
        forgetSeat(CODE);
        app.mem = roomMemory(CODE);
        toast(t("Your seat in this room could not be found any more; you are now watching."));
        connect();
      }
    },
  });
}

export async function refreshRoom() {
  try {
    app.room = await api("GET", `/api/rooms/${encodeURIComponent(CODE)}`);
  } catch (err) {
    /* keep the last known room info */
  }
  render();
}

function onMessage(msg) {
  if (msg.type === "state" && msg.view) {
    const old = app.view;
    // views arrive in order on one socket; after a reconnect or a REST answer an older
    // one may still come in: never go back in time
    if (old && typeof old.version === "number" && typeof msg.view.version === "number" && msg.view.version < old.version) return;
    app.view = msg.view;
    if (msg.view.phase === "over") recordGame(msg.view); // "your games" (/games)
    announceTableEvents(msg.view);
    if (old && old.phase === "over" && msg.view.phase !== "over") {
      app.endDismissed = false; // a rematch started
      app.shownReveals.clear();
    }
    const phase = msg.view.phase;
    if (!phase || phase === "lobby" || !app.room || app.room.status === "lobby" || (old && old.phase !== phase && phase === "over")) {
      refreshRoom();
      return;
    }
    render();
  } else if (msg.type === "announcement" && msg.message) {
    announce(msg.message);
  } else if (msg.type === "room_closed") {
    app.closedMessage = msg.message || "";
  } else if (msg.type === "error" && msg.error && msg.error.code === "seat_removed") {
    leftSeat(t("Your seat was removed: you are watching now."));
  } else if (msg.type === "error" && msg.error) {
    toast(serverMessage(msg.error.code, msg.error.message || t("That is not possible now.")));
  } else if (msg.type === "room" || msg.type === "lobby" || msg.type === "players") {
    refreshRoom();
  }
}

/** A message from the server's admin to every table: shown until dismissed. */
function announce(message) {
  const box = $("announcement");
  box.querySelector(".announcement-text").textContent = message;
  box.hidden = false;
  $("announcement-close").onclick = () => (box.hidden = true);
}

/** The room was closed by the server's admin: the error screen says so. */
function showClosed(message) {
  const text = $("error-text");
  if (!text) return;
  text.textContent = message ? t("This room was closed by the server's admin: {message}", { message }) : t("This room was closed by the server's admin.");
}

/** This browser's seat is gone (left, or removed by the host in the lobby): forget its
 * token and watch the room as a spectator. */
export function leftSeat(message) {
  forgetSeat(CODE);
  app.mem = roomMemory(CODE);
  app.view = null;
  toast(message);
  connect();
  refreshRoom();
}

export function setConn(status) {
  app.conn = status;
  const el = $("conn");
  el.dataset.state = status;
  const text = { connecting: t("Connecting…"), open: t("Connected"), reconnecting: t("Reconnecting…"), closed: t("Offline") }[status] || status;
  el.querySelector(".conn-text").textContent = text;
  document.body.classList.toggle("is-reconnecting", status === "reconnecting");
  if (app.view && inGame() && !$("game-view").hidden) screens.banner();
}

export async function send(action) {
  if (app.socket && app.socket.send({ type: "action", action })) return;
  // websocket down: the REST endpoint does the same and answers the new view
  try {
    const view = await api("POST", `/api/rooms/${encodeURIComponent(CODE)}/actions`, { body: action, token: app.mem.token });
    if (view && view.phase) {
      app.view = view;
      render();
    }
  } catch (err) {
    toast(err.message);
  }
}
