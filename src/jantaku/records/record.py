"""jantaku's own game record: an mjai event list plus what a replay needs to know about the rules.

Every reader (Tenhou mjlog XML, tenhou.net/6 JSON, mjai JSON lines) produces :class:`GameRecord` objects, the
replay drives the table engine from their events, and every writer starts from them. The events are mjai
events (https://mjai.app conventions; tiles ``1m``..``9s``, ``E S W N P F C``, red fives ``5mr 5pr 5sr``):

==================  ================================================================================
event               fields
==================  ================================================================================
``start_game``      ``names`` (4); jantaku adds ``rules`` and ``seed`` when it wrote the record
``start_kyoku``     ``bakaze`` (E/S/W/N), ``kyoku`` (1-4), ``honba``, ``kyotaku`` (riichi sticks on the
                    table), ``oya`` (dealer seat), ``dora_marker``, ``scores`` (4), ``tehais`` (4 x 13)
``tsumo``           ``actor``, ``pai``
``dahai``           ``actor``, ``pai``, ``tsumogiri``
``reach``           ``actor`` (the declaration; the discard follows as ``dahai``)
``reach_accepted``  ``actor``, optional ``deltas`` and ``scores``
``chi`` ``pon``     ``actor``, ``target`` (seat discarding), ``pai`` (the called tile), ``consumed`` (from hand)
``daiminkan``       as ``pon``, three consumed
``ankan``           ``actor``, ``consumed`` (4)
``kakan``           ``actor``, ``pai`` (the added tile), ``consumed`` (the pon's 3)
``dora``            ``dora_marker`` (a new kan dora indicator)
``hora``            ``actor``, ``target`` (= actor for tsumo), ``pai``, ``deltas`` (4), ``ura_markers``;
                    jantaku and the Tenhou readers add ``han``, ``fu``, ``points``, ``yakuman``, ``yaku``
                    (``[name, han]``), ``pao`` (seat or null), ``scores`` (after the win)
``ryukyoku``        ``deltas`` (4); jantaku adds ``reason`` (``exhaustive``, ``nagashi_mangan``,
                    ``nine_terminals``, ``four_winds``, ``four_riichi``, ``four_kans``, ``triple_ron``),
                    ``tenpais`` (4 booleans: the hands shown tenpai, which the payments follow) and
                    ``scores``; ``silent`` (seats tenpai that declared noten, where the rule set lets
                    them: ``tenpai_silence``) only when there are any
``end_kyoku``       -
``end_game``        ``scores`` (4, leftover riichi sticks included as the record has them); jantaku adds
                    ``ranks``, ``final``, ``deposits`` and ``penalties`` (4, rank points the referee
                    deducted) when there are any
``card``            jantaku's: the referee shows ``actor`` a ``card`` (``yellow`` or ``red``) for
                    ``reason``; ``pt`` the rank points it deducts (a red card; ``yellows``: the yellow
                    cards of the day that made it red)
``penalty``         jantaku's: the referee deducts ``pt`` rank points from ``actor`` for ``reason``
==================  ================================================================================

``card`` and ``penalty`` stand between two hands (or inside the hand during which the referee acted).

``deltas`` of a ``hora``/``ryukyoku`` are the hand's settlement: riichi sticks collected are included, the
1,000 points a riichi declaration posts are not (they are in ``reach_accepted``).

>>> rec = GameRecord(source="x", events=[{"type": "start_game", "names": ["a", "b", "c", "d"]}])
>>> rec.red_fives, rec.hands()
(True, [])

Every reader checks each event it produces with :func:`event_problem` (the fields above with their types and
ranges; events of other types are kept and ignored), so that nothing malformed reaches the table engine: a
record that fails is a :class:`~jantaku.records.errors.RecordError` naming the file and the line, event or hand.

>>> event_problem({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
...                "dora_marker": "1m", "scores": [25000, 25000, 25000], "tehais": []})
'start_kyoku: scores must be 4 whole numbers, got [25000, 25000, 25000]'
>>> event_problem({"type": "dahai", "pai": "5m", "tsumogiri": False})
"dahai: 'actor' is missing"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jantaku.errors import excerpt

from .errors import RecordError

__all__ = ["MAX_POINTS", "GameRecord", "check_events", "event_problem", "has_dead_wall", "rotate_seats"]

MAX_POINTS = 10_000_000
"""Scores and deltas in a record lie within -MAX_POINTS..MAX_POINTS (real ones are a few ten thousands)."""
MAX_COUNT = 1000
"""Honba, riichi sticks, han, fu and yakuman counts in a record lie within 0..MAX_COUNT."""
MAX_EVENTS = 1_000_000
"""Most events one record may hold (a whole game has a few thousand)."""

_TILES = frozenset(
    [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["E", "S", "W", "N", "P", "F", "C", "5mr", "5pr", "5sr"]
)
_REASONS = frozenset(
    ("exhaustive", "nagashi_mangan", "nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron")
)


_SEAT_FIELDS = ("actor", "target", "oya", "pao")
_SEAT_LISTS = ("scores", "deltas", "tehais", "tenpais", "names")


class _Bad(Exception):
    pass


_MISSING = object()


def _die(d: Any) -> bool:
    return isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6


class _Check:
    """The checks of one event; ``strict`` asks for every field a replay reads and no hidden tile (``?``)."""

    def __init__(self, event: dict[str, Any], strict: bool, dead_wall: bool = True) -> None:
        self.e = event
        self.strict = strict
        self.dead_wall = dead_wall

    def get(self, key: str, required: bool = True) -> Any:
        """The field's value; a missing (or null) one is an error when strict and required, else ``_MISSING``."""
        value = self.e.get(key)
        if value is None:
            if required and self.strict:
                raise _Bad(f"{key!r} is missing")
            return _MISSING
        return value

    def int(self, key: str, lo: int, hi: int, required: bool = True) -> None:
        value = self.get(key, required)
        if value is not _MISSING and (isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi):
            raise _Bad(f"{key} must be a whole number {lo}-{hi}, got {excerpt(value)}")

    def seat(self, key: str, required: bool = True) -> None:
        self.int(key, 0, 3, required)

    def tile_value(self, value: Any, what: str) -> None:
        if not isinstance(value, str) or not (value in _TILES or (value == "?" and not self.strict)):
            raise _Bad(f"{what} must be an mjai tile (1m..9s, E S W N P F C, 5mr/5pr/5sr), got {excerpt(value)}")

    def tile(self, key: str, required: bool = True) -> None:
        value = self.get(key, required)
        if value is not _MISSING:
            self.tile_value(value, key)

    def tile_list(self, value: Any, what: str, n: int | None = None, most: int = 14) -> None:
        ok = isinstance(value, list) and len(value) <= most
        if ok and n is not None and len(value) != n:
            ok = not self.strict and all(t == "?" for t in value)  # a player's view of another's hand
        if not ok:
            size = f"{n}" if n is not None else f"at most {most}"
            raise _Bad(f"{what} must be a list of {size} tiles, got {excerpt(value)}")
        for t in value:
            self.tile_value(t, what)

    def tiles(self, key: str, n: int | None = None, most: int = 14, required: bool = True) -> None:
        value = self.get(key, required)
        if value is not _MISSING:
            self.tile_list(value, key, n, most)

    def four_ints(self, key: str, required: bool = False) -> None:
        value = self.get(key, required)
        if value is _MISSING:
            return
        if not (
            isinstance(value, list)
            and len(value) == 4
            and all(isinstance(x, int) and not isinstance(x, bool) and -MAX_POINTS <= x <= MAX_POINTS for x in value)
        ):
            raise _Bad(f"{key} must be 4 whole numbers, got {excerpt(value)}")

    # -- by event type -----------------------------------------------------------------------------------

    def start_game(self) -> None:
        names = self.get("names")
        if names is not _MISSING and not (
            isinstance(names, list) and len(names) == 4 and all(isinstance(n, str) for n in names)
        ):
            raise _Bad(f"names must be 4 strings, got {excerpt(names)}")

    def start_kyoku(self) -> None:
        bakaze = self.get("bakaze")
        if bakaze is not _MISSING and bakaze not in ("E", "S", "W", "N"):
            raise _Bad(f"bakaze must be E, S, W or N, got {excerpt(bakaze)}")
        self.int("kyoku", 1, 4)
        self.int("honba", 0, MAX_COUNT)
        self.int("kyotaku", 0, MAX_COUNT)
        self.seat("oya")
        self.tile("dora_marker", required=self.dead_wall)  # a game without a dead wall (洁律) has no dora
        self.four_ints("scores", required=True)
        tehais = self.get("tehais")
        if tehais is not _MISSING:
            if not isinstance(tehais, list) or len(tehais) != 4:
                raise _Bad(f"tehais must be 4 hands of 13 tiles, got {excerpt(tehais)}")
            for s, hand in enumerate(tehais):
                self.tile_list(hand, f"tehais[{s}]", 13)
        dice = self.get("dice", required=False)
        if dice is not _MISSING and not (isinstance(dice, list) and len(dice) == 2 and all(_die(d) for d in dice)):
            raise _Bad(f"dice must be two numbers 1-6, got {excerpt(dice)}")

    def tsumo(self) -> None:
        self.seat("actor")
        self.tile("pai")

    def dahai(self) -> None:
        self.tsumo()
        if not isinstance(self.e.get("tsumogiri", False), bool):
            raise _Bad(f"tsumogiri must be true or false, got {excerpt(self.e['tsumogiri'])}")

    def reach(self) -> None:
        self.seat("actor")

    def reach_accepted(self) -> None:
        self.seat("actor")
        self.four_ints("deltas")
        self.four_ints("scores")

    def call(self, n: int) -> None:
        self.seat("actor")
        self.seat("target")
        self.tile("pai")
        self.tiles("consumed", n)

    def chi(self) -> None:
        self.call(2)

    def pon(self) -> None:
        self.call(2)

    def daiminkan(self) -> None:
        self.call(3)

    def ankan(self) -> None:
        self.seat("actor")
        self.tiles("consumed", 4)

    def kakan(self) -> None:
        self.seat("actor")
        self.tile("pai")
        self.tiles("consumed", 3)

    def dora(self) -> None:
        self.tile("dora_marker")

    def hora(self) -> None:
        self.seat("actor")
        self.seat("target")
        self.tile("pai", required=False)  # mjai.app's hora has no pai
        self.four_ints("deltas", required=True)
        self.four_ints("scores")
        self.tiles("ura_markers", most=5, required=False)
        for key in ("han", "fu", "yakuman", "limit"):
            self.int(key, 0, MAX_COUNT, required=False)
        self.int("points", 0, MAX_POINTS, required=False)
        self.seat("pao", required=False)
        yaku = self.get("yaku", required=False)
        if yaku is not _MISSING and not (
            isinstance(yaku, list) and all(isinstance(y, list) and len(y) == 2 and isinstance(y[0], str) for y in yaku)
        ):
            raise _Bad(f"yaku must be a list of [name, han], got {excerpt(yaku)}")

    def ryukyoku(self) -> None:
        reason = self.get("reason", required=False)
        if reason is not _MISSING and not (isinstance(reason, str) and len(reason) <= 40):
            raise _Bad(f"reason must be a name such as {', '.join(sorted(_REASONS))}; got {excerpt(reason)}")
        self.four_ints("deltas")
        self.four_ints("scores")
        tenpais = self.get("tenpais", required=False)
        if tenpais is not _MISSING and not (
            isinstance(tenpais, list) and len(tenpais) == 4 and all(isinstance(x, bool) for x in tenpais)
        ):
            raise _Bad(f"tenpais must be 4 booleans, got {excerpt(tenpais)}")
        self.seat("actor", required=False)

    def end_game(self) -> None:
        self.four_ints("scores", required=True)


_CHECKED = frozenset(
    [
        "start_game",
        "start_kyoku",
        "tsumo",
        "dahai",
        "reach",
        "reach_accepted",
        "chi",
        "pon",
        "daiminkan",
        "ankan",
        "kakan",
        "dora",
        "hora",
        "ryukyoku",
        "end_game",
    ]
)


def event_problem(event: Any, strict: bool = True, dead_wall: bool = True) -> str | None:
    """What is wrong with one mjai event (a missing field, a wrong type, a value out of range), or ``None``.

    ``strict`` (for a replay): every field the replay reads must be there and no tile hidden (``?``); otherwise
    (for reading a player's view or a log without some fields) only the fields present are checked. Event types
    the replay does not read are fine as long as they have a type. Without a ``dead_wall`` (a 洁律 game) a
    ``start_kyoku`` has no ``dora_marker``.
    """
    if not isinstance(event, dict):
        return f"an event is a JSON object, got {type(event).__name__}"
    kind = event.get("type")
    if not isinstance(kind, str):
        return f"an event has a 'type' string, got {excerpt(kind)}"
    if kind not in _CHECKED:
        return None
    try:
        getattr(_Check(event, strict, dead_wall), kind)()
    except _Bad as e:
        return f"{kind}: {e}"
    return None


def check_events(
    events: list[Any],
    source: str,
    place: Callable[[int], str] | None = None,
    strict: bool = True,
    dead_wall: bool = True,
) -> None:
    """Raise :class:`RecordError` at the first malformed event (:func:`event_problem`), naming ``source`` and its
    place (by default ``event N``, counting from 0; ``place(i)`` can name a line instead).

    >>> check_events([{"type": "start_game", "names": ["a", "b", "c", "d"]}, {"type": "dora"}], "x.mjson")
    Traceback (most recent call last):
    ...
    jantaku.records.errors.RecordError: x.mjson: event 1: dora: 'dora_marker' is missing
    """
    if len(events) > MAX_EVENTS:
        raise RecordError(f"{source}: {len(events)} events, more than a record holds ({MAX_EVENTS})")
    for i, e in enumerate(events):
        problem = event_problem(e, strict, dead_wall)
        if problem is not None:
            where = place(i) if place is not None else f"event {i}"
            raise RecordError(f"{source}: {where}: {problem}")


def has_dead_wall(rule_name: str) -> bool:
    """Whether the rule set a record names plays with a dead wall (an unknown one: assume it does)."""
    from jantaku.errors import JantakuError
    from jantaku.rules import load_rules

    if "/" in rule_name or "\\" in rule_name or rule_name.endswith(".toml"):
        return True
    try:
        return load_rules(rule_name).dead_wall
    except JantakuError:
        return True


def start_dead_wall(start: dict[str, Any]) -> bool:
    """Whether the game a ``start_game`` event opens plays with a dead wall: its ``rules`` with its
    ``rule_changes`` (a 洁律 table under a rule file of its own names no preset), else :func:`has_dead_wall`.

    >>> start_dead_wall({"type": "start_game", "rules": "my-jielu", "rule_changes": {"family": "jielu",
    ...     "dead_wall": False}}), start_dead_wall({"type": "start_game", "rules": "mleague"})
    (False, True)
    """
    from jantaku.errors import JantakuError
    from jantaku.rules import rules_with_changes

    name, changes = start.get("rules"), start.get("rule_changes")
    if isinstance(name, str) and isinstance(changes, dict):
        try:
            return rules_with_changes(name, changes).dead_wall
        except JantakuError:
            pass
    return has_dead_wall(name) if isinstance(name, str) else True


def rotate_seats(events: list[dict[str, Any]], first: int) -> list[dict[str, Any]]:
    """The same events with seat ``first`` renumbered 0 (and the others after it), as formats that put the
    first dealer at seat 0 (tenhou.net/6) need.

    >>> rotate_seats([{"type": "dahai", "actor": 2, "pai": "1m"}, {"type": "end_game", "scores": [1, 2, 3, 4]}], 2)
    [{'type': 'dahai', 'actor': 0, 'pai': '1m'}, {'type': 'end_game', 'scores': [3, 4, 1, 2]}]
    """
    if first % 4 == 0:
        return events
    out = []
    for e in events:
        r = dict(e)
        for key in _SEAT_FIELDS:
            if isinstance(r.get(key), int):
                r[key] = (r[key] - first) % 4
        for key in _SEAT_LISTS:
            value = r.get(key)
            if isinstance(value, list) and len(value) == 4:
                r[key] = value[first:] + value[:first]
        out.append(r)
    return out


@dataclass
class GameRecord:
    """One game (or one or more hands of one) as mjai events, with the rule hints the source carries.

    Attributes:
        source: where it came from (file and position), for messages.
        events: mjai events in order.
        red_fives: the game was played with red fives (Tenhou GO type bit 2 clear; tenhou.net/6 ``aka``).
        open_tanyao: open tanyao counts (Tenhou GO type bit 4 clear).
        hanchan: East+South (else East only).
        walls: optional full walls per hand (136 tile ids in dealing order), when the source has them.
        rule_name: the rule set the record says it used (``tenhou`` for Tenhou logs).
        final: the final scores with rank points as the source records them (``owari``), if any.
    """

    source: str
    events: list[dict[str, Any]] = field(default_factory=list)
    red_fives: bool = True
    open_tanyao: bool = True
    hanchan: bool = True
    walls: list[list[int]] | None = None
    rule_name: str = "tenhou"
    final: list[float] | None = None
    dora_timing_known: bool = True
    """Whether the events place kan dora where they turned (tenhou.net/6 does not record it)."""
    rank_points: tuple[int, int, int, int] | None = None
    """Rank points (uma with oka to first) the record's own final scores imply, when it has them."""
    problems: list[str] = field(default_factory=list)
    """What the reader could not take in (a truncated last hand, ...), each naming the hand."""
    _events_checked: bool = field(default=False, init=False, repr=False, compare=False)
    """Set by a reader that checked every event as it made it, as :meth:`check` would (strict, with a dead wall:
    the mjlog reader, whose messages name the hand): the next :meth:`check` does not check them again (the one
    after it does, should the events have been changed since)."""

    def check(self) -> None:
        """Raise :class:`~jantaku.records.errors.RecordError` naming the first event a replay cannot take
        (:func:`check_events`, strict), and for a wall that is not the 136 tile ids once each."""
        start = next((e for e in self.events if e.get("type") == "start_game"), None)
        dead_wall = start_dead_wall(start) if start is not None else has_dead_wall(self.rule_name)
        checked, self._events_checked = self._events_checked, False
        if not (checked and dead_wall):
            check_events(self.events, self.source, dead_wall=dead_wall)
        for n, wall in enumerate(self.walls or []):
            if not (isinstance(wall, list) and len(wall) == 136 and sorted(wall) == list(range(136))):
                raise RecordError(f"{self.source}: wall {n} must hold each tile id 0-135 once")
        if self.final is not None and not (
            len(self.final) == 4 and all(isinstance(x, float) and abs(x) < 1e9 for x in self.final)
        ):
            raise RecordError(f"{self.source}: the final points must be 4 numbers, got {excerpt(self.final)}")

    def hands(self) -> list[list[dict[str, Any]]]:
        """The events of each hand, from ``start_kyoku`` to ``end_kyoku``."""
        out: list[list[dict[str, Any]]] = []
        current: list[dict[str, Any]] | None = None
        for e in self.events:
            if e.get("type") == "start_kyoku":
                current = [e]
            elif current is not None:
                current.append(e)
                if e.get("type") == "end_kyoku":
                    out.append(current)
                    current = None
        return out
