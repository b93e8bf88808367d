// The game log: the events this seat may see, as sentences.
import { cardText, esc } from "../cards.js";
import { t, tn } from "../i18n.js";
import { REASONS, seatName } from "../texts.js";
import { slotText } from "../web.js";
import { recordText } from "./reveal.js";
import { $, app } from "./state.js";

function eventText(e) {
  const v = app.view;
  const who = seatName(v, e.seat);
  const paid = e.paid_with === "free" ? t(" (free Symbiosis)") : e.paid_with === "card" ? t(" (Symbiosis card)") : "";
  const aCard = (id) => (id ? cardText(id) : t("a card"));
  switch (e.type) {
    case "turn_started":
      return t("Turn {turn} begins; {who} is first player.", { turn: e.turn, who: seatName(v, e.first_player) });
    case "show":
      return e.to !== null && e.to !== undefined
        ? t("{who} shows {card} to {to}{paid}.", { who, card: aCard(e.card), to: seatName(v, e.to), paid })
        : t("{who} shows {card} to everyone{paid}.", { who, card: aCard(e.card), paid });
    case "give":
      return t("{who} gives {card} to {to}{paid}.", { who, card: aCard(e.card), to: seatName(v, e.to), paid });
    case "give_back":
      return t("{who} gives {card} back to {to}.", { who, card: aCard(e.card), to: seatName(v, e.to) });
    case "swap_discard":
      return t("{who} swaps {card} with {take} from the discard pile{paid}.", { who, card: cardText(e.card), take: cardText(e.take), paid });
    case "revealed":
      return recordText(e);
    case "removed_from_web":
      return t("{card} leaves the web ({slot}): {reason}.", { card: cardText(e.card), slot: slotText(e.slot), reason: REASONS[e.reason] || e.reason });
    case "side_chosen":
      return e.side === "plant" ? t("{who} chooses the Plant side.", { who }) : t("{who} chooses the Animal side.", { who });
    case "cats_returned":
      return t("Two Cats or more were revealed: they go back to their players' hands.");
    case "cat_discarded":
      return t("The Cat of {who} goes to the discard pile.", { who });
    case "game_ended_by_players":
      return t("{who} ends the game, which could no longer be won.", { who });
    case "game_over":
      return e.outcome === "won"
        ? tn("The web is complete: won, with {n} card discarded.", "The web is complete: won, with {n} cards discarded.", e.discards)
        : tn("The game is lost ({n} card discarded).", "The game is lost ({n} cards discarded).", e.discards);
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
