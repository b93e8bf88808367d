"""A room socket's messages from the client, handed to its ``Receiver`` as uvicorn's
protocol parses them (``ListeningWebSocketProtocol.listen``): each is handled in the
order it came, a task runs only while one awaits (an action is saved), reading is
paused meanwhile, and every limit of the socket holds.

The server is uvicorn in the test's own process, with the app and the transport
``dame-nature serve`` uses; the clients are raw TCP sockets speaking websockets'
sans-I/O client protocol, so that several messages go out in one packet.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from tests.server.test_send_now import RawClient
from tests.server.test_socket_front import a_room, chain, serving, socket_tasks, until

PING = json.dumps({"type": "ping"})


async def raw_client(port: int, path: str) -> RawClient:
    """A websocket client, its opening handshake done."""
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}{path}"))
    client = RawClient(sock, protocol)
    protocol.send_request(protocol.connect())
    request = b"".join(protocol.data_to_send())
    await asyncio.get_running_loop().sock_sendall(client.sock, request)
    while protocol.state.name == "CONNECTING":
        await client.read()
    assert protocol.handshake_exc is None
    return client


async def seated_client(base: str) -> tuple[str, str, RawClient]:
    """A new room's first seat: its action (a legal one, as the text a client sends) and
    a raw client on its socket, the first ``state`` read."""
    table = await a_room(base)
    room, token = table["room"], table["tokens"][0]
    action = json.dumps({"type": "action", "action": await a_legal_action(base, room, token)})
    port = int(base.rsplit(":", 1)[1])
    client = await raw_client(port, f"/api/rooms/{room}/ws?token={token}")
    assert kinds(await read_until(client, 1)) == ["state"]
    return room, action, client


async def send_together(client: RawClient, *texts: str) -> None:
    """``texts`` as text frames, written to the socket at once (one packet)."""
    await asyncio.get_running_loop().sock_sendall(client.sock, frames(*texts))


def frames(*texts: str) -> bytes:
    """``texts`` as a client's text frames."""
    return b"".join(Frame(Opcode.TEXT, text.encode()).serialize(mask=True) for text in texts)


async def read_until(client: RawClient, count: int) -> list[dict[str, Any]]:
    """Read until the client holds ``count`` messages (or the server closed it)."""
    while len(client.texts()) < count and await client.read():
        pass
    return [json.loads(text) for text in client.texts()]


def kinds(messages: list[dict[str, Any]]) -> list[str]:
    return [m["error"]["code"] if m["type"] == "error" else m["type"] for m in messages]


def the_receiver() -> Any:
    """The ``Receiver`` of the one socket served."""
    [task] = socket_tasks()
    coro = task.get_coro()
    while coro.__qualname__ != "Receiver.serve":
        coro = coro.cr_await
    return coro.cr_frame.f_locals["self"]


async def a_legal_action(base: str, room: str, token: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=f"http://{base}") as http:
        answer = await http.get(
            f"/api/rooms/{room}/legal_actions", headers={"Authorization": f"Bearer {token}"}
        )
    actions: list[dict[str, Any]] = answer.json()["actions"]
    return actions[0]


async def version_of(base: str, room: str) -> int:
    async with httpx.AsyncClient(base_url=f"http://{base}") as http:
        version: int = (await http.get(f"/api/rooms/{room}/state")).json()["version"]
    return version


class Gate:
    """``manager.play`` held until ``open``: an action being saved, for as long as the
    test wants."""

    def __init__(self, manager: Any) -> None:
        self.entered = asyncio.Event()
        self.opened = asyncio.Event()
        self.play = manager.play
        manager.play = self.held

    async def held(self, *args: Any) -> None:
        self.entered.set()
        await self.opened.wait()
        await self.play(*args)


def test_messages_in_one_packet_are_answered_in_order_across_an_action(tmp_path):
    """Messages sent together, an action among them: the ones before it are answered at
    once; while it is saved, reading is paused and the ones read after it wait; then
    they are answered in the order sent, after the action's new view."""

    async def main() -> None:
        async with serving(tmp_path) as (base, app):
            room, action, client = await seated_client(base)
            gate = Gate(app.state.manager)
            await send_together(client, PING, action, "nope", '{"type": "bogus"}', PING)
            await asyncio.wait_for(gate.entered.wait(), 10)
            receiver = the_receiver()
            protocol = socket_tasks()[0].get_coro().cr_frame.f_locals["self"]
            await until(lambda: receiver.pending is not None and len(receiver.pending) == 3,
                        "the messages after the action wait")  # fmt: skip
            assert protocol.read_paused and receiver.task is not None
            assert kinds(await read_until(client, 2)) == ["state", "pong"]
            gate.opened.set()
            got = kinds(await read_until(client, 6))
            assert got[:2] == ["state", "pong"] and got[-3:] == [
                "invalid_json",
                "invalid_message",
                "pong",
            ], got
            assert set(got[2:-3]) == {"state"}, got  # the action's new view, first
            await until(lambda: receiver.task is None and not protocol.read_paused,
                        "reading resumes once the messages are handled")  # fmt: skip
            assert receiver.pending is None and chain(socket_tasks()[0].get_coro())[-1] == (
                "Receiver.serve"
            )
            client.sock.close()

    asyncio.run(main())


def test_messages_read_before_the_handler_listens_are_answered_first(tmp_path):
    """Messages that arrive while the socket is being attached to its seat (uvicorn
    queues them for ``receive``) are handled first, in order, once the handler listens."""

    async def main() -> None:
        async with serving(tmp_path) as (base, app):
            table = await a_room(base)
            manager = app.state.manager
            attached, attach = asyncio.Event(), asyncio.Event()
            connect_now = manager.connect

            async def held_connect(*args: Any) -> None:
                attached.set()
                await attach.wait()
                await connect_now(*args)

            manager.connect = held_connect
            path = f"/api/rooms/{table['room']}/ws?token={table['tokens'][1]}"
            client = await raw_client(int(base.rsplit(":", 1)[1]), path)
            await attached.wait()
            await send_together(client, PING, "nope", PING)
            protocol = socket_tasks()[0].get_coro().cr_frame.f_locals["self"]
            await until(lambda: protocol.queue.qsize() == 3, "uvicorn queued the messages")
            attach.set()
            got = kinds(await read_until(client, 4))
            assert got == ["state", "pong", "invalid_json", "pong"], got
            client.sock.close()

    asyncio.run(main())


def test_a_socket_gone_while_its_action_is_saved_plays_it_then_leaves(tmp_path):
    """The client goes away while its action is being saved (reading is paused then: its
    end is read once the action and the message read after it are handled): the action
    is still saved and broadcast, then the socket is let go."""

    async def main() -> None:
        async with serving(tmp_path) as (base, app):
            room, action, client = await seated_client(base)
            before = await version_of(base, room)
            gate = Gate(app.state.manager)
            await send_together(client, action, PING)
            await asyncio.wait_for(gate.entered.wait(), 10)
            receiver = the_receiver()
            client.sock.close()  # no close frame: the connection is lost
            await until(lambda: receiver.pending, "the ping waits behind the action")
            gate.opened.set()
            await until(lambda: not socket_tasks(), "the socket is let go")
            assert receiver.gone and receiver.ended.result() == "gone"
            assert await version_of(base, room) > before

    asyncio.run(main())


def test_a_flood_in_one_packet_gets_one_notice_then_1008(tmp_path):
    async def main() -> None:
        limits = {"ws_rate_burst": 3, "ws_rate_per_second": 0.01, "ws_flood_close_after": 5}
        async with serving(tmp_path, **limits) as (base, _):
            table = await a_room(base)
            path = f"/api/rooms/{table['room']}/ws?token={table['tokens'][0]}"
            client = await raw_client(int(base.rsplit(":", 1)[1]), path)
            assert kinds(await read_until(client, 1)) == ["state"]
            await send_together(client, *[PING] * 50)
            await client.until_closed()
            assert kinds([json.loads(t) for t in client.texts()]) == [
                "state",
                *["pong"] * 3,
                "rate_limited",
            ]
            [close] = [f for f in client.frames if f.opcode is Opcode.CLOSE]
            assert int.from_bytes(close.data[:2], "big") == 1008
            client.sock.close()

    asyncio.run(main())


def test_an_oversized_message_in_one_packet_ends_the_reading_with_1009(tmp_path):
    async def main() -> None:
        async with serving(tmp_path, max_message_bytes=4096) as (base, _):
            table = await a_room(base)
            path = f"/api/rooms/{table['room']}/ws?token={table['tokens'][0]}"
            client = await raw_client(int(base.rsplit(":", 1)[1]), path)
            assert kinds(await read_until(client, 1)) == ["state"]
            big = json.dumps({"type": "ping", "pad": "x" * 5000})
            await send_together(client, PING, big, PING)
            await client.until_closed()
            assert kinds([json.loads(t) for t in client.texts()]) == [
                "state",
                "pong",
                "message_too_large",
            ]
            [close] = [f for f in client.frames if f.opcode is Opcode.CLOSE]
            assert int.from_bytes(close.data[:2], "big") == 1009
            client.sock.close()

    asyncio.run(main())


def test_a_socket_served_without_the_front_receives_each_message(tmp_path):
    """Without ``SocketFront`` a middleware wraps ``send``: the handler awaits each
    message from the ASGI ``receive`` instead, with the same answers in the same order."""

    async def main() -> None:
        async with serving(tmp_path, front=False) as (base, _):
            table = await a_room(base)
            room, token = table["room"], table["tokens"][0]
            action = {"type": "action", "action": await a_legal_action(base, room, token)}
            async with connect(f"ws://{base}/api/rooms/{room}/ws?token={token}") as ws:
                assert json.loads(await ws.recv())["type"] == "state"
                for text in (PING, json.dumps(action), "nope", PING):
                    await ws.send(text)
                got = []
                while len(got) < 4 or got[-1] != "pong":
                    got.append(kinds([json.loads(await asyncio.wait_for(ws.recv(), 10))])[0])
                assert got[0] == "pong" and got[-2:] == ["invalid_json", "pong"], got
                assert set(got[1:-2]) == {"state"}, got
                [task] = socket_tasks()
                assert "Router.__call__" in chain(task.get_coro())
                assert chain(task.get_coro())[-1] == "Queue.get"  # the ASGI receive

    asyncio.run(main())


def test_an_action_with_nothing_to_wait_for_is_handled_at_once(tmp_path):
    """On SQLite with the room's lock free, an action's handling never waits: it runs
    from the socket's read, to its end (saved, then broadcast), with no task made and
    reading never paused; the message after it is answered after its view."""

    async def main() -> None:
        async with serving(tmp_path) as (base, app):
            room, action, client = await seated_client(base)
            before = await version_of(base, room)
            receiver = the_receiver()
            protocol = socket_tasks()[0].get_coro().cr_frame.f_locals["self"]
            manager = app.state.manager
            play, seen = manager.play, []

            async def watched(*args: Any) -> None:
                seen.append((receiver.task, protocol.read_paused))
                await play(*args)

            manager.play = watched
            await send_together(client, action, PING)
            got = kinds(await read_until(client, 3))
            assert got[-1] == "pong" and set(got[1:-1]) == {"state"}, got
            assert seen == [(None, False)]
            assert receiver.task is None and receiver.pending is None
            assert await version_of(base, room) == before + 1
            client.sock.close()

    asyncio.run(main())


def test_the_rest_of_a_handling_that_waits_is_driven_as_its_own_task_would_drive_it():
    """``_resumed``: a coroutine run at once until it waited goes on in a task: a
    future's result, a failed future, a bare turn of the loop and a cancellation reach
    it as they would reach it in a task of its own."""
    from dame_nature.server.routes.ws import _resumed

    async def main() -> None:
        loop = asyncio.get_running_loop()
        first, failed, last = loop.create_future(), loop.create_future(), loop.create_future()
        seen: list[Any] = []

        async def work() -> None:
            seen.append(await first)
            try:
                await failed
            except ValueError as err:
                seen.append(str(err))
            await asyncio.sleep(0)  # a bare turn of the loop: None yielded to the task
            seen.append("turned")
            try:
                await last
            except asyncio.CancelledError:
                seen.append("cancelled")
                raise

        coro = work()
        waiting = coro.send(None)
        assert waiting is first
        task = loop.create_task(_resumed(coro, waiting))
        first.set_result(1)
        failed.set_exception(ValueError("refused"))
        while seen[-1:] != ["turned"]:
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert seen == [1, "refused", "turned", "cancelled"] and task.cancelled()
        assert last.cancelled()

    asyncio.run(main())
