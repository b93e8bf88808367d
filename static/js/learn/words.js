// The learn page's own words in English and French (the lessons' texts come from the
// server in both). w("key") is the word in the page's language.
import { fill, lang } from "../i18n.js";

const WORDS = {
  lessons: ["Learn to play", "Apprendre à jouer"],
  lessonsIntro: [
    "Four short guided games with scripted partners. Each step points at what to choose; a wrong move is explained and taken back. Your progress stays in this browser.",
    "Quatre courtes parties guidées avec des partenaires scriptés. Chaque étape montre quoi choisir ; un mauvais coup est expliqué et repris. Votre progression reste dans ce navigateur.",
  ],
  start: ["Start", "Commencer"],
  resume: ["Resume", "Reprendre"],
  replay: ["Play again", "Rejouer"],
  done: ["Done", "Terminée"],
  restart: ["Start again", "Recommencer"],
  back: ["All lessons", "Toutes les leçons"],
  next: ["Next lesson", "Leçon suivante"],
  step: ["Step {n} of {total} · Turn {turn}", "Étape {n} sur {total} · Tour {turn}"],
  hand: ["Your hand", "Votre main"],
  programmed: ["Programmed", "Programmée"],
  nothingProgrammed: ["No card programmed yet.", "Aucune carte programmée."],
  ready: ["Ready", "Prêt"],
  symbiosis: ["Symbiosis…", "Symbiose…"],
  show: ["Show a card to everyone", "Montrer une carte à tous"],
  give: ["Give a card to a player", "Donner une carte à un joueur"],
  swap: ["Swap a Condition with the discard pile", "Échanger une Condition avec la défausse"],
  chooseCard: ["Choose your card:", "Choisissez votre carte :"],
  chooseTo: ["Give it to:", "La donner à :"],
  chooseTake: ["Take from the discard pile:", "Prendre dans la défausse :"],
  giveBack: ["{who} gave you a card. Give one back:", "{who} vous a donné une carte. Rendez-en une :"],
  cancel: ["Cancel", "Annuler"],
  discard: ["Discard pile", "Défausse"],
  discards: ["Discards: {n} of {max} allowed", "Défausses : {n} sur {max} permises"],
  empty: ["Empty.", "Vide."],
  thisTurn: ["Revealed this turn", "Révélées ce tour-ci"],
  lastTurn: ["Last turn", "Tour précédent"],
  placed: ["placed: {slot}", "posée : {slot}"],
  discarded: ["discarded", "défaussée"],
  first: ["First player", "Premier joueur"],
  isReady: ["ready", "prêt"],
  hasProgrammed: ["card programmed", "carte programmée"],
  thinking: ["choosing", "choisit"],
  cards: ["{n} cards", "{n} cartes"],
  symbiosisCards: ["{n} Symbiosis", "{n} Symbiose"],
  you: ["You", "Vous"],
  knownBy: ["known by {who}", "connue de {who}"],
  won: ["Lesson won!", "Leçon gagnée !"],
  wrong: ["Not applied.", "Coup non joué."],
  offline: ["The server cannot be reached. Try again.", "Le serveur est injoignable. Réessayez."],
  glossary: ["Glossary", "Glossaire"],
  here: ["here", "ici"],
  revealsAt: ["reveals {n}", "révèle en {n}"],
  rank1: ["1st", "premier"],
  rank2: ["2nd", "2e"],
  rank3: ["3rd", "3e"],
  rank4: ["4th", "4e"],
  rank5: ["5th", "5e"],
  rank6: ["6th", "6e"],
};

export function w(key, values) {
  const pair = WORDS[key];
  return fill(pair ? pair[lang === "fr" ? 1 : 0] : key, values);
}

/** A text the server gives in both languages (``text`` / ``text_fr``). */
export function both(obj, field) {
  return (lang === "fr" && obj[`${field}_fr`]) || obj[field] || "";
}
