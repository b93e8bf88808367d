"""The store: every room, seat, game and accepted action, on SQLite (``Store``, the
embedded default) or PostgreSQL (``PostgresStore``, shared by several nodes).

- ``base.py``: the interface and its SQL (``BaseStore``);
- ``sql.py``: how a statement, written once with named parameters, runs on each
  database (``Tx``, ``Conflict``);
- ``nodes.py``: the cluster's tables (presence, heartbeats) and the bots' leads;
- ``sqlite.py`` and ``postgres.py``: the two databases.

``open_store(url)`` picks by the URL and brings the schema up to date first (at
start-up; ``dame-nature migrate`` does it alone).
"""

from __future__ import annotations

from ..settings import DB_WAIT_SECONDS
from .base import BaseStore
from .postgres import PostgresStore
from .sql import Conflict, StoreUnavailable, Tx
from .sqlite import Store

__all__ = [
    "BaseStore",
    "Conflict",
    "PostgresStore",
    "Store",
    "StoreUnavailable",
    "Tx",
    "open_store",
]


def open_store(url: str, db_wait_seconds: float = DB_WAIT_SECONDS) -> BaseStore:
    """The store at ``url``: a ``postgresql://`` URL, else a SQLite file (or ``:memory:``),
    its schema brought up to date first. A PostgreSQL store's calls wait for a connection
    of its pool ``db_wait_seconds`` at most."""
    from ..migrate import is_postgres, migrate_postgres

    if is_postgres(url):
        migrate_postgres(url)
        return PostgresStore(url, wait_seconds=db_wait_seconds)
    store = Store(url)
    store.upgrade()
    return store
