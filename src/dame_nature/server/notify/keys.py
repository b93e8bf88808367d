"""The server's VAPID key (RFC 8292): given by a setting (``DAME_NATURE_VAPID_PRIVATE_KEY``,
a PEM or the raw key in base64url), else generated on first start and stored with the
data (the ``server_keys`` table), so every node of a cluster and every restart signs
with the same key and browsers' subscriptions stay valid.
"""

from __future__ import annotations

import base64
from typing import Any

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02

KEY_NAME = "vapid_private_pem"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def load_key(text: str) -> Vapid02:
    """A VAPID key from a PEM or from the raw private key in base64url."""
    text = text.strip()
    if text.startswith("-----BEGIN"):
        return Vapid02.from_pem(text.encode())
    return Vapid02.from_raw(text.encode())


def stored_key(store: Any) -> Vapid02:
    """The key kept in the store, made (once, whichever node is first) if there is none."""
    fresh = Vapid02()
    fresh.generate_keys()
    pem = fresh.private_pem().decode()

    def work(tx: Any) -> str:
        tx.execute(
            "INSERT INTO server_keys (name, value) VALUES (:name, :value) ON CONFLICT DO NOTHING",
            {"name": KEY_NAME, "value": pem},
        )
        rows = tx.query("SELECT value FROM server_keys WHERE name = :name", {"name": KEY_NAME})
        return str(rows[0]["value"])

    return load_key(store._transaction(work))


def public_key(key: Vapid02) -> str:
    """The application server key a browser subscribes with (base64url, uncompressed)."""
    point = key.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(point)
