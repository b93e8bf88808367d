// A paced room at the table: each waited-for seat's time left, "since your last visit"
// (once, before the table, for a player coming back), and this browser's other rooms in
// the lobby.
import { api } from "../api.js";
import { esc } from "../cards.js";
import { icon } from "../icons.js";
import { t, tn } from "../i18n.js";
import { renderMyRooms } from "../my_rooms.js";
import { durationText, timeLeftText } from "../pace.js";
import { levelName } from "../texts.js";
import { eventText } from "./log.js";
import { $, app, CODE, seenAtOpen as before } from "./state.js";

/** The time left to `seat` in a paced game the table waits for it in ("" otherwise). */
export function clockHTML(seat) {
  const clock = (app.view.turn_clocks || []).find((c) => c.seat === seat && c.due);
  if (!clock) return "";
  return `<p class="clock-note">${icon("clock")} <span data-due="${clock.due}">${esc(timeLeftText(clock.due))}</span></p>`;
}

/** " · paced: 1 day per move" for the header's turn line (HTML; in a span that a phone
 * leaves to screen readers, see play.css), and the time left to this seat when the table
 * waits for it. */
export function paceNoteHTML() {
  const v = app.view;
  const limit = v.turn_limit_seconds;
  if (!limit || v.phase === "over") return "";
  const mine = (v.turn_clocks || []).find((c) => c.seat === v.seat && c.due);
  const left = mine ? ` · ${esc(t("your move: {left}", { left: timeLeftText(mine.due) }))}` : "";
  return `<span class="pace-rule"> · ${esc(t("paced: {time} per move", { time: durationText(limit) }))}</span>${left}`;
}

let checked = false;

/** Once per page, at the first view of a paced table: what happened while the player
 * was away, read from their own seat's log (redacted as in their views). */
export async function sinceLastVisit(v) {
  if (checked || v.seat === null || v.seat === undefined || v.phase === "lobby" || !app.mem.token || !v.turn_limit_seconds) return;
  checked = true;
  if (!before || before.game !== v.game) return;
  let log;
  try {
    log = await api("GET", `/api/rooms/${encodeURIComponent(CODE)}/log?since=${before.events}`, { token: app.mem.token });
  } catch (err) {
    return;
  }
  if (log.game !== v.game || log.seat !== v.seat) return;
  const mine = (log.stand_in_moves || []).slice(before.standIns || 0).filter((m) => m.seat === v.seat);
  if (!log.events.length) return;
  const turns = Math.max(0, app.view.turn - before.turn);
  const items = log.events
    .map((e) => [e, eventText(e)])
    .filter(([, text]) => text)
    .map(([e, text]) => `<li class="log-${esc(e.type)}">${e.type === "turn_started" ? `<strong>${esc(text)}</strong>` : esc(text)}</li>`);
  const bots = mine.map((m) => esc(t("Turn {turn}: a bot ({level}) played your move ({type}).", { turn: m.turn, level: levelName(m.level), type: moveName(m.type) })));
  $("since-summary").textContent = turns
    ? tn("{n} turn was played while you were away.", "{n} turns were played while you were away.", turns)
    : t("The table moved on while you were away.");
  $("since-bots").innerHTML = bots.map((b) => `<li>${icon("bot")} ${b}</li>`).join("");
  $("since-bots").hidden = !bots.length;
  $("since-events").innerHTML = items.join("");
  const dialog = $("since-dialog");
  if (!dialog.open) dialog.showModal();
  $("since-close").focus();
}

function moveName(type) {
  const names = { program: t("its program"), ready: t("ready"), reveal: t("a place"), give_back: t("a card given back"), choose_side: t("a side"), end_game: t("the end of the game") };
  return names[type] || type;
}

let listed = false;

/** The lobby: this browser's other rooms, once per page. */
export function renderOtherRooms() {
  if (listed) return;
  listed = true;
  renderMyRooms($("other-rooms-list"), { except: CODE }).then((n) => {
    $("other-rooms").hidden = !n;
  });
}
