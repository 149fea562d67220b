"""The web table's game review: a record replayed and a bot asked at each decision (:mod:`jantaku.bots.review`).

The page ``/review`` steps through the decisions; its data come from ``GET /api/games/{id}/review`` (a stored
game) or ``POST /api/review`` (a log file as the body, as ``POST /api/replay`` takes it). Reviewing a whole
hanchan with the ``strong`` bot costs a few seconds of CPU, so a review

- is heavy work (:mod:`jantaku.web.heavy`): it runs in a worker process, within the server's limits on heavy
  requests (how many at once, from one address, how long one may wait);
- stops after :data:`REVIEW_SECONDS` seconds (503), and a game with more than :data:`REVIEW_DECISIONS`
  decisions is refused (413) before any is reviewed; an upload is held to the upload limits of
  :mod:`jantaku.web.limits`;
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

from .heavy import HeavyPool
from .tables import BadRequest, Unavailable, WebError

__all__ = [
    "REVIEW_BOTS",
    "REVIEW_CACHE",
    "REVIEW_DECISIONS",
    "REVIEW_SECONDS",
    "ReviewService",
    "decisions_at_least",
    "review_game",
    "review_json",
]

REVIEW_BOTS = ("strong", "efficiency", "random")
"""The bots a review may ask (``strong`` by default)."""

REVIEW_SECONDS = 30.0
"""The most wall-clock seconds one review may take (a hanchan with the strong bot takes about 2-5 s)."""

REVIEW_DECISIONS = 4000
"""The most decisions one review may ask about (a hanchan has about 600-900; a long one with the West round
about 1,200)."""

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
    max_decisions: int = REVIEW_DECISIONS,
    clock: Callable[[], float] = time.monotonic,
) -> dict[str, Any]:
    """The review of ``record`` as the page reads it: ``source``, ``rules``, ``bot``, ``names`` (the four
    players), ``skipped`` (hands the engine could not follow) and ``decisions``, each one
    :meth:`~jantaku.bots.review.ReviewItem.to_json` without ``source``, its ranking cut to the bot's best
    :data:`RANKING_SHOWN` (and the player's choice), with ``board`` (:func:`jantaku.bots.review.board`).
    ``deadline``: a time of ``clock`` (:func:`time.monotonic`, or :func:`time.process_time` in a worker) past
    which the review stops (:class:`Unavailable`); ``seed``: the bots' (``None``: the record's own, see
    :func:`~jantaku.bots.review.review_record`)."""
    try:
        report = review_record(
            record,
            players=players,
            bot=bot,
            rules=rules,
            seed=seed,
            boards=True,
            deadline=deadline,
            max_decisions=max_decisions,
            clock=clock,
        )
    except ReviewLimitError as e:
        if e.reason == "time":
            raise Unavailable(
                f"{record.source}: the review took too long and was stopped (the server is busy: try again later, "
                "or review with the efficiency bot)"
            ) from None
        raise TooManyDecisions(
            f"{record.source}: the game has more than {max_decisions} decisions to review (review it with "
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


def review_game(
    record: GameRecord,
    bot: str,
    player: str | None,
    deadline: float,
    seconds: float,
    decisions: int = REVIEW_DECISIONS,
    clock: Callable[[], float] = time.process_time,
) -> dict[str, Any]:
    """:func:`review_json` of ``record`` for the web (in a heavy-work process, :mod:`jantaku.web.heavy_tasks`,
    whose ``deadline`` is of its processor time: a busy machine slows a review without cutting it short):
    ``player`` as the request names it, a game with more than ``decisions`` decisions to review refused before
    any is reviewed (:func:`decisions_at_least`), and every refusal a :class:`WebError`."""
    players = _players(player)
    if not record.hands():
        raise BadRequest(f"{record.source}: holds no complete hand to review")
    least = decisions_at_least(record, players)
    if least > decisions:
        raise TooManyDecisions(
            f"{record.source}: the game has at least {least} decisions to review, more than {decisions} "
            "(review it with `jantaku review` instead)"
        )
    try:
        return review_json(record, bot, players, None, deadline, max_decisions=decisions, clock=clock)
    except Unavailable as e:
        raise Unavailable(f"{e.message}; the limit is {seconds:g} s") from None
    except JantakuError as e:
        raise BadRequest(f"{record.source}: cannot be reviewed ({str(e)[:200]})") from None


def decisions_at_least(record: GameRecord, players: tuple[int, ...]) -> int:
    """A lower bound of the decisions a review of ``players`` in ``record`` asks about, counted without
    replaying: their discards after a draw (each one a choice among the hand's tiles), in the complete hands.

    >>> from jantaku.records.load import read_records
    >>> from pathlib import Path
    >>> rec = read_records(sorted(Path("tests/data/records/tenhou6").glob("*.json"))[0])[0]
    >>> 0 < decisions_at_least(rec, (0,)) < decisions_at_least(rec, (0, 1, 2, 3))
    True
    """
    count = 0
    for hand in record.hands():
        drew, riichi = False, set()  # a seat in riichi discards what it draws: no choice
        for e in hand:
            kind = e.get("type")
            if kind == "tsumo":
                drew = e.get("actor") in players and e.get("actor") not in riichi
            elif kind == "dahai":
                count += drew
                drew = False
            elif kind == "reach_accepted":
                riichi.add(e.get("actor"))
            elif kind != "reach":
                drew = False
    return count


class ReviewService:
    """The reviews' cache (stored games' and uploads' reviews, by content): the reviewing itself is heavy work
    (:class:`~jantaku.web.heavy.HeavyPool`), limited and timed there."""

    def __init__(
        self, seconds: float = REVIEW_SECONDS, cache: int = REVIEW_CACHE, decisions: int = REVIEW_DECISIONS
    ) -> None:
        self.seconds = seconds
        self.decisions = decisions
        self.cache_size = cache
        self._cache: OrderedDict[tuple[str, str, tuple[int, ...]], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    async def run(
        self, pool: HeavyPool, address: str | None, key: str, bot: str, player: str | None, task: str, *args: Any
    ) -> dict[str, Any]:
        """The review the heavy job ``task`` (``review_upload`` or ``review_stored``) makes of ``args``, or the
        cached one of ``key`` (the same game, bot and players)."""
        players = _players(player)
        cached = (key, bot, players)
        with self._lock:
            if cached in self._cache:
                self._cache.move_to_end(cached)
                return self._cache[cached]
        out = await pool.run("review", address, task, *args, bot, player, self.seconds, self.decisions)
        with self._lock:
            self._cache[cached] = out
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return out
