"""Server settings: a pydantic ``BaseSettings`` read from ``DAME_NATURE_*`` environment variables.

>>> Settings(db=":memory:").room_ttl_seconds
604800.0
"""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

SEVEN_DAYS = 7 * 24 * 3600.0


class Settings(BaseSettings):
    """Every knob of the server; each one also from ``DAME_NATURE_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix="DAME_NATURE_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    #: the address friends open, when it is not the one the host opened (a proxy, a
    #: domain name, a LAN address): ``https://dn.example.org`` or
    #: ``http://192.168.1.20:8000``; invite links start with it
    public_url: str | None = None
    #: the SQLite file (``:memory:`` keeps nothing across restarts)
    db: str = "./dame-nature.sqlite3"
    #: a room with no change and no connection for this long is deleted
    room_ttl_seconds: float = Field(default=SEVEN_DAYS, gt=0)
    #: a finished game with no connection is dropped from memory after this long
    #: (it stays in the database and is loaded again on the next request)
    finished_room_memory_seconds: float = Field(default=300.0, ge=0)
    #: how often expired rooms are looked for
    sweep_interval_seconds: float = Field(default=60.0, gt=0)
    #: the largest HTTP body or websocket message accepted
    max_message_bytes: int = Field(default=64 * 1024, gt=0)
    #: token bucket per HTTP connection and per websocket: sustained rate and burst
    rate_limit_per_second: float = Field(default=20.0, gt=0)
    rate_limit_burst: int = Field(default=60, gt=0)
    #: permessage-deflate on websockets: views are a few KiB and compressing each one
    #: costs more CPU than the bytes saved are worth on most links, so it is off
    ws_compression: bool = False
    #: websockets open at once on one room (seats and spectators together)
    max_connections_per_room: int = Field(default=64, gt=0)
    #: a limit on rooms held in memory at once, so a flood cannot exhaust memory
    max_rooms: int = Field(default=100_000, gt=0)

    @field_validator("public_url")
    @classmethod
    def _absolute_url(cls, url: str | None) -> str | None:
        """An absolute ``http(s)://host[:port][/prefix]`` URL, kept without its final ``/``.

        >>> Settings(public_url="https://dn.example.org/").public_url
        'https://dn.example.org'
        """
        if url is None or not url.strip():
            return None
        parsed = urlsplit(url.strip())
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError("the public URL starts with http:// or https:// and a host name")
        if parsed.query or parsed.fragment:
            raise ValueError("the public URL has no query (?) or fragment (#)")
        return parsed.geturl().rstrip("/")
