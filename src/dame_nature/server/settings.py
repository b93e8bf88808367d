"""Server settings: a pydantic ``BaseSettings`` read from ``DAME_NATURE_*`` environment variables.

Each setting is written once, in the group it belongs to (a small class below: its
docstring is the group's title, each field's docstring its help). ``Settings`` combines
the groups into one flat model, so every setting is ``settings.<name>`` and
``DAME_NATURE_<NAME>``; ``dame-nature serve`` builds its options from the same fields
(``--<name-with-dashes>``), grouped the same way in ``--help``.

>>> Settings(db=":memory:").room_ttl_seconds
604800.0
>>> Settings.group_of("redis").group_name()
'cluster'
"""

from __future__ import annotations

from ipaddress import IPv4Network, IPv6Network, ip_network
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

SEVEN_DAYS = 7 * 24 * 3600.0
#: the longest turn limit of a paced room (``turn_limit_seconds``): two days
MAX_TURN_LIMIT_SECONDS = 172_800
#: the longest a call of a PostgreSQL store waits for a connection (``db_wait_seconds``)
DB_WAIT_SECONDS = 10.0


class _Group(BaseSettings):
    """A group of settings: its docstring's first line is the group's title (its name,
    a colon and what it holds), the rest its description."""

    model_config = SettingsConfigDict(
        env_prefix="DAME_NATURE_", extra="ignore", use_attribute_docstrings=True
    )

    @classmethod
    def group_title(cls) -> str:
        return (cls.__doc__ or cls.__name__).strip().partition("\n")[0].strip()

    @classmethod
    def group_name(cls) -> str:
        return cls.group_title().partition(":")[0]

    @classmethod
    def group_description(cls) -> str | None:
        return (cls.__doc__ or "").strip().partition("\n")[2].strip() or None


class Http(_Group):
    """http: where the server listens and what a connection may send

    Addresses, proxies and the bounds of one HTTP request or connection."""

    host: str = "127.0.0.1"
    """the address to listen on: ``0.0.0.0`` listens on every IPv4 network, ``::`` on
    every IPv6 one only (asyncio's socket is IPv6-only: IPv4 clients cannot connect)"""
    port: int = Field(default=8000, ge=0, le=65535)
    """the port to listen on"""
    public_url: str | None = None
    """the address friends open, when it is not the one the host opened (a proxy, a
    domain name, a LAN address): ``https://dn.example.org`` or
    ``http://192.168.1.20:8000``; invite links start with it"""
    log_level: Literal["critical", "error", "warning", "info", "debug", "trace"] = "info"
    """the level of the log: uvicorn's lines (requests, websockets) and the server's own"""
    trusted_proxies: str = ""
    """addresses (or networks, comma-separated) of reverse proxies whose
    ``X-Forwarded-For`` gives the client's address; empty: none"""
    max_message_bytes: int = Field(default=64 * 1024, gt=0)
    """the largest HTTP body or websocket message accepted"""
    limit_concurrency: int | None = Field(default=None, gt=0)
    """open connections and running requests in all: past it uvicorn answers 503; unset,
    the process's open-files limit less a margin (``transport.connection_cap``)"""
    http_header_timeout_seconds: float = Field(default=10.0, gt=0)
    """seconds a client has to send a whole request head (slow headers are cut off)"""
    http_keep_alive_seconds: int = Field(default=5, gt=0)
    """seconds an idle keep-alive HTTP connection is kept"""
    http_max_header_bytes: int = Field(default=16 * 1024, gt=0)
    """largest request head (request line and headers), bytes"""


class Ws(_Group):
    """ws: websockets

    Compression, pings, authentication and the bound of a socket's unsent messages."""

    ws_compression: bool = False
    """permessage-deflate on websockets: views are a few KiB and compressing each one
    costs more CPU than the bytes saved are worth on most links, so it is off"""
    ws_ping_interval_seconds: float = Field(default=20.0, gt=0)
    """seconds between websocket pings"""
    ws_ping_timeout_seconds: float = Field(default=20.0, gt=0)
    """how long the answer to a ping may take before the socket is closed"""
    ws_auth_timeout_seconds: float = Field(default=2.0, gt=0)
    """seconds a websocket without a token has to authenticate (``{"type": "auth"}``)
    when the room's spectator places are all taken"""
    ws_outbox_max_messages: int = Field(default=64, gt=0)
    """a socket's unsent messages: past this many the socket is closed (1008)"""
    ws_outbox_max_bytes: int = Field(default=1024 * 1024, gt=0)
    """a socket's unsent bytes: past this many the socket is closed (1008)"""


class Limits(_Group):
    """limits: rates and caps per client address, seat token or socket

    Token buckets (a sustained rate and a burst) and counts of what one client may hold;
    a bot or script at a sane pace never meets one."""

    rate_limit_per_second: float = Field(default=20.0, gt=0)
    """API requests (``/api/...``) per client address: sustained rate"""
    rate_limit_burst: int = Field(default=60, gt=0)
    """API requests per client address: burst"""
    ws_rate_per_second: float = Field(default=20.0, gt=0)
    """messages of one websocket: sustained rate; past it the client gets one
    ``rate_limited`` notice and its messages are dropped"""
    ws_rate_burst: int = Field(default=60, gt=0)
    """messages of one websocket: burst"""
    ws_flood_close_after: int = Field(default=100, gt=0)
    """dropped messages after which a flooding socket is closed (1008), unless the client
    first kept within the rate until its whole burst came back"""
    action_rate_per_second: float = Field(default=10.0, gt=0)
    """actions of one seat (HTTP and websocket together): sustained rate (a bot at a
    sane pace never comes near it)"""
    action_rate_burst: int = Field(default=40, gt=0)
    """actions of one seat: burst"""
    create_rate_per_second: float = Field(default=0.2, gt=0)
    """room creations per client address: sustained rate"""
    create_rate_burst: int = Field(default=10, gt=0)
    """room creations per client address: burst"""
    connect_rate_per_second: float = Field(default=1.0, gt=0)
    """websocket connects per seat token: sustained rate"""
    connect_rate_burst: int = Field(default=15, gt=0)
    """websocket connects per seat token: burst"""
    connect_address_rate_per_second: float = Field(default=5.0, gt=0)
    """websocket connects per client address: sustained rate"""
    connect_address_rate_burst: int = Field(default=60, gt=0)
    """websocket connects per client address: burst"""
    hint_rate_per_second: float = Field(default=0.5, gt=0)
    """hints per seat: sustained rate"""
    hint_rate_burst: int = Field(default=5, gt=0)
    """hints per seat: burst"""
    admin_rate_per_second: float = Field(default=1.0, gt=0)
    """admin requests per client address (a wrong token counts as any other):
    sustained rate"""
    admin_rate_burst: int = Field(default=30, gt=0)
    """admin requests per client address: burst"""
    max_spectators_per_room: int = Field(default=64, gt=0)
    """spectator websockets open at once on one room (seats are counted apart)"""
    max_spectators_per_address: int = Field(default=16, gt=0)
    """spectator websockets open at once from one client address (all rooms)"""
    max_spectators: int = Field(default=0, ge=0)
    """spectator websockets open at once on this node, all rooms: a part of
    ``limit_concurrency`` (0: half of it), so spectators never take every slot"""
    max_sockets_per_seat: int = Field(default=8, gt=0)
    """websockets open at once on one seat (tabs and devices of one player)"""
    max_connections_per_address: int = Field(default=100, gt=0)
    """open connections (HTTP and websocket) of one client address"""
    max_rooms: int = Field(default=100_000, gt=0)
    """a limit on rooms held in memory at once, so a flood cannot exhaust memory"""
    max_rooms_per_address: int = Field(default=50, gt=0)
    """rooms in memory created from one client address; past it (once its idle rooms
    are evicted) that address is refused ``too_many_rooms``"""
    max_bot_rooms_per_address: int = Field(default=3, gt=0)
    """games with bots one client address may have in play at once, over every node of a
    cluster (started, rematched, played from a replay, or a bot handed a seat); one
    more is refused 429 ``too_many_bot_rooms`` until one of them ends"""


class Rooms(_Group):
    """rooms: the store and how long rooms live

    Where rooms are stored, and when they leave memory or the store."""

    db: str = "./dame-nature.sqlite3"
    """the store: a SQLite file (``:memory:`` keeps nothing across restarts), or a
    ``postgresql://`` URL shared by several server nodes"""
    db_wait_seconds: float = Field(default=DB_WAIT_SECONDS, gt=0)
    """a PostgreSQL store: the longest a call waits for a connection of its pool (all
    of them busy, or PostgreSQL away); past it the call fails as ``store_unavailable``"""
    room_ttl_seconds: float = Field(default=SEVEN_DAYS, gt=0)
    """a room with no change and no connection for this long is deleted"""
    lobby_ttl_seconds: float = Field(default=2 * 3600.0, gt=0)
    """a lobby nobody starts is deleted after this long without a change or a connection"""
    paced_room_ttl_seconds: float = Field(default=30 * 24 * 3600.0, gt=0)
    """a paced room (whatever its status) with no change and no connection for this
    long is deleted (live rooms: ``room_ttl_seconds``, lobbies ``lobby_ttl_seconds``)"""
    finished_room_memory_seconds: float = Field(default=300.0, ge=0)
    """a finished game with no connection is dropped from memory after this long
    (it stays in the database and is loaded again on the next request)"""
    sweep_interval_seconds: float = Field(default=60.0, gt=0)
    """how often expired rooms are looked for"""
    lobby_evict_idle_seconds: float = Field(default=300.0, ge=0)
    """when ``max_rooms`` is reached, lobbies idle this long (no connection) are evicted,
    oldest first, before anyone is refused"""
    idle_game_evict_seconds: float = Field(default=600.0, ge=0)
    """when ``max_rooms`` (or an address's ``max_rooms_per_address``) is reached, started
    games with no connection and no change for this long leave memory (they stay
    stored and load again when someone asks for them), oldest first"""
    absent_seconds: float = Field(default=30.0, gt=0)
    """a seated person disconnected for this long counts as absent: any seated player
    may then hand the seat to a bot, and the host role passes on from an absent host"""
    min_turn_limit_seconds: float = Field(default=3600.0, gt=0, le=MAX_TURN_LIMIT_SECONDS)
    """paced rooms: the shortest turn limit a host may set (``turn_limit_seconds``; the
    longest is two days)"""


class Cluster(_Group):
    """cluster: several nodes on one PostgreSQL store

    How the nodes tell each other what changed and notice a lost node."""

    redis: str | None = None
    """``redis://`` URL: the nodes sharing a PostgreSQL store tell each other which room
    changed (without it they find out by polling, every ``poll_seconds``)"""
    node: str | None = None
    """this node's name in the cluster (default: host, process id and a random suffix)"""
    poll_seconds: float = Field(default=2.0, gt=0)
    """how often a node of a cluster checks the stored versions of the rooms it holds
    sockets of (the fallback while Redis is down)"""
    node_timeout_seconds: float = Field(default=20.0, gt=0)
    """a node silent for this long is taken as lost: its seats become disconnected"""
    bot_room_lease_seconds: float = Field(default=60.0, ge=1.0)
    """how long a game with bots still counts against its client address once no node
    renews it (the nodes holding it in play do, every third of it): how long the
    games of a node that died still count"""


class Bots(_Group):
    """bots: the bots, hints and reviews

    The bots' pace and thinking budget, and the expert's hints and game reviews."""

    bot_delay_seconds: float = Field(default=1.0, ge=0, le=60)
    """the pause of a bot before it acts, so people can follow (0 in the tests)"""
    bot_end_grace_seconds: float = Field(default=8.0, ge=0, le=120)
    """the pause of a bot before it ends a game that can no longer be won while a person
    is seated, so the person can read why on the table first (none for bots only)"""
    bot_think_seconds: float = Field(default=5.0, gt=0, le=120)
    """the longest the server waits for a bot's decision; past it, that decision is
    made by the ``random`` level (the late answer is dropped)"""
    bot_processes: int = Field(default=1, ge=0, le=64)
    """worker processes that run the bots' thinking (each room always goes to the same
    one, which keeps its bots' memory); 0 runs them on one thread of the server
    process instead (the GIL then shares the CPU with the event loop)"""
    hint_worlds: int = Field(default=6, ge=1, le=50)
    """hints from the expert: sampled deals per hint (the table's bots use 20; fewer
    answer faster)"""
    hint_seconds: float = Field(default=3.0, gt=0, le=60)
    """the longest a hint may think (then 503 ``hint_unavailable``)"""
    review_seconds: float = Field(default=10.0, gt=0, le=600)
    """the review of a finished game: the solver's budget per game, in seconds"""
    review_node_budget: int = Field(default=2_000_000, gt=0)
    """the review of a finished game: the solver's budget per game, in positions searched"""
    review_processes: int = Field(default=1, ge=0, le=16)
    """the reviews that think at once on this node, each in a worker process of its own,
    apart from the bots' (0: one thread of the server process)"""
    review_queue: int = Field(default=100, gt=0)
    """the most reviews waiting for a worker (past it a review is asked again on the
    next request)"""


class Notifications(_Group):
    """notifications: turn notices by Web Push and by mail"""

    vapid_private_key: str | None = None
    """Web Push: the VAPID private key (PEM, or the raw key in base64url); by default one
    is generated on first start and stored with the data"""
    vapid_subject: str = "mailto:admin@localhost"
    """Web Push: the contact the push services may write to (``mailto:`` or ``https:``)"""
    push_allow_http: bool = False
    """Web Push endpoints may be plain ``http://`` (a push service on loopback, in tests)"""
    smtp_host: str | None = None
    """email notices: the SMTP server (none: players cannot leave an address)"""
    smtp_port: int = Field(default=587, ge=1, le=65535)
    """email notices: the SMTP server's port"""
    smtp_starttls: bool = True
    """email notices: STARTTLS"""
    smtp_user: str | None = None
    """email notices: the SMTP login"""
    smtp_password: str | None = None
    """email notices: the SMTP password"""
    smtp_from: str | None = None
    """email notices: the sender (none: ``Dame Nature <noreply@SMTP_HOST>``)"""
    smtp_timeout_seconds: float = Field(default=10.0, gt=0)
    """email notices: the longest a connection to the SMTP server may take"""


class Admin(_Group):
    """admin: the admin routes, metrics and statistics"""

    admin_token: SecretStr | None = None
    """the routes under ``/api/admin/`` (and the admin page's actions) answer requests
    carrying this bearer token; unset: there are no admin routes at all (404)"""
    metrics_token: SecretStr | None = None
    """``GET /metrics`` (Prometheus) answers requests carrying this bearer token; unset:
    there is no ``/metrics`` at all (404)"""
    stats_cache_seconds: float = Field(default=60.0, ge=0)
    """how long a node answers the same public statistics (``GET /api/stats``)"""
    gc_pause_stats: bool = False
    """measure the cyclic collector's pauses (``gc.callbacks``): passes, time and the
    longest by generation in ``/metrics`` and logged at shutdown (for benchmarks)"""


#: the groups, in the order ``--help`` and ``docs/operations.md`` show them
GROUPS: tuple[type[_Group], ...] = (Http, Ws, Limits, Rooms, Cluster, Bots, Notifications, Admin)


class Settings(*reversed(GROUPS)):  # type: ignore[misc]
    """Every knob of the server; each one also from ``DAME_NATURE_<NAME>``."""

    @classmethod
    def group_of(cls, name: str) -> type[_Group]:
        """The group that declares the field ``name``."""
        return next(group for group in GROUPS if name in group.model_fields)

    @property
    def trusted_networks(self) -> list[IPv4Network | IPv6Network]:
        """``trusted_proxies`` parsed (``127.0.0.1, 10.0.0.0/8``)."""
        return [
            ip_network(part.strip(), strict=False)
            for part in self.trusted_proxies.split(",")
            if part.strip()
        ]

    @property
    def trusted_proxy_hosts(self) -> list[str]:
        """``trusted_proxies`` as uvicorn's ``ProxyHeadersMiddleware`` takes them."""
        return [part.strip() for part in self.trusted_proxies.split(",") if part.strip()]

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: str) -> str:
        for part in value.split(","):
            if part.strip():
                ip_network(part.strip(), strict=False)  # a ValueError names the bad one
        return value

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
