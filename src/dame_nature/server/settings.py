"""Server settings: a pydantic ``BaseSettings`` read from ``DAME_NATURE_*`` environment variables.

>>> Settings(db=":memory:").room_ttl_seconds
604800.0
"""

from __future__ import annotations

from ipaddress import IPv4Network, IPv6Network, ip_network
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

SEVEN_DAYS = 7 * 24 * 3600.0
#: the longest turn limit of a paced room (``turn_limit_seconds``): two days
MAX_TURN_LIMIT_SECONDS = 172_800


class Settings(BaseSettings):
    """Every knob of the server; each one also from ``DAME_NATURE_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix="DAME_NATURE_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    #: the address friends open, when it is not the one the host opened (a proxy, a
    #: domain name, a LAN address): ``https://dn.example.org`` or
    #: ``http://192.168.1.20:8000``; invite links start with it
    public_url: str | None = None
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
    #: token bucket of the API (``/api/...``) per client address: sustained rate and burst
    rate_limit_per_second: float = Field(default=20.0, gt=0)
    rate_limit_burst: int = Field(default=60, gt=0)
    #: token bucket of the messages of one websocket; past it the client gets one
    #: ``rate_limited`` notice, its messages are dropped, and after ``ws_flood_close_after``
    #: dropped messages the socket is closed (1008), unless the client first kept within
    #: the rate until its whole burst came back
    ws_rate_per_second: float = Field(default=20.0, gt=0)
    ws_rate_burst: int = Field(default=60, gt=0)
    ws_flood_close_after: int = Field(default=100, gt=0)
    #: a socket's unsent messages: past either bound the socket is closed (1008)
    ws_outbox_max_messages: int = Field(default=64, gt=0)
    ws_outbox_max_bytes: int = Field(default=1024 * 1024, gt=0)
    #: actions of one seat (HTTP and websocket together): a bot at a sane pace never
    #: comes near it
    action_rate_per_second: float = Field(default=10.0, gt=0)
    action_rate_burst: int = Field(default=40, gt=0)
    #: room creations per client address
    create_rate_per_second: float = Field(default=0.2, gt=0)
    create_rate_burst: int = Field(default=10, gt=0)
    #: websocket connects per seat token and per client address
    connect_rate_per_second: float = Field(default=1.0, gt=0)
    connect_rate_burst: int = Field(default=15, gt=0)
    connect_address_rate_per_second: float = Field(default=5.0, gt=0)
    connect_address_rate_burst: int = Field(default=60, gt=0)
    #: permessage-deflate on websockets: views are a few KiB and compressing each one
    #: costs more CPU than the bytes saved are worth on most links, so it is off
    ws_compression: bool = False
    #: spectator websockets open at once on one room (seats are counted apart)
    max_spectators_per_room: int = Field(default=64, gt=0)
    #: spectator websockets open at once from one client address (all rooms)
    max_spectators_per_address: int = Field(default=16, gt=0)
    #: spectator websockets open at once on this node, all rooms: a part of
    #: ``limit_concurrency`` (0: half of it), so spectators never take every slot
    max_spectators: int = Field(default=0, ge=0)
    #: websockets open at once on one seat (tabs and devices of one player)
    max_sockets_per_seat: int = Field(default=8, gt=0)
    #: open connections (HTTP and websocket) of one client address
    max_connections_per_address: int = Field(default=100, gt=0)
    #: open connections and running requests in all: past it uvicorn answers 503; unset,
    #: the process's open-files limit less a margin (``transport.connection_cap``)
    limit_concurrency: int | None = Field(default=None, gt=0)
    #: seconds a client has to send a whole request head (slow headers are cut off)
    http_header_timeout_seconds: float = Field(default=10.0, gt=0)
    #: seconds an idle keep-alive HTTP connection is kept
    http_keep_alive_seconds: int = Field(default=5, gt=0)
    #: largest request head (request line and headers), bytes
    http_max_header_bytes: int = Field(default=16 * 1024, gt=0)
    #: websocket pings: interval, and how long the answer may take before closing
    ws_ping_interval_seconds: float = Field(default=20.0, gt=0)
    ws_ping_timeout_seconds: float = Field(default=20.0, gt=0)
    #: seconds a websocket without a token has to authenticate (``{"type": "auth"}``)
    #: when the room's spectator places are all taken
    ws_auth_timeout_seconds: float = Field(default=2.0, gt=0)
    #: addresses (or networks, comma-separated) of reverse proxies whose
    #: ``X-Forwarded-For`` gives the client's address; empty: none
    trusted_proxies: str = ""
    #: a limit on rooms held in memory at once, so a flood cannot exhaust memory
    max_rooms: int = Field(default=100_000, gt=0)
    #: the pause of a bot before it acts, so people can follow (0 in the tests)
    bot_delay_seconds: float = Field(default=1.0, ge=0, le=60)
    #: the pause of a bot before it ends a game that can no longer be won while a person
    #: is seated, so the person can read why on the table first (none for bots only)
    bot_end_grace_seconds: float = Field(default=8.0, ge=0, le=120)
    #: the longest the server waits for a bot's decision; past it, that decision is
    #: made by the ``random`` level (the late answer is dropped)
    bot_think_seconds: float = Field(default=5.0, gt=0, le=120)
    #: worker processes that run the bots' thinking (each room always goes to the same
    #: one, which keeps its bots' memory); 0 runs them on one thread of the server
    #: process instead (the GIL then shares the CPU with the event loop)
    bot_processes: int = Field(default=1, ge=0, le=64)
    #: games with bots one client address may have in play at once, over the cluster (started,
    #: rematched, played from a replay, or a bot handed a seat); one more is refused
    #: 429 ``too_many_bot_rooms`` until one of them ends
    max_bot_rooms_per_address: int = Field(default=3, gt=0)
    #: a cluster counts an address's games with bots on Redis, each for this long once no
    #: node renews it (the nodes holding it in play do, every third of it): how long
    #: the games of a node that died still count
    bot_room_lease_seconds: float = Field(default=60.0, ge=1.0)
    #: hints from the expert: sampled deals per hint (the table's bots use 20; fewer
    #: answer faster), the longest a hint may think, and each seat's rate of hints
    hint_worlds: int = Field(default=6, ge=1, le=50)
    hint_seconds: float = Field(default=3.0, gt=0, le=60)
    hint_rate_per_second: float = Field(default=0.5, gt=0)
    hint_rate_burst: int = Field(default=5, gt=0)
    #: the review of a finished game: the solver's budget per game (seconds and
    #: positions searched), the reviews that think at once on this node (each in a
    #: worker process of its own, apart from the bots'; 0: one thread of the server
    #: process), and the most reviews waiting for a worker (past it a review is asked
    #: again on the next request)
    review_seconds: float = Field(default=10.0, gt=0, le=600)
    review_node_budget: int = Field(default=2_000_000, gt=0)
    review_processes: int = Field(default=1, ge=0, le=16)
    review_queue: int = Field(default=100, gt=0)
    #: a lobby nobody starts is deleted after this long without a change or a connection
    lobby_ttl_seconds: float = Field(default=2 * 3600.0, gt=0)
    #: when ``max_rooms`` is reached, lobbies idle this long (no connection) are evicted,
    #: oldest first, before anyone is refused
    lobby_evict_idle_seconds: float = Field(default=300.0, ge=0)
    #: when ``max_rooms`` (or an address's ``max_rooms_per_address``) is reached, started
    #: games with no connection and no change for this long leave memory (they stay
    #: stored and load again when someone asks for them), oldest first
    idle_game_evict_seconds: float = Field(default=600.0, ge=0)
    #: rooms in memory created from one client address; past it (once its idle rooms
    #: are evicted) that address is refused ``too_many_rooms``
    max_rooms_per_address: int = Field(default=50, gt=0)
    #: a seated person disconnected for this long counts as absent: any seated player
    #: may then hand the seat to a bot, and the host role passes on from an absent host
    absent_seconds: float = Field(default=30.0, gt=0)
    #: paced rooms: the shortest turn limit a host may set (``turn_limit_seconds``; the
    #: longest is ``MAX_TURN_LIMIT_SECONDS``, two days)
    min_turn_limit_seconds: float = Field(default=3600.0, gt=0, le=172_800)
    #: a paced room (whatever its status) with no change and no connection for this
    #: long is deleted (live rooms: ``room_ttl_seconds``, lobbies ``lobby_ttl_seconds``)
    paced_room_ttl_seconds: float = Field(default=30 * 24 * 3600.0, gt=0)
    #: Web Push: the VAPID private key (PEM, or the raw key in base64url); by default one
    #: is generated on first start and stored with the data
    vapid_private_key: str | None = None
    #: Web Push: the contact the push services may write to (``mailto:`` or ``https:``)
    vapid_subject: str = "mailto:admin@localhost"
    #: Web Push endpoints may be plain ``http://`` (a push service on loopback, in tests)
    push_allow_http: bool = False
    #: email notices: the SMTP server (none: players cannot leave an address), its port,
    #: STARTTLS, login, the sender, and the longest a connection may take
    smtp_host: str | None = None
    smtp_port: int = Field(default=587, ge=1, le=65535)
    smtp_starttls: bool = True
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_from: str | None = None
    smtp_timeout_seconds: float = Field(default=10.0, gt=0)
    #: ``GET /metrics`` (Prometheus) answers requests carrying this bearer token; unset:
    #: there is no ``/metrics`` at all (404)
    metrics_token: SecretStr | None = None
    #: the routes under ``/api/admin/`` (and the admin page's actions) answer requests
    #: carrying this bearer token; unset: there are no admin routes at all (404)
    admin_token: SecretStr | None = None
    #: admin requests per client address (a wrong token counts as any other)
    admin_rate_per_second: float = Field(default=1.0, gt=0)
    admin_rate_burst: int = Field(default=30, gt=0)
    #: how long a node answers the same public statistics (``GET /api/stats``)
    stats_cache_seconds: float = Field(default=60.0, ge=0)
    #: measure the cyclic collector's pauses (``gc.callbacks``): passes, time and the
    #: longest by generation in ``/metrics`` and logged at shutdown (for benchmarks)
    gc_pause_stats: bool = False

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
