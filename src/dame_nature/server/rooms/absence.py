"""Seats that count as absent, and the host role passing on (``seating.py`` says when).

A seat's absence changes what the views say with no request at all, so each room has a
timer for the moment its next seat counts as absent: then every seat gets a new version
(``players[].absent``), and the host role passes on from an absent host seat to the
person seated longest who is connected. The role also passes when such a person
connects, or when a bot takes the host's seat. In a cluster, the node leading the room
decides and stores it; the others catch up.
"""

from __future__ import annotations

import asyncio
import logging
import time

from ..seating import host_to_pass
from .commit import Commit
from .model import Room
from .registry import Registry

log = logging.getLogger("dame_nature.server")


class Absence:
    def __init__(self, commit: Commit, registry: Registry) -> None:
        self.commit = commit
        self.registry = registry
        self._tasks: set[asyncio.Task[None]] = set()

    def arm(self, room: Room) -> None:
        """Wake up when the next seat of ``room`` counts as absent (at once when the last
        views said otherwise than now)."""
        if (
            not room.presence.away_since
            and room.absent_timer is None
            and not room.shown_absent
            and room.present.issuperset(range(len(room.players)))
        ):
            # every seat connected, as before, and none shown absent: nothing is due
            # (what the steps below find then, without their calls)
            return
        room.presence.update(len(room.players), room.present)
        if room.absent_timer is not None:
            room.absent_timer.cancel()
            room.absent_timer = None
        due = room.presence.next_due(room.absent_limit)
        if room.absent_now() != room.shown_absent:
            due = 0.0
        if due is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # restoring before the server runs: the first change arms it
            return
        room.absent_timer = loop.call_later(due + 0.05, self._due, room.code)

    def _due(self, code: str) -> None:
        task = asyncio.ensure_future(self._absent(code))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _absent(self, code: str) -> None:
        room = self.registry.rooms.get(code)
        if room is None:
            return
        async with room.lock:
            room.absent_timer = None
            try:
                await self.pass_host(room)
                if room.absent_now() != room.shown_absent and await self.commit.coordination.bump(
                    room
                ):
                    self.commit.hub.broadcast(room)
            except Exception:
                log.exception("room %s: absent seats not told", code)
            self.arm(room)

    async def presence(self, room: Room, arrived: bool) -> None:
        """Under the lock, a seat came (the host role may pass to them) or went."""
        if arrived:
            try:
                await self.pass_host(room)
            except Exception:
                log.exception("room %s: the host role could not pass on", room.code)
        self.arm(room)

    async def pass_host(self, room: Room) -> None:
        """Under the room's lock: the host role passes on when its seat counts as absent
        (or a bot plays it) and a person is connected. Not stored (another node wrote
        first, the store failed): it stays, and is tried again at the next change."""
        seat = host_to_pass(room.players, room.present, room.presence, room.absent_limit)
        if seat is None:
            return
        commit = self.commit
        if not await commit.coordination.may_drive_bots(room.code):
            return  # the node leading the room decides
        now = time.time()
        try:
            await commit.save(room, commit.store.set_host, room.code, seat, now=now)
        except Exception:
            return
        for player in room.players:
            player.host = player.seat == seat
        room.host_passed = True
        room.add_event("host", seat)
        commit.changed(room, now)
