// The learn page: the list of lessons and a lesson being played. The server keeps
// nothing: this page holds the lesson's id and the learner's accepted actions (in
// localStorage, so a lesson resumes and finished lessons stay ticked) and sends them with
// each move to POST /api/lessons/{id}/play.
import { api } from "../api.js";
import { esc } from "../cards.js";
import { icon } from "../icons.js";
import { both, w } from "./words.js";
import { drawTable } from "./table.js";

const $ = (id) => document.getElementById(id);
const DONE_KEY = "dameNature.lessons.done";
const progressKey = (id) => `dameNature.lesson.${id}`;

const page = { lessons: [], lesson: null, actions: [], answer: null, busy: false };

function load(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : fallback;
  } catch (err) {
    return fallback;
  }
}

function save(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch (err) {
    /* not remembered: the lesson still plays */
  }
}

function doneIds() {
  const ids = load(DONE_KEY, []);
  return Array.isArray(ids) ? ids : [];
}

function renderList() {
  $("lesson-list").hidden = false;
  $("lesson").hidden = true;
  $("lessons-title").textContent = w("lessons");
  $("lessons-intro").textContent = w("lessonsIntro");
  const done = doneIds();
  $("lessons").innerHTML = page.lessons
    .map((l) => {
      const finished = done.includes(l.id);
      const saved = load(progressKey(l.id), null);
      const label = finished ? w("replay") : saved && saved.length ? w("resume") : w("start");
      // the button's name says its lesson ("Start 1. A turn"), not only "Start" four times
      return `<li class="lesson-item${finished ? " done" : ""}" data-lesson="${esc(l.id)}">
        <div class="lesson-item-text"><h2 id="lesson-title-${esc(l.id)}">${l.number}. ${esc(both(l, "title"))}
        ${finished ? `<span class="lesson-done">${icon("ready")} ${esc(w("done"))}</span>` : ""}</h2>
        <p>${esc(both(l, "summary"))}</p></div>
        <button type="button" class="btn${finished ? "" : " primary"}" data-open="${esc(l.id)}" id="lesson-open-${esc(l.id)}" aria-labelledby="lesson-open-${esc(l.id)} lesson-title-${esc(l.id)}">${esc(label)}</button></li>`;
    })
    .join("");
}

async function openLesson(id, fresh) {
  const lesson = page.lessons.find((l) => l.id === id);
  if (!lesson) return renderList();
  page.lesson = lesson;
  page.actions = fresh ? [] : load(progressKey(id), []) || [];
  if (fresh) save(progressKey(id), null);
  if (location.hash !== `#${id}`) history.replaceState(null, "", `#${id}`);
  $("lesson-list").hidden = true;
  $("lesson").hidden = false;
  $("lesson-title").textContent = `${lesson.number}. ${both(lesson, "title")}`;
  try {
    await post(null);
  } catch (err) {
    if (err.status === 422 && page.actions.length) {
      // a lesson changed since this browser saved its progress: start it again
      page.actions = [];
      save(progressKey(id), null);
      await post(null);
    } else throw err;
  }
  $("lesson-title").focus?.();
}

async function post(action) {
  const body = { actions: page.actions };
  if (action) body.action = action;
  const answer = await api("POST", `/api/lessons/${encodeURIComponent(page.lesson.id)}/play`, { body });
  if (action && answer.feedback && answer.feedback.accepted) {
    page.actions = [...page.actions, action];
    save(progressKey(page.lesson.id), page.actions);
  }
  page.answer = answer;
  if (answer.finished) {
    const done = doneIds();
    if (!done.includes(page.lesson.id)) save(DONE_KEY, [...done, page.lesson.id]);
    save(progressKey(page.lesson.id), null);
  }
  render();
  return answer;
}

/** Send a move of the learner (called by the table's controls). */
export async function act(action) {
  if (page.busy || !page.answer || page.answer.finished) return;
  page.busy = true;
  try {
    await post(action);
  } catch (err) {
    showWrong(err.message || w("offline"));
  } finally {
    page.busy = false;
  }
}

function showWrong(text) {
  const el = $("coach-wrong");
  el.textContent = text;
  el.hidden = !text;
}

function render() {
  const a = page.answer;
  const lesson = page.lesson;
  const step = a.step;
  $("lesson-progress").textContent = step
    ? w("step", { n: a.done + 1, total: a.total, turn: step.turn })
    : w("won");
  let text = step ? both(step, "text") : "";
  if (a.done === 0 && step) text = `${both(lesson, "intro")} ${text}`;
  $("coach-text").textContent = text;
  const fb = a.feedback;
  showWrong(fb && !fb.accepted ? `${w("wrong")} ${both(fb, "message")}` : "");
  $("coach").classList.toggle("wrong", !!(fb && !fb.accepted));
  $("lesson-end").hidden = !a.finished;
  $("coach").hidden = a.finished;
  if (a.finished) {
    $("lesson-end-title").textContent = w("won");
    $("lesson-end-text").textContent = both(lesson, "outro");
    const next = page.lessons.find((l) => l.number === lesson.number + 1);
    $("lesson-next").hidden = !next;
    $("lesson-next").dataset.open = next ? next.id : "";
  }
  drawTable(a, lesson, act);
  if (a.finished) $("lesson-end").scrollIntoView({ block: "nearest" });
}

function wire() {
  $("lesson-restart").textContent = w("restart");
  $("lesson-back").textContent = w("back");
  $("lesson-next").textContent = w("next");
  $("lesson-end-back").textContent = w("back");
  $("lessons").addEventListener("click", (event) => {
    const b = event.target.closest("button[data-open]");
    if (!b) return;
    const id = b.dataset.open;
    openLesson(id, doneIds().includes(id));
  });
  $("lesson-restart").addEventListener("click", () => openLesson(page.lesson.id, true));
  const back = () => {
    history.replaceState(null, "", location.pathname);
    renderList();
  };
  $("lesson-back").addEventListener("click", back);
  $("lesson-end-back").addEventListener("click", back);
  $("lesson-next").addEventListener("click", () => openLesson($("lesson-next").dataset.open, true));
  // a link to /learn#<lesson> followed from this page (or the browser's back and forth)
  window.addEventListener("hashchange", () => {
    const wanted = location.hash.slice(1);
    if (!wanted) renderList();
    else if (!page.lesson || page.lesson.id !== wanted || $("lesson").hidden) openLesson(wanted, false);
  });
}

async function init() {
  wire();
  const data = await api("GET", "/api/lessons");
  page.lessons = data.lessons;
  const wanted = location.hash.slice(1);
  if (wanted && page.lessons.some((l) => l.id === wanted)) await openLesson(wanted, false);
  else renderList();
}

init();
