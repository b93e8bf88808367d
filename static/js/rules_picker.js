// The rules picker shared by the home page (creating a room) and the lobby (the host
// changing the rules before the start): advanced rules one by one, or a path played as a
// campaign.
import { BOOT, esc } from "./cards.js";

export const PATH_TITLES = {
  1: "Natural Variations",
  2: "Natural Areas Under Strain",
  3: "Human Impacts",
  4: "The Impacts of Other Species",
};

const modesById = Object.fromEntries(BOOT.modes.map((m) => [m.mode, m]));

function modeOptions() {
  return BOOT.modes
    .map(
      (m, i) => `${i % 3 === 0 ? `<p class="mode-group">Path ${i / 3 + 1}: ${PATH_TITLES[i / 3 + 1]}</p>` : ""}<label class="mode-option">
      <input type="checkbox" name="mode" value="${m.mode}">
      <span class="mode-text"><span class="mode-title">${i + 1}. ${esc(m.title)} <span class="fr" lang="fr">${esc(m.title_fr)}</span></span>
      <span class="mode-summary">${esc(m.summary)}</span></span></label>`,
    )
    .join("");
}

function pathOptions() {
  return Object.entries(BOOT.paths)
    .map(
      ([p, modes]) => `<label class="mode-option">
      <input type="radio" name="path" value="${p}"${p === "1" ? " checked" : ""}>
      <span class="mode-text"><span class="mode-title">Path ${p}: ${PATH_TITLES[p] || ""}</span>
      <span class="mode-summary">${modes.map((m, i) => `Stage ${i + 1}: ${esc(modesById[m].title)}`).join(" · ")}</span></span></label>`,
    )
    .join("");
}

// Draws the picker into `container` (a form or part of one) and wires its toggling.
export function renderRulesPicker(container) {
  container.innerHTML = `
    <fieldset class="choice-kind">
      <legend>Game</legend>
      <label class="radio"><input type="radio" name="kind" value="modes" checked> Base game, with the advanced rules I pick</label>
      <label class="radio"><input type="radio" name="kind" value="path"> A path, played as a campaign (3 stages)</label>
    </fieldset>
    <fieldset class="modes-fieldset">
      <legend>Advanced rules <span class="hint">(optional, any combination)</span></legend>
      <div class="mode-list">${modeOptions()}</div>
    </fieldset>
    <fieldset class="path-fieldset" hidden>
      <legend>Path</legend>
      <div class="mode-list">${pathOptions()}</div>
    </fieldset>`;
  container.addEventListener("change", (event) => {
    if (event.target.name === "kind") showKind(container);
  });
}

function showKind(container) {
  const path = container.querySelector('input[name="kind"]:checked').value === "path";
  container.querySelector(".modes-fieldset").hidden = path;
  container.querySelector(".path-fieldset").hidden = !path;
}

// The body part the API takes: {modes: [..]} or {path: N}.
export function readRulesPicker(container) {
  if (container.querySelector('input[name="kind"]:checked').value === "path") {
    return { path: Number(container.querySelector('input[name="path"]:checked').value) };
  }
  return { modes: [...container.querySelectorAll('input[name="mode"]:checked')].map((x) => x.value) };
}

// Shows the room's current choice.
export function setRulesPicker(container, { modes = [], path = null } = {}) {
  container.querySelector(`input[name="kind"][value="${path ? "path" : "modes"}"]`).checked = true;
  for (const box of container.querySelectorAll('input[name="mode"]')) box.checked = !path && modes.includes(box.value);
  if (path) container.querySelector(`input[name="path"][value="${path}"]`).checked = true;
  showKind(container);
}
