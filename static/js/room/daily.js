// A daily deal's room, once its game of the deal is over: the end screen shows how every
// table did on the deal and the solver's verdict (asked again while it thinks).
import { esc } from "../cards.js";
import { dailyResultsHTML, fetchDailyResults } from "../daily_results.js";
import { t } from "../i18n.js";
import { hostToken } from "./seats.js";
import { $, app, CODE } from "./state.js";

const POLL_MS = 4000;
const POLLS = 30;
let shownFor = null; // the room version the results were asked at
let timer = null;

export function renderEndDaily() {
  const box = $("end-daily");
  const v = app.view;
  const daily = v && v.daily;
  if (!box) return;
  box.hidden = !daily || v.phase !== "over";
  if (box.hidden || shownFor === v.version) return;
  shownFor = v.version;
  clearTimeout(timer);
  load(daily, v.version, 0);
}

async function load(daily, version, polls) {
  const box = $("end-daily");
  const token = app.mem.token || hostToken();
  const title = `<h2>${esc(t("The daily deal of {date} for {n} players", { date: daily.date, n: daily.players }))}</h2>`;
  if (!token) {
    // a spectator: the results are the players' of the room
    box.innerHTML = `${title}<p class="hint">${esc(t("The tables' results are shown to the players of this room."))}</p>`;
    return;
  }
  let data;
  try {
    data = await fetchDailyResults(daily, CODE, token);
  } catch (err) {
    if (shownFor === version) box.innerHTML = `${title}<p class="hint">${esc(err.message)}</p>`;
    return;
  }
  if (shownFor !== version) return;
  box.innerHTML = title + dailyResultsHTML(data) + `<p><a href="/daily">${esc(t("Today's daily deals"))}</a></p>`;
  if (data.verdict.status === "pending" && polls < POLLS) {
    timer = setTimeout(() => shownFor === version && load(daily, version, polls + 1), POLL_MS);
  }
}
