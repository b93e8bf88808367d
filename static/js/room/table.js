// The table: header, banner, the other players, the web of life and the status line; the
// hand, reveals, discard pile, log, dialogs and end screen come from their own modules.
import { facedownHTML, cardHTML, esc } from "../cards.js";
import { t, tn } from "../i18n.js";
import { icon } from "../icons.js";
import { dealChosenText, lostReasonText, seatName } from "../texts.js";
import { drawLinks, renderWebs } from "../web.js";
import { updateAlerts } from "./alerts.js";
import { botBadge, takeoverButton } from "./bots.js";
import { hostBadge } from "./seats.js";
import { maybeOpenGiveback } from "./dialogs.js";
import { renderEnd } from "./end.js";
import { renderMe } from "./hand.js";
import { renderLog } from "./log.js";
import { clockHTML, paceNoteHTML, sinceLastVisit } from "./paced.js";
import { send } from "./net.js";
import { freshReveals, lastPlacedSlots, renderDiscard, renderReveals } from "./reveal.js";
import { $, app, canUseSymbiosis, inGame, mayActivate, mySeat, players, render, setHTML, show, touch } from "./state.js";

export function renderGame() {
  const v = app.view;
  const sym = $("sym-dialog");
  if (sym.open && (v.phase !== "programming" || v.pending_give || !canUseSymbiosis())) sym.close();
  const over = v.phase === "over";
  if (over && !app.endDismissed) {
    const first = $("end-view").hidden;
    show("end-view");
    renderEnd();
    if (first) $("end-title").focus({ preventScroll: true });
  } else {
    show("game-view");
  }
  const ti = $("turn-info");
  ti.hidden = false;
  setHTML(ti, esc(over ? t("Game over · turn {turn}", { turn: v.turn }) : v.phase === "choosing_sides" ? t("Before turn 1") : t("Turn {turn} of {total}", { turn: v.turn, total: v.turns_total ?? "?" })) + paceNoteHTML());
  const camp = v.campaign;
  // a path played again (lost, or won to its end) says which attempt this is
  const stage = !camp ? "" : camp.attempt > 1
    ? t("Path {n}, stage {stage}/3, attempt {attempt}", { n: camp.path, stage: camp.stage, attempt: camp.attempt })
    : t("Path {n}, stage {stage}/3", { n: camp.path, stage: camp.stage });
  $("stage-info").hidden = !stage;
  $("stage-info").textContent = stage;
  const deal = $("deal-info");
  deal.hidden = !v.deal_chosen_by_host;
  if (v.deal_chosen_by_host) {
    // the short label shows, the whole sentence is the tooltip and what a screen reader says
    const long = dealChosenText(v.deal_choice);
    setHTML(deal, `${icon("eye")} <span aria-hidden="true">${esc(dealChosenText(v.deal_choice, "short"))}</span><span class="sr-only">${esc(long)}</span>`);
    deal.title = long;
  }
  renderBanner();
  renderOthers();
  renderMe();
  renderStatus();
  const { targets, removals } = revealChoices();
  const fresh = freshReveals();
  renderWebs($("webs"), v, { targets, removals, lastPlaced: lastPlacedSlots(fresh) });
  renderReveals(fresh);
  renderLog();
  renderDiscard(); // after the log: it tells who discarded each card
  maybeOpenGiveback();
  updateAlerts();
  sinceLastVisit(v);
}

function orderedOthers() {
  const me = mySeat();
  const list = players();
  if (me === null) return list;
  const n = list.length;
  return list.map((_, i) => list[(me + 1 + i) % n]).filter((p) => p.seat !== me);
}

export function renderBanner() {
  const v = app.view;
  const el = $("banner");
  const lines = [];
  if (app.conn === "reconnecting") lines.push(`<p class="reconnecting-note">${icon("web")} ${esc(t("Reconnecting… Your seat and hand are kept."))}</p>`);
  if (!v.winnable && v.phase !== "over") {
    const empty = Object.values(v.web).filter((x) => !x).length;
    const why = lostReasonText(v.lost_reason) || tn("{n} place of the web is still empty and there are not enough cards left to fill it.", "{n} places of the web are still empty and there are not enough cards left to fill them.", empty);
    lines.push(`<div class="unwinnable" role="status"><p><strong>${esc(t("The game can no longer be won."))}</strong> <span class="lost-reason">${esc(why)}</span></p>
      ${mySeat() !== null ? `<button type="button" class="btn danger" id="end-game-btn" data-key="end-game">${esc(t("End the game"))}</button>` : ""}</div>`);
  }
  if (v.phase === "over" && app.endDismissed) {
    lines.push(`<div class="unwinnable over"><p>${esc(t("The game is over."))}</p><button type="button" class="btn" id="back-end" data-key="back-end">${esc(t("Back to the result"))}</button></div>`);
  }
  setHTML(el, lines.join(""));
  el.hidden = !lines.length;
}

$("banner").addEventListener("click", (event) => {
  if (event.target.closest("#end-game-btn")) send({ type: "end_game" });
  if (event.target.closest("#back-end")) {
    app.endDismissed = false;
    render();
  }
});

function renderOthers() {
  const v = app.view;
  const known = v.known || [];
  // a spectator knows only the cards shown to everyone
  const knownLabel = mySeat() === null ? t("Everyone knows:") : t("You know:");
  const awaiting = v.awaiting;
  setHTML($("others"), orderedOthers()
    .map((p) => {
      const theirs = known.filter((k) => k.seat === p.seat);
      const first = p.seat === v.first_player;
      const active = awaiting && awaiting.seat === p.seat;
      const pending = v.pending_give && (v.pending_give.from === p.seat || v.pending_give.to === p.seat);
      const prog = p.has_programmed ? facedownHTML(t("{who} has programmed a card", { who: seatName(v, p.seat) })) : `<span class="card small empty" role="img" aria-label="${esc(t("no card programmed"))}"></span>`;
      return `<article class="player${active ? " active" : ""}${p.connected === false && !p.bot ? " offline" : ""}${p.bot ? " is-bot" : ""}" data-seat="${p.seat}" aria-label="${esc(seatName(v, p.seat))}">
        <header class="player-head">
          ${p.bot ? "" : `<span class="conn-dot ${p.connected === false ? "off" : "on"}" title="${esc(p.connected === false ? t("not connected") : t("connected"))}" aria-hidden="true"></span>`}
          <span class="pname">${esc(seatName(v, p.seat))}</span>
          ${botBadge(p)}
          ${hostBadge(p)}
          ${first ? `<span class="badge first" title="${esc(t("First player this turn"))}">${icon("first")} ${esc(t("First"))}${v.phase === "programming" && v.free_symbiosis_available ? esc(t(" · free Symbiosis")) : ""}</span>` : ""}
        </header>
        <div class="player-body">
          ${prog}
          <ul class="player-facts">
            <li>${icon("hand")} ${esc(t("{n} in hand", { n: p.hand_size }))}</li>
            <li>${icon("symbiosis")} ${esc(t("{n} Symbiosis", { n: p.symbiosis_cards }))}</li>
            ${p.side ? `<li>${icon(p.side)} ${esc(p.side === "plant" ? t("Plant side") : t("Animal side"))}</li>` : ""}
            ${v.phase === "programming" ? `<li class="ready-state ${p.ready ? "is-ready" : ""}">${p.ready ? `${icon("ready")} ${esc(t("Ready"))}` : esc(p.has_programmed ? t("Thinking…") : p.hand_size ? t("Choosing…") : t("No card left"))}</li>` : ""}
          </ul>
          ${theirs.length ? `<div class="known"><span class="label">${icon("eye")} ${esc(knownLabel)}</span> ${theirs.map((k) => cardHTML(k.card, { small: true, modes: v.modes })).join("")}</div>` : ""}
        </div>
        ${pending ? `<p class="pending-note">${esc(v.pending_give.to === p.seat ? t("must give a card back") : t("is waiting for a card back"))}</p>` : ""}
        ${active && awaiting.kind === "reveal" ? `<p class="pending-note">${esc(t("is choosing where their card goes"))}</p>` : ""}
        ${clockHTML(p.seat)}
        ${takeoverButton(p)}
      </article>`;
    })
    .join(""));
}

function revealChoices() {
  const v = app.view;
  const aw = v.awaiting;
  const targets = {};
  const removals = {};
  if (aw && aw.kind === "reveal" && aw.seat === mySeat()) {
    aw.options.forEach((o, i) => {
      if (o.slot) (targets[o.slot] ||= []).push(i);
      if (o.target) {
        const slot = Object.keys(v.web).find((s) => v.web[s] === o.target);
        if (slot) (removals[slot] ||= []).push(i);
      }
    });
  }
  return { targets, removals };
}

$("webs").addEventListener("click", (event) => {
  const b = event.target.closest("button[data-slot]");
  if (!b || !mayActivate($("webs"), event)) return;
  const v = app.view;
  const aw = v && v.awaiting;
  if (!aw || aw.kind !== "reveal" || aw.seat !== mySeat()) return;
  const slot = b.dataset.slot;
  const options = aw.options.filter((o) => o.slot === slot || (o.target && v.web[slot] === o.target));
  if (options.length === 1) send(options[0]);
  else if (options.length > 1) {
    // several ways to use this place (should not happen: a slot has one colour)
    $("prompt").querySelector(`[data-opt="${aw.options.indexOf(options[0])}"]`)?.focus();
  }
});

function renderStatus() {
  const v = app.view;
  const me = mySeat();
  const aw = v.awaiting;
  let text = "";
  if (v.phase === "over") {
    text = v.result ? (v.result.outcome === "won" ? t("The web of life is complete: you won!") : t("The game is lost.")) : t("The game is over.");
  } else if (v.phase === "choosing_sides") {
    text = aw && aw.seat === me ? t("Choose your side: Plant or Animal.") : t("Waiting for {who} to choose a side.", { who: seatName(v, aw?.seat) });
  } else if (v.phase === "reveal") {
    text = aw && aw.seat === me ? t("Your reveal: choose where your card goes.") : t("Reveal: {who} chooses where their card goes.", { who: seatName(v, aw?.seat) });
  } else if (v.pending_give) {
    text = v.pending_give.to === me ? t("Give a card back to finish the exchange.") : t("Waiting for {who} to give a card back to {to}.", { who: seatName(v, v.pending_give.to), to: seatName(v, v.pending_give.from) });
  } else if (me !== null) {
    const p = players().find((x) => x.seat === me) || {};
    // the seats the table waits for: the engine's to_act (older servers: derived)
    const waits = Array.isArray(v.to_act) ? (x) => v.to_act.includes(x.seat) : (x) => (x.hand_size > 0 || x.has_programmed) && !x.ready;
    const waiting = players().filter((x) => x.seat !== me && waits(x)).map((x) => seatName(v, x.seat));
    if (!v.programmed && (v.hand || []).length) text = touch() ? t("Programming: tap a card of your hand to put it face down.") : t("Programming: click a card of your hand to put it face down.");
    else if (!p.ready && v.programmed) text = t("Say Ready when you are sure (you can still replace your card).");
    else if (waiting.length) text = t("Ready. Waiting for {who}.", { who: waiting.join(", ") });
    else text = t("Waiting…");
  } else {
    text = t("Programming: the players choose their cards.");
  }
  // a live region: rewritten only when its words change (each view would say them again)
  if ($("status").textContent !== text) $("status").textContent = text;
}

// the links between species follow the layout (window size, fonts, panels opening)
const relink = () => {
  if (app.view && inGame()) drawLinks($("webs"), app.view);
};
if ("ResizeObserver" in window) new ResizeObserver(relink).observe($("webs"));
else window.addEventListener("resize", relink);
