"""Soak test of the game server under hostile traffic: a real ``dame-nature serve`` on
loopback, N rooms of websocket bots playing random legal games with rematches for M
minutes, while hostile clients come back every interval:

- a client flooding 1-byte frames that never reads its socket,
- a client flooding pings that reads its socket,
- idle and slow-header connections,
- a seat token reconnecting in a loop,
- a crowd of anonymous spectators on a bot room (more than the room takes),
- a room-creation flood from one address, and a body of deeply nested JSON;

and, before it all, a write flood: 10 rooms of 6 seats, each room from its own address,
whose every seat flips its programmed card as fast as it is answered (``--flood-seconds``).

``--bot-flood SECONDS`` measures instead how long a person playing solo with two expert
bots waits for them each turn, first alone for SECONDS, then while one address creates
rooms of 6 expert bots as fast as the server lets it, starts them and plays each again
("Play again") as soon as it is over, for SECONDS: the turn times (median, p90), and what
the flooding address was answered. ``--src`` serves another checkout's package (to
compare two versions on the same machine, in alternating rounds).

Every client runs on this machine, so the server is told that 127.0.0.1 is a trusted
proxy and each client gives its own address in ``X-Forwarded-For`` (a bot room's
seats one address each, each attacker another): the per-address limits then apply to
the attackers as they would on the internet, not to the bots.

Each interval prints the server's RSS, open files, ``/healthz`` latency (median and
max, sampled every 0.5 s), the bots' actions, games and refusals, and what the hostile
clients met; and where the server's memory is (``_support/heap_probe.py``, which runs
the server and answers ``SIGUSR2``): Python's allocator (its blocks in use and its
arenas), the objects the collector tracks, the C allocator (in use and free), SQLite's
memory, and the entries and memory of the server's registries and caches (rooms,
reviews kept and under way, per-seat rates). At the end it compares each of these after
the first interval (the warm-up), at the middle of the rest and at the end: a growth in
the first half that stops in the second is a warm-up (caches filling to their bound),
one that goes on at the same pace a leak. The last lines are ``soak_rss_growth_mib: N``
(the RSS at the end less the RSS after the first interval), ``soak_rss_mib`` (the RSS at
the end), ``soak_wal_mib`` (the size of the SQLite WAL at the end), and the growth over
each half of the RSS (``soak_rss_mib_growth_halves: A B``) and of Python's blocks in use
(``soak_python_blocks_growth_halves: A B``). ``--tracemalloc FRAMES`` also traces the
server's allocations from the first interval on and prints the tracebacks whose memory
grew most (it slows the server down several times: for finding a leak, not for figures).

    python benchmarks/soak.py                         # 20 rooms of 4 bots, 10 minutes
    python benchmarks/soak.py --rooms 5 --minutes 1 --interval 20
    python benchmarks/soak.py --bot-flood 90              # a solo room's bots, flooded
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from _support.heap_probe import ask
from _support.hostile_clients import (  # this script's folder is on sys.path
    count_closed,
    flood,
    idle_connections,
    open_files,
    raw_websocket,
    rss_mib,
    slow_headers,
)
from _support.live_server import ServerProcess
from _support.scripted import scripted_action
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from dame_nature.bots import make_bot

ROOT = Path(__file__).resolve().parents[1]


def xff(address: str) -> dict[str, str]:
    return {"x-forwarded-for": address}


class Bot:
    """One seat: its socket and the last view it received."""

    def __init__(self, ws: ClientConnection, room: BotRoom) -> None:
        self.ws = ws
        self.room = room
        self.view: dict[str, Any] | None = None

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                if message["type"] == "state":
                    self.view = message["view"]
                elif message["type"] == "error":
                    self.room.refusals.append(message["error"]["code"])
                self.room.wake.set()
        except ConnectionClosed:
            self.room.dropped += 1
            self.room.wake.set()


class BotRoom:
    """A room of bots playing random legal moves from their own views, one action at a
    time after a think time, with a rematch after every game."""

    def __init__(self, index: int, seats: int, think: float) -> None:
        self.index = index
        self.seats = seats
        self.think = think
        self.rng = random.Random(index)
        self.bots: list[Bot] = []
        #: the random level of the bots, one a seat, deciding from that seat's view
        self.players = [make_bot("random", s, seed=index * seats + s) for s in range(seats)]
        self.wake = asyncio.Event()
        self.code = self.host = ""
        self.tokens: list[str] = []
        self.actions = self.games = self.dropped = 0
        self.refusals: list[str] = []

    def address(self, seat: int) -> str:
        return f"10.1.{self.index}.{seat + 1}"

    async def open(self, server: ServerProcess, http: httpx.AsyncClient) -> None:
        created = await http.post("/api/rooms", json={}, headers=xff(self.address(0)))
        created.raise_for_status()
        self.code, self.host = created.json()["room"], created.json()["host_token"]
        for seat in range(self.seats):
            joined = await http.post(
                f"/api/rooms/{self.code}/players",
                json={"name": f"bot{seat}"},
                headers=xff(self.address(seat)),
            )
            joined.raise_for_status()
            self.tokens.append(joined.json()["token"])
        for seat, token in enumerate(self.tokens):
            ws = await connect(
                f"{server.ws_url}/api/rooms/{self.code}/ws",
                subprotocols=["dame-nature", f"dame-nature.token.{token}"],  # type: ignore[list-item]
                additional_headers=xff(self.address(seat)),
                max_size=2**22,
            )
            bot = Bot(ws, self)
            self.bots.append(bot)
            asyncio.get_running_loop().create_task(bot.read())
        started = await http.post(
            f"/api/rooms/{self.code}/start",
            headers={"Authorization": f"Bearer {self.host}", **xff(self.address(0))},
        )
        started.raise_for_status()

    def version(self) -> int:
        return min((b.view or {}).get("version", -1) for b in self.bots)

    def choose(self) -> tuple[int, dict[str, Any]] | None:
        """A move of the bots' random level for one of the seats the table waits for,
        from that seat's own view; None when there is none."""
        first = self.bots[0].view
        if first is None or first.get("phase") in (None, "over", "lobby"):
            return None
        seats = list(first["to_act"])
        self.rng.shuffle(seats)
        for seat in seats:
            view = self.bots[seat].view
            action = self.players[seat].act(view) if view is not None else None
            if action is not None:
                return seat, action
        return None

    async def play(self, until: float, http: httpx.AsyncClient) -> None:
        while time.monotonic() < until:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
            before = self.version()
            first = self.bots[0].view or {}
            if first.get("phase") == "over":
                await http.post(
                    f"/api/rooms/{self.code}/rematch",
                    headers={"Authorization": f"Bearer {self.host}", **xff(self.address(0))},
                )
                self.games += 1
            else:
                chosen = self.choose()
                if chosen is None:
                    await self._wait(before + 1, 2)
                    continue
                seat, action = chosen
                try:
                    await self.bots[seat].ws.send(json.dumps({"type": "action", "action": action}))
                except ConnectionClosed:
                    return
                self.actions += 1
            await self._wait(before + 1, 10)

    async def _wait(self, version: int, seconds: float) -> None:
        end = time.monotonic() + seconds
        while self.version() < version and time.monotonic() < end:
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), end - time.monotonic())
            except TimeoutError:
                return


async def health_sampler(url: str, until: float, samples: list[float]) -> None:
    async with httpx.AsyncClient(timeout=10) as client:
        while time.monotonic() < until:
            start = time.monotonic()
            try:
                ok = (await client.get(url + "/healthz")).status_code == 200
            except httpx.HTTPError:
                ok = False
            samples.append(time.monotonic() - start if ok else 10.0)
            await asyncio.sleep(0.5)


async def hostile_round(
    server: ServerProcess, rooms: list[BotRoom], round_no: int, http: httpx.AsyncClient
) -> dict[str, Any]:
    """Every hostile client once, each bounded to a few seconds; what they met."""
    target = rooms[round_no % len(rooms)]
    met: dict[str, Any] = {}
    base = f"/api/rooms/{target.code}/ws"

    async def deaf_flood() -> None:
        sock = await raw_websocket(
            server.port, base, receive_buffer=4096, headers=xff(f"10.66.{round_no}.1")
        )
        await flood(sock, 3.0)
        met["deaf_close"] = await sock.close_code(timeout=10)
        sock.close()

    async def ping_flood() -> None:
        url = server.ws_url + base
        async with connect(url, additional_headers=xff(f"10.66.{round_no}.2")) as ws:

            async def reads() -> None:  # a client that reads what it is sent
                with contextlib.suppress(ConnectionClosed):
                    async for _ in ws:
                        pass

            reader = asyncio.create_task(reads())
            try:
                for _ in range(3000):
                    await ws.send('{"type":"ping"}')
                    await asyncio.sleep(0)
                await asyncio.wait_for(ws.wait_closed(), 5)
            except (ConnectionClosed, TimeoutError):
                pass
            met["ping_close"] = ws.close_code if ws.close_code is not None else "open"
            reader.cancel()

    async def idle_and_slow() -> None:
        idle = await idle_connections(server.port, 50)
        met["slow_closed"] = await slow_headers(server.port, 50, seconds=14.0, every=1.0)
        met["idle_closed"] = count_closed(idle)
        for sock in idle:
            sock.close()

    async def flapping_seat() -> None:
        refused = accepted = 0
        token = target.tokens[0]
        end = time.monotonic() + 3
        while time.monotonic() < end:
            try:
                async with connect(
                    server.ws_url + base,
                    subprotocols=["dame-nature", f"dame-nature.token.{token}"],  # type: ignore[list-item]
                    additional_headers=xff(target.address(0)),
                ) as ws:
                    first = json.loads(await ws.recv())
                    accepted += first["type"] == "state"
                    refused += first["type"] == "error"
            except (ConnectionClosed, OSError):
                refused += 1
        met["flap"] = f"{accepted}ok/{refused}refused"

    async def spectator_crowd() -> None:
        async def one(i: int) -> tuple[ClientConnection, bool]:
            address = xff(f"10.67.{round_no}.{i}")
            ws = await connect(server.ws_url + base, additional_headers=address)
            return ws, json.loads(await ws.recv())["type"] == "error"

        crowd = await asyncio.gather(*(one(i) for i in range(70)))
        await asyncio.sleep(2)
        for ws, _ in crowd:
            await ws.close()
        met["spectators_refused"] = sum(refused for _, refused in crowd)

    async def create_flood() -> None:
        codes = []
        for _ in range(40):
            answer = await http.post("/api/rooms", json={}, headers=xff(f"10.68.{round_no}.1"))
            codes.append(answer.status_code)
        deep = "[" * 1000 + "]" * 1000
        answer = await http.post(
            "/api/rooms",
            content=deep,
            headers={"content-type": "application/json", **xff(f"10.68.{round_no}.2")},
        )
        met["creates"] = f"{codes.count(201)}ok/{codes.count(429)}refused"
        met["deep_json"] = answer.status_code

    tasks = [deaf_flood(), ping_flood(), idle_and_slow(), flapping_seat(), spectator_crowd(),
             create_flood()]  # fmt: skip
    results = await asyncio.gather(*tasks, return_exceptions=True)
    errors = [repr(r) for r in results if isinstance(r, BaseException)]
    if errors:
        met["client_errors"] = errors
    return met


async def probe_heap(server: ServerProcess, path: Path) -> dict[str, Any]:
    """Where the server's memory is now: a line of ``_support/heap_probe.py``."""
    assert server.proc is not None
    return await asyncio.to_thread(ask, server.proc, path)


def heap_line(line: dict[str, Any]) -> str:
    mib = 2**20
    malloc = line.get("malloc") or {}
    traced = f"  traced {line['traced'] / mib:.1f} MiB" if "traced" in line else ""
    held = dict(line.get("held") or {})
    by_status = held.pop("rooms_by_status", None)
    kept = "; ".join(
        f"{name} {entries}" + (f" ({kib:,.0f} KiB)" if kib is not None else "")
        for name, (entries, kib) in held.items()
    )
    return (
        f"python blocks {line['blocks'] / 1000:.0f}k, objects {line['objects_after']} "
        f"(cyclic garbage {line['unreachable']}), pymalloc arenas {line['pymalloc_arenas']}; "
        f"malloc in use {malloc.get('in_use', 0) / mib:.1f} MiB, "
        f"free {malloc.get('free', 0) / mib:.1f}, mapped {malloc.get('mmap', 0) / mib:.1f}; "
        f"sqlite {(line['sqlite_bytes'] or 0) / mib:.1f} MiB; threads {line['threads']}{traced}\n"
        f"       held: {kept}; rooms by status {by_status}"
    )


#: what the halves' table compares: a name, and how to read it from a probe's line
MEASURES: dict[str, Callable[[dict[str, Any]], float]] = {
    "RSS, MiB": lambda p: float(p["rss_mib"]),
    "Python allocator's blocks": lambda p: float(p["blocks"]),
    "objects the collector tracks": lambda p: float(p["objects_after"]),
    "pymalloc arenas": lambda p: float(p["pymalloc_arenas"] or 0),
    "malloc in use, MiB": lambda p: (p["malloc"] or {}).get("in_use", 0) / 2**20,
    "malloc free, MiB": lambda p: (p["malloc"] or {}).get("free", 0) / 2**20,
    "SQLite, MiB": lambda p: (p["sqlite_bytes"] or 0) / 2**20,
}


def halves(heap: list[dict[str, Any]]) -> dict[str, tuple[float, float, float, float]]:
    """Each measure after the first interval (the warm-up), at the middle of the rest,
    at the end, and the end's growth over the start; growth in the second half near
    zero while the first half's is not is a warm-up that flattens."""
    if len(heap) < 3:
        return {}
    start, end = heap[0], heap[-1]
    middle_time = (start["time"] + end["time"]) / 2
    middle = min(heap, key=lambda p: abs(p["time"] - middle_time))
    return {
        name: (read(start), read(middle), read(end), read(end) - read(start))
        for name, read in MEASURES.items()
    }


def print_halves(heap: list[dict[str, Any]]) -> None:
    print("heap, after the first interval / middle / end (first half, second half):")
    for name, (start, middle, end, _) in halves(heap).items():
        print(
            f"  {name}: {start:,.1f} / {middle:,.1f} / {end:,.1f} "
            f"({middle - start:+,.1f}, {end - middle:+,.1f})",
            flush=True,
        )
    grown = heap[-1].get("grown") if heap else None
    for stat in grown or []:
        print(f"  grown {stat['kib']:+.1f} KiB, {stat['count']:+d} blocks: "
              f"{' <- '.join(reversed(stat['where']))}")  # fmt: skip


async def soak(
    args: argparse.Namespace, server: ServerProcess
) -> tuple[float, list[dict[str, Any]]]:
    pid = server.proc.pid  # type: ignore[union-attr]
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        rooms = [BotRoom(i, args.seats, args.think) for i in range(args.rooms)]
        for room in rooms:
            await room.open(server, http)
        start = time.monotonic()
        until = start + args.minutes * 60
        players = [asyncio.create_task(room.play(until, http)) for room in rooms]
        print(f"{args.rooms} rooms of {args.seats} bots, {args.minutes} min, hostile clients "
              f"{'on' if args.hostile else 'off'}; server pid {pid}", flush=True)  # fmt: skip
        print("t_s  rss_mib  files  healthz_p50_ms  healthz_max_ms  actions  games  "
              "bot_refusals  bot_drops  hostile", flush=True)  # fmt: skip
        first_rss: float | None = None
        heap: list[dict[str, Any]] = []
        last_actions = 0
        round_no = 0
        while time.monotonic() < until:
            interval_end = min(until, time.monotonic() + args.interval)
            samples: list[float] = []
            sampler = asyncio.create_task(health_sampler(server.url, interval_end, samples))
            met: dict[str, Any] = {}
            if args.hostile and interval_end - time.monotonic() > 15:
                met = await hostile_round(server, rooms, round_no, http)
                round_no += 1
            await sampler
            actions = sum(r.actions for r in rooms)
            heap.append(await probe_heap(server, args.probe_out))
            rss = rss_mib(pid)
            if first_rss is None:
                first_rss = rss
            print(
                f"{time.monotonic() - start:5.0f}  {rss:7.1f}  {open_files(pid):5d}  "
                f"{statistics.median(samples) * 1000 if samples else float('nan'):14.1f}  "
                f"{max(samples) * 1000 if samples else float('nan'):14.1f}  "
                f"{actions - last_actions:7d}  {sum(r.games for r in rooms):5d}  "
                f"{sum(len(r.refusals) for r in rooms):12d}  {sum(r.dropped for r in rooms):9d}  "
                f"{json.dumps(met) if met else '-'}",
                flush=True,
            )
            print(f"       heap: {heap_line(heap[-1])}", flush=True)
            last_actions = actions
        await asyncio.gather(*players, return_exceptions=True)
        refusals: dict[str, int] = {}
        for room in rooms:
            for code in room.refusals:
                refusals[code] = refusals.get(code, 0) + 1
        print(f"bot refusals by code: {refusals or 'none'}", flush=True)
        growth = rss_mib(pid) - (first_rss or 0.0)
        print_halves(heap)
        for room in rooms:
            for bot in room.bots:
                await bot.ws.close()
        return growth, heap


async def write_flood(server: ServerProcess, seconds: float, rooms: int = 10) -> dict[str, int]:
    """Rooms of 6 seats, each its own address, whose every seat programs one card, then
    another, then the first again, as fast as it is answered, for ``seconds``: what the
    server answered, by status or code (the engine refuses a seat past its changes of
    the turn, ``too_many_changes``, so the action log stops growing)."""
    answers: dict[str, int] = {}
    end = time.monotonic() + seconds

    async def seat(http: httpx.AsyncClient, room: str, token: str, address: str) -> None:
        headers = {"Authorization": f"Bearer {token}", **xff(address)}
        view = (await http.get(f"/api/rooms/{room}/state", headers=headers)).json()
        cards, i = view["hand"][:2], 0
        while time.monotonic() < end and len(cards) == 2:
            r = await http.post(
                f"/api/rooms/{room}/actions",
                headers=headers,
                json={"type": "program", "card": cards[i % 2]},
            )
            key = "200" if r.status_code == 200 else r.json()["error"]["code"]
            answers[key] = answers.get(key, 0) + 1
            i += 1

    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        seats = []
        for k in range(rooms):
            address = f"198.51.100.{k + 1}"
            created = (await http.post("/api/rooms", json={}, headers=xff(address))).json()
            room = created["room"]
            tokens = []
            for n in range(6):
                joined = await http.post(
                    f"/api/rooms/{room}/players", json={"name": f"F{n}"}, headers=xff(address)
                )
                tokens.append(joined.json()["token"])
            auth = {"Authorization": f"Bearer {created['host_token']}", **xff(address)}
            await http.post(f"/api/rooms/{room}/start", headers=auth)
            seats += [seat(http, room, token, address) for token in tokens]
        await asyncio.gather(*seats)
    return answers


async def solo_turns(server: ServerProcess, seconds: float, address: str) -> list[float]:
    """A person (seat 0) and two expert bots, the person acting at once whenever asked:
    for each turn of the game, the seconds the person waited for the bots."""
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        created = (await http.post("/api/rooms", json={}, headers=xff(address))).json()
        room, host = created["room"], {"Authorization": f"Bearer {created['host_token']}"}
        token = (
            await http.post(
                f"/api/rooms/{room}/players", json={"name": "Solo"}, headers=xff(address)
            )
        ).json()["token"]
        for _ in range(2):
            added = await http.post(
                f"/api/rooms/{room}/bots",
                json={"level": "expert"},
                headers={**host, **xff(address)},
            )
            added.raise_for_status()
        waits: dict[tuple[int, int], float] = {}
        async with connect(
            f"{server.ws_url}/api/rooms/{room}/ws",
            subprotocols=["dame-nature", f"dame-nature.token.{token}"],  # type: ignore[list-item]
            additional_headers=xff(address),
            max_size=2**22,
        ) as ws:
            await ws.recv()
            (await http.post(f"/api/rooms/{room}/start", headers={**host, **xff(address)}))
            end = time.monotonic() + seconds
            sent: tuple[tuple[int, int], float] | None = None
            while time.monotonic() < end:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), end - time.monotonic()))
                except TimeoutError:
                    break
                view = message.get("view")
                if message["type"] != "state" or view is None:
                    continue
                awaiting = view["awaiting"]
                asked = 0 in view["to_act"] or (awaiting and awaiting["seat"] == 0)
                if view["phase"] == "over":
                    await http.post(f"/api/rooms/{room}/rematch", headers={**host, **xff(address)})
                    sent = None
                    continue
                if not asked or not view["legal_actions"]:
                    continue
                if sent is not None:
                    waits[sent[0]] = waits.get(sent[0], 0.0) + time.monotonic() - sent[1]
                action = scripted_action(view, view["legal_actions"])
                await ws.send(json.dumps({"type": "action", "action": action}))
                sent = ((view["game"], view["turn"]), time.monotonic())
        return list(waits.values())


async def bot_flood(server: ServerProcess, seconds: float, address: str) -> dict[str, int]:
    """One address creating rooms of 6 expert bots as fast as it may, starting them and
    playing each again as soon as it is over, every 5 s: its answers by status or code."""
    answers: dict[str, int] = {}
    rooms: list[tuple[str, dict[str, str]]] = []
    end = time.monotonic() + seconds

    def count(r: httpx.Response) -> None:
        key = str(r.status_code) if r.status_code < 400 else r.json()["error"]["code"]
        answers[key] = answers.get(key, 0) + 1

    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        while time.monotonic() < end:
            created = await http.post("/api/rooms", json={}, headers=xff(address))
            count(created)
            if created.status_code == 201:
                room = created.json()["room"]
                auth = {"Authorization": f"Bearer {created.json()['host_token']}", **xff(address)}
                for _ in range(6):
                    await http.post(
                        f"/api/rooms/{room}/bots", json={"level": "expert"}, headers=auth
                    )
                rooms.append((room, auth))
                count(await http.post(f"/api/rooms/{room}/start", headers=auth))
            for room, auth in rooms:  # "Play again" on the rooms whose game is over
                state = (await http.get(f"/api/rooms/{room}/state", headers=xff(address))).json()
                if state.get("status") == "lobby" or state.get("phase") == "over":
                    path = "start" if state.get("status") == "lobby" else "rematch"
                    count(await http.post(f"/api/rooms/{room}/{path}", headers=auth))
            await asyncio.sleep(5)
    return answers


async def bot_flood_rounds(server: ServerProcess, seconds: float) -> None:
    for label, flooded in (("alone", False), ("flooded", True)):
        flood = (
            asyncio.create_task(bot_flood(server, seconds + 10, "198.51.100.77"))
            if flooded
            else None
        )
        if flood is not None:
            await asyncio.sleep(10)  # the flood's first rooms are thinking
        waits = await solo_turns(server, seconds, f"203.0.113.{2 if flooded else 1}")
        answers = await flood if flood is not None else {}
        waits.sort()
        p50 = statistics.median(waits) if waits else float("nan")
        p90 = waits[int(0.9 * (len(waits) - 1))] if waits else float("nan")
        print(
            f"solo room {label}: {len(waits)} turns, bots' turn p50 {p50:.2f} s, p90 {p90:.2f} s"
            + (f"; flooding address answered {answers}" if flooded else ""),
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--interval", type=float, default=30.0, help="seconds between reports")
    parser.add_argument("--think", type=float, default=0.3, help="mean seconds between actions")
    parser.add_argument("--no-hostile", dest="hostile", action="store_false")
    parser.add_argument(
        "--flood-seconds",
        type=float,
        default=60.0,
        help="the write flood at the start: 10 rooms of 6 seats flipping their card (0: none)",
    )
    parser.add_argument(
        "--bot-flood",
        type=float,
        default=0.0,
        help="instead of the soak: a solo room's bots' turn time alone, then while one "
        "address floods rooms of expert bots, this many seconds each",
    )
    parser.add_argument(
        "--tracemalloc",
        type=int,
        default=0,
        metavar="FRAMES",
        help="trace the server's allocations (this many frames): the tracebacks whose "
        "memory grew most (slows the server down)",
    )
    parser.add_argument(
        "--probe-out", type=Path, help="keep the heap probe's lines (JSON) in this file"
    )
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the package to serve")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            "DAME_NATURE_TRUSTED_PROXIES": "127.0.0.1",
            "PYTHONPATH": str(args.src),
            # the bots' websocket rate and actions are the defaults: they are never refused
            "DAME_NATURE_WS_RATE_PER_SECOND": "20",
            "DAME_NATURE_WS_RATE_BURST": "60",
            "DAME_NATURE_ACTION_RATE_PER_SECOND": "10",
            "DAME_NATURE_ACTION_RATE_BURST": "40",
            "DAME_NATURE_CREATE_RATE_PER_SECOND": "0.2",
            "DAME_NATURE_CREATE_RATE_BURST": "10",
            "DAME_NATURE_CONNECT_RATE_PER_SECOND": "1",
            "DAME_NATURE_CONNECT_RATE_BURST": "15",
            "DAME_NATURE_CONNECT_ADDRESS_RATE_PER_SECOND": "5",
            "DAME_NATURE_CONNECT_ADDRESS_RATE_BURST": "60",
            "DAME_NATURE_RATE_LIMIT_PER_SECOND": "20",
            "DAME_NATURE_RATE_LIMIT_BURST": "60",
        }
        if args.bot_flood > 0:  # the bots' settings as a host has them by default
            env["DAME_NATURE_BOT_DELAY_SECONDS"] = "1"
            env["DAME_NATURE_MAX_BOT_ROOMS_PER_ADDRESS"] = "3"
        db = Path(tmp) / "soak.sqlite3"
        args.probe_out = args.probe_out or Path(tmp) / "heap.jsonl"
        env["DAME_NATURE_HEAP_PROBE"] = str(args.probe_out)
        if args.tracemalloc:
            env["DAME_NATURE_HEAP_PROBE_FRAMES"] = str(args.tracemalloc)
        probe = str(ROOT / "benchmarks" / "_support" / "heap_probe.py")
        server = ServerProcess(db, env, launcher=[probe]).start()
        assert server.proc is not None
        try:
            if args.bot_flood > 0:
                asyncio.run(bot_flood_rounds(server, args.bot_flood))
                return
            if args.flood_seconds > 0:
                flood_answers = asyncio.run(write_flood(server, args.flood_seconds))
                print(f"write flood, {args.flood_seconds:.0f} s: {flood_answers}", flush=True)
            growth, heap = asyncio.run(soak(args, server))
            rss = rss_mib(server.proc.pid)
            wal = db.with_name(db.name + "-wal")
            wal_mib = wal.stat().st_size / 2**20 if wal.exists() else 0.0
        finally:
            server.stop()
    print(f"soak_rss_growth_mib: {growth:.1f}")
    print(f"soak_rss_mib: {rss:.1f}")
    print(f"soak_wal_mib: {wal_mib:.1f}")
    for name, (_, middle, end, grown) in halves(heap).items():
        key = {"RSS, MiB": "rss_mib", "Python allocator's blocks": "python_blocks"}.get(name)
        if key is not None:  # the growth over the first half of the run, then the second
            print(f"soak_{key}_growth_halves: {grown - (end - middle):+.1f} {end - middle:+.1f}")


if __name__ == "__main__":
    main()
