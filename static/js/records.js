// What the statistics, "your games" and admin pages share: rule titles, win rates,
// dates and small table builders (every value escaped).
import { BOOT, esc } from "./cards.js";
import { lang, t } from "./i18n.js";

/** The title of an advanced rule in the page's language ("none": the base game). */
export function ruleTitle(mode) {
  if (mode === "none") return t("The base game (no advanced rule)");
  const found = (BOOT.modes || []).find((m) => m.mode === mode);
  if (!found) return mode;
  return lang === "fr" ? found.title_fr : found.title;
}

/** "63 % (12 / 19)", or a dash when no game was played. */
export function rateText(rate) {
  if (!rate || !rate.games) return "–";
  const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(rate.win_rate);
  return t("{rate} ({won} of {games})", { rate: percent, won: rate.won, games: rate.games });
}

export function dateText(ms) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(ms));
}

/** An outcome with its icon and word (never the colour alone). */
export function outcomeText(outcome) {
  return outcome === "won" ? `<span class="outcome won"><span aria-hidden="true">✔</span> ${esc(t("Won"))}</span>` : `<span class="outcome lost"><span aria-hidden="true">✘</span> ${esc(t("Lost"))}</span>`;
}

/** A table's markup: a caption, its header cells and rows of already escaped cells.
 * Each cell carries its column's name (data-label): a phone shows a table marked
 * "stack" as one card per row, each value under its name. */
export function table(caption, headers, rows) {
  const head = headers.map((h) => `<th scope="col">${esc(h)}</th>`).join("");
  const cell = (c, i) => (i === 0 ? `<th scope="row">${c}</th>` : `<td data-label="${esc(headers[i])}">${c}</td>`);
  const body = rows.map((cells) => `<tr>${cells.map(cell).join("")}</tr>`).join("");
  return `<caption class="sr-only">${esc(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody>`;
}
