// "Your games" (/games): the games this browser sat at, newest first, with links to
// their replays (history.js keeps them).
import { esc } from "./cards.js";
import { t, tn } from "./i18n.js";
import { clearGames, loadGames } from "./history.js";
import { dateText, outcomeText, ruleTitle, table } from "./records.js";
import { winsText } from "./texts.js";

const $ = (id) => document.getElementById(id);

function draw() {
  const games = loadGames().slice().reverse();
  $("games-empty").hidden = games.length > 0;
  $("games").hidden = !games.length;
  $("games-clear").hidden = !games.length;
  const won = games.filter((g) => g.outcome === "won").length;
  $("games-summary").textContent = games.length ? tn("{n} game", "{n} games", games.length) + winsText(won) : "";
  $("games").innerHTML = table(
    t("Your games"),
    [t("Date"), t("Result"), t("Players"), t("Rules"), t("Cards placed"), t("Discards"), t("Turns"), t("Replay")],
    games.map((g) => {
      const rules = g.rules && g.rules.length ? g.rules.map(ruleTitle).join(", ") : ruleTitle("none");
      const players = tn("{n} player", "{n} players", g.players) + (g.bots ? ` (${tn("{n} bot", "{n} bots", g.bots)})` : "");
      const replay = `/r/${encodeURIComponent(g.room)}/replay?game=${encodeURIComponent(g.game)}`;
      return [
        esc(dateText(g.finished_at)),
        outcomeText(g.outcome),
        esc(players),
        esc(rules),
        esc(String(g.cards_placed)),
        esc(String(g.discards)),
        esc(String(g.turns)),
        `<a href="${esc(replay)}">${esc(t("Watch the replay"))}</a>`,
      ];
    }),
  );
}

$("games-clear").addEventListener("click", () => {
  if (!window.confirm(t("Forget every game listed here? Their replays stay on the server."))) return;
  clearGames();
  draw();
});

draw();
