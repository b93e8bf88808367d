// The end screen: the result, the campaign's progress and the rematch.
import { api } from "../api.js";
import { BOOT, esc } from "../cards.js";
import { modeTitle, t, tn } from "../i18n.js";
import { icon } from "../icons.js";
import { refreshRoom } from "./net.js";
import { amHost, hostToken } from "./seats.js";
import { lostReasonText } from "../texts.js";
import { $, app, CODE, MODES, players, render } from "./state.js";

export function renderEnd() {
  const v = app.view;
  const r = v.result || { outcome: "lost", discards: v.discard.length };
  const won = r.outcome === "won";
  $("end-view").dataset.outcome = r.outcome;
  $("end-title").innerHTML = won ? `${icon("leaf")} ${esc(t("The web of life is complete: you won!"))}` : esc(t("The game is lost"));
  const max = v.max_discards;
  $("end-text").textContent = won
    ? r.discards === 0
      ? t("{n} cards discarded (at most {max} allowed to win: a perfect game!)", { n: 0, max })
      : tn("{n} card discarded (at most {max} allowed to win).", "{n} cards discarded (at most {max} allowed to win).", r.discards, { max })
    : lostText(lostReasonText(v.lost_reason), r.discards, max);
  const placed = Object.values(v.web).filter(Boolean).length;
  const slots = Object.keys(v.web).length;
  $("end-stats").innerHTML = `
    <div><dt>${esc(t("Cards discarded"))}</dt><dd class="${r.discards > max ? "bad" : ""}">${r.discards} <span class="hint">${esc(t("/ {max} max", { max }))}</span></dd></div>
    <div><dt>${esc(t("Web of life"))}</dt><dd>${placed} <span class="hint">${esc(t("/ {n} cards", { n: slots }))}</span></dd></div>
    <div><dt>${esc(t("Turns played"))}</dt><dd>${v.turn}</dd></div>`;
  $("end-players").textContent = `${players().map((p) => p.name).join(", ")} · ${v.modes.length ? v.modes.map((m) => modeTitle(MODES[m]) || m).join(", ") : t("base game")}`;
  const camp = v.campaign || (app.room && app.room.campaign);
  let campaignHTML = "";
  let rematchLabel = t("Play again (new deal)");
  if (camp) {
    const results = camp.results || [];
    const stages = [1, 2, 3]
      .map((s) => {
        const res = results[s - 1];
        const modes = BOOT.paths[String(camp.path)] || [];
        return `<li class="stage ${res || "todo"}${s === camp.stage ? " current" : ""}"><span class="stage-no">${esc(t("Stage {n}", { n: s }))}</span> <span>${esc(modeTitle(MODES[modes[s - 1]]))}</span> <strong>${esc(res === "won" ? t("won") : res === "lost" ? t("lost") : t("to play"))}</strong></li>`;
      })
      .join("");
    campaignHTML = `<h2>${esc(t("Path {n}: campaign progress", { n: camp.path }))}</h2><ol class="campaign">${stages}</ol>`;
    if (won && camp.stage < 3) rematchLabel = t("Next: stage {stage} of path {n}", { stage: camp.stage + 1, n: camp.path });
    else if (won) rematchLabel = t("Path {n} won! Play it again", { n: camp.path });
    else rematchLabel = t("Try path {n} again from stage 1", { n: camp.path });
  }
  $("end-campaign").innerHTML = campaignHTML;
  renderReplays(v.game);
  const host = amHost();
  $("rematch-btn").hidden = !host;
  $("rematch-btn").textContent = rematchLabel;
  $("rematch-wait").hidden = host;
}

// Why the game is lost, then a word of encouragement: the discards are said once, in the
// reason when there is one (its count is also in the stats below), else here.
function lostText(reason, discards, max) {
  if (reason) return `${reason} ${t("Every web is a lesson: try again!")}`;
  return tn("{n} card discarded (at most {max} could be discarded to win). Every web is a lesson: try again!", "{n} cards discarded (at most {max} could be discarded to win). Every web is a lesson: try again!", discards, { max });
}

// The replay of this game (a link that keeps pointing at it after a rematch) and of the
// room's earlier games: the server keeps them.
function renderReplays(game) {
  const url = (n) => `/r/${encodeURIComponent(CODE)}/replay?game=${n}`;
  if (game) $("replay-link").href = url(game);
  $("end-replays").hidden = !(game > 1);
  const earlier = Array.from({ length: Math.max(0, (game || 1) - 1) }, (_, i) => i + 1);
  $("end-replays-list").innerHTML = earlier.map((n) => `<li><a href="${url(n)}">${esc(t("Game {n}", { n }))}</a></li>`).join("");
}

$("rematch-btn").addEventListener("click", async () => {
  $("rematch-error").textContent = "";
  $("rematch-btn").disabled = true;
  try {
    await api("POST", `/api/rooms/${encodeURIComponent(CODE)}/rematch`, { token: hostToken() });
    app.endDismissed = false;
    await refreshRoom();
  } catch (err) {
    $("rematch-error").textContent = err.message;
  } finally {
    $("rematch-btn").disabled = false;
  }
});

$("see-table-btn").addEventListener("click", () => {
  app.endDismissed = true;
  render();
  $("back-end")?.focus();
});
