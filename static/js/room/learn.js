// Learning at the table: the Hint button (the expert's choice for this seat, and why)
// and, once the game is over, the hints each seat took and the solver's review of the deal.
import { api } from "../api.js";
import { cardNamed, cardText, esc } from "../cards.js";
import { lang, t } from "../i18n.js";
import { $, app, CODE, mySeat, players } from "./state.js";

const ROOM = `/api/rooms/${encodeURIComponent(CODE)}`;
const REVIEW_POLL_MS = 2000;
const REVIEW_POLLS = 90; // three minutes, then the player reloads to ask again

let hintFor = null; // the position of this seat the hint shown was asked at
let hintCard = null; // the card it names, marked in the hand
let hintBusy = false;

/** What this seat's decision depends on: a hint stays shown while it is the same (the
 * bots acting around it do not make it stale; a new turn, card or question does). */
function position(v) {
  const me = (v.players || [])[v.seat] || {};
  const awaiting = v.awaiting ? `${v.awaiting.seat}:${v.awaiting.kind}` : "";
  return JSON.stringify([v.game, v.turn, v.phase, v.hand, v.programmed, me.ready, awaiting, v.pending_give, (v.revealed_this_turn || []).length, (v.known || []).length]);
}

/** Draw the hint area of the table from the current view. */
export function renderHint() {
  const v = app.view;
  const box = $("hint-box");
  if (!box || !v) return;
  const seat = mySeat();
  const playing = v.phase !== "over" && v.phase !== "lobby" && seat !== null && !!app.mem.token;
  const mine = (v.legal_types || []).length > 0;
  box.hidden = !(playing && v.hints_allowed);
  // while a hint is asked the button stays enabled (a disabled one drops the focus to the
  // page), busy and refusing a second ask
  $("hint-btn").disabled = !mine;
  $("hint-btn").setAttribute("aria-disabled", String(hintBusy));
  if (hintFor !== null && hintFor !== position(v)) {
    // this seat's position changed: the hint shown was for another one
    $("hint-text").hidden = true;
    hintFor = hintCard = null;
  }
  markCard();
}

function markCard() {
  clearMarks();
  if (hintCard) document.querySelectorAll(`#hand [data-card="${CSS.escape(hintCard)}"], #programmed [data-card="${CSS.escape(hintCard)}"]`).forEach((el) => el.classList.add("hinted"));
}

function clearMarks() {
  document.querySelectorAll(".hinted").forEach((el) => el.classList.remove("hinted"));
}

function actionText(a) {
  switch (a.type) {
    case "program":
      return t("Program {card}", { card: cardNamed(a.card) });
    case "ready":
      return t("Say you are ready");
    case "reveal":
      return a.slot ? t("Place it on {slot}", { slot: cardNamed(a.slot.split(":")[0]) }) : t("Discard it");
    case "give_back":
      return t("Give back {card}", { card: cardNamed(a.card) });
    case "choose_side":
      return a.side === "plant" ? t("Take the plants") : t("Take the animals");
    case "show":
      return t("Show {card}", { card: cardNamed(a.card) });
    case "give":
      return t("Give {card} to {name}", { card: cardNamed(a.card), name: players()[a.to]?.name || a.to });
    case "swap_discard":
      return t("Swap {card} for {take} from the discard", { card: cardNamed(a.card), take: cardNamed(a.take) });
    case "end_game":
      return t("End the game");
    default:
      return a.type;
  }
}

async function askHint() {
  const v = app.view;
  if (!v || hintBusy) return;
  hintBusy = true;
  $("hint-btn").setAttribute("aria-disabled", "true");
  $("hint-btn").setAttribute("aria-busy", "true");
  const out = $("hint-text");
  try {
    const h = await api("GET", `${ROOM}/hint`, { token: app.mem.token });
    hintFor = position(app.view);
    hintCard = h.action.card || null;
    out.innerHTML = `<strong>${esc(actionText(h.action))}</strong> — ${esc(lang === "fr" ? h.reason_fr : h.reason)}`;
    out.dataset.action = JSON.stringify(h.action);
  } catch (err) {
    out.textContent = err.message;
    delete out.dataset.action;
  } finally {
    out.hidden = false;
    hintBusy = false;
    $("hint-btn").removeAttribute("aria-busy");
    renderHint();
  }
}

$("hint-btn")?.addEventListener("click", askHint);

// ---------------------------------------------------------------- the end screen
let reviewGame = null; // the game whose review is shown or asked for
let reviewTimer = null;

/** The hints taken and the solver's review on the end screen. */
export function renderEndLearn() {
  const v = app.view;
  if (!v || v.phase !== "over") return;
  const taken = v.hints_taken || [];
  const hints = $("end-hints");
  if (hints) {
    const any = taken.some((n) => n > 0);
    hints.hidden = !any && !v.hints_allowed;
    hints.textContent = any
      ? `${t("Hints taken:")} ${players().map((p) => `${p.name} ${taken[p.seat] || 0}`).join(", ")}`
      : t("No hint taken.");
  }
  if (reviewGame !== v.game) {
    reviewGame = v.game;
    clearTimeout(reviewTimer);
    loadReview(v.game, 0);
  }
}

async function loadReview(game, polls) {
  const box = $("end-review");
  if (!box || reviewGame !== game) return;
  let review;
  try {
    review = await api("GET", `${ROOM}/review?game=${game}`);
  } catch (err) {
    box.dataset.status = "error";
    box.textContent = err.message;
    return;
  }
  if (reviewGame !== game) return;
  box.dataset.status = review.status;
  box.dataset.verdict = review.verdict;
  box.innerHTML = reviewHTML(review, game);
  if (review.status === "pending" && polls < REVIEW_POLLS) {
    reviewTimer = setTimeout(() => loadReview(game, polls + 1), REVIEW_POLL_MS);
  }
}

/** The review in a sentence or two (shared with the replay page). */
export function reviewHTML(review, game) {
  if (review.status === "pending") return `<p>${esc(t("The solver is looking at this deal with every hand open…"))}</p>`;
  const sentence = {
    won: `✓ ${t("A team seeing every hand could have won this deal.")}`,
    lost: `✗ ${t("No team could have won this deal (proven).")}`,
    unknown: `? ${t("The solver did not decide this deal within its budget.")}`,
  }[review.verdict];
  const turning = review.turning_point ? `<p>${esc(t("Turning point: from turn {n} on, the game could no longer be won.", { n: review.turning_point.turn }))}</p>` : "";
  const link = review.verdict === "won" && game ? ` <a href="/r/${encodeURIComponent(CODE)}/replay?game=${game}#review">${esc(t("Step through the winning line"))}</a>` : "";
  return `<p><strong>${esc(sentence)}</strong>${link}</p>${turning}`;
}
