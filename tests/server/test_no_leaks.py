"""200 random games played through the API by a random legal player: no response and no
websocket message to a seat (or to a spectator) ever holds a card id it is not entitled to.
On PostgreSQL the first 60 of them: the views do not depend on the store, whose reads and
writes those games go through as the SQLite file's do.

A seat is entitled to a card once it has legitimately seen it: its own cards, the cards
in public places (web, discard, in play, out of the game) and the cards the state says it
knows (shown, given, swapped, returned). Entitlement is cumulative: a card seen once may
be named later (the log tail keeps past public events). Everything else (other hands,
other programmed cards, the cards set aside, the deck) must never appear.

The games run in-process (``httpx`` over the ASGI app), in two worker processes, for
speed; for 40% of its moves the random player (the bots' ``choose``) picks among what
``legal_actions`` lists (so it also makes every kind of Symbiosis), otherwise the random
bot plays from the seat's view. Each seat and one
spectator have a recording socket attached through the same ``RoomManager.connect`` path
the websocket route uses, so every broadcast is checked too.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
from typing import Any

import httpx

from dame_nature.bots import make_bot
from dame_nature.bots.random_bot import choose
from dame_nature.engine import MODES, raw_card_data
from dame_nature.server.app import create_app
from dame_nature.server.connections import Connection
from dame_nature.server.settings import Settings

#: the games played on each store
GAMES = {"sqlite": 200, "postgres": 60}
PUBLIC = -1


def from_view(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A move of the bots' random level for the seat of ``view``, from that view alone
    (a bot made for this one move: its draws come from ``rng``); when it has nothing to
    do, the seat says ready or takes it back."""
    bot = make_bot("random", view["seat"], seed=rng.randrange(2**32))
    action = bot.act(view)
    if action is not None:
        return action
    me = view["players"][view["seat"]]
    return {"type": "ready"} if not me["ready"] else {"type": "unready"}


def all_card_ids() -> set[str]:
    data = raw_card_data()
    ids: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("id"), str) and "type" in node:
                ids.add(node["id"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    return ids


CARD_IDS = all_card_ids()
#: a quoted string that is not an object key; a card id unless it is a slot field's value
#: (slot ids are layout names: "<species-id>:1", "<species-id>", not cards)
QUOTED = re.compile(r'"([a-z][a-z0-9-]{2,63})"(?!:)')
SLOT_FIELD = '"slot":'


def card_ids_in(text: str) -> set[str]:
    """Every card id among the string values of a compact JSON text."""
    found: set[str] = set()
    for match in QUOTED.finditer(text):
        value = match.group(1)
        if (
            value in CARD_IDS
            and text[match.start() - len(SLOT_FIELD) : match.start()] != SLOT_FIELD
        ):
            found.add(value)
    return found


class RecordingSocket:
    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send_text(self, data: str) -> None:
        self.texts.append(data)


def seen_now(state: Any, viewer: int | None) -> set[str]:
    """The cards ``viewer`` (None: spectator) may see in the current state."""
    seen: set[str] = {c for c in state.web.values() if c is not None}
    seen |= set(state.discard) | {c for _, c in state.in_play} | set(state.out_of_game)
    seen |= {card for _, card in state.known[PUBLIC]}
    for record in state.revealed_this_turn + state.last_turn:
        seen.add(record["card"])
    if state.reveal_queue and state.phase == "reveal":
        seen.add(state.programmed[state.reveal_queue[0]])  # the card being revealed, face up
    if viewer is not None:
        seen |= set(state.hands[viewer])
        if state.programmed[viewer] is not None:
            seen.add(state.programmed[viewer])
        seen |= {card for _, card in state.known[viewer]}
    return seen


async def play_one(client: httpx.AsyncClient, app: Any, index: int) -> int:
    rng = random.Random(index)
    players = rng.randint(3, 6)
    body: dict[str, Any]
    if index % 10 == 0:
        body = {"path": rng.randint(1, 4), "seed": index}
    else:
        body = {"modes": [m for m in MODES if rng.random() < 0.3], "seed": index}
    created = (await client.post("/api/rooms", json=body)).json()
    code, host = created["room"], created["host_token"]
    tokens = []
    for i in range(players):
        tokens.append(
            (await client.post(f"/api/rooms/{code}/players", json={"name": f"p{i}"})).json()[
                "token"
            ]
        )
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    started = await client.post(
        f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {host}"}
    )
    assert started.status_code == 200, started.text
    manager = app.state.manager
    room = await manager.get(code)
    settings = app.state.settings
    sockets: dict[int | None, RecordingSocket] = {}
    conns = []
    for seat in [*range(players), None]:
        sockets[seat] = RecordingSocket()
        conn = Connection(sockets[seat], seat, settings)
        conns.append(conn)
        await manager.connect(room, conn)
    bots = {seat: make_bot("random", seat, seed=index * 10 + seat) for seat in range(players)}
    entitled: dict[int | None, set[str]] = {s: set() for s in sockets}
    checked = {s: 0 for s in sockets}

    def check(viewer: int | None, text: str, what: str) -> None:
        leaked = card_ids_in(text) - entitled[viewer]
        assert not leaked, (
            f"game {index} (body {body}, {players} players): {what} to seat {viewer} "
            f"holds {sorted(leaked)}; replay: {room.state.history}"
        )

    def update_and_check() -> None:
        for viewer, sock in sockets.items():
            entitled[viewer] |= seen_now(room.state, viewer)
            for text in sock.texts[checked[viewer] :]:
                check(viewer, text, "websocket message")
            checked[viewer] = len(sock.texts)

    actions = 0
    for _ in range(5000):
        await asyncio.sleep(0)  # let the sender tasks write
        for conn in conns:
            await conn.flush()
        update_and_check()
        state = room.state
        if state.is_over:
            break
        seat = rng.choice(sorted(state.current_players()))
        if rng.random() < 0.4:
            # ask the API for every legal action (symbioses included)
            legal = await client.get(f"/api/rooms/{code}/legal_actions", headers=auth[seat])
            check(seat, legal.text, "legal_actions")
            action = choose(legal.json()["actions"], rng)
        else:  # the random bot's move from the seat's latest view, as its websocket got it
            action = bots[seat].act(json.loads(sockets[seat].texts[-1])["view"])
            if action is None:  # nothing to do for the bot: any legal action
                legal = await client.get(f"/api/rooms/{code}/legal_actions", headers=auth[seat])
                check(seat, legal.text, "legal_actions")
                action = choose(legal.json()["actions"], rng)
        answer = await client.post(f"/api/rooms/{code}/actions", headers=auth[seat], json=action)
        assert answer.status_code == 200, (index, action, answer.text)
        for viewer in entitled:
            entitled[viewer] |= seen_now(room.state, viewer)
        check(seat, answer.text, "action response")
        actions += 1
        if actions % 7 == 0:  # sometimes read the views by HTTP too
            for viewer in (seat, None):
                got = await client.get(
                    f"/api/rooms/{code}/state", headers=auth[viewer] if viewer is not None else {}
                )
                check(viewer, got.text, "GET state")
    assert room.state.is_over
    replay = await client.get(f"/api/rooms/{code}/replay")
    assert replay.status_code == 200
    for conn in conns:
        await manager.disconnect(room, conn)
    return actions


def play_games(games: range, db: str) -> int:
    """Play ``games`` (their indexes are their seeds) on a fresh app; the actions played."""
    fast = {f"{limit}_per_second": 1e9 for limit in ("rate_limit", "action_rate", "create_rate")}
    bursts = {"rate_limit_burst": 10**9, "action_rate_burst": 10**9, "create_rate_burst": 10**9}
    # every game's end starts its review: computed, but on one position (what a view
    # may hold does not depend on how deep the solver looked)
    settings = Settings(db=db, max_rooms_per_address=10**9, review_node_budget=1, **fast, **bursts)
    app = create_app(settings)

    async def run() -> int:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            total = 0
            for index in games:
                total += await play_one(client, app, index)
            return total

    return asyncio.run(run())


def test_no_view_ever_leaks_a_card(tmp_path, store_kind, request):
    """The games are shared by two worker processes (one a core); each prints its count.
    On both stores (``store_kind``): a SQLite file, a PostgreSQL database, each worker its own."""
    from tests.server.conftest import make_store_url

    workers = 2
    folders = [tmp_path / f"w{w}" for w in range(workers)]
    for folder in folders:
        folder.mkdir()
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                __file__,
                str(w),
                str(workers),
                str(GAMES[store_kind]),
                make_store_url(store_kind, folders[w], request),
            ],  # fmt: skip
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(workers)
    ]
    total = 0
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err[-6000:]
        total += int(out.split()[-1])
    assert total > GAMES[store_kind] * 10


if __name__ == "__main__":
    worker, workers, games, db = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    print(play_games(range(worker, games, workers), db))
