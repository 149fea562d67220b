"""The web table's game review: a record replayed and a bot asked at each decision (:mod:`jantaku.bots.review`).

The page ``/review`` steps through the decisions; its data come from ``GET /api/games/{id}/review`` (a stored
game) or ``POST /api/review`` (a log file as the body, as ``POST /api/replay`` takes it). Reviewing a whole
hanchan with the ``strong`` bot costs a few seconds of CPU, so a review

- runs in a worker thread (never on the server's event loop), at most :data:`REVIEW_SLOTS` at a time: one more
  is refused at once (503, try again) rather than queued behind them;
- stops after :data:`REVIEW_SECONDS` seconds (503) or :data:`REVIEW_DECISIONS` decisions (413), whichever
  comes first, and an upload is held to the upload limits of :mod:`jantaku.web.limits`;
- of a stored game, or of an uploaded file (by its contents), is kept in a small cache (:data:`REVIEW_CACHE`
  reviews): a record never changes and the bots are seeded, so the same review gives the same answer.

>>> from jantaku.records.load import read_records
>>> from pathlib import Path
>>> rec = read_records(sorted(Path("tests/data/records/tenhou6").glob("*.json"))[0])[0]
>>> out = review_json(rec, "efficiency")
>>> sorted(out)[:6], out["decisions"][0]["board"]["seat"] == out["decisions"][0]["actor"]
(['bot', 'decisions', 'names', 'rules', 'skipped', 'source'], True)
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from jantaku.bots.review import ReviewLimitError, review_record
from jantaku.errors import JantakuError
from jantaku.records.record import GameRecord

from .tables import BadRequest, Unavailable, WebError

__all__ = [
    "REVIEW_BOTS",
    "REVIEW_CACHE",
    "REVIEW_DECISIONS",
    "REVIEW_SECONDS",
    "REVIEW_SLOTS",
    "ReviewService",
    "review_json",
]

REVIEW_BOTS = ("strong", "efficiency", "random")
"""The bots a review may ask (``strong`` by default)."""

REVIEW_SECONDS = 30.0
"""The most wall-clock seconds one review may take (a hanchan with the strong bot takes about 2-5 s)."""

REVIEW_DECISIONS = 4000
"""The most decisions one review may ask about (a hanchan has about 600-900; a long one with the West round
about 1,200)."""

REVIEW_SLOTS = 2
"""Reviews running at once; one more is refused (503) until a slot is free."""

REVIEW_CACHE = 8
"""Reviews kept in memory (about 1 MB each for a hanchan)."""

RANKING_SHOWN = 5
"""The bot's best choices kept per decision (the player's own choice is kept too when it is further down)."""


class TooManyDecisions(WebError):
    """A game with more decisions than a review may ask about (413)."""

    status = 413


def _players(text: str | None) -> tuple[int, ...]:
    if text is None or text.strip().lower() == "all":
        return (0, 1, 2, 3)
    if text.strip() in ("0", "1", "2", "3"):
        return (int(text.strip()),)
    raise BadRequest(f"player must be a seat 0-3 or 'all', not {text[:20]!r}")


def check_bot(bot: str | None) -> str:
    """The bot named by a request (``strong`` if none); :class:`BadRequest` for another name."""
    if bot is None:
        return "strong"
    if bot not in REVIEW_BOTS:
        raise BadRequest(f"bot must be one of {', '.join(REVIEW_BOTS)}, not {bot[:40]!r}")
    return bot


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(a.get(k) == b.get(k) for k in ("type", "pai", "consumed"))


def review_json(
    record: GameRecord,
    bot: str = "strong",
    players: tuple[int, ...] = (0, 1, 2, 3),
    rules: str | None = None,
    deadline: float | None = None,
    seed: str | None = None,
) -> dict[str, Any]:
    """The review of ``record`` as the page reads it: ``source``, ``rules``, ``bot``, ``names`` (the four
    players), ``skipped`` (hands the engine could not follow) and ``decisions``, each one
    :meth:`~jantaku.bots.review.ReviewItem.to_json` without ``source``, its ranking cut to the bot's best
    :data:`RANKING_SHOWN` (and the player's choice), with ``board`` (:func:`jantaku.bots.review.board`).
    ``deadline``: a :func:`time.monotonic` time past which the review stops (:class:`Unavailable`); ``seed``: the
    bots' (``None``: the record's own, see :func:`~jantaku.bots.review.review_record`)."""
    try:
        report = review_record(
            record,
            players=players,
            bot=bot,
            rules=rules,
            seed=seed,
            boards=True,
            deadline=deadline,
            max_decisions=REVIEW_DECISIONS,
        )
    except ReviewLimitError as e:
        if e.reason == "time":
            raise Unavailable(
                f"{record.source}: the review took too long and was stopped (the server is busy: try again later, "
                "or review with the efficiency bot)"
            ) from None
        raise TooManyDecisions(
            f"{record.source}: the game has more than {REVIEW_DECISIONS} decisions to review (review it with "
            "`jantaku review` instead)"
        ) from None
    start = next((e for e in record.events if e.get("type") == "start_game"), {})
    names = [str(n)[:40] for n in start.get("names", [])][:4]
    names += [""] * (4 - len(names))
    decisions = []
    for it in report.items:
        d = it.to_json()
        del d["source"]
        ranked = d["ranking"]
        shown = ranked[:RANKING_SHOWN]
        if not any(_same(r["action"], it.actual) for r in shown):
            shown += [r for r in ranked[RANKING_SHOWN:] if _same(r["action"], it.actual)][:1]
        d["ranking"] = shown
        d["choices"] = len(ranked)
        d["board"] = it.board
        decisions.append(d)
    return {
        "source": record.source,
        "rules": rules or record.rule_name,
        "bot": bot,
        "names": names,
        "skipped": report.skipped,
        "decisions": decisions,
    }


class ReviewService:
    """Runs reviews within the limits above: a slot, a deadline, and the cache of stored games' reviews."""

    def __init__(self, slots: int = REVIEW_SLOTS, seconds: float = REVIEW_SECONDS, cache: int = REVIEW_CACHE) -> None:
        self.slots = threading.BoundedSemaphore(slots)
        self.seconds = seconds
        self.cache_size = cache
        self._cache: OrderedDict[tuple[str, str, tuple[int, ...]], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def run(
        self,
        records: Callable[[], list[GameRecord]],
        index: int,
        bot: str | None,
        player: str | None,
        rules: str | None = None,
        cache_key: str | None = None,
    ) -> dict[str, Any]:
        """Review game ``index`` of ``records()`` (called in the slot: reading a record costs too). Meant to run
        in a worker thread; raises :class:`Unavailable` when every slot is taken."""
        bot = check_bot(bot)
        players = _players(player)
        key = (cache_key, bot, players) if cache_key is not None else None
        if key is not None:
            with self._lock:
                if key in self._cache:
                    self._cache.move_to_end(key)
                    return self._cache[key]
        if not self.slots.acquire(blocking=False):
            raise Unavailable("the server is reviewing other games: try again in a few seconds")
        try:
            deadline = time.monotonic() + self.seconds
            found = records()
            if index >= len(found):
                raise BadRequest(f"game={index}: the file holds {len(found)} game(s), numbered from 0")
            record = found[index]
            if not record.hands():
                raise BadRequest(f"{record.source}: holds no complete hand to review")
            try:
                out = review_json(record, bot, players, rules, deadline)
            except Unavailable as e:
                raise Unavailable(f"{e.message}; the limit is {self.seconds:g} s") from None
            except JantakuError as e:
                raise BadRequest(f"{record.source}: cannot be reviewed ({str(e)[:200]})") from None
            out["game"] = index
            out["games"] = len(found)
        finally:
            self.slots.release()
        if key is not None:
            with self._lock:
                self._cache[key] = out
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return out
