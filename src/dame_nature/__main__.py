"""``dame-nature serve [--host H] [--port P] [--db PATH_OR_URL] [--redis URL] ...`` (also
``python -m dame_nature serve``), ``dame-nature migrate --db PATH_OR_URL``, and the
backups: ``dame-nature export [--db ...] [--out FILE]``, ``dame-nature import FILE [--db ...]
[--replace]``, ``dame-nature backup FILE [--db PATH]`` (see ``server/backup.py``).

``serve`` has an option for every field of ``server.settings.Settings`` (``--public-url``
for ``public_url``), built from the fields by pydantic-settings and grouped as the
settings are; an option not given comes from its ``DAME_NATURE_*`` environment
variable, else from the field's default.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic_settings import CliSettingsSource

    from .server.settings import Settings


def command_line() -> tuple[
    argparse.ArgumentParser, argparse.ArgumentParser, CliSettingsSource[Settings]
]:
    """The parser of every command, the ``serve`` command's, and the source that turns
    the parsed ``serve`` options into ``Settings`` values."""
    parser = argparse.ArgumentParser(prog="dame-nature", description="Dame Nature Online")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser(
        "serve",
        help="run the game server",
        usage="%(prog)s [-h] [OPTION ...]",
        description="Run the game server. Every option also comes from its DAME_NATURE_* "
        "environment variable; the command line wins.",
    )
    cli = serve_options(serve)
    migrate = commands.add_parser(
        "migrate",
        help="bring the store's schema up to date (the server also does it at start-up) "
        "and check the stored games against today's engine",
    )
    migrate.add_argument("--db", help="SQLite file or postgresql:// URL (DAME_NATURE_DB)")
    export = commands.add_parser(
        "export",
        help="write every room, game and action as JSON lines, from either store, in one "
        "snapshot (safe while the server runs)",
    )
    export.add_argument("--db", help="SQLite file or postgresql:// URL (DAME_NATURE_DB)")
    export.add_argument("--out", help="the file to write (default: standard output)")
    restore = commands.add_parser(
        "import", help="load an export into an empty store of either kind (all or nothing)"
    )
    restore.add_argument("file", help="the export to load (- for standard input)")
    restore.add_argument("--db", help="SQLite file or postgresql:// URL (DAME_NATURE_DB)")
    restore.add_argument(
        "--replace", action="store_true", help="replace what a store that is not empty holds"
    )
    backup = commands.add_parser(
        "backup", help="a hot copy of the SQLite store (SQLite's online backup) into FILE"
    )
    backup.add_argument("file", help="the copy to write")
    backup.add_argument("--db", help="the SQLite file (DAME_NATURE_DB)")
    return parser, serve, cli


def main(argv: list[str] | None = None) -> int:
    parser, serve, cli = command_line()
    args = parser.parse_args(argv)
    if args.command == "migrate":
        return _migrate(args.db)
    if args.command in ("export", "import", "backup"):
        return _backups(args)

    import uvicorn
    from pydantic import ValidationError

    from .server.app import create_app
    from .server.settings import Settings
    from .server.transport import connection_cap, uvicorn_options

    try:
        settings = Settings(_cli_settings_source=cli(parsed_args=args))
    except ValidationError as err:
        serve.error("; ".join(f"{_flag(e['loc'])}: {e['msg']}" for e in err.errors()))
    app = create_app(settings)
    cap, open_files = connection_cap(settings)
    print(banner(settings, limits=(cap, open_files)), flush=True)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        log_config=log_config(settings.log_level),
        **uvicorn_options(settings, cap),
    )
    return 0


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging configuration, with the server's own loggers (``dame_nature``)
    on uvicorn's handler at ``level``: otherwise only their warnings reach the output,
    bare, through Python's last-resort handler, and never an ``info`` line."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["loggers"]["dame_nature"] = {
        "handlers": ["default"],
        "level": level.upper(),
        "propagate": False,
    }
    return config


def serve_options(serve: argparse.ArgumentParser) -> CliSettingsSource[Settings]:
    """Adds an option to ``serve`` for every field of ``Settings`` (``--public-url`` for
    ``public_url``), in an argument group per settings group, its help the field's
    docstring with its environment variable and default; the source it returns turns
    the parsed options into ``Settings`` values (they win over the environment)."""
    from pydantic_settings import CliSettingsSource

    from .server.settings import GROUPS, Settings

    groups = {
        group: serve.add_argument_group(group.group_title(), group.group_description())
        for group in GROUPS
    }

    def add_argument(_parser: object, *names: str, **options: object) -> argparse.Action:
        name = str(options["dest"])
        env = f"{Settings.model_config['env_prefix']}{name.upper()}"
        help_text = str(options.get("help") or "").replace("``", "")
        if options.get("metavar") == "SecretStr":
            options["metavar"] = "str"
        head, default, tail = help_text.rpartition("(default: ")  # the one pydantic added
        options["help"] = f"{head}({env}; default: {tail}" if default else f"{help_text} ({env})"
        return groups[Settings.group_of(name)].add_argument(*names, **options)  # type: ignore[arg-type]

    return CliSettingsSource(
        Settings,
        root_parser=serve,
        cli_kebab_case=True,
        cli_implicit_flags=True,
        cli_parse_none_str="none",
        cli_hide_none_type=True,
        add_argument_method=add_argument,
    )


def _flag(loc: tuple[int | str, ...]) -> str:
    """The option and variable a validation error's location names."""
    if not loc:
        return "settings"
    name = str(loc[0])
    return f"--{name.replace('_', '-')} (DAME_NATURE_{name.upper()})"


def _migrate(db: str | None) -> int:
    """Upgrade the schema, then replay every stored game played with another engine or
    rules-data version and report those today's engine replays differently (they are
    left as they are)."""
    from .server.migrate import migrate
    from .server.provenance import ENGINE_VERSION, RULES_VERSION, replay_problem, same_versions
    from .server.settings import Settings
    from .server.store import open_store

    settings = Settings()
    url = db or settings.db
    before, after = migrate(url)
    print(f"schema: {before or 'empty'} -> {after}")
    store = open_store(url, settings.db_wait_seconds)
    try:
        games = store.games()
        older = [g for g in games if not same_versions(g)]
        differ = 0
        for game in older:
            stored = store.load_game(game["room"], game["game_no"])
            if stored is None:
                continue
            _, problem = replay_problem(stored, stored["actions"])
            if problem is not None:
                differ += 1
                store.report_replay(game["room"], game["game_no"], stored, problem, time.time())
                print(f"room {game['room']} game {game['game_no']}: {problem}")
        print(
            f"games: {len(games)} stored, {len(older)} played with another engine or rules "
            f"data than today's ({ENGINE_VERSION}, rules {RULES_VERSION}), "
            f"{differ} replayed differently (reported, left unchanged)"
        )
    finally:
        store.close()
    return 1 if differ else 0


def _backups(args: argparse.Namespace) -> int:
    """``export``, ``import`` and ``backup``: 0 when done, 2 with a sentence on failure."""
    import sqlite3

    from sqlalchemy.exc import DBAPIError

    from .server.backup import ExportError, backup_sqlite, export_store, import_store
    from .server.migrate import shown_url
    from .server.settings import Settings

    url = args.db or Settings().db
    try:
        if args.command == "export" and not args.out:
            for line in export_store(url):
                sys.stdout.buffer.write(line + b"\n")
        elif args.command == "export":
            # written aside, then renamed: a failed export leaves no file behind
            part = args.out + ".part"
            try:
                with open(part, "wb") as out:
                    for line in export_store(url):
                        out.write(line + b"\n")
                os.replace(part, args.out)
            finally:
                if os.path.exists(part):
                    os.remove(part)
        elif args.command == "import":
            source = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")  # noqa: SIM115
            try:
                written = import_store(url, source, replace=args.replace)
            finally:
                if args.file != "-":
                    source.close()
            print(f"imported {written} rows into {shown_url(url)}")
        else:
            backup_sqlite(url, args.file)
            print(f"copied {shown_url(url)} to {args.file}")
    except (ExportError, ValueError, OSError) as err:
        print(f"dame-nature {args.command}: {err}", file=sys.stderr)
        return 2
    except (DBAPIError, sqlite3.Error) as err:
        # a store that cannot be opened or read: the driver's own first line, without
        # SQLAlchemy's wrapping (nor the URL, which may hold a password)
        cause = getattr(err, "orig", None) or err
        reason = str(cause).strip().partition("\n")[0]
        print(f"dame-nature {args.command}: the store cannot be used: {reason}", file=sys.stderr)
        return 2
    return 0


def banner(
    settings: Settings, lan: list[str] | None = None, limits: tuple[int, int] | None = None
) -> str:
    """What the server prints at start-up: where to open it, what to send friends, and
    (``limits``: the connection cap and the open-files limit) how many it accepts."""
    from .server.addresses import WILDCARDS, is_loopback, share_urls

    lines = ["Dame Nature Online"]
    for who, url in share_urls(settings.host, settings.port, settings.public_url, lan):
        lines.append(f"  {who + ':':<15} {url}")
    if settings.host not in WILDCARDS and is_loopback(settings.host):
        lines.append(
            "  Only this computer can open it. To play with friends on your network, "
            "start it with --host 0.0.0.0 and send them the link of your network address."
        )
    elif settings.host in WILDCARDS and not settings.public_url:
        lines.append("  Friends open the 'your network' address; invite links use it.")
    if settings.smtp_host and not settings.public_url:
        lines.append(
            "  Mail notices are off: their links need the server's public address "
            "(DAME_NATURE_PUBLIC_URL)."
        )
    if limits is not None:
        lines.append(
            f"  Accepting up to {limits[0]} connections at once (open-files limit {limits[1]})."
        )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
