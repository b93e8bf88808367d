// Home page: create a room (advanced rules one by one, or a path as a campaign; optional
// seed) or join one with its code.
import { api, loadSeats, rememberRoom } from "./api.js";
import { BOOT, esc } from "./cards.js";

const modeList = document.getElementById("mode-list");
const pathList = document.getElementById("path-list");
const modesById = Object.fromEntries(BOOT.modes.map((m) => [m.mode, m]));

const PATH_TITLES = { 1: "Natural Variations", 2: "Natural Areas Under Strain", 3: "Human Impacts", 4: "The Impacts of Other Species" };
modeList.innerHTML = BOOT.modes
  .map(
    (m, i) => `${i % 3 === 0 ? `<p class="mode-group">Path ${i / 3 + 1}: ${PATH_TITLES[i / 3 + 1]}</p>` : ""}<label class="mode-option">
      <input type="checkbox" name="mode" value="${m.mode}">
      <span class="mode-text"><span class="mode-title">${i + 1}. ${esc(m.title)} <span class="fr" lang="fr">${esc(m.title_fr)}</span></span>
      <span class="mode-summary">${esc(m.summary)}</span></span></label>`,
  )
  .join("");

pathList.innerHTML = Object.entries(BOOT.paths)
  .map(
    ([p, modes]) => `<label class="mode-option">
      <input type="radio" name="path" value="${p}"${p === "1" ? " checked" : ""}>
      <span class="mode-text"><span class="mode-title">Path ${p}: ${PATH_TITLES[p] || ""}</span>
      <span class="mode-summary">${modes.map((m, i) => `Stage ${i + 1}: ${esc(modesById[m].title)}`).join(" · ")}</span></span></label>`,
  )
  .join("");

const form = document.getElementById("create-form");
const modesFieldset = document.getElementById("modes-fieldset");
const pathFieldset = document.getElementById("path-fieldset");
form.addEventListener("change", (event) => {
  if (event.target.name === "kind") {
    const path = form.kind.value === "path";
    modesFieldset.hidden = path;
    pathFieldset.hidden = !path;
  }
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("create-error");
  const button = document.getElementById("create-btn");
  error.textContent = "";
  const body = {};
  if (form.kind.value === "path") {
    body.path = Number(form.querySelector('input[name="path"]:checked').value);
  } else {
    body.modes = [...form.querySelectorAll('input[name="mode"]:checked')].map((x) => x.value);
  }
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
