// The room page's state: the room, the latest view, the seat remembered in this browser,
// and what every screen derives from them. No drawing here but the screen switch.
import { roomMemory } from "../api.js";
import { BOOT, card } from "../cards.js";
import { COLOUR_ORDER } from "../texts.js";

export const $ = (id) => document.getElementById(id);

/** Replace an element's markup only when it changed (a view often changes one corner of
 * the table): keeps focus, animations and the browser's work small. True if replaced. */
export function setHTML(el, html) {
  if (el._html === html) return false;
  el._html = html;
  el.innerHTML = html;
  return true;
}

export const CODE = $("room").dataset.code;
export const MODES = Object.fromEntries(BOOT.modes.map((m) => [m.mode, m]));

export const app = {
  mem: roomMemory(CODE),
  room: null, // GET /api/rooms/{code}
  view: null, // latest view from the websocket
  socket: null,
  conn: "connecting",
  endDismissed: false,
  shownReveals: new Set(),
  givebackFor: null, // the pending give the dialog was opened for
  lastLogSig: null,
};

// The screens, registered by room.js: render() draws the lobby or the game from them,
// and a change of connection redraws the banner (set without importing them here).
export const screens = { lobby: () => {}, game: () => {}, banner: () => {} };

export function show(id) {
  for (const v of ["loading-view", "error-view", "lobby-view", "game-view", "end-view"]) $(v).hidden = v !== id && !(id === "end-view" && v === "game-view");
}

let toastTimer = null;
export function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), 5000);
}

export function mySeat() {
  const v = app.view;
  if (v && v.seat !== undefined && v.seat !== null) return v.seat;
  return app.mem.seat ?? null;
}

export function inGame() {
  const v = app.view;
  return v && v.phase && v.phase !== "lobby";
}

export function render() {
  const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  if (!app.room && !app.view) return;
  if (inGame()) {
    screens.game();
  } else {
    screens.lobby();
  }
  if (focusKey) {
    const again = document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
  }
}

export function players() {
  return app.view.players || [];
}

export function myCards() {
  const v = app.view;
  return [...(v.programmed ? [v.programmed] : []), ...sortHand(v.hand || [])];
}

export function canUseSymbiosis() {
  const v = app.view;
  const me = mySeat();
  if (me === null || v.phase !== "programming" || v.pending_give) return false;
  const p = players().find((x) => x.seat === me);
  const free = v.first_player === me && v.free_symbiosis_available;
  return free || (p && p.symbiosis_cards > 0);
}

// A hand is easier to read sorted: Conditions by colour, Jokers, plants, animals, others.
const TYPE_ORDER = { condition: 0, joker: 1, species: 2, cat: 3, pollution: 4, reintroduction: 5 };
function sortKey(id) {
  const c = card(id);
  const colour = c.colour ? COLOUR_ORDER.indexOf(c.colour) : 0;
  const kind = c.type === "species" ? (c.kind === "plant" ? 0 : 1) : 0;
  return [TYPE_ORDER[c.type] ?? 9, kind, colour, c.set === "wetland" ? 1 : 0, id];
}
export function sortHand(cards) {
  return [...cards].sort((a, b) => {
    const ka = sortKey(a);
    const kb = sortKey(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  });
}
