// The card catalogue (embedded in the page by the server) and how a card is drawn.
import { icon } from "./icons.js";
import { COLOUR_INFO, SYMBOLS } from "./texts.js";

export const BOOT = JSON.parse(document.getElementById("boot-data").textContent);
export const CARDS = BOOT.cards;

export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function card(id) {
  return CARDS[id] || { id, type: "unknown" };
}

export function cardNumber(id) {
  const m = /-(\d+)$/.exec(id);
  return m ? m[1] : "";
}

/** A short plain-text name of a card, for logs, dialogs and screen readers. */
export function cardText(id, jokerColour = null) {
  const c = card(id);
  switch (c.type) {
    case "condition": {
      const info = COLOUR_INFO[c.colour];
      const sym = c.symbol ? `, ${c.symbol}` : "";
      const wet = c.set === "wetland" ? " (wetland)" : "";
      return `${cap(info.name)} Condition${wet} [${info.letter}]${sym}`;
    }
    case "joker":
      return jokerColour ? `Joker as ${COLOUR_INFO[jokerColour].name} [${COLOUR_INFO[jokerColour].letter}]` : "Joker";
    case "species":
      return `${c.name_fr} (${c.name_en})`;
    case "cat":
      return "Cat";
    case "pollution":
      return "Pollution";
    case "reintroduction":
      return "Species reintroduction";
    default:
      return id;
  }
}

export function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

function symbolBadge(c, modes) {
  if (!c.symbol) return "";
  const info = SYMBOLS[c.symbol];
  const active = modes.includes(info.mode);
  const title = `${info.title}${active ? "" : " (no effect in this game)"}: ${info.text}`;
  return `<span class="card-symbol ${active ? "active" : "inactive"}" title="${esc(title)}">${icon(c.symbol)}<span class="sr-only">${esc(info.title)}${active ? "" : ", no effect in this game"}</span></span>`;
}

/**
 * The inner markup of a card face. `opts.modes` (active modes) styles the symbols,
 * `opts.jokerColour` shows the colour a placed Joker took, `opts.compact` for small cards.
 */
export function cardFace(id, opts = {}) {
  const c = card(id);
  const modes = opts.modes || [];
  const num = cardNumber(id);
  switch (c.type) {
    case "condition": {
      const info = COLOUR_INFO[c.colour];
      return `<span class="card-face cond c-${c.colour}${c.set === "wetland" ? " wet" : ""}">
        <span class="card-top"><span class="letter">${info.letter}</span>${symbolBadge(c, modes)}</span>
        <span class="card-icon">${icon(c.colour)}</span>
        <span class="card-name">${cap(info.name)}</span>
        <span class="card-sub">${c.set === "wetland" ? "wetland " : ""}Condition${num && c.set !== "wetland" ? ` ${num}` : ""}</span>
      </span>`;
    }
    case "joker": {
      const jc = opts.jokerColour;
      if (jc) {
        const info = COLOUR_INFO[jc];
        return `<span class="card-face joker c-${jc}">
          <span class="card-top"><span class="letter">${info.letter}</span><span class="card-symbol">${icon("joker")}</span></span>
          <span class="card-icon">${icon(jc)}</span>
          <span class="card-name">Joker</span><span class="card-sub">as ${info.name}</span></span>`;
      }
      return `<span class="card-face joker">
        <span class="card-top"><span class="letter">J</span></span>
        <span class="joker-grid">${["blue", "yellow", "green", "violet"].map((k) => `<span class="c-${k}">${icon(k)}</span>`).join("")}</span>
        <span class="card-name">Joker</span><span class="card-sub">any Condition</span></span>`;
    }
    case "species":
      return `<span class="card-face species ${c.kind}${c.set === "invasive" ? " invasive" : ""}">
        <span class="card-top"><span class="kind-icon">${icon(c.kind)}</span>${c.set === "invasive" ? `<span class="card-symbol active" title="Invasive species">${icon("invasive")}</span>` : ""}</span>
        <span class="card-name" lang="fr">${esc(c.name_fr)}</span>
        <span class="card-sub">${esc(c.name_en)}</span>
        <span class="card-kind">${c.kind === "plant" ? "Plant" : "Animal"}</span></span>`;
    case "cat":
    case "pollution":
    case "reintroduction": {
      const names = { cat: ["Cat", "Chat"], pollution: ["Pollution", "Pollution"], reintroduction: ["Reintroduction", "Réintroduction"] };
      return `<span class="card-face special ${c.type}">
        <span class="card-top"></span>
        <span class="card-icon">${icon(c.type)}</span>
        <span class="card-name">${names[c.type][0]}</span>
        <span class="card-sub" lang="fr">${names[c.type][1]}</span></span>`;
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

export function facedownHTML(label = "a face-down card") {
  return `<span class="card small facedown" role="img" aria-label="${esc(label)}"><span class="card-face back">${icon("leaf")}</span></span>`;
}
