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
    #: the pause of a bot before it acts, so people can follow (0 in the tests)
    bot_delay_seconds: float = Field(default=1.0, ge=0, le=60)
    #: the longest the server waits for a bot's decision; past it, that decision is
    #: made by the ``random`` level (the late answer is dropped)
    bot_think_seconds: float = Field(default=5.0, gt=0, le=120)
    #: worker processes that run the bots' thinking (each room always goes to the same
    #: one, which keeps its bots' memory); 0 runs them on one thread of the server
    #: process instead (the GIL then shares the CPU with the event loop)
    bot_processes: int = Field(default=1, ge=0, le=64)
