// The admin page (/admin): the admin token is pasted once and kept in this tab's
// sessionStorage (never in the address, never in localStorage); it goes in the
// Authorization header of every /api/admin/ call. Rooms, closing one, removing a seat,
// a message to every table, the admin log.
import { ApiError } from "./api.js";
import { esc } from "./cards.js";
import { t, tn } from "./i18n.js";
import { dateText, table } from "./records.js";

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "dameNature.adminToken";
const LABEL_KEY = "dameNature.adminLabel";

function session(key, value) {
  try {
    if (value === undefined) return sessionStorage.getItem(key) || "";
    if (value) sessionStorage.setItem(key, value);
    else sessionStorage.removeItem(key);
  } catch (err) {
    /* storage refused: the token lives in the form only */
  }
  return value || "";
}

let token = session(TOKEN_KEY);
let label = session(LABEL_KEY);

/** An admin call: the token as a Bearer token, the admin's label for the log. */
async function admin(method, path, body) {
  const headers = { Accept: "application/json", Authorization: `Bearer ${token}` };
  if (label) headers["X-Admin-Label"] = encodeURIComponent(label); // a header holds Latin-1 only
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(`/api/admin${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError("network", t("The server cannot be reached. Check your connection and try again."), 0);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const e = (data && data.error) || {};
    if (response.status === 401 || response.status === 403) signedOut(t("This is not the admin token."));
    throw new ApiError(e.code || `http_${response.status}`, e.message || t("The server answered {status}.", { status: response.status }), response.status);
  }
  return data;
}

function say(text) {
  $("admin-status").textContent = text;
  $("admin-error").textContent = "";
}

function fail(err) {
  $("admin-error").textContent = err.message;
}

function signedOut(message) {
  token = session(TOKEN_KEY, "");
  document.body.classList.remove("admin-signed-in");
  $("admin-work").hidden = true;
  $("sign-out").hidden = true;
  $("admin-status").textContent = "";
  if (message) $("admin-error").textContent = message;
}

const STATUS = () => ({ lobby: t("Lobby"), playing: t("Playing"), over: t("Finished") });

function age(seconds) {
  if (seconds < 3600) return tn("{n} minute", "{n} minutes", Math.floor(seconds / 60));
  if (seconds < 86400) return tn("{n} hour", "{n} hours", Math.floor(seconds / 3600));
  return tn("{n} day", "{n} days", Math.floor(seconds / 86400));
}

function seatText(room, p) {
  const who = p.bot && !p.human ? `${p.name} (${t("bot")})` : p.name;
  const on = p.connected ? ` <span class="online"><span aria-hidden="true">●</span> ${esc(t("connected"))}</span>` : "";
  const remove = `<button type="button" class="btn small" data-remove="${esc(room.code)}" data-seat="${p.seat}" aria-label="${esc(t("Remove seat {seat} ({name}) of room {room}", { seat: p.seat + 1, name: p.name, room: room.code }))}">${esc(t("Remove"))}</button>`;
  return `<li>${esc(`${p.seat + 1}. ${who}`)}${on} ${room.status === "over" ? "" : remove}</li>`;
}

async function loadRooms() {
  const data = await admin("GET", "/rooms");
  const statuses = STATUS();
  $("rooms").innerHTML = table(
    t("Rooms"),
    [t("Room"), t("Status"), t("Players"), t("Age"), t("Node"), t("Actions")],
    data.rooms.map((room) => [
      `<a href="/r/${encodeURIComponent(room.code)}" target="_blank" rel="noopener">${esc(room.code)}</a>`,
      esc(statuses[room.status] || room.status) + (room.game_no ? ` · ${esc(t("Game {n}", { n: room.game_no }))}` : ""),
      `<ul class="seat-list">${room.players.map((p) => seatText(room, p)).join("")}</ul>`,
      esc(age(room.age_seconds)),
      esc(room.nodes.join(", ") || (room.held_here ? data.node : "–")),
      `<button type="button" class="btn small danger" data-close="${esc(room.code)}" aria-label="${esc(t("Close room {room}", { room: room.code }))}">${esc(t("Close"))}</button>`,
    ]),
  );
  if (!data.rooms.length) $("rooms").innerHTML = `<caption>${esc(t("No room on this server."))}</caption>`;
}

const ACTIONS = () => ({ close_room: t("Closed the room"), remove_seat: t("Removed a seat"), announce: t("Sent a message to every table") });

function detailText(entry) {
  const d = entry.detail || {};
  if (entry.action === "remove_seat") return t("Seat {seat} ({name})", { seat: d.seat + 1, name: d.name });
  return d.message || "";
}

async function loadLog() {
  const data = await admin("GET", "/log");
  const actions = ACTIONS();
  $("admin-log").innerHTML = table(
    t("Admin log"),
    [t("When"), t("Who"), t("What"), t("Room"), t("Detail")],
    data.entries.map((e) => [esc(dateText(e.at * 1000)), esc(e.who), esc(actions[e.action] || e.action), esc(e.target || "–"), esc(detailText(e))]),
  );
  if (!data.entries.length) $("admin-log").innerHTML = `<caption>${esc(t("No admin action yet."))}</caption>`;
}

async function refresh() {
  await Promise.all([loadRooms(), loadLog()]);
}

/** Ask before a change; resolves with the message typed (or null: cancelled). */
function confirmDialog(title, withMessage) {
  const dialog = $("confirm");
  $("confirm-title").textContent = title;
  $("confirm-message").value = "";
  $("confirm-message").hidden = !withMessage;
  $("confirm-message-label").hidden = !withMessage;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok" ? $("confirm-message").value.trim() : null), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

$("token-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  token = session(TOKEN_KEY, $("admin-token").value.trim());
  label = session(LABEL_KEY, $("admin-label").value.trim());
  $("admin-token").value = "";
  await start();
});

$("sign-out").addEventListener("click", () => {
  signedOut("");
  say(t("Signed out: the token is forgotten in this tab."));
});

$("rooms").addEventListener("click", async (event) => {
  const button = event.target.closest("button");
  if (!button) return;
  try {
    if (button.dataset.close) {
      const message = await confirmDialog(t("Close room {room}? Its players are told, then it is deleted.", { room: button.dataset.close }), true);
      if (message === null) return;
      const done = await admin("POST", `/rooms/${encodeURIComponent(button.dataset.close)}/close`, { message });
      say(t("Room {room} closed ({n} connections told).", { room: done.room, n: done.sockets_told }));
    } else if (button.dataset.remove) {
      const seat = Number(button.dataset.seat);
      const ok = await confirmDialog(t("Remove seat {seat} of room {room}? During a game a bot plays it.", { seat: seat + 1, room: button.dataset.remove }), false);
      if (ok === null) return;
      const done = await admin("DELETE", `/rooms/${encodeURIComponent(button.dataset.remove)}/seats/${seat}`);
      say(done.outcome === "bot" ? t("Seat {seat} is played by a bot now.", { seat: seat + 1 }) : t("Seat {seat} removed.", { seat: seat + 1 }));
    } else return;
    await refresh();
  } catch (err) {
    fail(err);
  }
});

$("announce-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const message = $("announce-text").value.trim();
  if (!message) {
    $("admin-error").textContent = t("Write the message first.");
    return;
  }
  try {
    const done = await admin("POST", "/announce", { message });
    $("announce-text").value = "";
    say(tn("Message sent to {n} connection.", "Message sent to {n} connections.", done.sockets_told));
    await loadLog();
  } catch (err) {
    fail(err);
  }
});

$("rooms-refresh").addEventListener("click", () => loadRooms().catch(fail));
$("log-refresh").addEventListener("click", () => loadLog().catch(fail));

async function start() {
  if (!token) return;
  try {
    await refresh();
    $("admin-work").hidden = false;
    $("sign-out").hidden = false;
    document.body.classList.add("admin-signed-in");
    say(label ? t("Signed in as {label}.", { label }) : t("Signed in."));
  } catch (err) {
    if (token) fail(err);
  }
}

$("admin-label").value = label;
start();
