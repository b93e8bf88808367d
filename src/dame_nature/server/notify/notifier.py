"""When the table starts waiting for a seat whose player opted in, tell them: a Web Push
to each of their devices and a mail to their address, at most once per turn (the
``last_sent`` mark, claimed in the store, so that a restart or another node never sends
it twice), never to a seat whose page is open and visible, never once the game is over
or after they opted out. In a cluster, the node leading the room's bots sends."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..settings import Settings
from . import keys, mail, push, subscriptions

log = logging.getLogger("dame_nature.server")

#: seconds this node trusts its copy of a room's opt-ins (another node may change them)
CACHE_SECONDS = 30.0


class Notifier:
    def __init__(
        self,
        settings: Settings,
        store: Any,
        may_send: Callable[[str], Awaitable[bool]],
        visible: Callable[[str, int], bool],
    ) -> None:
        self.settings = settings
        self.store = store
        self.may_send = may_send
        self.visible = visible
        self.key: Any = None
        self._subs: dict[str, tuple[float, list[dict[str, Any]]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def email_enabled(self) -> bool:
        """Mail needs an SMTP server and the server's public address, which its links
        start with (never a request's ``Host``, which the client chooses)."""
        return bool(self.settings.smtp_host and self.settings.public_url)

    def vapid(self) -> Any:
        """The VAPID key (read or made on first use)."""
        if self.key is None:
            configured = self.settings.vapid_private_key
            self.key = keys.load_key(configured) if configured else keys.stored_key(self.store)
        return self.key

    def forget(self, code: str) -> None:
        """This node's copy of room ``code``'s opt-ins is stale."""
        self._subs.pop(code, None)

    async def _room_subs(self, code: str) -> list[dict[str, Any]]:
        cached = self._subs.get(code)
        if cached is not None and time.monotonic() - cached[0] < CACHE_SECONDS:
            return cached[1]
        rows = await self.store.call(subscriptions.of_room, self.store, code)
        self._subs[code] = (time.monotonic(), rows)
        return rows

    def changed(self, room: Any) -> None:
        """After every change of ``room``: the seats it waits for now may be told."""
        state = room.state
        if state is None or state.is_over:
            return
        cached = self._subs.get(room.code)
        if cached is not None and not cached[1] and time.monotonic() - cached[0] < CACHE_SECONDS:
            return  # nobody opted in: no task, no query
        waiting = sorted(state.current_players())
        if not waiting:
            return
        wait = f"{room.game_no}:{state.turn}"
        names = [p.name for p in room.players]
        people = {p.seat for p in room.players if p.human and p.bot is None}
        task = asyncio.ensure_future(
            self._tell(room.code, [s for s in waiting if s in people], wait, names, state.turn)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tell(
        self, code: str, seats: list[int], wait: str, names: list[str], turn: int
    ) -> None:
        try:
            subs = [
                s
                for s in await self._room_subs(code)
                if s["seat"] in seats
                and s["last_sent"] != wait
                and not self.visible(code, s["seat"])
            ]
            if not subs or not await self.may_send(code):
                return
            for sub in subs:
                if not await self.store.call(subscriptions.mark_sent, self.store, sub["id"], wait):
                    continue
                sub["last_sent"] = wait
                await self._send(code, sub, names, turn)
        except Exception:
            log.exception("room %s: turn notices not sent", code)

    async def _send(self, code: str, sub: dict[str, Any], names: list[str], turn: int) -> None:
        table = ", ".join(names)
        title = "Dame Nature: your turn"
        body = f"The table waits for you (turn {turn}; {table})."
        if sub["kind"] == "push":
            payload = {"title": title, "body": body, "url": f"/r/{code}", "tag": f"dn-{code}"}
            try:
                await push.send(
                    sub["target"],
                    payload,
                    self.vapid(),
                    self.settings.vapid_subject,
                    allow_private=self.settings.push_allow_http,
                )
            except push.Gone:
                await self.store.call(subscriptions.remove, self.store, sub["id"])
                self.forget(code)
            except Exception:
                log.warning("room %s: a push notice failed", code, exc_info=True)
            return
        if not self.email_enabled:
            return
        base = self.settings.public_url
        link = f"{base}/r/{code}"
        unsubscribe = f"{base}/api/notifications/{sub['id']}/unsubscribe"
        message = mail.message(
            self.settings, sub["target"]["address"], title, f"{body}\n\n{link}", unsubscribe
        )
        try:
            await mail.send(self.settings, message)
        except Exception:
            log.warning("room %s: a mail notice failed", code)  # never the address
