// This turn's reveal (or the last turn's), its animation and announcement, and the
// discard pile.
import { card, cardGender, cardHTML, cardNamed, cardText, esc } from "../cards.js";
import { css } from "../dom.js";
import { COLON, t, tg } from "../i18n.js";
import { icon } from "../icons.js";
import { REASONS, TEXTS, seatName } from "../texts.js";
import { slotText } from "../web.js";
import { $, app, setHTML, speak } from "./state.js";

const REVEAL_STEP = 0.8; // seconds between two cards revealed together

function revealRecords() {
  const v = app.view;
  // during a reveal, only this turn's cards (none yet while its first revealer chooses)
  if (v.phase === "reveal" || (v.revealed_this_turn && v.revealed_this_turn.length)) return { list: v.revealed_this_turn || [], turn: v.turn, current: true };
  if (v.last_turn && v.last_turn.length) {
    // the turn those reveals belong to: that of the last reveal in the log
    const last = [...(v.log || [])].reverse().find((e) => e.type === "revealed");
    const turn = last ? last.turn : v.phase === "over" ? v.turn : v.turn - 1;
    return { list: v.last_turn, turn, current: false };
  }
  return { list: [], turn: v.turn, current: true };
}

export function recordText(r) {
  const v = app.view;
  const who = seatName(v, r.seat);
  const what = cardText(r.card, card(r.card).type === "joker" ? r.colour : null);
  const g = cardGender(r.card);
  const removing = r.target ? t(", removing {card}", { card: cardNamed(r.target) }) : "";
  const said = (result) => `${who}${COLON}${what}, ${result}.`;
  switch (r.result) {
    case "placed":
      if (r.slot) return said(`${r.slot.includes(":") ? tg("placed in {slot}", g, { slot: slotText(r.slot) }) : tg("installed", g)}${removing}`);
      return said(`${tg("played", g)}${removing}`);
    case "played": // a Pollution (stays in the discard pile), a Reintroduction (leaves the game)
      return said(`${tg("played", g)}${removing}`);
    case "in_play": // a Cat, until the end of the turn
      return said(tg("played: in play until the end of the turn", g));
    case "returned": // Cats back to their players' hands
      return said(TEXTS.resultReturned);
    default:
      return said(tg("discarded: {reason}", g, { reason: REASONS[r.reason] || r.reason || t("it could not be placed") }));
  }
}

// A reveal's outcome in the Reveal panel: its icon and words.
function resultHTML(r) {
  const g = cardGender(r.card);
  const removed = r.target ? ` · ${esc(t("removed {card}", { card: cardNamed(r.target) }))}` : "";
  switch (r.result) {
    case "placed":
      return `<span class="res placed">${icon("ready")} ${esc(r.slot ? (r.slot.includes(":") ? tg("placed: {slot}", g, { slot: slotText(r.slot) }) : tg("installed", g)) : tg("played", g))}${removed}</span>`;
    case "played":
      return `<span class="res placed">${icon("ready")} ${esc(tg("played", g))}${removed}</span>`;
    case "in_play":
      return `<span class="res placed">${icon("ready")} ${esc(tg("played: in play until the end of the turn", g))}</span>`;
    case "returned":
      return `<span class="res">${icon("hand")} ${esc(TEXTS.resultReturned)}</span>`;
    default:
      return `<span class="res discarded">${icon("discard")} ${esc(tg("discarded: {reason}", g, { reason: REASONS[r.reason] || r.reason || "" }))}</span>`;
  }
}

/** The reveal records this client has not shown yet: index -> animation delay (s), so
 * that cards revealed together still appear one at a time, in seat order. */
export function freshReveals() {
  const { list, turn } = revealRecords();
  const fresh = new Map();
  // the reveals already on the table when this page first drew it (a reload, a spectator
  // arriving) are shown at once, not replayed
  const first = !app.revealsSeen;
  app.revealsSeen = true;
  list.forEach((r, i) => {
    const key = `${turn}-${i}-${r.card}`;
    if (!app.shownReveals.has(key)) {
      app.shownReveals.add(key);
      if (!first) fresh.set(i, fresh.size * REVEAL_STEP);
    }
  });
  return fresh;
}

export function renderReveals(fresh) {
  const v = app.view;
  const { list, turn } = revealRecords();
  $("reveal-title").textContent = list.length || v.phase === "reveal" ? t("Reveal of turn {turn}", { turn }) : t("Reveal");
  const announce = [];
  let html = list.length
    ? list
        .map((r, i) => {
          const isNew = fresh.has(i);
          if (isNew) announce.push(recordText(r));
          const delay = isNew ? fresh.get(i) : 0;
          const result = resultHTML(r);
          return `<li class="reveal-item ${r.result}${isNew ? " new" : ""}"${css(`animation-delay:${delay}s`)} data-reveal="${i}">
            <span class="reveal-seat">${i + 1}. ${esc(seatName(v, r.seat))}</span>
            ${cardHTML(r.card, { small: true, modes: v.modes, jokerColour: card(r.card).type === "joker" ? r.colour : null })}
            ${result}</li>`;
        })
        .join("")
    : `<li class="hint">${esc(t("The cards are revealed here one by one, in seat order from the first player."))}</li>`;
  if (v.phase === "reveal" && v.awaiting && v.revealing) {
    html += `<li class="reveal-item waiting"><span class="reveal-seat">${list.length + 1}. ${esc(seatName(v, v.revealing.seat))}</span>${cardHTML(v.revealing.card, { small: true, modes: v.modes })}<span class="res">${esc(t("choosing where it goes…"))}</span></li>`;
  }
  setHTML($("reveals"), html);
  if (announce.length) speak(announce.join(" "));
}

export function lastPlacedSlots(fresh) {
  const { list } = revealRecords();
  const placed = new Map();
  list.forEach((r, i) => {
    if (r.result === "placed" && r.slot) placed.set(r.slot, fresh.has(i) ? fresh.get(i) : null);
  });
  return placed;
}

/** Who put a card of the discard pile there, when and why (from the whole log), as a
 * sentence; "" when the log does not tell (not read yet). */
export function discardOrigin(c) {
  const v = app.view;
  const events = app.events || [];
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    const turn = TEXTS.onTurn(e.turn);
    if (e.type === "revealed" && e.card === c) {
      if (e.result === "discarded") return TEXTS.discardedBy(seatName(v, e.seat), turn, REASONS[e.reason] || e.reason || "");
      return TEXTS.playedBy(seatName(v, e.seat), turn);
    }
    if (e.type === "removed_from_web" && e.card === c) return TEXTS.removedFromWeb(turn, REASONS[e.reason] || e.reason || "");
    if (e.type === "swap_discard" && e.card === c) return TEXTS.swappedBy(seatName(v, e.seat), turn);
    if (e.type === "cat_discarded" && (e.card === c || card(c).type === "cat")) return TEXTS.discardedBy(seatName(v, e.seat), turn, REASONS[e.reason] || REASONS.cat_alone);
  }
  return "";
}

export function renderDiscard() {
  const v = app.view;
  const n = v.discard.length;
  $("discard-count").textContent = t("({n} · at most {max} to win)", { n, max: v.max_discards ?? "?" });
  const items = v.discard.map((c, i) => {
    const why = discardOrigin(c);
    const label = `${cardText(c)}${why ? `. ${why}` : ""}`;
    return `<li><button type="button" class="discard-card" data-key="discard-${i}-${esc(c)}" aria-label="${esc(label)}">${cardHTML(c, { small: true, modes: v.modes })}${why ? `<span class="tip" aria-hidden="true">${esc(why)}</span>` : ""}</button></li>`;
  });
  setHTML($("discard"), n ? `<ol class="discard-list">${items.join("")}</ol>` : `<p class="hint">${esc(t("Empty."))}</p>`);
  $("discard-count").classList.toggle("over-max", v.max_discards !== undefined && n > v.max_discards);
}
