// Words of the UI: colours, discard reasons, log events, help texts.

export const COLOUR_INFO = {
  blue: { name: "hydric", letter: "H", colour: "blue" },
  yellow: { name: "thermal", letter: "T", colour: "yellow" },
  green: { name: "geological", letter: "G", colour: "green" },
  violet: { name: "atmospheric", letter: "A", colour: "violet" },
};
export const COLOUR_ORDER = ["blue", "yellow", "green", "violet"];

// The engine's reason codes (dame_nature.engine.REASONS), for discards.
export const REASONS = {
  no_slot: "no open slot for it in the web",
  joker_no_slot: "no open slot of the colour chosen for the Joker",
  conditions_missing: "its Conditions are not all in place",
  species_not_open: "the Species it depends on are not installed",
  already_installed: "this Species is already installed",
  associated: "associated Condition: it needs a Condition revealed just before it",
  dependent: "dependent Condition: it needs a Species revealed just before it",
  aquatic: "the aquatic web needs a blue Condition revealed just before",
  temporary: "a temporary Condition not covered by its Species at the end of the turn",
  side: "this Species does not match its player's Plant/Animal side",
  climate_change: "climate change: a blue card next to a yellow one",
  order: "environmental changes: the Condition slots fill in order",
  reintroduction: "after a Species reintroduction, Conditions are discarded until an animal comes",
  invasive: "an invasive species must be played by the first player",
  pollution_early: "Pollution needs the 4 plants installed at the start of the turn",
  pollution: "removed by Pollution",
  cat: "cat: a Cat next to a Species",
  cat_alone: "a Cat played alone goes to the discard pile",
};

export const SYMBOLS = {
  associated: {
    mode: "associated_conditions",
    title: "Associated Condition",
    text: "Placed only if the card revealed just before it this turn was a Condition (or a Joker); otherwise discarded. The first reveal of a turn can never place it.",
  },
  dependent: {
    mode: "dependent_conditions",
    title: "Dependent Condition",
    text: "Placed only if the card revealed just before it this turn was a Species; otherwise discarded.",
  },
  temporary: {
    mode: "temporary_conditions",
    title: "Temporary Condition",
    text: "At the end of each turn, a temporary Condition whose Species is not yet installed is discarded.",
  },
};

export const PLAYER_AID = [
  "<strong>Programming:</strong> everyone puts one card of their hand face down (click or tap it). You can replace it until the reveal starts. Say <em>Ready</em> when you are sure.",
  "<strong>Symbioses</strong> (during programming) let you: show one of your cards; give one of your cards to a player, who gives one back; or swap one of your Condition cards with any card of the discard pile. The first player gets one free Symbiosis each turn; each Symbiosis card works once per game.",
  "<strong>Reveal:</strong> from the first player, in seat order, each card is revealed and placed in the web if it can be; a card that cannot be placed is discarded. When several places are possible, its player chooses.",
  "<strong>Conditions</strong> (hydric, thermal, geological, atmospheric) go on an empty slot of their colour. Plants' slots are open from the start; an animal's slots open once the two Species linked before it are installed.",
  "<strong>A Species</strong> is installed once both its Conditions are in place. <strong>Jokers</strong> take the colour their player chooses.",
  "<strong>Goal:</strong> complete the web up to the <span lang=\"fr\">Aigle royal</span> (Golden eagle) before the cards run out. The first player card passes to the next seat each turn.",
];

export function seatName(view, seat) {
  if (seat === null || seat === undefined) return "someone";
  const p = (view.players || []).find((x) => x.seat === seat);
  const name = p && p.name ? p.name : `Player ${seat + 1}`;
  return view.seat === seat ? `${name} (you)` : name;
}
