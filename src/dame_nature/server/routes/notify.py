"""Turn notifications (``docs/api.md``, "Notifications"): the server's push key, a
seat's opt-in for its room (a Web Push subscription of a device, or an email address),
opting out, and the one-click unsubscribe of a mail."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from ..deps import ManagerDep, RoomDep, SeatDep, SettingsDep
from ..errors import Refused
from ..notify import mail, push, subscriptions
from .rooms import ERRORS

router = APIRouter(prefix="/api", tags=["notifications"], responses=ERRORS)


class PushKeys(BaseModel):
    p256dh: Annotated[str, Field(min_length=1, max_length=200)]
    auth: Annotated[str, Field(min_length=1, max_length=100)]


class PushSubscription(BaseModel):
    """A browser's ``PushSubscription.toJSON()``."""

    endpoint: Annotated[str, Field(min_length=8, max_length=1000)]
    keys: PushKeys
    expirationTime: float | None = None  # noqa: N815 (the browser's name)


class OptIn(BaseModel):
    """``POST /api/rooms/{room}/notifications``: a device's push subscription or an
    email address (one of them)."""

    push: PushSubscription | None = None
    email: Annotated[str, Field(min_length=3, max_length=254)] | None = None


class OptedIn(BaseModel):
    kind: str
    seat: int


class NotifyInfo(BaseModel):
    push_key: str = Field(description="the VAPID public key to subscribe with (base64url)")
    email: bool = Field(description="whether players may leave an address (SMTP is set up)")


def _notifier(request: Request) -> Any:
    notifier = getattr(request.app.state, "notifier", None)
    if notifier is None:
        raise Refused("notifications_off", "Notifications are not available on this server.")
    return notifier


@router.get("/notifications", response_model=NotifyInfo)
async def notify_info(request: Request, manager: ManagerDep) -> dict[str, Any]:
    """What a client needs to opt in: the push key, and whether email is offered."""
    notifier = _notifier(request)
    key = await manager.store.call(notifier.vapid)
    return {"push_key": push_public_key(key), "email": notifier.email_enabled}


def push_public_key(key: Any) -> str:
    from ..notify.keys import public_key

    return public_key(key)


@router.post("/rooms/{room}/notifications", status_code=201, response_model=OptedIn)
async def opt_in(
    request: Request, room: RoomDep, seat: SeatDep, body: OptIn, settings: SettingsDep,
    manager: ManagerDep,
) -> dict[str, Any]:  # fmt: skip
    """The token's seat asks to be told when the table waits for it: `push` (this
    device's subscription; up to 5 devices) or `email` (one address, replacing any
    earlier one). Never answered back, never in a view."""
    notifier = _notifier(request)
    if (body.push is None) == (body.email is None):
        raise Refused("invalid_request", "Give either 'push' or 'email'.")
    store = manager.store
    if body.push is not None:
        target = body.push.model_dump(exclude_none=True)
        try:
            push.check_subscription(target, allow_http=settings.push_allow_http)
        except ValueError as err:
            message = f"Not a push subscription: {err}."
            raise Refused("invalid_subscription", message) from None
        kind = "push"
    else:
        if not notifier.email_enabled:
            raise Refused("email_unavailable", "This server sends no mail.")
        try:
            address = mail.check_address(body.email or "")
        except ValueError as err:
            raise Refused("invalid_address", f"Not an address: {err}.") from None
        target, kind = {"address": address}, "email"
    await store.call(subscriptions.add, store, room.code, seat, kind, target)
    notifier.forget(room.code)
    return {"kind": kind, "seat": seat}


@router.delete("/rooms/{room}/notifications", status_code=204)
async def opt_out(
    request: Request,
    room: RoomDep,
    seat: SeatDep,
    manager: ManagerDep,
    kind: Annotated[str | None, Query(pattern="^(push|email)$")] = None,
) -> None:
    """The token's seat is told no more (only `kind` when given: `push` or `email`)."""
    notifier = _notifier(request)
    store = manager.store
    await store.call(subscriptions.remove_seat, store, room.code, seat, kind)
    notifier.forget(room.code)


UNSUBSCRIBED = """<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dame Nature Online</title>
<main style="font-family:sans-serif;max-width:32rem;margin:3rem auto">
<h1>No more mails</h1><p>{text}</p><p lang="fr">{text_fr}</p>
<p><a href="/">Dame Nature Online</a></p></main></html>"""

Ident = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{16,64}$")]


async def _unsubscribe(request: Request, ident: str, manager: Any) -> HTMLResponse:
    _notifier(request)
    store = manager.store
    removed = await store.call(subscriptions.remove, store, ident)
    text = (
        "You will get no more mails for this game."
        if removed
        else "This address gets no mails for this game (any more)."
    )
    text_fr = (
        "Vous ne recevrez plus d'e-mails pour cette partie."
        if removed
        else "Cette adresse ne reçoit pas (plus) d'e-mails pour cette partie."
    )
    return HTMLResponse(UNSUBSCRIBED.format(text=text, text_fr=text_fr))


@router.get("/notifications/{ident}/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_link(request: Request, ident: Ident, manager: ManagerDep) -> HTMLResponse:
    """The link of every mail: one click, no more mails for that game."""
    return await _unsubscribe(request, ident, manager)


@router.post("/notifications/{ident}/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_post(request: Request, ident: Ident, manager: ManagerDep) -> HTMLResponse:
    """RFC 8058's one-click unsubscribe (`List-Unsubscribe-Post`)."""
    return await _unsubscribe(request, ident, manager)
