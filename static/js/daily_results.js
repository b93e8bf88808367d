// The daily deal's results (GET /api/daily/{date}/{players}/results), drawn for the end
// screen of a daily room and for the /daily page: every table that finished the deal
// (yours marked), and the solver's verdict on the deal.
import { api } from "./api.js";
import { esc } from "./cards.js";
import { icon } from "./icons.js";
import { t, tn } from "./i18n.js";
import { winsText } from "./texts.js";

/** The results of the table of room ``code`` on its daily deal ``daily`` ({date,
 * players}), with its seat or host ``token``; throws ApiError (409 before its end). */
export function fetchDailyResults(daily, code, token) {
  const path = `/api/daily/${encodeURIComponent(daily.date)}/${daily.players}/results?room=${encodeURIComponent(code)}`;
  return api("GET", path, { token });
}

/** The verdict on the deal in one sentence. */
export function verdictText(verdict) {
  if (verdict.status === "pending") return t("The solver is looking at the deal with every hand open…");
  if (verdict.verdict === "won") {
    return verdict.turns
      ? tn("With every hand open, this deal can be won (in {n} turn).", "With every hand open, this deal can be won (in {n} turns).", verdict.turns)
      : t("With every hand open, this deal can be won.");
  }
  if (verdict.verdict === "lost") return t("No team could win this deal, even seeing every hand (proven).");
  return t("The solver did not decide this deal within its budget.");
}

function helpers(table) {
  const parts = [];
  if (table.bots) parts.push(`${icon("bot")} ${esc(tn("{n} bot", "{n} bots", table.bots))}`);
  if (table.stand_in_moves) parts.push(esc(tn("{n} move by a stand-in", "{n} moves by a stand-in", table.stand_in_moves)));
  if (table.hints) parts.push(esc(tn("{n} hint", "{n} hints", table.hints)));
  return parts.length ? parts.join(", ") : esc(t("people only, no hint"));
}

/** The results as HTML: a summary line, the verdict, one row per table. */
export function dailyResultsHTML(data) {
  const rows = data.tables
    .map((table, i) => {
      const outcome = table.won ? `✓ ${t("won")}` : `✗ ${t("lost")}`;
      const who = table.mine ? t("Your table") : t("Table {n}", { n: i + 1 });
      return `<tr class="${table.mine ? "mine" : ""}" data-won="${table.won}">
        <th scope="row">${esc(who)}</th>
        <td class="${table.won ? "good" : "bad"}">${esc(outcome)}</td>
        <td>${table.placed}/${table.slots}</td>
        <td>${table.discards}</td>
        <td>${table.turns}</td>
        <td>${helpers(table)}</td></tr>`;
    })
    .join("");
  return `<p class="daily-summary">${esc(tn("{n} table has finished this deal", "{n} tables have finished this deal", data.finished))}${esc(winsText(data.won))}</p>
    <p class="daily-verdict" data-status="${esc(data.verdict.status)}" data-verdict="${esc(data.verdict.verdict)}">${esc(verdictText(data.verdict))}</p>
    <div class="table-scroll" tabindex="0" role="region" aria-label="${esc(t("How every table did on this deal"))}"><table class="daily-table">
      <caption class="sr-only">${esc(t("How every table did on this deal"))}</caption>
      <thead><tr><th scope="col">${esc(t("Table"))}</th><th scope="col">${esc(t("Result"))}</th><th scope="col">${esc(t("Web of life"))}</th><th scope="col">${esc(t("Cards discarded"))}</th><th scope="col">${esc(t("Turns"))}</th><th scope="col">${esc(t("Help"))}</th></tr></thead>
      <tbody>${rows}</tbody></table></div>`;
}
