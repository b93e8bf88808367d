// The public statistics (/stats): GET /api/stats drawn as tables.
import { api } from "./api.js";
import { esc } from "./cards.js";
import { applyStyles, css } from "./dom.js";
import { t, tn } from "./i18n.js";
import { rateText, ruleTitle, table } from "./records.js";

const $ = (id) => document.getElementById(id);
const HEADERS = () => [t("Tables with people"), t("Tables of bots only")];

function draw(stats) {
  const total = stats.total;
  $("stats-total").textContent = total.games
    ? tn("{n} game finished, {rate} won.", "{n} games finished, {rate} won.", total.games, { rate: rateText(total) })
    : t("No game has been finished on this server yet.");
  $("by-players").innerHTML = table(
    t("Win rate by number of players"),
    [t("Players"), ...HEADERS()],
    stats.by_players.map((r) => [esc(tn("{n} player", "{n} players", r.players)), esc(rateText(r.people)), esc(rateText(r.bots))]),
  );
  $("by-rule").innerHTML = table(
    t("Win rate by advanced rule"),
    [t("Rule"), ...HEADERS()],
    stats.by_rule.map((r) => [esc(ruleTitle(r.rule)), esc(rateText(r.people)), esc(rateText(r.bots))]),
  );
  const most = Math.max(1, ...stats.per_day.map((d) => d.games));
  $("per-day").innerHTML = table(
    t("Games played per day"),
    [t("Day"), t("Games"), t("Won")],
    stats.per_day
      .slice()
      .reverse()
      .map((d) => [
        esc(d.day),
        `<span class="bar"${css(`--share: ${(d.games / most).toFixed(3)}`)} aria-hidden="true"></span> ${esc(String(d.games))}`,
        esc(String(d.won)),
      ]),
  );
  applyStyles($("per-day"));
  // the same days as bars, oldest first (the table above is what a screen reader reads)
  $("day-chart").innerHTML = stats.per_day.map((d) => `<span title="${esc(`${d.day}: ${d.games}`)}"${css(`--share: ${(d.games / most).toFixed(3)}`)}></span>`).join("");
  applyStyles($("day-chart"));
  const days = stats.per_day;
  $("day-axis").innerHTML = days.length ? `<span>${esc(days[0].day)}</span><span>${esc(days[days.length - 1].day)}</span>` : "";
}

async function load() {
  try {
    draw(await api("GET", "/api/stats"));
  } catch (err) {
    $("stats-error").textContent = err.message;
  }
}

load();
