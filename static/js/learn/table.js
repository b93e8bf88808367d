// A lesson's table, drawn from the learner's view with the table's own modules (the web
// from web.js, the cards from cards.js): partners, web, reveals, discard pile, hand and
// controls. The element the current step waits for carries the class "lesson-target".
import { cardFace, cardHTML, cardText, esc } from "../cards.js";
import { COLON } from "../i18n.js";
import { icon } from "../icons.js";
import { renderWebs, slotText } from "../web.js";
import { w } from "./words.js";

const $ = (id) => document.getElementById(id);

// the Symbiosis being composed: {kind, card}
let draft = null;
let draftFor = -1;

// the learner's seat is the view's own
let mySeat = 0;

function name(lesson, seat) {
  return seat === mySeat ? w("you") : lesson.names[seat];
}

export function drawTable(answer, lesson, act) {
  const v = answer.view;
  const step = answer.step;
  if (draftFor !== answer.done) {
    draft = null;
    draftFor = answer.done;
  }
  mySeat = v.seat;
  drawPartners(v, lesson);
  const targets = {};
  const mine = v.awaiting && v.awaiting.seat === v.seat && v.awaiting.kind === "reveal";
  if (mine) for (const o of v.awaiting.options) if (o.slot) (targets[o.slot] ||= []).push(o);
  const web = $("lesson-web");
  renderWebs(web, v, { targets });
  web.onclick = (event) => {
    const b = event.target.closest("button[data-slot]");
    if (b && targets[b.dataset.slot]) act(targets[b.dataset.slot][0]);
  };
  drawReveals(v, lesson);
  drawDiscard(v);
  drawHand(v, lesson, act, step);
  point(step);
}

// where each seat reveals this turn: round the table from the first player, seats
// without a card skipped
function revealOrder(v) {
  const n = v.players.length;
  const seats = [];
  for (let k = 0; k < n; k++) {
    const seat = (v.first_player + k) % n;
    const p = v.players[seat];
    if (p.hand_size > 0 || p.has_programmed) seats.push(seat);
  }
  return seats;
}

function drawPartners(v, lesson) {
  const order = v.first_player === null ? [] : revealOrder(v);
  $("lesson-partners").innerHTML = v.players
    .map((p) => {
      const rank = order.indexOf(p.seat);
      const reveals = rank < 0 ? "" : ` · ${esc(w("revealsAt", { n: w(`rank${rank + 1}`) }))}`;
      const first = p.seat === v.first_player ? `<span class="chip first">${icon("first")} ${esc(w("first"))}</span>` : "";
      const state = p.ready ? w("isReady") : p.has_programmed ? w("hasProgrammed") : w("thinking");
      return `<li class="lesson-partner${p.seat === v.seat ? " me" : ""}" data-seat="${p.seat}">
        <strong>${esc(name(lesson, p.seat))}</strong> ${first}
        <span class="hint">${esc(w("cards", { n: p.hand_size }))} · ${esc(w("symbiosisCards", { n: p.symbiosis_cards }))} · ${esc(state)}${reveals}</span></li>`;
    })
    .join("");
}

function recordLine(r, lesson) {
  const what = r.result === "placed" ? w("placed", { slot: slotText(r.slot) }) : w("discarded");
  return `<li class="lesson-record ${esc(r.result)}"><strong>${esc(name(lesson, r.seat))}</strong>${COLON}${esc(cardText(r.card, r.colour))} → ${esc(what)}</li>`;
}

function drawReveals(v, lesson) {
  const now = v.revealed_this_turn || [];
  const list = now.length ? now : v.last_turn || [];
  const title = now.length ? w("thisTurn") : w("lastTurn");
  $("lesson-reveals").innerHTML = list.length
    ? `<h2 class="panel-title">${esc(title)}</h2><ol class="lesson-records">${list.map((r) => recordLine(r, lesson)).join("")}</ol>`
    : "";
}

function drawDiscard(v) {
  const count = w("discards", { n: v.discard.length, max: v.max_discards });
  $("lesson-discard").innerHTML = `<h2 class="panel-title">${esc(w("discard"))}</h2>
    <p class="lesson-count" id="lesson-discard-count">${esc(count)}</p>
    ${v.discard.length ? `<ul class="discard-list">${v.discard.map((c) => `<li>${cardHTML(c, { small: true, modes: v.modes })}</li>`).join("")}</ul>` : `<p class="hint">${esc(w("empty"))}</p>`}`;
}

function knownTag(v, lesson, c) {
  const seats = (v.known_by || {})[c];
  if (!seats || !seats.length) return "";
  const who = seats.map((s) => name(lesson, s)).join(", ");
  return `<span class="known-tag">${icon("eye")} ${esc(w("knownBy", { who }))}</span>`;
}

function cardButton(v, lesson, c, attrs) {
  return `<button type="button" class="card hand-card" data-card="${esc(c)}" ${attrs} aria-label="${esc(cardText(c))}">${cardFace(c, { modes: v.modes })}${knownTag(v, lesson, c)}</button>`;
}

function drawHand(v, lesson, act, step) {
  $("lesson-hand-title").textContent = w("hand");
  const programming = v.phase === "programming" && !v.pending_give;
  $("lesson-programmed").innerHTML = v.programmed
    ? `<span class="hint">${esc(w("programmed"))}</span> ${cardButton(v, lesson, v.programmed, 'data-where="programmed"')}`
    : `<span class="hint">${esc(w("nothingProgrammed"))}</span>`;
  $("lesson-hand").innerHTML = `<ul class="hand">${v.hand
    .map((c) => `<li>${cardButton(v, lesson, c, programming ? "" : "disabled")}</li>`)
    .join("")}</ul>`;
  $("lesson-hand").onclick = (event) => {
    const b = event.target.closest("button[data-card]");
    if (b && !b.disabled) act({ type: "program", card: b.dataset.card });
  };
  const me = v.players.find((p) => p.seat === v.seat);
  const ready = $("lesson-ready");
  ready.textContent = w("ready");
  ready.disabled = !programming || !v.programmed || (me && me.ready);
  ready.onclick = () => act({ type: "ready" });
  const sym = $("lesson-symbiosis");
  sym.textContent = w("symbiosis");
  const kinds = (v.legal_types || []).filter((k) => ["show", "give", "swap_discard"].includes(k));
  sym.disabled = !programming || !kinds.length;
  sym.onclick = () => {
    draft = draft ? null : {};
    drawPanel(v, lesson, act, kinds, step);
    point(step);
  };
  drawPanel(v, lesson, act, kinds, step);
}

function drawPanel(v, lesson, act, kinds, step) {
  const panel = $("lesson-panel");
  const pending = v.pending_give && v.pending_give.to === v.seat;
  if (pending) {
    const cards = [...(v.programmed ? [v.programmed] : []), ...v.hand];
    panel.hidden = false;
    panel.innerHTML = `<p>${esc(w("giveBack", { who: name(lesson, v.pending_give.from) }))}</p>
      <div class="lesson-choices">${cards.map((c) => cardButton(v, lesson, c, 'data-back="1"')).join("")}</div>`;
    panel.onclick = (event) => {
      const b = event.target.closest("button[data-back]");
      if (b) act({ type: "give_back", card: b.dataset.card });
    };
    return;
  }
  if (!draft || !kinds.length) {
    panel.hidden = true;
    panel.innerHTML = "";
    return;
  }
  panel.hidden = false;
  const mine = [...(v.programmed ? [v.programmed] : []), ...v.hand];
  let html = `<div class="lesson-choices">${kinds
    .map((k) => `<button type="button" class="btn${draft.kind === k ? " primary" : ""}" data-kind="${k}" aria-pressed="${draft.kind === k}">${esc(w(k === "swap_discard" ? "swap" : k))}</button>`)
    .join("")}</div>`;
  if (draft.kind) {
    html += `<p>${esc(w("chooseCard"))}</p><div class="lesson-choices">${mine
      .map((c) => cardButton(v, lesson, c, `data-pick="${esc(c)}" aria-pressed="${draft.card === c}"`))
      .join("")}</div>`;
  }
  if (draft.kind === "give" && draft.card) {
    html += `<p>${esc(w("chooseTo"))}</p><div class="lesson-choices">${v.players
      .filter((p) => p.seat !== v.seat)
      .map((p) => `<button type="button" class="btn" data-to="${p.seat}">${esc(name(lesson, p.seat))}</button>`)
      .join("")}</div>`;
  }
  if (draft.kind === "swap_discard" && draft.card) {
    html += `<p>${esc(w("chooseTake"))}</p><div class="lesson-choices">${v.discard
      .map((c) => `<button type="button" class="card hand-card" data-take="${esc(c)}" aria-label="${esc(cardText(c))}">${cardFace(c, { modes: v.modes })}</button>`)
      .join("")}</div>`;
  }
  html += `<button type="button" class="btn small ghost" data-cancel="1">${esc(w("cancel"))}</button>`;
  panel.innerHTML = html;
  panel.onclick = (event) => {
    const b = event.target.closest("button");
    if (!b) return;
    if (b.dataset.cancel) draft = null;
    else if (b.dataset.kind) draft = { kind: b.dataset.kind };
    else if (b.dataset.pick) {
      draft.card = b.dataset.pick;
      if (draft.kind === "show") return act({ type: "show", card: draft.card });
    } else if (b.dataset.to) return act({ type: "give", card: draft.card, to: Number(b.dataset.to) });
    else if (b.dataset.take) return act({ type: "swap_discard", card: draft.card, take: b.dataset.take });
    drawPanel(v, lesson, act, kinds, step);
    point(step);
  };
}

/** Mark the element the step waits for (and bring it into view). */
function point(step) {
  document.querySelectorAll(".lesson-target").forEach((el) => {
    el.classList.remove("lesson-target");
    el.removeAttribute("data-here");
  });
  if (!step) return;
  const t = step.target;
  let el = null;
  if (t.kind === "hand_card") el = document.querySelector(`#lesson-hand button[data-card="${CSS.escape(t.card)}"]`);
  else if (t.kind === "ready") el = $("lesson-ready");
  else if (t.kind === "slot") el = document.querySelector(`#lesson-web button[data-slot="${CSS.escape(t.slot)}"]`);
  else if (t.kind === "give_back") el = document.querySelector(`#lesson-panel button[data-back][data-card="${CSS.escape(t.card)}"]`);
  else if (t.kind === "symbiosis") {
    const kind = t.symbiosis;
    if (!draft) el = $("lesson-symbiosis");
    else if (draft.kind !== kind) el = document.querySelector(`#lesson-panel button[data-kind="${kind}"]`);
    else if (draft.card !== t.card) el = document.querySelector(`#lesson-panel button[data-pick="${CSS.escape(t.card)}"]`);
    else if (kind === "give") el = document.querySelector(`#lesson-panel button[data-to="${t.to}"]`);
    else if (kind === "swap_discard") el = document.querySelector(`#lesson-panel button[data-take="${CSS.escape(t.take)}"]`);
  }
  if (el) {
    el.classList.add("lesson-target");
    el.dataset.here = w("here");
    // the focus follows the lesson (a redraw drops it): a keyboard player goes on with Enter
    const active = document.activeElement;
    if (!active || active === document.body || document.getElementById("lesson").contains(active)) el.focus({ preventScroll: true });
    el.scrollIntoView({ block: "nearest", inline: "nearest", behavior: "instant" });
  }
}
