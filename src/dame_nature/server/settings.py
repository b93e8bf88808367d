"""Server settings: a pydantic ``BaseSettings`` read from ``DAME_NATURE_*`` environment variables.

>>> Settings(db=":memory:").room_ttl_seconds
604800.0
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

SEVEN_DAYS = 7 * 24 * 3600.0


class Settings(BaseSettings):
    """Every knob of the server; each one also from ``DAME_NATURE_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix="DAME_NATURE_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    #: the store: a SQLite file (``:memory:`` keeps nothing across restarts), or a
    #: ``postgresql://`` URL shared by several server nodes
    db: str = "./dame-nature.sqlite3"
    #: ``redis://`` URL: the nodes sharing a PostgreSQL store tell each other which room
    #: changed (without it they find out by polling, every ``poll_seconds``)
    redis: str | None = None
    #: this node's name in the cluster (default: host, process id and a random suffix)
    node: str | None = None
    #: how often a node of a cluster checks the stored versions of the rooms it holds
    #: sockets of (the fallback while Redis is down)
    poll_seconds: float = Field(default=2.0, gt=0)
    #: a node silent for this long is taken as lost: its seats become disconnected
    node_timeout_seconds: float = Field(default=20.0, gt=0)
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
