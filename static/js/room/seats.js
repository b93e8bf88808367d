// Seats that move on: who holds the host role, the hand-over of an absent seat to a bot
// (offered to every seated player once the seat counts as absent), the table's events
// (who left, who came back, a bot standing in, the host role passing on) in the log and
// told aloud, the moves a bot played for a person, and "Open my seat on another device"
// (a personal link and its QR code).
import { api } from "../api.js";
import { esc } from "../cards.js";
import { t, tn } from "../i18n.js";
import { icon } from "../icons.js";
import { qrSvg } from "../qr.js";
import { seatName } from "../texts.js";
import { $, app, CODE, mySeat, seenAtOpen, speak, toast } from "./state.js";

const ROOM = `/api/rooms/${encodeURIComponent(CODE)}`;
const svg = (body) => `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${body}</svg>`;
const CROWN = svg('<path d="M3 18h18l-1.5-10-4.5 4-3-6-3 6-4.5-4z" fill="currentColor"/>');
const CLOCK = svg('<circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 7v5l3 2" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>');

function seatList() {
  return (app.view && app.view.players) || (app.room && app.room.players) || [];
}

/** Whether this browser holds the host role: its seat is marked host, or it has the host
 * token and no seat holds the role (a host who never sat down). */
export function amHost() {
  const list = seatList();
  const me = mySeat();
  const mine = list.find((p) => p.seat === me);
  if (mine && mine.host && app.mem.token) return true;
  return !!app.mem.host_token && !list.some((p) => p.host);
}

/** The token of the host's calls from this browser (its seat's once it holds the role). */
export function hostToken() {
  const me = mySeat();
  const mine = seatList().find((p) => p.seat === me);
  return mine && mine.host && app.mem.token ? app.mem.token : app.mem.host_token;
}

/** On a seat of the table: a seated player (or the host) may hand a seat whose person
 * has left to a bot: the host as soon as the seat has no connection, anyone seated once
 * it counts as absent. */
export function handOverButton(p) {
  const v = app.view;
  if (!v || v.phase === "lobby" || v.phase === "over" || p.bot || p.connected !== false) return "";
  if (p.seat === mySeat()) return "";
  const host = amHost();
  const seated = mySeat() !== null && !!app.mem.token;
  const name = seatName(v, p.seat);
  if (!p.absent && !host) {
    return seated ? `<p class="takeover-note away-note">${CLOCK} ${esc(t("{name} left a moment ago.", { name }))}</p>` : "";
  }
  if (!seated && !host) return "";
  const label = t("A bot takes over the seat of {name}", { name: p.name });
  return `<p class="takeover-note">${esc(t("{name} left: a bot can play for them until they come back.", { name }))}
    <button type="button" class="btn small takeover" data-seat="${p.seat}" aria-label="${esc(label)}">${icon("bot")} ${esc(t("A bot takes over"))}</button></p>`;
}

/** The token a hand-over is sent with: this browser's seat, else the host's. */
export function handOverToken() {
  return mySeat() !== null && app.mem.token ? app.mem.token : hostToken();
}

/** The host's badge on a seat (the crown and the word, never an icon alone). */
export function hostBadge(p) {
  if (!p || !p.host) return "";
  return `<span class="badge host-badge" title="${esc(t("Host of the room"))}">${CROWN} ${esc(t("host"))}</span>`;
}

// ---------------------------------------------------------------- names

/** A name as the server compares names (NFKC, case folded, spaces collapsed). */
export const nameKey = (name) => name.normalize("NFKC").toLowerCase().split(/\s+/).filter(Boolean).join(" ");

/** Why `name` cannot be taken at this table ("" when it can), with a free name offered. */
export function nameTaken(name, seats) {
  const taken = new Set(seats.map((p) => nameKey(p.name)));
  const same = seats.find((p) => nameKey(p.name) === nameKey(name));
  if (!same) return "";
  let n = 2;
  while (taken.has(nameKey(`${name} ${n}`))) n++;
  return t("Someone at this table is already called {name}: choose another name, such as “{free}”.", { name: same.name, free: `${name} ${n}` });
}

// ---------------------------------------------------------------- the table's events

function tableEventText(e) {
  const who = app.view ? seatName(app.view, e.seat) : e.name;
  switch (e.type) {
    case "left":
      return t("{who} left the table.", { who });
    case "returned":
      return t("{who} is back.", { who });
    case "stand_in":
      return t("A bot plays for {who} until they come back.", { who });
    case "stand_in_ended":
      return t("{who} plays their seat again.", { who });
    case "host":
      return t("{who} is the host now.", { who });
    default:
      return null;
  }
}

const drawn = { game: null, seqs: new Set() };

/** The log items of the table's events that come before engine event `index` (or all
 * of those not drawn yet, with `index` null), for room/log.js to put among the game's. */
export function tableItems(index) {
  const v = app.view;
  if (!v) return "";
  if (drawn.game !== v.game) {
    drawn.game = v.game;
    drawn.seqs.clear();
  }
  let html = "";
  for (const e of v.table_events || []) {
    if (drawn.seqs.has(e.seq) || (index !== null && e.log_index > index)) continue;
    drawn.seqs.add(e.seq);
    const text = tableEventText(e);
    if (text) html += `<li class="log-table log-table-${esc(e.type)}">${icon(e.type === "stand_in" ? "bot" : "eye")} ${esc(text)}</li>`;
  }
  return html;
}

/** The log was emptied to be drawn again from its start. */
export function tableItemsReset() {
  drawn.game = null;
  drawn.seqs.clear();
}

/** " (a bot played for Dan)" after a reveal whose card a stand-in programmed; " (a bot
 * played for you)" on that seat's own screen. */
export function standInNote(e) {
  const v = app.view;
  if (!v || !v.stand_in_moves || e.seat === undefined) return "";
  const played = v.stand_in_moves.some((m) => m.seat === e.seat && m.turn === e.turn && m.type === "program");
  if (!played) return "";
  return ` ${v.seat === e.seat ? t("(a bot played for you)") : t("(a bot played for {name})", { name: seatName(v, e.seat) })}`;
}

const told = { seen: null };

/** Say new table events once (a toast and the screen reader's live region); a person back
 * on their seat is told what a bot played for them. */
export function announceTableEvents(view) {
  const events = view.table_events || [];
  const last = events.length ? events[events.length - 1].seq : 0;
  if (told.seen === null || told.seen > last) {
    told.seen = last; // the first view: what happened before is in the log
    tellWhatWasPlayed(view);
    return;
  }
  const fresh = events.filter((e) => e.seq > told.seen && e.seat !== view.seat);
  told.seen = last;
  const texts = fresh.map(tableEventText).filter(Boolean);
  if (texts.length) {
    toast(texts.join(" "));
    speak(texts.join(" "));
  }
}

/** The moves a bot played for this seat that this browser has not shown yet (all of them
 * when it has shown nothing of this game). */
function tellWhatWasPlayed(view) {
  const me = view.seat;
  if (me === null || me === undefined || view.phase === "lobby") return;
  const shown = seenAtOpen && seenAtOpen.game === view.game ? seenAtOpen.standIns || 0 : 0;
  const mine = (view.stand_in_moves || []).slice(shown).filter((m) => m.seat === me);
  if (!mine.length) return;
  const turns = [...new Set(mine.map((m) => m.turn))];
  toast(tn("While you were away, a bot played for you in turn {turns} (see the log).", "While you were away, a bot played for you in turns {turns} (see the log).", turns.length, { turns: turns.join(", ") }));
}

// ---------------------------------------------------------------- another device

function deviceLink() {
  const base = $("room").dataset.inviteBase || location.origin;
  return `${base}/r/${encodeURIComponent(CODE)}#seat=${app.mem.token}`;
}

function openDeviceDialog() {
  const dialog = $("device-dialog");
  if (!app.mem.token) {
    toast(t("Take a seat first: the link opens your seat."));
    return;
  }
  const link = deviceLink();
  $("device-link").value = link;
  $("device-qr").innerHTML = qrSvg(link, t("QR code of the link to your seat"));
  $("device-status").textContent = "";
  $("device-link-box").hidden = true;
  dialog.showModal();
}

document.addEventListener("click", async (event) => {
  const target = event.target.closest("#device-btn, #device-show, #device-copy");
  if (!target) return;
  if (target.id === "device-btn") openDeviceDialog();
  else if (target.id === "device-show") {
    $("device-link-box").hidden = false;
    $("device-link").select();
  } else if (target.id === "device-copy") {
    try {
      await navigator.clipboard.writeText($("device-link").value);
      $("device-status").textContent = t("Link copied. Whoever has it has your seat.");
    } catch (err) {
      $("device-link-box").hidden = false;
      $("device-link").select();
      $("device-status").textContent = t("Select the link and copy it (Ctrl+C, or long-press on a phone).");
    }
  }
});

/** The header's "Other device" button is there for a seated player only. */
export function renderDeviceButton() {
  const button = $("device-btn");
  if (button) button.hidden = !app.mem.token || mySeat() === null;
}

/** A hand-over, sent with this browser's seat token (or the host's). */
export function handOver(seat, level) {
  return api("POST", `${ROOM}/bots`, { token: handOverToken(), body: { seat, level } });
}
