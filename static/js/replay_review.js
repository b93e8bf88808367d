// The review on the replay page: the solver's verdict on the deal, the turning point
// (a button that goes to its turn) and, when a team seeing every hand could have won,
// the winning line to step through in the same viewer ("The game as played" goes back).
import { api, rememberRoom, roomMemory } from "./api.js";
import { esc } from "./cards.js";
import { COLON, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** "Play from here": a new solo room from the step shown (the game as played only). */
function initPlayFrom(viewer, code) {
  const box = $("rp-play-from");
  const played = viewer.replay.data;
  if (!box || !played.players) return;
  box.hidden = false;
  const mine = roomMemory(code).seat;
  $("rp-from-seat").innerHTML = played.players.map((p) => `<option value="${p.seat}"${p.seat === mine ? " selected" : ""}>${esc(p.name || t("Seat {n}", { n: p.seat + 1 }))}</option>`).join("");
  $("rp-from-btn").addEventListener("click", async () => {
    const data = viewer.replay.data;
    if (data !== played) return;
    const actions = data.steps.slice(0, viewer.replay.index + 1).filter((s) => s.action).length;
    const seat = Number($("rp-from-seat").value);
    const name = roomMemory(code).name || played.players[seat]?.name || "Player";
    $("rp-from-error").textContent = "";
    $("rp-from-btn").disabled = true;
    try {
      const made = await api("POST", `${viewer.room}/replay/play_from`, { body: { game: data.game, actions, seat, name } });
      rememberRoom(made.room, { seat: made.seat, token: made.token, host_token: made.host_token, name });
      location.href = made.url;
    } catch (err) {
      $("rp-from-error").textContent = err.message;
      $("rp-from-btn").disabled = false;
    }
  });
}

/** The hints each seat took in this game (shown when any was). */
async function showHints(viewer) {
  const el = $("rp-hints");
  const data = viewer.replay.data;
  try {
    const taken = (await api("GET", `${viewer.room}/replay?game=${data.game}`)).hints_taken || [];
    if (!taken.some((n) => n > 0)) return;
    el.textContent = `${t("Hints taken:")} ${data.players.map((p) => `${p.name} ${taken[p.seat] || 0}`).join(", ")}`;
    el.hidden = false;
  } catch (err) {
    // the replay stands without them
  }
}

/** `viewer`: {replay, go, turnStart, room, code} from replay.js. */
export async function initReview(viewer) {
  initPlayFrom(viewer, viewer.code);
  showHints(viewer);
  const box = $("rp-review");
  if (!box) return;
  const { replay, room } = viewer;
  const wantLine = location.hash === "#review"; // (the viewer soon writes #step=N there)
  const game = replay.data.game;
  let review;
  try {
    review = await api("GET", `${room}/review?game=${game}`);
  } catch (err) {
    return; // no review (an older server, a game not over): the replay stands alone
  }
  const played = replay.data;
  let line = null;
  box.hidden = false;
  box.dataset.verdict = review.verdict;
  box.dataset.status = review.status;
  const sentence =
    review.status === "pending"
      ? t("The solver is looking at this deal with every hand open…")
      : {
          won: `✓ ${t("A team seeing every hand could have won this deal.")}`,
          lost: `✗ ${t("No team could have won this deal (proven).")}`,
          unknown: `? ${t("The solver did not decide this deal within its budget.")}`,
        }[review.verdict];
  const turning = review.turning_point;
  box.innerHTML = `<h2 class="panel-title">${esc(t("Review of the deal"))}</h2>
    <p><strong>${esc(sentence)}</strong></p>
    ${turning ? `<p><button type="button" class="btn small" id="rp-turning">${esc(t("Turning point"))}${COLON}${esc(t("Turn {n}", { n: turning.turn }))}</button> ${esc(t("Turning point: from turn {n} on, the game could no longer be won.", { n: turning.turn }))}</p>` : ""}
    ${review.verdict === "won" ? `<div class="rp-line-switch" role="group"><button type="button" class="btn small" id="rp-show-played" aria-pressed="true">${esc(t("The game as played"))}</button> <button type="button" class="btn small" id="rp-show-line" aria-pressed="false">${esc(t("Winning line"))}</button></div>` : ""}`;
  $("rp-turning")?.addEventListener("click", () => {
    if (replay.data !== played) show(played);
    const steps = played.steps;
    const i = steps.findIndex((s) => s.state.turn >= turning.turn);
    viewer.go(i < 0 ? steps.length - 1 : viewer.turnStart(i));
  });
  function show(data) {
    replay.data = data;
    $("rp-show-played")?.setAttribute("aria-pressed", String(data === played));
    $("rp-show-line")?.setAttribute("aria-pressed", String(data !== played));
    $("replay-view").dataset.showing = data === played ? "played" : "line";
    $("rp-from-btn").disabled = data !== played; // the line is not this room's game
    viewer.go(0);
  }
  $("rp-show-played")?.addEventListener("click", () => show(played));
  $("rp-show-line")?.addEventListener("click", async () => {
    try {
      line = line || (await api("GET", `${room}/review/steps?game=${game}`));
      show(line);
    } catch (err) {
      box.insertAdjacentHTML("beforeend", `<p class="form-error" role="alert">${esc(err.message)}</p>`);
    }
  });
  if (review.verdict === "won" && wantLine) $("rp-show-line").click();
}
