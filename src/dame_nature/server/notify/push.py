"""Sending one Web Push message (RFC 8030), its payload encrypted for the subscription
(RFC 8291, ``aes128gcm``) and signed with the server's VAPID key (RFC 8292), through
``pywebpush``. A subscription the push service says is gone (404, 410) is reported so
that it is deleted.

``pywebpush`` (with ``aiohttp`` and ``requests``) is imported when a push is first sent,
not when the server starts: most servers never send one."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from py_vapid import Vapid02

log = logging.getLogger("dame_nature.server")

#: seconds a push service keeps an undelivered notice (a turn waits longer than this
#: only in paced games, whose next notice follows)
TTL_SECONDS = 12 * 3600


class Gone(Exception):
    """The push service no longer knows this subscription."""


def check_subscription(sub: dict[str, Any], allow_http: bool = False) -> None:
    """``ValueError`` unless ``sub`` is a browser's push subscription: an ``https``
    endpoint (``http`` only when ``allow_http``, for a push service on loopback in the
    tests) and its ``p256dh`` and ``auth`` keys."""
    endpoint = sub.get("endpoint")
    parts = urlsplit(endpoint) if isinstance(endpoint, str) else None
    allowed = ("https", "http") if allow_http else ("https",)
    if parts is None or parts.scheme not in allowed or not parts.hostname:
        raise ValueError("the subscription's endpoint is not an https:// address")
    keys = sub.get("keys")
    if not isinstance(keys, dict) or not all(
        isinstance(keys.get(k), str) and keys[k] for k in ("p256dh", "auth")
    ):
        raise ValueError("the subscription has no 'p256dh' and 'auth' keys")


async def send(
    sub: dict[str, Any], payload: dict[str, Any], key: Vapid02, subject: str, timeout: float = 10
) -> None:
    """Send ``payload`` (JSON) to the subscription; ``Gone`` when it expired, any other
    failure raised as ``WebPushException`` or a network error."""
    from pywebpush import WebPushException, webpush_async

    try:
        await webpush_async(
            subscription_info=sub,
            data=json.dumps(payload, separators=(",", ":")),
            vapid_private_key=key,
            vapid_claims={"sub": subject},
            ttl=TTL_SECONDS,
            timeout=timeout,
        )
    except WebPushException as err:
        status = err.response.status if err.response is not None else None
        status = getattr(err.response, "status_code", status)
        if status in (404, 410):
            raise Gone(str(err)) from None
        raise
