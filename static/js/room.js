// The room page: lobby, table and end screen, all drawn from the websocket's views.
import { api, forgetSeat, LiveSocket, rememberRoom, roomMemory } from "./api.js";
import { BOOT, card, cardFace, cardHTML, cardText, esc, facedownHTML } from "./cards.js";
import { icon } from "./icons.js";
import { COLOUR_INFO, COLOUR_ORDER, PLAYER_AID, REASONS, SYMBOLS, seatName } from "./texts.js";
import { readRulesPicker, renderRulesPicker, setRulesPicker } from "./rules_picker.js";
import { drawLinks, renderWebs, slotText } from "./web.js";

const $ = (id) => document.getElementById(id);

/** Replace an element's markup only when it changed (a view often changes one corner of
 * the table): keeps focus, animations and the browser's work small. True if replaced. */
function setHTML(el, html) {
  if (el._html === html) return false;
  el._html = html;
  el.innerHTML = html;
  return true;
}
const CODE = $("room").dataset.code;
const REVEAL_STEP = 0.8; // seconds between two cards revealed together
const MODES = Object.fromEntries(BOOT.modes.map((m) => [m.mode, m]));

const app = {
  mem: roomMemory(CODE),
  room: null, // GET /api/rooms/{code}
  view: null, // latest view from the websocket
  socket: null,
  conn: "connecting",
  endDismissed: false,
  shownReveals: new Set(),
  givebackFor: null, // the pending give the dialog was opened for
  lastLogSig: null,
};

// ------------------------------------------------------------------ start
async function init() {
  $("invite-link").value = `${location.origin}/r/${CODE}`;
  $("newcomer-aid").innerHTML = PLAYER_AID.map((t) => `<li>${t}</li>`).join("");
  try {
    app.room = await api("GET", `/api/rooms/${encodeURIComponent(CODE)}`);
  } catch (err) {
    show("error-view");
    if (err.status !== 404) $("error-text").textContent = err.message;
    setConn("closed");
    return;
  }
  connect();
  render();
}

function connect() {
  if (app.socket) app.socket.stop();
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const token = app.mem.token ? `?token=${encodeURIComponent(app.mem.token)}` : "";
  app.socket = new LiveSocket(`${proto}://${location.host}/api/rooms/${encodeURIComponent(CODE)}/ws${token}`, {
    onMessage,
    onStatus: (status, event) => {
      setConn(status);
      if (status !== "closed") return;
      if (event && event.code === 4404) {
        show("error-view");
        return;
      }
      if (app.mem.token) {
        // the server refused our token: the seat is gone (e.g. a new server)
        forgetSeat(CODE);
        app.mem = roomMemory(CODE);
        toast("Your seat in this room could not be found any more; you are now watching.");
        connect();
      }
    },
  });
}

async function refreshRoom() {
  try {
    app.room = await api("GET", `/api/rooms/${encodeURIComponent(CODE)}`);
  } catch (err) {
    /* keep the last known room info */
  }
  render();
}

function onMessage(msg) {
  if (msg.type === "state" && msg.view) {
    const old = app.view;
    // views arrive in order on one socket; after a reconnect or a REST answer an older
    // one may still come in: never go back in time
    if (old && typeof old.version === "number" && typeof msg.view.version === "number" && msg.view.version < old.version) return;
    app.view = msg.view;
    if (old && old.phase === "over" && msg.view.phase !== "over") {
      app.endDismissed = false; // a rematch started
      app.shownReveals.clear();
    }
    const phase = msg.view.phase;
    if (!phase || phase === "lobby" || !app.room || app.room.status === "lobby" || (old && old.phase !== phase && phase === "over")) {
      refreshRoom();
      return;
    }
    render();
  } else if (msg.type === "error" && msg.error) {
    toast(msg.error.message || "That is not possible now.");
  } else if (msg.type === "room" || msg.type === "lobby" || msg.type === "players") {
    refreshRoom();
  }
}

function setConn(status) {
  app.conn = status;
  const el = $("conn");
  el.dataset.state = status;
  const text = { connecting: "Connecting…", open: "Connected", reconnecting: "Reconnecting…", closed: "Offline" }[status] || status;
  el.querySelector(".conn-text").textContent = text;
  document.body.classList.toggle("is-reconnecting", status === "reconnecting");
  if (app.view && inGame() && !$("game-view").hidden) renderBanner();
}

function show(id) {
  for (const v of ["loading-view", "error-view", "lobby-view", "game-view", "end-view"]) $(v).hidden = v !== id && !(id === "end-view" && v === "game-view");
}

let toastTimer = null;
function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), 5000);
}

async function send(action) {
  if (app.socket && app.socket.send({ type: "action", action })) return;
  // websocket down: the REST endpoint does the same and answers the new view
  try {
    const view = await api("POST", `/api/rooms/${encodeURIComponent(CODE)}/actions`, { body: action, token: app.mem.token });
    if (view && view.phase) {
      app.view = view;
      render();
    }
  } catch (err) {
    toast(err.message);
  }
}

// ------------------------------------------------------------------ render
function mySeat() {
  const v = app.view;
  if (v && v.seat !== undefined && v.seat !== null) return v.seat;
  return app.mem.seat ?? null;
}

function inGame() {
  const v = app.view;
  return v && v.phase && v.phase !== "lobby";
}

function render() {
  const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  if (!app.room && !app.view) return;
  if (inGame()) {
    renderGame();
  } else {
    renderLobby();
  }
  if (focusKey) {
    const again = document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
  }
}

// ------------------------------------------------------------------ lobby
function lobbyPlayers() {
  const fromView = app.view && app.view.players && app.view.players.length && app.view.players[0].name !== undefined ? app.view.players : null;
  return [...(fromView || (app.room && app.room.players) || [])].sort((a, b) => a.seat - b.seat);
}

function rulesHTML(modes, campaign, path) {
  const parts = [];
  if (campaign || path) {
    const p = campaign ? campaign.path : path;
    const stage = campaign ? campaign.stage : 1;
    parts.push(`<p class="path-line"><strong>Path ${p}</strong>, played as a campaign: stage ${stage} of 3.</p>`);
  }
  if (!modes || !modes.length) {
    parts.push(`<p>The base game, with no advanced rule.</p>`);
  } else {
    parts.push(
      `<ul class="rule-list">${modes
        .map((m) => `<li><strong>${esc(MODES[m]?.title || m)}</strong> <span class="fr" lang="fr">${esc(MODES[m]?.title_fr || "")}</span><br><span class="hint">${esc(MODES[m]?.summary || "")}</span></li>`)
        .join("")}</ul>`,
    );
  }
  return parts.join("");
}

function renderLobby() {
  show("lobby-view");
  $("turn-info").hidden = true;
  const room = app.room || {};
  const players = lobbyPlayers();
  const me = mySeat();
  const seated = me !== null && me !== undefined && app.mem.token;
  $("join-form").hidden = !!seated || room.status !== "lobby";
  $("seated-note").hidden = !seated;
  if (seated) {
    $("seated-note").textContent = `You are seated as ${app.mem.name || "player " + (me + 1)} (seat ${me + 1}). This browser remembers your seat: reopening the link brings you back to it.`;
  }
  if (!seated && room.status && room.status !== "lobby") {
    $("seated-note").hidden = false;
    $("seated-note").textContent = "This game has already started: you can watch it.";
  }
  $("player-count").textContent = `(${players.length} of ${room.seats_max || 6})`;
  $("lobby-players").innerHTML = players.length
    ? players
        .map(
          (p) => `<li class="lobby-player${p.seat === me ? " is-me" : ""}">
          <span class="conn-dot ${p.connected ? "on" : "off"}" aria-hidden="true"></span>
          <span class="seat-no">${p.seat + 1}</span>
          <span class="pname">${esc(p.name)}${p.seat === me ? (app.mem.host_token ? " (you, host)" : " (you)") : ""}</span>
          <span class="hint">${p.connected ? "connected" : "not connected"}</span></li>`,
        )
        .join("")
    : `<li class="hint">Nobody has taken a seat yet.</li>`;
  $("lobby-rules").innerHTML = rulesHTML(room.modes, room.campaign, room.path);
  const host = !!app.mem.host_token;
  $("host-controls").hidden = !host;
  if (host && !$("rules-editor").open) setRulesPicker($("lobby-picker"), { modes: room.modes || [], path: room.path || null });
  $("wait-host").hidden = host;
  const n = players.length;
  $("start-btn").disabled = n < 3 || n > 6;
  $("start-btn").textContent = n < 3 ? `Start the game (${3 - n} more player${3 - n > 1 ? "s" : ""} needed)` : `Start the game with ${n} players`;
}

// A lobby request (join, rules, start): its button is disabled and its error line cleared
// while it runs; then the room is refreshed, or the error shown.
async function lobbyRequest(button, errorLine, request) {
  $(errorLine).textContent = "";
  $(button).disabled = true;
  try {
    await request();
    await refreshRoom();
  } catch (err) {
    $(errorLine).textContent = err.message;
  } finally {
    $(button).disabled = false;
  }
}

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = $("player-name").value.trim();
  if (!name) {
    $("join-error").textContent = "Enter a name so that the others know who you are.";
    $("player-name").focus();
    return;
  }
  await lobbyRequest("join-btn", "join-error", async () => {
    const seat = await api("POST", `/api/rooms/${encodeURIComponent(CODE)}/players`, { body: { name } });
    app.mem = rememberRoom(CODE, { seat: seat.seat, token: seat.token, name });
    connect();
  });
});

$("copy-link").addEventListener("click", async () => {
  const input = $("invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
    $("copy-status").textContent = "Link copied.";
  } catch (err) {
    input.select();
    $("copy-status").textContent = "Select the link and copy it (Ctrl+C, or long-press on a phone).";
  }
});

renderRulesPicker($("lobby-picker"));
$("rules-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  await lobbyRequest("rules-save", "rules-error", async () => {
    await api("PATCH", `/api/rooms/${encodeURIComponent(CODE)}`, { token: app.mem.host_token, body: readRulesPicker($("lobby-picker")) });
    $("rules-editor").open = false;
  });
});

$("start-btn").addEventListener("click", () =>
  lobbyRequest("start-btn", "start-error", () =>
    api("POST", `/api/rooms/${encodeURIComponent(CODE)}/start`, { token: app.mem.host_token }),
  ),
);

// ------------------------------------------------------------------ game
function renderGame() {
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
  ti.textContent = over ? `Game over · turn ${v.turn}` : v.phase === "choosing_sides" ? "Before turn 1" : `Turn ${v.turn} of ${v.turns_total ?? "?"}`;
  const stage = v.campaign ? `Path ${v.campaign.path}, stage ${v.campaign.stage}/3` : "";
  $("stage-info").hidden = !stage;
  $("stage-info").textContent = stage;
  renderBanner();
  renderOthers();
  renderMe();
  renderStatus();
  const { targets, removals } = revealChoices();
  const fresh = freshReveals();
  renderWebs($("webs"), v, { targets, removals, lastPlaced: lastPlacedSlots(fresh) });
  renderReveals(fresh);
  renderDiscard();
  renderLog();
  maybeOpenGiveback();
  updateTitle();
}

function players() {
  return app.view.players || [];
}

function orderedOthers() {
  const me = mySeat();
  const list = players();
  if (me === null) return list;
  const n = list.length;
  return list.map((_, i) => list[(me + 1 + i) % n]).filter((p) => p.seat !== me);
}

function renderBanner() {
  const v = app.view;
  const el = $("banner");
  const lines = [];
  if (app.conn === "reconnecting") lines.push(`<p class="reconnecting-note">${icon("web")} Reconnecting… Your seat and hand are kept.</p>`);
  if (!v.winnable && v.phase !== "over") {
    const empty = Object.values(v.web).filter((x) => !x).length;
    lines.push(`<div class="unwinnable"><p><strong>The game can no longer be won.</strong> ${empty} places of the web are still empty and there are not enough cards left to fill them.</p>
      ${mySeat() !== null ? `<button type="button" class="btn danger" id="end-game-btn" data-key="end-game">End the game</button>` : ""}</div>`);
  }
  if (v.phase === "over" && app.endDismissed) {
    lines.push(`<div class="unwinnable over"><p>The game is over.</p><button type="button" class="btn" id="back-end" data-key="back-end">Back to the result</button></div>`);
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
  const awaiting = v.awaiting;
  setHTML($("others"), orderedOthers()
    .map((p) => {
      const theirs = known.filter((k) => k.seat === p.seat);
      const first = p.seat === v.first_player;
      const active = awaiting && awaiting.seat === p.seat;
      const pending = v.pending_give && (v.pending_give.from === p.seat || v.pending_give.to === p.seat);
      const prog = p.has_programmed ? facedownHTML(`${seatName(v, p.seat)} has programmed a card`) : `<span class="card small empty" aria-label="no card programmed"></span>`;
      return `<article class="player${active ? " active" : ""}${p.connected === false ? " offline" : ""}" data-seat="${p.seat}" aria-label="${esc(seatName(v, p.seat))}">
        <header class="player-head">
          <span class="conn-dot ${p.connected === false ? "off" : "on"}" title="${p.connected === false ? "not connected" : "connected"}" aria-hidden="true"></span>
          <span class="pname">${esc(seatName(v, p.seat))}</span>
          ${first ? `<span class="badge first" title="First player this turn">${icon("first")} First${v.phase === "programming" && v.free_symbiosis_available ? " · free Symbiosis" : ""}</span>` : ""}
        </header>
        <div class="player-body">
          ${prog}
          <ul class="player-facts">
            <li>${icon("hand")} ${p.hand_size} in hand</li>
            <li>${icon("symbiosis")} ${p.symbiosis_cards} Symbiosis</li>
            ${p.side ? `<li>${icon(p.side)} ${p.side === "plant" ? "Plant" : "Animal"} side</li>` : ""}
            ${v.phase === "programming" ? `<li class="ready-state ${p.ready ? "is-ready" : ""}">${p.ready ? `${icon("ready")} Ready` : p.has_programmed ? "Thinking…" : p.hand_size ? "Choosing…" : "No card left"}</li>` : ""}
          </ul>
        </div>
        ${pending ? `<p class="pending-note">${v.pending_give.to === p.seat ? "must give a card back" : "is waiting for a card back"}</p>` : ""}
        ${active && awaiting.kind === "reveal" ? `<p class="pending-note">is choosing where their card goes</p>` : ""}
        ${theirs.length ? `<div class="known"><span class="label">${icon("eye")} You know:</span> ${theirs.map((k) => cardHTML(k.card, { small: true, modes: v.modes })).join("")}</div>` : ""}
      </article>`;
    })
    .join(""));
}

function myCards() {
  const v = app.view;
  return [...(v.programmed ? [v.programmed] : []), ...sortHand(v.hand || [])];
}

function canUseSymbiosis() {
  const v = app.view;
  const me = mySeat();
  if (me === null || v.phase !== "programming" || v.pending_give) return false;
  const p = players().find((x) => x.seat === me);
  const free = v.first_player === me && v.free_symbiosis_available;
  return free || (p && p.symbiosis_cards > 0);
}

function renderMe() {
  const v = app.view;
  const me = mySeat();
  const box = $("me");
  if (me === null) {
    box.hidden = false;
    $("me-title").textContent = "You are watching this game";
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
  $("me-title").textContent = `Your hand · ${p.name || "you"}`;
  const badges = [];
  if (v.first_player === me) badges.push(`<span class="badge first">${icon("first")} First player${v.free_symbiosis_available && v.phase === "programming" ? " · free Symbiosis" : ""}</span>`);
  badges.push(`<span class="badge">${icon("symbiosis")} ${p.symbiosis_cards ?? 0} Symbiosis card${p.symbiosis_cards === 1 ? "" : "s"}</span>`);
  if (p.side) badges.push(`<span class="badge">${icon(p.side)} ${p.side === "plant" ? "Plant" : "Animal"} side</span>`);
  if (p.ready) badges.push(`<span class="badge ok">${icon("ready")} Ready</span>`);
  setHTML($("me-badges"), badges.join(""));

  const programming = v.phase === "programming";
  setHTML(
    $("programmed"),
    v.programmed
      ? `<span class="card programmed-card" data-card="${esc(v.programmed)}" role="img" aria-label="Programmed: ${esc(cardText(v.programmed) + knownByText(v, v.programmed))}">${cardFace(v.programmed, { modes: v.modes })}${knownByTag(v, v.programmed)}</span>`
      : `<span class="card empty-slot">${programming && (v.hand || []).length ? "Click a card to program it" : "—"}</span>`,
  );
  const hand = sortHand(v.hand || []);
  const handHTML = hand
    .map((c) => {
      const label = `${cardText(c)}${knownByText(v, c)}${programming ? (v.programmed ? ": program it instead" : ": program it") : ""}`;
      return `<li><button type="button" class="card hand-card" data-card="${esc(c)}" data-key="hand-${esc(c)}" aria-label="${esc(label)}" ${programming ? "" : "disabled"}>${cardFace(c, { modes: v.modes })}${knownByTag(v, c)}</button></li>`;
    })
    .join("");
  setHTML($("hand"), handHTML || `<li class="hint">No card left in your hand.</li>`);

  const actions = [];
  if (programming) {
    if (p.ready) actions.push(`<button type="button" class="btn" id="unready-btn" data-key="ready">Not ready</button>`);
    else actions.push(`<button type="button" class="btn primary" id="ready-btn" data-key="ready" ${v.programmed ? "" : "disabled"}>Ready</button>`);
    const can = canUseSymbiosis();
    actions.push(`<button type="button" class="btn" id="sym-btn" data-key="sym" aria-haspopup="dialog" ${can ? "" : "disabled"}>${icon("symbiosis")} Symbiosis…</button>`);
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
  return `, known to ${everyone ? "everyone" : seats.map((s) => seatName(v, s)).join(" and ")}`;
}

function knownByTag(v, c) {
  const text = knownByText(v, c);
  return text ? `<span class="known-by" title="${esc(text.slice(2))}" aria-hidden="true">${icon("eye")}</span>` : "";
}

$("hand").addEventListener("click", (event) => {
  const b = event.target.closest("button.hand-card");
  if (b && !b.disabled) send({ type: "program", card: b.dataset.card });
});

$("actions").addEventListener("click", (event) => {
  const b = event.target.closest("button");
  if (!b || b.disabled) return;
  if (b.id === "ready-btn") send({ type: "ready" });
  else if (b.id === "unready-btn") send({ type: "unready" });
  else if (b.id === "sym-btn") openSymbiosis();
});

// A hand is easier to read sorted: Conditions by colour, Jokers, plants, animals, others.
const TYPE_ORDER = { condition: 0, joker: 1, species: 2, cat: 3, pollution: 4, reintroduction: 5 };
function sortKey(id) {
  const c = card(id);
  const colour = c.colour ? COLOUR_ORDER.indexOf(c.colour) : 0;
  const kind = c.type === "species" ? (c.kind === "plant" ? 0 : 1) : 0;
  return [TYPE_ORDER[c.type] ?? 9, kind, colour, c.set === "wetland" ? 1 : 0, id];
}
function sortHand(cards) {
  return [...cards].sort((a, b) => {
    const ka = sortKey(a);
    const kb = sortKey(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  });
}

function updateTitle() {
  const v = app.view;
  const me = mySeat();
  const base = "Dame Nature Online";
  if (!v || !inGame() || me === null) {
    document.title = base;
    return;
  }
  const aw = v.awaiting;
  const p = players().find((x) => x.seat === me) || {};
  let todo = "";
  if (v.phase === "over") todo = v.result && v.result.outcome === "won" ? "Won! " : "Game over · ";
  else if (aw && aw.seat === me) todo = "● Your move · ";
  else if (v.phase === "programming" && !p.ready && (v.hand || []).length + (v.programmed ? 1 : 0) > 0) todo = "● Program · ";
  document.title = `${todo}Turn ${v.turn} · ${base}`;
}

function optionLabel(o) {
  const parts = [];
  if (o.slot) parts.push(`${o.slot.includes(":") ? "Place in" : "Install"} ${slotText(o.slot)}`);
  if (o.target) parts.push(`remove ${cardText(o.target)}`);
  if (!o.slot && !o.target) parts.push(o.colour ? "Discard it" : "Play it");
  if (o.colour) parts.push(`as ${COLOUR_INFO[o.colour].name} [${COLOUR_INFO[o.colour].letter}]`);
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
        ? "Your Joker takes the colour of the place you pick: choose a lit place in the web, or a button below (a colour with no place discards it)."
        : type === "pollution"
          ? "Your Pollution removes one uncovered Condition from the web: pick one of the places lit in red, or a button below."
          : "Several places are possible: pick one of the lit places in the web, or a button below.";
    setHTML(el, `<div class="prompt-card">${c ? cardHTML(c, { modes: v.modes }) : ""}</div>
      <div class="prompt-body"><h3>Your reveal: ${type === "pollution" ? "what does it remove?" : "where does it go?"}</h3>
      <p>${how}</p>
      <div class="option-list">${buttons}</div></div>`);
  } else if (aw.kind === "choose_side") {
    setHTML(el, `<div class="prompt-body"><h3>Choose your side</h3>
      <p>Species-specific biodiversity: you may only install Species of your side (your Conditions are not limited).</p>
      <div class="option-list"><button type="button" class="btn option" data-side="plant" data-key="side-plant">${icon("plant")} Plant (Végétal)</button>
      <button type="button" class="btn option" data-side="animal" data-key="side-animal">${icon("animal")} Animal</button></div></div>`);
  } else if (aw.kind === "give_back") {
    setHTML(el, `<div class="prompt-body"><h3>${esc(seatName(v, v.pending_give?.from))} gave you a card</h3>
      <p>Give one of your cards back (it can be the one you just received).</p>
      <button type="button" class="btn primary" id="open-giveback" data-key="open-giveback">Choose the card to give back</button></div>`);
  }
}

$("prompt").addEventListener("click", (event) => {
  const aw = app.view && app.view.awaiting;
  const opt = event.target.closest("[data-opt]");
  if (opt && aw && aw.options) send(aw.options[Number(opt.dataset.opt)]);
  const side = event.target.closest("[data-side]");
  if (side) send({ type: "choose_side", side: side.dataset.side });
  if (event.target.closest("#open-giveback")) openGiveback(true);
});

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
  if (!b) return;
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
    text = v.result ? (v.result.outcome === "won" ? "The web of life is complete: you won!" : "The game is lost.") : "The game is over.";
  } else if (v.phase === "choosing_sides") {
    text = aw && aw.seat === me ? "Choose your side: Plant or Animal." : `Waiting for ${seatName(v, aw?.seat)} to choose a side.`;
  } else if (v.phase === "reveal") {
    text = aw && aw.seat === me ? "Your reveal: choose where your card goes." : `Reveal: ${seatName(v, aw?.seat)} chooses where their card goes.`;
  } else if (v.pending_give) {
    text = v.pending_give.to === me ? "Give a card back to finish the exchange." : `Waiting for ${seatName(v, v.pending_give.to)} to give a card back to ${seatName(v, v.pending_give.from)}.`;
  } else if (me !== null) {
    const p = players().find((x) => x.seat === me) || {};
    const waiting = players().filter((x) => x.seat !== me && (x.hand_size > 0 || x.has_programmed) && !x.ready).map((x) => seatName(v, x.seat));
    if (!v.programmed && (v.hand || []).length) text = "Programming: click a card of your hand to put it face down.";
    else if (!p.ready && v.programmed) text = "Say Ready when you are sure (you can still replace your card).";
    else if (waiting.length) text = `Ready. Waiting for ${waiting.join(", ")}.`;
    else text = "Waiting…";
  } else {
    text = "Programming: the players choose their cards.";
  }
  $("status").textContent = text;
}

function revealRecords() {
  const v = app.view;
  if (v.revealed_this_turn && v.revealed_this_turn.length) return { list: v.revealed_this_turn, turn: v.turn, current: true };
  if (v.last_turn && v.last_turn.length) {
    // the turn those reveals belong to: that of the last reveal in the log
    const last = [...(v.log || [])].reverse().find((e) => e.type === "revealed");
    const turn = last ? last.turn : v.phase === "over" ? v.turn : v.turn - 1;
    return { list: v.last_turn, turn, current: false };
  }
  return { list: [], turn: v.turn, current: true };
}

function recordText(r) {
  const v = app.view;
  const who = seatName(v, r.seat);
  const what = cardText(r.card, card(r.card).type === "joker" ? r.colour : null);
  if (r.result === "placed") {
    if (r.slot) return `${who}: ${what}, ${r.slot.includes(":") ? "placed in " + slotText(r.slot) : "installed"}${r.target ? `, removing ${cardText(r.target)}` : ""}.`;
    return `${who}: ${what}, played${r.target ? `, removing ${cardText(r.target)}` : ""}.`;
  }
  return `${who}: ${what}, discarded: ${REASONS[r.reason] || r.reason || "it could not be placed"}.`;
}

/** The reveal records this client has not shown yet: index -> animation delay (s), so
 * that cards revealed together still appear one at a time, in seat order. */
function freshReveals() {
  const { list, turn } = revealRecords();
  const fresh = new Map();
  list.forEach((r, i) => {
    const key = `${turn}-${i}-${r.card}`;
    if (!app.shownReveals.has(key)) {
      app.shownReveals.add(key);
      fresh.set(i, fresh.size * REVEAL_STEP);
    }
  });
  return fresh;
}

function renderReveals(fresh) {
  const v = app.view;
  const { list, turn } = revealRecords();
  $("reveal-title").textContent = list.length ? `Reveal of turn ${turn}` : "Reveal";
  const announce = [];
  let html = list.length
    ? list
        .map((r, i) => {
          const isNew = fresh.has(i);
          if (isNew) announce.push(recordText(r));
          const delay = isNew ? fresh.get(i) : 0;
          const result =
            r.result === "placed"
              ? `<span class="res placed">${icon("ready")} ${r.slot ? (r.slot.includes(":") ? "placed: " + esc(slotText(r.slot)) : "installed") : "played"}${r.target ? ` · removed ${esc(cardText(r.target))}` : ""}</span>`
              : `<span class="res discarded">${icon("discard")} discarded: ${esc(REASONS[r.reason] || r.reason || "")}</span>`;
          return `<li class="reveal-item ${r.result}${isNew ? " new" : ""}" style="animation-delay:${delay}s" data-reveal="${i}">
            <span class="reveal-seat">${i + 1}. ${esc(seatName(v, r.seat))}</span>
            ${cardHTML(r.card, { small: true, modes: v.modes, jokerColour: card(r.card).type === "joker" ? r.colour : null })}
            ${result}</li>`;
        })
        .join("")
    : `<li class="hint">The cards are revealed here one by one, in seat order from the first player.</li>`;
  if (v.phase === "reveal" && v.awaiting && v.revealing) {
    html += `<li class="reveal-item waiting"><span class="reveal-seat">${list.length + 1}. ${esc(seatName(v, v.revealing.seat))}</span>${cardHTML(v.revealing.card, { small: true, modes: v.modes })}<span class="res">choosing where it goes…</span></li>`;
  }
  setHTML($("reveals"), html);
  if (announce.length) $("live").textContent = announce.join(" ");
}

function lastPlacedSlots(fresh) {
  const { list } = revealRecords();
  const placed = new Map();
  list.forEach((r, i) => {
    if (r.result === "placed" && r.slot) placed.set(r.slot, fresh.has(i) ? fresh.get(i) : null);
  });
  return placed;
}

function renderDiscard() {
  const v = app.view;
  const n = v.discard.length;
  $("discard-count").textContent = `(${n} · at most ${v.max_discards ?? "?"} to win)`;
  setHTML($("discard"), n ? v.discard.map((c) => cardHTML(c, { small: true, modes: v.modes })).join("") : `<p class="hint">Empty.</p>`);
  $("discard-count").classList.toggle("over-max", v.max_discards !== undefined && n > v.max_discards);
}

function eventText(e) {
  const v = app.view;
  const who = seatName(v, e.seat);
  const paid = e.paid_with === "free" ? " (free Symbiosis)" : e.paid_with === "card" ? " (Symbiosis card)" : "";
  switch (e.type) {
    case "turn_started":
      return `Turn ${e.turn} begins; ${seatName(v, e.first_player)} is first player.`;
    case "show":
      return `${who} shows ${e.card ? cardText(e.card) : "a card"} ${e.to !== null && e.to !== undefined ? "to " + seatName(v, e.to) : "to everyone"}${paid}.`;
    case "give":
      return `${who} gives ${e.card ? cardText(e.card) : "a card"} to ${seatName(v, e.to)}${paid}.`;
    case "give_back":
      return `${who} gives ${e.card ? cardText(e.card) : "a card"} back to ${seatName(v, e.to)}.`;
    case "swap_discard":
      return `${who} swaps ${cardText(e.card)} with ${cardText(e.take)} from the discard pile${paid}.`;
    case "revealed":
      return recordText(e);
    case "removed_from_web":
      return `${cardText(e.card)} leaves the web (${slotText(e.slot)}): ${REASONS[e.reason] || e.reason}.`;
    case "side_chosen":
      return `${who} chooses the ${e.side === "plant" ? "Plant" : "Animal"} side.`;
    case "cats_returned":
      return `Two Cats or more were revealed: they go back to their players' hands.`;
    case "cat_discarded":
      return `The Cat of ${who} goes to the discard pile.`;
    case "game_ended_by_players":
      return `${who} ends the game, which could no longer be won.`;
    case "game_over":
      return e.outcome === "won" ? `The web is complete: won, with ${e.discards} card(s) discarded.` : `The game is lost (${e.discards} cards discarded).`;
    default:
      return null;
  }
}

function renderLog() {
  const v = app.view;
  const log = (v.log || []).map((e) => ({ e, sig: JSON.stringify(e) }));
  const list = $("log");
  let start = 0;
  if (app.lastLogSig) {
    let found = -1;
    for (let i = log.length - 1; i >= 0; i--)
      if (log[i].sig === app.lastLogSig) {
        found = i;
        break;
      }
    if (found >= 0) start = found + 1;
    else list.innerHTML = "";
  }
  const items = [];
  for (const { e } of log.slice(start)) {
    const text = eventText(e);
    if (text) items.push(`<li class="log-${e.type}">${e.type === "turn_started" ? "<strong>" : ""}${esc(text)}${e.type === "turn_started" ? "</strong>" : ""}</li>`);
  }
  if (items.length) {
    list.insertAdjacentHTML("beforeend", items.join(""));
    while (list.children.length > 400) list.firstElementChild.remove();
    list.scrollTop = list.scrollHeight;
  }
  if (log.length) app.lastLogSig = log[log.length - 1].sig;
}

// ------------------------------------------------------------------ end screen
function renderEnd() {
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

// ------------------------------------------------------------------ symbioses
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

function openSymbiosis() {
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

function maybeOpenGiveback() {
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

function openGiveback(force) {
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

// the links between species follow the layout (window size, fonts, panels opening)
const relink = () => {
  if (app.view && inGame()) drawLinks($("webs"), app.view);
};
if ("ResizeObserver" in window) new ResizeObserver(relink).observe($("webs"));
else window.addEventListener("resize", relink);

init();
