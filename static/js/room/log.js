// The game log: the events this seat may see, as sentences.
import { cardText, esc } from "../cards.js";
import { REASONS, seatName } from "../texts.js";
import { slotText } from "../web.js";
import { recordText } from "./reveal.js";
import { $, app } from "./state.js";

function eventText(e) {
  const v = app.view;
  const who = seatName(v, e.seat);
  const paid = e.paid_with === "free" ? " (free Symbiosis)" : e.paid_with === "card" ? " (Symbiosis card)" : "";
  switch (e.type) {
    case "turn_started":
      return `Turn ${e.turn} begins; ${seatName(v, e.first_player)} is first player.`;
    case "show":
      return `${who} shows ${e.card ? cardText(e.card) : "a card"} ${e.to !== null && e.to !== undefined ? "to " + seatName(v, e.to) : "to everyone"}${paid}.`;
    case "give":
      return `${who} gives ${e.card ? cardText(e.card) : "a card"} to ${seatName(v, e.to)}${paid}.`;
    case "give_back":
      return `${who} gives ${e.card ? cardText(e.card) : "a card"} back to ${seatName(v, e.to)}.`;
    case "swap_discard":
      return `${who} swaps ${cardText(e.card)} with ${cardText(e.take)} from the discard pile${paid}.`;
    case "revealed":
      return recordText(e);
    case "removed_from_web":
      return `${cardText(e.card)} leaves the web (${slotText(e.slot)}): ${REASONS[e.reason] || e.reason}.`;
    case "side_chosen":
      return `${who} chooses the ${e.side === "plant" ? "Plant" : "Animal"} side.`;
    case "cats_returned":
      return `Two Cats or more were revealed: they go back to their players' hands.`;
    case "cat_discarded":
      return `The Cat of ${who} goes to the discard pile.`;
    case "game_ended_by_players":
      return `${who} ends the game, which could no longer be won.`;
    case "game_over":
      return e.outcome === "won" ? `The web is complete: won, with ${e.discards} card(s) discarded.` : `The game is lost (${e.discards} cards discarded).`;
    default:
      return null;
  }
}

export function renderLog() {
  const v = app.view;
  const log = (v.log || []).map((e) => ({ e, sig: JSON.stringify(e) }));
  const list = $("log");
  let start = 0;
  if (app.lastLogSig) {
    let found = -1;
    for (let i = log.length - 1; i >= 0; i--)
      if (log[i].sig === app.lastLogSig) {
        found = i;
        break;
      }
    if (found >= 0) start = found + 1;
    else list.innerHTML = "";
  }
  const items = [];
  for (const { e } of log.slice(start)) {
    const text = eventText(e);
    if (text) items.push(`<li class="log-${e.type}">${e.type === "turn_started" ? "<strong>" : ""}${esc(text)}${e.type === "turn_started" ? "</strong>" : ""}</li>`);
  }
  if (items.length) {
    list.insertAdjacentHTML("beforeend", items.join(""));
    while (list.children.length > 400) list.firstElementChild.remove();
    list.scrollTop = list.scrollHeight;
  }
  if (log.length) app.lastLogSig = log[log.length - 1].sig;
}
