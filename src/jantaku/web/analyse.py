"""The web table's Analyse page: a small ``jantaku analyze`` run from the browser, and its HTML report.

- ``GET /analyse``: the page (``static/analyse.html``).
- ``POST /api/analyse`` with ``{"rules": "mleague,mu", "games": 8, "seed": 0, "bots": "strong", "sweep": null}``
  plays the games as heavy work (:mod:`jantaku.web.heavy`: in a worker process, within the server's limits on
  heavy requests and the analysis deadline, :data:`~jantaku.web.heavy.DEADLINES`) and answers the report's JSON
  (:meth:`jantaku.lab.analysis.Report.to_json`) with ``report``, the address of its HTML page, and ``pictures``,
  how many pictures it has (``/analyse/report/{id}/0.png`` ...: the paired differences' first). Only presets
  are accepted as rule sets (a file name would read the server's files), only jantaku's own bots (an ``mjai:``
  bot would start a program), and at most :data:`~jantaku.web.limits.ANALYSE_MAX_GAMES` games per rule set,
  :data:`~jantaku.web.limits.ANALYSE_MAX_TOTAL_GAMES` in all and
  :data:`~jantaku.web.limits.ANALYSE_MAX_RULE_SETS` rule sets.
- ``GET /analyse/report/{id}``: the report's HTML page, its pictures at ``/analyse/report/{id}/{n}.png`` and its
  style sheet ``/static/analyse.css`` (the pages' security policy allows no inline content); the last
  :data:`~jantaku.web.limits.ANALYSE_KEPT` reports are kept in memory.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from jantaku.errors import JantakuError
from jantaku.rules import preset_names

from .limits import (
    ANALYSE_KEPT,
    ANALYSE_MAX_GAMES,
    ANALYSE_MAX_RULE_SETS,
    ANALYSE_MAX_TOTAL_GAMES,
    MAX_JSON_BYTES,
    parse_json,
    read_body,
)
from .tables import BadRequest, NotFound, WebError

__all__ = ["WEB_BOTS", "keep", "play_and_draw", "routes"]

WEB_BOTS = ("strong", "efficiency", "random")
"""The bots an analysis from the web may use."""


class NotAvailable(WebError):
    """The server lacks matplotlib (501)."""

    status = 501


_reports: OrderedDict[str, tuple[str, list[bytes]]] = OrderedDict()
_reports_lock = threading.Lock()


def _field(body: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    value = body.get(key, default)
    if value is None:
        return default
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise BadRequest(f"{key} must be a whole number")
    if kind is str and not isinstance(value, str):
        raise BadRequest(f"{key} must be a string")
    if kind is str and len(value) > 500:
        raise BadRequest(f"{key} is longer than 500 characters")
    return value


def _check(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    unknown = sorted(set(body) - {"rules", "games", "seed", "bots", "sweep"})
    if unknown:
        raise BadRequest(f"unknown field {unknown[0][:40]!r}")
    rules = _field(body, "rules", str, "mleague")
    games = _field(body, "games", int, 8)
    seed = _field(body, "seed", int, 0)
    bots = _field(body, "bots", str, "strong")
    sweep = _field(body, "sweep", str, "") or None
    presets = preset_names()
    for spec in (s.strip() for s in rules.split(",")):
        if spec and spec not in presets:
            raise BadRequest(f"unknown rule set {spec[:40]!r}: the web page takes presets ({', '.join(presets)})")
    for b in (s.strip() for s in bots.split(",")):
        if b and b not in WEB_BOTS:
            raise BadRequest(f"unknown bot {b[:40]!r}: the web page's bots are {', '.join(WEB_BOTS)}")
    if not 2 <= games <= ANALYSE_MAX_GAMES:
        raise BadRequest(f"games must be 2-{ANALYSE_MAX_GAMES} on the web page (the command line has no such cap)")
    if not 0 <= seed < 2**63:
        raise BadRequest("seed must be 0 or more and below 2**63")
    return {"rules": rules, "games": games, "seed": seed, "bots": bots, "sweep": sweep}


def play_and_draw(args: dict[str, Any]) -> tuple[dict[str, Any], str, str, list[bytes]]:
    """Play the games and draw the report (heavy work, in a worker process: :mod:`jantaku.web.heavy_tasks`);
    the report's JSON, its id, its HTML page and its pictures (kept by the server: :func:`keep`)."""
    from jantaku.lab.analysis import parse_bots
    from jantaku.lab.report_html import render, require_matplotlib
    from jantaku.lab.rulesets import rule_sets

    try:
        require_matplotlib()
    except JantakuError:
        raise NotAvailable(f"the server cannot draw reports: install the lab extra ({INSTALL_LAB})") from None
    try:
        named = rule_sets(args["rules"], args["sweep"])
        parse_bots(args["bots"])
    except JantakuError as e:
        raise BadRequest(str(e)) from None
    if len(named) > ANALYSE_MAX_RULE_SETS:
        raise BadRequest(f"at most {ANALYSE_MAX_RULE_SETS} rule sets (or swept values) on the web page")
    if len(named) * args["games"] > ANALYSE_MAX_TOTAL_GAMES:
        raise BadRequest(f"at most {ANALYSE_MAX_TOTAL_GAMES} games in all on the web page (rule sets x games)")
    from jantaku.lab.analysis import analyze

    # in the server's worker thread, never a pool of processes: the heavy-work limits count one CPU per analysis
    report = analyze(args["rules"], args["games"], args["seed"], args["bots"], args["sweep"], workers=1)
    rid = secrets.token_hex(8)
    images: list[bytes] = []

    def src(i: int, png: bytes) -> str:
        images.append(png)
        return f"/analyse/report/{rid}/{i}.png"

    page = render(report, src, stylesheet="/static/analyse.css")
    return report.to_json(), rid, page, images


def keep(rid: str, page: str, images: list[bytes]) -> None:
    """A drawn report kept in the server's memory (the last :data:`~jantaku.web.limits.ANALYSE_KEPT`)."""
    with _reports_lock:
        _reports[rid] = (page, images)
        while len(_reports) > ANALYSE_KEPT:
            _reports.popitem(last=False)


async def analyse_page(request: Request) -> Response:
    return FileResponse(_PAGE, media_type="text/html")


_PAGE = Path(str(resources.files("jantaku.web") / "static" / "analyse.html"))


async def analyse(request: Request) -> Response:
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        raise BadRequest("the body must be sent as Content-Type: application/json")
    raw = await read_body(request, MAX_JSON_BYTES, "the body")
    args = _check(parse_json(raw or b"null", "the body"))
    if not lab_available():
        raise NotAvailable(f"the server cannot draw reports: install the lab extra ({INSTALL_LAB})")
    client = request.client.host if request.client else None
    out, rid, page, images = await request.app.state.heavy.run("analyse", client, "analyse", args)
    keep(rid, page, images)
    report = f"/analyse/report/{rid}"
    return JSONResponse({**out, "report": report, "pictures": len(images), "limits": _limits()})


def _limits() -> dict[str, int]:
    return {"games": ANALYSE_MAX_GAMES, "total_games": ANALYSE_MAX_TOTAL_GAMES, "rule_sets": ANALYSE_MAX_RULE_SETS}


INSTALL_LAB = "pip install 'jantaku[lab]'"
"""What installs what the page needs (matplotlib, through the ``lab`` extra)."""


def lab_available() -> bool:
    """Whether the server can draw reports (the ``lab`` extra's matplotlib is installed)."""
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


async def limits(request: Request) -> Response:
    """The page's caps, bots and presets, and whether the server can run an analysis at all (``available``; when
    not, ``install`` says what to install): the page says so before any click."""
    out = {**_limits(), "bots": list(WEB_BOTS), "presets": preset_names(), "available": lab_available()}
    if not out["available"]:
        out["install"] = INSTALL_LAB
    return JSONResponse(out)


def _get(rid: str) -> tuple[str, list[bytes]]:
    with _reports_lock:
        found = _reports.get(rid)
    if found is None:
        raise NotFound("no such report (the server keeps the last few only)")
    return found


async def report_page(request: Request) -> Response:
    page, _ = _get(request.path_params["id"])
    return Response(page, media_type="text/html; charset=utf-8")


async def report_image(request: Request) -> Response:
    _, images = _get(request.path_params["id"])
    n = request.path_params["n"]
    if not (n.isascii() and n.isdigit() and len(n) <= 3) or int(n) >= len(images):  # "²" is a digit, not a number
        raise NotFound("no such picture")
    return Response(images[int(n)], media_type="image/png")


def routes() -> list[BaseRoute]:
    """The Analyse page's routes (added to the application by :func:`jantaku.web.app.create_app`)."""
    return [
        Route("/analyse", analyse_page),
        Route("/api/analyse", analyse, methods=["POST"]),
        Route("/api/analyse/limits", limits),
        Route("/analyse/report/{id}", report_page),
        Route("/analyse/report/{id}/{n}.png", report_image),
    ]
