// The rooms this browser has a seat in (dameNature.rooms in local storage), each with
// what it is at now (GET /api/rooms/{room}): whose turn it is, a paced game's time left.
// Shown on the home page and in the lobby, so a player finds their paced games again.
import { api, loadSeats } from "./api.js";
import { esc } from "./cards.js";
import { icon } from "./icons.js";
import { t, tn } from "./i18n.js";
import { timeLeftText } from "./pace.js";

const MOST = 8; // rooms looked up at once: the most recently opened ones

function stateHTML(room, seat) {
  if (room.status === "lobby") return esc(tn("In the lobby, {n} player", "In the lobby, {n} players", room.players.length));
  if (room.status === "over") return esc(room.result && room.result.outcome === "won" ? t("Game over: won") : t("Game over"));
  const waiting = room.waiting_for || [];
  const clock = (room.turn_clocks || []).find((c) => c.seat === seat && c.due);
  if (waiting.includes(seat)) {
    const left = clock ? ` · <span data-due="${clock.due}">${esc(timeLeftText(clock.due))}</span>` : "";
    return `<strong class="your-turn">${icon("ready")} ${esc(t("Your turn"))}</strong>${left}`;
  }
  const names = waiting.map((s) => (room.players[s] ? room.players[s].name : t("Seat {n}", { n: s + 1 })));
  return names.length ? esc(t("Waiting for {names}", { names: names.join(", ") })) : esc(t("Playing"));
}

/** Fill `list` (a <ul>) with this browser's rooms but `except`; how many were listed.
 * Finished games are left out, and so are rooms that are gone. */
export async function renderMyRooms(list, { except = null } = {}) {
  const seats = Object.entries(loadSeats())
    .filter(([code, s]) => s.token && code !== except)
    .sort((a, b) => (b[1].at || 0) - (a[1].at || 0))
    .slice(0, MOST);
  const rooms = await Promise.all(
    seats.map(([code]) => api("GET", `/api/rooms/${encodeURIComponent(code)}`).catch(() => null)),
  );
  const items = seats
    .map(([code, s], i) => [code, s, rooms[i]])
    .filter(([, , room]) => room && room.status !== "over")
    .map(([code, s, room]) => {
      const name = s.name || t("Seat {n}", { n: s.seat + 1 });
      const paced = room.turn_limit_seconds ? ` <span class="badge paced" title="${esc(t("Paced game"))}">${icon("clock")} ${esc(t("Paced"))}</span>` : "";
      return `<li class="my-room" data-room="${esc(code)}"><a href="/r/${esc(code)}">${esc(t("{name} in room {room}…", { name, room: code.slice(0, 8) }))}</a>${paced}
        <span class="room-state">${stateHTML(room, s.seat)}</span></li>`;
    });
  list.innerHTML = items.join("");
  return items.length;
}

/** Before a room is made to play with bots at once (Play solo, the daily deal): whether
 * this address may start one more game with bots (GET /api/bot_rooms); if not, ``error``
 * says what to do (finish one, listed under "Your rooms on this device") and nothing is
 * made: a start refused ``too_many_bot_rooms`` would leave a room in its lobby. */
export async function mayStartBotGame(error) {
  const games = await api("GET", "/api/bot_rooms");
  if (games.in_play < games.max) return true;
  const full = tn(
    "Your address already has {n} game with bots in play, as many as it may: finish it, then try again.",
    "Your address already has {n} games with bots in play, as many as it may: finish one of them, then try again.",
    games.in_play,
  );
  error.innerHTML = `${esc(full)} <a href="/#my-rooms">${esc(t("Your rooms on this device"))}</a>`;
  return false;
}

// the time left counts down on every page that shows one
setInterval(() => {
  for (const el of document.querySelectorAll("[data-due]")) el.textContent = timeLeftText(Number(el.dataset.due));
}, 30_000);
