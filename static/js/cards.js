// The card catalogue (embedded in the page by the server) and how a card is drawn.
import { COLON, lang, t } from "./i18n.js";
import { icon } from "./icons.js";
import { COLOUR_INFO, SYMBOL_WORDS, SYMBOLS } from "./texts.js";

import { BOOT } from "./boot.js";

export { BOOT };
export const CARDS = BOOT.cards;

export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function card(id) {
  return CARDS[id] || { id, type: "unknown" };
}

// The advanced rules of the game on this page: a card's symbol is named only when its
// rule is on (in the base game an associated Condition is an ordinary one).
let activeModes = [];
export function setActiveModes(modes) {
  activeModes = modes || [];
}

/** A short plain-text name of a card, for logs, dialogs and screen readers. */
export function cardText(id, jokerColour = null) {
  const c = card(id);
  switch (c.type) {
    case "condition": {
      const info = COLOUR_INFO[c.colour];
      const sym = c.symbol && activeModes.includes(SYMBOLS[c.symbol]?.mode) ? `, ${SYMBOL_WORDS[c.symbol] || c.symbol}` : "";
      const wet = c.set === "wetland" ? t(" (wetland)") : "";
      return t("{Colour} Condition{wet} [{letter}]{symbol}", { Colour: cap(info.name), colour: info.name, wet, letter: info.letter, symbol: sym });
    }
    case "joker":
      return jokerColour ? t("Joker as {colour} [{letter}]", { colour: COLOUR_INFO[jokerColour].name, letter: COLOUR_INFO[jokerColour].letter }) : t("Joker");
    case "species":
      return lang === "fr" ? c.name_fr : `${c.name_fr} (${c.name_en})`;
    case "cat":
      return t("Cat");
    case "pollution":
      return t("Pollution");
    case "reintroduction":
      return t("Species reintroduction");
    default:
      return id;
  }
}

// The French grammar of the card names comes with the boot data (BOOT.french, from the
// server's engine/french.py): each Species' gender and its name with "le", "de", "à".
const FRENCH = BOOT.french || { species: {}, types: {} };

/** A card's grammatical gender, for the French words that agree with it ("installée",
 * "installé"): "m" or "f". */
export function cardGender(id) {
  const c = card(id);
  return (c.type === "species" ? FRENCH.species[id]?.gender : FRENCH.types[c.type]) || "f";
}

/** A card named in a sentence: in French with its article ("le Hérisson", "l'Ortie",
 * "la Condition hydrique [H]"), in English as cardText() says it. */
export function cardNamed(id, jokerColour = null) {
  const text = cardText(id, jokerColour);
  if (lang !== "fr") return text;
  const c = card(id);
  if (c.type === "species") return FRENCH.species[id]?.the || text;
  return `${cardGender(id) === "m" ? "le" : "la"} ${text}`;
}

// The words printed on a face: the whole word, and a short form a narrow card shows
// instead (a word never breaks inside; the card's aria-label always says it whole).
const SHORT = {
  en: { hydric: "hydric", thermal: "thermal", geological: "geol.", atmospheric: "atmos." },
  fr: { hydric: "hydrique", thermal: "thermique", geological: "géol.", atmospheric: "atmos." },
}[lang] || {};
function faceWord(long, short) {
  if (!short || short === long) return esc(long);
  return `<span class="w-long">${esc(long)}</span><span class="w-short" aria-hidden="true">${esc(short)}</span>`;
}

export function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

function symbolBadge(c, modes) {
  if (!c.symbol) return "";
  const info = SYMBOLS[c.symbol];
  const active = modes.includes(info.mode);
  const title = `${info.title}${active ? "" : t(" (no effect in this game)")}${COLON}${info.text}`;
  // an inactive symbol is only printed on the card: not named to screen readers (issue 9)
  if (!active) return `<span class="card-symbol inactive" title="${esc(title)}" aria-hidden="true">${icon(c.symbol)}</span>`;
  return `<span class="card-symbol active" title="${esc(title)}">${icon(c.symbol)}<span class="sr-only">${esc(info.title)}</span></span>`;
}

/**
 * The inner markup of a card face. `opts.modes` (active modes) styles the symbols,
 * `opts.jokerColour` shows the colour a placed Joker took, `opts.compact` for small cards.
 */
export function cardFace(id, opts = {}) {
  const c = card(id);
  const modes = opts.modes || [];
  switch (c.type) {
    case "condition": {
      const info = COLOUR_INFO[c.colour];
      return `<span class="card-face cond c-${c.colour}${c.set === "wetland" ? " wet" : ""}">
        <span class="card-top"><span class="letter">${info.letter}</span>${symbolBadge(c, modes)}</span>
        <span class="card-icon">${icon(c.colour)}</span>
        <span class="card-name">${faceWord(cap(info.name), cap(SHORT[info.word]))}</span>
        <span class="card-sub">${esc(c.set === "wetland" ? t("wetland Condition") : t("Condition"))}</span>
      </span>`;
    }
    case "joker": {
      const jc = opts.jokerColour;
      if (jc) {
        const info = COLOUR_INFO[jc];
        return `<span class="card-face joker c-${jc}">
          <span class="card-top"><span class="letter">${info.letter}</span><span class="card-symbol">${icon("joker")}</span></span>
          <span class="card-icon">${icon(jc)}</span>
          <span class="card-name">${esc(t("Joker"))}</span><span class="card-sub">${esc(t("as {colour}", { colour: "" }))}${faceWord(info.name, SHORT[info.word])}</span></span>`; // "as " then the colour's word
      }
      return `<span class="card-face joker">
        <span class="card-top"><span class="letter">J</span></span>
        <span class="joker-grid">${["blue", "yellow", "green", "violet"].map((k) => `<span class="c-${k}">${icon(k)}</span>`).join("")}</span>
        <span class="card-name">${esc(t("Joker"))}</span><span class="card-sub">${esc(t("any Condition"))}</span></span>`;
    }
    case "species":
      return `<span class="card-face species ${c.kind}${c.set === "invasive" ? " invasive" : ""}">
        <span class="card-top"><span class="kind-icon">${icon(c.kind)}</span>${c.set === "invasive" ? `<span class="card-symbol active" title="${esc(t("Invasive species"))}">${icon("invasive")}</span>` : ""}</span>
        <span class="card-name" lang="fr">${esc(c.name_fr)}</span>
        ${lang === "fr" ? "" : `<span class="card-sub">${esc(c.name_en)}</span>`}
        <span class="card-kind">${esc(c.kind === "plant" ? t("Plant") : t("Animal"))}</span></span>`;
    case "cat":
    case "pollution":
    case "reintroduction": {
      const names = { cat: ["Cat", "Chat"], pollution: ["Pollution", "Pollution"], reintroduction: ["Reintroduction", "Réintroduction"] };
      const shorts = { reintroduction: ["Reintro.", "Réintro."] };
      const i = lang === "fr" ? 1 : 0;
      return `<span class="card-face special ${c.type}">
        <span class="card-top"></span>
        <span class="card-icon">${icon(c.type)}</span>
        <span class="card-name">${faceWord(names[c.type][i], shorts[c.type]?.[i])}</span>
        ${lang === "fr" ? "" : `<span class="card-sub" lang="fr">${faceWord(names[c.type][1], shorts[c.type]?.[1])}</span>`}</span>`;
    }
    default:
      return `<span class="card-face">${esc(id)}</span>`;
  }
}

/** A card as a non-interactive element. */
export function cardHTML(id, opts = {}) {
  const cls = ["card", opts.small ? "small" : "", opts.extraClass || ""].join(" ");
  return `<span class="${cls}" data-card="${esc(id)}" role="img" aria-label="${esc(cardText(id, opts.jokerColour))}">${cardFace(id, opts)}</span>`;
}

export function facedownHTML(label = t("a face-down card")) {
  return `<span class="card small facedown" role="img" aria-label="${esc(label)}"><span class="card-face back">${icon("leaf")}</span></span>`;
}
