"""``dame-nature serve --host H --port P --db PATH --public-url URL`` (also
``python -m dame_nature serve``).

Options not given on the command line come from ``DAME_NATURE_*`` environment variables,
then from the embedded defaults (``127.0.0.1:8000``, ``./dame-nature.sqlite3``).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .server.settings import Settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dame-nature", description="Dame Nature Online")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the game server")
    serve.add_argument("--host", help="address to listen on (DAME_NATURE_HOST, 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (DAME_NATURE_PORT, 8000)")
    serve.add_argument("--db", help="SQLite file (DAME_NATURE_DB, ./dame-nature.sqlite3)")
    serve.add_argument(
        "--public-url",
        help="the address friends open, used for invite links, e.g. https://dn.example.org "
        "behind a proxy (DAME_NATURE_PUBLIC_URL; default: the address the page was opened at)",
    )
    serve.add_argument("--log-level", default="info", help="uvicorn log level")
    args = parser.parse_args(argv)

    import uvicorn
    from pydantic import ValidationError

    from .server.app import create_app
    from .server.settings import Settings
    from .server.transport import raise_open_files_limit, uvicorn_options

    overrides = {
        k: v
        for k, v in {
            "host": args.host,
            "port": args.port,
            "db": args.db,
            "public_url": args.public_url,
        }.items()
        if v is not None
    }
    try:
        settings = Settings(**overrides)
    except ValidationError as err:
        parser.error("; ".join(str(e["msg"]) for e in err.errors()))
    app = create_app(settings)
    raise_open_files_limit(settings.limit_concurrency + 256)
    print(banner(settings), flush=True)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level=args.log_level,
        **uvicorn_options(settings),
    )
    return 0


def banner(settings: Settings, lan: list[str] | None = None) -> str:
    """What the server prints at start-up: where to open it, and what to send friends."""
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
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
