"""What a seat may do: the rules code for legal actions, shared by the engine and a seat's own view.

Every function here reads one seat's own tiles and the public state of the hand, through the attributes of
:class:`PlayState`: :class:`~jantaku.table.kyoku.Kyoku` has them (its seats' tiles are all real) and so has
:class:`~jantaku.table.seatview.SeatView` (its own seat's tiles only). Both take these functions as their methods
(``Kyoku._own_turn_actions = own_turn_actions``, ...), so the actions a seat is offered in the engine and the
actions its view computes from the events it received come from the same code: the own turn (discards, riichi,
kans, a tsumo win, nine terminals), the answers to a discard (ron, pon, open kan, chi, pass) and to a kan
(robbing it), and the win checks behind them (yaku and furiten for riichi rule sets, 000 Art 64 and 001 5章5条;
the 洁律 legal-win check, 004 无振听).

A function never reads another seat's closed tiles: a :class:`SeatView` has none to read, and
``tests/test_seatview.py`` checks over hundreds of seeded games that both give the same actions.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Protocol

from jantaku.errors import JantakuError
from jantaku.hand import Hand
from jantaku.meld import Meld, MeldKind
from jantaku.riichi.conditions import ScoringError, WinConditions
from jantaku.riichi.scoring import ScoreResult, score_hand
from jantaku.rules import Ruleset
from jantaku.shapes.decompose import decompositions_of_bytes
from jantaku.shapes.shanten import shanten, shanten_forms
from jantaku.shapes.waits import wait_kinds
from jantaku.tiles import TERMINALS_AND_HONORS, Tile

from .actions import ANKAN, CHI, DAIMINKAN, DISCARD, KAKAN, KYUUSHU, PASS, PON, RIICHI, RON, TSUMO, Action
from .circumstances import win_flags
from .seat import SeatState

__all__ = [
    "CALLED",
    "CHANKAN",
    "DECLARE",
    "DRAWN",
    "ENDED",
    "RESPONSES",
    "PlayRules",
    "PlayState",
    "chankan_options",
    "holds_run_partners",
    "jielu_can_win_counts",
    "own_turn_actions",
    "response_options",
]

DRAWN = "drawn"
CALLED = "called"
RESPONSES = "responses"
CHANKAN = "chankan"
DECLARE = "declare"
ENDED = "ended"

_YAOCHU = frozenset(TERMINALS_AND_HONORS)
_NO_KINDS: frozenset[int] = frozenset()
_NO_WAITS: tuple[int, ...] = ()
_PASS_ACTIONS = [Action(PASS, seat) for seat in range(4)]
_ALL_TILES = [Tile.from_kind(k) for k in range(34)] + [Tile.from_kind(k, red=True) for k in (4, 13, 22)]
# discard and riichi actions are immutable: build each one once ([kind][seat][tile code][tsumogiri])
_PREBUILT = {
    kind: [[[Action(kind, seat, t, (), bool(tg)) for tg in (0, 1)] for t in _ALL_TILES] for seat in range(4)]
    for kind in (DISCARD, RIICHI)
}
# the same actions by discard key ``tile.sort_key * 2 + tsumogiri`` (= kind * 4 + red * 2 + tsumogiri, 0-135):
# [kind][seat][key]; a key of no tile (a red tile other than a five) holds None
_CODE_BY_SORT_KEY = {t.sort_key: t._code for t in _ALL_TILES}
_PREBUILT_BY_KEY = {
    kind: [
        [by_code[_CODE_BY_SORT_KEY[k >> 1]][k & 1] if (k >> 1) in _CODE_BY_SORT_KEY else None for k in range(136)]
        for by_code in _PREBUILT[kind]
    ]
    for kind in (DISCARD, RIICHI)
}


class PlayState(Protocol):
    """The state the rules code reads: one seat's own :class:`SeatState` (``seats[seat]``; its ``tiles`` are tile
    ids 0-135 under the hand's red-five setting) and what every seat sees of the hand."""

    rules: Ruleset
    seats: list[SeatState]
    phase: str
    drawn: int | None
    drawn_rinshan: bool
    last_discard: tuple[int, int] | None
    kakan_tile: int | None
    dealer: int
    round_wind: int
    scores: list[int]
    won: list[bool]
    first_go_around: bool
    has_discarded: list[bool]
    kan_owners: list[int]
    rinshan_taken: int
    _tiles: list[Tile]
    _keys: list[int]
    _jielu: bool
    _furiten: bool
    _dead_wall: bool
    _fan_table: Any
    _called_kuikae: frozenset[int]
    _waits_before_draw: Sequence[int]

    @property
    def tiles_left(self) -> int: ...

    def _seat_wind(self, seat: int) -> int: ...

    def _dora_ids(self) -> list[int]: ...

    def _ura_ids(self) -> list[int]: ...

    def _next_active(self, seat: int) -> int: ...

    def _discard_choices(self, seat: int, exclude: frozenset[int] = ...) -> list[int]: ...

    def _kan_actions(self, seat: int) -> list[Action]: ...

    def _kan_possible(self) -> bool: ...

    def _riichi_allowed(self, seat: int) -> bool: ...

    def _kyuushu_allowed(self, seat: int) -> bool: ...

    def _ankan_keeps_riichi_hand(self, seat: int, kind: int) -> bool: ...

    def _win_moment(self, seat: int, tsumo: bool, chankan: bool) -> dict[str, bool]: ...

    def _win_conditions(
        self, seat: int, tile: int, tsumo: bool, chankan: bool = ..., **extra: Any
    ) -> WinConditions: ...

    def _win_hand(self, seat: int, tile: int, tsumo: bool) -> Hand: ...

    def _win_score(
        self,
        seat: int,
        tile: int,
        tsumo: bool,
        chankan: bool = ...,
        discarder: int | None = ...,
        honba: int = ...,
        deposits: int = ...,
    ) -> ScoreResult | None: ...

    def _pao_for(self, seat: int, result: ScoreResult) -> int | None: ...

    def _pon_options(self, seat: int, kind: int, tile: Tile) -> list[Action]: ...

    def _chi_options(self, seat: int, kind: int, tile: Tile) -> list[Action]: ...

    def _distinct_tiles(self, st: SeatState, kind: int) -> list[Tile]: ...

    def _has_discard_after_call(self, seat: int, consumed: tuple[Tile, ...], forbidden: set[int]) -> bool: ...

    def _jielu_may_win(self, seat: int, tile: int, tsumo: bool, chankan: bool = ...) -> bool: ...


def jielu_can_win_counts(counts: list[int], melds: Sequence[Meld], flags: dict[str, bool], table: Any) -> bool:
    """:func:`jantaku.jielu.can_win_counts` for closed counts, declared melds and the moment's
    :func:`~jantaku.table.circumstances.win_flags`, imported on first use (riichi games never load the 洁律
    scorer)."""
    return _jielu_check()(counts, melds, flags, table)


@cache
def _jielu_check() -> Any:
    """The body of :func:`jielu_can_win_counts`, built once: the imports happen on the first 洁律 check only. It
    asks the compiled check as :func:`jantaku.jielu.can_win_counts` does, with the meld codes and incidental fans
    of each (fan table, melds, moment) found once: the table asks on every discard, and these rarely change."""
    from jantaku.jielu.conditions import moment_flags
    from jantaku.jielu.melds import code_of_meld
    from jantaku.jielu.wholehand import incidental_fans
    from jantaku.jielu.wincheck import win_check

    checkers: dict[tuple[Any, ...], Callable[[list[int]], bool]] = {}

    def check(counts: list[int], melds: Sequence[Meld], flags: dict[str, bool], table: Any) -> bool:
        key = (table, tuple(melds), *flags.values())
        checker = checkers.get(key)
        if checker is None:
            if len(checkers) > 4096:
                checkers.clear()
            fixed = tuple(code_of_meld(m) for m in melds)
            incidental = incidental_fans(**moment_flags(**flags), table=table)
            checker = checkers[key] = win_check(table).checker(fixed, incidental)
        return checker(counts)

    return check


# -- answering a discard or a kan ------------------------------------------------------------------------------


def response_options(table: PlayState, seat: int, discarder: int, tid: int) -> list[Action] | None:
    """What ``seat`` may answer to ``discarder``'s discard of tile id ``tid`` (ron, pon, open kan, chi, and
    pass), or ``None`` when it is not asked. A winning tile the seat may not take (furiten, no yaku) makes it
    furiten here (000 Art 64); one it may take does when it passes (the engine's resolution)."""
    st = table.seats[seat]
    if st.dead or table.won[seat]:
        return None
    kind = tid >> 2
    tile = table._tiles[tid]
    acts: list[Action] | None = None
    if table._jielu:
        if table._jielu_may_win(seat, tid, tsumo=False):
            acts = [Action(RON, seat, tile)]
    else:
        waits = st._waits
        if waits is None:
            # SeatState.waits' first test, inlined: a hand whose shanten floor is 1 or more has no waits
            waits = _NO_WAITS if st.shanten_floor >= 1 else st.waits()
        if kind in waits:
            if not st.furiten and table._win_score(seat, tid, tsumo=False, discarder=discarder) is not None:
                acts = [Action(RON, seat, tile)]
            elif table._furiten:
                # a winning tile it may not take (furiten, no yaku) still makes it furiten (000 Art 64)
                st.miss_winning_tile()
    # no calls on the last discard unless the rule set allows them (004 海底牌可副露开杠)
    if not st.riichi and (table.tiles_left > 0 or table.rules.last_discard_calls):
        n = st.counts[kind]
        if n >= 2:
            acts = (acts or []) + table._pon_options(seat, kind, tile)
            if n >= 3 and table._kan_possible():
                ids = [i for i in st.tiles if i >> 2 == kind]
                acts.append(Action(DAIMINKAN, seat, tile, tuple(sorted(table._tiles[i] for i in ids))))
        # the next player still in the hand may chi (winners have left it under 洁律's points mode)
        chi_seat = (discarder + 1) % 4
        if table.won[chi_seat]:
            chi_seat = table._next_active(discarder)
        # holds_run_partners: chi_options' own first test, saving the call
        if seat == chi_seat and kind < 27 and holds_run_partners(st.counts, kind):
            chi = table._chi_options(seat, kind, tile)
            if chi:
                acts = (acts or []) + chi
    if acts:
        acts.append(_PASS_ACTIONS[seat])
    return acts


def chankan_options(table: PlayState, other: int, seat: int, tid: int, kokushi_only: bool) -> list[Action] | None:
    """What ``other`` may answer to ``seat``'s added kan of tile id ``tid`` (or its closed kan, which only
    thirteen orphans may rob where the rule set lets it: ``kokushi_only``): rob it or pass, or ``None`` when it
    is not asked. A kan it could rob but may not (furiten, no yaku) makes it furiten (000 Art 64)."""
    st = table.seats[other]
    if st.dead or table.won[other]:
        return None
    kind = tid >> 2
    if table._jielu:
        if not kokushi_only and table._jielu_may_win(other, tid, tsumo=False, chankan=True):
            return [Action(RON, other, table._tiles[tid], ()), Action(PASS, other)]
        return None
    if kind not in st.waits():
        return None
    robbable = not (kokushi_only and (st.melds or shanten_forms(st.counts).kokushi != 0))
    if robbable and not st.furiten and table._win_score(other, tid, tsumo=False, chankan=True, discarder=seat):
        return [Action(RON, other, table._tiles[tid], ()), Action(PASS, other)]
    if robbable and table._furiten:
        st.miss_winning_tile()
    return None


# -- the own turn, calls and wins ------------------------------------------------------------------------------


def discard_choices(table: PlayState, seat: int, exclude: frozenset[int] = frozenset()) -> list[int]:
    """The discard keys (see :data:`_PREBUILT_BY_KEY`), sorted, of each distinct tile that may be discarded:
    after a draw the drawn tile's key has the tsumogiri bit, and its key without the bit stays only if
    another tile of the hand has it; ``exclude`` (kinds) is used after a call, when there is no drawn tile."""
    keys = table._keys
    tiles = table.seats[seat].tiles
    if table.phase == DRAWN:
        drawn = table.drawn
        assert drawn is not None
        # the other tiles' keys (the drawn tile is the last one added), then the drawn tile's with the bit
        found = set(map(keys.__getitem__, tiles[:-1])) if tiles[-1] == drawn else {keys[i] for i in tiles if i != drawn}
        found.add(keys[drawn] + 1)
        return sorted(found)
    found = {keys[i] for i in tiles if (i >> 2) not in exclude} if exclude else set(map(keys.__getitem__, tiles))
    return sorted(found)


def prebuilt(kind: str, seat: int, choices: list[int]) -> list[Action]:
    """The prebuilt discard or riichi actions of ``seat`` for sorted discard keys."""
    by_key = _PREBUILT_BY_KEY[kind][seat]
    return [by_key[k] for k in choices]


def own_turn_actions(table: PlayState, seat: int) -> list[Action]:
    st = table.seats[seat]
    tiles = table._tiles
    out: list[Action] = []
    if table.phase == CALLED:
        out = table._prebuilt(DISCARD, seat, table._discard_choices(seat, table._called_kuikae))
        if table.rules.kan_after_call and not st.dead:
            out.extend(table._kan_actions(seat))  # 004 吃碰后可开杠
        return out
    drawn = table.drawn
    assert drawn is not None
    if st.dead:
        if st.riichi:
            return [_PREBUILT[DISCARD][seat][tiles[drawn]._code][1]]
        return table._prebuilt(DISCARD, seat, table._discard_choices(seat))
    if table._jielu:
        if table._jielu_may_win(seat, drawn, tsumo=True):
            out.append(Action(TSUMO, seat, tiles[drawn]))
    elif (drawn >> 2) in table._waits_before_draw and table._win_score(seat, drawn, tsumo=True) is not None:
        out.append(Action(TSUMO, seat, tiles[drawn]))
    if st.riichi:
        out.append(_PREBUILT[DISCARD][seat][tiles[drawn]._code][1])
    else:
        # table._discard_choices(seat), from the seat's sorted keys (every turn): the drawn tile's key gets
        # the tsumogiri bit, and keeps its place without it only if another tile has it
        kd = table._keys[drawn]
        choices = list(st.keys)
        i = bisect_left(choices, kd)
        if st.key_counts[kd] == 1:
            choices[i] = kd + 1
        else:
            choices.insert(i + 1, kd + 1)
        out.extend(map(_PREBUILT_BY_KEY[DISCARD][seat].__getitem__, choices))
        # one draw lowers shanten by one at most, and the 14-tile shanten is the best over discards: only a
        # hand that was 1-shanten or better before the draw can have riichi discards
        if st.shanten13 <= 1 and table._riichi_allowed(seat) and shanten(st.counts) <= 0:
            counts = st.counts
            tenpai_choices = []
            for k in choices:
                counts[k >> 2] -= 1
                if shanten(counts) == 0:
                    tenpai_choices.append(k)
                counts[k >> 2] += 1
            out.extend(table._prebuilt(RIICHI, seat, tenpai_choices))
    if st.melds or 4 in st.counts:  # _kan_actions' own first test, saving the call on most turns
        out.extend(table._kan_actions(seat))
    if table.first_go_around and table._kyuushu_allowed(seat):
        out.append(Action(KYUUSHU, seat))
    return out


def riichi_allowed(table: PlayState, seat: int) -> bool:
    st = table.seats[seat]
    r = table.rules
    return (
        r.riichi
        and not st.riichi
        and st.is_closed
        and table.scores[seat] >= r.riichi_min_points
        and table.tiles_left >= r.riichi_min_wall
    )


def kan_possible(table: PlayState) -> bool:
    if len(table.kan_owners) >= table.rules.max_kans or (table._dead_wall and table.rinshan_taken >= 4):
        return False
    # 004 海底牌可副露开杠: a kan on the last tile is allowed (its replacement never comes)
    return table.tiles_left > 0 or table.rules.last_discard_calls


def kan_actions(table: PlayState, seat: int) -> list[Action]:
    st = table.seats[seat]
    counts = st.counts
    four = 4 in counts
    pons = None
    if not st.riichi:
        pon = MeldKind.PON
        for m in st.melds:  # a plain loop: most turns of an open hand find no pon whose fourth tile is held
            if m.kind is pon and counts[m.tiles[0].kind]:  # m.kind34
                if pons is None:
                    pons = [m]
                else:
                    pons.append(m)
    if not (four or pons) or not table._kan_possible():
        return []
    tiles = table._tiles
    out: list[Action] = []
    for k in range(34) if four else ():
        if counts[k] != 4:
            continue
        ids = [i for i in st.tiles if i >> 2 == k]
        if st.riichi and not table._ankan_keeps_riichi_hand(seat, k):
            continue
        out.append(Action(ANKAN, seat, tiles[ids[0]], tuple(sorted(tiles[i] for i in ids))))
    for m in pons or ():
        added = next(i for i in st.tiles if i >> 2 == m.kind34)
        out.append(Action(KAKAN, seat, tiles[added], m.tiles))
    return out


def ankan_keeps_riichi_hand(table: PlayState, seat: int, kind: int) -> bool:
    """Kan after riichi: only with the drawn tile, and only if waits and every reading keep that pung."""
    if table.rules.kan_after_riichi == "none" or table.drawn is None or table.drawn >> 2 != kind:
        return False
    if table.rules.kan_after_riichi == "closed_same_yaku" and table.kan_owners.count(seat) >= 2:
        # 001 4章5条2 (也不可以增减手役的数量): a third kan adds sankantsu, a fourth makes suukantsu. Nothing
        # else can change: the pung is in every reading of every wait (checked below), so it already counted
        # as a concealed pung, and a pung and a kan make the same yaku otherwise.
        return False
    st = table.seats[seat]
    before = list(st.counts)
    before[kind] -= 1  # the 13 tiles before the draw
    after = list(before)
    after[kind] -= 3
    waits_before = wait_kinds(before)
    if not waits_before or wait_kinds(after) != waits_before:
        return False
    for w in waits_before:
        before[w] += 1
        decs = decompositions_of_bytes(bytes(before))
        before[w] -= 1
        if any(d.form != "regular" or kind not in d.pungs for d in decs):
            return False
    return True


def kyuushu_allowed(table: PlayState, seat: int) -> bool:
    if not table.first_go_around or table.has_discarded[seat] or table.drawn_rinshan:
        return False
    if "nine_terminals" not in table.rules.abortive_draws:
        return False
    return sum(1 for k in _YAOCHU if table.seats[seat].counts[k]) >= 9


def win_moment(table: PlayState, seat: int, tsumo: bool, chankan: bool) -> dict[str, bool]:
    """The flags the moment of a win sets (:func:`~jantaku.table.circumstances.win_flags`), for the win's
    conditions and for the 洁律 legal-win check alike."""
    return win_flags(
        tsumo=tsumo,
        first_turn=table.first_go_around and not table.has_discarded[seat],
        dealer=seat == table.dealer,
        last_tile=table.tiles_left == 0,
        rinshan=table.drawn_rinshan,
        chankan=chankan,
        renhou=table.rules.renhou != "none",
    )


def win_conditions(
    table: PlayState, seat: int, tile: int, tsumo: bool, chankan: bool = False, **extra: Any
) -> WinConditions:
    st = table.seats[seat]
    ura: list[Tile] = []
    if st.riichi and table.rules.ura_dora:
        ura = [table._tiles[i] for i in table._ura_ids()]
    flags = table._win_moment(seat, tsumo, chankan)
    return WinConditions(
        win=table._tiles[tile],
        riichi=st.riichi,
        double_riichi=st.double_riichi,
        ippatsu=st.ippatsu and table.rules.ippatsu,
        **flags,
        seat_wind=table._seat_wind(seat),
        round_wind=table.round_wind,
        dora=tuple(table._tiles[i] for i in table._dora_ids()),
        ura=tuple(ura),
        winner=seat,
        **extra,
    )


def win_hand(table: PlayState, seat: int, tile: int, tsumo: bool) -> Hand:
    st = table.seats[seat]
    closed = [table._tiles[i] for i in st.tiles]
    if not tsumo:
        closed.append(table._tiles[tile])
    return Hand(tuple(closed), tuple(st.melds))


def offered_win(table: PlayState, seat: int, action: Action) -> tuple[Hand, WinConditions] | None:
    """The hand and the conditions ``seat``'s offered win ``action`` (a tsumo on its drawn tile, a ron on the
    last discard, or robbing the kan on the table) would be scored on, or ``None`` when no such tile is there."""
    tsumo = action.kind == TSUMO
    chankan = False
    if tsumo:
        tid = table.drawn
    elif table.kakan_tile is not None:
        tid, chankan = table.kakan_tile, True
    else:
        tid = table.last_discard[1] if table.last_discard is not None else None
    if tid is None:
        return None
    return table._win_hand(seat, tid, tsumo), table._win_conditions(seat, tid, tsumo, chankan)


def win_score(
    table: PlayState,
    seat: int,
    tile: int,
    tsumo: bool,
    chankan: bool = False,
    discarder: int | None = None,
    honba: int = 0,
    deposits: int = 0,
) -> ScoreResult | None:
    """The score of ``seat`` winning on ``tile``, or ``None`` if it is not a legal win (no yaku)."""
    hand = table._win_hand(seat, tile, tsumo)
    if not table.rules.honba_points:
        honba = 0  # a rule set without honba (μ) pays none, whatever the counter says
    try:
        cond = table._win_conditions(seat, tile, tsumo, chankan, discarder=discarder, honba=honba, deposits=deposits)
        result = score_hand(hand, cond, table.rules)
    except ScoringError:
        return None
    pao = table._pao_for(seat, result)
    if pao is not None:
        cond = table._win_conditions(
            seat, tile, tsumo, chankan, discarder=discarder, honba=honba, deposits=deposits, pao=pao
        )
        result = score_hand(hand, cond, table.rules)
    return result


def pao_for(table: PlayState, seat: int, result: ScoreResult) -> int | None:
    if not result.yakuman:
        return None
    liabilities = table.seats[seat].pao
    for name, _ in result.yaku:
        if name in liabilities and name in table.rules.pao:
            return liabilities[name]
    return None


def pon_options(table: PlayState, seat: int, kind: int, tile: Tile) -> list[Action]:
    st = table.seats[seat]
    if kind >= 27 or kind % 9 != 4:  # no red copy: one pair (the caller checked there are two tiles)
        plain = table._tiles[4 * kind + 1]
        pairs: list[tuple[Tile, Tile]] | set[tuple[Tile, Tile]] = [(plain, plain)]
    else:
        pairs = set()
        ids = [table._tiles[i] for i in st.tiles if i >> 2 == kind]
        for a in range(len(ids)):
            for b in range(a + 1, len(ids)):
                x, y = sorted((ids[a], ids[b]))
                pairs.add((x, y))
    out = []
    for pair in sorted(pairs):
        if table.rules.kuikae == "forbidden" and not table._has_discard_after_call(seat, pair, {kind}):
            continue
        out.append(Action(PON, seat, tile, pair))
    return out


def holds_run_partners(counts: Sequence[int], kind: int) -> bool:
    """Whether a hand with these 34 ``counts`` holds two tiles that make a run with a suited tile of ``kind``
    (the test before any chi: the engine asks the next seat about a chi only then).

    >>> c = [0] * 34
    >>> c[1] = c[2] = 1  # 2m 3m
    >>> holds_run_partners(c, 0), holds_run_partners(c, 3), holds_run_partners(c, 4)
    (True, True, False)
    """
    n = kind % 9
    below = n >= 1 and counts[kind - 1]
    above = n <= 7 and counts[kind + 1]
    return bool((below and above) or (below and n >= 2 and counts[kind - 2]) or (above and n <= 6 and counts[kind + 2]))


def chi_options(table: PlayState, seat: int, kind: int, tile: Tile) -> list[Action]:
    st = table.seats[seat]
    n = kind % 9
    c = st.counts
    if not holds_run_partners(c, kind):
        return []
    out = []
    for lo in (n - 2, n - 1, n):
        if lo < 0 or lo > 6:
            continue
        # the run's two other kinds (the called tile is at n)
        first = kind - n + lo
        need_a, need_b = (
            (first + 1, first + 2) if lo == n else ((first, first + 2) if lo == n - 1 else (first, first + 1))
        )
        if not (c[need_a] and c[need_b]):
            continue
        # every distinct choice of tiles (a red five or a plain one)
        choices_a = table._distinct_tiles(st, need_a)
        choices_b = table._distinct_tiles(st, need_b)
        forbidden = {kind}
        if lo == n and n + 3 <= 8:
            forbidden.add(kind + 3)  # called the low end: the tile above the run is the same swap
        if lo == n - 2 and n - 3 >= 0:
            forbidden.add(kind - 3)
        for a in choices_a:
            for b in choices_b:
                if table.rules.kuikae == "forbidden" and not table._has_discard_after_call(seat, (a, b), forbidden):
                    continue
                out.append(Action(CHI, seat, tile, (a, b)))
    return out


def distinct_tiles(table: PlayState, st: SeatState, kind: int) -> list[Tile]:
    """The distinct tiles (a red five, a plain one) of ``kind`` in a hand that holds at least one, sorted."""
    if kind % 9 != 4:  # not a five (no honor is called into a chi): id 4k+1 is never red
        return [table._tiles[4 * kind + 1]]
    return sorted({table._tiles[i] for i in st.tiles if i >> 2 == kind})


def has_discard_after_call(table: PlayState, seat: int, consumed: tuple[Tile, ...], forbidden: set[int]) -> bool:
    """After the call, is some tile left that kuikae does not forbid?"""
    st = table.seats[seat]
    counts = st.counts
    left = len(st.tiles) - len(consumed)  # the closed tiles (``counts`` mirrors ``tiles``)
    blocked = 0
    for k in forbidden:
        blocked += counts[k]
    if left > blocked:  # enough tiles even if none of the forbidden ones were consumed (most calls)
        return True
    for t in consumed:
        if t.kind in forbidden:
            blocked -= 1
    return left - blocked > 0


def jielu_may_win(table: PlayState, seat: int, tile: int, tsumo: bool, chankan: bool = False) -> bool:
    """The 洁律 legal-win check: some choice of wildcards makes the hand worth 1 point or more (the win's
    incidental fans included; a rule set's ``jielu_min_score`` and ``jielu_max_wildcards``, carried by its fan
    table, raise the least score and cap the wildcards); it is not gated by waits, and there is no furiten (004
    无振听).

    It runs on every discard for every other seat, so it passes the hand as counts and the moment as flags
    (:func:`jantaku.jielu.can_win_counts`), not as a :class:`Hand` and :class:`WinConditions`."""
    st = table.seats[seat]
    counts = st.counts.copy()  # the closed tiles' kinds (the drawn tile among them)
    if not tsumo:
        counts[tile >> 2] += 1  # a tile id's kind (as _tables_for builds the tiles)
    try:
        return jielu_can_win_counts(counts, st.melds, table._win_moment(seat, tsumo, chankan), table._fan_table)
    except JantakuError:
        return False


def note_pao(table: PlayState, seat: int, discarder: int, meld: Meld) -> None:
    """A call that completes the third dragon set, fourth wind set or fourth kan makes its feeder liable."""
    st = table.seats[seat]
    sets = [m.kind34 for m in st.melds if m.kind is not MeldKind.CHI]
    if not table.rules.pao_shown_sets:  # 000 Art 67 read literally: concealed sets count too
        sets += [h for h in range(27, 34) if st.counts[h] >= 3]
    k = meld.kind34
    if k in (31, 32, 33) and all(d in sets for d in (31, 32, 33)):
        st.pao.setdefault("daisangen", discarder)
    if k in (27, 28, 29, 30) and all(w in sets for w in (27, 28, 29, 30)):
        st.pao.setdefault("daisuushii", discarder)
    if meld.kind is MeldKind.MINKAN and sum(1 for m in st.melds if m.is_kan) == 4:
        st.pao.setdefault("suukantsu", discarder)


def tenpai(table: PlayState, seat: int) -> bool:
    st = table.seats[seat]
    if st.dead:
        return False  # 000 Art 72: a dead hand counts as noten
    waits = st.waits()
    if not waits:
        return False
    if table.rules.karaten_is_noten:
        used = list(st.counts)
        for m in st.melds:
            for t in m.tiles:
                used[t.kind] += 1
        if all(used[k] >= 4 for k in waits):
            return False
    return True


def may_stay_silent(table: PlayState, seat: int) -> bool:
    """Whether a tenpai ``seat`` may declare noten (``tenpai_silence``): never a riichi hand; under
    ``naked_single_wait`` only a hand of one closed tile (001 3章11条3 裸单骑; 003 3章11条3)."""
    silence = table.rules.tenpai_silence
    st = table.seats[seat]
    if silence == "none" or st.riichi:
        return False
    return silence == "anyone" or len(st.tiles) == 1


def kuikae_after_call(rules: Ruleset, call: str, kind: int, tiles: tuple[Tile, ...]) -> frozenset[int]:
    """The kinds a seat may not discard right after its chi or pon of a tile of ``kind`` (the meld's ``tiles``)
    where the rule set forbids kuikae: the called kind, and for a chi called at one end the kind that makes the
    same run with the other two (食替: 001 7章2条2(3) and 003 7章2条2(3) make it a dead hand). Empty where
    kuikae is allowed."""
    if rules.kuikae != "forbidden":
        return _NO_KINDS
    forbidden = {kind}
    if call == CHI:
        lo = min(t.kind for t in tiles)
        if kind == lo and kind % 9 + 3 <= 8:
            forbidden.add(kind + 3)
        if kind == lo + 2 and kind % 9 - 3 >= 0:
            forbidden.add(kind - 3)
    return frozenset(forbidden)


class PlayRules:
    """The functions above as methods (``self`` the :class:`PlayState`): the engine
    (:class:`~jantaku.table.kyoku.Kyoku`) and a seat's view (:class:`~jantaku.table.seatview.SeatView`) both
    inherit them, so both offer a seat its actions with the same code."""

    _prebuilt = staticmethod(prebuilt)
    _discard_choices = discard_choices
    _own_turn_actions = own_turn_actions
    _riichi_allowed = riichi_allowed
    _kan_possible = kan_possible
    _kan_actions = kan_actions
    _ankan_keeps_riichi_hand = ankan_keeps_riichi_hand
    _kyuushu_allowed = kyuushu_allowed
    _win_moment = win_moment
    _win_conditions = win_conditions
    _win_hand = win_hand
    _win_score = win_score
    _offered_win = offered_win
    _pao_for = pao_for
    _pon_options = pon_options
    _chi_options = chi_options
    _distinct_tiles = distinct_tiles
    _has_discard_after_call = has_discard_after_call
    _jielu_may_win = jielu_may_win
    _response_options = response_options
    _chankan_options = chankan_options
    _note_pao = note_pao
    _tenpai = tenpai
    _may_stay_silent = may_stay_silent
