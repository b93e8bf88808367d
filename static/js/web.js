// The web of life drawn as its graph: 4 columns of species, each with its two Condition
// slots and its own slot, parents linked by lines. Legal places for the card being
// revealed light up as buttons.
import { BOOT, card, cardFace, cardGender, cardNamed, cardText, esc } from "./cards.js";
import { applyStyles, css } from "./dom.js";
import { COLON, lang, t, tg } from "./i18n.js";
import { icon } from "./icons.js";
import { COLOUR_INFO } from "./texts.js";

// the words the stylesheet prints beside a lit slot and a card just placed
document.documentElement.style.setProperty("--word-here", JSON.stringify(t("here?")));
document.documentElement.style.setProperty("--word-new", JSON.stringify(t("new")));

export function layoutName(view, web) {
  return web === "main" ? view.layout || "numbered" : web;
}

/** A place of the web in words: a Condition slot is named by its Species and colour
 * ("Chêne's geological slot"), never by a number (a card's number is another thing). */
export function slotText(slot) {
  if (!slot) return "";
  const [sp, n] = slot.split(":");
  const c = card(sp);
  const name = c.name_fr || sp;
  if (!n) return tg("{name} (installed)", cardGender(sp), { name });
  const layout = Object.values(BOOT.layouts).find((l) => l[sp]);
  const colour = layout ? layout[sp].conditions[Number(n) - 1] : null;
  // French: "l'emplacement géologique du Chêne" (the boot data's French grammar gives "du Chêne")
  const of = lang === "fr" ? BOOT.french.species[sp]?.of || name : name;
  return t("{name}'s {colour} slot", { name: of, colour: colour ? COLOUR_INFO[colour].name : "" });
}

/** A place of the web as the object of a verb ("Install {slot}"): a Species' own place is
 * the Species, in French with its article ("Installer le Hérisson"); else slotText(). */
export function slotNamed(slot) {
  return lang === "fr" && slot && !slot.includes(":") ? cardNamed(slot) : slotText(slot);
}

/** Whether a Species' slots are open: every Species before it (its parents) installed. */
export function isOpen(view, layout, sp) {
  return (layout[sp].parents || []).every((p) => view.web[p]);
}

/**
 * targets: {slot: [{label, key, action}]} places to light up for the player's choice;
 * removals: {slot: [...]} cards a Pollution may remove.
 */
export function renderWebs(container, view, { targets = {}, removals = {}, lastPlaced = new Map() } = {}) {
  const webs = view.webs || ["main"];
  const html = webs
    .map((web) => {
      const name = layoutName(view, web);
      const layout = BOOT.layouts[name];
      const species = Object.keys(layout);
      const maxCol = Math.max(...species.map((sp) => layout[sp].column));
      const nodes = species
        .map((sp) => {
          const spot = layout[sp];
          // pyramid: column c, row r spans two half-rows, shifted down by (c-1)
          const rowStart = (spot.column - 1) + 2 * (spot.row - 1) + 1;
          return speciesNode(view, layout, sp, spot, rowStart, { targets, removals, lastPlaced });
        })
        .join("");
      const title = esc(web === "main" ? (name === "lettered" ? t("Main web (invasive species layout)") : t("Main web")) : t("Aquatic web (wetland)"));
      return `<figure class="web web-${web}" data-web="${web}" ${css(`--cols:${Math.max(maxCol, 4)}`)}>
        <figcaption class="web-caption">${web === "main" ? icon("web") : icon("wetland")} ${title}</figcaption>
        <div class="web-grid">${nodes}<svg class="web-links" aria-hidden="true"></svg></div>
      </figure>`;
    })
    .join("");
  if (container._html === html) return false; // unchanged: keep the nodes and their links
  container._html = html;
  container.innerHTML = html;
  applyStyles(container);
  requestAnimationFrame(() => drawLinks(container, view));
  return true;
}

function speciesNode(view, layout, sp, spot, rowStart, ctx) {
  const c = card(sp);
  const installed = view.web[sp];
  const open = isOpen(view, layout, sp);
  const slots = spot.conditions
    .map((colour, i) => conditionSlot(view, `${sp}:${i + 1}`, colour, open, ctx))
    .join("");
  const speciesTarget = ctx.targets[sp];
  const invasive = c.set === "invasive" ? `<span class="sp-invasive" title="${esc(t("Invasive species: placed only when the first player of the turn reveals it"))}">${icon("invasive")}<span class="sr-only">${esc(t("invasive species"))}</span></span>` : "";
  const nodeTitle = `<span class="sp-kind">${icon(c.kind)}</span><span class="sp-names"><span class="sp-fr" lang="fr">${esc(c.name_fr)}</span>${lang === "fr" ? "" : `<span class="sp-en">${esc(c.name_en)}</span>`}</span>${invasive}`;
  const state = installed ? "installed" : open ? "open" : "locked";
  const g = cardGender(sp);
  const stateText = installed ? tg("installed", g) : open ? tg("not installed yet", g) : t("waiting for the species before it");
  let head;
  if (speciesTarget) {
    head = `<button type="button" class="sp-head target" data-slot="${sp}" data-key="slot-${sp}" aria-label="${esc(t("Install {name} here", { name: cardNamed(sp) }))}">${nodeTitle}</button>`;
  } else {
    head = `<div class="sp-head" data-slot="${sp}">${nodeTitle}</div>`;
  }
  const parents = (spot.parents || []).join(" ");
  return `<div class="species-node ${state}${placedClass(ctx, sp)}" data-species="${sp}" data-parents="${parents}"
      ${css(`grid-column:${spot.column};grid-row:${rowStart} / span 2;${placedDelay(ctx, sp)}`)} role="group" aria-label="${esc(`${cardText(sp)}, ${stateText}`)}">
      ${head}
      <div class="sp-slots">${slots}</div>
      <div class="sp-state">${installed ? `${icon("ready")} ${esc(tg("installed", g))}` : open ? "" : esc(tg("locked", g))}</div>
    </div>`;
}

function conditionSlot(view, slot, colour, open, ctx) {
  const info = COLOUR_INFO[colour];
  const filled = view.web[slot];
  const target = ctx.targets[slot];
  const removal = ctx.removals[slot];
  const label = `${t("{colour} Condition slot", { colour: info.name })}${filled ? `: ${cardText(filled, view.joker_colours?.[filled])}` : open ? t(", empty") : t(", locked")}`;
  const inner = filled
    ? `<span class="mini-card">${cardFace(filled, { modes: view.modes, jokerColour: view.joker_colours?.[filled], compact: true })}</span>`
    : `<span class="slot-need">${icon(colour)}<span class="letter">${info.letter}</span></span>`;
  const cls = `cslot c-${colour}${filled ? " filled" : ""}${open ? "" : " locked"}${placedClass(ctx, slot)}`;
  if (target || removal) {
    const what = target ? t("Place your card here") : t("Remove this Condition");
    return `<button type="button" class="${cls} ${target ? "target" : "removal"}" data-slot="${slot}" data-key="slot-${slot}" aria-label="${esc(what)}${COLON}${esc(slotText(slot))} (${esc(info.name)})">${inner}</button>`;
  }
  return `<span class="${cls}" data-slot="${slot}" role="img" aria-label="${esc(label)}"${css(placedDelay(ctx, slot))}>${inner}</span>`;
}

// cards placed by the last reveal: marked "new"; those this client sees for the first
// time appear with the delay of their reveal
function placedClass(ctx, slot) {
  if (!ctx.lastPlaced.has(slot)) return "";
  return ctx.lastPlaced.get(slot) === null ? " just-placed" : " just-placed appearing";
}

function placedDelay(ctx, slot) {
  const delay = ctx.lastPlaced.get(slot);
  return delay === null || delay === undefined ? "" : `--appear:${delay}s`;
}

export function drawLinks(container, view) {
  container.querySelectorAll(".web").forEach((figure) => {
    const grid = figure.querySelector(".web-grid");
    const svgEl = figure.querySelector(".web-links");
    if (!grid || !svgEl) return;
    const box = grid.getBoundingClientRect();
    svgEl.setAttribute("width", box.width);
    svgEl.setAttribute("height", box.height);
    svgEl.setAttribute("viewBox", `0 0 ${box.width} ${box.height}`);
    const lines = [];
    grid.querySelectorAll(".species-node").forEach((node) => {
      const parents = (node.dataset.parents || "").split(" ").filter(Boolean);
      const nb = node.getBoundingClientRect();
      parents.forEach((p) => {
        const parent = grid.querySelector(`.species-node[data-species="${p}"]`);
        if (!parent) return;
        const pb = parent.getBoundingClientRect();
        const x1 = pb.right - box.left;
        const y1 = pb.top + pb.height / 2 - box.top;
        const x2 = nb.left - box.left;
        const y2 = nb.top + nb.height / 2 - box.top;
        const on = view.web[p] ? " on" : "";
        const mx = (x1 + x2) / 2;
        lines.push(`<path class="link${on}" d="M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}"/>`);
      });
    });
    svgEl.innerHTML = lines.join("");
  });
}
