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
        epilog="examples:\n  jantaku serve\n  jantaku serve --port 8080 --db ~/mahjong/games.sqlite3",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default="jantaku.sqlite3", help="the SQLite file for games (default ./jantaku.sqlite3)")
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
    import uvicorn

    from jantaku.web.app import create_app

    db = Path(args.db).expanduser()
    app = create_app(db=db)
    print(f"jantaku web table: open {url_for(args.host, args.port)}  (games in {db})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws="websockets-sansio")
    return 0
