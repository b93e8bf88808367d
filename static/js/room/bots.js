// Bot seats and the lobby's seat management: the bot badge (an icon and words, never a
// colour alone), the host's "Add a bot" (with its level) and "Remove" on each seat, a
// player's "Leave my seat", and during a game the host's "A bot takes over" on the seat
// of a player who left.
import { api } from "../api.js";
import { esc } from "../cards.js";
import { icon } from "../icons.js";
import { t } from "../i18n.js";
import { levelName, levelOptions, seatName } from "../texts.js";
import { leftSeat, refreshRoom } from "./net.js";
import { amHost, handOver, handOverButton, hostToken } from "./seats.js";
import { $, app, CODE, mySeat, toast } from "./state.js";

const ROOM = `/api/rooms/${encodeURIComponent(CODE)}`;
let levels = null; // GET /api/bots: {levels, default}
// Whether the room is full, as the latest render saw it. A render that comes while the
// first one still waits for the bot levels finds no "Add a bot" button yet: it records the
// state here, and the first render applies it once it has built the button.
let roomFull = false;

async function loadLevels() {
  if (levels) return levels;
  try {
    levels = await api("GET", "/api/bots");
  } catch (err) {
    levels = { levels: ["random", "expert"], default: "expert" };
  }
  return levels;
}

/** The badge of a bot seat: the robot icon and the words (a stand-in says for whom). */
export function botBadge(p) {
  if (!p || !p.bot) return "";
  const title = p.stand_in ? t("A bot plays for {name} until they come back ({level})", { name: p.name, level: levelName(p.bot) }) : t("A bot plays this seat ({level})", { level: levelName(p.bot) });
  return `<span class="badge bot" title="${esc(title)}">${icon("bot")} ${esc(t("bot · {level}", { level: levelName(p.bot) }))}<span class="sr-only">: ${esc(title)}</span></span>`;
}

const isHost = amHost;

/** The host's "Remove" button on a lobby seat (not on their own: they leave it). */
export function removeSeatButton(p) {
  if (!isHost() || p.seat === mySeat()) return "";
  const label = t("Remove {name} from the room", { name: p.name });
  return `<button type="button" class="btn small remove-seat" data-seat="${p.seat}" aria-label="${esc(label)}" title="${esc(label)}">${esc(t("Remove"))}</button>`;
}

/** Under the lobby's seats: "Leave my seat" for a seated player; for the host, a level
 * and "Add a bot" while a seat is free. */
export async function renderSeatControls(players) {
  const me = mySeat();
  const seated = me !== null && me !== undefined && !!app.mem.token;
  const leave = $("leave-seat");
  leave.hidden = !seated;
  leave.innerHTML = seated ? `<button type="button" class="btn" id="leave-btn">${esc(t("Leave my seat"))}</button>` : "";
  const box = $("bot-controls");
  box.hidden = !isHost();
  if (!isHost()) return;
  roomFull = players.length >= ((app.room && app.room.seats_max) || 6);
  if (!box.dataset.ready) {
    box.dataset.ready = "1";
    const { levels: all, default: chosen } = await loadLevels();
    box.innerHTML = `<div class="bot-row">
        <label for="bot-level">${esc(t("Level of the bot"))}</label>
        <select id="bot-level">${levelOptions(all, chosen || "expert")}</select>
        <button type="button" class="btn" id="add-bot-btn">${icon("bot")} ${esc(t("Add a bot"))}</button>
      </div>
      <p class="form-error" id="bot-error" role="alert"></p>`;
  }
  updateAddBot();
}

function updateAddBot() {
  const add = $("add-bot-btn");
  if (!add) return; // not built yet (the levels are loading): the render building it will call again
  add.disabled = roomFull;
  add.title = roomFull ? t("The room is full.") : "";
}

/** On the table: a seat whose person left may be handed to a bot (room/seats.js says
 * by whom and when). */
export const takeoverButton = handOverButton;

async function request(button, errorLine, call) {
  if (errorLine) errorLine.textContent = "";
  if (button) button.disabled = true;
  try {
    await call();
    await refreshRoom();
  } catch (err) {
    if (errorLine) errorLine.textContent = err.message;
    else toast(err.message);
  } finally {
    // the refresh may have re-rendered the controls: "Add a bot" stays off in a full room
    if (button && button.id === "add-bot-btn") updateAddBot();
    else if (button && button.isConnected) button.disabled = false;
  }
}

document.addEventListener("click", (event) => {
  const target = event.target.closest("#add-bot-btn, .remove-seat, #leave-btn, .takeover");
  if (!target) return;
  const host = hostToken();
  if (target.id === "add-bot-btn") {
    request(target, $("bot-error"), () => api("POST", `${ROOM}/bots`, { token: host, body: { level: $("bot-level").value } }));
  } else if (target.classList.contains("remove-seat")) {
    request(target, $("start-error"), () => api("DELETE", `${ROOM}/players/${target.dataset.seat}`, { token: host }));
  } else if (target.id === "leave-btn") {
    request(target, $("start-error"), async () => {
      await api("DELETE", `${ROOM}/players/me`, { token: app.mem.token });
      leftSeat(t("You left your seat; you can take one again or watch."));
    });
  } else if (target.classList.contains("takeover")) {
    const level = (levels && levels.default) || "expert";
    request(target, null, () => handOver(Number(target.dataset.seat), level));
  }
});
loadLevels();
