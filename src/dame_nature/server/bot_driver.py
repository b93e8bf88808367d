"""The bot seats of each room, played by one driver task per room.

A room whose game is being played and that has a bot seat gets exactly one driver (an
``asyncio`` task), woken after every change of the room. Each round, for every bot seat
the game waits for, it takes the seat's view (a snapshot under the room lock, exactly what
that seat's websocket would carry: the bot sees nothing else), asks the bot for its
action off the event loop (``BotPool``), waits until ``bot_delay_seconds`` have passed
since the change (people follow what happens; ``bot_end_grace_seconds`` before it ends
a lost game beside a person, who reads why on the table first: the view's
``lost_reason``), then plays it through the same path as a person's
(``rooms.play.act_as_bot``: the lock, the engine's check, saved before it is broadcast).

A bot that raises or keeps sending refused actions is logged and that seat is played by
the ``random`` level for the rest of the game; a move thought over past the budget is
played by a quick policy (that move only): an expert's by the ``greedy`` player, who
never shows, gives or swaps, so a slow machine never breaks the experts' show chain
with a random Symbiosis; the room never stops. A bot that
answers "nothing to do" while only bots can move the game on is helped the same way for
that decision, so a game of bots never stalls.

A move the store could not save (``not_saved``, ``store_unavailable``: a full disk, a
database down) is not the bot's fault: it counts as no refusal, and the driver tries
again by itself after a pause that doubles from ``RETRY_FIRST_SECONDS`` up to
``RETRY_MAX_SECONDS``, so the bots resume within seconds of the store coming back. A
move this node may not play because it does not hold the room's bots' lead (another
node's, or lost while the store was down) is asked again the same way.

The driver ends by itself when the game is over, when no bot seat is left, or when the
room leaves memory; ``stop`` cancels it (expiry, shutdown).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from .bot_pool import Asker, BotFailure, BotKey, BotPool, BotTimeout
from .errors import Refused

if TYPE_CHECKING:
    from .rooms.model import Room

#: plays the action of a room's bot seat, decided during a game: (room, seat, action,
#: game) -> whether it was played (``rooms.play.act_as_bot``)
ActAsBot = Callable[["Room", int, dict[str, Any], int], Awaitable[bool]]

log = logging.getLogger("dame_nature.server.bots")

#: refused actions in a row after which a bot seat falls back to the ``random`` level
MAX_REFUSALS = 3
#: refusals that say the store could not write (the move is tried again, later)
STORE_REFUSALS = frozenset({"not_saved", "store_unavailable"})
#: the first pause before a move the store refused is tried again, and the longest
RETRY_FIRST_SECONDS = 0.5
RETRY_MAX_SECONDS = 5.0


class BotDrivers:
    """The driver tasks of every room with bot seats (one per room at most)."""

    def __init__(
        self,
        act: ActAsBot,
        holds: Callable[[Room], bool],
        pool: BotPool,
        delay_seconds: float,
        *,
        end_grace_seconds: float = 0.0,
    ) -> None:
        #: plays a bot's action like a person's (the room's lock, checks, commit)
        self.act = act
        #: whether this node still holds the room (a room that left memory stops)
        self.holds = holds
        self.pool = pool
        self.delay_seconds = delay_seconds
        #: the pause before a bot ends a lost game while a person is seated
        self.end_grace_seconds = end_grace_seconds
        #: the client address a room's bots think for (``BotRooms.client_of``): the
        #: pool's turns are shared client by client
        self.client_of: Callable[[str], str] = lambda code: code
        self._drivers: dict[str, _Driver] = {}

    def __len__(self) -> int:
        return sum(1 for d in self._drivers.values() if not d.task.done())

    def notify(self, room: Room) -> None:
        """The room changed: wake its driver, starting one if its bots have work."""
        driver = self._drivers.get(room.code)
        if driver is not None and (driver.room is not room or driver.task.done()):
            if not driver.task.done():
                driver.task.cancel()
            driver = None
            del self._drivers[room.code]
        if driver is None:
            if not _needs_driver(room):
                return
            driver = _Driver(self, room)
            self._drivers[room.code] = driver
        driver.wake.set()

    def stop(self, code: str) -> None:
        """Cancel the driver of room ``code`` (it expired or left memory)."""
        driver = self._drivers.pop(code, None)
        if driver is not None:
            driver.task.cancel()
        self.pool.forget(code)

    async def close(self) -> None:
        drivers = list(self._drivers.values())
        self._drivers.clear()
        for driver in drivers:
            driver.task.cancel()
        for driver in drivers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await driver.task
        await asyncio.to_thread(self.pool.close)

    def finished(self, driver: _Driver) -> None:
        if self._drivers.get(driver.room.code) is driver:
            del self._drivers[driver.room.code]
            self.pool.forget(driver.room.code)


def bot_levels() -> tuple[str, ...]:
    """The bot levels a seat may be given (``dame_nature.bots.LEVELS``)."""
    from ..bots import LEVELS

    return tuple(LEVELS)


def default_level() -> str:
    """The level of a bot when none is asked for (``dame_nature.bots.DEFAULT_LEVEL``)."""
    from ..bots import DEFAULT_LEVEL

    return str(DEFAULT_LEVEL)


def _needs_driver(room: Room) -> bool:
    if room.status != "playing":
        return False
    # a loop, not ``any`` of a generator (its frame and its object): after every change
    for player in room.players:  # noqa: SIM110
        if player.bot:
            return True
    return False


def person_waiting(room: Room) -> bool:
    """Whether a person sits at the table now (a seat no bot plays, connected): their
    room's bots are thought for before rooms of bots only."""
    return any(p.bot is None and room.connected(p.seat) for p in room.players)


class _Driver:
    """The task playing the bot seats of one room."""

    def __init__(self, drivers: BotDrivers, room: Room) -> None:
        self.drivers = drivers
        self.room = room
        self.wake = asyncio.Event()
        self.seeds: dict[tuple[int, int], int] = {}
        self.fallback: set[tuple[int, int]] = set()  # (game, seat) played at ``random``
        self.refusals: dict[int, int] = {}
        self.game: int | None = None  # the game whose bots the pool holds
        self.again = False  # a move of this round to try again later (store down, no lead)
        self.backoff = 0.0  # the pause before trying again, doubled while the store fails
        self.retry: asyncio.TimerHandle | None = None
        self.task = asyncio.create_task(self._run(), name=f"bots-{room.code}")
        self.task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        if self.retry is not None:
            self.retry.cancel()
        if not task.cancelled() and task.exception() is not None:
            log.error("bot driver of room %s failed", self.room.code, exc_info=task.exception())
        self.drivers.finished(self)

    def _alive(self) -> bool:
        room = self.room
        return self.drivers.holds(room) and _needs_driver(room)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self.wake.wait()
            self.wake.clear()
            if not self._alive():
                return
            self.again = False
            try:
                await self._round(loop.time())
            except Exception:  # never let one round kill the room's bots
                log.exception("bot round of room %s failed", self.room.code)
                self.again = True
            self._schedule_retry(loop)

    def _schedule_retry(self, loop: asyncio.AbstractEventLoop) -> None:
        """After a round the store failed: wake again after a pause that doubles while it
        keeps failing (nothing else may ever wake a room of bots)."""
        if self.retry is not None:
            self.retry.cancel()
            self.retry = None
        if not self.again:
            self.backoff = 0.0
            return
        self.backoff = min(RETRY_MAX_SECONDS, max(RETRY_FIRST_SECONDS, self.backoff * 2))
        self.retry = loop.call_later(self.backoff, self.wake.set)

    async def _round(self, woken: float) -> None:
        """Each bot seat the game waits for, in seat order: its view (taken just before it
        thinks, so it sees what the bots before it did), its decision, and once the
        pause since the change has passed, its action, played at once. A bot may have
        nothing to do yet (an expert waits for the revealers before it to settle their
        programs); only when no bot moved in a whole round while the game waits for bots
        alone does the first idle one play a ``random`` move, so the game never stalls."""
        async with self.room.lock:
            seats = sorted(self._asked()[0])
            game = self.room.game_no
        if game != self.game:  # a rematch: the last game's bots are of no more use
            if self.game is not None:
                self.drivers.pool.forget(self.room.code)
            self.game = game
        idle: tuple[int, dict[str, Any]] | None = None  # the first seat with nothing to do
        moved = False
        for seat in seats:
            async with self.room.lock:
                asked, only_bots = self._asked()
                if seat not in asked:
                    continue
                game, view = self.room.game_no, self.room.view(seat)
            action = await self._decide(game, seat, view)
            if action is None:
                # a bot may wait for another (experts show their programs in reveal order)
                idle = idle or (seat, view)
                continue
            await self._act(woken, game, seat, view, action)
            moved = True
            if not self._alive():
                return
        if not moved and idle is not None:
            async with self.room.lock:
                asked, only_bots = self._asked()
                current = self.room.view(idle[0]) if idle[0] in asked else None
            if only_bots and current is not None and current["version"] == idle[1]["version"]:
                # no bot moved this round, yet no one else can move the game on: never stall
                seat, view = idle[0], current
                action = await self._decide(game, seat, view, fallback=True)
                if action is not None:
                    await self._act(woken, game, seat, view, action)

    async def _act(
        self, woken: float, game: int, seat: int, view: dict[str, Any], action: dict[str, Any]
    ) -> None:
        """Play ``action`` once the pause since the change has passed (the longer
        ``end_grace_seconds`` before ending a lost game while a person is seated: the
        view says why it is lost, and the person may look at the table first)."""
        delay = self.drivers.delay_seconds
        if action.get("type") == "end_game" and any(p.bot is None for p in self.room.players):
            delay = max(delay, self.drivers.end_grace_seconds)
        pause = woken + delay - asyncio.get_running_loop().time()
        if pause > 0:
            await asyncio.sleep(pause)
        if self._alive():
            await self._play(game, seat, int(view["version"]), action)

    def _asked(self) -> tuple[set[int], bool]:
        """Under the lock: the bot seats to ask now (those the game waits for; all of
        them once it cannot be won, as any may end it), and whether only bots can move
        the game on."""
        state = self.room.state
        if state is None or state.is_over:
            return set(), False
        bots = {p.seat for p in self.room.players if p.bot}
        waiting = state.current_players()
        asked = bots if not state.is_winnable() else bots & waiting
        return asked, bool(waiting) and waiting <= bots

    def _key(self, game: int, seat: int) -> tuple[BotKey, int]:
        level = self.room.players[seat].bot or "random"
        if (game, seat) in self.fallback:
            level = "random"
        seed = self.seeds.get((game, seat))
        if seed is None:
            seed = self.seeds[(game, seat)] = secrets.randbits(32)
        return (self.room.code, game, seat, level), seed

    async def _decide(
        self, game: int, seat: int, view: dict[str, Any], *, fallback: bool = False
    ) -> dict[str, Any] | None:
        pool = self.drivers.pool
        key, seed = self._key(game, seat)
        if fallback:
            return await pool.decide_fallback(key, seed, view)
        room = self.room
        asker = Asker(room.code, self.drivers.client_of(room.code), lambda: person_waiting(room))
        try:
            return await pool.decide(key, seed, view, asker)
        except BotTimeout as err:  # this move only: the next may be quicker
            log.info("bot of seat %d in room %s: %s", seat, self.room.code, err)
            quick = "greedy" if key[3] == "expert" else "random"
            return await pool.decide_fallback(key, seed, view, level=quick)
        except BotFailure as err:
            self._fall_back(game, seat, f"{err}")
        return await pool.decide_fallback(key, seed, view)

    def _fall_back(self, game: int, seat: int, why: str) -> None:
        if (game, seat) not in self.fallback:
            level = self.room.players[seat].bot
            log.warning(
                "bot (%s) of seat %d in room %s: %s; the random level plays it from now on",
                level,
                seat,
                self.room.code,
                why,
            )
            self.fallback.add((game, seat))

    async def _play(self, game: int, seat: int, version: int, action: dict[str, Any]) -> None:
        try:
            played = await self.drivers.act(self.room, seat, action, game)
        except Refused as err:
            if err.code in STORE_REFUSALS:
                log.info(
                    "bot of seat %d in room %s: the store refused its move (%s); trying again",
                    seat,
                    self.room.code,
                    err.code,
                )
                self.again = True
                return
            stale = self.room.version != version
            count = self.refusals.get(seat, 0) + 1
            self.refusals[seat] = count
            log.info(
                "bot of seat %d in room %s refused (%s%s): %s",
                seat,
                self.room.code,
                err.code,
                ", view out of date" if stale else "",
                action,
            )
            had_fallen_back = (game, seat) in self.fallback
            if count >= MAX_REFUSALS:
                self._fall_back(game, seat, f"{count} refused actions in a row")
                self.refusals[seat] = 0
            if not had_fallen_back:
                self.wake.set()  # think again (a change wakes the driver anyway)
        else:
            self.refusals[seat] = 0
            room = self.room
            seated = seat < len(room.players) and room.players[seat].bot is not None
            if not played and room.game_no == game and seated:
                # not this node's to drive now (the bots' lead is another node's, or was
                # lost with the store): ask again later, the lead may be free by then
                self.again = True
