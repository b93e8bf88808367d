// This turn's reveal (or the last turn's), its animation and announcement, and the
// discard pile.
import { card, cardHTML, cardText, esc } from "../cards.js";
import { icon } from "../icons.js";
import { REASONS, seatName } from "../texts.js";
import { slotText } from "../web.js";
import { $, app, setHTML } from "./state.js";

const REVEAL_STEP = 0.8; // seconds between two cards revealed together

function revealRecords() {
  const v = app.view;
  if (v.revealed_this_turn && v.revealed_this_turn.length) return { list: v.revealed_this_turn, turn: v.turn, current: true };
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
  if (r.result === "placed") {
    if (r.slot) return `${who}: ${what}, ${r.slot.includes(":") ? "placed in " + slotText(r.slot) : "installed"}${r.target ? `, removing ${cardText(r.target)}` : ""}.`;
    return `${who}: ${what}, played${r.target ? `, removing ${cardText(r.target)}` : ""}.`;
  }
  return `${who}: ${what}, discarded: ${REASONS[r.reason] || r.reason || "it could not be placed"}.`;
}

/** The reveal records this client has not shown yet: index -> animation delay (s), so
 * that cards revealed together still appear one at a time, in seat order. */
export function freshReveals() {
  const { list, turn } = revealRecords();
  const fresh = new Map();
  list.forEach((r, i) => {
    const key = `${turn}-${i}-${r.card}`;
    if (!app.shownReveals.has(key)) {
      app.shownReveals.add(key);
      fresh.set(i, fresh.size * REVEAL_STEP);
    }
  });
  return fresh;
}

export function renderReveals(fresh) {
  const v = app.view;
  const { list, turn } = revealRecords();
  $("reveal-title").textContent = list.length ? `Reveal of turn ${turn}` : "Reveal";
  const announce = [];
  let html = list.length
    ? list
        .map((r, i) => {
          const isNew = fresh.has(i);
          if (isNew) announce.push(recordText(r));
          const delay = isNew ? fresh.get(i) : 0;
          const result =
            r.result === "placed"
              ? `<span class="res placed">${icon("ready")} ${r.slot ? (r.slot.includes(":") ? "placed: " + esc(slotText(r.slot)) : "installed") : "played"}${r.target ? ` · removed ${esc(cardText(r.target))}` : ""}</span>`
              : `<span class="res discarded">${icon("discard")} discarded: ${esc(REASONS[r.reason] || r.reason || "")}</span>`;
          return `<li class="reveal-item ${r.result}${isNew ? " new" : ""}" style="animation-delay:${delay}s" data-reveal="${i}">
            <span class="reveal-seat">${i + 1}. ${esc(seatName(v, r.seat))}</span>
            ${cardHTML(r.card, { small: true, modes: v.modes, jokerColour: card(r.card).type === "joker" ? r.colour : null })}
            ${result}</li>`;
        })
        .join("")
    : `<li class="hint">The cards are revealed here one by one, in seat order from the first player.</li>`;
  if (v.phase === "reveal" && v.awaiting && v.revealing) {
    html += `<li class="reveal-item waiting"><span class="reveal-seat">${list.length + 1}. ${esc(seatName(v, v.revealing.seat))}</span>${cardHTML(v.revealing.card, { small: true, modes: v.modes })}<span class="res">choosing where it goes…</span></li>`;
  }
  setHTML($("reveals"), html);
  if (announce.length) $("live").textContent = announce.join(" ");
}

export function lastPlacedSlots(fresh) {
  const { list } = revealRecords();
  const placed = new Map();
  list.forEach((r, i) => {
    if (r.result === "placed" && r.slot) placed.set(r.slot, fresh.has(i) ? fresh.get(i) : null);
  });
  return placed;
}

export function renderDiscard() {
  const v = app.view;
  const n = v.discard.length;
  $("discard-count").textContent = `(${n} · at most ${v.max_discards ?? "?"} to win)`;
  setHTML($("discard"), n ? v.discard.map((c) => cardHTML(c, { small: true, modes: v.modes })).join("") : `<p class="hint">Empty.</p>`);
  $("discard-count").classList.toggle("over-max", v.max_discards !== undefined && n > v.max_discards);
}
