// The replay viewer: a finished game step by step (the deal, each action, each reveal,
// each end of turn) with every hand visible, forward and back, with the buttons, the
// slider or the keyboard (← →, Page Up / Page Down, Home / End). The steps come from
// GET /api/rooms/{room}/replay/steps; the web and the cards are drawn by the table's
// own modules. #step=N in the address opens (and shares) a given step; ?game=N a given
// game of the room (a rematch keeps the earlier ones), listed above the controls.
import { api, ApiError } from "./api.js";
import { cap, cardGender, cardHTML, cardNamed, esc } from "./cards.js";
import { t, tg, tn } from "./i18n.js";
import { icon } from "./icons.js";
import { initReview } from "./replay_review.js";
import { REASONS } from "./texts.js";
import { drawLinks, renderWebs, slotText } from "./web.js";

const $ = (id) => document.getElementById(id);
const CODE = $("replay").dataset.code;
const ROOM = `/api/rooms/${encodeURIComponent(CODE)}`;
// the game asked for (?game=N), or null: the room's current one
const asked = new URLSearchParams(location.search).get("game") || "";
const ASKED = /^[1-9]\d{0,5}$/.test(asked) ? Number(asked) : null;
const PLAY_EVERY_MS = 1200;

const replay = { data: null, index: 0, timer: null };

function playerName(seat) {
  if (seat === null || seat === undefined) return "";
  const p = replay.data.players.find((x) => x.seat === seat);
  return p && p.name ? p.name : t("Player {n}", { n: seat + 1 });
}

function reasonText(reason) {
  return REASONS[reason] || reason || t("it could not be placed");
}

function revealText(e) {
  const who = playerName(e.seat);
  const what = cardNamed(e.card, e.colour && e.card.startsWith("joker") ? e.colour : null);
  const g = cardGender(e.card); // French words agree with the card
  if (e.slot && !e.slot.includes(":")) return tg("{who} reveals {card}: installed.", g, { who, card: what });
  if (e.slot) return tg("{who} reveals {card}: placed on {slot}.", g, { who, card: what, slot: slotText(e.slot) });
  if (e.result === "discarded") return tg("{who} reveals {card}: discarded, {reason}.", g, { who, card: what, reason: reasonText(e.reason) });
  if (e.result === "in_play") return tg("{who} reveals {card}: it waits for the end of the turn.", g, { who, card: what });
  return tg("{who} reveals {card}: played.", g, { who, card: what });
}

function actionText(step) {
  const a = step.action;
  const who = playerName(step.seat);
  const events = step.events || [];
  const has = (type) => events.find((e) => e.type === type);
  switch (a.type) {
    case "program":
      return has("programmed")?.replaced
        ? t("{who} programs {card} instead.", { who, card: cardNamed(a.card) })
        : t("{who} programs {card}.", { who, card: cardNamed(a.card) });
    case "ready":
      return has("reveal_started") ? t("{who} is ready: the reveal starts.", { who }) : t("{who} is ready.", { who });
    case "unready":
      return t("{who} is no longer ready.", { who });
    case "show":
      return a.to === undefined || a.to === null
        ? t("Symbiosis: {who} shows {card} to everyone.", { who, card: cardNamed(a.card) })
        : t("Symbiosis: {who} shows {card} to {to}.", { who, card: cardNamed(a.card), to: playerName(a.to) });
    case "give":
      return t("Symbiosis: {who} gives {card} to {to}.", { who, card: cardNamed(a.card), to: playerName(a.to) });
    case "give_back": {
      const back = has("give_back");
      const to = back ? playerName(back.to) : "";
      const text = t("{who} gives {card} back to {to}.", { who, card: cardNamed(a.card), to });
      return has("reveal_started") ? `${text} ${t("The reveal starts.")}` : text;
    }
    case "swap_discard":
      return t("Symbiosis: {who} puts {card} on the discard pile and takes {take}.", { who, card: cardNamed(a.card), take: cardNamed(a.take) });
    case "choose_side":
      return a.side === "plant" ? t("{who} chooses the plants.", { who }) : t("{who} chooses the animals.", { who });
    case "end_game":
      return t("{who} ends the game: it can no longer be won.", { who });
    default:
      return `${who}: ${a.type}`;
  }
}

// a card the rules took out of the web, said at its step and at the turn's end
function removedText(e) {
  return t("{card} leaves the web ({slot}): {reason}.", { card: cap(cardNamed(e.card)), slot: slotText(e.slot), reason: reasonText(e.reason) });
}

function endText(step) {
  const parts = [t("End of turn {turn}.", { turn: step.turn })];
  for (const e of step.events || []) {
    if (e.type === "removed_from_web") parts.push(removedText(e));
    if (e.type === "cats_returned") parts.push(t("The Cats go back to their players' hands."));
    if (e.type === "cat_discarded") parts.push(tg("{card} is discarded: {reason}.", cardGender(e.card), { card: cap(cardNamed(e.card)), reason: reasonText(e.reason) }));
    if (e.type === "turn_started") parts.push(t("Turn {turn}: {who} plays first.", { turn: e.turn, who: playerName(e.first_player) }));
  }
  return parts.join(" ");
}

function gameOverText(step) {
  const over = (step.events || []).find((e) => e.type === "game_over");
  if (!over) return "";
  return over.outcome === "won"
    ? tn("The web is complete: the game is won with {n} discard.", "The web is complete: the game is won with {n} discards.", over.discards)
    : t("The game is lost.");
}

function stepText(step) {
  let text;
  if (step.kind === "start") {
    const first = step.state.first_player;
    text = t("The cards are dealt. {who} plays first.", { who: playerName(first) });
  } else if (step.kind === "turn_end") {
    text = endText(step);
  } else {
    const revealed = (step.events || []).find((e) => e.type === "revealed");
    text = step.kind === "reveal" && revealed ? revealText(revealed) : actionText(step);
    for (const e of step.events || []) {
      if (e.type === "removed_from_web") text += ` ${removedText(e)}`;
    }
  }
  const over = gameOverText(step);
  return over ? `${text} ${over}` : text;
}

function playerHTML(p, state, step) {
  const first = state.first_player === p.seat;
  const acting = step.seat === p.seat && step.kind !== "turn_end";
  const badges = [];
  if (first) badges.push(`<span class="badge">${icon("first")} ${esc(t("First player"))}</span>`);
  if (p.ready && state.phase === "programming") badges.push(`<span class="badge">${icon("ready")} ${esc(t("Ready"))}</span>`);
  if (p.side) badges.push(`<span class="badge">${esc(p.side === "plant" ? t("Plants") : t("Animals"))}</span>`);
  if (p.symbiosis_cards) badges.push(`<span class="badge">${esc(tn("{n} Symbiosis card", "{n} Symbiosis cards", p.symbiosis_cards))}</span>`);
  const modes = replay.data.modes;
  const programmed = p.programmed
    ? cardHTML(p.programmed, { small: true, modes, extraClass: "rp-programmed" })
    : `<span class="rp-empty">${esc(t("none"))}</span>`;
  const hand = p.hand.length
    ? p.hand.map((c) => `<li>${cardHTML(c, { small: true, modes })}</li>`).join("")
    : `<li class="hint">${esc(t("no card left"))}</li>`;
  return `<article class="player rp-player${acting ? " acting" : ""}${first ? " first" : ""}" aria-label="${esc(playerName(p.seat))}">
    <div class="player-head"><span class="seat-no">${p.seat + 1}</span><span class="pname">${esc(playerName(p.seat))}</span></div>
    <div class="badges">${badges.join("")}</div>
    <div class="rp-cards">
      <div class="rp-programmed-box"><span class="label">${esc(t("Programmed"))}</span>${programmed}</div>
      <ul class="hand rp-hand" aria-label="${esc(t("Hand of {who}", { who: playerName(p.seat) }))}">${hand}</ul>
    </div>
  </article>`;
}

function revealItemHTML(r) {
  const modes = replay.data.modes;
  const jokerColour = r.colour && r.card.startsWith("joker") ? r.colour : null;
  let result;
  if (r.slot) result = `${icon("ready")} ${esc(t("placed: {slot}", { slot: slotText(r.slot) }))}`;
  else if (r.result === "discarded") result = `${icon("discard")} ${esc(t("discarded: {reason}", { reason: reasonText(r.reason) }))}`;
  else if (r.result === "in_play") result = esc(t("in play until the end of the turn"));
  else result = esc(t("played"));
  return `<li class="reveal-item"><span class="reveal-card">${cardHTML(r.card, { small: true, modes, jokerColour })}</span>
    <span class="reveal-seat">${esc(playerName(r.seat))}</span><span class="reveal-res">${result}</span></li>`;
}

function placedSlots(step) {
  const placed = new Map();
  for (const e of step.events || []) {
    if (e.type === "revealed" && e.slot) placed.set(e.slot, null);
  }
  return placed;
}

function render() {
  const data = replay.data;
  const steps = data.steps;
  const step = steps[replay.index];
  const state = step.state;
  const last = steps.length - 1;
  $("rp-range").max = String(last);
  $("rp-range").value = String(replay.index);
  const at = { i: replay.index + 1, n: steps.length, turn: state.turn };
  // the first step is the deal; a game that chooses sides first has turn 0 until turn 1
  $("rp-position").textContent = step.kind === "start"
    ? t("Step {i} of {n} · the deal", at)
    : state.turn > 0 ? t("Step {i} of {n} · turn {turn}", at) : t("Step {i} of {n} · before turn 1", at);
  $("rp-range").setAttribute("aria-valuetext", $("rp-position").textContent);
  $("rp-step-text").textContent = stepText(step);
  $("rp-start").disabled = $("rp-prev").disabled = $("rp-prev-turn").disabled = replay.index === 0;
  $("rp-end").disabled = $("rp-next").disabled = $("rp-next-turn").disabled = replay.index === last;
  // a button that took the replay to its first or last step is disabled there: the focus
  // goes to the slider, which says the step, rather than falling back to the page
  if (document.activeElement && document.activeElement.disabled) $("rp-range").focus();
  $("rp-players").innerHTML = state.players.map((p) => playerHTML(p, state, step)).join("");
  const view = { webs: data.webs, layout: data.layout, modes: data.modes, web: state.web, joker_colours: state.joker_colours };
  renderWebs($("rp-webs"), view, { lastPlaced: placedSlots(step) });
  const reveals = step.kind === "turn_end" ? state.last_turn : state.revealed_this_turn;
  $("rp-reveals").innerHTML = (reveals || []).length ? reveals.map(revealItemHTML).join("") : `<li class="hint">${esc(t("Nothing revealed yet this turn."))}</li>`;
  $("rp-discard-count").textContent = `(${state.discard.length} / ${data.max_discards})`;
  $("rp-discard").innerHTML = state.discard.length
    ? state.discard.map((c) => cardHTML(c, { small: true, modes: data.modes })).join("")
    : `<span class="hint">${esc(t("empty"))}</span>`;
  history.replaceState(null, "", `#step=${replay.index}`);
}

function go(index) {
  const last = replay.data.steps.length - 1;
  replay.index = Math.max(0, Math.min(last, index));
  if (replay.index === last) stopPlaying();
  render();
}

function turnOf(i) {
  return replay.data.steps[i].state.turn;
}

function turnStart(i) {
  const turn = turnOf(i);
  while (i > 0 && turnOf(i - 1) === turn) i -= 1;
  return i;
}

/** The first step of the next turn (dir 1); of this turn, or of the previous one when
 * already there (dir -1). */
function turnStep(dir) {
  const last = replay.data.steps.length - 1;
  let i = replay.index;
  if (dir > 0) {
    const turn = turnOf(i);
    while (i < last && turnOf(i) === turn) i += 1;
    return i;
  }
  const start = turnStart(i);
  return start === i && i > 0 ? turnStart(i - 1) : start;
}

function stopPlaying() {
  clearInterval(replay.timer);
  replay.timer = null;
  $("rp-play").setAttribute("aria-pressed", "false");
  $("rp-play").querySelector(".rp-play-text").textContent = t("Play");
}

function togglePlay() {
  if (replay.timer) {
    stopPlaying();
    return;
  }
  if (replay.index === replay.data.steps.length - 1) replay.index = 0;
  $("rp-play").setAttribute("aria-pressed", "true");
  $("rp-play").querySelector(".rp-play-text").textContent = t("Pause");
  replay.timer = setInterval(() => go(replay.index + 1), PLAY_EVERY_MS);
  render();
}

function wire() {
  $("rp-start").addEventListener("click", () => go(0));
  $("rp-prev").addEventListener("click", () => go(replay.index - 1));
  $("rp-next").addEventListener("click", () => go(replay.index + 1));
  $("rp-end").addEventListener("click", () => go(replay.data.steps.length - 1));
  $("rp-prev-turn").addEventListener("click", () => go(turnStep(-1)));
  $("rp-next-turn").addEventListener("click", () => go(turnStep(1)));
  $("rp-play").addEventListener("click", togglePlay);
  $("rp-range").addEventListener("input", () => go(Number($("rp-range").value)));
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target === $("rp-range")) return; // the slider moves by itself (its input event)
    if (target && target.matches && target.matches("input, select, textarea")) return;
    const keys = {
      ArrowRight: () => go(replay.index + 1),
      ArrowLeft: () => go(replay.index - 1),
      Home: () => go(0),
      End: () => go(replay.data.steps.length - 1),
      PageDown: () => go(turnStep(1)),
      PageUp: () => go(turnStep(-1)),
    };
    const handler = keys[event.key];
    if (!handler) return;
    event.preventDefault();
    stopPlaying();
    handler();
  });
}

/** Links to every game of the room with a replay: the earlier ones, and the current one
 * once it is over. */
function renderGames(room, shown) {
  const last = room.status === "over" ? room.game : room.game - 1;
  const nav = $("rp-games");
  nav.hidden = last < 2 && shown === last;
  $("rp-games-list").innerHTML = Array.from({ length: last }, (_, i) => i + 1)
    .map((n) => `<li><a href="/r/${encodeURIComponent(CODE)}/replay?game=${n}"${n === shown ? ' aria-current="page"' : ""}>${esc(t("Game {n}", { n }))}</a></li>`)
    .join("");
}

async function init() {
  let room;
  try {
    // the room first: a game still in play has no replay (and asking would be refused)
    room = await api("GET", ROOM);
    const game = ASKED ?? room.game;
    if (game === room.game && room.status !== "over") throw new ApiError("game_not_over", "", 409);
    // a page at a time (a page holds a whole game as people and bots play it)
    replay.data = await api("GET", `${ROOM}/replay/steps?game=${game}`);
    while (replay.data.next_offset != null) {
      const page = await api("GET", `${ROOM}/replay/steps?game=${game}&offset=${replay.data.next_offset}`);
      replay.data = { ...page, steps: replay.data.steps.concat(page.steps) };
    }
  } catch (err) {
    $("replay-loading").hidden = true;
    $("replay-error").hidden = false;
    $("replay-error-text").textContent =
      err.code === "game_not_over"
        ? t("The replay opens once the game is over.")
        : err.code === "game_not_found"
          ? t("This room has no game {n}.", { n: ASKED })
          : err.status === 404
            ? t("This room does not exist (check the link), or it was closed.")
            : err.message;
    return;
  }
  renderGames(room, replay.data.game);
  const data = replay.data;
  const result = data.result || {};
  const names = data.players.map((p) => p.name).join(", ");
  const outcome =
    result.outcome === "won"
      ? tn("Won with {n} discard", "Won with {n} discards", result.discards)
      : t("Lost");
  $("replay-summary").textContent = t("Game {game} of room {room} · {players} · {outcome}", { game: data.game, room: CODE.slice(0, 8), players: names, outcome });
  document.title = `${t("Replay")} · Dame Nature Online`;
  const wanted = /step=(\d+)/.exec(location.hash);
  initReview({ replay, go, turnStart, room: ROOM, code: CODE });
  replay.index = wanted ? Math.min(Number(wanted[1]), data.steps.length - 1) : 0;
  $("replay-loading").hidden = true;
  $("replay-view").hidden = false;
  wire();
  render();
  window.addEventListener("resize", () => drawLinks($("rp-webs"), { web: replay.data.steps[replay.index].state.web }));
}

init();
