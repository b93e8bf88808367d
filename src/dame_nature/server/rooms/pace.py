"""Paced rooms: a game over days. The room rule ``turn_limit_seconds`` gives each seat
that long to act from the moment the table started waiting for it; past it, a bot plays
that seat's one decision (it programs, says ready, chooses a place, gives back), logged
as a stand-in (``reason: "turn_limit"``), and the person keeps the seat.

The clocks are stored with the room (``rooms.waiting``: each seat the table waits for
and since when; ``rooms.turn_due``: the earliest deadline), in the same transaction as
the action that set them, so a node restarted after a crash plays the overdue decisions
at once. A timer per room wakes at its next deadline; the node leading the room (the
bots' lead: one node at a time) plays them, and every stand-in is checked again under
the room's lock and stored with a compare-and-set, so a decision is played once.
A node also looks, now and then, for overdue rooms that no node holds in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any

from ..bot_driver import default_level
from ..bot_pool import BotFailure, BotPool
from ..errors import Refused
from ..store import BaseStore
from .commit import Commit
from .model import Room
from .play import act_when_late
from .registry import Registry

log = logging.getLogger("dame_nature.server")

#: the pause before an overdue decision that could not be played is tried again (no
#: lead, the store down, a refused move)
RETRY_SECONDS = 2.0


def overdue(room: Room, now: float) -> list[tuple[int, float]]:
    """The seats played by a person whose clock ran out at ``now``, with since when."""
    return [
        (clock["seat"], clock["since"])
        for clock in room.turn_clocks()
        if clock["due"] is not None and clock["due"] <= now
    ]


#: what a stand-in never plays for a late seat: a Symbiosis is the person's to offer,
#: and taking back "ready" decides nothing
NEVER = frozenset({"show", "give", "swap_discard", "unready"})


def decision(view: dict[str, Any], proposed: dict[str, Any] | None) -> dict[str, Any] | None:
    """The one decision a stand-in plays for a seat whose clock ran out, from the bot's
    ``proposed`` action and the seat's view: during programming, a card programmed (the
    bot's choice of card) or, with a card programmed already, ready (the person's card
    stays); else the choice the game awaits from the seat (a place, a card given back, a
    side), the bot's if it is legal. Never a Symbiosis. None: nothing to play."""
    legal = [a for a in view.get("legal_actions") or [] if isinstance(a, dict)]
    allowed = [a for a in legal if a.get("type") not in NEVER]
    if view.get("phase") == "programming" and not view.get("awaiting"):
        if view.get("programmed") is not None and {"type": "ready"} in allowed:
            return {"type": "ready"}
        programs = [a for a in allowed if a.get("type") == "program"]
        if view.get("programmed") is None and programs:
            return proposed if proposed in programs else programs[0]
    if proposed in allowed:
        return proposed
    return allowed[0] if allowed else None


class TurnClocks:
    """The timers of the paced rooms this node holds, and the stand-ins they play."""

    def __init__(self, commit: Commit, registry: Registry, store: BaseStore, pool: BotPool) -> None:
        self.commit = commit
        self.registry = registry
        self.store = store
        self.pool = pool
        self._running: set[str] = set()  # rooms whose round runs (armed again after it)
        self._tasks: set[asyncio.Task[None]] = set()

    def arm(self, room: Room, delay: float | None = None) -> None:
        """Wake at ``room``'s next deadline (``delay``: after that long instead)."""
        if room.turn_timer is not None:
            room.turn_timer.cancel()
            room.turn_timer = None
        if delay is None and room.turn_limit is None:  # a live room: ``turn_clocks`` empty
            return
        if self.registry.rooms.get(room.code) is not room:
            return
        if delay is None:
            dues = [c["due"] for c in room.turn_clocks() if c["due"] is not None]
            if not dues:
                return
            delay = max(0.0, min(dues) - time.time())
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        room.turn_timer = loop.call_later(delay, self._fire, room)

    def forget(self, room: Room | None) -> None:
        if room is not None and room.turn_timer is not None:
            room.turn_timer.cancel()
            room.turn_timer = None

    def _fire(self, room: Room) -> None:
        room.turn_timer = None
        if room.code in self._running:
            return  # the running round arms the next deadline when done
        self._running.add(room.code)
        task = asyncio.create_task(self._round(room), name=f"turns-{room.code}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _round(self, room: Room) -> None:
        retry = False
        try:
            retry = not await self._play_overdue(room)
        except Exception:  # never let one room's clock stop
            log.exception("turn clock of room %s failed", room.code)
            retry = True
        finally:
            self._running.discard(room.code)
        # the next deadline (a timer woken a little early finds nothing overdue yet)
        self.arm(room, RETRY_SECONDS if retry else None)

    async def _play_overdue(self, room: Room) -> bool:
        """Play every overdue decision of ``room``; False when one is left that could not
        be played (no lead, the store, a refusal): tried again after a pause."""
        if self.registry.rooms.get(room.code) is not room:
            return True
        if not await self.commit.coordination.may_drive_bots(room.code):
            return False  # the node leading the room plays them (or will, once it leads)
        async with room.lock:
            late = overdue(room, time.time())
        played = False
        for seat, since in late:
            async with room.lock:
                if (seat, since) not in overdue(room, time.time()):
                    continue  # acted meanwhile (or already played for)
                game, view = room.game_no, room.view(seat)
            level = default_level()
            action = decision(view, await self._decide(room.code, game, seat, level, view))
            if action is None:
                continue
            try:
                played |= await act_when_late(self.commit, room, seat, action, game, since, level)
            except Refused as err:
                log.info("stand-in of seat %d in room %s refused (%s)", seat, room.code, err.code)
        async with room.lock:
            left = overdue(room, time.time())
        return played or not left

    async def _decide(
        self, code: str, game: int, seat: int, level: str, view: dict[str, Any]
    ) -> dict[str, Any] | None:
        key, seed = (code, game, seat, level), secrets.randbits(32)
        with contextlib.suppress(BotFailure):
            return await self.pool.decide(key, seed, view)
        return None  # the bot failed: ``decision`` plays the first legal move

    async def run(self, every: float) -> None:
        """Now and then: load the overdue paced rooms that no node holds in memory (their
        clocks then start), e.g. rooms another node let go."""
        while True:
            try:
                codes = await self.store.call(self.store.due_rooms, time.time())
                for code in codes:
                    if code not in self.registry.rooms:
                        with contextlib.suppress(Refused):
                            await self.registry.get(code)
            except Exception:
                log.exception("looking for overdue paced rooms failed")
            await asyncio.sleep(every)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
