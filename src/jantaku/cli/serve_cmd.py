"""``jantaku serve``: the web table (play with bots and friends, stored games, records, the score calculator)."""

from __future__ import annotations

import argparse
import errno
import itertools
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jantaku.errors import JantakuError

HEAVY_DEFAULTS = {"workers": 1, "queue": 4, "per_address": 2, "memory_mb": 2048}
"""The ``--heavy-*`` options' defaults: :class:`jantaku.web.heavy.HeavyLimits`'s (written out here, so that the
command line's help needs no web extra; a test ties the two)."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="run the web table in a browser",
        description="Start the web table: play whole games against bots or with friends (each seat has its own "
        "link), browse and export stored games, and score hands. Games are kept in a SQLite file or a PostgreSQL "
        "database.",
        epilog="examples:\n  jantaku serve\n  jantaku serve --port 8080 --db out/games.sqlite3   (an existing folder)\n"
        "  jantaku serve --max-tables 200 --tables-per-minute 10\n"
        "  jantaku serve --host 0.0.0.0 --allowed-host mahjong.example.org\n\n"
        "Games may live in PostgreSQL instead: --db postgresql://USER@HOST/DB (the password from PGPASSWORD or\n"
        "~/.pgpass, never printed). Every move is stored before it is answered; several servers on one database\n"
        "never both accept a move for the same step (409). Only tables in play are held in memory: a finished game,\n"
        "and a table unused for --idle-minutes, is kept in the database only and read back when asked for.\n"
        "Requests are limited (JSON bodies 256 KiB, uploads 8 MiB, gzip uploads 32 MiB once inflated).\n"
        "The server answers only to 127.0.0.1, localhost, [::1], its --host, the --allowed-host names and any\n"
        "IP address (421 for another name: a web page cannot reach it by rebinding a name), refuses changes\n"
        "sent from another site's page (403) and JSON bodies not sent as application/json (415).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--db",
        default="jantaku.sqlite3",
        metavar="FILE_OR_URL",
        help="the games database: a SQLite file (default ./jantaku.sqlite3; sqlite:///PATH too) or a PostgreSQL URL, "
        "postgresql://USER@HOST/DB (psycopg 3; several servers may share it). Its tables are created or upgraded "
        "when the server starts",
    )
    p.add_argument(
        "--league-db",
        help="the league recorder's database at /league: a SQLite file or a postgresql:// URL "
        "(default: beside a SQLite --db, e.g. ./jantaku.league.sqlite3, or a PostgreSQL --db itself)",
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
        "--pace",
        default="normal",
        metavar="PACE",
        help="default pace of a new table (the lobby can change it): normal (0.45 s a step: a bot's turn in "
        "about 0.9 s), fast (0.15 s), instant, or milliseconds per step 0-3000 (default normal)",
    )
    p.add_argument(
        "--result-seconds",
        type=int,
        default=20,
        metavar="S",
        help="default time a finished hand stays on the board under its result when not everyone closed it "
        "(default 20; 0: deal the next hand at once)",
    )
    p.add_argument(
        "--timer",
        default="off",
        metavar="T",
        help="default turn timer: off, 3+5, 5+10, 5+20, 10+30, 30+60 (seconds per decision + a bank per hand; "
        "default off: a table of friends; Tenhou plays 5+10)",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a further host name people reach the server by (repeatable), e.g. the machine's name on the "
        "network or the name a proxy forwards; requests naming any other host are refused (421)",
    )
    p.add_argument(
        "--max-sockets",
        type=int,
        default=500,
        metavar="N",
        help="open table connections (websockets) the server keeps in all (default 500: a process may commonly "
        "hold 1,024 open files); more are closed at once with the reason (0: no cap)",
    )
    p.add_argument(
        "--max-sockets-per-address",
        type=int,
        default=50,
        metavar="N",
        help="open table connections from one address (default 50; 0: no cap)",
    )
    p.add_argument(
        "--admin-token",
        metavar="SECRET",
        help="league events may be created on the web by whoever gives this secret (the event page asks for it). "
        "Default: anyone may when the server listens on this machine only (--host 127.0.0.1), nobody otherwise "
        "(create them with jantaku league create, or see --open-events)",
    )
    p.add_argument(
        "--admin-token-file",
        metavar="FILE",
        help="the same secret read from a file (its first line), kept out of the process list",
    )
    p.add_argument(
        "--open-events",
        action="store_true",
        help="let anyone create league events on the web even when the server listens on the network",
    )
    p.add_argument(
        "--proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="the address of a reverse proxy in front of the server (repeatable): only its X-Forwarded-For and "
        "X-Forwarded-Proto are believed, so the per-address limits count the real client. Default: none, and "
        "those headers are ignored from everyone (a client could otherwise choose its own address)",
    )
    p.add_argument(
        "--bot-games-days",
        type=float,
        default=30.0,
        metavar="DAYS",
        help="stored games of bots alone (a table of four bots) are deleted after this many days (default 30; "
        "0: kept forever). Games with a person are always kept",
    )
    p.add_argument(
        "--seed",
        metavar="TEXT",
        help="deal the tables this server creates from the seeds TEXT-1, TEXT-2, ... in the order they are created, "
        "instead of random ones: another server started with the same seed deals the same walls in the same order "
        "(duplicate play, a demonstration, a test that replays the same games). Whoever knows the seed can know "
        "every wall: never for games that count",
    )
    heavy = HEAVY_DEFAULTS
    p.add_argument(
        "--heavy-workers",
        type=int,
        default=heavy["workers"],
        metavar="N",
        help="processes for heavy requests: reviews, analyses, record uploads and imports (default "
        f"{heavy['workers']}; each takes one core while busy, at a lower priority than the tables)",
    )
    p.add_argument(
        "--heavy-queue",
        type=int,
        default=heavy["queue"],
        metavar="N",
        help=f"heavy requests that may wait for a free process, in all (default {heavy['queue']}; more: 503)",
    )
    p.add_argument(
        "--heavy-per-address",
        type=int,
        default=heavy["per_address"],
        metavar="N",
        help=f"heavy requests one address may have running or waiting (default {heavy['per_address']}; more: 429)",
    )
    p.add_argument(
        "--heavy-memory",
        type=int,
        default=heavy["memory_mb"],
        metavar="MB",
        help=f"the memory one heavy-request process may use (default {heavy['memory_mb']}; a record needing "
        "more is refused with 413)",
    )
    p.add_argument(
        "--heavy-deadline",
        action="append",
        default=[],
        metavar="KIND=SECONDS",
        help="the processor seconds one heavy request of a kind may use, repeatable: replay, export, import "
        "(default 20), review (35), analyse (90), bots (a four-bot table's game, 60); past it, or past four times "
        "as many seconds of waiting on a busy machine, the request answers 503 and its process is ended",
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
    if not 0 <= args.bot_games_days <= 1_000_000:
        raise JantakuError(f"--bot-games-days must be 0-1000000, got {args.bot_games_days}")
    if not 0 <= args.tables_per_minute <= 1_000_000:
        raise JantakuError(f"--tables-per-minute must be 0-1000000, got {args.tables_per_minute}")
    from jantaku.web.app import LOOPBACK_HOSTS, host_name

    allowed = [*LOOPBACK_HOSTS]
    for option, value in [("--host", args.host), *(("--allowed-host", v) for v in args.allowed_host)]:
        name = host_name(value)
        if name is None:
            raise JantakuError(f"{option}: {value!r} is not a host name (give a name like example.org, no scheme)")
        allowed.append(name)
    from jantaku.extras import require

    require("uvicorn", "web", "jantaku serve")
    from jantaku.web.app import create_app
    from jantaku.web.heavy import HeavyLimits
    from jantaku.web.limits import MAX_JSON_BYTES, check_table_options
    from jantaku.web.tables import TableOptions, WebError

    pace = int(args.pace) if args.pace.isascii() and args.pace.isdigit() else args.pace
    try:
        defaults = check_table_options(
            {"pace": pace, "result_seconds": args.result_seconds, "timer": args.timer}, "", TableOptions(), "riichi"
        )
    except WebError as e:
        raise JantakuError("--" + e.message.replace("result_seconds", "result-seconds")) from None

    db = games_database(args.db)
    if args.league_db and "://" not in args.league_db:
        league_folder = Path(args.league_db).expanduser().parent
        if not league_folder.is_dir():
            raise JantakuError(f"--league-db: no folder {str(league_folder)!r} for the league database")

    creation = league_creation(args)
    seeds = seed_sequence(args.seed)
    try:
        heavy = HeavyLimits(
            workers=args.heavy_workers,
            queue=args.heavy_queue,
            per_address=args.heavy_per_address,
            memory_mb=args.heavy_memory,
            deadlines=tuple(_deadline(text) for text in args.heavy_deadline),
        )
    except ValueError as e:
        raise JantakuError(f"--{e}") from None

    store = open_games_database(db)
    sock = listening_socket(args.host, args.port)
    app = create_app(
        store,  # the league database's default lies beside its file, or is its PostgreSQL database
        max_tables=args.max_tables,
        idle_seconds=args.idle_minutes * 60,
        creates_per_minute=args.tables_per_minute,
        allowed_hosts=allowed,
        table_defaults=defaults,
        league_db=args.league_db,
        max_sockets=args.max_sockets,
        max_sockets_per_address=args.max_sockets_per_address,
        league_creation=creation,
        heavy=heavy,
        bot_games_days=args.bot_games_days,
        seed_source=seeds,
    )
    print(f"jantaku web table: open {url_for(args.host, args.port)}  (games in {store.shown})", flush=True)
    if args.seed is not None:
        print(f"--seed: tables are dealt from {args.seed}-1, {args.seed}-2, ... (their walls can be known)", flush=True)
    # the 洁律 legal-win check is compiled on first use: do it now, beside the server, not in the first 洁律 game
    threading.Thread(target=_warm_jielu, name="jielu-warm-up", daemon=True).start()
    serve_forever(
        app,
        sock,
        log_level="warning",
        ws="websockets-sansio",
        ws_max_size=MAX_JSON_BYTES,
        # Ctrl-C waits this long for requests in flight (a move is stored before it is answered), then a review
        # or an analysis still running is ended with its worker
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
        **proxy_config(args.proxy),
    )
    return 0


def seed_sequence(seed: str | None) -> Callable[[], str] | None:
    """``--seed``: the seeds of the tables in the order they are created (``None``: random ones).

    >>> next_seed = seed_sequence("demo")
    >>> next_seed(), next_seed()
    ('demo-1', 'demo-2')
    """
    if seed is None:
        return None
    if not seed or len(seed) > 100 or not seed.isprintable():
        raise JantakuError(f"--seed must be 1-100 printable characters, got {seed[:40]!r}")
    numbers = itertools.count(1)
    lock = threading.Lock()

    def next_seed() -> str:
        with lock:  # tables may be created from several threads
            return f"{seed}-{next(numbers)}"

    return next_seed


def games_database(db: str) -> str | Path:
    """``--db`` checked before anything is opened: a SQLite file in an existing folder (``~`` expanded) or a
    database URL that :func:`~jantaku.web.store_engine.database_url` takes (a bad one, or PostgreSQL without its
    driver, is one line naming ``--db``, the password masked).

    >>> games_database("postgresql://ann:secret@db.example/games")
    'postgresql://ann:secret@db.example/games'
    >>> try:
    ...     games_database("postgresql://ann:secret@db.example:port/games")
    ... except JantakuError as e:
    ...     print(str(e).split(" (")[0])
    --db: the games database URL 'postgresql://ann:***@db.example:port/games' cannot be read
    """
    from jantaku.web.store_engine import database_url

    try:
        url = database_url(db)
    except JantakuError as e:
        raise JantakuError(f"--db: {e}") from None
    if url.get_backend_name() == "sqlite" and url.database != ":memory:":
        folder = Path(url.database or "").expanduser().parent
        if not folder.is_dir():
            raise JantakuError(f"--db: no folder {str(folder)!r} for the games database (create it first)")
    return db if "://" in db else Path(db).expanduser()


def open_games_database(db: str | Path) -> Any:
    """The games store of ``--db`` (:func:`games_database`), opened, migrated and checked to take writes, or one
    line saying why it cannot be used (never the password)."""
    from jantaku.web.storage import SqlStore, StoreError
    from jantaku.web.store_engine import database_url, shown
    from jantaku.web.store_migrations import NewerSchema

    url = database_url(db)
    where = repr(str(db)) if url.get_backend_name() == "sqlite" else shown(url)
    try:
        store = SqlStore(db)
    except NewerSchema as e:
        raise JantakuError(f"--db {where}: the games database was {e.reason}") from None
    except (StoreError, OSError) as e:
        raise _unusable(url, where, e) from None
    try:
        store.check_writable()
    except (StoreError, OSError) as e:
        store.close()
        raise _unusable(url, where, e) from None
    return store


def _unusable(url: Any, where: str, e: Exception) -> JantakuError:
    reason = getattr(e, "reason", None) or str(e)
    if url.get_backend_name() == "sqlite":
        return JantakuError(
            f"--db {where}: the games database cannot be written there ({reason}); give a writable place with --db"
        )
    return JantakuError(
        f"--db {where}: the games database cannot be used ({reason}); check the URL, that the server runs and "
        "that the user may create and change tables there"
    )


def _deadline(text: str) -> tuple[str, float]:
    """``KIND=SECONDS`` of ``--heavy-deadline``.

    >>> _deadline("analyse=120")
    ('analyse', 120.0)
    """
    kind, sep, seconds = text.partition("=")
    try:
        return kind.strip(), float(seconds) if sep else float("nan")
    except ValueError:
        raise ValueError(f"heavy deadline: KIND=SECONDS, not {text[:40]!r}") from None


SHUTDOWN_SECONDS = 5
"""How long ``jantaku serve`` waits for requests in flight when it is stopped."""


def league_creation(args: argparse.Namespace) -> str | None:
    """Who may create league events on the web (:func:`jantaku.web.league.league_app`): whoever gives
    ``--admin-token`` (or the first line of ``--admin-token-file``); else anyone when the server listens on this
    machine only or with ``--open-events`` (``None``); else nobody (``""``)."""
    token = args.admin_token
    if args.admin_token_file:
        try:
            lines = Path(args.admin_token_file).expanduser().read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise JantakuError(f"--admin-token-file {args.admin_token_file!r}: cannot read it ({e})") from None
        token = lines[0].strip() if lines else ""
    if token is not None:
        if len(token) < 12:
            raise JantakuError("--admin-token: at least 12 characters (anyone who guesses it may create events)")
        return token
    from jantaku.web.app import LOOPBACK_HOSTS, host_name

    return None if host_name(args.host) in LOOPBACK_HOSTS or args.open_events else ""


def proxy_config(proxies: list[str]) -> dict[str, Any]:
    """uvicorn's options for ``--proxy``: forwarded headers believed from those addresses only, and from nobody
    without one (uvicorn believes them from 127.0.0.1 by default, where any local client could send them).

    >>> proxy_config([])
    {'proxy_headers': False}
    >>> proxy_config(["10.0.0.2"])
    {'proxy_headers': True, 'forwarded_allow_ips': '10.0.0.2'}
    """
    if not proxies:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": ",".join(proxies)}


def serve_forever(app: Any, sock: socket.socket, **config: Any) -> None:
    """Serve ``app`` with uvicorn on the listening socket ``sock`` until Ctrl-C (``config``: uvicorn's options)."""
    import uvicorn

    uvicorn.Server(uvicorn.Config(app, **config)).run(sockets=[sock])


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening, or a :class:`JantakuError` that names the address and
    what to do (a port in use: another ``--port``)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise JantakuError(f"--host {host!r}: {e.strerror}") from None
    # a name with both addresses (localhost) listens on its IPv4 one, which every browser falls back to
    family, kind, proto, _name, address = min(infos, key=lambda info: info[0] != socket.AF_INET)
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise JantakuError(
                f"port {port} on {host} is in use (another jantaku serve?): start with another port, "
                f"e.g. jantaku serve --port {port + 1 if port < 65535 else 8080}"
            ) from None
        if e.errno == errno.EACCES:
            raise JantakuError(f"no permission to listen on port {port} (below 1024 needs root): use --port") from None
        raise JantakuError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock


def _warm_jielu() -> None:
    from jantaku.jielu.wincheck import warm_up

    warm_up()
