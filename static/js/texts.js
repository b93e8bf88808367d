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

// Sentences of the room page added with issue 9 (the table's fixes, turn alerts, the
// discard pile's reasons, the full log), in English; TEXTS_FR gives their French. A
// function takes the variable parts.
export const TEXTS = {
  seedInvalid: "The seed is a whole number (0 or more), or empty.",
  dealInvalid: "The deal is not valid JSON.",
  rulesSeed: (seed) => `Deal: seed ${seed} (only you, the host, see it).`,
  rulesDeal: "Deal: an explicit deal (only you, the host, see it).",
  roomFull: (n) => `This room is full: all ${n} seats are taken. You can watch the game from here; it appears when the host starts it.`,
  nameTooLong: (n) => `A name has at most ${n} characters.`,
  nameControl: "A name cannot contain control characters.",
  notTakeable: "cannot be taken: it was played",
  noTakeable: "no card of the discard pile can be taken",
  noPlaceNow: "No place for it now",
  todoReveal: "Choose where your card goes",
  todoSide: "Choose your side",
  todoGiveBack: "Give a card back",
  todoProgram: "Program a card",
  todoReady: "Say Ready",
  titleYourTurn: (todo) => `● ${todo}`,
  notifyTitle: "Dame Nature: your turn",
  notifyDenied: "The browser refuses notifications for this site: allow them in its site settings.",
  notifyUnsupported: "This browser cannot show notifications.",
  onTurn: (turn) => `turn ${turn}`,
  discardedBy: (who, turn, why) => `Discarded by ${who}, ${turn}: ${why}.`,
  playedBy: (who, turn) => `Played by ${who}, ${turn} (a played Pollution stays in the discard pile).`,
  removedFromWeb: (turn, why) => `Removed from the web, ${turn}: ${why}.`,
  swappedBy: (who, turn) => `Put there by ${who}'s Symbiosis swap, ${turn}.`,
};

export const TEXTS_FR = {
  seedInvalid: "La graine est un nombre entier (0 ou plus), ou vide.",
  dealInvalid: "La donne n'est pas du JSON valide.",
  rulesSeed: (seed) => `Donne : graine ${seed} (vous seul, l'hôte, la voyez).`,
  rulesDeal: "Donne : une donne explicite (vous seul, l'hôte, la voyez).",
  roomFull: (n) => `Cette salle est complète : les ${n} places sont prises. Vous pouvez regarder la partie d'ici ; elle apparaît quand l'hôte la lance.`,
  nameTooLong: (n) => `Un nom a au plus ${n} caractères.`,
  nameControl: "Un nom ne peut pas contenir de caractères de contrôle.",
  notTakeable: "ne peut pas être reprise : elle a été jouée",
  noTakeable: "aucune carte de la défausse ne peut être reprise",
  noPlaceNow: "Pas de place pour elle maintenant",
  todoReveal: "Choisissez où va votre carte",
  todoSide: "Choisissez votre camp",
  todoGiveBack: "Rendez une carte",
  todoProgram: "Programmez une carte",
  todoReady: "Dites Prêt",
  titleYourTurn: (todo) => `● ${todo}`,
  notifyTitle: "Dame Nature : à vous",
  notifyDenied: "Le navigateur refuse les notifications pour ce site : autorisez-les dans ses réglages.",
  notifyUnsupported: "Ce navigateur ne peut pas afficher de notifications.",
  onTurn: (turn) => `tour ${turn}`,
  discardedBy: (who, turn, why) => `Défaussée par ${who}, ${turn} : ${why}.`,
  playedBy: (who, turn) => `Jouée par ${who}, ${turn} (une Pollution jouée reste dans la défausse).`,
  removedFromWeb: (turn, why) => `Retirée de la toile, ${turn} : ${why}.`,
  swappedBy: (who, turn) => `Posée là par l'échange de ${who} (Symbiose), ${turn}.`,
};

// ---- the bot seats' words: English as the key (as gettext does), French below. t() is
// the same call as the interface-wide translation (i18n), which these move into.
const BOTS_FR = {
  "Bot": "Bot",
  "Expert": "Expert",
  "Random (beginner)": "Hasard (débutant)",
  "bot · {level}": "bot · {level}",
  "A bot plays this seat ({level})": "Un bot joue à cette place ({level})",
  "A bot plays for {name} until they come back ({level})": "Un bot joue pour {name} jusqu'à son retour ({level})",
  "plays on the server": "joue sur le serveur",
  "Add a bot": "Ajouter un bot",
  "Level of the bot": "Niveau du bot",
  "Remove": "Retirer",
  "Remove {name} from the room": "Retirer {name} de la salle",
  "Leave my seat": "Quitter ma place",
  "You left your seat; you can take one again or watch.": "Vous avez quitté votre place ; vous pouvez en reprendre une ou regarder.",
  "Your seat was removed by the host: you are watching now.": "L'hôte a retiré votre place : vous regardez la partie.",
  "The room is full.": "La salle est complète.",
  "A bot takes over": "Un bot prend la place",
  "A bot takes over the seat of {name}": "Un bot prend la place de {name}",
  "{name} left: a bot can play for them until they come back.": "{name} est parti·e : un bot peut jouer à sa place jusqu'à son retour.",
  "Play solo": "Jouer seul",
  "You and 2 to 5 bots, with the rules above; the game starts at once.": "Vous et 2 à 5 bots, avec les règles ci-dessus ; la partie commence aussitôt.",
  "Your name": "Votre nom",
  "Number of bots": "Nombre de bots",
  "{n} bots": "{n} bots",
  "Enter a name so that the others know who you are.": "Entrez un nom pour que les autres sachent qui vous êtes.",
  "Setting up your game…": "Préparation de la partie…",
};

function pageLanguage() {
  const lang = (document.documentElement.lang || navigator.language || "en").toLowerCase();
  return lang.split("-")[0];
}

/** ``key`` (the English text) in the page's language, with ``{name}`` filled from values. */
export function t(key, values) {
  const text = (pageLanguage() === "fr" && BOTS_FR[key]) || key;
  return values ? text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole)) : text;
}

/** A bot level's name for people. */
export function levelName(level) {
  return { expert: t("Expert"), random: t("Random (beginner)") }[level] || level;
}
