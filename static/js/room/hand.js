// Your hand: the programmed card, the hand, Ready and Symbiosis, and the prompt when the
// table waits for your choice (a reveal's place, your side, a card to give back).
import { card, cardFace, cardHTML, cardText, esc } from "../cards.js";
import { t, tn } from "../i18n.js";
import { icon } from "../icons.js";
import { COLOUR_INFO, REASONS, TEXTS, seatName } from "../texts.js";
import { slotText } from "../web.js";
import { openGiveback, openSymbiosis } from "./dialogs.js";
import { send } from "./net.js";
import { $, app, canUseSymbiosis, mayActivate, mySeat, players, setHTML, sortHand } from "./state.js";

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
      : `<span class="card empty-slot">${programming && (v.hand || []).length ? esc(t("Click a card to program it")) : "—"}</span>`,
  );
  // before the reveal: a word when the server says the card would be discarded now
  const noPlace = programming && v.programmed ? noPlaceOf(v, v.programmed) : "";
  setHTML($("programmed-hint"), noPlace ? `${icon("discard")} <span>${esc(TEXTS.noPlaceNow)}: ${esc(noPlace)}.</span>` : "");
  $("programmed-hint").hidden = !noPlace;
  const hand = sortHand(v.hand || []);
  const handHTML = hand
    .map((c) => {
      const noPlaceHere = programming ? noPlaceOf(v, c) : "";
      const label = `${cardText(c)}${knownByText(v, c)}${programming ? (v.programmed ? t(": program it instead") : t(": program it")) : ""}${noPlaceHere ? ` (${TEXTS.noPlaceNow}: ${noPlaceHere})` : ""}`;
      return `<li><button type="button" class="card hand-card" data-card="${esc(c)}" data-key="hand-${esc(c)}" data-focus-group="hand" aria-label="${esc(label)}" ${programming ? "" : "disabled"}>${cardFace(c, { modes: v.modes })}${knownByTag(v, c)}${noPlaceTag(noPlaceHere)}</button></li>`;
    })
    .join("");
  setHTML($("hand"), handHTML || `<li class="hint">${esc(t("No card left in your hand."))}</li>`);

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
  return text ? `<span class="no-place" title="${esc(`${TEXTS.noPlaceNow}: ${text}`)}" aria-hidden="true">${icon("discard")}</span>` : "";
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

function optionLabel(o) {
  const parts = [];
  if (o.slot) parts.push(o.slot.includes(":") ? t("Place in {slot}", { slot: slotText(o.slot) }) : t("Install {slot}", { slot: slotText(o.slot) }));
  if (o.target) parts.push(t("remove {card}", { card: cardText(o.target) }));
  if (!o.slot && !o.target) parts.push(o.colour ? t("Discard it") : t("Play it"));
  if (o.colour) parts.push(t("as {colour} [{letter}]", { colour: COLOUR_INFO[o.colour].name, letter: COLOUR_INFO[o.colour].letter }));
  return parts.join(", ");
}

function renderPrompt() {
  const v = app.view;
  const me = mySeat();
  const el = $("prompt");
  const aw = v.awaiting;
  if (!aw || aw.seat !== me) {
    el.hidden = true;
    setHTML(el, "");
    return;
  }
  el.hidden = false;
  if (aw.kind === "reveal") {
    const c = v.revealing ? v.revealing.card : null;
    const buttons = aw.options
      .map((o, i) => `<button type="button" class="btn option ${o.colour ? "c-" + o.colour : ""}" data-opt="${i}" data-key="opt-${i}">${o.colour ? icon(o.colour) : ""}${esc(optionLabel(o))}</button>`)
      .join("");
    const type = c ? card(c).type : null;
    const how =
      type === "joker"
        ? t("Your Joker takes the colour of the place you pick: choose a lit place in the web, or a button below (a colour with no place discards it).")
        : type === "pollution"
          ? t("Your Pollution removes one uncovered Condition from the web: pick one of the places lit in red, or a button below.")
          : t("Several places are possible: pick one of the lit places in the web, or a button below.");
    setHTML(el, `<div class="prompt-card">${c ? cardHTML(c, { modes: v.modes }) : ""}</div>
      <div class="prompt-body"><h3>${esc(type === "pollution" ? t("Your reveal: what does it remove?") : t("Your reveal: where does it go?"))}</h3>
      <p>${esc(how)}</p>
      <div class="option-list">${buttons}</div></div>`);
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
}

$("prompt").addEventListener("click", (event) => {
  if (!event.target.closest("button") || !mayActivate($("prompt"), event)) return;
  const aw = app.view && app.view.awaiting;
  const opt = event.target.closest("[data-opt]");
  if (opt && aw && aw.options) send(aw.options[Number(opt.dataset.opt)]);
  const side = event.target.closest("[data-side]");
  if (side) send({ type: "choose_side", side: side.dataset.side });
  if (event.target.closest("#open-giveback")) openGiveback(true);
});
