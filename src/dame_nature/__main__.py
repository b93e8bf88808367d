"""``dame-nature serve --host H --port P --db PATH`` (also ``python -m dame_nature serve``).

Options not given on the command line come from ``DAME_NATURE_*`` environment variables,
then from the embedded defaults (``127.0.0.1:8000``, ``./dame-nature.sqlite3``).
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dame-nature", description="Dame Nature Online")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the game server")
    serve.add_argument("--host", help="address to listen on (DAME_NATURE_HOST, 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (DAME_NATURE_PORT, 8000)")
    serve.add_argument("--db", help="SQLite file (DAME_NATURE_DB, ./dame-nature.sqlite3)")
    serve.add_argument("--log-level", default="info", help="uvicorn log level")
    args = parser.parse_args(argv)

    import uvicorn

    from .server.app import create_app
    from .server.settings import Settings
    from .server.transport import raise_open_files_limit, uvicorn_options

    overrides = {
        k: v
        for k, v in {"host": args.host, "port": args.port, "db": args.db}.items()
        if v is not None
    }
    settings = Settings(**overrides)
    app = create_app(settings)
    raise_open_files_limit(settings.limit_concurrency + 256)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level=args.log_level,
        **uvicorn_options(settings),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
