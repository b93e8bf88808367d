// Home page: create a room (advanced rules one by one, or a path as a campaign; optional
// seed or deal) or join one with its code.
import { api, rememberRoom } from "./api.js";
import { esc } from "./cards.js";
import { icon } from "./icons.js";
import { mayStartBotGame, renderMyRooms } from "./my_rooms.js";
import { t, tn } from "./i18n.js";
import { PickerError, readRulesPicker, renderRulesPicker } from "./rules_picker.js";
import { levelOptions } from "./texts.js";

const form = document.getElementById("create-form");
renderRulesPicker(document.getElementById("rules-picker"));

// The rules picker stays folded under one line saying what will be played.
function summariseRules() {
  const path = form.querySelector('input[name="kind"]:checked')?.value === "path";
  const modes = form.querySelectorAll('input[name="mode"]:checked').length;
  const chosenPath = form.querySelector('input[name="path"]:checked')?.value;
  document.getElementById("rules-summary").textContent = path
    ? t("Rules: path {n}, played as a campaign", { n: chosenPath })
    : modes
      ? tn("Rules: the base game with {n} advanced rule", "Rules: the base game with {n} advanced rules", modes)
      : t("Rules: the base game");
}
form.addEventListener("change", summariseRules);
summariseRules();

/** The rules chosen in the form (a ``POST /api/rooms`` body), or null after saying in
 * ``error`` what is wrong. */
function chosenRules(error) {
  error.textContent = "";
  try {
    return readRulesPicker(form);
  } catch (err) {
    if (!(err instanceof PickerError)) throw err;
    error.textContent = err.message;
    err.field.focus();
    return null;
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("create-error");
  const button = document.getElementById("create-btn");
  const body = chosenRules(error);
  if (!body) return;
  button.disabled = true;
  try {
    const created = await api("POST", "/api/rooms", { body });
    rememberRoom(created.room, { host_token: created.host_token });
    window.location.assign(created.url || `/r/${created.room}`);
  } catch (err) {
    error.textContent = err.message;
    button.disabled = false;
  }
});

// Play solo: one click makes a room with the rules below, seats you and 2 to 5 bots, and
// starts the game. No name needed: a default one, changeable.
const solo = document.getElementById("solo");
solo.innerHTML = `<legend class="sr-only">${esc(t("Play solo"))}</legend>
  <p class="hint">${esc(t("You and 2 to 5 bots; the game starts at once."))}</p>
  <div class="solo-row">
    <label for="solo-name">${esc(t("Your name"))}</label>
    <input id="solo-name" maxlength="40" autocomplete="nickname" value="${esc(t("Naturalist"))}">
    <label for="solo-bots">${esc(t("Bots"))}</label>
    <select id="solo-bots">${[2, 3, 4, 5].map((n) => `<option value="${n}"${n === 2 ? " selected" : ""}>${esc(t("{n} bots", { n }))}</option>`).join("")}</select>
  </div>
  <details class="solo-more">
    <summary>${esc(t("Level of the bots"))}</summary>
    <div class="solo-row">
      <label for="solo-level" class="sr-only">${esc(t("Level of the bots"))}</label>
      <select id="solo-level">${levelOptions(["expert", "random"])}</select>
    </div>
  </details>
  <p class="form-error" id="solo-error" role="alert"></p>
  <button type="button" class="btn primary big" id="solo-btn">${icon("bot")} ${esc(t("Play solo"))}</button>`;

document.getElementById("solo-btn").addEventListener("click", async () => {
  const error = document.getElementById("solo-error");
  const button = document.getElementById("solo-btn");
  const nameField = document.getElementById("solo-name");
  const body = chosenRules(error);
  if (!body) return;
  const name = nameField.value.trim() || t("Naturalist");
  const bots = Number(document.getElementById("solo-bots").value);
  const level = document.getElementById("solo-level").value;
  button.disabled = true;
  error.textContent = t("Setting up your game…");
  try {
    if (!(await mayStartBotGame(error))) {
      button.disabled = false;
      return;
    }
    const created = await api("POST", "/api/rooms", { body });
    const room = `/api/rooms/${encodeURIComponent(created.room)}`;
    rememberRoom(created.room, { host_token: created.host_token });
    const seat = await api("POST", `${room}/players`, { token: created.host_token, body: { name } });
    rememberRoom(created.room, { seat: seat.seat, token: seat.token, name });
    for (let i = 0; i < bots; i++) await api("POST", `${room}/bots`, { token: created.host_token, body: { level } });
    await api("POST", `${room}/start`, { token: created.host_token });
    window.location.assign(created.url || `/r/${created.room}`);
  } catch (err) {
    // e.g. a deal for another number of players: the room stays open (its lobby is
    // listed under "Your rooms on this device"); say why here
    error.textContent = err.message;
    button.disabled = false;
  }
});

const joinForm = document.getElementById("join-form");
joinForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const raw = joinForm.code.value.trim();
  const error = document.getElementById("join-error");
  const match = /(?:\/r\/)?([A-Za-z0-9_-]{4,})\/?$/.exec(raw);
  if (!match) {
    error.textContent = t("Paste the room code or the invite link a friend sent you.");
    joinForm.code.focus();
    return;
  }
  window.location.assign(`/r/${match[1]}`);
});

// Rooms this browser has a seat in, most recent first, with whose turn it is.
renderMyRooms(document.getElementById("my-rooms-list")).then((n) => {
  document.getElementById("my-rooms").hidden = !n;
});
