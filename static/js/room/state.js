// The room page's state: the room, the latest view, the seat remembered in this browser,
// and what every screen derives from them. No drawing here but the screen switch.
import { roomMemory } from "../api.js";
import { BOOT, card, setActiveModes } from "../cards.js";
import { applyStyles } from "../dom.js";
import { COLOUR_ORDER } from "../texts.js";

export const $ = (id) => document.getElementById(id);

/** Replace an element's markup only when it changed (a view often changes one corner of
 * the table): keeps focus, animations and the browser's work small. True if replaced. */
export function setHTML(el, html) {
  if (el._html === html) return false;
  el._html = html;
  el.innerHTML = html;
  applyStyles(el);
  return true;
}

const DOUBLE_MS = 600; // a second click this soon after the first one...
const DOUBLE_PX = 12; // ...and this close to it is the second half of a double click

/** Whether a click in `area` (a container of controls) should act: not the second click of
 * a double click (issue 9: at human speed, it programmed the card that had slid under the
 * pointer, or un-readied just after Ready). Keyboard activations always act. */
export function mayActivate(area, event) {
  if (event.detail === 0) return true; // Enter or Space
  if (event.detail > 1) return false;
  const now = performance.now();
  const last = area._lastClick;
  if (last && now - last.at < DOUBLE_MS && Math.abs(event.clientX - last.x) <= DOUBLE_PX && Math.abs(event.clientY - last.y) <= DOUBLE_PX) {
    return false;
  }
  // only a click that acted starts the window: clicks ignored in a row (a player tapping
  // again while the table redraws) must not keep the next one ignored for ever
  area._lastClick = { at: now, x: event.clientX, y: event.clientY };
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
  revealsSeen: false, // false until the table is first drawn (its reveals then shown as they are)
  givebackFor: null, // the pending give the dialog was opened for
  confirmDiscard: null, // the reveal option (a Joker's discard) waiting for "yes, discard it"
  choiceShown: null, // the reveal choice whose places were last scrolled into view
  events: [], // the whole log of this game as this seat sees it (room/log.js)
  eventSigs: [], // their JSON, to find where a view's log tail joins it
  logGame: null, // the game they belong to
  logDrawn: 0, // how many of them the log panel shows
  logLoading: null, // the game whose whole log is being read
  hostRules: null, // GET /api/rooms/{code}/rules (the host's own read: seed, deal)
  hostRulesVersion: null, // the room version they were read at
};

/** What this browser had shown of the room's game when the page opened (room/log.js keeps
 * the seat memory's `seen` up to date while the page is seen): `{game, events, turn,
 * standIns}`, or null. */
export const seenAtOpen = app.mem.seen ? { ...app.mem.seen } : null;

// The screens, registered by room.js: render() draws the lobby or the game from them,
// and a change of connection redraws the banner (set without importing them here).
export const screens = { lobby: () => {}, game: () => {}, banner: () => {} };

export function show(id) {
  for (const v of ["loading-view", "error-view", "lobby-view", "game-view", "end-view"]) $(v).hidden = v !== id && !(id === "end-view" && v === "game-view");
  // no room: no connection to speak of, no turn to be alerted of, no game to help with
  document.querySelector(".header-status").hidden = id === "error-view";
}

let toastTimer = null;
export function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), 5000);
}

/** Whether the person taps rather than clicks (a phone, a tablet): the words say "tap". */
export function touch() {
  return window.matchMedia("(pointer: coarse)").matches || window.matchMedia("(hover: none)").matches;
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
  const active = document.activeElement;
  const focusKey = active && active.dataset ? active.dataset.key : null;
  // where the focus was in its group (a hand card): the card that takes its place gets it
  const group = active && active.dataset && active.dataset.focusGroup;
  const groupIndex = group ? [...document.querySelectorAll(`[data-focus-group="${group}"]`)].indexOf(active) : -1;
  const inDock = !!(active && active.closest && active.closest("#me"));
  const fromLobby = !$("lobby-view").hidden;
  if (!app.room && !app.view) return;
  setActiveModes((app.view && app.view.modes) || (app.room && app.room.modes) || []);
  if (inGame()) {
    screens.game();
  } else {
    screens.lobby();
  }
  if (focusKey) {
    const again = document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
    else if (!again && group) {
      const peers = [...document.querySelectorAll(`[data-focus-group="${group}"]:not(:disabled)`)];
      const next = peers[Math.min(groupIndex, peers.length - 1)];
      if (next) next.focus({ preventScroll: true });
    }
  }
  // a control of the dock that went away or is hidden now (a reveal's choice made, a
  // prompt closed, the hand put away while your reveal asks where the card goes), or the
  // lobby put away by the game's start: the focus goes to the dock rather than falling
  // back to the top of the page
  if (inDock || (fromLobby && inGame())) refocusDock();
}

const shown = (el) => el && el !== document.body && el.isConnected && el.getClientRects().length > 0;

/** When the focus has fallen off the page (on <body>, or on an element gone or hidden),
 * put it on the dock's first control shown. */
export function refocusDock() {
  if (shown(document.activeElement)) return;
  const first = [...document.querySelectorAll("#me button:not(:disabled), #me [tabindex='0']")].find(shown);
  if (first) first.focus({ preventScroll: true });
}

let speaking = false;

/** Say `text` in the screen reader's live region; what one view has to say (a reveal, a
 * Symbiosis, a player leaving) is said together, not each text over the last one. */
export function speak(text) {
  const live = $("live");
  if (!live || !text) return;
  if (speaking) {
    live.textContent += ` ${text}`;
    return;
  }
  live.textContent = text;
  speaking = true;
  queueMicrotask(() => {
    speaking = false;
  });
}

export function players() {
  return app.view.players || [];
}

export function myCards() {
  const v = app.view;
  return [...(v.programmed ? [v.programmed] : []), ...sortHand(v.hand || [])];
}

/** Whether this seat may make a Symbiosis now: the engine lists the actions it may send. */
export function canUseSymbiosis() {
  return (app.view.legal_types || []).some((t) => ["show", "give", "swap_discard"].includes(t));
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
