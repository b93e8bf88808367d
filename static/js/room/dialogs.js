// The dialogs: a Symbiosis, giving a card back, and the help.
import { api } from "../api.js";
import { card, cardHTML, cardNamed, esc } from "../cards.js";
import { COLON, lang, modeSummary, modeTitle, t, tn } from "../i18n.js";
import { icon } from "../icons.js";
import { COLOUR_INFO, COLOUR_ORDER, COLOUR_WORDS, PLAYER_AID, SYMBOLS, TEXTS, seatName } from "../texts.js";
import { send } from "./net.js";
import { whenNotActing } from "./pointer.js";
import { $, app, CODE, MODES, myCards, mySeat, players, refocusDock } from "./state.js";

function cardChoices(name, cards, { checked = null, filter = null, notes = {} } = {}) {
  const v = app.view;
  return `<div class="card-choices" role="radiogroup">${cards
    .map((c) => {
      const ok = !filter || filter(c);
      const isProg = c === v.programmed;
      return `<label class="card-choice${ok ? "" : " disabled"}"><input type="radio" name="${name}" value="${esc(c)}" ${ok ? "" : "disabled"} ${c === checked ? "checked" : ""}>
        ${cardHTML(c, { small: true, modes: v.modes })}<span class="choice-note">${esc(notes[c] || (isProg ? t("programmed") : ""))}</span></label>`;
    })
    .join("")}</div>`;
}

// The complete actions the engine allows this seat now (GET legal_actions), or null when
// they cannot be read (the dialog then offers what the view suggests).
async function legalActions() {
  try {
    return (await api("GET", `/api/rooms/${encodeURIComponent(CODE)}/legal_actions`, { token: app.mem.token })).actions;
  } catch (err) {
    return null;
  }
}

export async function openSymbiosis() {
  const legal = await legalActions();
  const v = app.view;
  const me = mySeat();
  const dlg = $("sym-dialog");
  if (dlg.open || !v || v.phase !== "programming") return;
  const kinds = v.symbiosis_kinds || ["show", "give", "swap_discard"];
  const free = v.first_player === me && v.free_symbiosis_available;
  const p = players().find((x) => x.seat === me) || {};
  $("sym-cost").textContent = free ? t("This one is free: you are the first player of this turn.") : tn("This uses your last Symbiosis card (each works once per game).", "This uses one of your {n} Symbiosis cards (each works once per game).", p.symbiosis_cards);
  const others = players().filter((x) => x.seat !== me);
  // the engine's own options: which of my cards can be swapped, which discards taken
  // (a played Pollution cannot be taken back)
  const swaps = legal ? legal.filter((a) => a.type === "swap_discard") : null;
  const conditionLike = myCards().filter((c) => (swaps ? swaps.some((a) => a.card === c) : ["condition", "joker"].includes(card(c).type)));
  const takeable = new Set(swaps ? swaps.map((a) => a.take) : v.discard);
  const takeNotes = Object.fromEntries(v.discard.filter((c) => !takeable.has(c)).map((c) => [c, TEXTS.notTakeable]));
  const lastTakeable = [...v.discard].reverse().find((c) => takeable.has(c)) || null;
  const kindText = {
    show: v.show_names_one_player ? t("Show one of your cards to one player (Privileged Symbioses)") : t("Show one of your cards to everyone"),
    give: t("Give one of your cards to a player, who gives you one back"),
    swap_discard: t("Swap one of your Condition cards with a card of the discard pile"),
  };
  const disabled = { swap_discard: !takeable.size || !conditionLike.length };
  const why = !v.discard.length ? t("the discard pile is empty") : !takeable.size ? TEXTS.noTakeable : t("you have no Condition card");
  const body = `<fieldset><legend>${esc(t("What do you want to do?"))}</legend>
      ${kinds.map((k, i) => `<label class="radio"><input type="radio" name="kind" value="${k}" ${i === 0 ? "checked" : ""} ${disabled[k] ? "disabled" : ""}> ${esc(kindText[k])}${disabled[k] ? ` <span class="hint">(${esc(why)})</span>` : ""}</label>`).join("")}
      ${!kinds.includes("show") ? `<p class="hint">${esc(t("Incomplete Symbioses: showing a card is not allowed in this game."))}</p>` : ""}</fieldset>
    <fieldset id="sym-card-fs"><legend id="sym-card-legend">${esc(t("Your card"))}</legend><div id="sym-cards"></div></fieldset>
    <fieldset id="sym-to-fs"><legend>${esc(t("To whom?"))}</legend>
      <div class="to-list">${others.map((o, i) => `<label class="radio"><input type="radio" name="to" value="${o.seat}" ${i === 0 ? "checked" : ""}> ${esc(seatName(v, o.seat))}</label>`).join("")}</div></fieldset>
    <fieldset id="sym-take-fs"><legend>${esc(t("The card you take from the discard pile"))}</legend>${cardChoices("take", v.discard, { checked: lastTakeable, filter: (c) => takeable.has(c), notes: takeNotes })}</fieldset>`;
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
    $("sym-card-legend").textContent = kind === "show" ? t("The card to show") : kind === "give" ? t("The card to give") : t("Your Condition card (it goes to the discard pile)");
    $("sym-to-fs").hidden = !(kind === "give" || (kind === "show" && v.show_names_one_player));
    $("sym-take-fs").hidden = !swap;
    $("sym-ok").textContent = kind === "show" ? t("Show it") : kind === "give" ? t("Give it") : t("Swap");
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
    $("sym-error").textContent = t("Choose a card.");
    return;
  }
  const action = { type: kind, card: c };
  const v = app.view;
  if (kind === "give" || (kind === "show" && v.show_names_one_player)) {
    const to = form.querySelector('input[name="to"]:checked')?.value;
    if (to === undefined) {
      $("sym-error").textContent = t("Choose a player.");
      return;
    }
    action.to = Number(to);
  }
  if (kind === "swap_discard") {
    const take = form.querySelector('input[name="take"]:checked')?.value;
    if (!take) {
      $("sym-error").textContent = t("Choose the card to take from the discard pile.");
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
    // a dialog opening under a finger would take the tap meant for the table
    whenNotActing("giveback", () => {
      if (app.givebackFor === key && app.view.awaiting?.kind === "give_back") openGiveback(false);
    });
  }
}

export function openGiveback(force) {
  const v = app.view;
  const dlg = $("giveback-dialog");
  if (dlg.open && !force) return;
  const got = receivedCard();
  const from = v.pending_give ? v.pending_give.from : null;
  $("giveback-title").textContent = t("{who} gave you a card", { who: seatName(v, from) });
  $("giveback-body").innerHTML = `${got ? `<div class="received">${cardHTML(got, { modes: v.modes })}<p>${t("You received <strong>{card}</strong>. Only the two of you know it.", { card: esc(cardNamed(got)) })}</p></div>` : ""}
    <p>${esc(t("Give one of your cards back to {who} (the one you received is allowed):", { who: seatName(v, from) }))}</p>
    ${cardChoices("giveback", myCards(), { checked: null, notes: got ? { [got]: t("just received") } : {} })}`;
  $("giveback-error").textContent = "";
  if (!dlg.open) dlg.showModal();
}

$("giveback-later").addEventListener("click", () => $("giveback-dialog").close());
// a dialog closes, its focus going back to the control that opened it or had the focus
// before: when that one is gone (the hand redrawn under a give-back dialog opened by the
// give, a Symbiosis dialog closed by the turn's end), the focus goes to the dock
for (const dialog of document.querySelectorAll("dialog")) dialog.addEventListener("close", refocusDock);
$("giveback-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const c = $("giveback-form").querySelector('input[name="giveback"]:checked')?.value;
  if (!c) {
    $("giveback-error").textContent = t("Choose the card to give back.");
    return;
  }
  send({ type: "give_back", card: c });
  $("giveback-dialog").close();
});

// ------------------------------------------------------------------ help
function renderHelp() {
  const v = app.view;
  const modes = (v && v.modes) || (app.room && app.room.modes) || [];
  const colours = COLOUR_ORDER.map((c) => `<li><span class="chip c-${c}">${icon(c)} ${COLOUR_INFO[c].letter}</span> ${esc(COLOUR_INFO[c].name)} (${esc(COLOUR_WORDS[c])})</li>`).join("");
  const symbols = Object.entries(SYMBOLS)
    .map(([k, s]) => `<li><span class="chip sym ${modes.includes(s.mode) ? "active" : ""}">${icon(k)}</span> <strong>${esc(s.title)}</strong>${modes.includes(s.mode) ? "" : ` <em>${esc(t("(not active in this game: the card is an ordinary Condition)"))}</em>`}${COLON}${esc(s.text)}</li>`)
    .join("");
  const active = modes.length
    ? `<ul class="rule-list">${modes.map((m) => `<li><strong>${esc(modeTitle(MODES[m]))}</strong>${lang === "fr" ? "" : ` <span class="fr" lang="fr">${esc(MODES[m]?.title_fr)}</span>`}${COLON}${esc(modeSummary(MODES[m]))}</li>`).join("")}</ul>`
    : `<p>${esc(t("None: this is the base game."))}</p>`;
  const n = v ? players().length : null;
  $("help-body").innerHTML = `
    <section><h3>${esc(t("Player aid"))}</h3><ol class="aid">${PLAYER_AID.map((text) => `<li>${text}</li>`).join("")}</ol>
    ${v && v.max_discards !== undefined ? `<p>${t("With {n} players, you win if the web is complete with at most <strong>{max}</strong> cards discarded.", { n, max: v.max_discards })}</p>` : ""}</section>
    <section><h3>${esc(t("Colours of the Conditions"))}</h3><p>${esc(t("Each colour also has its icon and letter:"))}</p><ul class="legend">${colours}
      <li><span class="chip joker">${icon("joker")} J</span> ${esc(t("Joker: any of the four, chosen by its player when revealed"))}</li></ul></section>
    <section><h3>${esc(t("Symbols on Condition cards"))}</h3><ul class="legend">${symbols}</ul></section>
    <section><h3>${esc(t("Advanced rules of this game"))}</h3>${active}</section>
    ${players().some((p) => p.bot) ? botHelp() : ""}
    <section><h3>${esc(t("Keyboard"))}</h3><p>${esc(t("Tab moves between the controls; Enter or Space presses them. Your hand's cards are buttons: pressing one programs it."))}</p></section>
    <p><a class="btn" href="/glossary" target="_blank" rel="noopener">${esc(t("Glossary"))}</a> ${esc(t("(every word of the game, in a new tab)"))}</p>`;
}

// what people playing beside expert bots should know (docs/api.md, "Bots and seats")
function botHelp() {
  const points = [
    t("At the start of each turn the first player shows the card it programmed; at 5 or 6 players the next revealers show theirs too. A bot then reveals exactly the card it showed."),
    t("A card you show while you have a card programmed is read by the bots as your program."),
    t("A bot that gives you a card can place at most one of its own this turn: give back a card it can place now."),
  ];
  return `<section><h3>${esc(t("Playing with bots"))}</h3><p>${esc(t("The bots keep to a few conventions, and read yours the same way:"))}</p><ul>${points.map((x) => `<li>${esc(x)}</li>`).join("")}</ul></section>`;
}

$("help-btn").addEventListener("click", () => {
  renderHelp();
  $("help-dialog").showModal();
});
