// Your hand: the programmed card, the hand, Ready and Symbiosis, and the prompt when the
// table waits for your choice (a reveal's place, your side, a card to give back).
import { card, cardFace, cardGender, cardHTML, cardNamed, cardText, esc } from "../cards.js";
import { COLON, t, tg, tn } from "../i18n.js";
import { icon } from "../icons.js";
import { COLOUR_INFO, REASONS, TEXTS, seatName } from "../texts.js";
import { slotNamed, slotText } from "../web.js";
import { openGiveback, openSymbiosis } from "./dialogs.js";
import { afterPress, pressedIn } from "./pointer.js";
import { send } from "./net.js";
import { $, app, canUseSymbiosis, mayActivate, mySeat, players, setHTML, sortHand, touch } from "./state.js";

export function renderMe() {
  const v = app.view;
  const me = mySeat();
  const box = $("me");
  if (me === null) {
    box.hidden = false;
    $("me-title").textContent = t("You are watching this game");
    box.querySelector(".me-row").hidden = true;
    setHTML($("hand"), "");
    setHTML($("programmed"), "");
    setHTML($("actions"), "");
    setHTML($("me-badges"), "");
    $("prompt").hidden = true;
    return;
  }
  const p = players().find((x) => x.seat === me) || {};
  box.querySelector(".me-row").hidden = false;
  $("me-title").textContent = t("Your hand · {name}", { name: p.name || t("you") });
  const badges = [];
  if (v.first_player === me) badges.push(`<span class="badge first">${icon("first")} ${esc(t("First player"))}${v.free_symbiosis_available && v.phase === "programming" ? esc(t(" · free Symbiosis")) : ""}</span>`);
  badges.push(`<span class="badge">${icon("symbiosis")} ${esc(tn("{n} Symbiosis card", "{n} Symbiosis cards", p.symbiosis_cards ?? 0))}</span>`);
  if (p.side) badges.push(`<span class="badge">${icon(p.side)} ${esc(p.side === "plant" ? t("Plant side") : t("Animal side"))}</span>`);
  if (p.ready) badges.push(`<span class="badge ok">${icon("ready")} ${esc(t("Ready"))}</span>`);
  setHTML($("me-badges"), badges.join(""));

  const programming = v.phase === "programming";
  setHTML(
    $("programmed"),
    v.programmed
      ? `<span class="card programmed-card" data-card="${esc(v.programmed)}" role="img" aria-label="${esc(t("Programmed: {card}", { card: cardText(v.programmed) + knownByText(v, v.programmed) }))}">${cardFace(v.programmed, { modes: v.modes })}${knownByTag(v, v.programmed)}</span>`
      : `<span class="card empty-slot">${programming && (v.hand || []).length ? esc(touch() ? t("Tap a card") : t("Click a card")) : "—"}</span>`,
  );
  // before the reveal: a word when the server says the card would be discarded now
  const noPlace = programming && v.programmed ? noPlaceOf(v, v.programmed) : "";
  setHTML($("programmed-hint"), noPlace ? `${icon("discard")} <span>${esc(TEXTS.noPlaceNow)}${COLON}${esc(noPlace)}.</span>` : "");
  $("programmed-hint").hidden = !noPlace;
  const hand = sortHand(v.hand || []);
  const handHTML = hand
    .map((c) => {
      const noPlaceHere = programming ? noPlaceOf(v, c) : "";
      const label = `${cardText(c)}${knownByText(v, c)}${programming ? (v.programmed ? t(": program it instead") : t(": program it")) : ""}${noPlaceHere ? ` (${TEXTS.noPlaceNow}${COLON}${noPlaceHere})` : ""}`;
      return `<li><button type="button" class="card hand-card" data-card="${esc(c)}" data-key="hand-${esc(c)}" data-focus-group="hand" aria-label="${esc(label)}" ${programming ? "" : "disabled"}>${cardFace(c, { modes: v.modes })}${knownByTag(v, c)}${noPlaceTag(noPlaceHere)}</button></li>`;
    })
    .join("");
  // the hand is not redrawn under a pressed finger (the card would change under the tap)
  if (pressedIn($("hand"))) afterPress("hand", renderMe);
  else setHTML($("hand"), handHTML || `<li class="hint">${esc(t("No card left in your hand."))}</li>`);
  // outside programming the cards are disabled: the strip itself takes the focus, so that
  // a keyboard can still scroll a hand wider than the screen
  if (programming) $("hand").removeAttribute("tabindex");
  else $("hand").tabIndex = 0;

  const actions = [];
  if (programming) {
    if (p.ready) actions.push(`<button type="button" class="btn" id="unready-btn" data-key="ready">${esc(t("Not ready"))}</button>`);
    else actions.push(`<button type="button" class="btn primary" id="ready-btn" data-key="ready" ${v.programmed ? "" : "disabled"}>${esc(t("Ready"))}</button>`);
    const can = canUseSymbiosis();
    actions.push(`<button type="button" class="btn" id="sym-btn" data-key="sym" aria-haspopup="dialog" ${can ? "" : "disabled"}>${icon("symbiosis")} ${esc(t("Symbiosis…"))}</button>`);
  }
  setHTML($("actions"), actions.join(""));
  renderPrompt();
}

// Which other players know one of my cards (I showed or gave it, or it came back to me
// in view of everyone): "" when nobody does.
function knownByText(v, c) {
  const seats = (v.known_by || {})[c] || [];
  if (!seats.length) return "";
  const everyone = seats.length >= players().length - 1;
  return everyone ? t(", known to everyone") : t(", known to {who}", { who: seats.map((s) => seatName(v, s)).join(t(" and ")) });
}

function knownByTag(v, c) {
  const text = knownByText(v, c);
  return text ? `<span class="known-by" title="${esc(text.slice(2))}" aria-hidden="true">${icon("eye")}</span>` : "";
}

// The sentence of the reason the server gives for one of my cards having no place if
// revealed now (the view's no_place), or "" when it may have one.
function noPlaceOf(v, c) {
  const reason = (v.no_place || {})[c];
  return reason ? REASONS[reason] || reason : "";
}

function noPlaceTag(text) {
  return text ? `<span class="no-place" title="${esc(`${TEXTS.noPlaceNow}${COLON}${text}`)}" aria-hidden="true">${icon("discard")}</span>` : "";
}

$("hand").addEventListener("click", (event) => {
  const b = event.target.closest("button.hand-card");
  if (b && !b.disabled && mayActivate($("hand"), event)) send({ type: "program", card: b.dataset.card });
});

$("actions").addEventListener("click", (event) => {
  const b = event.target.closest("button");
  if (!b || b.disabled || !mayActivate($("actions"), event)) return;
  if (b.id === "ready-btn") send({ type: "ready" });
  else if (b.id === "unready-btn") send({ type: "unready" });
  else if (b.id === "sym-btn") openSymbiosis();
});

function optionLabel(o, gender) {
  const parts = [];
  if (o.slot) parts.push(o.slot.includes(":") ? t("Place in {slot}", { slot: slotText(o.slot) }) : t("Install {slot}", { slot: slotNamed(o.slot) }));
  if (o.target) parts.push(t("remove {card}", { card: cardNamed(o.target) }));
  if (!o.slot && !o.target) parts.push(o.colour ? tg("Discard it", gender) : tg("Play it", gender));
  // a Joker placed takes its slot's colour (the slot's words say it); discarded, its colour is the choice
  if (o.colour && !o.slot) parts.push(t("as {colour} [{letter}]", { colour: COLOUR_INFO[o.colour].name, letter: COLOUR_INFO[o.colour].letter }));
  return parts.join(", ");
}

/** Whether a reveal option throws the card away (a Joker given a colour with no place). */
const isDiscard = (o) => !o.slot && !o.target && !!o.colour;

function optionButton(o, i, gender) {
  return `<button type="button" class="btn option ${o.colour ? "c-" + o.colour : ""}${isDiscard(o) ? " discard" : ""}" data-opt="${i}" data-key="opt-${i}">${o.colour ? icon(o.colour) : ""}${esc(optionLabel(o, gender))}</button>`;
}

function renderPrompt() {
  const v = app.view;
  const me = mySeat();
  const el = $("prompt");
  const aw = v.awaiting;
  const choosing = !!(aw && aw.seat === me && aw.kind === "reveal");
  $("me").classList.toggle("choosing", choosing);
  if (!choosing) app.confirmDiscard = null;
  if (!aw || aw.seat !== me) {
    el.hidden = true;
    setHTML(el, "");
    return;
  }
  el.hidden = false;
  if (aw.kind === "reveal") {
    const c = v.revealing ? v.revealing.card : null;
    const gender = c ? cardGender(c) : "f";
    // the places first; the discards after them, set apart (a discard asks first when
    // the card has a place)
    const indexed = aw.options.map((o, i) => [o, i]);
    const places = indexed.filter(([o]) => !isDiscard(o));
    const discards = indexed.filter(([o]) => isDiscard(o));
    const confirming = app.confirmDiscard !== null && app.confirmDiscard !== undefined && aw.options[app.confirmDiscard] && places.length;
    const type = c ? card(c).type : null;
    const how =
      type === "joker"
        ? t("Your Joker takes the colour of the place you pick: choose a lit place in the web, or a button below.")
        : type === "pollution"
          ? t("Your Pollution removes one uncovered Condition from the web: pick one of the places lit in red, or a button below.")
          : t("Several places are possible: pick one of the lit places in the web, or a button below.");
    const discardBlock = discards.length
      ? `<div class="discard-options" role="group" aria-labelledby="discard-options-title"><p id="discard-options-title" class="hint">${esc(places.length ? tg("Or throw it away (no place for these colours):", gender) : tg("No place for it: choose its colour to discard it.", gender))}</p>
        <div class="option-list">${discards.map(([o, i]) => optionButton(o, i, gender)).join("")}</div></div>`
      : "";
    const confirmBlock = confirming
      ? `<div class="confirm-discard" role="alertdialog" aria-labelledby="confirm-discard-text"><p id="confirm-discard-text"><strong>${esc(tg("Discard your card?", gender))}</strong> ${esc(t("It has a place in the web."))}</p>
        <div class="option-list"><button type="button" class="btn danger" id="confirm-discard-yes" data-key="confirm-discard-yes">${esc(optionLabel(aw.options[app.confirmDiscard], gender))}</button>
        <button type="button" class="btn" id="confirm-discard-no" data-key="confirm-discard-no">${esc(tg("No, place it", gender))}</button></div></div>`
      : "";
    setHTML(el, `<div class="prompt-card">${c ? cardHTML(c, { modes: v.modes }) : ""}</div>
      <div class="prompt-body"><h3>${esc(type === "pollution" ? t("Your reveal: what does it remove?") : t("Your reveal: where does it go?"))}</h3>
      <p class="prompt-how">${esc(how)}</p>
      ${confirmBlock || `<div class="option-list places">${places.map(([o, i]) => optionButton(o, i, gender)).join("")}</div>${discardBlock}`}</div>`);
  } else if (aw.kind === "choose_side") {
    setHTML(el, `<div class="prompt-body"><h3>${esc(t("Choose your side"))}</h3>
      <p>${esc(t("Species-specific biodiversity: you may only install Species of your side (your Conditions are not limited)."))}</p>
      <div class="option-list"><button type="button" class="btn option" data-side="plant" data-key="side-plant">${icon("plant")} ${esc(t("Plant (Végétal)"))}</button>
      <button type="button" class="btn option" data-side="animal" data-key="side-animal">${icon("animal")} ${esc(t("Animal"))}</button></div></div>`);
  } else if (aw.kind === "give_back") {
    setHTML(el, `<div class="prompt-body"><h3>${esc(t("{who} gave you a card", { who: seatName(v, v.pending_give?.from) }))}</h3>
      <p>${esc(t("Give one of your cards back (it can be the one you just received)."))}</p>
      <button type="button" class="btn primary" id="open-giveback" data-key="open-giveback">${esc(t("Choose the card to give back"))}</button></div>`);
  }
  // once per choice: the player may scroll away afterwards
  const key = choosing ? `${v.turn}-${(v.revealed_this_turn || []).length}` : null;
  if (choosing && app.choiceShown !== key) {
    app.choiceShown = key;
    requestAnimationFrame(() => requestAnimationFrame(showChoices));
  }
}

/** The places to choose from on screen: above the dock, scrolled to when the page hides
 * them (the dock itself is kept short while a choice is asked, see play.css). */
export function showChoices() {
  const lit = [...document.querySelectorAll("#webs button.target, #webs button.removal")];
  if (!lit.length) return;
  const dock = $("me").getBoundingClientRect();
  const header = document.querySelector(".site-header");
  const top = header && getComputedStyle(header).position === "sticky" ? header.getBoundingClientRect().bottom : 0;
  const bottom = Math.min(dock.top, window.innerHeight);
  const boxes = lit.map((b) => b.getBoundingClientRect());
  const first = Math.min(...boxes.map((b) => b.top));
  const last = Math.max(...boxes.map((b) => b.bottom));
  if (first >= top && last <= bottom) return;
  const room = bottom - top;
  // all of them when they fit, else from the first one down
  const shift = last - first <= room - 16 ? (first + last) / 2 - (top + bottom) / 2 : first - top - 8;
  window.scrollBy({ top: shift, behavior: "instant" });
}

$("prompt").addEventListener("click", (event) => {
  if (!event.target.closest("button") || !mayActivate($("prompt"), event)) return;
  const aw = app.view && app.view.awaiting;
  const opt = event.target.closest("[data-opt]");
  if (opt && aw && aw.options) {
    const i = Number(opt.dataset.opt);
    const hasPlace = aw.options.some((o) => !isDiscard(o));
    if (isDiscard(aw.options[i]) && hasPlace) {
      app.confirmDiscard = i; // ask first: the card has a place
      renderPrompt();
      $("confirm-discard-no")?.focus();
      return;
    }
    send(aw.options[i]);
  }
  if (event.target.closest("#confirm-discard-yes") && aw && aw.options[app.confirmDiscard]) {
    send(aw.options[app.confirmDiscard]);
    app.confirmDiscard = null;
  }
  if (event.target.closest("#confirm-discard-no")) {
    app.confirmDiscard = null;
    renderPrompt();
    $("prompt").querySelector("[data-opt]")?.focus();
  }
  const side = event.target.closest("[data-side]");
  if (side) send({ type: "choose_side", side: side.dataset.side });
  if (event.target.closest("#open-giveback")) openGiveback(true);
});
