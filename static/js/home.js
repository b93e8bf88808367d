// Home page: create a room (advanced rules one by one, or a path as a campaign; optional
// seed or deal) or join one with its code.
import { api, loadSeats, rememberRoom } from "./api.js";
import { esc } from "./cards.js";
import { t } from "./i18n.js";
import { PickerError, readRulesPicker, renderRulesPicker } from "./rules_picker.js";

const form = document.getElementById("create-form");
renderRulesPicker(document.getElementById("rules-picker"));

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("create-error");
  const button = document.getElementById("create-btn");
  error.textContent = "";
  let body;
  try {
    body = readRulesPicker(form);
  } catch (err) {
    if (!(err instanceof PickerError)) throw err;
    error.textContent = err.message;
    err.field.focus();
    return;
  }
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

// Rooms this browser has a seat in, most recent first.
const seats = Object.entries(loadSeats())
  .filter(([, s]) => s.token)
  .sort((a, b) => (b[1].at || 0) - (a[1].at || 0))
  .slice(0, 5);
if (seats.length) {
  document.getElementById("my-rooms").hidden = false;
  document.getElementById("my-rooms-list").innerHTML = seats
    .map(([code, s]) => `<li><a href="/r/${esc(code)}">${esc(t("{name} in room {room}…", { name: s.name || t("Seat {n}", { n: s.seat + 1 }), room: code.slice(0, 8) }))}</a></li>`)
    .join("");
}
