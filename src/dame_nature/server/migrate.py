"""Versioned schema migrations (Alembic) for both stores, run at start-up and by
``dame-nature migrate``.

The revisions live in ``migrations/versions``; ``HEAD`` is the newest. A database the
store made before migrations existed (tables, no ``alembic_version``) is stamped at
``0001``, the schema it has, then upgraded like any other, so an upgrade of the server
never loses a stored game. A database already at ``HEAD`` is recognised with one query
and Alembic is not even imported (start-up stays as quick as before). Several nodes
starting together on one PostgreSQL take turns (an advisory lock), and so do processes
starting together on one SQLite file (its write lock).

>>> is_postgres("postgresql://u@db/dn"), is_postgres("./dame-nature.sqlite3")
(True, False)
>>> sqlalchemy_url("postgresql://u@db/dn")
'postgresql+psycopg://u@db/dn'
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

HEAD = "0012"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: the advisory lock key nodes take while one of them migrates a PostgreSQL database
PG_MIGRATION_LOCK = 0x0DA3E_0001


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://", "postgresql+psycopg://"))


def shown_url(url: str) -> str:
    """The store's address as it may be printed: a PostgreSQL URL without its password.

    >>> shown_url("postgresql://dame:secret@db/dame")
    'postgresql://dame:***@db/dame'
    >>> shown_url("./dame-nature.sqlite3")
    './dame-nature.sqlite3'
    """
    if not is_postgres(url):
        return url
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def sqlalchemy_url(url: str) -> str:
    """A ``postgresql://`` URL for SQLAlchemy's psycopg 3 driver."""
    for prefix in ("postgresql+psycopg://", "postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _upgrade(connection: Any) -> tuple[str | None, str]:
    """Upgrade the database behind a SQLAlchemy connection to ``HEAD``: (before, after)."""
    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config
    from alembic.migration import MigrationContext

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    before = MigrationContext.configure(connection).get_current_revision()
    tables = set(sa.inspect(connection).get_table_names())
    if before is None and "rooms" in tables:
        command.stamp(config, "0001")  # made by the store before migrations existed
        before = "0001 (unversioned)"
    command.upgrade(config, "head")
    after = MigrationContext.configure(connection).get_current_revision()
    return before, str(after)


def sqlite_revision(conn: sqlite3.Connection) -> str | None:
    try:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.OperationalError:
        return None
    return None if row is None else str(row[0])


def migrate_sqlite(conn: sqlite3.Connection) -> tuple[str | None, str]:
    """Bring the SQLite database of ``conn`` (the store's own connection, so that
    ``:memory:`` works too) to ``HEAD``."""
    current = sqlite_revision(conn)
    if current == HEAD:
        return current, current
    import alembic.command  # noqa: F401 (imported before the file is locked)
    import sqlalchemy as sa
    from sqlalchemy.pool import StaticPool

    engine = sa.create_engine("sqlite://", creator=lambda: conn, poolclass=StaticPool)

    @sa.event.listens_for(engine, "begin")
    def take_the_write_lock(connection: Any) -> None:
        # Another process may be migrating this file too (two servers, or a server and
        # ``dame-nature migrate``, started together). The file's write lock is held
        # from the first look at its revision to the commit, so the other waits (the
        # connection's busy timeout), then finds the file at HEAD; and the revisions'
        # DDL commits or rolls back as one. (SQLite's driver begins no transaction by
        # itself: SQLAlchemy's recipe for it.)
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    try:
        with engine.begin() as connection:
            return _upgrade(connection)
    finally:
        engine.dispose(close=False)


def pg_revision(url: str) -> str | None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        try:
            row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        except psycopg.errors.UndefinedTable:
            return None
    return None if row is None else str(row[0])


def migrate_postgres(url: str) -> tuple[str | None, str]:
    """Bring the PostgreSQL database at ``url`` to ``HEAD`` (one node at a time)."""
    current = pg_revision(url)
    if current == HEAD:
        return current, current
    import sqlalchemy as sa

    engine = sa.create_engine(sqlalchemy_url(url))
    try:
        with engine.begin() as connection:
            # transaction-scoped: released at the commit; the other nodes wait, then
            # find the database at HEAD
            connection.execute(sa.text(f"SELECT pg_advisory_xact_lock({PG_MIGRATION_LOCK})"))
            return _upgrade(connection)
    finally:
        engine.dispose()


def migrate(url: str) -> tuple[str | None, str]:
    """``dame-nature migrate``: upgrade the store at ``url`` (a SQLite path or a
    ``postgresql://`` URL) to ``HEAD``; (revision before, revision after)."""
    if is_postgres(url):
        return migrate_postgres(url)
    from .store.sqlite import PAGE_SIZE  # (the store's module imports this one)

    conn = sqlite3.connect(url, isolation_level=None)
    try:
        # a new file made as the store makes it (a file with a table keeps its own)
        conn.execute(f"PRAGMA page_size={PAGE_SIZE}")
        return migrate_sqlite(conn)
    finally:
        conn.close()
