"""A Web Push service stand-in on loopback, for the tests: it takes the server's
encrypted push requests (RFC 8030), checks their VAPID signature (RFC 8292) and
decrypts them with the subscription's keys (RFC 8291, ``aes128gcm``), as a browser's push
service and the browser together would. ``subscription()`` makes a browser's keys."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    """``start()``, then ``subscription()`` for each device; ``received`` lists the
    messages decrypted, ``status`` answers every push (201, or 410: gone)."""

    def __init__(self) -> None:
        self.devices: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        self.received: list[dict[str, Any]] = []
        self.refused: list[str] = []
        self.status = 201
        self.cond = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                problem = service.take(self.path, dict(self.headers), body)
                self.send_response(400 if problem else service.status)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> PushService:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def subscription(self) -> dict[str, Any]:
        """A new device: its subscription as ``PushSubscription.toJSON()`` gives it."""
        key = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        ident = b64e(os.urandom(12))
        self.devices[ident] = (key, auth)
        public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": f"{self.url}/push/{ident}",
            "keys": {"p256dh": b64e(public), "auth": b64e(auth)},
        }

    def take(self, path: str, headers: dict[str, str], body: bytes) -> str | None:
        """Check and decrypt one request; a problem's description, or None."""
        ident = path.rsplit("/", 1)[-1]
        try:
            key, auth = self.devices[ident]
            headers = {k.lower(): v for k, v in headers.items()}
            assert headers.get("content-encoding") == "aes128gcm", "not aes128gcm"
            assert int(headers.get("ttl", "-1")) >= 0, "no TTL"
            self._check_vapid(headers.get("authorization", ""))
            text = http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm")
            message = json.loads(text)
        except Exception as err:  # a bad request: told back as 400, kept for the test
            with self.cond:
                self.refused.append(f"{type(err).__name__}: {err}")
                self.cond.notify_all()
            return str(err)
        with self.cond:
            self.received.append({"device": ident, **message})
            self.cond.notify_all()
        return None

    def _check_vapid(self, header: str) -> None:
        scheme, _, rest = header.partition(" ")
        assert scheme.lower() == "vapid", "no VAPID authorization"
        params = dict(part.strip().split("=", 1) for part in rest.split(","))
        token, public = params["t"], b64d(params["k"])
        head, claims, signature = token.split(".")
        verifier = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), public)
        raw = b64d(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        verifier.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        payload = json.loads(b64d(claims))
        assert payload["aud"] == self.url, f"aud {payload['aud']}"
        assert payload["exp"] > time.time(), "expired"
        assert payload["sub"].startswith(("mailto:", "https:")), "no contact"

    def wait(self, count: int, timeout: float = 20.0) -> list[dict[str, Any]]:
        """The messages once ``count`` have arrived (or raise after ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while len(self.received) < count:
                left = deadline - time.monotonic()
                assert not self.refused, f"refused pushes: {self.refused}"
                assert left > 0, f"{len(self.received)} pushes of {count} arrived"
                self.cond.wait(left)
            return list(self.received)
