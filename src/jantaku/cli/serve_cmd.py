"""``jantaku serve``: the web table (play with bots and friends, stored games, records, the score calculator)."""

from __future__ import annotations

import argparse
from pathlib import Path

from jantaku.errors import JantakuError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="run the web table in a browser",
        description="Start the web table: play whole games against bots or with friends (each seat has its own "
        "link), browse and export stored games, and score hands. Games are kept in a SQLite file.",
        epilog="examples:\n  jantaku serve\n  jantaku serve --port 8080 --db ~/mahjong/games.sqlite3\n"
        "  jantaku serve --max-tables 200 --tables-per-minute 10\n"
        "  jantaku serve --host 0.0.0.0 --allowed-host mahjong.example.org\n\n"
        "Every move is stored before it is answered. Only tables in play are held in memory: a finished game,\n"
        "and a table unused for --idle-minutes, is kept in the database only and read back when asked for.\n"
        "Requests are limited (JSON bodies 256 KiB, uploads 8 MiB, gzip uploads 32 MiB once inflated).\n"
        "The server answers only to 127.0.0.1, localhost, [::1], its --host, the --allowed-host names and any\n"
        "IP address (421 for another name: a web page cannot reach it by rebinding a name), refuses changes\n"
        "sent from another site's page (403) and JSON bodies not sent as application/json (415).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default="jantaku.sqlite3", help="the SQLite file for games (default ./jantaku.sqlite3)")
    p.add_argument(
        "--league-db",
        help="the league recorder's database at /league: a SQLite file or a postgresql:// URL "
        "(default: beside --db, e.g. ./jantaku.league.sqlite3)",
    )
    p.add_argument(
        "--max-tables",
        type=int,
        default=1000,
        metavar="N",
        help="tables in play held in memory at most (default 1000); the least recently used unwatched one "
        "leaves memory for a new one, and a new table is refused (503) when all are watched",
    )
    p.add_argument(
        "--idle-minutes",
        type=float,
        default=15.0,
        metavar="M",
        help="a table unused and unwatched this long leaves memory until it is asked for again (default 15)",
    )
    p.add_argument(
        "--tables-per-minute",
        type=int,
        default=60,
        metavar="N",
        help="new tables one address may create a minute (default 60; 0: no limit); more are refused (429)",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a further host name people reach the server by (repeatable), e.g. the machine's name on the "
        "network or the name a proxy forwards; requests naming any other host are refused (421)",
    )
    p.set_defaults(run=run)


def url_for(host: str, port: int) -> str:
    """The address to open in a browser.

    >>> url_for("0.0.0.0", 8000), url_for("::1", 80)
    ('http://127.0.0.1:8000/', 'http://[::1]:80/')
    """
    shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(host, host)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise JantakuError(f"--port must be 1-65535, got {args.port}")
    if not 1 <= args.max_tables <= 1_000_000:
        raise JantakuError(f"--max-tables must be 1-1000000, got {args.max_tables}")
    if not 0 < args.idle_minutes <= 10_000_000:
        raise JantakuError(f"--idle-minutes must be more than 0, got {args.idle_minutes}")
    if not 0 <= args.tables_per_minute <= 1_000_000:
        raise JantakuError(f"--tables-per-minute must be 0-1000000, got {args.tables_per_minute}")
    from jantaku.web.app import LOOPBACK_HOSTS, host_name

    allowed = [*LOOPBACK_HOSTS]
    for option, value in [("--host", args.host), *(("--allowed-host", v) for v in args.allowed_host)]:
        name = host_name(value)
        if name is None:
            raise JantakuError(f"{option}: {value!r} is not a host name (give a name like example.org, no scheme)")
        allowed.append(name)
    import uvicorn

    from jantaku.web.app import create_app
    from jantaku.web.limits import MAX_JSON_BYTES

    db = Path(args.db).expanduser()
    app = create_app(
        db=db,
        max_tables=args.max_tables,
        idle_seconds=args.idle_minutes * 60,
        creates_per_minute=args.tables_per_minute,
        allowed_hosts=allowed,
        league_db=args.league_db,
    )
    print(f"jantaku web table: open {url_for(args.host, args.port)}  (games in {db})", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws="websockets-sansio",
        ws_max_size=MAX_JSON_BYTES,
    )
    return 0
