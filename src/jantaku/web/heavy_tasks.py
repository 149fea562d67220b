"""The jobs a heavy-work process runs (:mod:`jantaku.web.heavy`), and the process's loop.

Each job takes and returns plain data (bytes, strings, numbers, JSON-like dicts): it crosses a pipe. A job
refuses bad input with a :class:`~jantaku.web.tables.WebError` (or a :class:`~jantaku.errors.JantakuError`,
answered 400), which the server answers as if it had raised it itself.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import resource
import select
import sys
import time
from collections.abc import Callable
from typing import Any, BinaryIO

from jantaku.errors import JantakuError

# imported here, not in the jobs: a worker imports them as it starts, before it says it is ready
from . import analyse as _analyse
from . import review as _review
from . import uploads as _uploads
from .heavy import IDLE_SECONDS, receive, send
from .limits import MAX_RECORD_EVENTS, TooLarge, events_at_least, inflate
from .tables import BadRequest, WebError, play_bots_only

__all__ = ["TASKS", "work"]

log = logging.getLogger("jantaku.web")

NICE = 10
"""How far below the server's scheduling priority a worker runs (``nice``): on a machine short of processors,
the tables' moves are served before the heavy work goes on."""


def _records(raw: bytes, name: str) -> list[Any]:
    data = inflate(raw, name)
    name = name.removesuffix(".gz")
    least = events_at_least(data)  # counted before reading: a large upload costs no parsing
    if least > MAX_RECORD_EVENTS:
        raise TooLarge(
            f"{name} holds {least} events or more (at most {MAX_RECORD_EVENTS} in one upload, about 30 hanchan): "
            "send fewer games at a time"
        )
    records = _uploads.upload_records(data, name)
    events = sum(len(r.events) for r in records)
    if events > MAX_RECORD_EVENTS:
        raise TooLarge(
            f"{name} holds {events} events (at most {MAX_RECORD_EVENTS} in one upload, about 30 hanchan): "
            "send fewer games at a time"
        )
    return records


def replay_read(raw: bytes, name: str) -> list[dict[str, Any]]:
    """``POST /api/replay``: the games of an upload as the viewer reads them."""
    return _uploads.read_upload_records(_records(raw, name))


def replay_export(raw: bytes, name: str, fmt: str, index: int) -> tuple[str, str]:
    """``POST /api/replay/export``: game ``index`` of an upload written as ``fmt``; the text and its file name."""
    return _uploads.export_records(_records(raw, name), name.removesuffix(".gz"), fmt, index)


def review_upload(
    raw: bytes, name: str, index: int, bot: str, player: str | None, seconds: float, decisions: int
) -> dict[str, Any]:
    """``POST /api/review``: game ``index`` of an upload reviewed (within ``seconds`` and ``decisions``)."""
    deadline = time.process_time() + seconds  # of this worker's processor time
    records = _records(raw, name)
    if index >= len(records):
        raise BadRequest(f"game={index}: the file holds {len(records)} game(s), numbered from 0")
    out = _review.review_game(records[index], bot, player, deadline, seconds, decisions)
    return {**out, "game": index, "games": len(records)}


def review_stored(
    events: list[dict[str, Any]], source: str, bot: str, player: str | None, seconds: float, decisions: int
) -> Any:
    """``GET /api/games/{id}/review``: a stored game's events reviewed (within ``seconds`` and ``decisions``)."""
    from jantaku.records.mjai import read_mjai

    deadline = time.process_time() + seconds  # of this worker's processor time
    record = read_mjai(events)
    record.source = source
    return {**_review.review_game(record, bot, player, deadline, seconds, decisions), "game": 0, "games": 1}


def analyse(args: dict[str, Any]) -> tuple[dict[str, Any], str, list[bytes]]:
    """``POST /api/analyse``: the games played and the report drawn; its JSON, HTML page and pictures."""
    return _analyse.play_and_draw(args)


def league_record(raw: bytes, file: str) -> tuple[bytes, list[list[str]]]:
    """The league's import: the upload inflated and read through once (so a record that is too large, too slow
    or unreadable is refused here); the inflated bytes and each game's player names."""
    data = inflate(raw, file)
    names = _uploads.in_temp(data, file, _uploads.league_record_names)
    return data, names


def bot_game(stored: Any) -> Any:
    """``POST /api/tables`` with four bots: the whole game played (:func:`~jantaku.web.tables.play_bots_only`)."""
    return play_bots_only(stored)


TASKS: dict[str, Callable[..., Any]] = {
    "bot_game": bot_game,
    "replay_read": replay_read,
    "replay_export": replay_export,
    "review_upload": review_upload,
    "review_stored": review_stored,
    "analyse": analyse,
    "league_record": league_record,
}
"""The jobs by name."""


def _rss_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize() / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def _collect() -> None:
    """Free what the last job left in reference cycles, then set what lives on (modules, caches, a compiled 洁律
    check) apart from later collections (``gc.freeze``): a full collection after each job then looks only at
    what that job made. Without it, each collection walked every object of the imports and earlier jobs again
    (130,000 once the 洁律 check is loaded: 0.07 s of processor time after every job, 3 µs frozen)."""
    gc.collect()
    gc.freeze()


def work(memory_mb: int, jobs: BinaryIO, replies: BinaryIO, idle_seconds: float = IDLE_SECONDS) -> None:
    """The worker's loop: ``("ready", None, rss_mb)`` once started, then a job ``(task, args)`` from ``jobs``, its
    reply to ``replies`` (``("ok", result, rss_mb)`` or ``("error", (status, message, kind), rss_mb)``), until
    ``jobs`` closes. The process's address
    space is capped at ``memory_mb``, and it runs :data:`NICE` steps below the server's priority. A worker left
    without a job for ``idle_seconds`` ends."""
    cap = memory_mb * 2**20
    with contextlib.suppress(OSError):
        os.nice(NICE)  # background work: the server's own process comes first for the processor
    try:
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or hard > cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard if hard != resource.RLIM_INFINITY else cap))
    except (ValueError, OSError):  # pragma: no cover - a platform without the limit
        pass
    _collect()  # what the imports made lives as long as the process: out of every later collection's way
    try:  # started (imports done): the pool counts a job's processor time from here, not the start-up's
        send(replies, ("ready", None, _rss_mb()))
    except (EOFError, OSError):
        return
    while True:
        try:
            waiting, _, _ = select.select([jobs], [], [], idle_seconds)
            if not waiting:
                return  # idle for long: the memory goes back to the machine (the server starts a fresh worker)
            task, args = receive(jobs)
        except (EOFError, OSError, ValueError):
            return
        try:
            reply: tuple[str, Any] = ("ok", TASKS[task](*args))
        except WebError as e:
            reply = ("error", (e.status, e.message, type(e).__name__))
        except MemoryError:
            reply = ("error", (413, "the work needed more memory than the server allows", "TooLarge"))
        except JantakuError as e:
            reply = ("error", (400, str(e)[:500], "BadRequest"))
        except Exception as e:  # a bug: logged here, the client told without the details
            log.exception("heavy job %s failed", task)
            reply = ("error", (500, f"server error ({type(e).__name__}) in the {task} job", "ServerError"))
        del args
        try:
            send(replies, (*reply, _rss_mb()))
        except MemoryError:
            send(replies, ("error", (413, "the answer needed more memory than the server allows", "TooLarge"), 0.0))
        except (EOFError, OSError):
            return
        del reply
        _collect()


if __name__ == "__main__":
    # the pipes are the job stream; anything a job prints goes to the server's log, not into a reply
    _jobs, _replies = sys.stdin.buffer, os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    logging.basicConfig(level=logging.WARNING, format="jantaku heavy worker: %(message)s")
    work(int(sys.argv[1]), _jobs, _replies, float(sys.argv[2]) if len(sys.argv) > 2 else IDLE_SECONDS)
