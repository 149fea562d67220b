"""Scoring a 洁律 hand: the best reading, the fans counted, the wildcards used and the score S.

docs/rules/sources.md, 洁律 steps 1-3: the decomposition (four melds and a pair; no special hands) and the assignment of
melds to combination fans that give the highest score; whole-hand, honor and shape fans add; a fan worth 32 makes
the value 32, otherwise the sum capped at 24; any of the player's closed tiles may be treated as wildcards (each
standing for any tile, no kind five times, no pair or meld made only of wildcards), each halving the value
(rounded down), and then the incidental fans do not count. The engine picks the best choice; a hand needs at least
1 point to win.

>>> r = score_hand(Hand.parse("123m123m456m789m11z"), tsumo=True)
>>> r.score, r.value, [(f.name, f.points) for f in r.fans]
(20, 20, [('三连顺', 6), ('混一色', 6), ('九数齐', 6), ('平和', 1), ('自摸和', 1)])
>>> r = score_hand(Hand.parse("123m456p789s11z344z"))      # not complete: one wildcard, the value halved
>>> r.score, [(w.tile.mpsz, w.stands_for.mpsz) for w in r.wildcards]
(5, [('3z', '1z')])
>>> print(r.explain(), end="")
score 5: value 11, halved once (1 wildcard)
  melds 123m 456p 789s 111z, pair 44z
  三步顺   3  123m 456p 789s
  九数齐   6
  双风     2
  wildcard 3z -> 1z
  (incidental fans do not count with wildcards)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from jantaku.hand import Hand
from jantaku.shapes.tables import tables
from jantaku.tiles import KIND_NAMES, Tile, counts34

from .conditions import WinConditions, check_conditions, incidental_flags
from .errors import JieluError, WildcardError
from .evaluate import FanHit, evaluate
from .fantable import FanTable, default_fan_table
from .melds import code_of_meld, meld_name, meld_tiles, pair_name
from .search import Completion, best_completion
from .wholehand import incidental_fans

__all__ = ["FanScore", "JieluResult", "Wildcard", "best_value", "can_win", "can_win_counts", "score_hand"]


@dataclass(frozen=True, slots=True)
class FanScore:
    """One fan counted: its name, points, family and the melds it uses (mpsz; empty for whole-hand fans)."""

    name: str
    points: int
    family: str
    melds: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Wildcard:
    """One wildcard: the hand's own tile treated as a wildcard (``None`` for an extra wildcard) and the tile it
    stands for."""

    tile: Tile | None
    stands_for: Tile


@dataclass(frozen=True)
class JieluResult:
    """The score of a hand under 洁律 rules.

    Attributes:
        hand: the hand scored.
        score: S, the hand's score: the value after the 32/24 rule, halved once per wildcard; 0 when no reading
            reaches 1 point (then the hand may not win).
        value: the value before halving (after the 32/24 rule).
        total: the plain sum of the fans' points.
        full: a fan worth 32 (the table's ``full``) made the value 32.
        fans: the fans counted, combinations first, each with the melds it uses.
        wildcards: each wildcard used and what it stands for.
        melds: the reading's four melds (mpsz; a declared meld - a call or a kong - ends in ``+``).
        pair: the reading's pair (mpsz), ``""`` without a reading.
        extra_wildcards: wildcards the hand had on top of its tiles.
        min_score: the least score a win needs under the table it was scored with (1, the document's; a rule
            set's ``jielu_min_score``). A non-winner's hand completed with extra wildcards is not a win: 1.
    """

    hand: Hand
    score: int
    value: int
    total: int
    full: bool
    fans: tuple[FanScore, ...]
    wildcards: tuple[Wildcard, ...]
    melds: tuple[str, ...]
    pair: str
    extra_wildcards: int = 0
    min_score: int = 1

    @property
    def is_win(self) -> bool:
        """True when the hand is worth at least 1 point and the least score a win needs (a legal win)."""
        return self.score >= max(1, self.min_score)

    @property
    def shortfall(self) -> str:
        """Why the hand may not win, in words (``""`` when it may).

        >>> from jantaku.jielu.fantable import default_fan_table, with_win_rule
        >>> table = with_win_rule(default_fan_table(), min_score=8)
        >>> score_hand(Hand.parse("123m456p789s11z344z"), table=table).shortfall
        'its best reading is worth 5 points, below the 8 a win needs under these rules'
        """
        if self.score < 1:
            return "no reading of this hand is worth 1 point"
        if not self.is_win:
            points = "point" if self.score == 1 else "points"
            return (
                f"its best reading is worth {self.score} {points}, below the {self.min_score} a win needs under "
                "these rules"
            )
        return ""

    def explain(self) -> str:
        """A few lines for people: the score and how it arises, each fan with the melds it uses, the wildcards."""
        if self.score < 1:
            return "score 0: no reading of this hand is worth 1 point (it cannot win)\n"
        w = len(self.wildcards)
        how = ""
        if w:
            times = {1: "once", 2: "twice"}.get(w, f"{w} times")
            how = f", halved {times} ({w} wildcard{'s' if w > 1 else ''})"
        rule = ""
        if self.full:
            rule = " (a 32-point fan: 32)"
        elif self.total > self.value:
            rule = f" (sum {self.total}, capped)"
        lines = [f"score {self.score}: value {self.value}{rule}{how}"]
        if not self.is_win:
            lines[0] += f" - below the {self.min_score} a win needs under these rules (it cannot win)"
        lines.append(f"  melds {' '.join(self.melds)}, pair {self.pair}")
        width = max(_width(f.name) for f in self.fans) if self.fans else 0
        for f in self.fans:
            pad = " " * (width - _width(f.name))
            used = ("  " + " ".join(f.melds)) if f.melds else ""
            lines.append(f"  {f.name}{pad}  {f.points:2d}{used}")
        for wc in self.wildcards:
            own = wc.tile.mpsz if wc.tile is not None else "extra"
            lines.append(f"  wildcard {own} -> {wc.stands_for.mpsz}")
        if w:
            lines.append("  (incidental fans do not count with wildcards)")
        return "\n".join(lines) + "\n"


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _incidental(
    tsumo: bool, last_tile: bool, kong: bool, first_draw: bool, table: FanTable
) -> tuple[tuple[str, int], ...]:
    return incidental_fans(tsumo=tsumo, last_tile=last_tile, kong=kong, first_draw=first_draw, table=table)


def _closed_counts(hand: Hand) -> list[int]:
    return counts34(hand.closed)


def _replaced_kinds(hand: Hand, wildcards: Sequence[Tile | str]) -> list[int]:
    """The kinds of the tiles a player names as wildcards, checked against the closed tiles."""
    left = _closed_counts(hand)
    called = counts34(t for m in hand.melds for t in m.tiles)
    out = []
    for w in wildcards:
        tile = w if isinstance(w, Tile) else Tile(str(w).strip())
        k = tile.kind
        if left[k] == 0:
            if called[k]:
                raise WildcardError(f"{tile.mpsz} is in a declared meld: its tiles are fixed and cannot be wildcards")
            raise WildcardError(f"the hand holds no {tile.mpsz} to treat as a wildcard")
        left[k] -= 1
        out.append(k)
    return out


def score_hand(
    hand: Hand,
    conditions: WinConditions | None = None,
    *,
    tsumo: bool = False,
    last_tile: bool = False,
    kong: bool = False,
    first_draw: bool = False,
    extra_wildcards: int = 0,
    wildcards: Sequence[Tile | str] | None = None,
    max_wildcards: int | None = None,
    table: FanTable | None = None,
    at_least: int = 0,
) -> JieluResult:
    """Score ``hand`` (its closed tiles include the winning tile) under 洁律 rules.

    Args:
        hand: closed tiles and called melds; 14 tiles counting each meld as 3, or 13 with ``extra_wildcards=1``.
        conditions: how the hand was won (riichi's :class:`WinConditions`: ``tsumo``, ``haitei``/``houtei``,
            ``rinshan``/``chankan``, ``tenhou``/``chiihou``, the winning tile), checked; or give the four flags
            below instead.
        tsumo: 自摸和 (a self-drawn win).
        last_tile: 海底和 (on the last tile, or the last discard).
        kong: 杠上和 (on a kong's replacement tile, or robbing a kong).
        first_draw: 天和 (with the dealt hand and the first draw).
        extra_wildcards: wildcards on top of the hand's tiles (a non-winner at the end of a hand gets one).
        wildcards: which of the closed tiles the player treats as wildcards; by default the best choice.
        max_wildcards: the most wildcards to use, extra ones included; by default no limit beyond the table's
            cap (a rule set's ``jielu_max_wildcards``, which always applies).
        table: the fan table; by default the shipped one (the project's proposed values). A rule set's table
            (:func:`~jantaku.jielu.fantable.table_for_rules`) carries its win rule: the result's
            :attr:`~JieluResult.is_win` needs its least score (``jielu_min_score``; not for a non-winner's hand,
            which is paid whatever it scores), and the wildcards stay within its cap.
        at_least: a score the hand is known to reach with these circumstances: a table that has just found, by
            the legal-win check, that the hand may win passes 1, and the search for the best score looks only
            for more (a score the hand does not reach is taken as reached).

    Raises :class:`JieluError` for a hand of the wrong size and :class:`WildcardError` for wildcards that are
    called tiles, tiles the hand does not hold, or more than the table's cap allows.

    >>> score_hand(Hand.parse("11m 111z+ 222z+ 333z+ 444z+")).score     # 四喜 and 对对和: 32
    32
    >>> score_hand(Hand.parse("123m456p789s11z344z"), wildcards=["1z"]).score   # a poor choice of wildcard
    0
    >>> score_hand(Hand.parse("123m456p789s11z 555z+"), wildcards=["5z"])
    Traceback (most recent call last):
    ...
    jantaku.jielu.errors.WildcardError: 5z is in a declared meld: its tiles are fixed and cannot be wildcards
    """
    t = table or default_fan_table()
    if not isinstance(hand, Hand):
        raise JieluError(f"score_hand takes a Hand (use Hand.parse for text), got {type(hand).__name__}")
    if isinstance(extra_wildcards, bool) or not isinstance(extra_wildcards, int) or extra_wildcards < 0:
        raise JieluError(f"extra_wildcards must be a whole number >= 0, got {extra_wildcards!r}")
    if isinstance(at_least, bool) or not isinstance(at_least, int) or at_least < 0:
        raise JieluError(f"at_least must be a whole number >= 0, got {at_least!r}")
    if hand.tile_count + extra_wildcards != 14:
        if hand.tile_count == 13 and extra_wildcards == 0:
            raise JieluError(
                f"{str(hand)!r} has 13 tiles: a win needs the winning tile (14), or extra_wildcards=1 for a "
                "non-winner's hand at the end"
            )
        raise JieluError(
            f"a hand to score has 14 tiles counting its extra wildcards; {str(hand)!r} has {hand.tile_count} "
            f"and {extra_wildcards} extra wildcard(s)"
        )
    if conditions is not None:
        if tsumo or last_tile or kong or first_draw:
            raise JieluError("give the circumstances either as conditions or as flags, not both")
        if extra_wildcards:
            raise JieluError("a hand completed with extra wildcards is not a win: it has no winning conditions")
        check_conditions(hand, conditions)
        flags = incidental_flags(conditions)
        tsumo, last_tile, kong, first_draw = flags["tsumo"], flags["last_tile"], flags["kong"], flags["first_draw"]
    replaced = _replaced_kinds(hand, wildcards) if wildcards is not None else None
    limit = t.wildcard_limit(extra_wildcards)
    if replaced is not None and limit is not None and len(replaced) + extra_wildcards > limit:
        raise WildcardError(
            f"{len(replaced) + extra_wildcards} wildcards named; these rules allow at most {limit} in a hand"
        )
    fixed = tuple(code_of_meld(m) for m in hand.melds)
    incidental = _incidental(tsumo, last_tile, kong, first_draw, t)
    closed = _closed_counts(hand)
    if max_wildcards is None and replaced is None:
        found = _best_found(closed, fixed, extra_wildcards, incidental, t, at_least)
    else:
        found = best_completion(
            closed,
            fixed,
            extra=extra_wildcards,
            incidental=incidental,
            table=t,
            max_wildcards=max_wildcards,
            replaced=replaced,
        )
    return _result(hand, found, extra_wildcards, 1 if extra_wildcards else t.min_score)


def _best_found(
    closed: list[int],
    fixed: tuple[int, ...],
    extra: int,
    incidental: tuple[tuple[str, int], ...],
    table: FanTable,
    at_least: int = 0,
) -> Completion | None:
    """The optimiser's best completion (:func:`~jantaku.jielu.search.best_completion`), found sooner.

    The compiled search gives the best score S (:meth:`~jantaku.jielu.wincheck.WinCheck.best_score`). The whole
    search returns the first completion of score S it meets: its plain readings first, then the wildcard levels in
    its own order. So the plain readings are asked of the optimiser told S (``floor=S - 1, stop_at=S``), and the
    wildcard levels of the compiled search walking that same order
    (:meth:`~jantaku.jielu.wincheck.WinCheck.first_reading`); the reading found is then explained (its fans by
    :func:`~jantaku.jielu.evaluate.evaluate`, what each wildcard stands for). The tests hold the result equal to
    the whole search's."""
    from .wincheck import win_check  # compiled on first use

    check = win_check(table)
    score = check.best_score(closed, fixed, incidental, extra, at_least)
    if score == 0:
        return None
    found = None
    if extra == 0 and tables().distances(bytes(closed))[4 - len(fixed)] == 0:  # plain readings come first
        found = best_completion(
            closed, fixed, incidental=incidental, table=table, max_wildcards=0, stop_at=score, floor=score - 1
        )
    if found is None:
        reading = check.first_reading(closed, fixed, score, extra)
        if reading is not None:
            found = _completion(closed, fixed, *reading, table)
    if found is None or found.score != score:  # never seen (the tests compare both ways); the whole search decides
        found = best_completion(closed, fixed, extra=extra, incidental=incidental, table=table)
    return found


def _completion(
    closed: list[int], fixed: tuple[int, ...], w: int, groups: tuple[int, ...], pair: int, table: FanTable
) -> Completion:
    """The optimiser's :class:`~jantaku.jielu.search.Completion` of a reading with ``w`` wildcards: its closed
    melds ``groups`` and its ``pair``."""
    need = [0] * 34
    need[pair] += 2
    for code in groups:
        for k in meld_tiles(code):
            need[k] += 1
    replaced = tuple(k for k in range(34) for _ in range(closed[k] - need[k]))
    stands_for = tuple(k for k in range(34) for _ in range(need[k] - closed[k]))
    closed_melds = tuple(sorted(groups))
    melds = tuple(sorted(fixed + closed_melds))
    ev = evaluate(melds, pair, table)
    return Completion(ev.value >> w, w, ev, melds, closed_melds, pair, replaced, stands_for)


def _result(hand: Hand, found: Completion | None, extra: int, min_score: int = 1) -> JieluResult:
    if found is None:
        return JieluResult(hand, 0, 0, 0, False, (), (), (), "", extra, min_score)
    melds: list[str] = []
    closed_left = list(found.closed_melds)
    for code in found.melds:  # a declared meld is written with a '+'
        if code in closed_left:
            closed_left.remove(code)
            melds.append(meld_name(code))
        else:
            melds.append(meld_name(code) + "+")
    fans = tuple(_fan(f) for f in found.evaluation.fans)
    own = list(found.replaced)
    wcs: list[Wildcard] = []
    for i, k in enumerate(found.stands_for):
        tile = Tile(KIND_NAMES[own[i]]) if i < len(own) else None
        wcs.append(Wildcard(tile, Tile(KIND_NAMES[k])))
    ev = found.evaluation
    return JieluResult(
        hand,
        found.score,
        ev.value,
        ev.total,
        ev.full,
        fans,
        tuple(wcs),
        tuple(melds),
        pair_name(found.pair),
        extra,
        min_score,
    )


def _fan(f: FanHit) -> FanScore:
    return FanScore(f.name, f.points, f.family, tuple(meld_name(c) for c in f.melds))


def best_value(hand: Hand, *, extra_wildcards: int = 0, table: FanTable | None = None) -> int:
    """S, the best score of ``hand`` without circumstances (0 when it cannot reach 1 point): for a non-winner at
    the end of a hand, ``best_value(hand, extra_wildcards=1)``.

    >>> best_value(Hand.parse("123m123m456m789m1z"), extra_wildcards=1)
    9
    """
    return score_hand(hand, extra_wildcards=extra_wildcards, table=table).score


def can_win(hand: Hand, conditions: WinConditions | None = None, *, table: FanTable | None = None) -> bool:
    """The legal-win check: whether some choice of wildcards makes the 14-tile ``hand`` worth at least 1 point
    (the table's least score and cap on wildcards apply: a rule set's table, :func:`~jantaku.jielu.fantable.
    table_for_rules`, carries its ``jielu_min_score`` and ``jielu_max_wildcards``).

    With ``conditions`` the win's incidental fans count too (a complete hand whose only fan is 自摸和 may win
    by tsumo, not by ron). It is answered by the compiled check of :mod:`jantaku.jielu.wincheck`, which the
    tests hold equal to the optimiser (:func:`jantaku.jielu.search.best_completion` with ``stop_at=1``).

    >>> can_win(Hand.parse("123m456p789s11z344z")), can_win(Hand.parse("19m19p19s11234567z"))
    (True, False)
    >>> from jantaku.jielu.fantable import default_fan_table, with_win_rule
    >>> can_win(Hand.parse("123m456p789s11z344z"), table=with_win_rule(default_fan_table(), max_wildcards=0))
    False
    """
    if hand.tile_count != 14:
        raise JieluError(f"the legal-win check takes a 14-tile hand, {str(hand)!r} has {hand.tile_count}")
    t = table or default_fan_table()
    incidental: tuple[tuple[str, int], ...] = ()
    if conditions is not None:
        check_conditions(hand, conditions)
        f = incidental_flags(conditions)
        incidental = _incidental(f["tsumo"], f["last_tile"], f["kong"], f["first_draw"], t)
    fixed = tuple(code_of_meld(m) for m in hand.melds)
    from .wincheck import win_check  # compiled on first use

    return win_check(t)(_closed_counts(hand), fixed, incidental)


def can_win_counts(
    counts: Sequence[int],
    fixed: Sequence[int],
    *,
    tsumo: bool = False,
    last_tile: bool = False,
    kong: bool = False,
    first_draw: bool = False,
    table: FanTable | None = None,
) -> bool:
    """:func:`can_win` for a table engine, which asks on every discard: the closed tiles as 34 counts (the
    winning tile included), the called melds as codes (:func:`jantaku.jielu.melds.code_of_meld`) and the
    incidental fans' flags, with no :class:`~jantaku.hand.Hand` or conditions to build.

    >>> from jantaku.tiles import counts34, parse_tiles
    >>> can_win_counts(counts34(parse_tiles("123m456p789s11z344z")), ())
    True
    """
    from .wincheck import win_check  # compiled on first use

    t = table or default_fan_table()
    return win_check(t)(counts, fixed, _incidental(tsumo, last_tile, kong, first_draw, t))
