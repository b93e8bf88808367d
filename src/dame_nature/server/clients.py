"""Who a client is, for the limits: its address (the real one behind a trusted reverse
proxy). The limits themselves are in ``ratelimit.py``.

>>> client_address({"client": ("10.0.0.2", 5000)})
'10.0.0.2'
"""

from __future__ import annotations

from collections.abc import Sequence
from ipaddress import IPv4Network, IPv6Network, ip_address
from typing import Any

Networks = Sequence[IPv4Network | IPv6Network]


def is_trusted(address: str, trusted: Networks) -> bool:
    if not trusted:
        return False
    try:
        ip = ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def client_address(scope: Any) -> str:
    """The address a request or websocket comes from: the peer, or behind a trusted
    reverse proxy the client it forwards (uvicorn's ``ProxyHeadersMiddleware``, set up
    by ``create_app`` with ``trusted_proxies``, rewrote ``scope["client"]`` from
    ``X-Forwarded-For``; a header from any other peer is not believed)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"
