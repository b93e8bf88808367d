"""Sending one Web Push message (RFC 8030), its payload encrypted for the subscription
(RFC 8291, ``aes128gcm``) and signed with the server's VAPID key (RFC 8292), through
``pywebpush``. A subscription the push service says is gone (404, 410) is reported so
that it is deleted.

A push service is a public host: an endpoint on loopback, a private network or any
other address that is not global is refused when a seat opts in (``check_subscription``)
and again when a notice is sent, after the name is resolved and at each redirect, so that
no client can make the server post to its own network (``DAME_NATURE_PUSH_ALLOW_HTTP``,
for a push-service stand-in on loopback in the tests, lifts both). At most
``MAX_ANSWER_BYTES`` of a push service's answer are read.

``pywebpush`` (with ``aiohttp`` and ``requests``) is imported when a push is first sent,
not when the server starts: most servers never send one."""

from __future__ import annotations

import functools
import ipaddress
import json
import logging
import socket
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from py_vapid import Vapid02

log = logging.getLogger("dame_nature.server")

#: the most of a push service's answer read (its body is empty, or an error's few
#: lines): a service that answers without end never fills the server's memory
MAX_ANSWER_BYTES = 64 * 1024

#: seconds a push service keeps an undelivered notice (a turn waits longer than this
#: only in paced games, whose next notice follows)
TTL_SECONDS = 12 * 3600


class Gone(Exception):
    """The push service no longer knows this subscription."""


def public_host(host: str) -> bool:
    """Whether ``host`` (a URL's host) may be a push service's: not ``localhost``, not an
    address that is not global (loopback, private networks, link-local, reserved) or
    multicast, in any form the resolver reads as an address (``2130706433``,
    ``127.1``). A name is public here: its addresses are checked when it is resolved.

    >>> [public_host(h) for h in ("fcm.googleapis.com", "8.8.8.8", "127.1", "::1")]
    [True, True, False, False]
    """
    host = host.rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return False
    try:
        address: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(host)
    except ValueError:
        try:
            address = ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return True
    return address.is_global and not address.is_multicast


def check_subscription(sub: dict[str, Any], allow_http: bool = False) -> None:
    """``ValueError`` unless ``sub`` is a browser's push subscription: an ``https``
    endpoint on a public host (``http`` and any host only when ``allow_http``, for a
    push service on loopback in the tests) and its ``p256dh`` and ``auth`` keys."""
    endpoint = sub.get("endpoint")
    parts = urlsplit(endpoint) if isinstance(endpoint, str) else None
    allowed = ("https", "http") if allow_http else ("https",)
    if parts is None or parts.scheme not in allowed or not parts.hostname:
        raise ValueError("the subscription's endpoint is not an https:// address")
    if not allow_http and not public_host(parts.hostname):
        raise ValueError("the subscription's endpoint is not a public address")
    keys = sub.get("keys")
    if not isinstance(keys, dict) or not all(
        isinstance(keys.get(k), str) and keys[k] for k in ("p256dh", "auth")
    ):
        raise ValueError("the subscription has no 'p256dh' and 'auth' keys")


@functools.cache
def _public_resolver() -> type[Any]:
    """aiohttp's resolver (``getaddrinfo`` in a thread), keeping only public addresses."""
    from aiohttp import ThreadedResolver

    class PublicResolver(ThreadedResolver):
        async def resolve(self, host: str, port: int = 0, family: Any = socket.AF_INET) -> Any:
            found = await super().resolve(host, port, family)
            public = [a for a in found if public_host(a["host"])]
            if not public:
                raise OSError(f"{host} has no public address")
            return public

    return PublicResolver


async def send(
    sub: dict[str, Any],
    payload: dict[str, Any],
    key: Vapid02,
    subject: str,
    timeout: float = 10,
    allow_private: bool = False,
) -> None:
    """Send ``payload`` (JSON) to the subscription; ``Gone`` when it expired, any other
    failure raised as ``WebPushException`` or a network error (``OSError`` when the
    endpoint or a redirect leads to an address that is not public, unless
    ``allow_private``, or when the answer's body is over ``MAX_ANSWER_BYTES``; the
    answer's body is read here, so that the exceptions do not quote it)."""
    import aiohttp
    from pywebpush import WebPushException, webpush_async

    async def guarded(request: Any, handler: Any) -> Any:
        """Each request, the redirects' too, goes to a public host (unless
        ``allow_private``), and no more than ``MAX_ANSWER_BYTES`` of its answer is read."""
        if not allow_private and not public_host(request.url.host or ""):
            raise OSError(f"{request.url.host} is not a public address")
        response = await handler(request)
        size = 0
        async for chunk in response.content.iter_any():
            size += len(chunk)
            if size > MAX_ANSWER_BYTES:
                response.close()
                raise OSError("the push service's answer is too large")
        return response

    connector = None if allow_private else aiohttp.TCPConnector(resolver=_public_resolver()())
    session = aiohttp.ClientSession(connector=connector, middlewares=(guarded,))
    try:
        async with session:
            await webpush_async(
                subscription_info=sub,
                data=json.dumps(payload, separators=(",", ":")),
                vapid_private_key=key,
                vapid_claims={"sub": subject},
                ttl=TTL_SECONDS,
                timeout=timeout,
                aiohttp_session=session,
            )
    except WebPushException as err:
        status = err.response.status if err.response is not None else None
        status = getattr(err.response, "status_code", status)
        if status in (404, 410):
            raise Gone(str(err)) from None
        raise
