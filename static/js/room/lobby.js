// The lobby: invite link, joining, who is here, the rules (the host may change them), start.
import { api, rememberRoom } from "../api.js";
import { esc } from "../cards.js";
import { icon } from "../icons.js";
import { lang, modeSummary, modeTitle, t, tn } from "../i18n.js";
import { durationText } from "../pace.js";
import { PickerError, readRulesPicker, renderRulesPicker, setRulesPicker } from "../rules_picker.js";
import { dealChosenText, TEXTS } from "../texts.js";
import { botBadge, removeSeatButton, renderSeatControls } from "./bots.js";
import { connect, refreshRoom } from "./net.js";
import { renderOtherRooms } from "./paced.js";
import { amHost, hostBadge, hostToken, nameTaken } from "./seats.js";
import { $, app, CODE, inGame, MODES, mySeat, show } from "./state.js";

const NAME_MAX = 40; // characters as a person counts them (the server's limit too)

function lobbyPlayers() {
  const fromView = app.view && app.view.players && app.view.players.length && app.view.players[0].name !== undefined ? app.view.players : null;
  return [...(fromView || (app.room && app.room.players) || [])].sort((a, b) => a.seat - b.seat);
}

function rulesHTML(modes, campaign, path, hostRules, daily) {
  const parts = [];
  if (daily) parts.push(`<p class="daily-line">${icon("leaf")} ${esc(t("The daily deal of {date} for {n} players: every table plays the same deal today, and sees how the others did once its game is over.", { date: daily.date, n: daily.players }))}</p>`);
  if (campaign || path) {
    const p = campaign ? campaign.path : path;
    const stage = campaign ? campaign.stage : 1;
    parts.push(`<p class="path-line">${t("<strong>Path {n}</strong>, played as a campaign: stage {stage} of 3.", { n: esc(p), stage: esc(stage) })}</p>`);
  }
  if (!modes || !modes.length) {
    parts.push(`<p>${esc(t("The base game, with no advanced rule."))}</p>`);
  } else {
    parts.push(
      `<ul class="rule-list">${modes
        .map((m) => `<li><strong>${esc(modeTitle(MODES[m]) || m)}</strong>${lang === "fr" ? "" : ` <span class="fr" lang="fr">${esc(MODES[m]?.title_fr || "")}</span>`}<br><span class="hint">${esc(modeSummary(MODES[m]))}</span></li>`)
        .join("")}</ul>`,
    );
  }
  if (hostRules && hostRules.seed !== null && hostRules.seed !== undefined) parts.push(`<p class="hint deal-line">${esc(TEXTS.rulesSeed(hostRules.seed))}</p>`);
  if (hostRules && hostRules.deal) parts.push(`<p class="hint deal-line">${esc(TEXTS.rulesDeal)}</p>`);
  if (app.view && app.view.hints_allowed) parts.push(`<p class="hint hints-line">${esc(t("Hints from the expert are on."))}</p>`);
  const limit = app.view ? app.view.turn_limit_seconds : app.room && app.room.turn_limit_seconds;
  if (limit) parts.push(`<p class="pace-line" id="pace-line">${icon("clock")} ${esc(t("Paced game: each player has {time} for each move; past it a bot plays that move for them.", { time: durationText(limit) }))}</p>`);
  return parts.join("");
}

// The host's own read of the rules (seed and deal included), fetched again whenever the
// room changed, so that the editor shows and keeps them.
async function loadHostRules(version) {
  app.hostRulesVersion = version;
  try {
    app.hostRules = await api("GET", `/api/rooms/${encodeURIComponent(CODE)}/rules`, { token: hostToken() });
  } catch (err) {
    app.hostRules = null;
  }
  if (!inGame()) renderLobby();
}

export function renderLobby() {
  show("lobby-view");
  $("turn-info").hidden = true;
  renderOtherRooms();
  const room = app.room || {};
  const players = lobbyPlayers();
  const me = mySeat();
  const seated = me !== null && me !== undefined && app.mem.token;
  const full = room.status === "lobby" && players.length >= (room.seats_max || 6);
  // the form shown, the focus in it or fallen from its button (disabled while it asks)
  const active = document.activeElement;
  const joining = !$("join-form").hidden && (!active || active === document.body || $("join-form").contains(active));
  $("join-form").hidden = !!seated || room.status !== "lobby" || full;
  $("seated-note").hidden = !seated;
  if (seated) {
    $("seated-note").textContent = t("You are seated as {name} (seat {seat}). This browser remembers your seat: reopening the link brings you back to it.", { name: app.mem.name || t("player {n}", { n: me + 1 }), seat: me + 1 });
  }
  if (!seated && room.status && room.status !== "lobby") {
    $("seated-note").hidden = false;
    $("seated-note").textContent = t("This game has already started: you can watch it.");
  }
  if (!seated && full) {
    $("seated-note").hidden = false;
    $("seated-note").textContent = TEXTS.roomFull(room.seats_max || 6);
  }
  // the seat taken: the focus goes from the form, hidden now, to the sentence saying the seat
  if (joining && $("join-form").hidden && !$("seated-note").hidden) $("seated-note").focus();
  $("player-count").textContent = t("({n} of {max})", { n: players.length, max: room.seats_max || 6 });
  $("lobby-players").innerHTML = players.length
    ? players
        .map(
          (p) => `<li class="lobby-player${p.seat === me ? " is-me" : ""}${p.bot ? " is-bot" : ""}" data-seat="${p.seat}">
          ${p.bot ? "" : `<span class="conn-dot ${p.connected ? "on" : "off"}" aria-hidden="true"></span>`}
          <span class="seat-no">${p.seat + 1}</span>
          <span class="pname">${esc(p.name)}${p.seat === me ? esc(amHost() ? t(" (you, host)") : t(" (you)")) : ""}</span>
          ${botBadge(p)}
          ${hostBadge(p)}
          <span class="hint">${esc(p.bot ? t("plays on the server") : p.connected ? t("connected") : t("not connected"))}</span>
          ${removeSeatButton(p)}</li>`,
        )
        .join("")
    : `<li class="hint">${esc(t("Nobody has taken a seat yet."))}</li>`;
  const host = amHost();
  if (host && room.version !== undefined && app.hostRulesVersion !== room.version) loadHostRules(room.version);
  const hostRules = host ? app.hostRules : null;
  // a deal the host chose is told to every seat (the host may know every hand)
  const dealNote = room.deal_chosen_by_host ? `<p class="deal-chosen" id="deal-chosen">${icon("eye")} ${esc(dealChosenText(room.deal_choice))}</p>` : "";
  $("lobby-rules").innerHTML = rulesHTML(room.modes, room.campaign, room.path, hostRules, room.daily) + dealNote;
  $("host-controls").hidden = !host;
  $("rules-editor").hidden = !!room.daily; // the same rules for every table of the deal
  // the editor opens once the host's rules are read: opened before, it would show no
  // seed nor deal, and saving would drop them
  $("rules-editor").setAttribute("aria-busy", String(host && !hostRules));
  if (host && !$("rules-editor").open) setRulesPicker($("lobby-picker"), hostRules || { modes: room.modes || [], path: room.path || null });
  $("wait-host").hidden = host;
  renderSeatControls(players);
  const n = players.length;
  const need = startNeeds(room);
  $("start-btn").textContent = n < need ? tn("Start the game ({n} more player needed)", "Start the game ({n} more players needed)", need - n) : t("Start the game with {n} players", { n });
  setLobbyButtons();
}

// How many players the game needs to start: 3, or exactly as many as the hands of the
// host's explicit deal (the server refuses any other count).
function startNeeds(room) {
  return (room.deal_choice === "deal" || room.daily) && room.seats_max ? room.seats_max : 3;
}

// The lobby buttons whose request is on its way: they stay off until it is answered,
// whatever a render in between says; then the room decides again.
const busy = new Set();

/** The lobby buttons' enabled state, from the room as last read and the requests running. */
function setLobbyButtons() {
  const room = app.room || {};
  const n = lobbyPlayers().length;
  $("start-btn").disabled = busy.has("start-btn") || n < startNeeds(room) || n > (room.seats_max || 6);
  $("join-btn").disabled = busy.has("join-btn");
  $("rules-save").disabled = busy.has("rules-save");
}

// Why a name cannot be sent ("" when it can): the server checks the same (any printable
// text, emoji sequences included, at least one visible character, no control character).
function nameProblem(name) {
  if (!/[\p{L}\p{N}\p{P}\p{S}]/u.test(name)) return t("Enter a name so that the others know who you are.");
  if (/\p{Cc}/u.test(name)) return TEXTS.nameControl;
  const count = "Segmenter" in Intl ? [...new Intl.Segmenter().segment(name)].length : [...name].length;
  if (count > NAME_MAX) return TEXTS.nameTooLong(NAME_MAX);
  return nameTaken(name, (app.room && app.room.players) || []);
}

// A lobby request (join, rules, start): its button is off and its error line cleared
// while it runs; then the room is refreshed, or the error shown, and the button's state
// comes from the room again (a Start refused because a player left stays off).
async function lobbyRequest(button, errorLine, request) {
  $(errorLine).textContent = "";
  busy.add(button);
  setLobbyButtons();
  try {
    await request();
    await refreshRoom();
  } catch (err) {
    $(errorLine).textContent = err.message;
  } finally {
    busy.delete(button);
    setLobbyButtons();
  }
}

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = $("player-name").value.trim();
  const problem = nameProblem(name);
  if (problem) {
    $("join-error").textContent = problem;
    $("player-name").focus();
    return;
  }
  await lobbyRequest("join-btn", "join-error", async () => {
    const seat = await api("POST", `/api/rooms/${encodeURIComponent(CODE)}/players`, { token: app.mem.host_token, body: { name } });
    app.mem = rememberRoom(CODE, { seat: seat.seat, token: seat.token, name });
    connect();
  });
});

$("copy-link").addEventListener("click", async () => {
  const input = $("invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
    $("copy-status").textContent = t("Link copied.");
  } catch (err) {
    input.select();
    $("copy-status").textContent = t("Select the link and copy it (Ctrl+C, or long-press on a phone).");
  }
});

renderRulesPicker($("lobby-picker"));
$("rules-editor").querySelector("summary").addEventListener("click", (event) => {
  if ($("rules-editor").getAttribute("aria-busy") === "true") event.preventDefault();
});
$("rules-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  let body;
  try {
    body = readRulesPicker($("lobby-picker"));
  } catch (err) {
    if (!(err instanceof PickerError)) throw err;
    $("rules-error").textContent = err.message;
    err.field.focus();
    return;
  }
  await lobbyRequest("rules-save", "rules-error", async () => {
    await api("PATCH", `/api/rooms/${encodeURIComponent(CODE)}`, { token: hostToken(), body });
    $("rules-editor").open = false;
  });
});

$("start-btn").addEventListener("click", () =>
  lobbyRequest("start-btn", "start-error", () =>
    api("POST", `/api/rooms/${encodeURIComponent(CODE)}/start`, { token: hostToken() }),
  ),
);
