"""mjai event logs: JSON lines in and out, and what one seat may see of them.

A game record in mjai form is one JSON event per line (the schema is in :mod:`jantaku.records.record`).
jantaku writes its games that way (``jantaku simulate --out``) with a few extensions: ``start_game`` carries
``rules`` (the rule set's name), ``rule_changes`` (where the game's rules differ from that preset, e.g.
``{"rounds": 1}`` for an East-only table: :func:`jantaku.rules.rule_changes`), ``seed`` and ``seating``;
``start_kyoku`` carries ``dice``; ``hora`` carries the score; ``ryukyoku`` its ``reason``, ``tenpais`` and
``scores``; ``end_game`` ``ranks``, ``final`` and ``deposits``. A ``ryukyoku``'s ``tenpais`` are the hands
*shown* (declared) tenpai, which the payments follow; where the rule set lets a tenpai player stay silent
(``tenpai_silence``) and one did, ``silent`` lists those seats (a private key: dropped from a player's view).
The reader accepts logs without any of them (a plain ``{"type": "start_game"}`` is fine).

:func:`player_view_events` is what an mjai bot at one seat is shown (the mjai.app convention): other
players' draws and dealt hands become ``"?"``, everything public stays, and the extensions that would
reveal hidden tiles (the game's ``seed``, from which every wall follows) are dropped.

>>> events = [
...     {"type": "start_game", "names": ["a", "b", "c", "d"], "seed": "7", "rules": "tenhou"},
...     {"type": "tsumo", "actor": 0, "pai": "5mr"},
...     {"type": "dahai", "actor": 0, "pai": "5mr", "tsumogiri": True},
... ]
>>> [e.get("pai") for e in player_view_events(events, 1)]
[None, '?', '5mr']
>>> player_view_events(events, 1)[0]
{'type': 'start_game', 'names': ['a', 'b', 'c', 'd'], 'rules': 'tenhou', 'id': 1}
>>> rec = read_mjai([json.dumps(e) for e in events])
>>> rec.rule_name, len(rec.events)
('tenhou', 3)
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from jantaku import safejson
from jantaku.errors import JantakuError, excerpt
from jantaku.table.seatview import PRIVATE_KEYS, as_seen_by

from .errors import RecordError, read_text_file
from .record import MAX_EVENTS, GameRecord, event_problem, start_dead_wall

__all__ = ["PRIVATE_KEYS", "player_view_event", "player_view_events", "read_mjai", "write_mjai"]


# ---------------------------------------------------------------------------------------------------------
# one seat's view


def player_view_event(event: dict[str, Any], seat: int) -> dict[str, Any]:
    """One event as ``seat`` sees it (a new dict; the input is not changed): the table's
    :func:`~jantaku.table.seatview.as_seen_by`.

    ``start_game`` gains ``id`` (the viewer's seat, as mjai.app sends it) and loses the seed; ``start_kyoku`` shows
    only the viewer's own ``tehais`` (the others are 13 ``"?"`` each); another player's ``tsumo`` shows ``"?"``;
    an exhaustive draw does not say who stayed silent (:data:`PRIVATE_KEYS`).

    >>> player_view_event({"type": "tsumo", "actor": 2, "pai": "E"}, 0)
    {'type': 'tsumo', 'actor': 2, 'pai': '?'}
    >>> player_view_event({"type": "tsumo", "actor": 2, "pai": "E"}, 2)
    {'type': 'tsumo', 'actor': 2, 'pai': 'E'}
    """
    seen = as_seen_by(event, seat)
    return dict(seen) if seen is event else seen


def player_view_events(events: Iterable[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The events as ``seat`` (0-3) sees them: see :func:`player_view_event`."""
    if not isinstance(seat, int) or not 0 <= seat <= 3:
        raise RecordError(f"seat must be 0-3, got {seat!r}")
    return [player_view_event(e, seat) for e in events]


# ---------------------------------------------------------------------------------------------------------
# reading


def _lines(source: str | Path | Iterable[str] | Iterable[dict[str, Any]] | TextIO) -> tuple[list[Any], str]:
    """Numbered non-empty lines (or already parsed events) of ``source`` and a name for messages."""
    looks_like_json = isinstance(source, str) and ("\n" in source or source.lstrip().startswith(("{", "[")))
    if isinstance(source, Path) or (isinstance(source, str) and not looks_like_json):
        path = Path(source)
        text = read_text_file(path)
        return [(n, ln) for n, ln in enumerate(text.splitlines(), 1) if ln.strip()], str(path)
    if isinstance(source, str):
        return [(n, ln) for n, ln in enumerate(source.splitlines(), 1) if ln.strip()], "<text>"
    if isinstance(source, io.TextIOBase):
        name = str(getattr(source, "name", "<stream>"))
        return [(n, ln) for n, ln in enumerate(source, 1) if ln.strip()], name
    try:
        items = list(source)
    except TypeError:
        raise RecordError(
            f"an mjai log is a path, JSON-lines text, or a list of lines or events, not {type(source).__name__}"
        ) from None
    return [(n, x) for n, x in enumerate(items, 1) if not (isinstance(x, str) and not x.strip())], "<lines>"


def read_mjai(
    source: str | Path | Iterable[str] | Iterable[dict[str, Any]] | TextIO,
    name: str | None = None,
    strict: bool = False,
) -> GameRecord:
    """Read an mjai log: a file path, JSON-lines text, an open text file, or a list of lines or event dicts.

    Each line is one event object (a line holding a JSON array of events, as mjai.app batches them, is read
    as those events in order). The record's rule hints come from ``start_game``'s ``rules`` when jantaku
    wrote it (the preset's red fives, open tanyao and length); otherwise red fives are assumed if any red
    five appears, East+South unless every hand is an East hand, and the rule name is ``tenhou``. jantaku's
    ``end_game`` ``final`` (rank points) becomes :attr:`GameRecord.final`. ``name`` names the source in
    messages (default: the path). Raises
    :class:`~jantaku.records.errors.RecordError` naming the line for malformed input: not JSON, or an event
    without a field the replay reads or with a value of the wrong type or range
    (:func:`~jantaku.records.record.event_problem`). Unless ``strict``, fields a log may leave out and a
    player's view with its hidden tiles ``?`` are fine; ``strict`` (as :func:`~jantaku.records.load.read_records`
    reads) asks for everything a replay reads, as :meth:`GameRecord.check` does, and names the line. A
    ``start_game`` without ``names`` gets four empty ones.

    >>> rec = read_mjai('{"type":"start_game"}\\n{"type":"end_game","scores":[25000,25000,25000,25000]}')
    >>> [e["type"] for e in rec.events], rec.source
    (['start_game', 'end_game'], '<text>')
    """
    lines, found_name = _lines(source)
    name = name or found_name
    events: list[dict[str, Any]] = []
    dead_wall = True  # until start_game names a rule set without one
    for n, line in lines:
        if isinstance(line, dict):
            obj: Any = line
        elif isinstance(line, str):
            try:
                obj = safejson.loads(line)
            except JantakuError as e:
                raise RecordError(f"{name}: line {n} is not valid JSON ({str(e).removeprefix('not JSON: ')})") from None
        else:
            raise RecordError(f"{name}: item {n} is a {type(line).__name__}, not a line of text or an event")
        batch = obj if isinstance(obj, list) else [obj]
        for e in batch:
            if not isinstance(e, dict) or not isinstance(e.get("type"), str):
                raise RecordError(f"{name}: line {n}: an mjai event is a JSON object with a 'type', got {excerpt(e)}")
            if e["type"] == "start_game" and "names" not in e:
                e = {**e, "names": ["", "", "", ""]}
            problem = None
            if e["type"] == "start_game":
                problem = _rules_problem(e.get("rules"))
                if problem is None and isinstance(e.get("rules"), str):
                    dead_wall = start_dead_wall(e)
            problem = problem or event_problem(e, strict=strict, dead_wall=dead_wall)
            if problem is not None:
                raise RecordError(f"{name}: line {n}: {problem}")
            events.append(e)
            if len(events) > MAX_EVENTS:
                raise RecordError(f"{name}: line {n}: more than {MAX_EVENTS} events, more than a record holds")
    rec = GameRecord(source=name, events=events)
    _rule_hints(rec)
    end = next((e for e in reversed(events) if e["type"] == "end_game"), None)
    final = end.get("final") if end else None
    if (
        isinstance(final, list)
        and len(final) == 4
        and all(isinstance(x, int | float) and not isinstance(x, bool) and abs(x) < 1e9 for x in final)
    ):
        rec.final = [float(x) for x in final]
    return rec


def _rules_problem(rules_name: Any) -> str | None:
    """Why a ``start_game``'s ``rules`` is not a rule set's name (a record does not make jantaku read a file)."""
    if rules_name is None:
        return None
    if (
        not isinstance(rules_name, str)
        or rules_name.endswith(".toml")
        or "/" in rules_name
        or "\\" in rules_name
        or len(rules_name) > 100
    ):
        return f"start_game: rules must name a rule set, got {excerpt(rules_name)}"
    return None


def _rule_hints(rec: GameRecord) -> None:
    start = next((e for e in rec.events if e["type"] == "start_game"), None)
    rules_name = start.get("rules") if start else None
    starts = [e for e in rec.events if e["type"] == "start_kyoku"]
    if isinstance(rules_name, str) and rules_name:
        rec.rule_name = rules_name
        try:
            from jantaku.rules import load_rules, rules_with_changes

            changes = start.get("rule_changes") if start else None
            rs = rules_with_changes(rules_name, changes) if changes else load_rules(rules_name)
        except JantakuError:  # a rule set this installation does not know: guess from the tiles
            rs = None
            rec.problems.append(f"{rec.source}: rule set {excerpt(rules_name)} is unknown here; rule hints guessed")
        if rs is not None:
            rec.red_fives = any(rs.red_fives)
            rec.open_tanyao = rs.open_tanyao
            rec.hanchan = rs.rounds >= 2
            return
    rec.red_fives = any(_has_red(e) for e in rec.events)
    rec.hanchan = not starts or any(e.get("bakaze") != "E" for e in starts)


def _has_red(event: dict[str, Any]) -> bool:
    for v in event.values():
        if isinstance(v, str) and len(v) == 3 and v[0] == "5" and v[2] == "r":
            return True
        if isinstance(v, list) and any(_has_red({"x": x}) for x in v):
            return True
    return False


# ---------------------------------------------------------------------------------------------------------
# writing


def write_mjai(record: GameRecord | Iterable[dict[str, Any]], path: str | Path | TextIO) -> int:
    """Write a record (or a list of events) as JSON lines to ``path`` (a file name or an open text file).

    Returns the number of events written. Non-ASCII text (player names) is written as is, UTF-8.

    >>> buf = io.StringIO()
    >>> write_mjai([{"type": "start_game", "names": ["東", "b", "c", "d"]}], buf)
    1
    >>> buf.getvalue()
    '{"type": "start_game", "names": ["東", "b", "c", "d"]}\\n'
    """
    events = record.events if isinstance(record, GameRecord) else list(record)
    text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)
    if isinstance(path, str | Path):
        try:
            Path(path).write_text(text, encoding="utf-8")
        except OSError as e:
            raise RecordError(f"cannot write {path}: {e.strerror or e}") from None
    else:
        path.write(text)
    return len(events)
