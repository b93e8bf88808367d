"""Hostile clients against a real server process: each test reproduces one
defect of the probe, bounded to seconds and to loopback, and checks that the server
stays available: memory (RSS) and ``/healthz`` latency within generous bounds, other
rooms' players still playing. Limits are lowered per test through the environment."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from benchmarks._support.hostile_clients import (
    count_closed,
    flood,
    health_latencies,
    health_latencies_sync,
    idle_connections,
    median_ms,
    raw_websocket,
    rss_mib,
    slow_headers,
)
from benchmarks._support.live_server import start_all
from dame_nature.server import connections
from dame_nature.server.connections import Connection
from dame_nature.server.settings import Settings

JSON = {"content-type": "application/json"}


def ws_path(room: str, token: str | None = None) -> str:
    return f"/api/rooms/{room}/ws" + (f"?token={token}" if token else "")


def latency_bound(server: Any) -> float:
    """The /healthz median allowed during a flood, ms: 200 ms, more on a loaded machine
    (three times the quiet median measured just before, on the same machine)."""
    return 200 + 3 * median_ms(health_latencies_sync(server.url, 1.0))


def step(api: Any, table: dict[str, Any]) -> Any:
    try:
        return api.step(table)
    except httpx.TransportError:  # a kept-alive connection closed as it was reused
        return api.step(table)


async def keep_playing(api: Any, table: dict[str, Any], seconds: float) -> int:
    """A player of another room acting every 0.2 s; the actions accepted."""
    accepted = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        stepped = await asyncio.to_thread(step, api, table)
        if stepped is None:
            break
        assert stepped[2].status_code == 200, stepped[2].text
        accepted += 1
        await asyncio.sleep(0.2)
    return accepted


async def close_of(ws: Any, seconds: float) -> int | None:
    """Read until the server closes ``ws`` (its close code) or ``seconds`` pass (None)."""
    try:
        async with asyncio.timeout(seconds):
            async for _ in ws:
                pass
    except TimeoutError:
        return None
    except ConnectionClosed:
        pass
    return ws.close_code  # type: ignore[no-any-return]


# ------------------------------------------------------------------ 1. memory per socket
REAL_WS_LIMITS = {"DAME_NATURE_WS_RATE_PER_SECOND": "20", "DAME_NATURE_WS_RATE_BURST": "60"}


def test_a_socket_that_never_reads_is_closed_and_memory_stays_bounded(server_factory, make_api):
    """Defect 1: 1-byte frames from a client that never reads were each answered into
    an outbox without bound (+220 MiB in 15 s, /healthz 1.3 s). Now the server closes
    it; RSS and /healthz stay within bounds, and another room plays on."""
    server = server_factory(REAL_WS_LIMITS).start()
    api = make_api(server)
    target, other = api.table(players=3, seed=5), api.table(players=3, seed=6)
    pid = server.proc.pid
    bound = latency_bound(server)

    async def run() -> tuple[float, list[float], int, int | None]:
        before = rss_mib(pid)
        sock = await raw_websocket(
            server.port, ws_path(target["room"], target["tokens"][0]), receive_buffer=4096
        )
        assert sock.status == 101
        _, health, played = await asyncio.gather(
            flood(sock, 5.0), health_latencies(server.url, 5.0), keep_playing(api, other, 5.0)
        )
        growth = rss_mib(pid) - before
        code = await sock.close_code(timeout=10)
        sock.close()
        return growth, health, played, code

    growth, health, played, code = asyncio.run(run())
    # closed by the server (reading ends instead of timing out); its close frame (1008)
    # may wait behind what the client never read, so the end of the stream may come first
    assert code in (1008, None)
    assert growth < 50, f"RSS grew {growth:.0f} MiB"
    assert median_ms(health) < bound, f"/healthz median {median_ms(health):.0f} ms"
    assert played >= 5


def test_the_outbox_is_bounded_in_messages_and_bytes(tmp_path):
    """Defect 1, the bound itself: a socket whose sends never complete gets at most
    ``ws_outbox_max_messages`` messages or ``ws_outbox_max_bytes`` bytes queued; past
    either it is closed with 1008 and its queue dropped."""

    class Stuck:
        def __init__(self) -> None:
            self.closed_with: int | None = None

        async def send_text(self, data: str) -> None:
            await asyncio.Event().wait()  # the peer never reads

        async def close(self, code: int = 1000, reason: str | None = None) -> None:
            self.closed_with = code

    async def fill(count: int, size: int) -> tuple[Connection, Stuck, int]:
        sock = Stuck()
        settings = Settings(
            db=str(tmp_path / "x.sqlite3"), ws_outbox_max_messages=10, ws_outbox_max_bytes=1000
        )
        conn = Connection(sock, 0, settings)  # its sender not started: nothing is sent
        pushed = 0
        for _ in range(count):
            if conn.closed:
                break
            conn.push("x" * size)
            pushed += 1
        await asyncio.sleep(0.05)
        return conn, sock, pushed

    conn, sock, pushed = asyncio.run(fill(100, 10))  # by messages: 10 queued, the 11th
    assert pushed == 11 and conn.closed and conn.queued == (0, 0) and sock.closed_with == 1008
    conn, sock, pushed = asyncio.run(fill(100, 300))  # by bytes: 3 x 300 queued, the 4th
    assert pushed == 4 and conn.closed and sock.closed_with == 1008


# ------------------------------------------------------------------ 2. CPU of refusals
def test_a_flooding_socket_gets_one_notice_and_is_closed(server_factory, make_api):
    """Defect 2: pings far over the rate were each answered. Now one ``rate_limited``
    notice, then nothing, then a close (1008); /healthz stays fast meanwhile."""
    server = server_factory(REAL_WS_LIMITS).start()
    api = make_api(server)
    table, other = api.table(players=3, seed=7), api.table(players=3, seed=8)
    bound = latency_bound(server)

    async def run() -> tuple[int, int, int | None, list[float], int]:
        url = server.ws_url + ws_path(table["room"], table["tokens"][0])
        async with connect(url, max_size=2**22) as ws:
            await ws.recv()  # the view
            pongs = notices = 0

            async def reader() -> None:
                nonlocal pongs, notices
                async for raw in ws:
                    message = json.loads(raw)
                    pongs += message["type"] == "pong"
                    notices += message["type"] == "error"

            async def writer() -> None:
                ping = json.dumps({"type": "ping"})
                with contextlib.suppress(ConnectionClosed):
                    for _ in range(5000):
                        await ws.send(ping)
                        await asyncio.sleep(0)  # a client that reads: its reader runs too

            health = asyncio.create_task(health_latencies(server.url, 3.0))
            playing = asyncio.create_task(keep_playing(api, other, 3.0))
            await asyncio.gather(writer(), asyncio.wait_for(reader(), 10), return_exceptions=True)
            return pongs, notices, ws.close_code, await health, await playing

    pongs, notices, code, health, played = asyncio.run(run())
    assert code == 1008
    assert notices == 1
    assert pongs <= 60 + 20 * 5  # the burst, and the rate while it lasted
    assert median_ms(health) < bound
    assert played >= 3


def test_a_flood_read_slowly_gets_one_notice_and_is_closed(tmp_path, monkeypatch):
    """The same contract when the server reads a flood slowly (a loaded machine): the
    bucket refills between reads, so some messages of the flood are admitted. They used
    to end the flood (a second notice, and drops counted again from zero, so the flood
    could go on for ever); now one notice, then drops, then a close. A client that then
    keeps within the rate until its whole burst is back starts afresh."""
    clock = [0.0]
    monkeypatch.setattr(connections.time, "monotonic", lambda: clock[0])
    settings = Settings(db=str(tmp_path / "x.sqlite3"), ws_rate_per_second=20,
                        ws_rate_burst=60, ws_flood_close_after=100)  # fmt: skip
    conn = Connection(None, 0, settings)  # type: ignore[arg-type]  # admit() only

    def read(seconds_later: float) -> str:
        clock[0] += seconds_later
        return conn.admit()

    verdicts = [read(0.03) for _ in range(2000)]  # read every 30 ms: 0.6 token each
    assert verdicts.count("notice") == 1
    assert "close" in verdicts
    noticed, closed = verdicts.index("notice"), verdicts.index("close")
    assert set(verdicts[:noticed]) == {"ok"}
    refused = verdicts[noticed:closed]  # the notice's message and the drops: 100, then a close
    assert len(refused) - refused.count("ok") == 100 and "ok" in refused
    # 3 s within the rate (the burst back): a new flood gets its own notice
    assert read(3.0) == "ok" and conn.dropped == 0
    again = [read(0.0) for _ in range(60)]  # the burst left (59), then over the rate
    assert again.count("notice") == 1 and again[-1] == "notice"


# ------------------------------------------------------------------ 3. seats always reachable
def test_spectators_never_lock_a_player_out(server_factory, make_api):
    """Defect 3: 64 anonymous sockets made a seat's connection fail (4429). Spectators
    now have their own cap; a seat connects whatever they do, by ``?token=``, by the
    subprotocol, or by an ``auth`` first message on a socket opened without a token."""
    caps = {"DAME_NATURE_MAX_SPECTATORS_PER_ROOM": "3", "DAME_NATURE_MAX_CONNECTIONS_PER_ROOM": "3"}
    server = server_factory(caps).start()
    api = make_api(server)
    table = api.table(players=3, seed=9)
    room, tokens = table["room"], table["tokens"]

    async def run() -> None:
        base = server.ws_url + ws_path(room)
        watchers = [await connect(base) for _ in range(3)]
        for watcher in watchers:
            assert json.loads(await watcher.recv())["view"]["seat"] is None
        async with connect(base) as extra:  # one spectator too many
            error = json.loads(await extra.recv())
            assert error["error"]["code"] == "too_many_spectators"
            assert await close_of(extra, 5) == 4429
        async with connect(server.ws_url + ws_path(room, tokens[0])) as seat0:
            assert json.loads(await seat0.recv())["view"]["seat"] == 0
        protocols = ["dame-nature", f"dame-nature.token.{tokens[1]}"]
        async with connect(base, subprotocols=protocols) as seat1:  # type: ignore[arg-type]
            assert seat1.subprotocol == "dame-nature"
            assert json.loads(await seat1.recv())["view"]["seat"] == 1
        async with connect(base) as seat2:  # no token: it says who it is first
            await seat2.send(json.dumps({"type": "auth", "token": tokens[2]}))
            view = json.loads(await seat2.recv())["view"]
            assert view["seat"] == 2 and view["hand"]
        for watcher in watchers:
            await watcher.close()

    asyncio.run(run())


# ------------------------------------------------------------------ 4. idle and slow connections
def test_idle_and_slow_connections_are_closed_and_capped(server_factory):
    """Defect 4: idle and slow-header connections stayed open for ever. Now a request
    head has a deadline, idle keep-alives are dropped, and one address can hold only so
    many connections (the next is answered 429 and closed)."""
    server = server_factory(
        {
            "DAME_NATURE_HTTP_HEADER_TIMEOUT_SECONDS": "1",
            "DAME_NATURE_HTTP_KEEP_ALIVE_SECONDS": "1",
            "DAME_NATURE_MAX_CONNECTIONS_PER_ADDRESS": "50",
        }
    ).start()

    async def run() -> tuple[int, int, int, float]:
        idle = await idle_connections(server.port, 20)
        slow_closed = await slow_headers(server.port, 20, seconds=6.0, every=0.3)
        await asyncio.sleep(0.5)
        idle_closed = count_closed(idle)
        for sock in idle:
            sock.close()
        await asyncio.sleep(0.3)
        crowd = await idle_connections(server.port, 60)
        await asyncio.sleep(0.5)
        refused = count_closed(crowd)  # answered 429 at once, beyond the 50
        await asyncio.sleep(1.5)  # the 50 others time out: the address may connect again
        health = await health_latencies(server.url, 0.1)
        for sock in crowd:
            sock.close()
        return slow_closed, idle_closed, refused, median_ms(health)

    slow_closed, idle_closed, refused, health = asyncio.run(run())
    assert slow_closed == 20
    assert idle_closed == 20
    assert refused >= 10
    assert health < 5000  # answered (not refused) once the crowd timed out


# ------------------------------------------------------------------ 5. limits per client
def test_room_creation_is_limited_per_address_not_per_connection(server_factory):
    """Defect 5: the creation limit was per TCP connection; a new connection a request
    made rooms without end. Now it is per client address: the real one behind a
    trusted proxy, whose X-Forwarded-For is believed; nobody else's is."""
    slow = {"DAME_NATURE_CREATE_RATE_PER_SECOND": "0.001", "DAME_NATURE_CREATE_RATE_BURST": "4"}
    direct, proxied = start_all(
        [server_factory(slow), server_factory({**slow, "DAME_NATURE_TRUSTED_PROXIES": "127.0.0.1"})]
    )
    answers = []
    for i in range(6):
        with httpx.Client(base_url=direct.url) as fresh:  # a new connection each time
            forged = {"x-forwarded-for": f"198.51.100.{i}"}  # not believed: no trusted proxy
            answers.append(fresh.post("/api/rooms", json={}, headers=forged))
    assert [a.status_code for a in answers] == [201] * 4 + [429] * 2
    refused = answers[-1]  # when to try again: one creation frees in 1 / 0.001 s
    assert refused.headers["retry-after"] == "1000"
    assert refused.json()["error"]["message"].endswith("try again in 1000 s.")

    with httpx.Client(base_url=proxied.url) as proxy:

        def create(client_ip: str) -> int:
            headers = {"x-forwarded-for": f"{client_ip}, 127.0.0.1"}
            return proxy.post("/api/rooms", json={}, headers=headers).status_code

        assert [create("203.0.113.1") for _ in range(5)] == [201] * 4 + [429]
        assert create("203.0.113.2") == 201  # another client behind the same proxy


def test_idle_lobbies_are_evicted_before_anyone_is_refused(server_factory, make_api):
    """Defect 5: with the room cap reached by lobbies nobody starts, every create was
    refused for days. Idle lobbies (no socket) are now evicted first, oldest first."""
    server = server_factory(
        {"DAME_NATURE_MAX_ROOMS": "3", "DAME_NATURE_LOBBY_EVICT_IDLE_SECONDS": "0"}
    ).start()
    api = make_api(server)
    rooms = [api.create().json()["room"] for _ in range(3)]
    with api.socket(rooms[0]) as watcher:  # a watched lobby is kept
        watcher.receive_type("state")
        answer = api.create()
        assert answer.status_code == 201, answer.text
        assert api.info(rooms[0]).status_code == 200
        assert api.info(rooms[1]).status_code == 404  # the oldest idle one went


def test_actions_are_limited_per_seat_but_a_sane_bot_never_is(server_factory, make_api):
    server = server_factory(
        {"DAME_NATURE_ACTION_RATE_PER_SECOND": "5", "DAME_NATURE_ACTION_RATE_BURST": "10"}
    ).start()
    api = make_api(server)
    table = api.table(players=3, seed=11)
    for _ in range(12):  # a bot at 4 actions a second, all accepted
        stepped = api.step(table)
        assert stepped is not None and stepped[2].status_code == 200, stepped
        time.sleep(0.25)
    token = table["tokens"][0]
    answers = [api.act(table["room"], token, {"type": "unready"}) for _ in range(30)]
    codes = [a.json()["error"]["code"] for a in answers if a.status_code != 200]
    assert "rate_limited" in codes
    assert api.act(table["room"], table["tokens"][1], {"type": "unready"}).status_code != 429


# ------------------------------------------------------------------ 6. reconnects
def test_a_flapping_seat_is_refused_and_costs_no_commit_per_connect(
    server_factory, make_api, tmp_path
):
    """Defect 6: one token reconnecting in a loop made a commit and a broadcast per
    connect. Connects are now limited per token (4429, which clients retry later), the
    connected flag costs one write per 100 versions, and versions still never go back
    across a restart."""
    db = tmp_path / "flap.sqlite3"
    env = {"DAME_NATURE_CONNECT_RATE_PER_SECOND": "0.5", "DAME_NATURE_CONNECT_RATE_BURST": "40"}
    server = server_factory(env, db=db).start()
    api = make_api(server)
    table = api.table(players=3, seed=13)
    room, token = table["room"], table["tokens"][0]

    def stored_version() -> int:
        with sqlite3.connect(db) as conn:
            row = conn.execute("SELECT version FROM rooms WHERE code = ?", (room,)).fetchone()
            return int(row[0])

    async def flap(times: int) -> tuple[list[int], list[str]]:
        versions, refusals = [], []
        for _ in range(times):
            async with connect(server.ws_url + ws_path(room, token)) as ws:
                message = json.loads(await ws.recv())
                if message["type"] == "state":
                    versions.append(message["view"]["version"])
                else:
                    refusals.append(message["error"]["code"])
                    assert await close_of(ws, 5) == 4429
        return versions, refusals

    first = stored_version()
    versions, refusals = asyncio.run(flap(45))
    assert len(versions) == 40 and set(refusals) == {"too_many_connects"}
    seen = max(versions)
    assert seen >= first + 40  # every connect was a new version (connected flag) ...
    assert stored_version() > seen  # ... stored ahead in one go, not once per connect
    server.kill()
    server.start()
    assert api.state(room).json()["version"] > seen  # never back, even after SIGKILL


# ------------------------------------------------------------------ 7. tokens in logs
def test_seat_tokens_never_reach_the_log(server_factory, make_api, tmp_path):
    """Defect 7: uvicorn logged ``ws?token=<token>``. The token is now redacted, and the
    subprotocol and ``auth`` message keep it out of the URL altogether."""
    log = tmp_path / "server.log"
    server = server_factory({}).__class__(tmp_path / "log.sqlite3", {}, "info", log).start()
    try:
        api = make_api(server)
        table = api.table(players=3, seed=15)
        room, tokens = table["room"], table["tokens"]
        with api.socket(room, tokens[0]) as ws:
            assert ws.receive_type("state")["view"]["seat"] == 0
        api.state(room, tokens[1])

        async def others() -> None:
            protocols = ["dame-nature", f"dame-nature.token.{tokens[1]}"]
            async with connect(server.ws_url + ws_path(room), subprotocols=protocols) as ws:  # type: ignore[arg-type]
                assert json.loads(await ws.recv())["view"]["seat"] == 1

        asyncio.run(others())
    finally:
        server.stop()
    text = log.read_text()
    assert "WebSocket /api/rooms/" in text  # the access log is on ...
    assert "token=[redacted]" in text
    for token in tokens:  # ... and holds no token
        assert token not in text


# ------------------------------------------------------------------ 8. deep JSON
def test_deep_json_is_a_400_and_a_websocket_error(api):
    """Defect 8: 1,000 nested arrays answered 500; 2,000 on a websocket dropped it."""
    deep = "[" * 1000 + "]" * 1000
    answer = api.http.post("/api/rooms", content=deep, headers=JSON)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid_json"
    table = api.table(players=3, seed=17)
    with api.socket(table["room"], table["tokens"][0]) as ws:
        ws.receive_type("state")
        ws.send("[" * 2000 + "]" * 2000)
        assert ws.receive_type("error")["error"]["code"] == "invalid_json"
        ws.send({"type": "ping"})
        assert ws.receive_type("pong")  # still open


# ------------------------------------------------------------------ 9. headers, content type
SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy")


def test_every_response_carries_the_security_headers(api):
    """Defect 9: no CSP, nosniff, frame-ancestors or Referrer-Policy anywhere."""
    home = api.http.get("/")
    static = next(
        part.split('"')[0] for part in home.text.split('src="')[1:] if part.startswith("/static/")
    )
    for path in ("/", "/r/NoSuchRoom123", static, "/api/modes", "/healthz", "/docs",
                 "/openapi.json", "/nothing-here", "/docs/assets/swagger-ui.css"):  # fmt: skip
        answer = api.http.get(path)
        for header in SECURITY_HEADERS:
            assert header in answer.headers, (path, header)
        csp = answer.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"


def test_docs_load_nothing_from_elsewhere(api):
    """Defect 9: /docs loaded Swagger UI from a CDN on the origin holding the tokens."""
    page = api.http.get("/docs")
    assert page.status_code == 200
    assert (
        "http://" not in page.text and "https://" not in page.text and "<script>" not in page.text
    )
    for asset in (
        "/docs/assets/swagger-ui-bundle.js",
        "/docs/assets/swagger-ui.css",
        "/docs/init.js",
    ):
        assert api.http.get(asset).status_code == 200, asset
    assert api.http.get("/redoc").status_code == 404
    assert api.http.get("/openapi.json").json()["info"]["title"]


def test_writes_require_a_json_content_type(api):
    """Defect 9: a cross-site ``text/plain`` or form POST created and joined rooms."""
    body = b'{"seed": 4}'
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        answer = api.http.post("/api/rooms", content=body, headers={"content-type": content_type})
        assert answer.status_code == 415, content_type
        assert answer.json()["error"]["code"] == "unsupported_media_type"
    assert api.http.post("/api/rooms", content=body).status_code == 415  # no type at all
    room = api.http.post("/api/rooms", content=body, headers=JSON).json()["room"]
    answer = api.http.post(
        f"/api/rooms/{room}/players",
        content=b'{"name": "Eve"}',
        headers={"content-type": "text/plain"},
    )
    assert answer.status_code == 415 and api.info(room).json()["players"] == []
    charset = {"content-type": "application/json; charset=utf-8"}
    assert (
        api.http.post(
            f"/api/rooms/{room}/players", content=b'{"name": "Ada"}', headers=charset
        ).status_code
        == 201
    )
    assert (
        api.http.get(f"/api/rooms/{room}", headers={"content-type": "text/plain"}).status_code
        == 200
    )


# ------------------------------------------------------------------ 10. a host-chosen deal
def test_every_seat_is_told_when_the_host_chose_the_deal(api):
    """Defect 10: a host's seed or deal was secret, so the host could know every hand."""
    chosen = api.table(players=3, seed=21, start=False)
    room, tokens = chosen["room"], chosen["tokens"]
    assert api.state(room, tokens[1]).json()["deal_chosen_by_host"] is True  # the lobby
    assert api.info(room).json()["deal_choice"] == "seed"
    assert api.start(room, chosen["host"]).status_code == 200
    for token in [*tokens, None]:
        view = api.state(room, token).json()
        assert view["deal_chosen_by_host"] is True and view["deal_choice"] == "seed"
    api.play_out(chosen)
    replay = api.replay(room).json()
    assert replay["deal_chosen_by_host"] is True and replay["setup"]["deal_chosen_by_host"] is True
    assert api.rematch(room, chosen["host"]).status_code == 200
    assert api.state(room, tokens[0]).json()["deal_chosen_by_host"] is False  # a fresh deal
    fair = api.table(players=3)
    assert api.state(fair["room"], fair["tokens"][0]).json()["deal_chosen_by_host"] is False
    assert api.info(fair["room"]).json()["deal_choice"] is None


# ------------------------------------------------------------------ 11. the schema, 405
def test_the_schema_says_what_is_accepted_and_405_says_allow(api):
    """Defect 11: ``seed: 5.0`` (an integer for JSON Schema) was refused; ``modes`` with
    ``path`` and blank names were allowed by the schema; a 405 had no ``Allow``."""
    assert api.create(seed=5.0).status_code == 201
    for body in ({"seed": 5.5}, {"seed": "5"}, {"seed": True}, {"modes": ["wetland"], "path": 1}):
        assert api.create(**body).status_code == 422, body
    assert api.create(modes=[], path=1).status_code == 201
    schema = api.http.get("/openapi.json").json()["components"]["schemas"]
    create = schema["RoomCreate"]
    assert {
        "not": {
            "required": ["modes", "path"],
            "properties": {"modes": {"minItems": 1}, "path": {"type": "integer"}},
        }
    } in create["allOf"]
    assert "wetland" in create["properties"]["modes"]["items"]["enum"]
    assert "pattern" in schema["PlayerCreate"]["properties"]["name"]
    room = api.create().json()["room"]
    for name in ("   ", "\u202eevil", "a\x07"):
        assert api.join(room, name).status_code == 422, name
    assert api.join(room, "  Zoë   the 👩\u200d💻 ").json()["seat"] == 0
    answer = api.http.get("/api/rooms")
    assert answer.status_code == 405 and "POST" in answer.headers["allow"]
    assert answer.json()["error"]["code"] == "method_not_allowed"


def test_booleans_are_json_booleans(api):
    """As the integers are: ``"hints": "yes"`` (or ``1``, ``"false"``) was taken for
    ``true`` and the room created; a ``visibility`` of ``"no"`` for ``false``. Each is
    now refused, and nothing is created."""
    rooms = api.http.get("/healthz").json()["rooms"]
    for value in ("yes", "false", 1, 0, None):
        for path, body in (("/api/rooms", {}), ("/api/daily", {"players": 3})):
            answer = api.http.post(path, json={**body, "hints": value})
            assert answer.status_code == 422, (path, value, answer.text)
            assert answer.json()["error"]["code"] == "invalid_request"
    assert api.http.get("/healthz").json()["rooms"] == rooms
    assert api.create(hints=True).status_code == 201
    table = api.table(players=3, seed=17)
    with api.socket(table["room"], table["tokens"][0]) as ws:
        ws.receive_type("state")
        for value in ("no", 0, None):
            ws.send({"type": "visibility", "visible": value})
            assert ws.receive_type("error")["error"]["code"] == "invalid_message"
        ws.send({"type": "visibility", "visible": False})
        ws.send({"type": "ping"})
        assert ws.receive()["type"] == "pong"  # taken, and nothing answered for it


def test_every_integer_of_a_body_is_a_json_number(api):
    """``seed: "5"`` was refused but ``turn_limit_seconds: "3600"`` and the daily
    deal's ``players: "3"`` were taken for numbers (and ``true`` for 1), as were
    ``play_from``'s ``actions`` and ``game``. Now every one is refused, 422."""
    rooms = api.http.get("/healthz").json()["rooms"]
    for body in ({"turn_limit_seconds": "3600"}, {"turn_limit_seconds": True}):
        answer = api.create(**body)
        assert answer.status_code == 422, (body, answer.text)
        assert answer.json()["error"]["code"] == "invalid_request"
    for players in ("3", True):
        answer = api.http.post("/api/daily", json={"players": players})
        assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_request"
    assert api.http.get("/healthz").json()["rooms"] == rooms
    assert api.create(turn_limit_seconds=3600.0).status_code == 201  # 3600 in JSON Schema
    room = api.create().json()["room"]
    path = f"/api/rooms/{room}/replay/play_from"
    for body in ({"actions": "1", "seat": 0}, {"actions": 1, "seat": 0, "game": "1"}):
        answer = api.http.post(path, json=body)
        assert answer.status_code == 422, (body, answer.text)  # before: 409 game_not_over
