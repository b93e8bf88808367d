// The dialogs: a Symbiosis, giving a card back, and the help.
import { card, cardHTML, cardText, esc } from "../cards.js";
import { icon } from "../icons.js";
import { COLOUR_INFO, COLOUR_ORDER, PLAYER_AID, SYMBOLS, seatName } from "../texts.js";
import { send } from "./net.js";
import { $, app, MODES, myCards, mySeat, players } from "./state.js";

function cardChoices(name, cards, { checked = null, filter = null, notes = {} } = {}) {
  const v = app.view;
  return `<div class="card-choices" role="radiogroup">${cards
    .map((c) => {
      const ok = !filter || filter(c);
      const isProg = c === v.programmed;
      return `<label class="card-choice${ok ? "" : " disabled"}"><input type="radio" name="${name}" value="${esc(c)}" ${ok ? "" : "disabled"} ${c === checked ? "checked" : ""}>
        ${cardHTML(c, { small: true, modes: v.modes })}<span class="choice-note">${notes[c] || (isProg ? "programmed" : "")}</span></label>`;
    })
    .join("")}</div>`;
}

export function openSymbiosis() {
  const v = app.view;
  const me = mySeat();
  const dlg = $("sym-dialog");
  const kinds = v.symbiosis_kinds || ["show", "give", "swap_discard"];
  const free = v.first_player === me && v.free_symbiosis_available;
  const p = players().find((x) => x.seat === me) || {};
  $("sym-cost").textContent = free ? "This one is free: you are the first player of this turn." : `This uses one of your ${p.symbiosis_cards} Symbiosis card${p.symbiosis_cards === 1 ? "" : "s"} (each works once per game).`;
  const others = players().filter((x) => x.seat !== me);
  const conditionLike = myCards().filter((c) => ["condition", "joker"].includes(card(c).type));
  const kindText = {
    show: v.show_names_one_player ? "Show one of your cards to one player (Privileged Symbioses)" : "Show one of your cards to everyone",
    give: "Give one of your cards to a player, who gives you one back",
    swap_discard: "Swap one of your Condition cards with a card of the discard pile",
  };
  const disabled = { swap_discard: !v.discard.length || !conditionLike.length };
  const body = `<fieldset><legend>What do you want to do?</legend>
      ${kinds.map((k, i) => `<label class="radio"><input type="radio" name="kind" value="${k}" ${i === 0 ? "checked" : ""} ${disabled[k] ? "disabled" : ""}> ${kindText[k]}${disabled[k] ? ` <span class="hint">(${v.discard.length ? "you have no Condition card" : "the discard pile is empty"})</span>` : ""}</label>`).join("")}
      ${!kinds.includes("show") ? `<p class="hint">Incomplete Symbioses: showing a card is not allowed in this game.</p>` : ""}</fieldset>
    <fieldset id="sym-card-fs"><legend id="sym-card-legend">Your card</legend><div id="sym-cards"></div></fieldset>
    <fieldset id="sym-to-fs"><legend>To whom?</legend>
      <div class="to-list">${others.map((o, i) => `<label class="radio"><input type="radio" name="to" value="${o.seat}" ${i === 0 ? "checked" : ""}> ${esc(seatName(v, o.seat))}</label>`).join("")}</div></fieldset>
    <fieldset id="sym-take-fs"><legend>The card you take from the discard pile</legend>${cardChoices("take", v.discard, { checked: v.discard[v.discard.length - 1] })}</fieldset>`;
  $("sym-body").innerHTML = body;
  $("sym-error").textContent = "";
  const form = $("sym-form");
  const update = () => {
    const kind = form.querySelector('input[name="kind"]:checked')?.value;
    const swap = kind === "swap_discard";
    const prev = form.querySelector('input[name="card"]:checked')?.value;
    const cards = myCards();
    const first = swap ? conditionLike[0] : v.programmed || cards[0];
    $("sym-cards").innerHTML = cardChoices("card", cards, { checked: prev && (!swap || conditionLike.includes(prev)) ? prev : first, filter: swap ? (c) => conditionLike.includes(c) : null });
    $("sym-card-legend").textContent = kind === "show" ? "The card to show" : kind === "give" ? "The card to give" : "Your Condition card (it goes to the discard pile)";
    $("sym-to-fs").hidden = !(kind === "give" || (kind === "show" && v.show_names_one_player));
    $("sym-take-fs").hidden = !swap;
    $("sym-ok").textContent = kind === "show" ? "Show it" : kind === "give" ? "Give it" : "Swap";
  };
  form.onchange = (event) => {
    if (event.target.name === "kind") update();
  };
  update();
  dlg.showModal();
}

$("sym-cancel").addEventListener("click", () => $("sym-dialog").close());
$("sym-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = $("sym-form");
  const kind = form.querySelector('input[name="kind"]:checked')?.value;
  const c = form.querySelector('input[name="card"]:checked')?.value;
  if (!kind || !c) {
    $("sym-error").textContent = "Choose a card.";
    return;
  }
  const action = { type: kind, card: c };
  const v = app.view;
  if (kind === "give" || (kind === "show" && v.show_names_one_player)) {
    const to = form.querySelector('input[name="to"]:checked')?.value;
    if (to === undefined) {
      $("sym-error").textContent = "Choose a player.";
      return;
    }
    action.to = Number(to);
  }
  if (kind === "swap_discard") {
    const take = form.querySelector('input[name="take"]:checked')?.value;
    if (!take) {
      $("sym-error").textContent = "Choose the card to take from the discard pile.";
      return;
    }
    action.take = take;
  }
  send(action);
  $("sym-dialog").close();
});

function receivedCard() {
  const v = app.view;
  const me = mySeat();
  const log = v.log || [];
  for (let i = log.length - 1; i >= 0; i--) if (log[i].type === "give" && log[i].to === me) return log[i].card || null;
  return null;
}

export function maybeOpenGiveback() {
  const v = app.view;
  const aw = v.awaiting;
  const dlg = $("giveback-dialog");
  const mine = aw && aw.kind === "give_back" && aw.seat === mySeat();
  if (!mine) {
    app.givebackFor = null;
    if (dlg.open) dlg.close();
    return;
  }
  const key = `${v.turn}-${v.pending_give?.from}`;
  if (app.givebackFor !== key) {
    app.givebackFor = key;
    openGiveback(false);
  }
}

export function openGiveback(force) {
  const v = app.view;
  const dlg = $("giveback-dialog");
  if (dlg.open && !force) return;
  const got = receivedCard();
  const from = v.pending_give ? v.pending_give.from : null;
  $("giveback-title").textContent = `${seatName(v, from)} gave you a card`;
  $("giveback-body").innerHTML = `${got ? `<div class="received">${cardHTML(got, { modes: v.modes })}<p>You received <strong>${esc(cardText(got))}</strong>. Only you two know it.</p></div>` : ""}
    <p>Give one of your cards back to ${esc(seatName(v, from))} (the one you received is allowed):</p>
    ${cardChoices("giveback", myCards(), { checked: null, notes: got ? { [got]: "just received" } : {} })}`;
  $("giveback-error").textContent = "";
  if (!dlg.open) dlg.showModal();
}

$("giveback-later").addEventListener("click", () => $("giveback-dialog").close());
$("giveback-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const c = $("giveback-form").querySelector('input[name="giveback"]:checked')?.value;
  if (!c) {
    $("giveback-error").textContent = "Choose the card to give back.";
    return;
  }
  send({ type: "give_back", card: c });
  $("giveback-dialog").close();
});

// ------------------------------------------------------------------ help
function renderHelp() {
  const v = app.view;
  const modes = (v && v.modes) || (app.room && app.room.modes) || [];
  const colours = COLOUR_ORDER.map((c) => `<li><span class="chip c-${c}">${icon(c)} ${COLOUR_INFO[c].letter}</span> ${COLOUR_INFO[c].name} (${c})</li>`).join("");
  const symbols = Object.entries(SYMBOLS)
    .map(([k, s]) => `<li><span class="chip sym ${modes.includes(s.mode) ? "active" : ""}">${icon(k)}</span> <strong>${s.title}</strong>${modes.includes(s.mode) ? "" : " <em>(not active in this game: the card is an ordinary Condition)</em>"}: ${s.text}</li>`)
    .join("");
  const active = modes.length
    ? `<ul class="rule-list">${modes.map((m) => `<li><strong>${esc(MODES[m]?.title)}</strong> <span class="fr" lang="fr">${esc(MODES[m]?.title_fr)}</span>: ${esc(MODES[m]?.summary)}</li>`).join("")}</ul>`
    : "<p>None: this is the base game.</p>";
  const n = v ? players().length : null;
  $("help-body").innerHTML = `
    <section><h3>Player aid</h3><ol class="aid">${PLAYER_AID.map((t) => `<li>${t}</li>`).join("")}</ol>
    ${v && v.max_discards !== undefined ? `<p>With ${n} players, you win if the web is complete with at most <strong>${v.max_discards}</strong> cards discarded.</p>` : ""}</section>
    <section><h3>Colours of the Conditions</h3><p>Each colour also has its icon and letter:</p><ul class="legend">${colours}
      <li><span class="chip joker">${icon("joker")} J</span> Joker: any of the four, chosen by its player when revealed</li></ul></section>
    <section><h3>Symbols on Condition cards</h3><ul class="legend">${symbols}</ul></section>
    <section><h3>Advanced rules of this game</h3>${active}</section>
    <section><h3>Keyboard</h3><p>Tab moves between the controls; Enter or Space presses them. Your hand's cards are buttons: pressing one programs it.</p></section>`;
}

$("help-btn").addEventListener("click", () => {
  renderHelp();
  $("help-dialog").showModal();
});
