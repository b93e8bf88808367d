// The rules picker shared by the home page (creating a room) and the lobby (the host
// changing the rules before the start): advanced rules one by one, or a path played as a
// campaign; under Options, a seed or an explicit deal.
import { BOOT, esc } from "./cards.js";
import { lang, modeSummary, modeTitle, t } from "./i18n.js";
import { PACE_CHOICES, paceChoiceText } from "./pace.js";
import { TEXTS } from "./texts.js";

export const PATH_TITLES = {
  1: t("Natural Variations"),
  2: t("Natural Areas Under Strain"),
  3: t("Human Impacts"),
  4: t("The Impacts of Other Species"),
};

const modesById = Object.fromEntries(BOOT.modes.map((m) => [m.mode, m]));

function modeOptions() {
  return BOOT.modes
    .map(
      (m, i) => `${i % 3 === 0 ? `<p class="mode-group">${esc(t("Path {n}: {title}", { n: i / 3 + 1, title: PATH_TITLES[i / 3 + 1] }))}</p>` : ""}<label class="mode-option">
      <input type="checkbox" name="mode" value="${m.mode}">
      <span class="mode-text"><span class="mode-title">${i + 1}. ${esc(modeTitle(m))}${lang === "fr" ? "" : ` <span class="fr" lang="fr">${esc(m.title_fr)}</span>`}</span>
      <span class="mode-summary">${esc(modeSummary(m))}</span></span></label>`,
    )
    .join("");
}

function pathOptions() {
  return Object.entries(BOOT.paths)
    .map(
      ([p, modes]) => `<label class="mode-option">
      <input type="radio" name="path" value="${p}"${p === "1" ? " checked" : ""}>
      <span class="mode-text"><span class="mode-title">${esc(t("Path {n}: {title}", { n: p, title: PATH_TITLES[p] || "" }))}</span>
      <span class="mode-summary">${modes.map((m, i) => esc(t("Stage {n}: {title}", { n: i + 1, title: modeTitle(modesById[m]) }))).join(" · ")}</span></span></label>`,
    )
    .join("");
}

// Draws the picker into `container` (a form or part of one) and wires its toggling.
export function renderRulesPicker(container) {
  container.innerHTML = `
    <fieldset class="choice-kind">
      <legend>${esc(t("Game"))}</legend>
      <label class="radio"><input type="radio" name="kind" value="modes" checked> ${esc(t("Base game, with the advanced rules I pick"))}</label>
      <label class="radio"><input type="radio" name="kind" value="path"> ${esc(t("A path, played as a campaign (3 stages)"))}</label>
    </fieldset>
    <fieldset class="modes-fieldset">
      <legend>${esc(t("Advanced rules"))} <span class="hint">${esc(t("(optional, any combination)"))}</span></legend>
      <div class="mode-list">${modeOptions()}</div>
    </fieldset>
    <fieldset class="path-fieldset" hidden>
      <legend>${esc(t("Path"))}</legend>
      <div class="mode-list">${pathOptions()}</div>
    </fieldset>
    <div class="pace-option">
      <label for="turn-limit">${esc(t("Pace"))}</label>
      <select id="turn-limit" name="turn_limit">${PACE_CHOICES.map((s) => `<option value="${s}">${esc(paceChoiceText(s))}</option>`).join("")}</select>
      <p class="hint">${esc(t("A paced game is played over days: each player has that long for each move, or a bot plays it for them (they keep their seat)."))}</p>
    </div>
    <label class="radio hints-option"><input type="checkbox" id="hints" name="hints"> ${esc(t("Hints from the expert for people too (a Hint button at the table; every hint taken is shown to all)"))}</label>
    <details class="advanced">
      <summary>${esc(t("Options"))}</summary>
      <label for="seed">${esc(t("Seed"))} <span class="hint">${esc(t("(optional: the same seed deals the same cards)"))}</span></label>
      <input id="seed" name="seed" type="number" inputmode="numeric" min="0" step="1">
      <label for="deal">${esc(t("Explicit deal"))} <span class="hint">${t("(optional, for puzzles and teaching: JSON {format}, one hand per player)", { format: '<code>{"hands": [[card ids], ..], "first_player": 0}</code>' })}</span></label>
      <textarea id="deal" name="deal" rows="3" spellcheck="false"></textarea>
    </details>`;
  container.addEventListener("change", (event) => {
    if (event.target.name === "kind") showKind(container);
  });
}

function showKind(container) {
  const path = container.querySelector('input[name="kind"]:checked').value === "path";
  container.querySelector(".modes-fieldset").hidden = path;
  container.querySelector(".path-fieldset").hidden = !path;
}

/** A field of the picker that cannot be read: its message, and the field to focus. */
export class PickerError extends Error {
  constructor(message, field) {
    super(message);
    this.field = field;
  }
}

// The body the API takes: {modes: [..]} or {path: N}, with an optional seed or deal.
// Throws a PickerError when the seed or the deal cannot be read.
export function readRulesPicker(container) {
  const body = {};
  if (container.querySelector('input[name="kind"]:checked').value === "path") {
    body.path = Number(container.querySelector('input[name="path"]:checked').value);
  } else {
    body.modes = [...container.querySelectorAll('input[name="mode"]:checked')].map((x) => x.value);
  }
  const seedField = container.querySelector("#seed");
  const seedText = seedField.value.trim();
  if (seedText !== "") {
    const seed = Number(seedText);
    if (!Number.isInteger(seed) || seed < 0) throw new PickerError(TEXTS.seedInvalid, seedField);
    body.seed = seed;
  }
  if (container.querySelector("#hints")?.checked) body.hints = true;
  const pace = container.querySelector("#turn-limit")?.value;
  if (pace) body.turn_limit_seconds = Number(pace);
  const dealField = container.querySelector("#deal");
  const dealText = dealField.value.trim();
  if (dealText !== "") {
    try {
      body.deal = JSON.parse(dealText);
    } catch (err) {
      throw new PickerError(TEXTS.dealInvalid, dealField);
    }
  }
  return body;
}

// Shows the room's current choice, with its seed or deal (the host's rules).
export function setRulesPicker(container, { modes = [], path = null, seed = null, deal = null, hints = false, turn_limit_seconds: limit = null } = {}) {
  const hintsBox = container.querySelector("#hints");
  if (hintsBox) hintsBox.checked = !!hints;
  const pace = container.querySelector("#turn-limit");
  if (pace) {
    const value = limit ? String(limit) : "";
    // a limit set through the API may be none of the choices: offered as it is
    if (![...pace.options].some((o) => o.value === value)) pace.insertAdjacentHTML("beforeend", `<option value="${value}">${esc(paceChoiceText(limit))}</option>`);
    pace.value = value;
  }
  container.querySelector(`input[name="kind"][value="${path ? "path" : "modes"}"]`).checked = true;
  for (const box of container.querySelectorAll('input[name="mode"]')) box.checked = !path && modes.includes(box.value);
  if (path) container.querySelector(`input[name="path"][value="${path}"]`).checked = true;
  container.querySelector("#seed").value = seed === null || seed === undefined ? "" : String(seed);
  container.querySelector("#deal").value = deal ? JSON.stringify(deal) : "";
  if (seed !== null && seed !== undefined) container.querySelector("details.advanced").open = true;
  if (deal) container.querySelector("details.advanced").open = true;
  showKind(container);
}
