// The daily deal's page: today's deal for 3 to 6 players (how many tables played and won
// it), a room of one (you and bots at once, or a lobby to invite friends), and the results
// of this browser's tables of the day once their game is over.
import { api, loadSeats, rememberRoom } from "./api.js";
import { esc } from "./cards.js";
import { dailyResultsHTML, fetchDailyResults } from "./daily_results.js";
import { icon } from "./icons.js";
import { t, tn } from "./i18n.js";
import { mayStartBotGame } from "./my_rooms.js";
import { levelOptions, winsText } from "./texts.js";

const $ = (id) => document.getElementById(id);
$("daily-name").value = t("Naturalist");
$("daily-level").innerHTML = levelOptions(["expert", "random"]);

/** This browser's rooms of the deal of ``date`` for ``players``, newest first. */
function myTables(date, players) {
  return Object.entries(loadSeats())
    .filter(([, s]) => s.daily && s.daily.date === date && s.daily.players === players)
    .sort((a, b) => (b[1].at || 0) - (a[1].at || 0));
}

function dealHTML(date, deal) {
  const n = deal.players;
  const mine = myTables(date, n);
  const yours = mine.length
    ? `<p class="daily-mine">${mine
        .map(([code]) => `<a href="/r/${esc(code)}">${esc(t("Your table of this deal"))}</a>`)
        .join(" · ")}</p><div class="daily-results" id="results-${n}" aria-live="polite"></div>`
    : "";
  return `<section class="panel daily-deal" data-players="${n}" aria-labelledby="deal-${n}">
    <h2 id="deal-${n}">${esc(tn("{n} player", "{n} players", n))}</h2>
    <p class="hint daily-count">${esc(tn("{n} table has played it so far", "{n} tables have played it so far", deal.finished))}${esc(winsText(deal.won))}</p>
    ${yours}
    <div class="daily-buttons">
      <button type="button" class="btn primary" data-play="bots" data-players="${n}">${icon("bot")} ${esc(tn("Play with {n} bot", "Play with {n} bots", n - 1))}</button>
      <button type="button" class="btn" data-play="friends" data-players="${n}">${esc(t("Open a room for friends"))}</button>
    </div></section>`;
}

async function showResults(date, players) {
  const box = $(`results-${players}`);
  for (const [code, seat] of myTables(date, players)) {
    const token = seat.token || seat.host_token;
    try {
      // the results answer a table whose game of the deal is over (its first game)
      const room = await api("GET", `/api/rooms/${encodeURIComponent(code)}`);
      if (room.status !== "over" && room.game <= 1) {
        box.innerHTML = `<p class="hint">${esc(t("The other tables' results show once your game of this deal is over."))}</p>`;
        continue;
      }
      box.innerHTML = dailyResultsHTML(await fetchDailyResults({ date, players }, code, token));
      return;
    } catch (err) {
      /* a room gone (expired) or a seat no longer ours: the next table of the deal */
    }
  }
}

async function play(players, withBots, button) {
  const error = $("daily-error");
  error.textContent = t("Setting up your game…");
  button.disabled = true;
  try {
    if (withBots && !(await mayStartBotGame(error))) {
      button.disabled = false;
      return;
    }
    const created = await api("POST", "/api/daily", { body: { players } });
    const room = `/api/rooms/${encodeURIComponent(created.room)}`;
    const daily = { date: created.date, players: created.players };
    rememberRoom(created.room, { host_token: created.host_token, daily });
    if (withBots) {
      const name = $("daily-name").value.trim() || t("Naturalist");
      const level = $("daily-level").value;
      const seat = await api("POST", `${room}/players`, { token: created.host_token, body: { name } });
      rememberRoom(created.room, { seat: seat.seat, token: seat.token, name });
      for (let i = 1; i < players; i++) await api("POST", `${room}/bots`, { token: created.host_token, body: { level } });
      await api("POST", `${room}/start`, { token: created.host_token });
    }
    window.location.assign(created.url || `/r/${created.room}`);
  } catch (err) {
    error.textContent = err.message;
    button.disabled = false;
  }
}

async function init() {
  let today;
  try {
    today = await api("GET", "/api/daily");
  } catch (err) {
    $("daily-error").textContent = err.message;
    return;
  }
  const hours = Math.floor(today.next_in / 3600);
  const minutes = Math.floor((today.next_in % 3600) / 60);
  $("daily-date").textContent = t("The deals of {date} (UTC): new ones in {h} h {m} min.", { date: today.date, h: hours, m: minutes });
  $("daily-deals").innerHTML = today.deals.map((deal) => dealHTML(today.date, deal)).join("");
  for (const deal of today.deals) if (myTables(today.date, deal.players).length) showResults(today.date, deal.players);
}

$("daily-deals").addEventListener("click", (event) => {
  const button = event.target.closest("button[data-play]");
  if (button) play(Number(button.dataset.players), button.dataset.play === "bots", button);
});

init();
