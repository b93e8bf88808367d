"""How the store's statements reach each database.

Every statement is written once, as SQL with named bind parameters (``:name``, the
syntax of SQLAlchemy's ``text()``), and its parameters are a dict. SQLAlchemy's compiler
turns it into each driver's own text, once per statement and dialect (then cached):

- SQLite's ``sqlite3`` gets ``?`` placeholders and a tuple of the values in the order
  the compiled statement lists them (``sqlite3`` binds a tuple faster than it looks up
  names in a dict, and this is the hot path of an action's commit);
- psycopg gets ``%(name)s`` placeholders (``pyformat``; a ``%`` in the text doubled) and
  the dict as it is.

>>> compiled("SELECT seat FROM players WHERE room = :room AND name LIKE 'a%'", "postgresql")[0]
"SELECT seat FROM players WHERE room = %(room)s AND name LIKE 'a%%'"
>>> text, bind = compiled("UPDATE rooms SET version = :version WHERE code = :code", "sqlite")
>>> text, bind({"code": "abc", "version": 3})
('UPDATE rooms SET version = ? WHERE code = ?', (3, 'abc'))
>>> in_list("code", ["abc", "def"])
('(:code_0, :code_1)', {'code_0': 'abc', 'code_1': 'def'})

A colon that is no parameter (in a string literal) is written ``\\:``, as ``text()``
wants it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import text
from sqlalchemy.dialects.postgresql import psycopg
from sqlalchemy.dialects.sqlite import pysqlite
from sqlalchemy.engine import Dialect

#: the dialects the store runs on, by the name its stores give (``Tx``)
DIALECTS: dict[str, Dialect] = {
    "sqlite": pysqlite.dialect(),  # qmark: ?
    "postgresql": psycopg.dialect(),  # pyformat: %(name)s
}

#: a statement's parameters, by name
Params = Mapping[str, Any]
#: the parameters of a statement that has none (never changed)
NO_PARAMS: Params = {}
#: a statement as a driver takes it: its text, and what turns its parameters into the
#: driver's (a tuple in the statement's order, or the dict itself)
Compiled = tuple[str, Callable[[Params], Any]]


def _as_is(params: Params) -> Params:
    return params


def _compile(sql: str, dialect: str) -> Compiled:
    statement = text(sql).compile(dialect=DIALECTS[dialect])
    names = statement.positiontup
    if names is None:  # named parameters: the driver looks them up in the dict
        return statement.string, _as_is
    if len(names) == 1:
        name = names[0]
        return statement.string, lambda params: (params[name],)
    if not names:
        return statement.string, lambda params: ()
    getter = operator.itemgetter(*names)
    return statement.string, getter


class _Cache(dict[str, Compiled]):
    """The statements compiled for one dialect, by their text."""

    def __init__(self, dialect: str) -> None:
        super().__init__()
        self.dialect = dialect

    def __missing__(self, sql: str) -> Compiled:
        if len(self) >= 4096:  # only lists of ``in_list`` vary; keep them bounded
            self.clear()
        found = self[sql] = _compile(sql, self.dialect)
        return found


CACHES = {dialect: _Cache(dialect) for dialect in DIALECTS}


def compiled(sql: str, dialect: str) -> Compiled:
    """``sql`` (named ``:parameters``) as the driver of ``dialect`` takes it."""
    return CACHES[dialect][sql]


def in_list(name: str, values: Sequence[Any]) -> tuple[str, dict[str, Any]]:
    """The parenthesised list of parameters ``name_0, name_1, ...`` for an ``IN``, and
    their values (``values`` must not be empty)."""
    params = {f"{name}_{i}": value for i, value in enumerate(values)}
    return "(" + ", ".join(":" + key for key in params) + ")", params


class Conflict(Exception):
    """Another writer changed the room first; nothing was written."""


class StoreUnavailable(Exception):
    """The database cannot be reached right now; nothing was written."""


#: a room's compare-and-set: its version moved on from ``expected``, its last change at
#: ``now`` (``Tx.touch``)
TOUCH = (
    "UPDATE rooms SET version = :version, updated_at = :now"
    " WHERE code = :code AND version = :expected"
)


class Tx:
    """One open transaction on a DB-API connection whose rows are dicts: ``execute`` (a
    row count) and ``query`` (the rows), each statement compiled for ``dialect``, run on
    ``cursor`` (default: a new one of ``conn``; one statement at a time)."""

    __slots__ = ("conn", "cursor", "statements")

    def __init__(self, conn: Any, dialect: str, cursor: Any = None) -> None:
        self.conn = conn
        self.cursor = conn.cursor() if cursor is None else cursor
        self.statements = CACHES[dialect]

    def execute(self, sql: str, params: Params = NO_PARAMS) -> int:
        text, bind = self.statements[sql]
        rowcount: int = self.cursor.execute(text, bind(params)).rowcount
        return rowcount

    def query(self, sql: str, params: Params = NO_PARAMS) -> list[dict[str, Any]]:
        text, bind = self.statements[sql]
        rows: list[dict[str, Any]] = self.cursor.execute(text, bind(params)).fetchall()
        return rows

    def touch(
        self, code: str, version: int, now: float | None, expected: int | None = None
    ) -> None:
        """Move room ``code`` from version ``expected`` (default ``version - 1``) to
        ``version``, or raise ``Conflict``; the time of its last change becomes ``now``
        (None: unchanged)."""
        expected = version - 1 if expected is None else expected
        if now is None:
            changed = self.execute(
                "UPDATE rooms SET version = :version WHERE code = :code AND version = :expected",
                {"version": version, "code": code, "expected": expected},
            )
        else:
            changed = self.execute(
                TOUCH, {"version": version, "now": now, "code": code, "expected": expected}
            )
        if changed != 1:
            raise Conflict(f"room {code} is no longer at version {expected}")

    def present(self, code: str) -> list[int]:
        rows = self.query(
            "SELECT DISTINCT seat FROM presence WHERE room = :code ORDER BY seat", {"code": code}
        )
        return [row["seat"] for row in rows]
