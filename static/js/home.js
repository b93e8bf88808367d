// Home page: create a room (advanced rules one by one, or a path as a campaign; optional
// seed) or join one with its code.
import { api, loadSeats, rememberRoom } from "./api.js";
import { esc } from "./cards.js";
import { readRulesPicker, renderRulesPicker } from "./rules_picker.js";

const form = document.getElementById("create-form");
renderRulesPicker(document.getElementById("rules-picker"));

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("create-error");
  const button = document.getElementById("create-btn");
  error.textContent = "";
  const body = {};
  Object.assign(body, readRulesPicker(form));
  const seedText = form.seed.value.trim();
  if (seedText !== "") {
    const seed = Number(seedText);
    if (!Number.isInteger(seed) || seed < 0) {
      error.textContent = "The seed is a whole number (0 or more), or empty.";
      form.seed.focus();
      return;
    }
    body.seed = seed;
  }
  const dealText = form.deal.value.trim();
  if (dealText !== "") {
    try {
      body.deal = JSON.parse(dealText);
    } catch (err) {
      error.textContent = "The deal is not valid JSON.";
      form.deal.focus();
      return;
    }
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
    error.textContent = "Paste the room code or the invite link a friend sent you.";
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
    .map(([code, s]) => `<li><a href="/r/${esc(code)}">${esc(s.name || "Seat " + (s.seat + 1))} in room ${esc(code.slice(0, 8))}…</a></li>`)
    .join("");
}
