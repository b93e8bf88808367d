// The end screen: the result, the campaign's progress and the rematch.
import { api } from "../api.js";
import { BOOT, esc } from "../cards.js";
import { icon } from "../icons.js";
import { refreshRoom } from "./net.js";
import { $, app, CODE, MODES, players, render } from "./state.js";

export function renderEnd() {
  const v = app.view;
  const r = v.result || { outcome: "lost", discards: v.discard.length };
  const won = r.outcome === "won";
  $("end-view").dataset.outcome = r.outcome;
  $("end-title").innerHTML = won ? `${icon("leaf")} The web of life is complete: you won!` : "The game is lost";
  const max = v.max_discards;
  $("end-text").innerHTML = won
    ? `${r.discards} card${r.discards === 1 ? "" : "s"} discarded (at most ${max} allowed to win${r.discards === 0 ? ": a perfect game!" : ""}).`
    : `${r.discards} card${r.discards === 1 ? "" : "s"} discarded (at most ${max} could be discarded to win). Every web is a lesson: try again!`;
  const placed = Object.values(v.web).filter(Boolean).length;
  const slots = Object.keys(v.web).length;
  $("end-stats").innerHTML = `
    <div><dt>Cards discarded</dt><dd class="${r.discards > max ? "bad" : ""}">${r.discards} <span class="hint">/ ${max} max</span></dd></div>
    <div><dt>Web of life</dt><dd>${placed} <span class="hint">/ ${slots} cards</span></dd></div>
    <div><dt>Turns played</dt><dd>${v.turn}</dd></div>`;
  $("end-players").textContent = `${players().map((p) => p.name).join(", ")} · ${v.modes.length ? v.modes.map((m) => MODES[m]?.title || m).join(", ") : "base game"}`;
  const camp = v.campaign || (app.room && app.room.campaign);
  let campaignHTML = "";
  let rematchLabel = "Play again (new deal)";
  if (camp) {
    const results = camp.results || [];
    const stages = [1, 2, 3]
      .map((s) => {
        const res = results[s - 1];
        const modes = BOOT.paths[String(camp.path)] || [];
        return `<li class="stage ${res || "todo"}${s === camp.stage ? " current" : ""}"><span class="stage-no">Stage ${s}</span> <span>${esc(MODES[modes[s - 1]]?.title || "")}</span> <strong>${res === "won" ? "won" : res === "lost" ? "lost" : "to play"}</strong></li>`;
      })
      .join("");
    campaignHTML = `<h2>Path ${camp.path}: campaign progress</h2><ol class="campaign">${stages}</ol>`;
    if (won && camp.stage < 3) rematchLabel = `Next: stage ${camp.stage + 1} of path ${camp.path}`;
    else if (won) rematchLabel = `Path ${camp.path} won! Play it again`;
    else rematchLabel = `Try path ${camp.path} again from stage 1`;
  }
  $("end-campaign").innerHTML = campaignHTML;
  const host = !!app.mem.host_token;
  $("rematch-btn").hidden = !host;
  $("rematch-btn").textContent = rematchLabel;
  $("rematch-wait").hidden = host;
}

$("rematch-btn").addEventListener("click", async () => {
  $("rematch-error").textContent = "";
  $("rematch-btn").disabled = true;
  try {
    await api("POST", `/api/rooms/${encodeURIComponent(CODE)}/rematch`, { token: app.mem.host_token });
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
