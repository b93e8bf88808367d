"""Backups that restore: ``dame-nature export``, ``dame-nature import`` and
``dame-nature backup``.

An export is JSON lines: a header (the format, the schema revision, when), one line a
stored row (every room, seat, game and action, and whatever other table the schema
holds but the cluster's runtime tables), parents before children, then an end line.
Each row line carries ``chain``: the SHA-256 of the previous line's ``chain`` and of the
row, so a changed, missing or reordered line is found at that very line, and a file cut
short has no end line. An export is read in one snapshot (one read transaction), so it
is consistent while the server runs.

An import checks the whole file first, then writes every row in one transaction into a
store of either kind, migrated to the export's schema revision and then on to today's:
a file at fault, or a store that is not empty (unless ``replace``), writes nothing.

>>> lines = list(export_lines({"rooms": [{"code": "r1", "version": 3}]}, "0003", now=0.0))
>>> [sorted(orjson.loads(line)) for line in lines]
[['exported_at', 'format', 'schema'], ['chain', 'row', 'table'], ['chain', 'end', 'rows']]
>>> tables, schema = read_export(lines)
>>> tables["rooms"][0]["version"], schema
(3, '0003')
"""

from __future__ import annotations

import base64
import hashlib
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from .migrate import HEAD, MIGRATIONS, is_postgres, shown_url, sqlalchemy_url

FORMAT = "dame-nature-export/1"
#: the cluster's runtime state (who is connected on which node, node heartbeats) and
#: Alembic's own table are not data: an imported store starts with no node and no one
#: connected
RUNTIME_TABLES = frozenset({"presence", "nodes", "alembic_version"})


class ExportError(ValueError):
    """An export that cannot be imported; ``line`` is the 1-based line at fault (0: the
    file as a whole)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


def _dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _link(previous: str, table: str, row: dict[str, Any]) -> str:
    return hashlib.sha256(previous.encode() + _dumps([table, row])).hexdigest()


def _encode(value: Any) -> Any:
    return {"$base64": base64.b64encode(value).decode()} if isinstance(value, bytes) else value


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"$base64"}:
        return base64.b64decode(value["$base64"])
    return value


def export_lines(
    tables: dict[str, list[dict[str, Any]]], schema: str, now: float | None = None
) -> Iterator[bytes]:
    """The lines of an export of ``tables`` (in order: parents first)."""
    when = time.time() if now is None else now
    header = {"format": FORMAT, "schema": schema, "exported_at": when}
    yield _dumps(header)
    chain, count = hashlib.sha256(_dumps(header)).hexdigest(), 0
    for table, rows in tables.items():
        for row in rows:
            row = {k: _encode(v) for k, v in row.items()}
            chain = _link(chain, table, row)
            count += 1
            yield _dumps({"table": table, "row": row, "chain": chain})
    yield _dumps({"end": True, "rows": count, "chain": chain})


def read_export(lines: Iterable[bytes | str]) -> tuple[dict[str, list[dict[str, Any]]], str]:
    """Check an export from end to end: (its rows by table, its schema revision); raises
    ``ExportError`` with the line at fault."""
    tables: dict[str, list[dict[str, Any]]] = {}
    chain, count, schema, ended = "", 0, "", False
    number = 0
    for number, raw in enumerate(lines, start=1):
        if isinstance(raw, str):
            raw = raw.encode()
        if not raw.strip():
            continue
        if ended:
            raise ExportError(number, "a line after the end line")
        try:
            entry = orjson.loads(raw)
        except orjson.JSONDecodeError as err:
            raise ExportError(number, f"not JSON ({err})") from None
        if not isinstance(entry, dict):
            raise ExportError(number, "not a JSON object")
        if number == 1:
            if entry.get("format") != FORMAT or not isinstance(entry.get("schema"), str):
                raise ExportError(1, f"not a Dame Nature export (expected format {FORMAT})")
            schema, chain = entry["schema"], hashlib.sha256(_dumps(entry)).hexdigest()
        elif entry.get("end") is True:
            if entry.get("rows") != count or entry.get("chain") != chain:
                raise ExportError(number, "the end line does not match the rows before it")
            ended = True
        else:
            table, row = entry.get("table"), entry.get("row")
            if not isinstance(table, str) or not isinstance(row, dict):
                raise ExportError(number, "a row line needs a table name and a row object")
            chain = _link(chain, table, row)
            if entry.get("chain") != chain:
                raise ExportError(number, "the line was changed, or a line before it is missing")
            tables.setdefault(table, []).append({k: _decode(v) for k, v in row.items()})
            count += 1
    if number == 0:
        raise ExportError(0, "the file is empty")
    if not ended:
        raise ExportError(number, "the file ends before its end line (cut short?)")
    return tables, schema


# ----------------------------------------------------------------------- the stores
def _engine(url: str) -> Any:
    import sqlalchemy as sa

    if is_postgres(url):
        return sa.create_engine(sqlalchemy_url(url))
    # the sqlite3 module in autocommit, so that our own BEGIN is the transaction
    return sa.create_engine(
        "sqlite://", creator=lambda: sqlite3.connect(url, isolation_level=None, timeout=30)
    )


def _begin(connection: Any, url: str, write: bool) -> None:
    if is_postgres(url):
        if not write:  # one snapshot of every table
            connection.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
    else:
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _data_tables(connection: Any) -> list[Any]:
    """The store's data tables, reflected, parents before children."""
    import sqlalchemy as sa

    metadata = sa.MetaData()
    metadata.reflect(connection)
    return [t for t in metadata.sorted_tables if t.name not in RUNTIME_TABLES]


def _revision(connection: Any) -> str | None:
    from alembic.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


def export_store(url: str) -> Iterator[bytes]:
    """Every data row of the store at ``url``, read in one snapshot, as export lines."""
    engine = _engine(url)
    try:
        with engine.connect() as connection:
            _begin(connection, url, write=False)
            schema = _revision(connection)
            if schema is None:
                raise ExportError(
                    0, f"{shown_url(url)} holds no Dame Nature store (no schema revision)"
                )
            tables = {
                table.name: [
                    {str(k): v for k, v in row._mapping.items()}
                    for row in connection.execute(table.select())
                ]
                for table in _data_tables(connection)
            }
            connection.rollback()
    finally:
        engine.dispose()
    yield from export_lines(tables, schema)


def _upgrade_to(connection: Any, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def import_store(url: str, lines: Iterable[bytes | str], replace: bool = False) -> int:
    """Write an export into the store at ``url``: the number of rows written. Nothing is
    written when the file is at fault or (unless ``replace``) the store holds rooms."""
    tables, schema = read_export(lines)
    engine = _engine(url)
    try:
        with engine.connect() as connection:
            _begin(connection, url, write=True)
            current = _revision(connection)
            if current is None:
                _upgrade_to(connection, schema)  # a new store: the export's schema first
            elif current != schema:
                if schema != HEAD:
                    raise ExportError(
                        0,
                        f"the export is at schema {schema} and the store at {current}: "
                        "import it into a new, empty store (it is then migrated)",
                    )
                _upgrade_to(connection, "head")  # an older store, empty or replaced
            existing = {t.name: t for t in _data_tables(connection)}
            for name in tables:
                if name not in existing:
                    raise ExportError(0, f"the export has a table {name!r} the store lacks")
            held = sum(
                connection.execute(t.select().limit(1)).first() is not None
                for t in existing.values()
            )
            if held and not replace:
                raise ExportError(
                    0,
                    "the store is not empty: import into an empty store, or ask to "
                    "replace what it holds (--replace)",
                )
            for table in reversed(list(existing.values())):
                connection.execute(table.delete())
            written = 0
            for table in existing.values():
                rows = tables.get(table.name, [])
                unknown = {k for row in rows for k in row} - set(table.columns.keys())
                if unknown:
                    raise ExportError(0, f"table {table.name}: unknown columns {sorted(unknown)}")
                if rows:
                    connection.execute(table.insert(), rows)
                    written += len(rows)
            if is_postgres(url):
                _reset_sequences(connection, list(existing.values()))
            if schema != HEAD:
                _upgrade_to(connection, "head")
            connection.commit()
    finally:
        engine.dispose()
    return written


def _reset_sequences(connection: Any, tables: list[Any]) -> None:
    """Rows came with their ids: move PostgreSQL's sequences past them."""
    import sqlalchemy as sa

    for table in tables:
        for column in table.primary_key.columns:
            if isinstance(column.type, sa.Integer):
                connection.execute(
                    sa.text(
                        f"SELECT setval(pg_get_serial_sequence(:t, :c), "
                        f"COALESCE((SELECT MAX({column.name}) FROM {table.name}), 0) + 1, false) "
                        f"WHERE pg_get_serial_sequence(:t, :c) IS NOT NULL"
                    ),
                    {"t": table.name, "c": column.name},
                )


def backup_sqlite(path: str, target: str) -> None:
    """A hot copy of the SQLite store at ``path`` into ``target`` (SQLite's online backup:
    consistent while the server writes)."""
    if is_postgres(path):
        raise ValueError(
            "backup copies a SQLite store; for PostgreSQL use dame-nature export (or pg_dump)"
        )
    source = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            copy.close()
    finally:
        source.close()
