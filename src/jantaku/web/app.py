"""The web table as a Starlette application: JSON API, websockets, tiles and the front end.

=======================================  ==================================================================
``GET  /``, ``/score``, ``/games``,      the pages: play (lobby and table), the score calculator, the stored
``/replay``                              games, the replay viewer (``?game=ID``, or a log file uploaded there)
``GET  /api/presets``                    the playable rule sets (riichi and 洁律) and the bots, the presets for
                                         scoring and those of them scored as 洁律 (``jielu``)
``GET  /api/yaku``                       every yaku and dora name in kanji, English and Chinese
``GET  /api/status``                     the tables held in memory and the server's limits (for monitoring)
``POST /api/tables``                     a new table ``{"rules", "seats": [4 x "human"|bot], "names"?}``
                                         and its options ``pace``, ``result_seconds``, ``timer``, ``length``,
                                         ``creator_seat`` (the first human seat by default, or ``null``);
                                         answers the creator's seat's secret ``token`` and ``link``, each other
                                         human seat's invitation ``link`` (``?invite=``), the creator's
                                         ``owner_token`` and the read-only ``spectator_link``
``POST /api/tables/{id}/claim``          ``{"invite"}``: the first to open an invitation takes the seat and
                                         gets its ``token`` and ``link``; the invitation is used up (409 after)
``POST /api/tables/{id}/leave``          ``{"token"}``: the holder leaves the seat (its token is refused from
                                         then on); the creator can invite someone else to it
``GET  /api/tables/{id}/invitations``    ``?token=`` the ``owner_token``: each human seat, whether it is
                                         claimed, and the invitation link of each seat nobody holds
``POST /api/tables/{id}/seats/{seat}/``  ``{"token"}``: the seat's own token gets a new token and link (the old
``reissue``                              one is refused, 403); the ``owner_token`` gets a new invitation for a
                                         seat nobody holds (409 for a claimed seat)
``GET  /api/tables/{id}/view?token=``    the seat's view (own hand, public table, legal actions); with the
                                         table's spectator token (its read-only ``spectator_link``) the public
                                         table, no closed tile and no options (every hand once it is over)
``POST /api/tables/{id}/act``            ``{"token", "step", "index"}`` (or ``"action": {...}``); the new view
``POST /api/tables/{id}/ready``          ``{"token"}``: the seat closed the finished hand's result panel
``POST /api/tables/{id}/auto``           ``{"token", "riichi_discard"?, "win"?, "no_calls"?}``: the seat's
                                         auto options (booleans), kept with the table
``GET  /api/games``                      stored (finished) games, newest first
``GET  /api/games/{id}``                 one stored game with its complete mjai event log
``GET  /api/games/{id}/export``          ``?format=tenhou6|mjai``: the record as a file (a 洁律 game: mjai)
``POST /api/replay``                     a log file as the body (mjlog, tenhou.net/6, mjai, mjx): its games'
                                         events (each with the formats it exports to, ``exports``, its rank
                                         points ``final`` and the names of its yaku as written, ``yaku``)
``POST /api/replay/export``              ``?format=tenhou6|mjai&name=&game=`` with the same body: game ``game``
                                         (from 0) of the file as a download (a 洁律 game: mjai); nothing stored
``GET  /review``, ``/api/games/{id}/``   the review page (``?game=ID``, or a log file uploaded there); a stored
``review``                               game's review: each decision with the bot's choice and the board
``POST /api/review``                     ``?name=&game=&bot=&player=`` with a log file as the body: its review
                                         (:mod:`jantaku.web.review`: in a worker thread, time and size capped)
``POST /api/score``                      a scoring request (:mod:`jantaku.riichi.jsonio`; a 洁律 one, ``"rules":
                                         "jielu"``, :mod:`jantaku.jielu.jsonio`): the score
``GET  /tiles/{name}.svg``               a tile picture (:mod:`jantaku.web.svg`)
``GET  /favicon.svg``, ``/favicon.ico``  the pages' icon: a tile (SVG)
``WS   /ws/tables/{id}?token=``          pushes ``{"type": "view", "view": ...}`` after every change; accepts
                                         ``{"type": "act", "step", "index"}``
=======================================  ==================================================================

Errors are JSON ``{"error": "..."}`` with a 4xx status: 400 malformed or illegal, 403 a token that is not
the table's (or a request from another site, below), 404 an unknown table or game, 409 a stale action (the
table moved on, here or in another server process on the same database), 413 a body or upload too big (or a
gzip upload inflating too far), 415 a JSON body sent without ``Content-Type: application/json``, 421 a Host
the server does not answer to, 429 too many new tables from one address; 503 when the server holds its limit
of tables or the game store refused a write (nothing changed: try again). What a request may hold is set out
in :mod:`jantaku.web.limits`. An action is stored before it is answered: an acknowledged move is never lost.

Browser safety (:class:`BrowserGuard`): a page on another site must not be able to drive a server running on
the user's machine. So a request whose ``Host`` is a name the server was not started for is refused (421: a
DNS-rebinding page reaches the server under its own name; an IP address cannot be rebound and is always
answered); a state-changing request (POST, PUT, PATCH, DELETE, and the websocket handshake) carrying an
``Origin`` other than the server's own is refused (403; a request without ``Origin``, from curl or a script,
is let through); JSON bodies must say ``Content-Type: application/json`` (a cross-site form cannot send that
without the ``Origin`` that the check refuses). Every answer carries a Content-Security-Policy that allows
only the server's own scripts, styles, pictures and connections (no inline script or style) and no framing,
``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY`` and ``Referrer-Policy: no-referrer`` (seat
tokens are in page addresses); pages and API answers are ``Cache-Control: no-store`` unless they say
otherwise (a tile, the yaku names).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import ipaddress
import json
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from jantaku.records.mjai import read_mjai, write_mjai
from jantaku.records.tenhou6 import write_tenhou6
from jantaku.rules import load_rules, preset_names
from jantaku.scoring_requests import score_json

from .analyse import routes as analyse_routes
from .errors import cut_message
from .heavy import HeavyLimits, HeavyPool
from .league import league_app
from .limits import (
    MAX_INFLATED,
    MAX_JSON_BYTES,
    MAX_SOCKETS,
    MAX_SOCKETS_PER_ADDRESS,
    MAX_UPLOAD,
    SocketLimiter,
    TooLarge,
    check_score_request,
    check_table_options,
    parse_json,
    read_body,
)
from .review import ReviewService, check_bot
from .storage import GameStore, SqlStore
from .store_engine import database_url
from .svg import TILE_NAMES, tile_svg
from .tables import (
    AUTO_KEYS,
    BOT_GAMES_DAYS,
    BOTS,
    LENGTHS,
    PACES,
    SPECTATOR,
    TIMERS,
    BadRequest,
    NotFound,
    TableManager,
    TableOptions,
    WebError,
    all_yaku_names,
    playable_presets,
)
from .uploads import rules_family

__all__ = ["LOOPBACK_HOSTS", "MAX_UPLOAD", "BrowserGuard", "TooLarge", "create_app", "host_name"]

STATIC = Path(str(resources.files("jantaku.web") / "static"))

log = logging.getLogger("jantaku.web")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class UnsupportedMediaType(WebError):
    """A JSON body sent as something else (415)."""

    status = 415


async def _json_body(request: Request) -> dict[str, Any]:
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        shown = cut_message(media, 60) if media else "none"
        raise UnsupportedMediaType(f"the body must be sent as Content-Type: application/json (not {shown})")
    raw = await read_body(request, MAX_JSON_BYTES, "the body")
    obj = parse_json(raw or b"null", "the body")
    if not isinstance(obj, dict):
        raise BadRequest("the body must be a JSON object")
    return obj


def _client(request: Request | WebSocket) -> str | None:
    return request.client.host if request.client else None


def _manager(request: Request | WebSocket) -> TableManager:
    return request.app.state.manager


def _store(request: Request) -> GameStore:
    return request.app.state.store


# -- pages and tiles ------------------------------------------------------------------------------------------


async def page(request: Request) -> Response:
    pages = {"/": "index.html", "/score": "score.html", "/games": "games.html", "/replay": "replay.html"}
    pages["/review"] = "review.html"
    name = pages[request.url.path]
    return FileResponse(STATIC / name, media_type="text/html")


async def tile(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in TILE_NAMES:
        raise NotFound(f"no tile {name!r}")
    return Response(tile_svg(name), media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})


FAVICON_TILE = "7z"
"""The tile the pages' icon shows (中, the red dragon), drawn by :func:`~jantaku.web.svg.tile_svg`."""


async def favicon(request: Request) -> Response:
    """The pages' icon, an SVG tile, at ``/favicon.svg`` (which the pages link) and ``/favicon.ico`` (where a
    browser looks for it unasked)."""
    return Response(
        tile_svg(FAVICON_TILE), media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"}
    )


# -- tables ---------------------------------------------------------------------------------------------------


async def presets(request: Request) -> Response:
    families = {name: load_rules(name).family for name in preset_names()}
    scoring = [name for name, family in families.items() if family in ("riichi", "jielu")]
    jielu = [name for name, family in families.items() if family == "jielu"]
    defaults = _manager(request).defaults
    table_options = {
        "paces": PACES,
        "timers": list(TIMERS),
        "lengths": list(LENGTHS),
        "auto": list(AUTO_KEYS),
        "defaults": defaults.to_json(),
    }
    return JSONResponse(
        {
            "presets": playable_presets(),
            "bots": list(BOTS),
            "default": "standard",
            "default_bot": BOTS[0],
            "scoring": scoring,
            "jielu": jielu,
            "table_options": table_options,
        }
    )


async def status(request: Request) -> Response:
    manager = _manager(request)
    return JSONResponse(
        {
            "tables_held": len(manager.tables),
            "max_tables": manager.max_tables,
            "idle_seconds": manager.idle_seconds,
            "creates_per_minute": manager.creates_per_minute,
            "max_json_bytes": MAX_JSON_BYTES,
            "max_upload_bytes": MAX_UPLOAD,
            "max_inflated_bytes": MAX_INFLATED,
            "heavy": _heavy(request).status(),
            "cluster": manager.cluster_status(),
        }
    )


async def yaku(request: Request) -> Response:
    return JSONResponse({"yaku": all_yaku_names()}, headers={"Cache-Control": "public, max-age=3600"})


async def create_table(request: Request) -> Response:
    body = await _json_body(request)
    rules = body.get("rules", "standard")
    seats = body.get("seats", ["human", BOTS[0], BOTS[0], BOTS[0]])
    names = body.get("names")
    if not isinstance(rules, str):
        raise BadRequest("rules: a preset name")
    manager = _manager(request)
    options = None
    if rules in playable_presets():
        options = check_table_options(body, rules, manager.defaults, load_rules(rules).family)
    creator = body.get("creator_seat", "first")
    client = _client(request)
    table = await run_in_threadpool(manager.create, rules, seats, names, None, client, options, creator, False)
    played = None
    if not table.humans:
        # four bots: the whole game is heavy work, played in a worker process (the request waits for it; the
        # server does not), then stored
        played = await _heavy(request).run("bots", client, "bot_game", table.stored_table())
        await run_in_threadpool(manager.store_bots_only, table, played)
    out = []
    for s, info in enumerate(table.seats):
        entry: dict[str, Any] = {"seat": s, **info.to_json()}
        if info.claimed:  # the creator's own seat
            entry.update(claimed=True, token=info.token, link=_seat_link(table.id, info.token))
        elif info.kind == "human":
            entry.update(claimed=False, invite=info.invite, link=_invite_link(table.id, info.invite))
        out.append(entry)
    # no step here: the table's own count of actions would tell how many hidden passes came before (each seat's
    # view has its own step)
    answer = {
        "id": table.id,
        "rules": table.rules,
        "over": table.over or played is not None,
        "seats": out,
        "options": table.options.to_json(),
    }
    if table.owner is not None:
        answer["owner_token"] = table.owner
        answer["spectator_link"] = f"/?table={table.id}&watch={table.spectator_token()}"
    return JSONResponse(answer, status_code=201)


async def reissue_link(request: Request) -> Response:
    body = await _json_body(request)
    text = request.path_params["seat"]
    if not (text.isascii() and text.isdigit() and len(text) == 1):
        raise BadRequest(f"seat: 0-3, not {cut_message(text, 20)!r}")
    seat = int(text)
    manager = _manager(request)
    table, kind, secret = await run_in_threadpool(manager.reissue, request.path_params["id"], body.get("token"), seat)
    link = _seat_link(table.id, secret) if kind == "token" else _invite_link(table.id, secret)
    return JSONResponse({"seat": seat, kind: secret, "link": link})


def _seat_link(table_id: str, token: str | None) -> str:
    return f"/?table={table_id}&token={token}"


def _invite_link(table_id: str, invite: str | None) -> str:
    return f"/?table={table_id}&invite={invite}"


async def claim_seat(request: Request) -> Response:
    body = await _json_body(request)
    table, seat, token = await run_in_threadpool(_manager(request).claim, request.path_params["id"], body.get("invite"))
    return JSONResponse({"seat": seat, "token": token, "link": _seat_link(table.id, token)})


async def leave_seat(request: Request) -> Response:
    body = await _json_body(request)
    _, seat = await run_in_threadpool(_manager(request).leave, request.path_params["id"], body.get("token"))
    return JSONResponse({"seat": seat, "left": True})


async def invitations(request: Request) -> Response:
    owner = request.query_params.get("token")
    table, seats = await run_in_threadpool(_manager(request).seat_links, request.path_params["id"], owner)
    for entry in seats:
        if "invite" in entry:
            entry["link"] = _invite_link(table.id, entry["invite"])
    return JSONResponse({"seats": seats, "spectator_link": f"/?table={table.id}&watch={table.spectator_token()}"})


async def table_view(request: Request) -> Response:
    table = await run_in_threadpool(_manager(request).get, request.path_params["id"])
    token = request.query_params.get("token")
    if table.is_spectator(token):
        return JSONResponse(table.spectator_view())
    return JSONResponse(table.view(table.seat_of(token)))


async def table_act(request: Request) -> Response:
    body = await _json_body(request)
    token = body["token"] if "token" in body else request.query_params.get("token")
    choice = body["action"] if "action" in body else body.get("index")
    manager = _manager(request)
    table = await run_in_threadpool(manager.act, request.path_params["id"], token, body.get("step"), choice)
    return JSONResponse(table.view(table.seat_of(token)))


async def table_ready(request: Request) -> Response:
    body = await _json_body(request)
    token = body.get("token")
    table = await run_in_threadpool(_manager(request).ready, request.path_params["id"], token)
    return JSONResponse(table.view(table.seat_of(token)))


async def table_auto(request: Request) -> Response:
    body = await _json_body(request)
    token = body.get("token")
    changes = {k: v for k, v in body.items() if k != "token"}
    table = await run_in_threadpool(_manager(request).set_auto, request.path_params["id"], token, changes)
    return JSONResponse(table.view(table.seat_of(token)))


async def table_socket(websocket: WebSocket) -> None:
    """Push the seat's view after every change; take ``{"type": "act", "step", "index"}`` messages.

    A message that is refused gets ``{"type": "error", "status", "error"}`` and the socket stays open; a
    failure of the server itself closes it with code 1011 and the reason. A socket over the server's caps (per
    address and in all: :class:`~jantaku.web.limits.SocketLimiter`) is closed at once with code 1013 and why."""
    await websocket.accept()
    limiter: SocketLimiter = websocket.app.state.sockets
    address = _client(websocket)
    refused = limiter.acquire(address)
    if refused is not None:
        await websocket.send_json({"type": "error", "status": 429, "error": refused})
        await websocket.close(code=1013, reason=refused[:120])
        return
    try:
        await _table_socket(websocket)
    finally:
        limiter.release(address)


async def _table_socket(websocket: WebSocket) -> None:
    manager = _manager(websocket)
    table_id = websocket.path_params["id"]
    token = websocket.query_params.get("token")
    try:
        table = await run_in_threadpool(manager.get, table_id)
        spectator = table.is_spectator(token)
        seat = SPECTATOR if spectator else table.seat_of(token)
    except WebError as e:
        await websocket.send_json({"type": "error", "status": e.status, "error": e.message})
        await websocket.close(code=4000 + e.status, reason=e.message[:120])
        return
    listener = table.subscribe(seat)

    def current() -> dict[str, Any]:
        return table.spectator_view() if spectator else table.view(seat)

    try:
        await websocket.send_json({"type": "view", "view": current()})

        async def push() -> None:
            while True:
                await listener.queue.get()
                while not listener.queue.empty():  # several changes at once: one view
                    listener.queue.get_nowait()
                try:
                    if not spectator:
                        table.seat_of(token)  # the seat's link may have been reissued
                except WebError as e:
                    await websocket.send_json({"type": "error", "status": e.status, "error": e.message})
                    await websocket.close(code=4000 + e.status, reason=e.message[:120])
                    tg.cancel_scope.cancel()
                    return
                await websocket.send_json({"type": "view", "view": current()})

        async with anyio.create_task_group() as tg:
            tg.start_soon(push)
            try:
                while True:
                    text = await websocket.receive_text()
                    try:
                        msg = parse_json(text, "the message")
                        if not isinstance(msg, dict) or msg.get("type") != "act":
                            raise BadRequest('a message is {"type": "act", "step": int, "index": int}')
                        choice = msg["action"] if "action" in msg else msg.get("index")
                        await run_in_threadpool(manager.act, table_id, token, msg.get("step"), choice)
                    except WebError as e:
                        await websocket.send_json({"type": "error", "status": e.status, "error": e.message})
                    except Exception as e:
                        log.exception("websocket message on table %s", table_id)
                        reason = f"server error ({type(e).__name__})"
                        await websocket.send_json({"type": "error", "status": 500, "error": reason})
                        await websocket.close(code=1011, reason=reason)
                        break
            except WebSocketDisconnect:
                pass
            finally:
                tg.cancel_scope.cancel()
    finally:
        table.unsubscribe(listener)
        manager.release(table)


# -- stored games ---------------------------------------------------------------------------------------------


def _int_param(request: Request, name: str, default: int, top: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        raise BadRequest(f"{name} must be an integer") from None
    if not 0 <= value <= top:
        raise BadRequest(f"{name} must be 0-{top}")
    return value


async def list_games(request: Request) -> Response:
    limit = _int_param(request, "limit", 100, 1000)
    offset = _int_param(request, "offset", 0, 10**9)
    games = await run_in_threadpool(_store(request).list_games, limit, offset)
    return JSONResponse({"games": [_game_header(g) for g in games]})


def _game_header(g: Any) -> dict[str, Any]:
    """What the games list and a stored game's page both show about it (``exports``: the formats it can be
    exported to; tenhou.net/6 holds riichi games only)."""
    family = rules_family(g.rules)
    return {
        "id": g.id,
        "created": g.created,
        "rules": g.rules,
        "family": family,
        "exports": ["tenhou6", "mjai"] if family == "riichi" else ["mjai"],
        "players": g.players,
        "status": g.status,
        "summary": g.summary,
    }


def _stored(request: Request) -> Any:
    game = _store(request).get_game(request.path_params["id"])
    if game is None:
        raise NotFound(f"no stored game {request.path_params['id']}")
    return game


async def get_game(request: Request) -> Response:
    g = await run_in_threadpool(_stored, request)
    return JSONResponse({**_game_header(g), "events": g.events})


async def export_game(request: Request) -> Response:
    fmt = request.query_params.get("format", "tenhou6")
    if fmt not in ("tenhou6", "mjai"):
        raise BadRequest(f"format must be tenhou6 or mjai, not {fmt!r}")
    g = await run_in_threadpool(_stored, request)
    if fmt == "tenhou6" and rules_family(g.rules) != "riichi":
        raise BadRequest(f"tenhou.net/6 records hold riichi games only: export this {g.rules} game with format=mjai")
    record = read_mjai(g.events)
    record.source = f"jantaku:{g.rules}:{g.id}"
    if g.summary.get("final"):
        record.final = [float(x) for x in g.summary["final"]]
    if g.summary.get("length") in ("east", "hanchan"):  # a table's chosen length, not its preset's
        record.hanchan = g.summary["length"] == "hanchan"
    if fmt == "mjai":
        buf = io.StringIO()
        write_mjai(record, buf)
        body, media, suffix = buf.getvalue(), "application/x-ndjson", "mjson"
    else:
        doc = write_tenhou6(record, title=record.source, rule_disp=g.rules)
        body, media, suffix = json.dumps(doc, ensure_ascii=False), "application/json", "json"
    headers = {"Content-Disposition": f'attachment; filename="jantaku-{g.id}.{suffix}"'}
    return Response(body, media_type=media, headers=headers)


# -- records and scoring --------------------------------------------------------------------------------------


async def _upload_body(request: Request) -> tuple[bytes, str]:
    """The request's body, a log file (at most :data:`~jantaku.web.limits.MAX_UPLOAD` bytes, as sent: the
    heavy-work process inflates gzip data, at most :data:`~jantaku.web.limits.MAX_INFLATED` bytes), and its
    name from ``?name=`` (letters, digits and ``._-`` only: it goes into messages and file names)."""
    raw = await read_body(request, MAX_UPLOAD, "the upload")
    if not raw.strip():
        raise BadRequest("the body is empty: send the log file as the request body")
    name = "".join(c for c in request.query_params.get("name", "upload") if c.isalnum() or c in "._-")[:80] or "upload"
    return raw, name


def _heavy(request: Request) -> HeavyPool:
    return request.app.state.heavy


async def replay_upload(request: Request) -> Response:
    raw, name = await _upload_body(request)
    games = await _heavy(request).run("replay", _client(request), "replay_read", raw, name)
    return JSONResponse({"games": games})


async def export_upload(request: Request) -> Response:
    fmt = request.query_params.get("format", "tenhou6")
    if fmt not in ("tenhou6", "mjai"):
        raise BadRequest(f"format must be tenhou6 or mjai, not {fmt!r}")
    index = _int_param(request, "game", 0, 10**6)
    raw, name = await _upload_body(request)
    body, filename = await _heavy(request).run("export", _client(request), "replay_export", raw, name, fmt, index)
    media = "application/x-ndjson" if fmt == "mjai" else "application/json"
    return Response(body, media_type=media, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


async def review_game(request: Request) -> Response:
    """A stored game's review (:mod:`jantaku.web.review`)."""
    q = request.query_params
    bot, player = check_bot(q.get("bot")), q.get("player")
    g = await run_in_threadpool(_stored, request)
    reviews: ReviewService = request.app.state.reviews
    key = f"{g.id}:{len(g.events)}"
    source = f"jantaku:{g.rules}:{g.id}"
    out = await reviews.run(_heavy(request), _client(request), key, bot, player, "review_stored", g.events, source)
    return JSONResponse({**out, "id": g.id})


async def review_upload(request: Request) -> Response:
    """An uploaded log file's review (game ``?game=``, from 0)."""
    index = _int_param(request, "game", 0, 10**6)
    q = request.query_params
    bot, player = check_bot(q.get("bot")), q.get("player")
    raw, name = await _upload_body(request)
    reviews: ReviewService = request.app.state.reviews
    # the same file again, under any name: from the cache (the review is read under a stand-in name, and the
    # answer and its errors then say this request's name)
    key = f"upload:{hashlib.sha256(raw).hexdigest()}:{index}"
    stand_in = _STAND_IN + (".gz" if name.endswith(".gz") else "")
    try:
        out = await reviews.run(
            _heavy(request), _client(request), key, bot, player, "review_upload", raw, stand_in, index
        )
    except WebError as e:
        e.message = e.message.replace(_STAND_IN, name.removesuffix(".gz"))
        raise
    return JSONResponse({**out, "source": str(out.get("source", "")).replace(_STAND_IN, name.removesuffix(".gz"))})


_STAND_IN = "\x00upload\x00"
"""The name an uploaded file is reviewed under, so that its review can be cached by content alone."""


async def score(request: Request) -> Response:
    body = await _json_body(request)
    rules = body.get("rules", "standard")
    if not isinstance(rules, str) or rules not in preset_names():
        raise BadRequest(f"rules: one of the presets {', '.join(preset_names())}")
    check_score_request(body)
    result = await run_in_threadpool(score_json, body)
    if "error" in result:
        raise BadRequest(result["error"])
    return JSONResponse(result)


# -- browser safety -------------------------------------------------------------------------------------------

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
"""The names a server answers to besides its ``--host`` and ``--allowed-host`` ones."""

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The pages' Content-Security-Policy: only the server's own files, nothing inline, never in a frame."""

SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def host_name(value: str) -> str | None:
    """The host name of a ``Host`` header (or a ``--host`` value), lower case, without its port; an IPv6
    address in brackets; ``None`` for something that is not a host.

    >>> host_name("LocalHost:8000"), host_name("[::1]:80"), host_name("::1"), host_name("a b")
    ('localhost', '[::1]', '[::1]', None)
    """
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        name, rest = value[: end + 1], value[end + 1 :]
        if end < 0 or (rest and not (rest.startswith(":") and rest[1:].isascii() and rest[1:].isdigit())):
            return None
    elif value.count(":") > 1:  # a bare IPv6 address (a --host value)
        name = f"[{value}]"
    else:
        name, _, port = value.partition(":")
        if _ and not (port.isascii() and port.isdigit()):
            return None
    if not name or any(c.isspace() or c in "/\\@?#" for c in name):
        return None
    return name


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name[1:-1] if name.startswith("[") else name)
    except ValueError:
        return False
    return True


def _origin_netloc(scheme: str, netloc: str) -> str:
    """``netloc`` lower case, without the scheme's default port."""
    netloc = netloc.lower()
    default = {"http": ":80", "https": ":443", "ws": ":80", "wss": ":443"}.get(scheme, "")
    return netloc[: -len(default)] if default and netloc.endswith(default) else netloc


class BrowserGuard:
    """ASGI middleware: refuse foreign ``Host`` names (421) and cross-site state-changing requests (403), and
    add the security headers to every answer (see the module docs). A refused websocket handshake is closed
    before it is accepted (HTTP 403, close code 1008 with the reason).

    ``allowed_hosts``: the names answered besides IP addresses (``None``: every name, for an application
    behind something that checks them, or a test client)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] | None) -> None:
        self.app = app
        self.allowed_hosts = None if allowed_hosts is None else frozenset(host_name(h) or h for h in allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        problem = self._problem(scope, headers)
        if problem is not None:
            await self._refuse(scope, receive, send, *problem)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        no_store = path.startswith("/api/") or not path.startswith(("/static/", "/tiles/"))

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                out = [(k, v) for k, v in message.get("headers", []) if k.lower() not in dict(SECURITY_HEADERS)]
                out.extend(SECURITY_HEADERS)
                if no_store and not any(k.lower() == b"cache-control" for k, _ in out):
                    out.append((b"cache-control", b"no-store"))
                message = {**message, "headers": out}
            await send(message)

        await self.app(scope, receive, secured)

    def _problem(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        host = headers.get("host")
        if host is None:
            return 400, "the request has no Host header"
        name = host_name(host)
        if name is None:
            return 400, f"the Host header {host[:80]!r} is not a host name"
        if self.allowed_hosts is not None and name not in self.allowed_hosts and not _is_address(name):
            return 421, (
                f"this server does not answer to the host name {name[:80]!r}: start it with "
                f"--allowed-host {name[:80]} to allow it"
            )
        if scope["type"] == "http" and scope["method"] in _SAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is None:
            return None  # not sent by a browser page (curl, a script): nothing cross-site about it
        # host and port must match; the scheme is not compared: behind a proxy that ends TLS the page is https
        # while this server sees http, and no other site can serve a page from this host and port
        parts = urlsplit(origin.strip()) if origin.strip() != "null" else None
        if (
            parts is None
            or parts.scheme not in ("http", "https")
            or _origin_netloc(parts.scheme, parts.netloc) != _origin_netloc(parts.scheme, host.strip())
        ):
            return 403, f"cross-site request refused: Origin {origin[:80]!r} is not this server ({host[:80]})"
        return None

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
        body = json.dumps({"error": message}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-store"),
            *SECURITY_HEADERS,
        ]
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
        else:
            # a websocket handshake closed before it is accepted: the server answers HTTP 403 (a browser shows
            # a page's script nothing of a refused handshake anyway; uvicorn's denial-response extension would
            # carry the JSON but logs every use as an error)
            log.info("websocket handshake refused (%s): %s", status, message)
            await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})


# -- the application ------------------------------------------------------------------------------------------


async def _web_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, WebError)
    return _error(exc.status, exc.message)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _error(exc.status_code, str(exc.detail))


async def _server_error(request: Request, exc: Exception) -> Response:
    """The last resort: a failure of the server itself answers JSON too (the traceback goes to the log)."""
    return _error(500, f"server error ({type(exc).__name__}); the request changed nothing that was acknowledged")


def _league_db_beside(store: Any, db: str | Path | None) -> str | Path:
    """The league database's default: the games' PostgreSQL database itself (its tables are apart), or a SQLite
    file beside the games' one (``db``, or the file of the store given), else ``jantaku.league.sqlite3`` in the
    working folder (a store that is not a file)."""
    url = database_url(db) if db is not None else getattr(store, "url", None)
    if url is not None and url.get_backend_name() == "postgresql":
        return url.render_as_string(hide_password=False)
    path = url.database if url is not None else getattr(store, "path", None)
    if path is None or str(path) == ":memory:":
        path = "jantaku.sqlite3"
    return Path(path).with_suffix(".league.sqlite3")


def create_app(
    store: GameStore | None = None,
    db: str | Path | None = None,
    seed_source: Callable[[], str] | None = None,
    *,
    max_tables: int = 1000,
    idle_seconds: float = 900.0,
    creates_per_minute: int = 60,
    allowed_hosts: Iterable[str] | None = None,
    table_defaults: TableOptions | None = None,
    league_db: str | Path | None = None,
    max_sockets: int = MAX_SOCKETS,
    max_sockets_per_address: int = MAX_SOCKETS_PER_ADDRESS,
    league_creation: str | None = None,
    heavy: HeavyLimits | None = None,
    bot_games_days: float = BOT_GAMES_DAYS,
) -> Starlette:
    """The application over ``store`` (default: a :class:`~jantaku.web.storage.SqlStore` at ``db``, a SQLite file
    or a PostgreSQL URL, else ``jantaku.sqlite3`` in the working folder). ``seed_source`` gives new tables their
    seeds (default: random; tests fix it to replay the same games). ``max_tables``, ``idle_seconds`` and
    ``creates_per_minute`` bound the tables held in memory and the tables one address may create a minute (see
    :class:`~jantaku.web.tables.TableManager`). ``allowed_hosts``: the host names the server answers to (IP
    addresses are always answered; ``None``, the default: every name, for tests and an application behind a
    proxy that checks them; ``jantaku serve`` passes :data:`LOOPBACK_HOSTS`, its ``--host`` and its
    ``--allowed-host`` names). The other browser checks and headers (:class:`BrowserGuard`) always apply.
    ``table_defaults``: the pace and time options of a table created without them (default
    :class:`~jantaku.web.tables.TableOptions`: no pace, no hold, no timer; ``jantaku serve`` passes its own).
    ``league_db``: the league recorder's database at ``/league`` (:mod:`jantaku.web.league`; default a SQLite
    file beside ``db``, or the games' PostgreSQL database itself; opened on first use). ``max_sockets`` and
    ``max_sockets_per_address`` cap the open table websockets in all and from one address (0: no cap;
    :class:`~jantaku.web.limits.SocketLimiter`).
    ``league_creation``: who may create league events on the web (``None``: anyone; a secret: whoever sends it;
    ``""``: nobody; see :func:`~jantaku.web.league.league_app`). ``heavy``: the limits on heavy requests
    (reviews, analyses, record uploads; default :class:`~jantaku.web.heavy.HeavyLimits`), which run in worker
    processes started on the first one (:mod:`jantaku.web.heavy`), a table of four bots included.
    ``bot_games_days``: stored games of bots alone are deleted after this many days (0: kept)."""
    store = store if store is not None else SqlStore(db if db is not None else "jantaku.sqlite3")
    pool = HeavyPool(heavy)
    routes = [
        Route("/", page),
        Route("/score", page),
        Route("/games", page),
        Route("/replay", page),
        Route("/review", page),
        Route("/tiles/{name}.svg", tile),
        Route("/favicon.ico", favicon),
        Route("/favicon.svg", favicon),
        Route("/api/presets", presets),
        Route("/api/yaku", yaku),
        Route("/api/status", status),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{id}/view", table_view),
        Route("/api/tables/{id}/act", table_act, methods=["POST"]),
        Route("/api/tables/{id}/ready", table_ready, methods=["POST"]),
        Route("/api/tables/{id}/auto", table_auto, methods=["POST"]),
        Route("/api/tables/{id}/seats/{seat}/reissue", reissue_link, methods=["POST"]),
        Route("/api/tables/{id}/claim", claim_seat, methods=["POST"]),
        Route("/api/tables/{id}/leave", leave_seat, methods=["POST"]),
        Route("/api/tables/{id}/invitations", invitations, methods=["GET"]),
        Route("/api/games", list_games),
        Route("/api/games/{id}", get_game),
        Route("/api/games/{id}/export", export_game),
        Route("/api/games/{id}/review", review_game),
        Route("/api/review", review_upload, methods=["POST"]),
        Route("/api/replay", replay_upload, methods=["POST"]),
        Route("/api/replay/export", export_upload, methods=["POST"]),
        Route("/api/score", score, methods=["POST"]),
        WebSocketRoute("/ws/tables/{id}", table_socket),
        *analyse_routes(),  # the Analyse page (jantaku.web.analyse)
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Mount(
            "/league",
            league_app(league_db or _league_db_beside(store, db), league_creation, pool),
        ),
    ]
    handlers = {WebError: _web_error, HTTPException: _http_error, Exception: _server_error}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        # the table clock stops before the server (and whoever closes the store after it) goes: no timed step
        # is taken half-way through a shutdown
        await run_in_threadpool(app.state.manager.close)
        await run_in_threadpool(app.state.heavy.close)

    app = Starlette(
        routes=routes,
        exception_handlers=handlers,
        middleware=[Middleware(BrowserGuard, allowed_hosts=allowed_hosts)],
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.sockets = SocketLimiter(max_sockets, max_sockets_per_address)
    app.state.reviews = ReviewService()
    app.state.heavy = pool
    app.state.manager = TableManager(
        store,
        seed_source,
        max_tables=max_tables,
        idle_seconds=idle_seconds,
        creates_per_minute=creates_per_minute,
        defaults=table_defaults,
        bot_games_days=bot_games_days,
    )
    return app
