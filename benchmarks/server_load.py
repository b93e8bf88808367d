"""Load test of the game server: a real uvicorn process on loopback, N rooms of 5
websocket clients playing random legal games.

For each room count it reports actions per second, p50 and p99 latency from sending an
action to all 5 seats having the new version, and memory per room (server RSS growth
divided by the rooms); then the same figures for a bare websocket broadcast (a raw ASGI
app under the same uvicorn, echoing each message to the 5 sockets of its room with the
sizes the real server sent): the floor, and the ratio server/floor. Each row also gives
the server's CPU an action (of it system time) and the share of the machine's CPU its
host stole during play (``/proc/stat``; on a virtual machine whose host is busy, the
server's and the floor's figures move with it, not with their code).

Each room acts one action at a time (it waits until its 5 seats have the new version),
after a think time drawn uniformly from [0.5, 1.5] x ``--think`` seconds (people do not
click every millisecond; ``--think 0`` saturates the server). The clients run in this
process, on the same machine as the server; this process's cyclic collector is held
during play (its passes, up to 100 ms with 5,000 sockets, would stop every client at
once, against the server and the floor alike) and runs again after it.

    python benchmarks/server_load.py                      # 200 and 1,000 rooms, 20 s each
    python benchmarks/server_load.py --rooms 10 --duration 5

The server runs with the default settings (its connection cap too: a socket or request
it refuses is counted and reported as refused, and its room left out of the figures),
with ``DAME_NATURE_GC_PAUSE_STATS`` on: each server run also reports the cyclic
collector's passes during play and its longest pause (from ``GET /metrics``). The last
line is ``server_p99_ms: N`` for the last room count (1,000 by default).

``--cluster`` runs the same load against one node and against two nodes behind nginx,
side by side: ``sqlite`` (one node, the embedded default), ``pg`` (one node on
PostgreSQL with Redis) and ``pg2`` (two nodes on PostgreSQL and Redis, the clients
through nginx, whose round robin puts the 5 seats of a room on both nodes: every action
crosses from one node to the other). PostgreSQL, Redis and nginx are throwaway ones
(``benchmarks/_support/services.py``). CPU per action counts every process serving (the nodes, and
for ``pg``/``pg2`` PostgreSQL with its backends, Redis and nginx); memory per room counts
the nodes. The last line is ``cluster_p99_ms: N`` for two nodes at the largest count.

    python benchmarks/server_load.py --cluster --rooms 50 200 --duration 15

Bot-rooms mode (``--bot-rooms 100``): beside the measured rooms of people, the same server
runs that many rooms whose 4 seats are all bots (``--bot-level``, the default level if
not given; their human-like pause ``--bot-delay``, 1 s as deployed), which the benchmark
rematches as their games end. Each run of people's rooms is measured without the bot
rooms (the baseline), then with them for each ``--bot-processes`` value (0: the bots think
on a thread of the server process; N: in N worker processes). It reports the people's
figures and the bots' actions per second; the last line is
``bot_rooms_p99_ms: N``, the people's p99 with the bot rooms at the last setting.

    python benchmarks/server_load.py --rooms 50 --bot-rooms 100 --bot-processes 0 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake

from dame_nature.bots import make_bot

SEATS = 5
ROOT = Path(__file__).resolve().parents[1]
#: the bearer token of the measured server's ``/metrics`` (a throwaway server)
METRICS_TOKEN = "server-load-benchmark"


class Refused(Exception):
    """The server refused a request or a websocket (its connection cap: 503)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int, system: bool = False) -> float:
    """User + system CPU time of a process so far (``system``: the system time alone)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[12]) if system else int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def machine_ticks() -> tuple[int, int]:
    """The machine's CPU time so far, in ticks of all its CPUs: (stolen, all). Stolen
    time is a virtual machine's CPU its host gave to others: play measured while the
    host takes much of it is not the server's."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return fields[7], sum(fields)


def children_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (PostgreSQL's backends, nginx's workers)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += parents.get(current, [])
    return found


def cpu_snapshot(pids: list[int], system: bool = False) -> dict[int, float]:
    taken = {}
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            taken[pid] = cpu_seconds(pid, system)
    return taken


def children_cpu_seconds(pid: int) -> float:
    """CPU time so far of the processes whose parent is ``pid`` (the bot workers)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def wait_healthy(url: str, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if proc.poll() is not None:
            raise RuntimeError("the server exited")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"no answer from {url}")


# ---------------------------------------------------------------------- the floor
def bare_app() -> Any:
    """A raw ASGI websocket app: each message received is broadcast to the sockets of its
    room (path) as ``{"type": "state", "version": n, "pad": ..}`` of the size asked."""
    rooms: dict[str, list[Any]] = {}
    versions: dict[str, int] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            body = b'{"status":"ok"}'
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/json")]})  # fmt: skip
            await send({"type": "http.response.body", "body": body})
            return
        if scope["type"] != "websocket":
            return
        room = scope["path"]
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        members = rooms.setdefault(room, [])
        members.append(send)
        try:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return
                size = int(json.loads(message["text"])["size"])
                versions[room] = versions.get(room, 0) + 1
                head = f'{{"type":"state","version":{versions[room]},"pad":"'
                text = head + "x" * max(0, size - len(head) - 2) + '"}'
                for member in list(members):
                    await member({"type": "websocket.send", "text": text})
        finally:
            members.remove(send)

    return app


def serve_bare(port: int) -> None:
    import uvicorn

    # the same websocket settings as ``dame-nature serve`` (no permessage-deflate)
    uvicorn.run(bare_app(), host="127.0.0.1", port=port, log_level="warning",
                ws_per_message_deflate=False)  # fmt: skip


# ---------------------------------------------------------------------- clients
class Seat:
    """One websocket. It reads only the version of each message (the clients share this
    machine's CPU with the server); the view is parsed when the room's bot needs it, with
    ``orjson``: ``json``'s parsing was a third of the clients' CPU beside the server, work
    the floor's clients do not have, on the cores the server shares with them."""

    def __init__(self, ws: ClientConnection, room: RoomDriver) -> None:
        self.ws = ws
        self.room = room
        self.raw: str | None = None
        self.version = -1
        self.sizes: list[int] = []

    @property
    def view(self) -> dict[str, Any] | None:
        if self.raw is None:
            return None
        view: dict[str, Any] = orjson.loads(self.raw)["view"]
        return view

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                assert isinstance(raw, str)
                at = raw.rfind('"version":')
                if raw.startswith('{"type":"state"') and at >= 0:
                    end = at + 10
                    while raw[end].isdigit():
                        end += 1
                    self.sizes.append(len(raw))
                    self.version = int(raw[at + 10 : end])
                    self.raw = raw
                    self.room.wake.set()
                elif raw.startswith('{"type":"error"'):
                    self.room.errors += 1
                    self.room.wake.set()
        except Exception:
            self.room.wake.set()


class RoomDriver:
    """One room: 5 sockets; one action at a time, each timed until all 5 see its version."""

    def __init__(self, index: int, think: float, bare: bool) -> None:
        self.rng = random.Random(index)
        self.bots = [make_bot("random", seat, seed=index * SEATS + seat) for seat in range(SEATS)]
        self.think = think
        self.bare = bare
        self.seats: list[Seat] = []
        self.wake = asyncio.Event()
        self.latencies: list[float] = []
        self.errors = 0
        self.games = 0
        self.code = ""
        self.host = ""
        self.sizes: list[int] = []
        self.refused = 0  # sockets of this room the server refused (the room is left out)

    def min_version(self) -> int:
        return min(seat.version for seat in self.seats)

    async def wait_all(self, version: int, timeout: float = 30.0) -> bool:
        deadline = time.perf_counter() + timeout
        while self.min_version() < version:
            self.wake.clear()
            if self.min_version() >= version:
                break
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(self.wake.wait(), left)
            except TimeoutError:
                return False
        return True

    def choose(self) -> tuple[int, dict[str, Any]] | None:
        """A move of the bots' random level (``dame_nature.bots``) for one of the seats
        the table waits for, from that seat's own view (what a browser knows); None
        once the game is over."""
        first = self.seats[0].view
        if first is None or first["phase"] == "over":
            return None
        candidates = list(first["to_act"])
        self.rng.shuffle(candidates)
        for seat in candidates:
            view = first if seat == 0 else self.seats[seat].view
            action = self.bots[seat].act(view) if view is not None else None
            if action is not None:
                return seat, action
        return None

    async def run(self, until: float, http: httpx.AsyncClient, size_pool: list[int]) -> None:
        while time.perf_counter() < until:
            if self.think:
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
            target = self.min_version() + 1
            if self.bare:
                seat = self.rng.randrange(SEATS)
                message = json.dumps({"size": self.rng.choice(size_pool)})
            else:
                chosen = self.choose()
                if chosen is None:  # game over: a rematch (not timed)
                    await post(http, f"/api/rooms/{self.code}/rematch",
                               headers={"Authorization": f"Bearer {self.host}"})  # fmt: skip
                    self.games += 1
                    await self.wait_all(target)
                    continue
                seat, action = chosen
                message = json.dumps({"type": "action", "action": action})
            errors = self.errors
            sent = time.perf_counter()
            await self.seats[seat].ws.send(message)
            while not await self.wait_all(target, 30.0):
                if self.errors != errors:
                    break
            if self.errors == errors and self.min_version() >= target:
                self.latencies.append(time.perf_counter() - sent)


async def post(http: httpx.AsyncClient, path: str, **kwargs: Any) -> httpx.Response:
    """A POST retried a few times: a kept-alive connection the busy server just closed
    is no failure of the server."""
    for attempt in range(5):
        try:
            return await http.post(path, **kwargs)
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.2)
    raise AssertionError("unreachable")


async def post_ok(http: httpx.AsyncClient, path: str, **kwargs: Any) -> dict[str, Any]:
    """A POST's JSON answer; ``Refused`` when the server refused it or could not be
    reached (a 503 past its connection cap is no JSON)."""
    try:
        answer = await post(http, path, **kwargs)
    except httpx.TransportError as err:
        raise Refused(f"{path}: {err!r}") from err
    if answer.status_code >= 300:
        raise Refused(f"{path}: {answer.status_code}")
    found: dict[str, Any] = answer.json()
    return found


async def open_rooms(
    n: int, url: str, ws_url: str, think: float, bare: bool, http: httpx.AsyncClient
) -> list[RoomDriver]:
    rooms = [RoomDriver(i, think, bare) for i in range(n)]
    sem = asyncio.Semaphore(20)

    async def prepare(room: RoomDriver, index: int) -> None:
        async with sem:
            try:
                await connect_room(room, index)
            except (Refused, InvalidHandshake, OSError, TimeoutError):
                # refused (or cut off) by the server: counted, and the room left out
                room.refused = SEATS - len(room.seats)
                for seat in room.seats:
                    await seat.ws.close()

    async def connect_room(room: RoomDriver, index: int) -> None:
        if bare:
            paths = [f"{ws_url}/bare/{index}"] * SEATS
        else:
            created = await post_ok(http, "/api/rooms", json={"seed": index})
            room.code, room.host = created["room"], created["host_token"]
            tokens = []
            for seat in range(SEATS):
                joined = await post_ok(http, f"/api/rooms/{room.code}/players",
                                       json={"name": f"bot{seat}"})  # fmt: skip
                tokens.append(joined["token"])
            await post_ok(http, f"/api/rooms/{room.code}/start",
                          headers={"Authorization": f"Bearer {room.host}"})  # fmt: skip
            paths = [f"{ws_url}/api/rooms/{room.code}/ws?token={t}" for t in tokens]
        for path in paths:
            ws = await connect(path, max_size=2**22, open_timeout=60, ping_interval=None)
            seat = Seat(ws, room)
            room.seats.append(seat)
            asyncio.get_running_loop().create_task(seat.read())
        if not bare:
            # every seat has its first view (and saw every other seat connect)
            while any(s.raw is None for s in room.seats):
                room.wake.clear()
                await asyncio.wait_for(room.wake.wait(), 60)

    await asyncio.gather(*(prepare(room, i) for i, room in enumerate(rooms)))
    if not bare:
        for room in rooms:
            if not room.refused:
                await room.wait_all(max(s.version for s in room.seats))
    return rooms


async def collector(http: httpx.AsyncClient) -> dict[str, float]:
    """The server's collector figures (``DAME_NATURE_GC_PAUSE_STATS``) from ``/metrics``:
    ``passes``, ``full_passes``, ``longest_ms`` and ``longest_cpu_ms`` (the longest in
    CPU time; over every generation), and per generation G ``passes_G``, ``pause_ms_G``
    and ``pause_cpu_ms_G`` (their time in all, wall and CPU); empty when the server does
    not measure them."""
    answer = await http.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    if answer.status_code != 200:
        return {}
    found = {"passes": 0.0, "full_passes": 0.0, "longest_ms": 0.0, "longest_cpu_ms": 0.0}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            generation = sample.labels.get("generation")
            if sample.name == "dame_nature_gc_passes_total":
                found["passes"] += sample.value
                found[f"passes_{generation}"] = sample.value
                if generation == "2":
                    found["full_passes"] += sample.value
            elif sample.name == "dame_nature_gc_pause_seconds_total":
                found[f"pause_ms_{generation}"] = sample.value * 1000
            elif sample.name == "dame_nature_gc_pause_cpu_seconds_total":
                found[f"pause_cpu_ms_{generation}"] = sample.value * 1000
            elif sample.name == "dame_nature_gc_pause_longest_seconds":
                found["longest_ms"] = max(found["longest_ms"], sample.value * 1000)
            elif sample.name == "dame_nature_gc_pause_longest_cpu_seconds":
                found["longest_cpu_ms"] = max(found["longest_cpu_ms"], sample.value * 1000)
    return found


class BotRooms:
    """Rooms whose every seat is a bot: made, started, rematched as their games end; their
    actions counted from the rooms' versions."""

    def __init__(self, n: int, level: str | None) -> None:
        self.n = n
        self.level = level
        self.rooms: list[tuple[str, str]] = []
        self.games = 0

    async def open(self, http: httpx.AsyncClient) -> None:
        body = {} if self.level is None else {"level": self.level}
        sem = asyncio.Semaphore(10)

        async def one(index: int) -> None:
            async with sem:
                created = (await post(http, "/api/rooms", json={"seed": 10_000 + index})).json()
                code, host = created["room"], created["host_token"]
                auth = {"Authorization": f"Bearer {host}"}
                for _ in range(4):
                    added = await post(http, f"/api/rooms/{code}/bots", json=body, headers=auth)
                    assert added.status_code == 201, added.text
                await post(http, f"/api/rooms/{code}/start", headers=auth)
                self.rooms.append((code, host))

        await asyncio.gather(*(one(i) for i in range(self.n)))

    async def versions(self, http: httpx.AsyncClient) -> int:
        total = 0
        for code, _ in self.rooms:
            total += (await http.get(f"/api/rooms/{code}")).json()["version"]
        return total

    async def rematch(self, http: httpx.AsyncClient, until: float) -> None:
        while time.perf_counter() < until:
            await asyncio.sleep(2.0)
            for code, host in self.rooms:
                info = (await http.get(f"/api/rooms/{code}")).json()
                if info["status"] == "over":
                    await post(http, f"/api/rooms/{code}/rematch",
                               headers={"Authorization": f"Bearer {host}"})  # fmt: skip
                    self.games += 1


async def measure(
    n: int, url: str, ws_url: str, pid: int | list[int], args: argparse.Namespace, bare: bool,
    size_pool: list[int], bots: BotRooms | None = None, cpu_pids: Any = None,
    profiled: bool = False, counted: str | None = None,
) -> dict[str, Any]:  # fmt: skip
    """``pid``: the server process (or the nodes, whose memory is summed); ``cpu_pids()``:
    every process whose CPU counts (default: the same); ``profiled``: the server runs
    ``PROFILED``, told when play starts and ends; ``counted``: the server runs under
    callgrind (``--callgrind``), its instructions counted during play alone and dumped to
    ``counted`` (``instructions_per_action``)."""
    pids = pid if isinstance(pid, list) else [pid]
    serving = cpu_pids or (lambda: pids)
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        base = sum(rss_kib(p) for p in pids)
        if bots is not None:
            await bots.open(http)
        opening = time.perf_counter()
        opening_cpu = cpu_snapshot(serving())
        opened = await open_rooms(n, url, ws_url, args.think, bare, http)
        open_s = time.perf_counter() - opening
        open_cpu = sum(t - opening_cpu.get(p, 0.0) for p, t in cpu_snapshot(serving()).items())
        rooms = [room for room in opened if not room.refused]
        idle_cpu = float("nan")
        if args.idle:  # the server's own work with every socket open and no action
            idle_before = cpu_snapshot(serving())
            idle_start = time.perf_counter()
            await asyncio.sleep(args.idle)
            idle_after = cpu_snapshot(serving())
            idle_s = time.perf_counter() - idle_start
            idle_cpu = sum(t - idle_before.get(p, 0.0) for p, t in idle_after.items()) / idle_s
        gc_before = {} if bare else await collector(http)
        ready = sum(rss_kib(p) for p in pids)
        # This process's collector is held during play: its passes (up to 100 ms with
        # 5,000 sockets) would stop every client at once and count against the server
        # and the floor alike. What play leaves in cycles is freed after it.
        gc.collect()
        gc.disable()
        until = time.perf_counter() + args.duration
        start = time.perf_counter()
        if profiled:  # the profile of play alone (``PROFILED``)
            for p in pids:
                os.kill(p, signal.SIGUSR1)
        if counted:
            for p in pids:
                callgrind_control("-z", p)
                callgrind_control("-i", "on", p)
        before = cpu_snapshot(serving())
        system_before = cpu_snapshot(serving(), system=True)
        machine_before = machine_ticks()
        workers_cpu = sum(children_cpu_seconds(p) for p in pids)
        bot_versions = await bots.versions(http) if bots is not None else 0
        extra = [bots.rematch(http, until)] if bots is not None else []
        try:
            await asyncio.gather(*(room.run(until, http, size_pool) for room in rooms), *extra)
        finally:
            gc.enable()
        elapsed = time.perf_counter() - start
        now = cpu_snapshot(serving())
        system_now = cpu_snapshot(serving(), system=True)
        machine_now = machine_ticks()
        if profiled:
            for p in pids:
                os.kill(p, signal.SIGUSR2)
        instructions = float("nan")
        if counted:
            for p in pids:
                callgrind_control("-d", "play", p)
                callgrind_control("-i", "off", p)
            instructions = counted_instructions(counted)
        cpu = sum(t - before.get(p, 0.0) for p, t in now.items())
        system = sum(t - system_before.get(p, 0.0) for p, t in system_now.items())
        workers_cpu = sum(children_cpu_seconds(p) for p in pids) - workers_cpu
        if bots is not None:
            bot_versions = await bots.versions(http) - bot_versions
        after = sum(rss_kib(p) for p in pids)
        for room in rooms:
            for seat in room.seats:
                await seat.ws.close()
        # after the sockets closed: a server at its connection cap would refuse it
        gc_after = {} if bare else await collector(http)
    latencies = [x for room in rooms for x in room.latencies]
    sizes = [s for room in rooms for seat in room.seats for s in seat.sizes]
    return {
        "rooms": n,
        "actions": len(latencies),
        "actions_per_s": len(latencies) / elapsed,
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "mean_ms": statistics.fmean(latencies) * 1000 if latencies else float("nan"),
        "kib_per_room": (max(ready, after) - base) / n,
        "cpu_ms_per_action": cpu * 1000 / max(1, len(latencies)),
        "system_ms_per_action": system * 1000 / max(1, len(latencies)),
        "stolen_share": (machine_now[0] - machine_before[0])
        / max(1, machine_now[1] - machine_before[1]),
        "instructions_per_action": instructions / max(1, len(latencies)),
        "errors": sum(room.errors for room in rooms),
        "games": sum(room.games for room in rooms),
        "sizes": sizes,
        "bot_changes_per_s": bot_versions / elapsed,
        "server_cpu_share": cpu / elapsed,
        "workers_cpu_share": workers_cpu / elapsed,
        "bot_games": bots.games if bots is not None else 0,
        "refused": sum(room.refused for room in opened),
        "rooms_refused": sum(1 for room in opened if room.refused),
        "open_s": open_s,
        "open_cpu_s": open_cpu,
        "idle_cpu_ms_per_s": idle_cpu * 1000,
        "gc_passes": gc_after.get("passes", 0) - gc_before.get("passes", 0),
        "gc_full_passes": gc_after.get("full_passes", 0) - gc_before.get("full_passes", 0),
        **{
            f"gc_{figure}_{g}": gc_after.get(f"{figure}_{g}", 0) - gc_before.get(f"{figure}_{g}", 0)
            for figure in ("passes", "pause_ms", "pause_cpu_ms")
            for g in range(3)
        },
        "gc_longest_ms": gc_after.get("longest_ms", float("nan")),
        "gc_longest_cpu_ms": gc_after.get("longest_cpu_ms", float("nan")),
    }


def callgrind_control(*args: Any) -> None:
    subprocess.run(["callgrind_control", *map(str, args)], check=True, capture_output=True)


def counted_instructions(out: str) -> float:
    """The instructions of callgrind's dump of play (``callgrind_control -d``), the
    newest part ``out.N`` beside its final file ``out``."""
    parts = sorted(Path(out).parent.glob(Path(out).name + ".*"), key=lambda p: p.stat().st_mtime)
    for line in parts[-1].read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return float(line.split()[1])
    return float("nan")


def unlimited() -> dict[str, str]:
    """Every per-client limit lifted (all the clients come from this one address)."""
    from _support.live_server import FAST_LIMITS

    return dict(FAST_LIMITS)


#: the server under cProfile, profiling from SIGUSR1 (sent once the rooms are open) to
#: SIGUSR2 (once play ends), so that the stats are those of play alone: uvicorn ends on
#: SIGTERM by raising it again once it has shut down, so a handler of ours turns it into
#: an exit that writes the stats
PROFILED = """
import cProfile, signal, sys, time
from dame_nature.__main__ import main
def stop(*_): raise SystemExit(0)
signal.signal(signal.SIGTERM, stop)
sys.argv[0] = "dame-nature"
profiler = cProfile.Profile(time.process_time)
signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())
signal.signal(signal.SIGUSR2, lambda *_: profiler.disable())
try:
    main()
finally:
    profiler.disable()
    profiler.dump_stats({path!r})
"""


def start_server(
    bare: bool, db: str, extra_env: dict[str, str] | None = None, profile: str | None = None,
    counted: str | None = None,
) -> tuple[subprocess.Popen[bytes], str, str]:  # fmt: skip
    port = free_port()
    # every client runs here, on one address: the per-address limits are lifted (the
    # per-socket and per-seat ones stay, and a sane bot never meets them)
    lifted = {f"DAME_NATURE_{name}": "100000" for name in (
        "RATE_LIMIT_PER_SECOND", "RATE_LIMIT_BURST", "CREATE_RATE_PER_SECOND", "CREATE_RATE_BURST",
        "CONNECT_ADDRESS_RATE_PER_SECOND", "CONNECT_ADDRESS_RATE_BURST",
        "MAX_CONNECTIONS_PER_ADDRESS", "MAX_ROOMS_PER_ADDRESS")}  # fmt: skip
    measured = {"DAME_NATURE_GC_PAUSE_STATS": "1", "DAME_NATURE_METRICS_TOKEN": METRICS_TOKEN}
    env = {**os.environ, **lifted, **measured, "PYTHONPATH": str(ROOT / "src"),
           **(extra_env or {})}  # fmt: skip
    if bare:
        cmd = [sys.executable, __file__, "--bare-server", str(port)]
        health = f"http://127.0.0.1:{port}/"
    else:
        cmd = [sys.executable, "-m", "dame_nature", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", db, "--log-level", "warning"]  # fmt: skip
        if profile:
            cmd[1:3] = ["-c", PROFILED.format(path=profile)]
        health = f"http://127.0.0.1:{port}/healthz"
    if counted:  # callgrind, counting from play's start (``measure``), hashes fixed
        tool = ["valgrind", "--tool=callgrind", "--instr-atstart=no"]
        cmd = [*tool, f"--callgrind-out-file={counted}", os.path.realpath(sys.executable), *cmd[1:]]
        env["PYTHONHASHSEED"] = "0"
    proc = subprocess.Popen(cmd, env=env, preexec_fn=die_with_parent)
    wait_healthy(health, proc)
    return proc, f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"


def start_node(db: str, extra: list[str]) -> tuple[subprocess.Popen[bytes], str, str]:
    port = free_port()
    env = {**os.environ, **unlimited(), "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, "-m", "dame_nature", "serve", "--host", "127.0.0.1",
           "--port", str(port), "--db", db, "--log-level", "warning", *extra]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env)
    wait_healthy(f"http://127.0.0.1:{port}/healthz", proc)
    return proc, f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"


def run_cluster(kind: str, n: int, args: argparse.Namespace) -> dict[str, Any]:
    """One run of the cluster comparison: ``sqlite``, ``pg`` or ``pg2`` (see the top)."""
    from _support.services import Nginx, Postgres, Redis

    services: list[Any] = []
    nodes: list[subprocess.Popen[bytes]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            if kind == "sqlite":
                proc, url, ws_url = start_node(str(Path(tmp) / "load.sqlite3"), [])
                nodes.append(proc)
                extra_pids: Any = list
            else:
                pg = Postgres().start()
                services.append(pg)
                redis = Redis().start()
                services.append(redis)
                db = pg.create_database()
                count = 2 if kind == "pg2" else 1
                started = [start_node(db, ["--redis", redis.url]) for _ in range(count)]
                nodes += [p for p, _, _ in started]
                url, ws_url = started[0][1], started[0][2]
                watch = [redis.proc.pid] if redis.proc else []
                if count > 1:
                    ports = [u.rsplit(":", 1)[1] for _, u, _ in started]
                    nginx = Nginx([f"127.0.0.1:{p}" for p in ports]).start()
                    services.append(nginx)
                    url, ws_url = nginx.url, nginx.ws_url
                    watch.append(nginx.proc.pid if nginx.proc else 0)
                postmaster = int((pg.data / "postmaster.pid").read_text().split()[0])

                def extra_pids() -> list[int]:
                    found = list(watch)
                    for pid in [postmaster, *watch]:
                        found += children_tree(pid)[1:]
                    return [postmaster, *found]

            pids = [p.pid for p in nodes]
            result = asyncio.run(
                measure(
                    n, url, ws_url, pids, args, False, [5000], cpu_pids=lambda: pids + extra_pids()
                )
            )
    finally:
        for proc in nodes:
            proc.terminate()
        for proc in nodes:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        for service in reversed(services):
            service.stop()
    return result


def cluster_main(args: argparse.Namespace) -> None:
    print(f"{SEATS} websocket clients a room, think {args.think} s, {args.duration} s a run, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")  # fmt: skip
    print(HEADER)
    last: dict[str, Any] = {}
    for n in args.rooms:
        for kind in ("sqlite", "pg", "pg2"):
            last = run_cluster(kind, n, args)
            print(row(kind, last) + f"  ({last['errors']} errors, {refusals(last)})", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    print(f"cluster_p99_ms: {last['p99_ms']:.1f}")


def die_with_parent() -> None:
    """In the server's process before it starts: it gets SIGTERM if this benchmark dies
    (a ``timeout`` or a Ctrl-C must not leave a server running)."""
    import ctypes
    import signal

    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


#: the columns of ``row``
HEADER = (
    "run     rooms  actions  actions/s  p50 ms   p99 ms  KiB/room"
    "  CPU ms/act (of it system, stolen)"
)


def row(name: str, r: dict[str, Any]) -> str:
    return (f"{name:<7} {r['rooms']:>5} {r['actions']:>8} {r['actions_per_s']:>9.1f} "
            f"{r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} {r['kib_per_room']:>9.1f}"
            f" {r['cpu_ms_per_action']:>10.2f} ({r['system_ms_per_action']:.2f} system,"
            f" {100 * r['stolen_share']:.1f}% stolen)"
            + (f"  {r['instructions_per_action']:,.0f} instructions/action"
               if r.get("instructions_per_action", float("nan")) == r.get("instructions_per_action")
               else ""))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of play per run")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between actions")
    parser.add_argument(
        "--cluster",
        action="store_true",
        help="one node against two behind nginx (PostgreSQL, Redis)",
    )
    parser.add_argument("--floor", action=argparse.BooleanOptionalAction, default=True,
                        help="also measure the bare broadcast (the floor)")  # fmt: skip
    parser.add_argument("--profile", metavar="PREFIX",
                        help="run the server under cProfile during play; its stats go to "
                        "PREFIX-N.prof (N rooms; the figures then include the profiler's "
                        "cost)")  # fmt: skip
    parser.add_argument("--callgrind", metavar="PREFIX",
                        help="run the server and the floor under valgrind's callgrind, "
                        "counting instructions during play alone (PREFIX-server-N.out, "
                        "PREFIX-floor-N.out); rows then give instructions an action (the "
                        "timings are callgrind's: use a small load)")  # fmt: skip
    parser.add_argument("--idle", type=float, default=0.0, metavar="SECONDS",
                        help="before play, measure the server's CPU for SECONDS with every "
                        "socket open and no action (ms of CPU a second)")  # fmt: skip
    parser.add_argument("--bare-server", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--bot-rooms", type=int, default=0, help="rooms of 4 bots beside")
    parser.add_argument("--bot-level", help="the bots' level (the server's default if not given)")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="the bots' pause, seconds")
    parser.add_argument("--bot-processes", type=int, nargs="+", default=[0, 1],
                        help="settings of DAME_NATURE_BOT_PROCESSES to compare")  # fmt: skip
    args = parser.parse_args()
    if args.bare_server:
        serve_bare(args.bare_server)
        return
    if args.cluster:
        cluster_main(args)
        return
    if args.bot_rooms:
        bot_rooms_mode(args)
        return
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    raise_open_files_limit()  # this process holds every client's socket
    print(f"{SEATS} websocket clients a room, think {args.think} s, {args.duration} s a run, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")  # fmt: skip
    print(HEADER)
    results = []
    for n in args.rooms:
        with tempfile.TemporaryDirectory() as tmp:
            profile = f"{args.profile}-{n}.prof" if args.profile else None
            counted = f"{args.callgrind}-server-{n}.out" if args.callgrind else None
            db = str(Path(tmp) / "load.sqlite3")
            proc, url, ws_url = start_server(False, db, None, profile, counted)
            try:
                server = asyncio.run(
                    measure(
                        n,
                        url,
                        ws_url,
                        proc.pid,
                        args,
                        False,
                        [5000],
                        profiled=bool(profile),
                        counted=counted,
                    )
                )
            finally:
                stop(proc)
        print(row("server", server) + f"  ({refusals(server)}; the collector: "
              f"{server['gc_passes']:.0f} passes in play, {server['gc_full_passes']:.0f} full, "
              f"{server['gc_passes_1']:.0f} middle ({server['gc_pause_ms_1']:.0f} ms in all, "
              f"{server['gc_pause_cpu_ms_1']:.0f} of CPU), {server['gc_passes_0']:.0f} young "
              f"({server['gc_pause_ms_0']:.0f} ms, {server['gc_pause_cpu_ms_0']:.0f} of CPU), "
              f"longest pause since the start {server['gc_longest_ms']:.1f} ms, "
              f"{server['gc_longest_cpu_ms']:.1f} ms of CPU; the rooms opened in "
              f"{server['open_s']:.1f} s, {server['open_cpu_s']:.1f} s of the server's CPU"
              + (f"; idle: {server['idle_cpu_ms_per_s']:.1f} ms of CPU a second)" if args.idle
                 else ")"),
              flush=True)  # fmt: skip
        results.append(server)
        if not args.floor:
            continue
        sizes = server["sizes"] or [5000]
        counted = f"{args.callgrind}-floor-{n}.out" if args.callgrind else None
        proc, url, ws_url = start_server(True, "", counted=counted)
        try:
            floor = asyncio.run(
                measure(n, url, ws_url, proc.pid, args, True, sizes, counted=counted)
            )
        finally:
            stop(proc)
        idle = f"; idle: {floor['idle_cpu_ms_per_s']:.1f} ms of CPU a second" if args.idle else ""
        print(row("floor", floor) + f"  ({refusals(floor)}{idle})", flush=True)
        ratio_rate = server["actions_per_s"] / floor["actions_per_s"]
        ratio_p50 = server["p50_ms"] / floor["p50_ms"]
        ratio_p99 = server["p99_ms"] / floor["p99_ms"]
        ratio_cpu = server["cpu_ms_per_action"] / floor["cpu_ms_per_action"]
        print(f"ratio   {n:>5}          {ratio_rate:>9.2f} {ratio_p50:>8.2f} {ratio_p99:>8.2f}"
              f"                {ratio_cpu:>9.2f}"
              f"  (server/floor; mean message {statistics.fmean(sizes):.0f} B, "
              f"{server['errors']} errors, {server['games']} games finished)",
              flush=True)  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    print(f"server_p99_ms: {results[-1]['p99_ms']:.1f}")


def refusals(result: dict[str, Any]) -> str:
    return f"{result['refused']} sockets refused, {result['rooms_refused']} rooms left out"


def raise_open_files_limit() -> None:
    """The soft open-files limit of this process raised to its hard one."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def bot_rooms_mode(args: argparse.Namespace) -> None:
    """People's rooms alone, then beside ``--bot-rooms`` rooms of bots, per setting."""
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    print(f"{SEATS} websocket clients a room, think {args.think} s, {args.duration} s a run, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; beside them "
          f"{args.bot_rooms} rooms of 4 bots (level {args.bot_level or 'default'}, "
          f"pause {args.bot_delay} s)")  # fmt: skip
    print(HEADER + "  bot changes/s  bot games  server CPU  workers CPU")
    last: dict[str, Any] = {}
    for n in args.rooms:
        settings: list[int | None] = [None, *args.bot_processes]
        for processes in settings:
            env = {"DAME_NATURE_BOT_DELAY_SECONDS": str(args.bot_delay)}
            if processes is not None:
                env["DAME_NATURE_BOT_PROCESSES"] = str(processes)
            bots = BotRooms(args.bot_rooms, args.bot_level) if processes is not None else None
            with tempfile.TemporaryDirectory() as tmp:
                proc, url, ws_url = start_server(False, str(Path(tmp) / "load.sqlite3"), env)
                try:
                    run = measure(n, url, ws_url, proc.pid, args, False, [5000], bots)
                    last = asyncio.run(run)
                finally:
                    stop(proc)
            name = "people" if processes is None else f"bots/p{processes}"
            load = os.getloadavg()[0]
            shares = f"{last['server_cpu_share']:>11.0%} {last['workers_cpu_share']:>12.0%}"
            print(f"{row(name, last)} {last['bot_changes_per_s']:>14.1f} "
                  f"{last['bot_games']:>10} {shares}  (load {load:.2f})", flush=True)  # fmt: skip
    print(f"bot_rooms_p99_ms: {last['p99_ms']:.1f}")


if __name__ == "__main__":
    main()
