// The game log: every event of this game this seat may see, as sentences.
import { api, rememberRoom } from "../api.js";
import { cap, cardNamed, esc } from "../cards.js";
import { t, tn } from "../i18n.js";
import { lostReasonText, REASONS, seatName } from "../texts.js";
import { slotText } from "../web.js";
import { recordText, renderDiscard } from "./reveal.js";
import { standInNote, tableItems, tableItemsReset } from "./seats.js";
import { $, app, CODE, speak } from "./state.js";

export function eventText(e) {
  const v = app.view;
  const who = seatName(v, e.seat);
  const paid = e.paid_with === "free" ? t(" (free Symbiosis)") : e.paid_with === "card" ? t(" (Symbiosis card)") : "";
  const aCard = (id) => (id ? cardNamed(id) : t("a card"));
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
      return t("{who} swaps {card} with {take} from the discard pile{paid}.", { who, card: cardNamed(e.card), take: cardNamed(e.take), paid });
    case "revealed":
      return recordText(e) + standInNote(e);
    case "removed_from_web":
      return t("{card} leaves the web ({slot}): {reason}.", { card: cap(cardNamed(e.card)), slot: slotText(e.slot), reason: REASONS[e.reason] || e.reason });
    case "side_chosen":
      return e.side === "plant" ? t("{who} chooses the Plant side.", { who }) : t("{who} chooses the Animal side.", { who });
    case "cats_returned":
      return t("Two Cats or more were revealed: they go back to their players' hands.");
    case "cat_discarded":
      return t("The Cat of {who} goes to the discard pile.", { who });
    case "game_ended_by_players": {
      // the game ends as it stood: the view's reason is the one the table showed
      const why = v.phase === "over" ? lostReasonText(v.lost_reason) : "";
      return t("{who} ends the game, which could no longer be won.", { who }) + (why ? ` ${why}` : "");
    }
    case "game_over":
      return e.outcome === "won"
        ? tn("The web is complete: won, with {n} card discarded.", "The web is complete: won, with {n} cards discarded.", e.discards)
        : tn("The game is lost ({n} card discarded).", "The game is lost ({n} cards discarded).", e.discards);
    default:
      return null;
  }
}

// The events a screen reader is told as they happen (the reveals are said by
// room/reveal.js): the players' moves but this seat's own, and what the rules do to the
// table but a Pollution's removal (said with its reveal).
const MOVES_SAID = new Set(["show", "give", "give_back", "swap_discard", "side_chosen", "game_ended_by_players"]);
const RULES_SAID = new Set(["removed_from_web", "cats_returned", "cat_discarded"]);
const told = (e, seat) => (MOVES_SAID.has(e.type) && e.seat !== seat) || (RULES_SAID.has(e.type) && e.reason !== "pollution");

function itemHTML(e) {
  const text = eventText(e);
  if (!text) return "";
  const strong = e.type === "turn_started";
  return `<li class="log-${e.type}">${strong ? "<strong>" : ""}${esc(text)}${strong ? "</strong>" : ""}</li>`;
}

// The whole log of this game is kept in app.events: read once from GET .../log (views
// carry only the last 60 events), then grown from each view's tail. Where a tail no
// longer reaches the last known event (a long disconnection), the whole log is read again.
async function loadFullLog(game) {
  if (app.logLoading === game) return;
  app.logLoading = game;
  try {
    const log = await api("GET", `/api/rooms/${encodeURIComponent(CODE)}/log`, { token: app.mem.token });
    if (!app.view || log.game !== app.view.game) return;
    app.events = log.events;
    app.logComplete = game;
    app.eventSigs = log.events.map((e) => JSON.stringify(e));
    app.logDrawn = 0;
    $("log").innerHTML = "";
    tableItemsReset();
    renderLog();
    renderDiscard();
  } catch (err) {
    /* the view's tail is shown meanwhile; the next change tries again */
  } finally {
    app.logLoading = null;
  }
}

/** Adds the events of a view's tail that the log does not hold yet; those events. */
function mergeTail(tail) {
  const sigs = tail.map((e) => JSON.stringify(e));
  let start = 0;
  if (app.eventSigs.length) {
    const found = sigs.lastIndexOf(app.eventSigs[app.eventSigs.length - 1]);
    if (found < 0) {
      loadFullLog(app.view.game);
      return [];
    }
    start = found + 1;
  }
  for (let i = start; i < tail.length; i++) {
    app.events.push(tail[i]);
    app.eventSigs.push(sigs[i]);
  }
  return tail.slice(start);
}

export function renderLog() {
  const v = app.view;
  const list = $("log");
  // the events that come in while the page shows the game (not those of its first view);
  // the reveals say themselves (room/reveal.js)
  const arriving = app.logGame === v.game;
  if (app.logGame !== v.game) {
    // a new game (or the first view): start from its whole log
    app.logGame = v.game;
    app.events = [];
    app.eventSigs = [];
    app.logDrawn = 0;
    list.innerHTML = "";
    tableItemsReset();
    loadFullLog(v.game);
  }
  const fresh = mergeTail(v.log || []);
  if (arriving) speak(fresh.filter((e) => told(e, v.seat)).map(eventText).join(" "));
  // the table's events (who left, who came back ...) go where they happened among the game's
  let items = "";
  for (let i = app.logDrawn; i < app.events.length; i++) items += tableItems(i) + itemHTML(app.events[i]);
  items += tableItems(null);
  app.logDrawn = app.events.length;
  if (items) {
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    list.insertAdjacentHTML("beforeend", items);
    if (atEnd || !list.dataset.scrolled) list.scrollTop = list.scrollHeight;
  }
  if (app.logComplete === v.game && document.visibilityState === "visible") noteSeen(v);
  // the lines the log shows (a card programmed or a seat ready is kept, not told)
  const lines = list.children.length;
  $("log-count").textContent = lines ? tn("({n} event)", "({n} events)", lines) : "";
}

/** What this seat has seen of the game, kept in the seat memory ("since your last
 * visit" starts from there). */
function noteSeen(v) {
  const seen = { game: v.game, events: app.events.length, turn: v.turn, standIns: (v.stand_in_moves || []).length };
  const old = app.mem.seen;
  if (old && old.game === seen.game && old.events === seen.events && old.standIns === seen.standIns) return;
  app.mem.seen = seen;
  rememberRoom(CODE, { seen });
}

$("log").addEventListener("scroll", () => {
  $("log").dataset.scrolled = "1";
});
