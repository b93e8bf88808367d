// What is under the person's finger or pointer right now. A change that lands while they
// press (a bot's Give redrawing the hand, its dialog opening) would take their tap: such
// changes wait until the press is over and its click handled, or until a short quiet time
// after their last tap or key.
const QUIET_MS = 700;
let pressedOn = null; // the element the pointer went down on, while it is down
let lastAction = -Infinity;
const waiting = new Map(); // key -> what to run once the person is not acting

function settle() {
  if (!waiting.size || pressedOn) return;
  const wait = lastAction + QUIET_MS - performance.now();
  if (wait > 0) {
    setTimeout(settle, wait);
    return;
  }
  const runs = [...waiting.values()];
  waiting.clear();
  runs.forEach((run) => run());
}

/** Whether the pointer is pressed on something inside ``el``. */
export function pressedIn(el) {
  return !!pressedOn && el.contains(pressedOn);
}

/** Run ``run`` once the person is not pressing and has not acted for a moment (the last
 * call for a ``key`` wins). */
export function whenNotActing(key, run) {
  waiting.set(key, run);
  settle();
}

/** Run ``run`` once the pointer is released and its click handled (at once if not pressed). */
export function afterPress(key, run) {
  if (!pressedOn) run();
  else waiting.set(key, run);
}

document.addEventListener("pointerdown", (event) => {
  pressedOn = event.target;
  lastAction = performance.now();
}, true);
for (const type of ["pointerup", "pointercancel"]) {
  document.addEventListener(type, () => {
    lastAction = performance.now();
    // the click this press makes is dispatched before this timer runs
    setTimeout(() => {
      pressedOn = null;
      settle();
    }, 0);
  }, true);
}
document.addEventListener("keydown", () => {
  lastAction = performance.now();
}, true);
