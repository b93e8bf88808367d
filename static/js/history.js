// "Your games": the games this browser sat at, kept in its own localStorage (the server
// keeps no list of who played what). The room page records a game when its end view
// arrives for this browser's seat; /games lists them with links to the replays.
const KEY = "dameNature.games";
/** the most games kept (the oldest go first) */
export const MAX_GAMES = 200;

export function loadGames() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(games) ? games.filter((g) => g && typeof g.room === "string") : [];
  } catch (err) {
    return [];
  }
}

function save(games) {
  try {
    localStorage.setItem(KEY, JSON.stringify(games.slice(-MAX_GAMES)));
  } catch (err) {
    /* storage full or disabled: this game is not remembered */
  }
}

/** What is kept of a finished game, from this seat's end view (no token). */
export function gameRecord(view, now = Date.now()) {
  const players = view.players || [];
  const me = players.find((p) => p.seat === view.seat) || {};
  return {
    room: view.room,
    game: view.game,
    finished_at: now,
    outcome: view.result.outcome,
    discards: view.result.discards,
    cards_placed: Object.values(view.web || {}).filter(Boolean).length,
    turns: view.turn,
    players: players.length,
    bots: players.filter((p) => p.bot && !p.stand_in).length,
    rules: view.modes || [],
    hints: (view.hints_taken || []).reduce((a, b) => a + b, 0),
    seat: view.seat,
    name: me.name || "",
  };
}

/** Remember a finished game once (a view seen again changes nothing). */
export function recordGame(view) {
  if (!view || view.phase !== "over" || !view.result || view.seat === null || view.seat === undefined) return false;
  const games = loadGames();
  if (games.some((g) => g.room === view.room && g.game === view.game)) return false;
  games.push(gameRecord(view));
  save(games);
  return true;
}

/** Forget every game of this list (the page's "Clear" button). */
export function clearGames() {
  try {
    localStorage.removeItem(KEY);
  } catch (err) {
    /* nothing kept anyway */
  }
}
