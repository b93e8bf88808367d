"""Fixtures of the server tests: a real ``uvicorn`` subprocess on a free loopback port with
its own store, an HTTP client for it, and a small API client used by the tests.

The ``server`` fixture (and so ``api``) runs each test on both stores: ``sqlite`` (its own
file) and ``postgres`` (a database of its own on the session's throwaway PostgreSQL, with
the session's Redis for fan-out, as deployed); ``postgres``, ``redis`` and ``store_url``
give the real services to tests of their own (``benchmarks/_support/services.py``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from benchmarks._support.live_server import ServerProcess
from benchmarks._support.scripted import scripted_action
from benchmarks._support.services import Postgres, Redis, require


class Api:
    """A thin client of the API for tests: raises nothing, returns responses."""

    def __init__(self, http: httpx.Client, ws_url: str = "") -> None:
        self.http = http
        self.ws_url = ws_url

    @staticmethod
    def auth(token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"} if token else {}

    def create(self, **body: Any) -> httpx.Response:
        return self.http.post("/api/rooms", json=body)

    def join(self, room: str, name: str) -> httpx.Response:
        return self.http.post(f"/api/rooms/{room}/players", json={"name": name})

    def start(self, room: str, token: str | None) -> httpx.Response:
        return self.http.post(f"/api/rooms/{room}/start", headers=self.auth(token))

    def rematch(self, room: str, token: str | None) -> httpx.Response:
        return self.http.post(f"/api/rooms/{room}/rematch", headers=self.auth(token))

    def info(self, room: str) -> httpx.Response:
        return self.http.get(f"/api/rooms/{room}")

    def state(self, room: str, token: str | None = None) -> httpx.Response:
        return self.http.get(f"/api/rooms/{room}/state", headers=self.auth(token))

    def act(self, room: str, token: str | None, action: Any) -> httpx.Response:
        return self.http.post(f"/api/rooms/{room}/actions", headers=self.auth(token), json=action)

    def legal(self, room: str, token: str) -> list[dict[str, Any]]:
        r = self.http.get(f"/api/rooms/{room}/legal_actions", headers=self.auth(token))
        assert r.status_code == 200, r.text
        actions: list[dict[str, Any]] = r.json()["actions"]
        return actions

    def add_bot(
        self, room: str, token: str | None, level: str | None = None, seat: int | None = None
    ) -> httpx.Response:
        body: dict[str, Any] = {} if level is None else {"level": level}
        if seat is not None:
            body["seat"] = seat
        return self.http.post(f"/api/rooms/{room}/bots", headers=self.auth(token), json=body)

    def remove_bot(self, room: str, token: str | None, seat: int) -> httpx.Response:
        return self.http.delete(f"/api/rooms/{room}/bots/{seat}", headers=self.auth(token))

    def remove_seat(self, room: str, token: str | None, who: int | str = "me") -> httpx.Response:
        return self.http.delete(f"/api/rooms/{room}/players/{who}", headers=self.auth(token))

    def replay(self, room: str, game: int | None = None) -> httpx.Response:
        params = {} if game is None else {"game": game}
        return self.http.get(f"/api/rooms/{room}/replay", params=params)

    def replay_steps(self, room: str, game: int | None = None) -> httpx.Response:
        params = {} if game is None else {"game": game}
        return self.http.get(f"/api/rooms/{room}/replay/steps", params=params)

    def table(
        self, players: int = 4, names: list[str] | None = None, start: bool = True, **body: Any
    ) -> dict[str, Any]:
        """A room with ``players`` seats joined (and started): room, host, tokens."""
        r = self.create(**body)
        assert r.status_code == 201, r.text
        created = r.json()
        tokens = []
        for i in range(players):
            joined = self.join(created["room"], (names or [])[i] if names else f"P{i}")
            assert joined.status_code == 201, joined.text
            assert joined.json()["seat"] == i
            tokens.append(joined.json()["token"])
        if start:
            started = self.start(created["room"], created["host_token"])
            assert started.status_code == 200, started.text
        return {"room": created["room"], "host": created["host_token"], "tokens": tokens}

    # ---------------------------------------------------------------- a scripted player
    #: a fixed policy: the awaited choice's first option, else the first card, else ready
    scripted_action = staticmethod(scripted_action)

    @staticmethod
    def next_seat(spectator: dict[str, Any]) -> int:
        """The seat the script moves next: the awaited one, else the first the table
        waits for (the view's ``to_act``)."""
        if spectator["awaiting"]:
            return int(spectator["awaiting"]["seat"])
        if spectator["to_act"]:
            return int(spectator["to_act"][0])
        raise AssertionError(f"no seat can act in {spectator}")

    def step(self, table: dict[str, Any]) -> tuple[int, dict[str, Any], httpx.Response] | None:
        """One scripted action in the room; None once the game is over."""
        room, tokens = table["room"], table["tokens"]
        spectator = self.state(room).json()
        if spectator["phase"] == "over":
            return None
        seat = self.next_seat(spectator)
        legal = self.legal(room, tokens[seat])
        if not spectator["winnable"]:
            action = {"type": "end_game"}
        else:
            action = self.scripted_action(self.state(room, tokens[seat]).json(), legal)
        assert action in legal
        return seat, action, self.act(room, tokens[seat], action)

    def play_out(self, table: dict[str, Any], limit: int = 3000) -> dict[str, Any]:
        """Play the room's game to its end with the script; the last spectator view.
        Checks that each action answers the actor's view, one version later."""
        version = self.state(table["room"]).json()["version"]
        for _ in range(limit):
            stepped = self.step(table)
            if stepped is None:
                return self.state(table["room"]).json()  # type: ignore[no-any-return]
            seat, _, answer = stepped
            assert answer.status_code == 200, answer.text
            new = answer.json()
            assert new["seat"] == seat
            assert new["version"] == version + 1  # one change, one version
            version = new["version"]
        raise AssertionError("the game did not end")

    @contextmanager
    def socket(self, room: str, token: str | None = None) -> Iterator[WsClient]:
        url = f"{self.ws_url}/api/rooms/{room}/ws" + (f"?token={token}" if token else "")
        # every message read off the wire at once (no bounded queue): a socket the test
        # reads late must not hold the server's writes back (its outbox would fill)
        with connect(url, open_timeout=10, max_size=2**22, max_queue=None) as ws:
            yield WsClient(ws)


class WsClient:
    """A synchronous websocket client that remembers the last view it received."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.view: dict[str, Any] | None = None
        self.messages: list[dict[str, Any]] = []

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def receive(self, timeout: float = 10) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(message)
        if message["type"] == "state":
            self.view = message["view"]
        return message

    def receive_type(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        while True:
            message = self.receive(timeout)
            if message["type"] == kind:
                return message

    def wait_version(self, version: int, timeout: float = 10) -> dict[str, Any]:
        """Read messages until a view of at least ``version``; returns that view."""
        while self.view is None or self.view["version"] < version:
            self.receive(timeout)
        assert self.view is not None
        return self.view


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A throwaway PostgreSQL for the session (skips when it is not installed)."""
    require("postgresql")
    service = Postgres().start()
    yield service
    service.stop()


@pytest.fixture(scope="session")
def redis() -> Iterator[Redis]:
    """A throwaway Redis for the session (skips when it is not installed)."""
    require("redis")
    service = Redis().start()
    yield service
    service.stop()


STORES = ["sqlite", "postgres"]


@pytest.fixture(scope="session", params=STORES)
def store_kind(request: pytest.FixtureRequest) -> str:
    kind: str = request.param
    return kind


def make_store_url(kind: str, folder: Path, request: pytest.FixtureRequest) -> str:
    """A fresh store of ``kind``: a SQLite file in ``folder``, or a new PostgreSQL database."""
    if kind == "sqlite":
        return str(folder / "rooms.sqlite3")
    pg: Postgres = request.getfixturevalue("postgres")
    return pg.create_database()


@pytest.fixture(scope="session")
def server(
    store_kind: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[ServerProcess]:
    """One real uvicorn server a store for the session (rate limits lifted)."""
    url = make_store_url(store_kind, tmp_path_factory.mktemp("server"), request)
    args = []
    if store_kind == "postgres":
        args = ["--redis", request.getfixturevalue("redis").url]
    proc = ServerProcess(url, args=args).start()
    yield proc
    proc.stop()


@pytest.fixture
def store_url(store_kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A fresh, empty store of the parametrised kind, for a test of its own."""
    return make_store_url(store_kind, tmp_path, request)


@pytest.fixture
def api(server: ServerProcess) -> Iterator[Api]:
    with httpx.Client(base_url=server.url, timeout=20) as http:
        yield Api(http, server.ws_url)


@pytest.fixture
def make_api() -> Iterator[Any]:
    """``make_api(server)``: an ``Api`` for a server of one's own."""
    clients: list[httpx.Client] = []

    def make(server: ServerProcess) -> Api:
        http = httpx.Client(base_url=server.url, timeout=20)
        clients.append(http)
        return Api(http, server.ws_url)

    yield make
    for http in clients:
        http.close()


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Any]:
    """Start servers of one's own (for restarts, limits); all stopped at the end."""
    started: list[ServerProcess] = []

    def make(env: dict[str, str] | None = None, db: Path | None = None) -> ServerProcess:
        proc = ServerProcess(db or tmp_path / "rooms.sqlite3", env)
        started.append(proc)
        return proc

    yield make
    for proc in started:
        proc.stop()


def clear_of_midnight(margin: float = 300.0) -> None:
    """Return at once unless midnight UTC (when the daily deals change) is less than
    ``margin`` seconds away; then wait until it has passed, so that a test of the daily
    deal runs within one day."""
    import datetime as dt
    import time

    while True:
        now = dt.datetime.now(dt.UTC)
        midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), dt.UTC)
        left = (midnight - now).total_seconds()
        if left > margin:
            return
        time.sleep(left + 1)
