"""The league recorder's web pages and JSON API, mounted at ``/league`` of the web table (see
:mod:`jantaku.league`).

=============================================  ==============================================================
``GET  /league/``                              the events and their public standings pages
``GET  /league/event?name=``                   an event's standings, teams, games and players' charts (public)
``GET  /league/admin``                         the organiser's page: create an event, players, teams, seat a
                                               round, enter hands (a form usable on a phone at the table)
``GET  /league/api/presets``                   the riichi rule sets an event can use
``GET  /league/api/events``                    every event
``POST /league/api/events``                    ``{"name", "rules", "password"}``: a new event
``GET  /league/api/events/{name}``             players, teams, games, standings, team standings
``GET  /league/api/events/{name}/history``     ``?player=``: that player's games and running total
``GET  /league/api/events/{name}/export``      ``?format=csv|json&what=standings|games``
``GET  /league/api/games/{id}``                a game: players, entries, running state, result
``POST /league/api/events/{name}/login``       checks the organiser password (200 or 403)
``POST /league/api/events/{name}/{what}``      organiser: ``teams``, ``players``, ``rounds``, ``games``,
                                               ``quick``, ``penalties``; ``GET .../audit`` the audit log
``POST /league/api/games/{id}/entries``        organiser: ``{"entry", "expected_seq"?, "correct"?}``
``POST /league/api/games/{id}/undo``           organiser: delete the last entry
=============================================  ==============================================================

Organiser requests carry the event's password in the ``X-League-Password`` header; an event made without a
password (from the command line) is read-only here. A bad entry is 400 with the rule set's reason, a wrong
password 403, an unknown event or game 404, a conflicting entry (someone entered another one meanwhile) 409.
The database is opened on the first request (a SQLite file or a PostgreSQL URL).
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from jantaku.errors import JantakuError
from jantaku.league.errors import ConflictError, NotFoundError
from jantaku.rules import load_rules, preset_names

from .limits import MAX_JSON_BYTES, parse_json

__all__ = ["league_app"]

STATIC = Path(__file__).parent / "static"
_PASSWORD = "x-league-password"


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


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _guarded(fn: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    async def handler(request: Request) -> Response:
        try:
            return await fn(request)
        except _Denied as e:
            return _error(403, str(e))
        except NotFoundError as e:
            return _error(404, str(e))
        except ConflictError as e:
            return _error(409, str(e))
        except _TooLarge as e:
            return _error(413, str(e))
        except _BadMedia as e:
            return _error(415, str(e))
        except JantakuError as e:
            return _error(400, str(e))

    return handler


class _Denied(Exception):
    pass


class _TooLarge(Exception):
    pass


class _BadMedia(Exception):
    pass


async def _body(request: Request) -> dict[str, Any]:
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        raise _BadMedia("the body must be sent as Content-Type: application/json")
    raw = bytearray()
    async for chunk in request.stream():
        raw.extend(chunk)
        if len(raw) > MAX_JSON_BYTES:
            raise _TooLarge(f"the body is larger than {MAX_JSON_BYTES // 1024} KiB")
    obj = parse_json(bytes(raw) or b"null", "the body")
    if not isinstance(obj, dict):
        raise JantakuError("the body must be a JSON object")
    return obj


def league_app(db: str | Path) -> Starlette:
    """The league sub-application over the league database ``db`` (a SQLite file path or a PostgreSQL URL)."""
    lazy = _Lazy(db)

    def store() -> Any:
        return lazy.get()

    async def call(fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        return await run_in_threadpool(fn, *args, **kw)

    async def admin(request: Request, event: str | int) -> str:
        password = request.headers.get(_PASSWORD, "")
        s = await call(store)

        def check() -> bool:
            with s.engine.connect() as conn:
                ev = s._event(conn, event)
            if not ev["admin_hash"]:
                raise _Denied(f"event {ev['name']!r} has no organiser password: it is read-only on the web")
            return bool(s.check_admin(event, password))

        if not await call(check):
            raise _Denied("wrong organiser password")
        return "web organiser"

    def page(file: str) -> Callable[[Request], Awaitable[Response]]:
        async def serve(request: Request) -> Response:
            return FileResponse(STATIC / file, media_type="text/html")

        return serve

    @_guarded
    async def presets(request: Request) -> Response:
        names = [n for n in preset_names() if load_rules(n).family == "riichi"]
        return JSONResponse({"presets": names})

    @_guarded
    async def events(request: Request) -> Response:
        s = await call(store)
        if request.method == "POST":
            body = await _body(request)
            password = body.get("password")
            if not isinstance(password, str) or len(password) < 4:
                raise JantakuError("an event made on the web needs an organiser password (4 characters or more)")
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
        if what == "players":
            pid = await call(s.add_player, name, body.get("name"), team=body.get("team") or None, actor=actor)
            return JSONResponse({"player": pid}, status_code=201)
        if what == "rounds":
            r = await call(
                s.seat_round,
                name,
                body.get("method", "random"),
                players=body.get("players"),
                seed=body.get("seed"),
                draw=bool(body.get("draw", True)),
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
    async def entries(request: Request) -> Response:
        gid = _int(request.path_params["id"])
        s = await call(store)
        g = await call(s.game, gid)
        actor = await admin(request, g["event_id"])
        body = await _body(request)
        entry = body.get("entry")
        expected = body.get("expected_seq")
        expected = _int(expected) if expected is not None else None
        if body.get("correct"):
            out = await call(s.correct_last, gid, entry, expected_seq=expected, actor=actor)
        else:
            out = await call(s.add_entry, gid, entry, expected_seq=expected, actor=actor)
        return JSONResponse(out, status_code=201)

    @_guarded
    async def undo(request: Request) -> Response:
        gid = _int(request.path_params["id"])
        s = await call(store)
        g = await call(s.game, gid)
        actor = await admin(request, g["event_id"])
        return JSONResponse(await call(s.correct_last, gid, None, actor=actor))

    routes = [
        Route("/", page("league.html")),
        Route("/event", page("league-event.html")),
        Route("/admin", page("league-admin.html")),
        Route("/api/presets", presets),
        Route("/api/events", events, methods=["GET", "POST"]),
        Route("/api/events/{name}", event),
        Route("/api/events/{name}/history", history),
        Route("/api/events/{name}/export", export),
        Route("/api/events/{name}/login", login, methods=["POST"]),
        Route("/api/events/{name}/audit", audit),
        Route("/api/events/{name}/{what}", organise, methods=["POST"]),
        Route("/api/games/{id}", game),
        Route("/api/games/{id}/entries", entries, methods=["POST"]),
        Route("/api/games/{id}/undo", undo, methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    app.state.league = lazy
    return app


def _event_head(s: Any, name: str) -> dict[str, Any]:
    for e in s.events():
        if e["name"] == name:
            rules = s.rules(name)
            return {**e, "title": rules.title, "starting_points": rules.starting_points}
    raise NotFoundError(f"no event {name!r}")


def _int(value: object) -> int:
    try:
        if isinstance(value, bool):
            raise ValueError
        return int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise JantakuError(f"expected a whole number, got {str(value)[:40]!r}") from None


def _players(body: dict[str, Any]) -> list[str]:
    players = body.get("players")
    if not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, str) for p in players):
        raise JantakuError("players: four names in seat order (East seat first)")
    return players
