"""Scoring a riichi win under a rule set: yaku, dora, fu, han, limit, points and every player's payment.

M-League's own example (001 6章5条6: "子家一本场时立直自摸平和宝牌一：1300·2600的1400·2700"):

>>> from jantaku import Hand, Tile
>>> r = score_hand("234m567p456s78999s", WinConditions(win=Tile("9s"), tsumo=True, riichi=True,
...                dora=(Tile("3m"),), seat_wind="S", winner=1, honba=1), "mleague")
>>> r.han, r.fu, r.points, r.payments
(4, 20, 5200, [-2700, 5500, -1400, -1400])
>>> [name for name, _ in r.yaku]
['menzen_tsumo', 'riichi', 'pinfu', 'dora']

The scorer tries every reading of the hand (each decomposition, with the winning tile in each place it can
sit) and keeps the one that pays most (000 Art 60; 001 6章5条1). A hand that is not complete, or has no
yaku, raises :class:`~jantaku.riichi.conditions.ScoringError`; impossible circumstances raise
:class:`~jantaku.riichi.conditions.ConditionError`.
"""

from __future__ import annotations

from jantaku.hand import Hand
from jantaku.meld import MeldKind
from jantaku.rules import Ruleset, load_rules
from jantaku.shapes.decompose import decompositions_of_bytes
from jantaku.tiles import KIND_OF_CODE, NUM_KINDS, Tile, dora_from_indicator, kind_name

from .conditions import ConditionError, ScoringError, WinConditions
from .kernel import LAZY_MESSAGE, S_WAIT, WAIT_NAMES, bind_result_types, make_scorer, pair_of, pung_kinds
from .points import FuItem, basic_points, compute_fu, payments
from .reading import HandFacts, Reading, readings_of
from .result import ScoreResult
from .yaku import YAKU, YAKUMAN

__all__ = ["NoYakuError", "NotWinningError", "ScoreResult", "score_hand", "score_reference"]


class NotWinningError(ScoringError):
    """The tiles do not form a complete hand."""


class NoYakuError(ScoringError):
    """A complete hand without the yaku the rule set requires."""

    @classmethod
    def lazy(cls, hand: Hand, win: Tile, rules_name: str) -> NoYakuError:
        """The error of ``hand`` winning on ``win``, its message written only when read (a player's program may
        ask about many hands that have no yaku, and rarely reads why). The parts wait in the arguments, after
        the marker :data:`~jantaku.riichi.kernel.LAZY_MESSAGE`.

        >>> e = NoYakuError.lazy(Hand.parse("123m456p789s23455s"), Tile("5s"), "tenhou")
        >>> e
        NoYakuError('123m456p78923455s winning on 5s has no yaku under tenhou')
        >>> str(e) == e.args[0]
        True
        """
        return cls(LAZY_MESSAGE, hand, win, rules_name)

    def _lazy_message(self) -> str | None:
        raw = BaseException.args.__get__(self)  # type: ignore[attr-defined]
        if len(raw) == 4 and raw[0] is LAZY_MESSAGE:
            return f"{raw[1]} winning on {raw[2]} has no yaku under {raw[3]}"
        return None

    def __str__(self) -> str:
        message = self._lazy_message()
        return super().__str__() if message is None else message

    @property  # type: ignore[override]
    def args(self) -> tuple[object, ...]:
        """The exception's arguments (for a lazy one: its message)."""
        message = self._lazy_message()
        return BaseException.args.__get__(self) if message is None else (message,)  # type: ignore[attr-defined]

    @args.setter
    def args(self, value: tuple[object, ...]) -> None:
        BaseException.args.__set__(self, value)  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.args[0]!r})" if self._lazy_message() is not None else super().__repr__()

    def __reduce__(self) -> tuple[type[NoYakuError], tuple[object, ...]]:
        return (type(self), self.args)


class _Lazy:
    """``fu_items`` and ``reading`` of a result from the fast path: built by the reference code on first access
    (a non-data descriptor, so a value in the instance's ``__dict__`` wins, as for any other result)."""

    def __init__(self, name: str, default: object) -> None:
        self.name = name
        self.default = default

    def __get__(self, obj: ScoreResult | None, objtype: type | None = None) -> object:
        if obj is None:
            return self.default
        lazy = obj.__dict__.get("_lazy")
        if lazy is None:  # pragma: no cover - every result has either the value or the means to build it
            raise AttributeError(self.name)
        fu_items, reading = _explain_fast(obj, *lazy)
        obj.__dict__["fu_items"] = fu_items
        obj.__dict__["reading"] = reading
        return obj.__dict__[self.name]


def _explain_fast(
    result: ScoreResult, hand: Hand, rules: Ruleset, best: int, yaku: tuple[tuple[str, int], ...]
) -> tuple[list[FuItem], Reading]:
    """The reading a fast-path result was scored from, and its fu items, as the reference builds them."""
    c = result.conditions
    assert c is not None
    facts = _facts(hand, c)
    readings = readings_of(decompositions_of_bytes(bytes(facts.closed_counts)), hand.melds, c.win.kind, c.tsumo)
    if best == -1:
        r = next(r for r in readings if r.form == "chiitoitsu")
    elif best == -2:
        r = next(r for r in readings if r.form == "kokushi")
    else:
        pair = pair_of(best)
        wait = WAIT_NAMES[best >> S_WAIT & 31]
        pungs = pung_kinds(best)
        r = next(
            r for r in readings if (r.pair, r.wait, sorted(r.pungs)) == (pair, wait, pungs) and r.form == "regular"
        )
    if result.yakuman:
        return [], r
    return compute_fu(r, facts, c, rules, ("pinfu", 1) in yaku)[1], r


ScoreResult.fu_items = _Lazy("fu_items", None)  # type: ignore[assignment]
ScoreResult.reading = _Lazy("reading", None)  # type: ignore[assignment]
bind_result_types(ScoreResult, NoYakuError)


def _check_against_rules(hand: Hand, c: WinConditions, rules: Ruleset) -> None:
    if rules.family != "riichi":
        raise ConditionError(f"rule set {rules.name!r} is not a riichi rule set")
    if rules.red_fives != (1, 1, 1):
        for t in hand.all_tiles():
            if t.red and not rules.red_fives[t.kind // 9]:
                raise ConditionError(f"rule set {rules.name!r} has no red {kind_name(t.kind)} (the hand has {t.mpsz})")
    if c.ippatsu and not rules.ippatsu:
        raise ConditionError(f"rule set {rules.name!r} has no ippatsu")
    if c.ura and not rules.ura_dora:
        raise ConditionError(f"rule set {rules.name!r} has no ura dora")
    if c.honba and not rules.honba_points:
        raise ConditionError(f"rule set {rules.name!r} has no honba (honba_points = 0)")
    if c.renhou and rules.renhou == "none":
        raise ConditionError(f"rule set {rules.name!r} has no renhou")
    kans = sum(1 for m in hand.melds if m.is_kan)
    max_dora = 5 if rules.kan_dora else 1  # any player's kans reveal indicators
    if len(c.dora) > max_dora:
        raise ConditionError(f"{len(c.dora)} dora indicators, but rule set {rules.name!r} turns at most {max_dora}")
    if len(c.ura) > len(c.dora) and c.dora:
        raise ConditionError("more ura indicators than dora indicators")
    if (c.riichi or c.double_riichi) and not hand.is_closed:
        raise ConditionError("riichi needs a closed hand, but this one has an open meld")
    if c.rinshan and not kans:
        raise ConditionError("rinshan kaihou needs a kan in the winner's hand")
    if (c.tenhou or c.chiihou) and hand.melds:
        raise ConditionError("tenhou and chiihou happen before any call or kan")
    if c.win not in hand.closed:
        raise ConditionError(f"the winning tile {c.win} is not among the closed tiles of {hand}")
    if c.chankan and any(t.kind == c.win.kind for m in hand.melds for t in m.tiles):
        raise ConditionError("a robbed kan's tile cannot also be in the winner's melds")
    if c.chankan and sum(t.kind == c.win.kind for t in hand.closed) > 1:
        # the kan being robbed holds the other three copies (a pon plus the added tile; or a closed kan)
        raise ConditionError(
            f"a robbed kan's tile {c.win} cannot also be among the winner's other closed tiles: the kan holds "
            "the other three copies"
        )


def _facts(hand: Hand, c: WinConditions) -> HandFacts:
    closed = [0] * NUM_KINDS
    red = 0
    for t in hand.closed:
        code = t.code
        if code >= NUM_KINDS:
            red += 1
        closed[KIND_OF_CODE[code]] += 1
    counts = list(closed)
    kans = 0
    for m in hand.melds:
        for t in m.tiles:
            code = t.code
            if code >= NUM_KINDS:
                red += 1
            counts[KIND_OF_CODE[code]] += 1
        if m.kind in (MeldKind.MINKAN, MeldKind.KAKAN, MeldKind.ANKAN):
            kans += 1
    return HandFacts.build(
        tuple(counts),
        tuple(closed),
        menzen=hand.is_closed,
        win_kind=c.win.kind,
        tsumo=c.tsumo,
        seat_wind=c.seat_wind,
        round_wind=c.round_wind,
        kans=kans,
        red=red,
    )


def _dora_count(indicators: tuple[Tile, ...], counts: tuple[int, ...]) -> int:
    return sum(counts[dora_from_indicator(t.kind)] for t in indicators)


_GREEN = frozenset((19, 20, 21, 23, 25, 32))
_TERMINALS = frozenset((0, 8, 9, 17, 18, 26))


def _may_be_yakuman(r: Reading, h: HandFacts, c: WinConditions) -> bool:
    """A cheap necessary condition for any yakuman, so that most hands skip the yakuman table."""
    if r.form == "kokushi" or c.tenhou or c.chiihou or c.renhou or r.concealed_pungs >= 4 or r.kans == 4:
        return True
    pungs = r.pungs
    if sum(1 for k in pungs if k >= 31) == 3 or sum(1 for k in pungs if 27 <= k <= 30) >= 3:
        return True
    kinds = h.kinds
    if kinds[0] >= 27 or all(k in _GREEN for k in kinds) or all(k in _TERMINALS for k in kinds):
        return True
    return h.menzen and len(h.suits) == 1 and not h.has_honor  # nine gates


def _yakuman_of(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> list[tuple[str, int]]:
    if not _may_be_yakuman(r, h, c):
        return []
    found = []
    for y in YAKUMAN:
        if y.han_open is None and not h.menzen:
            continue
        if y.check(r, h, c, rules):
            found.append((y.name, 2 if y.name in rules.double_yakuman else 1))
    if not rules.yakuman_stacking:
        # 000 Art 54: several yakuman count as one; all are listed, each x1, and the total is capped at 1
        return [(name, 1) for name, _ in found]
    return found


def _yaku_of(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> list[tuple[str, int]]:
    found = []
    for y in YAKU:
        han = y.han if h.menzen else y.han_open
        if han is None:
            continue
        if y.check(r, h, c, rules):
            found.append((y.name, han))
    return found


def score_reference(hand: Hand | str, conditions: WinConditions, rules: Ruleset | str = "standard") -> ScoreResult:
    """:func:`score_hand` the plain way: every reading as a :class:`~jantaku.riichi.reading.Reading`, every
    yaku predicate asked. The fast path is checked against it."""
    rs = load_rules(rules)
    h = Hand.parse(hand) if isinstance(hand, str) else hand
    if h.tile_count != 14:
        raise NotWinningError(f"a winning hand has 14 tiles counting each meld as 3; {h} has {h.tile_count}")
    c = conditions
    _check_against_rules(h, c, rs)
    facts = _facts(h, c)
    decs = decompositions_of_bytes(bytes(facts.closed_counts))
    if not decs:
        raise NotWinningError(f"{h} is not a complete hand")
    readings = readings_of(decs, h.melds, c.win.kind, c.tsumo)
    if not readings:  # pragma: no cover - a complete hand always holds its winning tile somewhere
        raise NotWinningError(f"{h} cannot be read with {c.win} as the winning tile")

    best: tuple[tuple[int, int, int], ScoreResult] | None = None
    dora = _dora_count(c.dora, facts.counts)
    ura = _dora_count(c.ura, facts.counts) if c.riichi and rs.ura_dora else 0
    aka = facts.red
    for r in readings:
        yakuman = _yakuman_of(r, facts, c, rs)
        if yakuman:
            total = sum(m for _, m in yakuman)
            if not rs.yakuman_stacking:
                total = 1
            basic, limit = basic_points(0, 0, total, rs)
            result = _finish(r, facts, c, rs, yakuman, 0, 0, [], total, basic, limit)
            key = (basic, 99, 0)
        else:
            yaku = _yaku_of(r, facts, c, rs)
            yaku_han = sum(han for _, han in yaku)
            if yaku_han < rs.min_han:
                continue
            pinfu = any(name == "pinfu" for name, _ in yaku)
            fu, fu_items = compute_fu(r, facts, c, rs, pinfu)
            for name, n in (("dora", dora), ("aka_dora", aka), ("ura_dora", ura)):
                if n:
                    yaku.append((name, n))
            han = yaku_han + dora + aka + ura
            basic, limit = basic_points(han, fu, 0, rs)
            result = _finish(r, facts, c, rs, yaku, han, fu, fu_items, 0, basic, limit)
            key = (basic, han, fu)
        if best is None or key > best[0]:
            best = (key, result)
    if best is None:
        raise NoYakuError(f"{h} winning on {c.win} has no yaku under {rs.name}")
    result = best[1]
    if c.pao is not None and not any(name in rs.pao for name, _ in result.yaku if result.yakuman):
        raise ConditionError(
            f"pao (seat {c.pao}) applies only to {', '.join(sorted(rs.pao))} under {rs.name}, "
            "and this hand has none of them"
        )
    return result


def _finish(
    r: Reading,
    h: HandFacts,
    c: WinConditions,
    rules: Ruleset,
    yaku: list[tuple[str, int]],
    han: int,
    fu: int,
    fu_items: list[FuItem],
    yakuman: int,
    basic: int,
    limit: str | None,
) -> ScoreResult:
    pao_basic = 0
    if c.pao is not None:
        liable_for = [(name, mult) for name, mult in yaku if yakuman and name in rules.pao]
        if liable_for:
            # pao_scope: the liable yakuman only (001 8章1条), or the whole hand (Tenhou)
            pao_basic = basic if rules.pao_scope == "hand" else min(basic, 8000 * sum(m for _, m in liable_for))
    deltas, points = payments(basic, c, rules, pao_basic)
    return ScoreResult(
        han=han,
        fu=fu,
        yaku=yaku,
        yakuman=yakuman,
        limit=limit,
        basic=basic,
        points=points,
        payments=deltas,
        fu_items=fu_items,
        reading=r,
        rules=rules.name,
        conditions=c,
    )


score_hand = make_scorer(score_reference)
score_hand.__name__ = score_hand.__qualname__ = "score_hand"
score_hand.__module__ = __name__
score_hand.__doc__ = """Score a winning hand: closed tiles (the winning tile included) plus melds, under a rule set.

``rules`` is a :class:`~jantaku.rules.Ruleset` or a preset name. Raises :class:`NotWinningError`,
:class:`NoYakuError` or :class:`~jantaku.riichi.conditions.ConditionError`.

The fast path (:mod:`jantaku.riichi.kernel`) answers most hands; the rest, and every error but a missing yaku,
are the reference scorer's (:func:`score_reference`), which the fast path agrees with.
"""
