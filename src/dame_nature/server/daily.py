"""The daily deal: each day (UTC) one deal per player count, the same for every table.

The deal of a day and a player count is the base game dealt from a seed drawn once, by
the first node that needs it, and stored (``daily_deals``): every node reads the same
seed, and no one can work the hands out from the date (the seed is random, not a
function of the date, and no answer shows it before the table's own game is over).

A room of a daily deal (``POST /api/daily``) carries ``spec["daily"] = {"date",
"players"}`` and the deal's key (``spec["deal_key"]``, ``daily:DATE:PLAYERS``): it seats
exactly that many, its rules are fixed, its first game is the deal, and a rematch is a
new ordinary deal. When that first game ends, its result is stored with the game's end
under the deal's key (``results.py``); a table that has finished sees every table's
results on the deal and the solver's verdict on it (worked out once per deal, from the
end of the deal's first game, in the reviews' worker pool within their budget, then
stored).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from ..engine import MAX_PLAYERS, MIN_PLAYERS, get_game
from .errors import Refused
from .rooms.lobby import RulesChoice
from .rooms.model import Room

if TYPE_CHECKING:
    from .rooms import RoomManager

log = logging.getLogger("dame_nature.server.daily")

#: the advanced rules of the daily deal: the base game
DAILY_MODES: tuple[str, ...] = ()
PLAYER_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))


def today(now: float | None = None) -> dt.date:
    """The day of the daily deal: the date in UTC."""
    return dt.datetime.fromtimestamp(time.time() if now is None else now, dt.UTC).date()


def seconds_to_next(now: float | None = None) -> int:
    """Seconds until the next day's deals (midnight UTC)."""
    now = time.time() if now is None else now
    midnight = dt.datetime.combine(today(now) + dt.timedelta(days=1), dt.time(), dt.UTC)
    return max(0, int(midnight.timestamp() - now))


def parse_day(text: str) -> dt.date:
    """A ``YYYY-MM-DD`` date of a daily deal: ``daily_not_found`` for anything else,
    and for a day that has not come yet."""
    try:
        day = dt.date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise Refused("daily_not_found", "A daily deal's date is written YYYY-MM-DD.")
    if day > today():
        raise Refused("daily_not_found", "This day's deals are not dealt yet.")
    return day


def check_players(players: int) -> int:
    if players not in PLAYER_COUNTS:
        raise Refused(
            "daily_not_found",
            f"There is a daily deal for {MIN_PLAYERS} to {MAX_PLAYERS} players.",
        )
    return players


def deal_key(day: str, players: int) -> str:
    """The key of a daily deal in the results (``results.deal``)."""
    return f"daily:{day}:{players}"


def daily_of(room: Room) -> dict[str, Any] | None:
    """``{"date", "players"}`` of a room playing a daily deal, else None."""
    daily: dict[str, Any] | None = room.spec.get("daily")
    return daily


def public_table(row: dict[str, Any], slots: int, code: str) -> dict[str, Any]:
    """How a table did (a row of ``results``), as every table of the deal sees it: no
    name, no address, no room code."""
    return {
        "won": bool(row["won"]),
        "placed": int(row["cards_placed"]),
        "slots": slots,
        "discards": int(row["discards"]),
        "turns": int(row["turns"]),
        "people": int(row["people"]),
        "bots": int(row["bots"]),
        "stand_in_moves": int(row["stand_in_moves"]),
        "hints": int(row["hints"]),
        "mine": row["room"] == code,
    }


class Daily:
    """This node's side of the daily deals: drawing them, rooms of them, results, and
    the solver's verdicts (one at a time per deal on this node)."""

    def __init__(self, manager: RoomManager) -> None:
        self.manager = manager
        self.store = manager.store
        self._verdicts: dict[tuple[str, int], asyncio.Task[None]] = {}

    async def deal(self, day: dt.date, players: int) -> dict[str, Any]:
        """``{seed, verdict}`` of the day's deal for ``players`` (drawn now if it is not)."""
        return await self.store.call(
            self.store.daily_deal, day.isoformat(), players, secrets.randbits(63), time.time()
        )

    async def summary(self) -> dict[str, Any]:
        """``GET /api/daily``: today's deals, how many tables finished and won them."""
        day = today().isoformat()
        keys = {n: deal_key(day, n) for n in PLAYER_COUNTS}
        counts = await self.store.call(self.store.daily_counts, list(keys.values()))
        empty = {"finished": 0, "won": 0}
        return {
            "date": day,
            "modes": list(DAILY_MODES),
            "next_in": seconds_to_next(),
            "deals": [{"players": n, **counts.get(keys[n], empty)} for n in PLAYER_COUNTS],
        }

    async def create(self, players: int, hints: bool, address: str | None) -> Room:
        """A new room of today's deal for ``players``."""
        check_players(players)
        day = today()
        seed = (await self.deal(day, players))["seed"]
        daily = {
            "daily": {"date": day.isoformat(), "players": players},
            "deal_key": deal_key(day.isoformat(), players),  # its first game's results
        }
        rules = RulesChoice(modes=list(DAILY_MODES), seed=seed, hints=hints)
        return await self.manager.create(rules, address, daily=daily)

    # ---------------------------------------------------------------- results
    def game_over(self, room: Room) -> None:
        """After a change: when a daily room's game of the deal has just ended, the
        solver starts on the deal's verdict (unless it is known)."""
        daily = daily_of(room)
        state = room.state
        if daily is None or room.game_no != 1 or state is None or not state.is_over:
            return
        self._start_verdict(daily["date"], daily["players"], state.setup)

    async def results(
        self, day_text: str, players: int, code: str, token: str | None
    ) -> dict[str, Any]:
        """``GET /api/daily/{date}/{players}/results`` for the table of room ``code``
        (its seat or host ``token``), once its game of the deal is over."""
        day = parse_day(day_text).isoformat()
        check_players(players)
        if token is None:
            raise Refused("missing_token", "This needs your seat token (Authorization: Bearer).")
        room = await self.manager.get(code)
        if room.seat_for_token(token) is None and not room.is_host(token):
            raise Refused("invalid_token", "This token is not a seat of this room.")
        daily = daily_of(room)
        if daily is None or daily["date"] != day or daily["players"] != players:
            raise Refused("not_this_daily", "This room does not play this daily deal.")
        found = await self.store.call(self.store.find_daily_deal, day, players)
        if found is None:
            raise Refused("daily_not_found", "No table has played this deal.")
        over = room.game_no > 1 or (room.state is not None and room.state.is_over)
        if not over:
            raise Refused(
                "daily_not_finished",
                "The other tables' results show once your own game of this deal is over.",
            )
        rows = await self.store.call(self.store.results, deal=deal_key(day, players))
        verdict = found["verdict"]
        if verdict is None:
            self._start_verdict(day, players, await self._deal_setup(room))
        slots = len(get_game(players, DAILY_MODES).topology.empty_web())
        return {
            "date": day,
            "players": players,
            "finished": len(rows),
            "won": sum(1 for row in rows if row["won"]),
            "tables": [public_table(row, slots, room.code) for row in rows],
            "verdict": {"status": "pending", "verdict": "unknown", "turns": None}
            if verdict is None
            else {"status": "done", **verdict},
        }

    async def _deal_setup(self, room: Room) -> dict[str, Any]:
        """The first state's setup of the room's deal (its game 1)."""
        if room.game_no == 1 and room.state is not None:
            return room.state.setup
        game = get_game(room.spec["daily"]["players"], DAILY_MODES)
        return game.new_initial_state(seed=room.spec["seed"]).setup

    # ---------------------------------------------------------------- the verdict
    def _start_verdict(self, day: str, players: int, setup: dict[str, Any]) -> None:
        key = (day, players)
        if key in self._verdicts:
            return
        task = asyncio.get_running_loop().create_task(self._verdict(key, dict(setup)))
        self._verdicts[key] = task
        task.add_done_callback(lambda _: self._verdicts.pop(key, None))

    async def _verdict(self, key: tuple[str, int], setup: dict[str, Any]) -> None:
        found = await self.store.call(self.store.find_daily_deal, *key)
        if found is None or found["verdict"] is not None:
            return  # worked out meanwhile (on another node, or before a restart)
        try:
            verdict = await self.manager.reviews.solve_deal(setup)
        except (asyncio.CancelledError, KeyboardInterrupt, SystemExit):
            raise
        except BaseException as err:  # the solver's trouble: asked again later
            log.warning("verdict on the daily deal %s failed: %r", key, err)
            return
        try:
            await self.store.call(self.store.set_daily_verdict, key[0], key[1], verdict)
        except Exception as err:
            log.warning("verdict on the daily deal %s not stored: %r", key, err)

    async def close(self) -> None:
        for task in list(self._verdicts.values()):
            task.cancel()
