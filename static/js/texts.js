// Words of the UI: colours, discard reasons, log events, help texts (English; t() gives
// them in the page's language, see i18n.js and locales/fr.js).
import { BOOT } from "./boot.js";
import { lang, t, tn } from "./i18n.js";

export const COLOUR_INFO = {
  blue: { word: "hydric", name: t("hydric"), letter: "H", colour: "blue" },
  yellow: { word: "thermal", name: t("thermal"), letter: "T", colour: "yellow" },
  green: { word: "geological", name: t("geological"), letter: "G", colour: "green" },
  violet: { word: "atmospheric", name: t("atmospheric"), letter: "A", colour: "violet" },
};
export const COLOUR_ORDER = ["blue", "yellow", "green", "violet"];
// the colours' own names (the help explains blue = hydric, ...) and the symbols' words
export const COLOUR_WORDS = { blue: t("blue"), yellow: t("yellow"), green: t("green"), violet: t("violet") };
export const SYMBOL_WORDS = { associated: t("associated"), dependent: t("dependent"), temporary: t("temporary") };

// Why a card was discarded: the engine's reason codes (enums.Reason) and their sentences,
// served by the server in English and French (GET /api/modes, embedded in the page).
export const REASONS = Object.fromEntries(Object.entries(BOOT.reasons).map(([code, text]) => [code, text[lang] || text.en]));

// Why the game can no longer be won: the view's lost_reason says it in English and French.
export function lostReasonText(reason) {
  return reason && reason.text ? reason.text[lang] || reason.text.en : "";
}

export const SYMBOLS = {
  associated: {
    mode: "associated_conditions",
    title: t("Associated Condition"),
    text: t("Placed only if the card revealed just before it this turn was a Condition (or a Joker); otherwise discarded. The first reveal of a turn can never place it."),
  },
  dependent: {
    mode: "dependent_conditions",
    title: t("Dependent Condition"),
    text: t("Placed only if the card revealed just before it this turn was a Species; otherwise discarded."),
  },
  temporary: {
    mode: "temporary_conditions",
    title: t("Temporary Condition"),
    text: t("At the end of each turn, a temporary Condition whose Species is not yet installed is discarded."),
  },
};

export const PLAYER_AID = [
  t("<strong>Programming:</strong> everyone puts one card of their hand face down (click or tap it). You can replace it until the reveal starts. Say <em>Ready</em> when you are sure."),
  t("<strong>Symbioses</strong> (during programming) let you: show one of your cards; give one of your cards to a player, who gives one back; or swap one of your Condition cards with any card of the discard pile. The first player gets one free Symbiosis each turn; each Symbiosis card works once per game."),
  t("<strong>A card shown</strong> stays known to the others while you hold it, until you give a card away: they cannot tell which card left, so they forget what they knew of your hand."),
  t("<strong>Reveal:</strong> from the first player, in seat order, each card is revealed and placed in the web if it can be; a card that cannot be placed is discarded. When several places are possible, its player chooses."),
  t("<strong>Conditions</strong> (hydric, thermal, geological, atmospheric) go on an empty slot of their colour. Plants' slots are open from the start; an animal's slots open once the two Species linked before it are installed."),
  t("<strong>A Species</strong> is installed once both its Conditions are in place. <strong>Jokers</strong> take the colour their player chooses."),
  t("<strong>Goal:</strong> complete the web up to the <span lang=\"fr\">Aigle royal</span> (Golden eagle) before the cards run out. The first player card passes to the next seat each turn."),
];

/** ", 3 wins." after a count of tables or games: how many of them were won (French
 * agrees with that number: "0 gagnée", "2 gagnées"). */
export function winsText(n) {
  return tn(", {n} win.", ", {n} wins.", n);
}

export function seatName(view, seat) {
  if (seat === null || seat === undefined) return t("someone");
  const p = (view.players || []).find((x) => x.seat === seat);
  const name = p && p.name ? p.name : t("Player {n}", { n: seat + 1 });
  return view.seat === seat ? t("{name} (you)", { name }) : name;
}

// A deal the host chose (a seed or the hands) is told to every seat: the host may know
// every hand. `choice` is the view's deal_choice ("seed" | "deal"); `form` "short" is the
// table header's label.
export function dealChosenText(choice, form = "long") {
  if (form === "short") return t("Deal chosen by the host");
  return choice === "deal"
    ? t("The host dealt this game's hands: the host may know every hand.")
    : t("The host chose this game's deal (a seed): the host may know every hand.");
}

// Sentences of the room page added with issue 9 (the table's fixes, turn alerts, the
// discard pile's reasons, the full log), through t() like every other (their French is in
// locales/fr.js). A function takes the variable parts.
export const TEXTS = {
  seedInvalid: t("The seed is a whole number (0 or more), or empty."),
  dealInvalid: t("The deal is not valid JSON."),
  rulesSeed: (seed) => t("Deal: seed {seed} (only you, the host, see it).", { seed }),
  rulesDeal: t("Deal: an explicit deal (only you, the host, see it)."),
  roomFull: (n) => t("This room is full: all {n} seats are taken. You can watch the game from here; it appears when the host starts it.", { n }),
  nameTooLong: (n) => t("A name has at most {n} characters.", { n }),
  nameControl: t("A name cannot contain control characters."),
  notTakeable: t("cannot be taken: it was played"),
  noTakeable: t("no card of the discard pile can be taken"),
  noPlaceNow: t("No place for it now"),
  todoReveal: t("Choose where your card goes"),
  todoSide: t("Choose your side"),
  todoGiveBack: t("Give a card back"),
  todoProgram: t("Program a card"),
  todoReady: t("Say Ready"),
  titleYourTurn: (todo) => t("● {todo}", { todo }),
  notifyTitle: t("Dame Nature: your turn"),
  notifyDenied: t("The browser refuses notifications for this site: allow them in its site settings."),
  notifyUnsupported: t("This browser cannot show notifications."),
  resultPlayed: t("played"),
  resultInPlay: t("played: in play until the end of the turn"),
  resultReturned: t("back to its player's hand"),
  onTurn: (turn) => t("turn {turn}", { turn }),
  discardedBy: (who, turn, why) => t("Discarded by {who}, {turn}: {why}.", { who, turn, why }),
  playedBy: (who, turn) => t("Played by {who}, {turn} (a played Pollution stays in the discard pile).", { who, turn }),
  removedFromWeb: (turn, why) => t("Removed from the web, {turn}: {why}.", { turn, why }),
  swappedBy: (who, turn) => t("Put there by {who}'s Symbiosis swap, {turn}.", { who, turn }),
};

/** A bot level's short name (a seat's badge). */
export function levelName(level) {
  return { expert: t("Expert"), random: t("Random") }[level] || level;
}

/** A bot level as a choice: its name and what it does (a random bot cannot win). */
export function levelChoice(level) {
  return { expert: t("Expert: plays to win"), random: t("Random: plays any legal card, cannot win") }[level] || level;
}

/** The levels as the options of a select, the default (expert) first and chosen. */
export function levelOptions(levels, chosen = "expert") {
  const order = [chosen, ...levels.filter((l) => l !== chosen)];
  return order.map((l) => `<option value="${l}"${l === chosen ? " selected" : ""}>${levelChoice(l).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)}</option>`).join("");
}
