"""The league recorder's web pages and JSON API, mounted at ``/league`` of the web table (see
:mod:`jantaku.league`).

===================================================  ==============================================================
``GET  /league/``                                    the events and their public standings pages
``GET  /league/event?name=``                         an event's standings, teams, games and players' charts (public)
``GET  /league/admin``                               the organiser's page: create an event, players, teams, seat a
                                                     round, enter hands (a form usable on a phone at the table)
``GET  /league/player?name=``                         a player's profile: every event, every game, the rating
``GET  /league/ratings?series=``                     the ratings across events (or of a series) and the series
``GET  /league/api/ratings``                         ``?series=``: every player's rating (OpenSkill
                                                     Plackett-Luce over the games in the order played)
``GET  /league/api/players/{name}``                  a player's profile across events
``GET  /league/api/series``                          the series; ``POST {"name", "events"}`` makes one (who may
                                                     create events may create series)
``GET  /league/api/series/{name}``                   a series: its events, standings summed, ratings
``GET  /league/api/presets``                         the riichi rule sets an event can use
``GET  /league/api/events``                          every event
``POST /league/api/events``                          ``{"name", "rules", "password"}``: a new event
``GET  /league/api/events/{name}``                   players, teams, games, standings, team standings
``GET  /league/api/events/{name}/history``           ``?player=``: that player's games and running total
``GET  /league/api/events/{name}/export``            ``?format=csv|json&what=standings|games``
``GET  /league/api/games/{id}``                      a game: players, entries, running state, result
``POST /league/api/events/{name}/login``             checks the organiser password (200 or 403)
``POST /league/api/events/{name}/import``            organiser: the body is an online game record (a Tenhou mjlog,
                                                     tenhou.net/6 JSON or a Mahjong Soul record, gzip allowed);
                                                     ``?file=`` its name, ``map=NAME=PLAYER`` (repeated) maps a name
                                                     in the record to an event player; ``?names=1`` only lists the
                                                     record's names (nothing stored); a game the event holds
                                                     already is refused (409) unless ``?force=1``
``POST /league/api/events/{name}/{what}``            organiser: ``teams``, ``players``, ``rounds``, ``games``,
                                                     ``quick`` (``rounds`` takes ``{"method", "round"?,
                                                     ...}``: ``round``, the number the new round should get,
                                                     refused with 409 if another was seated meanwhile),
                                                     ``penalties``, ``schedule`` (``{"rounds",
                                                     "seed"?}``: every round's tables ahead, for rounds seated
                                                     ``prescripted``), ``pins`` (``{"players"?}``: new
                                                     personal codes, shown once), ``clock`` (``{"round",
                                                     "minutes"}``: start a round's clock); ``rename`` (``{"name"}``),
                                                     ``delete``
                                                     the event; ``rename-player`` (``{"name", "to"}``),
                                                     ``delete-player`` (``{"name"}``: one without games);
                                                     ``GET .../audit`` the audit log
``POST /league/api/games/{id}/entries``              organiser (or a player of the table, with ``X-League-Player``
                                                     and ``X-League-Pin``: adding, or changing the last entry while
                                                     not all four confirmed it): ``{"entry", "expected_seq"?,
                                                     "version"?, "correct"?, "seq"?, "preview"?, "request_id"?}``
                                                     (a write sent again with its ``request_id`` is answered 200
                                                     with the entry stored the first time): add an entry, correct
                                                     the last one, or
                                                     correct (``null``: delete) entry ``seq`` of a game finished or
                                                     not (the later ones replayed); ``preview`` shows what a
                                                     correction would change without writing it
``POST /league/api/games/{id}/undo``                 organiser or a player of the table: delete the last entry
                                                     (``{"version"?}``)
``POST /league/api/games/{id}/confirm``              a player of the table confirms entry ``{"seq", "version"?}``;
                                                     the organiser accepts it for the whole table
``GET  /league/print?name=&round=``                  a round's seating sheet and one score sheet per table, to
                                                     print (print CSS: A4 or letter)
``POST /league/api/games/{id}/substitute``           organiser: ``{"seat", "player"}``: the player takes the seat
``GET  /league/table``                               a player's page: sign in with the personal code, enter and
                                                     confirm the hands of one's table (works offline for a while)
``POST /league/api/events/{name}/player-login``       ``X-League-Player`` and ``X-League-Pin``: 200 with the player's
                                                     games, or 403
``GET  /league/api/events/{name}/my-games``          a player's games (the same headers)
``GET  /league/api/events/{name}/unconfirmed``       organiser: the entries players wrote that wait for confirmations
``GET  /league/api/events/{name}/clocks``            the rounds and their clocks (seconds left)
``POST /league/api/games/{id}/delete``               organiser: delete the game (it leaves the standings)
===================================================  ==============================================================

Organiser requests carry the event's password in the ``X-League-Password`` header; an event made without a
password (from the command line) is read-only here. A bad entry is 400 with the rule set's reason, a wrong
password 403, an unknown event or game 404, a conflicting change (the game changed since the ``version`` or
``expected_seq`` the request names: the message       says what changed) or a name taken 409,
an upload over :data:`~jantaku.web.limits.MAX_UPLOAD` bytes (or inflating past
:data:`~jantaku.web.limits.MAX_INFLATED`) 413.

Password guessing is slowed down, never the organiser: after :data:`FAILED_PER_CLIENT` wrong organiser
passwords from one client address within :data:`FAILED_WINDOW` seconds, that address gets 429 with a
``Retry-After`` header, the password unchecked,       until the oldest failure is a window old; after
:data:`FAILED_PER_EVENT` wrong passwords for one event from anywhere, so do the addresses that guessed wrong for
it, while an address that did not (the organiser's) goes on (:class:`LoginLimiter`). Behind a reverse proxy
name it with ``jantaku serve --proxy``, or every client has the proxy's address.

Deleting is soft: a deleted event, player or game leaves every list, standing and export, its rows stay in
the database with an audit row saying who deleted it and when (a deleted event's or player's name is free
again).

The database is opened on the first request (a SQLite file or a PostgreSQL URL).
"""

from __future__ import annotations

import hmac
import math
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from jantaku.errors import JantakuError
from jantaku.league.errors import ConflictError, NotFoundError, StoreUnavailable
from jantaku.league.store import MIN_PASSWORD_LENGTH
from jantaku.rules import load_rules, preset_names

from .heavy import HeavyPool
from .limits import MAX_JSON_BYTES, MAX_UPLOAD, parse_json, read_body
from .tables import WebError
from .uploads import in_temp

__all__ = ["FAILED_PER_CLIENT", "FAILED_PER_EVENT", "FAILED_WINDOW", "LoginLimiter", "league_app"]

FAILED_PER_CLIENT = 10
"""Wrong organiser passwords one client address may send within :data:`FAILED_WINDOW` seconds."""

FAILED_PER_EVENT = 30
"""Wrong organiser passwords one event may receive (from every address together) within the window: higher
than the per-address limit, so one guesser does not lock the organiser out, low enough to stop many."""

FAILED_WINDOW = 60.0
"""The window of the failed-login limits (seconds)."""

STATIC = Path(__file__).parent / "static"
_PASSWORD = "x-league-password"
_PLAYER = "x-league-player"
_PIN = "x-league-pin"


class _Lazy:
    """The league store, opened on first use (creating the app writes no file)."""

    def __init__(self, db: str | Path) -> None:
        self.db = db
        self._store: Any = None
        self._lock = threading.Lock()

    def get(self) -> Any:
        with self._lock:
            if self._store is None:
                from jantaku.league.store import LeagueStore

                self._store = LeagueStore(self.db)
            return self._store


class LoginLimiter:
    """Failed organiser logins counted over a sliding window; thread-safe. A lockout slows the guessing address,
    never the organiser:

    - an address that sent :attr:`per_client` wrong passwords (for any events) waits until its oldest failure is a
      window old;
    - an event that got :attr:`per_event` wrong passwords from anywhere stops taking guesses from the addresses
      that guessed wrong for it; an address that sent it no wrong password (the organiser's) is not held up;
    - the right password from an address forgets that address's wrong ones for the event (a typo costs nothing).

    >>> now = [0.0]
    >>> lim = LoginLimiter(per_client=2, per_event=3, window=60, clock=lambda: now[0])
    >>> lim.failed("10.0.0.1", 1); lim.failed("10.0.0.1", 1)
    >>> lim.retry_after("10.0.0.1", 1), lim.retry_after("10.0.0.2", 1)
    (60, None)
    >>> lim.failed("10.0.0.3", 1)  # the event's third wrong password: it stops the guessers only
    >>> lim.retry_after("10.0.0.3", 1), lim.retry_after("10.0.0.9", 1)
    (60, None)
    >>> lim.succeeded("10.0.0.3", 1); lim.retry_after("10.0.0.3", 1)
    >>> now[0] = 60.5
    >>> lim.retry_after("10.0.0.1", 1)
    """

    MAX_KEYS = 100_000
    """The most addresses and events remembered at once (the oldest are forgotten first)."""

    def __init__(
        self,
        per_client: int = FAILED_PER_CLIENT,
        per_event: int = FAILED_PER_EVENT,
        window: float = FAILED_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_client = per_client
        self.per_event = per_event
        self.window = window
        self.clock = clock
        self._fails: dict[tuple[object, ...], deque[float]] = {}
        self._lock = threading.Lock()

    def _wait(self, key: tuple[object, ...], limit: int, now: float) -> float:
        q = self._fails.get(key)
        if q is None:
            return 0.0
        while q and q[0] <= now - self.window:
            q.popleft()
        if not q:
            del self._fails[key]
            return 0.0
        return q[0] + self.window - now if len(q) >= limit else 0.0

    def retry_after(self, client: str, event: object) -> int | None:
        """Seconds until ``client`` may try a password for ``event`` again; ``None``: it may now."""
        with self._lock:
            now = self.clock()
            wait = self._wait(("client", client), self.per_client, now)
            if self._wait(("guesser", client, event), 1, now) > 0:  # it guessed wrong for this event lately
                wait = max(wait, self._wait(("event", event), self.per_event, now))
        return max(1, math.ceil(wait)) if wait > 0 else None

    def failed(self, client: str, event: object) -> None:
        """Count a wrong password from ``client`` for ``event``."""
        with self._lock:
            now = self.clock()
            for key in (("client", client), ("event", event), ("guesser", client, event)):
                self._fails.setdefault(key, deque()).append(now)
            while len(self._fails) > self.MAX_KEYS:
                del self._fails[next(iter(self._fails))]

    def succeeded(self, client: str, event: object) -> None:
        """The right password from ``client`` for ``event``: its wrong ones for the event no longer count."""
        with self._lock:
            self._fails.pop(("guesser", client, event), None)


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _guarded(fn: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    async def handler(request: Request) -> Response:
        try:
            return await fn(request)
        except _Denied as e:
            return _error(403, str(e))
        except _TooMany as e:
            return _error(429, str(e), {"retry-after": str(e.seconds)})
        except NotFoundError as e:
            return _error(404, str(e))
        except ConflictError as e:
            return _error(409, str(e))
        except StoreUnavailable as e:
            return _error(503, str(e))
        except _BadMedia as e:
            return _error(415, str(e))
        except WebError as e:
            return _error(e.status, e.message)
        except JantakuError as e:
            return _error(400, str(e))

    return handler


class _Denied(Exception):
    pass


class _TooMany(Exception):
    def __init__(self, seconds: int, what: str = "organiser passwords") -> None:
        super().__init__(f"too many wrong {what}: try again in {seconds} s")
        self.seconds = seconds


class _BadMedia(Exception):
    pass


async def _body(request: Request) -> dict[str, Any]:
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        raise _BadMedia("the body must be sent as Content-Type: application/json")
    raw = await read_body(request, MAX_JSON_BYTES, "the body")
    obj = parse_json(raw or b"null", "the body")
    if not isinstance(obj, dict):
        raise JantakuError("the body must be a JSON object")
    return obj


def league_app(db: str | Path, creation_token: str | None = None, heavy: HeavyPool | None = None) -> Starlette:
    """The league sub-application over the league database ``db`` (a SQLite file path or a PostgreSQL URL).

    ``heavy``: the worker processes an imported record is read in (:mod:`jantaku.web.heavy`; default: a pool of
    its own with the default limits).

    ``creation_token``: who may create events on the web. ``None`` (the default): anyone (a server on the host's
    own machine); a secret: whoever sends it in the ``X-League-Admin-Token`` header (wrong ones are limited as
    wrong organiser passwords are); ``""``: nobody (events are created with ``jantaku league create``)."""
    lazy = _Lazy(db)
    limiter = LoginLimiter()
    pool = heavy if heavy is not None else HeavyPool()

    def store() -> Any:
        return lazy.get()

    async def call(fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        return await run_in_threadpool(fn, *args, **kw)

    def limited(client: str, key: object, verify: Callable[[], bool], what: str = "organiser passwords") -> bool:
        """``verify()`` under the login limiter: 429 while ``client`` is held back for ``key``, else its answer,
        counted as a success or a failure (wrong ``what``)."""
        wait = limiter.retry_after(client, key)
        if wait is not None:
            raise _TooMany(wait, what)
        ok = bool(verify())
        (limiter.succeeded if ok else limiter.failed)(client, key)
        return ok

    async def admin(request: Request, event: str | int) -> str:
        password = request.headers.get(_PASSWORD, "")
        client = request.client.host if request.client else ""
        s = await call(store)

        def check() -> bool:
            with s.engine.connect() as conn:
                ev = s._event(conn, event)
            if not ev["admin_hash"]:
                raise _Denied(f"event {ev['name']!r} has no organiser password: it is read-only on the web")
            return limited(client, ev["id"], lambda: s.check_admin(event, password))

        if not await call(check):
            raise _Denied("wrong organiser password")
        return "web organiser"

    async def seated_player(request: Request, event: str | int) -> str:
        """The player a request comes from (``X-League-Player`` and ``X-League-Pin``: their name and personal
        code for the event), or 403; wrong codes are limited as wrong organiser passwords are."""
        name = request.headers.get(_PLAYER, "")
        pin = request.headers.get(_PIN, "")
        client = request.client.host if request.client else ""
        s = await call(store)

        def check() -> bool:
            with s.engine.connect() as conn:
                ev = s._event(conn, event)
            return limited(
                client, ("pin", ev["id"]), lambda: bool(name) and s.check_pin(ev["id"], name, pin), "personal codes"
            )

        if not await call(check):
            raise _Denied("wrong player name or personal code (the organiser gives each player one)")
        return name

    def page(file: str) -> Callable[[Request], Awaitable[Response]]:
        async def serve(request: Request) -> Response:
            return FileResponse(STATIC / file, media_type="text/html")

        return serve

    @_guarded
    async def presets(request: Request) -> Response:
        names = [n for n in preset_names() if load_rules(n).family == "riichi"]
        creation = "open" if creation_token is None else "token" if creation_token else "closed"
        return JSONResponse({"presets": names, "creation": creation})

    def may_create(request: Request) -> None:
        """Refuse an event's creation the server does not take from this request (403, or 429 for a guesser)."""
        if creation_token is None:
            return
        if not creation_token:
            raise _Denied(
                "this server takes no new events from the web: its host creates them (jantaku league create) or "
                "starts the server with --admin-token"
            )
        client = request.client.host if request.client else ""
        given = request.headers.get("x-league-admin-token", "")
        if not limited(client, "new events", lambda: hmac.compare_digest(given.encode(), creation_token.encode())):
            raise _Denied("a new event needs the server's admin token (ask the server's host)")

    @_guarded
    async def events(request: Request) -> Response:
        s = await call(store)
        if request.method == "POST":
            may_create(request)
            body = await _body(request)
            password = body.get("password")
            if not isinstance(password, str) or len(password) < MIN_PASSWORD_LENGTH:
                raise JantakuError(
                    f"an event made on the web needs an organiser password ({MIN_PASSWORD_LENGTH} characters or more)"
                )
            rules = body.get("rules")
            if rules not in preset_names():
                raise JantakuError(f"rules must be one of the presets, got {str(rules)[:50]!r}")
            ev = await call(s.create_event, body.get("name"), rules, admin_password=password, actor="web organiser")
            return JSONResponse(ev, status_code=201)
        return JSONResponse({"events": await call(s.events)})

    @_guarded
    async def event(request: Request) -> Response:
        s = await call(store)
        name = request.path_params["name"]

        def view() -> dict[str, Any]:
            return {
                "event": _event_head(s, name),
                "players": s.players(name),
                "teams": s.teams(name),
                "games": s.games(name),
                "standings": s.standings(name),
                "team_standings": s.team_standings(name),
                "schedule": s.schedule(name),
            }

        return JSONResponse(await call(view))

    @_guarded
    async def history(request: Request) -> Response:
        s = await call(store)
        player = request.query_params.get("player", "")
        return JSONResponse({"history": await call(s.history, request.path_params["name"], player)})

    @_guarded
    async def export(request: Request) -> Response:
        from jantaku.league.export import games_csv, standings_csv, to_json

        s = await call(store)
        name = request.path_params["name"]
        fmt = request.query_params.get("format", "json")
        what = request.query_params.get("what", "standings")
        if fmt == "json":
            return Response(to_json(await call(s.export, name)), media_type="application/json")
        if fmt != "csv" or what not in ("standings", "games"):
            raise JantakuError("export format=json, or format=csv with what=standings or games")
        text = games_csv(await call(s.games, name)) if what == "games" else standings_csv(await call(s.standings, name))
        headers = {"content-disposition": f'attachment; filename="{what}.csv"'}
        return Response(text, media_type="text/csv; charset=utf-8", headers=headers)

    @_guarded
    async def game(request: Request) -> Response:
        s = await call(store)
        return JSONResponse(await call(s.game, _int(request.path_params["id"])))

    @_guarded
    async def login(request: Request) -> Response:
        await admin(request, request.path_params["name"])
        return JSONResponse({"ok": True})

    @_guarded
    async def my_games(request: Request) -> Response:
        """A player signing in (POST player-login) or asking again (GET my-games): their games, or 403."""
        name = request.path_params["name"]
        player = await seated_player(request, name)
        s = await call(store)
        return JSONResponse({"player": player, "games": await call(s.player_games, name, player)})

    @_guarded
    async def unconfirmed(request: Request) -> Response:
        name = request.path_params["name"]
        await admin(request, name)
        s = await call(store)
        return JSONResponse({"unconfirmed": await call(s.unconfirmed, name)})

    @_guarded
    async def clocks(request: Request) -> Response:
        s = await call(store)
        return JSONResponse({"rounds": await call(s.clocks, request.path_params["name"])})

    @_guarded
    async def ratings(request: Request) -> Response:
        s = await call(store)
        return JSONResponse(await call(s.ratings, request.query_params.get("series") or None))

    @_guarded
    async def profile(request: Request) -> Response:
        s = await call(store)
        return JSONResponse(await call(s.profile, request.path_params["name"]))

    @_guarded
    async def series_list(request: Request) -> Response:
        s = await call(store)
        if request.method == "POST":
            may_create(request)  # as a new event: a series only reads its events, it changes none of them
            body = await _body(request)
            out = await call(s.create_series, body.get("name"), body.get("events"), actor="web organiser")
            return JSONResponse(out, status_code=201)
        return JSONResponse({"series": await call(s.series_names)})

    @_guarded
    async def series_one(request: Request) -> Response:
        s = await call(store)
        return JSONResponse(await call(s.series, request.path_params["name"]))

    @_guarded
    async def audit(request: Request) -> Response:
        name = request.path_params["name"]
        await admin(request, name)
        s = await call(store)
        return JSONResponse({"audit": await call(s.audit_log, name)})

    @_guarded
    async def organise(request: Request) -> Response:
        name = request.path_params["name"]
        what = request.path_params["what"]
        actor = await admin(request, name)
        body = await _body(request)
        s = await call(store)
        if what == "teams":
            return JSONResponse({"team": await call(s.add_team, name, body.get("name"), actor=actor)}, status_code=201)
        if what == "rename":
            return JSONResponse(await call(s.rename_event, name, body.get("name"), actor=actor))
        if what == "delete":
            await call(s.delete_event, name, actor=actor)
            return JSONResponse({"deleted": name})
        if what == "rename-player":
            await call(s.rename_player, name, _text(body, "name"), body.get("to"), actor=actor)
            return JSONResponse({"renamed": body["name"], "to": body.get("to")})
        if what == "delete-player":
            await call(s.delete_player, name, _text(body, "name"), actor=actor)
            return JSONResponse({"deleted": body["name"]})
        if what == "players":
            pid = await call(
                s.add_player,
                name,
                body.get("name"),
                team=body.get("team") or None,
                substitute=bool(body.get("substitute")),
                actor=actor,
            )
            return JSONResponse({"player": pid}, status_code=201)
        if what == "schedule":
            rounds = await call(s.make_schedule, name, _int(body.get("rounds")), seed=body.get("seed"), actor=actor)
            return JSONResponse({"schedule": rounds}, status_code=201)
        if what == "rounds":
            r = await call(
                s.seat_round,
                name,
                body.get("method", "random"),
                players=body.get("players"),
                seed=body.get("seed"),
                draw=bool(body.get("draw", True)),
                expected_round=_optional_int(body, "round"),
                actor=actor,
            )
            return JSONResponse(r, status_code=201)
        if what == "games":
            gid = await call(
                s.new_game, name, _players(body), first_dealer=_int(body.get("first_dealer", 0)), actor=actor
            )
            return JSONResponse({"game": gid}, status_code=201)
        if what == "quick":
            gid = await call(
                s.quick_entry,
                name,
                _players(body),
                body.get("scores"),
                deposits=_int(body.get("deposits", 0)),
                first_dealer=_int(body.get("first_dealer", 0)),
                actor=actor,
            )
            return JSONResponse({"game": gid}, status_code=201)
        if what == "pins":
            chosen = body.get("players")
            if chosen is not None and (not isinstance(chosen, list) or not all(isinstance(n, str) for n in chosen)):
                raise JantakuError("players: a list of player names (or none: every player without a code)")
            return JSONResponse({"pins": await call(s.issue_pins, name, chosen, actor=actor)}, status_code=201)
        if what == "clock":
            return JSONResponse(
                await call(s.start_clock, name, _int(body.get("round")), _int(body.get("minutes")), actor=actor),
                status_code=201,
            )
        if what == "penalties":
            game_id = body.get("game")
            await call(
                s.penalty,
                name,
                body.get("player"),
                body.get("pt"),
                str(body.get("reason", "")),
                game=_int(game_id) if game_id not in (None, "") else None,
                actor=actor,
            )
            return JSONResponse({"ok": True}, status_code=201)
        raise NotFoundError(f"nothing to add called {what!r}")

    @_guarded
    async def import_record(request: Request) -> Response:
        name = request.path_params["name"]
        actor = await admin(request, name)
        # the name keeps its extension (the record's format) and never names a folder (".", "..")
        kept = (c for c in request.query_params.get("file", "upload") if c.isascii() and (c.isalnum() or c in "._-"))
        file = "".join(kept)
        file = file[:80].lstrip(".") or "upload"
        mapping: dict[str, str] = {}
        for m in request.query_params.getlist("map"):
            if "=" not in m:
                raise JantakuError(f"map takes NAME=PLAYER (a name in the record, an event player), got {m[:80]!r}")
            k, v = m.split("=", 1)
            mapping[k] = v
        raw = await _read_upload(request)
        # inflated and read through once in a heavy-work process (bounded in time and memory there); the
        # import then reads what is known to be a readable record of bounded size
        client = request.client.host if request.client else None
        raw, names = await pool.run("import", client, "league_record", raw, file)
        if request.query_params.get("names") in ("1", "true"):
            return JSONResponse({"games": [{"names": n} for n in names]})
        s = await call(store)
        force = request.query_params.get("force") in ("1", "true")
        ids = await call(in_temp, raw, file, lambda p: s.import_record(name, p, mapping, force=force, actor=actor))
        games = [await call(s.game, gid) for gid in ids]
        return JSONResponse(
            {"games": [{"game": g["id"], "players": g["players"], "entries": len(g["entries"])} for g in games]},
            status_code=201,
        )

    async def game_organiser(request: Request) -> tuple[int, Any, str]:
        """The game of the path, the store and the organiser acting on it (the password checked for its event)."""
        gid = _int(request.path_params["id"])
        s = await call(store)
        g = await call(s.game, gid)
        return gid, s, await admin(request, g["event_id"])

    async def game_writer(request: Request) -> tuple[int, Any, str, str | None]:
        """The game of the path, the store, who acts and the player (``None``: the organiser): a request with
        ``X-League-Pin`` comes from a player of the table, any other from the organiser."""
        if _PIN not in request.headers:
            gid, s, actor = await game_organiser(request)
            return gid, s, actor, None
        gid = _int(request.path_params["id"])
        s = await call(store)
        g = await call(s.game, gid)
        player = await seated_player(request, g["event_id"])
        if player not in g["players"]:
            raise _Denied(f"{player} does not sit at game {gid}: only its four players enter its hands")
        return gid, s, f"player {player}", player

    @_guarded
    async def entries(request: Request) -> Response:
        gid, s, actor, player = await game_writer(request)
        body = await _body(request)
        entry = body.get("entry")
        expected = _optional_int(body, "expected_seq")
        version = _optional_int(body, "version")
        seq = _optional_int(body, "seq")
        request_id = body.get("request_id")
        if player is not None and (seq is not None or body.get("preview")):
            raise _Denied("a player changes only their table's last entry; earlier ones are the organiser's")
        if body.get("preview"):  # what a correction of entry ``seq`` would change; nothing is written
            if seq is None:
                raise JantakuError("a preview names the entry it corrects (seq)")
            return JSONResponse(await call(s.preview_correction, gid, seq, entry))
        who = {"actor": actor, "player": player, "request_id": request_id}
        if seq is not None:
            out = await call(s.correct_entry, gid, seq, entry, expected_version=version, actor=actor)
        elif body.get("correct"):
            out = await call(s.correct_last, gid, entry, expected_seq=expected, expected_version=version, **who)
        else:
            out = await call(s.add_entry, gid, entry, expected_seq=expected, expected_version=version, **who)
        return JSONResponse(out, status_code=200 if out.get("repeat") else 201)

    @_guarded
    async def substitute(request: Request) -> Response:
        gid, s, actor = await game_organiser(request)
        body = await _body(request)
        out = await call(s.substitute, gid, _int(body.get("seat")), _text(body, "player"), actor=actor)
        return JSONResponse(out)

    @_guarded
    async def confirm(request: Request) -> Response:
        gid, s, actor, player = await game_writer(request)
        body = await _body(request)
        seq = _optional_int(body, "seq")
        if seq is None:
            raise JantakuError("a confirmation names the entry it confirms (seq)")
        out = await call(
            s.confirm_entry, gid, seq, player=player, expected_version=_optional_int(body, "version"), actor=actor
        )
        return JSONResponse(out)

    @_guarded
    async def delete_game(request: Request) -> Response:
        gid, s, actor = await game_organiser(request)
        await call(s.delete_game, gid, actor=actor)
        return JSONResponse({"deleted": gid})

    @_guarded
    async def undo(request: Request) -> Response:
        gid, s, actor, player = await game_writer(request)
        body = await _body(request) if request.headers.get("content-type") else {}  # an undo may name no version
        version = _optional_int(body, "version")
        return JSONResponse(await call(s.correct_last, gid, None, expected_version=version, actor=actor, player=player))

    routes = [
        Route("/", page("league.html")),
        Route("/event", page("league-event.html")),
        Route("/admin", page("league-admin.html")),
        Route("/table", page("league-table.html")),
        Route("/print", page("league-print.html")),
        Route("/player", page("league-player.html")),
        Route("/ratings", page("league-ratings.html")),
        Route("/api/presets", presets),
        Route("/api/ratings", ratings),
        Route("/api/players/{name}", profile),
        Route("/api/series", series_list, methods=["GET", "POST"]),
        Route("/api/series/{name}", series_one),
        Route("/api/events", events, methods=["GET", "POST"]),
        Route("/api/events/{name}", event),
        Route("/api/events/{name}/history", history),
        Route("/api/events/{name}/export", export),
        Route("/api/events/{name}/login", login, methods=["POST"]),
        Route("/api/events/{name}/player-login", my_games, methods=["POST"]),
        Route("/api/events/{name}/my-games", my_games),
        Route("/api/events/{name}/unconfirmed", unconfirmed),
        Route("/api/events/{name}/clocks", clocks),
        Route("/api/events/{name}/audit", audit),
        Route("/api/events/{name}/import", import_record, methods=["POST"]),
        Route("/api/events/{name}/{what}", organise, methods=["POST"]),
        Route("/api/games/{id}", game),
        Route("/api/games/{id}/entries", entries, methods=["POST"]),
        Route("/api/games/{id}/undo", undo, methods=["POST"]),
        Route("/api/games/{id}/confirm", confirm, methods=["POST"]),
        Route("/api/games/{id}/substitute", substitute, methods=["POST"]),
        Route("/api/games/{id}/delete", delete_game, methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    app.state.league = lazy
    app.state.login_limiter = limiter
    return app


async def _read_upload(request: Request) -> bytes:
    """The body, an uploaded record: at most :data:`~jantaku.web.limits.MAX_UPLOAD` bytes, not empty."""
    raw = await read_body(request, MAX_UPLOAD, "the upload")
    if not raw.strip():
        raise JantakuError("the upload is empty: send the record file as the request body")
    return raw


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str):
        raise JantakuError(f"{key}: a string")
    return value


def _event_head(s: Any, name: str) -> dict[str, Any]:
    for e in s.events():
        if e["name"] == name:
            rules = s.rules(name)
            return {**e, "title": rules.title, "starting_points": rules.starting_points}
    raise NotFoundError(f"no event {name!r}")


def _optional_int(body: dict[str, Any], key: str) -> int | None:
    """``body[key]`` as a whole number (:func:`_int`), or ``None`` when absent or null."""
    value = body.get(key)
    return _int(value) if value is not None else None


def _int(value: object) -> int:
    """A whole number that a database column holds (-2**63..2**63-1), or a :class:`JantakuError` (400)."""
    try:
        if isinstance(value, bool) or (isinstance(value, str) and not value.strip().lstrip("-").isascii()):
            raise ValueError
        number = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise JantakuError(f"expected a whole number, got {str(value)[:40]!r}") from None
    if not -(2**63) <= number < 2**63:
        raise JantakuError(f"expected a whole number within a database's range, got {str(value)[:40]!r}")
    return number


def _players(body: dict[str, Any]) -> list[str]:
    players = body.get("players")
    if not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, str) for p in players):
        raise JantakuError("players: four names in seat order (East seat first)")
    return players
