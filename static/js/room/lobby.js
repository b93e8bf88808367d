// The lobby: invite link, joining, who is here, the rules (the host may change them), start.
import { api, rememberRoom } from "../api.js";
import { esc } from "../cards.js";
import { readRulesPicker, renderRulesPicker, setRulesPicker } from "../rules_picker.js";
import { connect, refreshRoom } from "./net.js";
import { $, app, CODE, MODES, mySeat, show } from "./state.js";

function lobbyPlayers() {
  const fromView = app.view && app.view.players && app.view.players.length && app.view.players[0].name !== undefined ? app.view.players : null;
  return [...(fromView || (app.room && app.room.players) || [])].sort((a, b) => a.seat - b.seat);
}

function rulesHTML(modes, campaign, path) {
  const parts = [];
  if (campaign || path) {
    const p = campaign ? campaign.path : path;
    const stage = campaign ? campaign.stage : 1;
    parts.push(`<p class="path-line"><strong>Path ${p}</strong>, played as a campaign: stage ${stage} of 3.</p>`);
  }
  if (!modes || !modes.length) {
    parts.push(`<p>The base game, with no advanced rule.</p>`);
  } else {
    parts.push(
      `<ul class="rule-list">${modes
        .map((m) => `<li><strong>${esc(MODES[m]?.title || m)}</strong> <span class="fr" lang="fr">${esc(MODES[m]?.title_fr || "")}</span><br><span class="hint">${esc(MODES[m]?.summary || "")}</span></li>`)
        .join("")}</ul>`,
    );
  }
  return parts.join("");
}

export function renderLobby() {
  show("lobby-view");
  $("turn-info").hidden = true;
  const room = app.room || {};
  const players = lobbyPlayers();
  const me = mySeat();
  const seated = me !== null && me !== undefined && app.mem.token;
  $("join-form").hidden = !!seated || room.status !== "lobby";
  $("seated-note").hidden = !seated;
  if (seated) {
    $("seated-note").textContent = `You are seated as ${app.mem.name || "player " + (me + 1)} (seat ${me + 1}). This browser remembers your seat: reopening the link brings you back to it.`;
  }
  if (!seated && room.status && room.status !== "lobby") {
    $("seated-note").hidden = false;
    $("seated-note").textContent = "This game has already started: you can watch it.";
  }
  $("player-count").textContent = `(${players.length} of ${room.seats_max || 6})`;
  $("lobby-players").innerHTML = players.length
    ? players
        .map(
          (p) => `<li class="lobby-player${p.seat === me ? " is-me" : ""}">
          <span class="conn-dot ${p.connected ? "on" : "off"}" aria-hidden="true"></span>
          <span class="seat-no">${p.seat + 1}</span>
          <span class="pname">${esc(p.name)}${p.seat === me ? (app.mem.host_token ? " (you, host)" : " (you)") : ""}</span>
          <span class="hint">${p.connected ? "connected" : "not connected"}</span></li>`,
        )
        .join("")
    : `<li class="hint">Nobody has taken a seat yet.</li>`;
  $("lobby-rules").innerHTML = rulesHTML(room.modes, room.campaign, room.path);
  const host = !!app.mem.host_token;
  $("host-controls").hidden = !host;
  if (host && !$("rules-editor").open) setRulesPicker($("lobby-picker"), { modes: room.modes || [], path: room.path || null });
  $("wait-host").hidden = host;
  const n = players.length;
  $("start-btn").disabled = n < 3 || n > 6;
  $("start-btn").textContent = n < 3 ? `Start the game (${3 - n} more player${3 - n > 1 ? "s" : ""} needed)` : `Start the game with ${n} players`;
}

// A lobby request (join, rules, start): its button is disabled and its error line cleared
// while it runs; then the room is refreshed, or the error shown.
async function lobbyRequest(button, errorLine, request) {
  $(errorLine).textContent = "";
  $(button).disabled = true;
  try {
    await request();
    await refreshRoom();
  } catch (err) {
    $(errorLine).textContent = err.message;
  } finally {
    $(button).disabled = false;
  }
}

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = $("player-name").value.trim();
  if (!name) {
    $("join-error").textContent = "Enter a name so that the others know who you are.";
    $("player-name").focus();
    return;
  }
  await lobbyRequest("join-btn", "join-error", async () => {
    const seat = await api("POST", `/api/rooms/${encodeURIComponent(CODE)}/players`, { body: { name } });
    app.mem = rememberRoom(CODE, { seat: seat.seat, token: seat.token, name });
    connect();
  });
});

$("copy-link").addEventListener("click", async () => {
  const input = $("invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
    $("copy-status").textContent = "Link copied.";
  } catch (err) {
    input.select();
    $("copy-status").textContent = "Select the link and copy it (Ctrl+C, or long-press on a phone).";
  }
});

renderRulesPicker($("lobby-picker"));
$("rules-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  await lobbyRequest("rules-save", "rules-error", async () => {
    await api("PATCH", `/api/rooms/${encodeURIComponent(CODE)}`, { token: app.mem.host_token, body: readRulesPicker($("lobby-picker")) });
    $("rules-editor").open = false;
  });
});

$("start-btn").addEventListener("click", () =>
  lobbyRequest("start-btn", "start-error", () =>
    api("POST", `/api/rooms/${encodeURIComponent(CODE)}/start`, { token: app.mem.host_token }),
  ),
);
