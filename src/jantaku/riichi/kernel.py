"""The fast path of :func:`~jantaku.riichi.scoring.score_hand`: readings as packed integers, yaku as bit tests.

The reference scorer (:func:`~jantaku.riichi.scoring.score_reference`) builds a
:class:`~jantaku.riichi.reading.Reading` per reading and asks every yaku predicate about it. This module
computes the same numbers without building any object until the winner is known:

- The hand's closed tiles are one integer of 3-bit counts per kind (:data:`TILE_BITS`), so that a suit's nine
  counts (or the seven honors) are one small integer: the *block key*. The :class:`~jantaku.hand.Hand` computes
  these on first use and keeps them (:attr:`~jantaku.hand.Hand.packed`), with its red fives and a code of its
  sorted melds.
- Per block key, a table (filled on first use, like the per-block tables of :mod:`jantaku.shapes`; keyed by
  one block's counts, never by a whole hand) holds the block's tile flags (:func:`tile_flags`) and each way to
  split it into runs, pungs and at most one pair, as one packed integer (:func:`block_value`): additive
  counters in the low 30 bits (pairs, runs, pungs, concealed pungs, pure double sequences, blocks without a
  terminal or honor, pung fu, the wait), the pair's kind and the honor pungs in the next 30, then bit masks of
  run starts and suited pungs. For the block of the winning tile a second table adds, per place the tile can
  sit, the wait (one bit), the place's rank in the reference's order and, for a ron completing a pung, the
  pung's lost concealment. Declared melds have fixed packed values, summed per meld code in a table of its own
  (:data:`MeldSummary`). A whole reading is the sum of its blocks' values and the melds' (run bits of called
  chows are OR-ed in, since a chow may repeat a run).
- The yaku then are bit tests on that one integer plus facts about the whole hand (looked up by its OR-ed tile
  flags), and the yaku list for a set of yaku is looked up in a table keyed by the bit set. Fu, points and
  payments are a few lines of arithmetic. Of readings that pay the same, the one the reference meets first
  explains the result (:func:`_met_first`).
- The result carries its fu breakdown and :class:`~jantaku.riichi.reading.Reading` lazily: they are built by
  the reference code on first access (``ScoreResult.fu_items`` / ``.reading``).

Whatever this path does not cover goes to the reference scorer (:func:`make_scorer`'s ``fallback``): a pao
player, a red five under a rule set without it, a hand that is not complete, any failed check (so that the
error is the reference's own). Both are compared field by field on many random hands under every preset and
rule variation in ``tests/test_scoring_kernel.py``.

>>> from jantaku import Hand, Tile
>>> from jantaku.riichi.conditions import WinConditions
>>> from jantaku.rules import load_rules
>>> r = score_fast(Hand.parse("234m567p456s78999s"), WinConditions(win=Tile("9s"), tsumo=True), load_rules("tenhou"))
>>> r.han, r.fu, r.points, r.yaku
(2, 20, 2100, [('menzen_tsumo', 1), ('pinfu', 1)])
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import TYPE_CHECKING, Any

from jantaku.hand import MELD_CODE_BITS, Hand, pack_hand
from jantaku.rules import Ruleset, load_rules
from jantaku.shapes.decompose import _block_readings
from jantaku.tiles import KIND_OF_CODE, NUM_KINDS, TERMINALS_AND_HONORS, dora_from_indicator

from .points import han_fu_points
from .yaku import YAKU, YAKUMAN, peikou_pairs

if TYPE_CHECKING:
    from .conditions import WinConditions
    from .result import ScoreResult

__all__ = ["TILE_BITS", "block_value", "make_scorer", "pair_of", "pung_bit", "pung_kinds", "score_fast"]

# -- the packed reading ---------------------------------------------------------------------------------------

S_NPAIR, S_NRUN, S_NPUNG, S_NCONC = 0, 3, 6, 9
"""Shifts of 3-bit additive counters: pairs, runs, pungs and kans, concealed pungs and kans."""
S_PEIKOU = 12
"""2 bits: pure double sequences."""
S_NOYAO = 14
"""3 bits: blocks (the pair included) without a terminal or honor."""
S_FU = 17
"""8 bits: the fu of the pungs and kans."""
S_WAIT = 25
"""5 bits, one set: the wait the winning tile completed (:data:`RYANMEN` ...). The fields up to here fit in the
low 30 bits (:data:`M_LOW_WORD`), which the scorer reads as one small integer."""
S_PAIR = 30
"""6 bits: the pair's kind + 1."""
S_HONOR_PUNGS = 36
"""7 bits: the honors with a pung or kan (East ... Red)."""
S_PLACE = 43
"""4 bits: where the winning tile sits, in the reference's order within one split: 0 the pair, 1 a pung, 2 + the
start of a run (position in the suit). The fields from :data:`S_PAIR` to here are the second 30-bit word."""
S_RUNS = 60
"""21 bits: run starts, bit ``7 * suit + position``."""
S_PUNGS = 81
"""27 bits: the suited kinds with a pung or kan."""
M_LOW_WORD = (1 << 30) - 1


def pung_bit(kind: int) -> int:
    """The bit of a pung (or kan) of ``kind`` in a packed reading."""
    return 1 << (S_PUNGS + kind if kind < 27 else S_HONOR_PUNGS + kind - 27)


def pung_kinds(p: int) -> list[int]:
    """The kinds with a pung or kan in a packed reading, ascending.

    >>> pung_kinds(pung_bit(3) | pung_bit(33) | pung_bit(27))
    [3, 27, 33]
    """
    suited = p >> S_PUNGS
    honors = p >> S_HONOR_PUNGS & 127
    return [k for k in range(27) if suited >> k & 1] + [27 + k for k in range(7) if honors >> k & 1]


def pair_of(p: int) -> int:
    """The pair's kind in a packed reading."""
    return (p >> S_PAIR & 63) - 1


RYANMEN, KANCHAN, PENCHAN, TANKI, SHANPON = 1, 2, 4, 8, 16
WAIT_NAMES = {RYANMEN: "ryanmen", KANCHAN: "kanchan", PENCHAN: "penchan", TANKI: "tanki", SHANPON: "shanpon"}
_FU_WAITS = KANCHAN | PENCHAN | TANKI

TILE_BITS = 3
"""Bits per kind in a hand's count integer (:attr:`~jantaku.hand.Hand.packed`)."""
M_COUNTS = (1 << 34 * TILE_BITS) - 1
M_SUIT = (1 << 9 * TILE_BITS) - 1

_YAOCHU = frozenset(TERMINALS_AND_HONORS)
_FIVES = frozenset((4, 13, 22))
_GREEN = frozenset((19, 20, 21, 23, 25, 32))


def _kind_mask(kinds: object) -> int:
    """The count-field mask (all 3 bits) of the given kinds."""
    return sum(7 << TILE_BITS * k for k in kinds)  # type: ignore[attr-defined]


M_YAOCHU = _kind_mask(_YAOCHU)
M_SIMPLE = M_COUNTS & ~M_YAOCHU
M_LOW = sum(1 << TILE_BITS * k for k in range(34))
"""Bit 0 of every count field."""
M_TWO_OR_FOUR = M_COUNTS & ~(M_LOW << 1)
"""Bits 0 and 2 of every field: zero exactly when every count is 0 or 2."""

_DORA_SHIFT = tuple(TILE_BITS * dora_from_indicator(KIND_OF_CODE[code]) for code in range(37))

_ITTSU0, _ITTSU1, _ITTSU2 = (0b1001001 << 7 * s for s in range(3))


def block_value(block: int, runs: tuple[int, ...], pungs: tuple[int, ...], pair: int) -> int:
    """The packed value of one block's split (closed tiles): positions within block ``block`` (0-2 suits, 3
    honors); every pung counts as concealed (the winning tile's place may change that).

    >>> v = block_value(0, (0, 0), (8,), 4)  # 123m 123m 999m 55m
    >>> (v >> S_NRUN) & 7, (v >> S_PEIKOU) & 3, (v >> S_FU) & 255, pair_of(v), pung_kinds(v)
    (2, 1, 8, 4, [8])
    """
    start = 9 * block
    v = 0
    for r in runs:
        v += 1 << S_NRUN
        v |= 1 << (S_RUNS + 7 * block + r)
        if r % 9 not in (0, 6):
            v += 1 << S_NOYAO
    for p in pungs:
        kind = start + p
        v += (1 << S_NPUNG) + (1 << S_NCONC) + pung_bit(kind)
        v += (8 if kind in _YAOCHU else 4) << S_FU
        if kind not in _YAOCHU:
            v += 1 << S_NOYAO
    if pair >= 0:
        kind = start + pair
        v += (1 << S_NPAIR) + ((kind + 1) << S_PAIR)
        if kind not in _YAOCHU:
            v += 1 << S_NOYAO
    return v + (peikou_pairs(sorted(runs)) << S_PEIKOU)


def _decode(key: int, n: int) -> bytes:
    return bytes((key >> TILE_BITS * i) & 7 for i in range(n))


F_HONOR, F_YAOCHU, F_SIMPLE, F_NOT_GREEN, F_HATSU = 8, 16, 32, 64, 128
"""Flags of the tiles of a block or meld (OR-ed over the hand): bit ``suit`` (1 m, 2 p, 4 s) when a suit is
present, then honors, a terminal or honor, a simple (2-8), a tile that is not green, the green dragon."""


def tile_flags(kinds: list[int]) -> int:
    """The flags (:data:`F_HONOR` ...) of some tiles, by kind.

    >>> tile_flags([0, 8]) == 1 | F_YAOCHU | F_NOT_GREEN
    True
    >>> tile_flags([19, 32]) == 4 | F_SIMPLE | F_HONOR | F_YAOCHU | F_HATSU
    True
    """
    flags = 0
    for k in kinds:
        flags |= F_HONOR if k >= 27 else 1 << k // 9
        flags |= F_YAOCHU if k in _YAOCHU else F_SIMPLE
        if k not in _GREEN:
            flags |= F_NOT_GREEN
        if k == 32:
            flags |= F_HATSU
    return flags


def _block_flags(counts: bytes, block: int) -> int:
    return tile_flags([9 * block + i for i, n in enumerate(counts) if n])


MAX_TABLE_ENTRIES = 1 << 18
"""A table is emptied when it reaches this size (play fills them with a few thousand block patterns; only
scoring huge numbers of arbitrary hands would go further)."""


def _keep(table: dict[int, Any], key: int, value: Any) -> None:
    if len(table) >= MAX_TABLE_ENTRIES:
        table.clear()
    table[key] = value


def _entry(flags: int, values: list[int]) -> tuple[Any, ...]:
    """A table entry: the block's flags, its only value (``None`` unless there is exactly one), every value."""
    return (flags, values[0] if len(values) == 1 else None, *values)


class _BlockTable(dict[int, tuple[Any, ...]]):
    """Block key -> the block's flags, its only split's packed value (or ``None``), the packed values of every
    split (none when it cannot be split)."""

    def __init__(self, block: int) -> None:
        super().__init__()
        self.block = block

    def __missing__(self, key: int) -> tuple[Any, ...]:
        block = self.block
        counts = _decode(key, 7 if block == 3 else 9)
        splits = _block_readings(counts, block != 3)
        value = _entry(
            _block_flags(counts, block), [block_value(block, runs, pungs, pair) for runs, pungs, pair in splits]
        )
        _keep(self, key, value)
        return value


_B0, _B1, _B2, _B3 = _BLOCKS = (_BlockTable(0), _BlockTable(1), _BlockTable(2), _BlockTable(3))


class _PlacedTable(dict[int, tuple[Any, ...]]):
    """``(block key << 7) | (winning kind << 1) | tsumo`` -> as :class:`_BlockTable`, with the winning tile in
    each place it can sit in each split (wait bit set; a ron's pung counted open), distinct values in the
    reference's order."""

    def __missing__(self, key: int) -> tuple[Any, ...]:
        tsumo = key & 1
        win = (key >> 1) & 63
        block = win // 9
        pos = win - 9 * block
        counts = _decode(key >> 7, 7 if block == 3 else 9)
        splits = _block_readings(counts, block != 3)
        out: dict[int, int] = {}  # value without the place -> with it (the first place of a reading counts)
        for runs, pungs, pair in splits:
            base = block_value(block, runs, pungs, pair)
            if pair == pos:
                out.setdefault(base + (TANKI << S_WAIT), 0)
            if pos in pungs:
                v = base + (SHANPON << S_WAIT)
                if not tsumo:  # the pung was completed by another player's tile: open, half the fu
                    v -= (1 << S_NCONC) + ((4 if win in _YAOCHU else 2) << S_FU)
                out.setdefault(v, 1)
            if block != 3:
                for r in runs:
                    if r <= pos <= r + 2:
                        out.setdefault(base + (_run_wait(r, pos) << S_WAIT), 2 + r)
        value = _entry(_block_flags(counts, block), [v + (place << S_PLACE) for v, place in out.items()])
        _keep(self, key, value)
        return value


def _run_wait(start: int, pos: int) -> int:
    """The wait bit of a run starting at ``start`` completed by ``pos`` (positions in a suit)."""
    d = pos - start
    if d == 1:
        return KANCHAN
    if d == 0:
        return PENCHAN if start == 6 else RYANMEN
    return PENCHAN if start == 0 else RYANMEN


_PLACED = _PlacedTable()

# -- called melds, by meld kind * 34 + kind ------------------------------------------------------------------------


def _meld_entry(mk: int, kind: int) -> tuple[int, int, int, bool, int] | None:
    """(additive value, run bit, tile counts, holds a five, flags) of a called meld: chow, pung, open kan, added
    kan or closed kan (``mk`` 0-4) of ``kind`` (its first tile)."""
    if mk == 0:  # chow
        if kind >= 27 or kind % 9 > 6:
            return None
        value = 1 << S_NRUN
        if kind % 9 not in (0, 6):
            value += 1 << S_NOYAO
        counts = sum(1 << TILE_BITS * (kind + i) for i in range(3))
        run_bit = 1 << (S_RUNS + 7 * (kind // 9) + kind % 9)
        return value, run_bit, counts, 2 <= kind % 9 <= 4, tile_flags([kind, kind + 1, kind + 2])
    yao = kind in _YAOCHU
    value = (1 << S_NPUNG) + pung_bit(kind)
    if not yao:
        value += 1 << S_NOYAO
    fu = 4 if yao else 2
    if mk >= 2:
        fu *= 4
    if mk == 4:
        value += 1 << S_NCONC
        fu *= 2
    counts = (4 if mk >= 2 else 3) << TILE_BITS * kind
    return value + (fu << S_FU), 0, counts, kind < 27 and kind % 9 == 4, tile_flags([kind])


_MELD_TABLE = tuple(_meld_entry(mk, kind) for mk in range(5) for kind in range(34))

MeldSummary = tuple[bool, int, int, int, int, int, int]
"""What the kernel reads of a hand's melds: (menzen, kans, sum of additive values, OR of run bits, tile counts,
OR of tile flags, red fives)."""


class _MeldsTable(dict[int, "MeldSummary | None"]):
    """A hand's meld code (:attr:`~jantaku.hand.Hand.packed`, the melds sorted) -> :data:`MeldSummary`, or ``None``
    for a meld the kernel does not know."""

    def __missing__(self, key: int) -> MeldSummary | None:
        menzen, kans, m_value, m_runs, k_melds, m_flags, red = True, 0, 0, 0, 0, 0, 0
        value: MeldSummary | None = None
        rest = key
        while rest:
            code = (rest & (1 << MELD_CODE_BITS) - 1) - 1
            rest >>= MELD_CODE_BITS
            mk, kind = divmod(code >> 1, 34)
            entry = _MELD_TABLE[34 * mk + kind]
            if entry is None:
                break
            m_value += entry[0]
            m_runs |= entry[1]
            k_melds += entry[2]
            m_flags |= entry[4]
            red += code & 1
            menzen = menzen and mk == 4
            kans += mk >= 2
        else:
            value = (menzen, kans, m_value, m_runs, k_melds, m_flags, red)
        _keep(self, key, value)
        return value


_MELDS = _MeldsTable()

# -- yaku and yakuman as bits (their index in YAKU / YAKUMAN) ----------------------------------------------------

_Y = {y.name: i for i, y in enumerate(YAKU)}
_YM = {y.name: i for i, y in enumerate(YAKUMAN)}
B_MENZEN_TSUMO = 1 << _Y["menzen_tsumo"]
B_RIICHI = 1 << _Y["riichi"]
B_DOUBLE_RIICHI = 1 << _Y["double_riichi"]
B_IPPATSU = 1 << _Y["ippatsu"]
B_CHANKAN = 1 << _Y["chankan"]
B_RINSHAN = 1 << _Y["rinshan_kaihou"]
B_HAITEI = 1 << _Y["haitei"]
B_HOUTEI = 1 << _Y["houtei"]
B_PINFU = 1 << _Y["pinfu"]
B_TANYAO = 1 << _Y["tanyao"]
B_IIPEIKOU = 1 << _Y["iipeikou"]
B_SEAT = 1 << _Y["yakuhai_seat_wind"]
B_ROUND = 1 << _Y["yakuhai_round_wind"]
B_HAKU = 1 << _Y["yakuhai_haku"]
B_CHIITOITSU = 1 << _Y["chiitoitsu"]
B_CHANTA = 1 << _Y["chanta"]
B_ITTSU = 1 << _Y["ittsu"]
B_SANSHOKU = 1 << _Y["sanshoku"]
B_DOUKOU = 1 << _Y["sanshoku_doukou"]
B_SANKANTSU = 1 << _Y["sankantsu"]
B_TOITOI = 1 << _Y["toitoi"]
B_SANANKOU = 1 << _Y["sanankou"]
B_SHOUSANGEN = 1 << _Y["shousangen"]
B_HONROUTOU = 1 << _Y["honroutou"]
B_RYANPEIKOU = 1 << _Y["ryanpeikou"]
B_JUNCHAN = 1 << _Y["junchan"]
B_HONITSU = 1 << _Y["honitsu"]
B_CHINITSU = 1 << _Y["chinitsu"]
B_RENHOU = 1 << _Y["renhou"]
assert [_Y["yakuhai_haku"] + i for i in range(3)] == [_Y[n] for n in ("yakuhai_haku", "yakuhai_hatsu", "yakuhai_chun")]

YM_TENHOU = 1 << _YM["tenhou"]
YM_CHIIHOU = 1 << _YM["chiihou"]
YM_RENHOU = 1 << _YM["renhou_yakuman"]
YM_DAISANGEN = 1 << _YM["daisangen"]
YM_SUUANKOU = 1 << _YM["suuankou"]
YM_SUUANKOU_TANKI = 1 << _YM["suuankou_tanki"]
YM_TSUUIISOU = 1 << _YM["tsuuiisou"]
YM_RYUUIISOU = 1 << _YM["ryuuiisou"]
YM_CHINROUTOU = 1 << _YM["chinroutou"]
YM_CHUUREN = 1 << _YM["chuuren_poutou"]
YM_JUNSEI = 1 << _YM["junsei_chuuren_poutou"]
YM_KOKUSHI = 1 << _YM["kokushi_musou"]
YM_KOKUSHI13 = 1 << _YM["kokushi_musou_13"]
YM_DAISUUSHII = 1 << _YM["daisuushii"]
YM_SHOUSUUSHII = 1 << _YM["shousuushii"]
YM_SUUKANTSU = 1 << _YM["suukantsu"]

_CLOSED_ONLY_YAKUMAN = sum(1 << i for i, y in enumerate(YAKUMAN) if y.han_open is None)

YakuList = tuple[tuple[str, int], ...]


class _YakuTable(dict[int, tuple[int, YakuList]]):
    """``(yaku bits << 1) | menzen`` -> (han, (name, han) pairs in table order); a yaku with no open value is
    skipped in an open hand, as the reference does before asking its predicate."""

    def __missing__(self, key: int) -> tuple[int, YakuList]:
        menzen = key & 1
        bits = key >> 1
        found = []
        for i, y in enumerate(YAKU):
            han = y.han if menzen else y.han_open
            if han is not None and bits >> i & 1:
                found.append((y.name, han))
        value = (sum(h for _, h in found), tuple(found))
        _keep(self, key, value)
        return value


_YAKU_TABLE = _YakuTable()

# honor pung bits (7: E S W N haku hatsu chun) -> wind pungs, dragon pungs
_WIND_PUNGS = tuple(bin(m & 15).count("1") for m in range(128))
_DRAGON_PUNGS = tuple(bin(m >> 4).count("1") for m in range(128))
_HONOR_YAKUMAN = tuple(m >> 4 == 7 or _WIND_PUNGS[m] >= 3 for m in range(128))
"""Honor pungs that may make a yakuman (three dragons, three or four winds)."""
_WAIT_FU = tuple(2 if w & _FU_WAITS else 0 for w in range(32))
_FU_ROUNDED = tuple(30 if fu == 20 else -(-fu // 10) * 10 for fu in range(512))
"""Fu rounded up to tens; 20 is an open ron with no fu at all (a tsumo counts 22, a closed ron 30), paid as 30."""
_POS_SHIFT = tuple(TILE_BITS * (kind % 9) for kind in range(34))
"""A kind's shift in its block key."""

# -- rule sets ------------------------------------------------------------------------------------------------


class _Compiled:
    """What the kernel reads of a rule set, read once per rule set."""

    __slots__ = (
        "all_red",
        "double",
        "double_wind_pair_fu",
        "honba_points",
        "ippatsu",
        "kazoe",
        "kiriage",
        "max_dora",
        "min_han",
        "name",
        "ok",
        "open_tanyao",
        "pair_fu",
        "permissive",
        "renhou",
        "rounded",
        "rounding",
        "rules",
        "ryuuiisou_needs_hatsu",
        "spec",
        "stacking",
        "tile_yaku",
        "ura_dora",
        "yakuman_lists",
    )

    def __init__(self, spec: object, rules: Ruleset) -> None:
        self.spec = spec
        """What the caller passed: the rule set, or a preset's name."""
        self.rules = rules
        self.ok = rules.family == "riichi"
        self.all_red = tuple(rules.red_fives) == (1, 1, 1)
        self.name = rules.name
        self.ippatsu = rules.ippatsu
        self.ura_dora = rules.ura_dora
        self.honba_points = rules.honba_points
        self.renhou = rules.renhou
        self.max_dora = 5 if rules.kan_dora else 1
        self.min_han = rules.min_han
        self.open_tanyao = rules.open_tanyao
        self.kiriage = rules.kiriage
        self.kazoe = rules.kazoe_yakuman
        self.double_wind_pair_fu = rules.double_wind_pair_fu
        self.ryuuiisou_needs_hatsu = rules.ryuuiisou_needs_hatsu
        self.stacking = rules.yakuman_stacking
        self.double = rules.double_yakuman
        self.rounding = rules.payment_rounding
        self.yakuman_lists: dict[int, tuple[int, YakuList]] = {}
        self.rounded: dict[int, tuple[int, int, int, int]] = {}
        """Basic points -> :meth:`round_up` of them (a few dozen values)."""
        self.tile_yaku = tuple(_tile_yaku(f & 63, bool(f >> 6), self.open_tanyao) for f in range(128))
        """By the hand's tile flags (suits, honors, terminals or honors, simples) and menzen * 64: the yaku bits
        these decide (tanyao, honroutou, honitsu, chinitsu), and whether an all-honors, all-green, all-terminals
        or nine-gates yakuman is possible."""
        dwpf = rules.double_wind_pair_fu
        self.pair_fu = tuple(
            tuple(2 if k >= 31 or k in (27 + seat, 27 + rnd) else 0 for k in range(34))
            if seat != rnd
            else tuple(2 if k >= 31 else dwpf if k == 27 + seat else 0 for k in range(34))
            for seat in range(4)
            for rnd in range(4)
        )
        """Fu of a pair by kind, for each seat wind * 4 + round wind."""
        self.permissive = self.ippatsu and self.ura_dora and bool(self.honba_points) and self.max_dora == 5

    def round_up(self, basic: int) -> tuple[int, int, int, int]:
        """1, 2, 4 and 6 times ``basic`` points, each rounded up to the rule set's payment unit (kept in
        :attr:`rounded`)."""
        unit = self.rounding
        value = (
            -(-basic // unit) * unit,
            -(-2 * basic // unit) * unit,
            -(-4 * basic // unit) * unit,
            -(-6 * basic // unit) * unit,
        )
        self.rounded[basic] = value
        return value

    def yakuman_list(self, bits: int) -> tuple[int, YakuList]:
        """(multiplier total, (name, multiplier) pairs) of a yakuman bit set, as the reference lists them."""
        found = [(y.name, 2 if y.name in self.double else 1) for i, y in enumerate(YAKUMAN) if bits >> i & 1]
        if not self.stacking:
            value = (1, tuple((name, 1) for name, _ in found))
        else:
            value = (sum(m for _, m in found), tuple(found))
        self.yakuman_lists[bits] = value
        return value


def _tile_yaku(flags: int, menzen: bool, open_tanyao: bool) -> tuple[int, bool]:
    suits = flags & 7
    honors = flags & F_HONOR
    one_suit = suits in (1, 2, 4)
    bits = 0
    if not flags & F_YAOCHU:
        if menzen or open_tanyao:
            bits |= B_TANYAO
    elif honors and not flags & F_SIMPLE:
        bits |= B_HONROUTOU
    if one_suit:
        bits |= B_HONITSU if honors else B_CHINITSU
    return bits, one_suit or not suits or not flags & F_SIMPLE


_COMPILED: dict[int, _Compiled] = {}


def _compiled(spec: Ruleset | str) -> _Compiled:
    """The compiled rule set of ``spec`` (a rule set or a name), kept for a rule set object or a preset name (a
    TOML file is read on every call, as :func:`~jantaku.rules.load_rules` does)."""
    rules = spec if isinstance(spec, Ruleset) else load_rules(spec)
    comp = _Compiled(spec, rules)
    if isinstance(spec, Ruleset) or (isinstance(spec, str) and not spec.endswith(".toml") and "/" not in spec):
        if len(_COMPILED) > 64:
            _COMPILED.clear()
        _COMPILED[id(spec)] = comp  # comp.spec keeps spec alive, so its id is not reused while here
    return comp


def _parse_hand(hand: object) -> Hand:
    return Hand.parse(hand) if isinstance(hand, str) else hand  # type: ignore[return-value]


# -- scoring --------------------------------------------------------------------------------------------------

Scorer = Callable[[Any, Any, Any], Any]
"""``(hand, conditions, rules) -> result``."""
_NO_CANDIDATES: tuple[int, ...] = ()


def make_scorer(fallback: Callable[[Hand, WinConditions, Ruleset], ScoreResult | None]) -> Scorer:
    """A scoring function ``(hand, conditions, rules)`` that answers like the reference scorer, and calls
    ``fallback(hand, conditions, rules)`` (a :class:`~jantaku.hand.Hand` and a :class:`~jantaku.rules.Ruleset`)
    for whatever it leaves to the reference (see the module docs). ``hand`` may be text, ``rules`` a preset name.

    Raises :class:`~jantaku.riichi.scoring.NoYakuError` with the reference's message.
    """

    last_rules: object = None  # the rule set of the previous call, and its compiled form
    last_comp: Any = None

    def score(hand: Hand | str, conditions: WinConditions, rules: Ruleset | str = "standard") -> ScoreResult | None:
        nonlocal last_rules, last_comp
        if rules is last_rules:
            comp = last_comp
        else:
            comp = _COMPILED.get(id(rules))
            if comp is None or comp.spec is not rules:
                comp = _compiled(rules)
            if _COMPILED.get(id(rules)) is comp:  # not a TOML file, which is read on every call
                last_rules, last_comp = rules, comp
        h = hand if type(hand) is Hand else _parse_hand(hand)
        c = conditions
        if not comp.ok or c.pao is not None:
            return fallback(h, c, comp.rules)
        win = c.win
        tsumo = c.tsumo
        riichi = c.riichi
        dora_ind = c.dora
        ura_ind = c.ura
        if comp.permissive:  # a rule set with ippatsu, ura and kan dora and honba refuses none of them
            if (dora_ind and len(ura_ind) > len(dora_ind)) or len(dora_ind) > 5 or (c.renhou and comp.renhou == "none"):
                return fallback(h, c, comp.rules)
        elif (
            (c.ippatsu and not comp.ippatsu)
            or (ura_ind and not comp.ura_dora)
            or (c.honba and not comp.honba_points)
            or (c.renhou and comp.renhou == "none")
            or len(dora_ind) > comp.max_dora
            or (dora_ind and len(ura_ind) > len(dora_ind))
        ):
            return fallback(h, c, comp.rules)

        # tiles -> count integers (kept by the Hand; a Hand has 13 or 14 tiles, and 13 make no complete reading
        # below: they go to the reference)
        k_closed, reds, meld_code, b0, b1, b2, b3 = h._packed or pack_hand(h)
        if meld_code:
            meld_entry = _MELDS[meld_code]
            if meld_entry is None:  # pragma: no cover - Meld validates its tiles
                return fallback(h, c, comp.rules)
            menzen, kans, m_value, m_runs, k_melds, m_flags, red = meld_entry
            if (riichi and not menzen) or (c.tenhou or c.chiihou):
                return fallback(h, c, comp.rules)
            if c.chankan and k_melds >> TILE_BITS * KIND_OF_CODE[win._code] & 7:
                return fallback(h, c, comp.rules)
        else:
            menzen = True
            kans = m_value = m_runs = k_melds = m_flags = red = 0
        if c.rinshan and not kans:
            return fallback(h, c, comp.rules)
        wcode = win._code
        wk = KIND_OF_CODE[wcode]
        if c.chankan and (k_closed >> TILE_BITS * wk & 7) > 1:
            return fallback(h, c, comp.rules)  # a robbed kan's tile held twice: the reference refuses it
        if reds:
            red += reds.bit_count()
        if red and not comp.all_red:
            return fallback(h, c, comp.rules)  # the reference checks each red five against the rule set

        # readings of the closed tiles: each block's flags, its only split (or None) and every split; w for the
        # winning tile's block, x y z for the others
        wkey = wk << 1 | tsumo
        if wk < 9:
            bw = b0
            x = _B1[b1]
            y = _B2[b2]
            z = _B3[b3]
        elif wk < 18:
            bw = b1
            x = _B0[b0]
            y = _B2[b2]
            z = _B3[b3]
        elif wk < 27:
            bw = b2
            x = _B0[b0]
            y = _B1[b1]
            z = _B3[b3]
        else:
            bw = b3
            x = _B0[b0]
            y = _B1[b1]
            z = _B2[b2]
        # the winning tile among the closed tiles (a red five and a plain five are different tiles)
        if wcode >= NUM_KINDS:
            if not reds >> (wcode - NUM_KINDS) & 1:
                return fallback(h, c, comp.rules)
        elif (bw >> _POS_SHIFT[wk] & 7) - (reds >> wk // 9 & 1 if wk in _FIVES else 0) <= 0:
            return fallback(h, c, comp.rules)
        w = _PLACED[bw << 7 | wkey]
        flags = w[0] | x[0] | y[0] | z[0] | m_flags
        sx, sy, sz = x[1], y[1], z[1]
        if sx is not None and sy is not None and sz is not None:
            rest = sx + sy + sz + m_value
            sw = w[1]
            if sw is not None:
                candidates: Any = ((rest + sw) | m_runs,)
            else:  # the winning tile in several places (or none)
                candidates = [(rest + v) | m_runs for v in w[2:]]
        elif len(x) > 2 and len(y) > 2 and len(z) > 2:
            candidates = [
                (v1 + v2 + v3 + v4 + m_value) | m_runs for v1, v2, v3, v4 in product(w[2:], x[2:], y[2:], z[2:])
            ]
        else:
            candidates = _NO_CANDIDATES
        special = 0  # 1 seven pairs, 2 thirteen orphans
        if not meld_code:
            if not k_closed & M_TWO_OR_FOUR and k_closed.bit_count() == 7:
                special = 1
            elif not k_closed & M_SIMPLE and k_closed.bit_count() in (13, 14):
                special = _kokushi(k_closed)

        # facts about the whole hand
        seat = c.seat_wind
        rnd = c.round_wind
        honors = flags & F_HONOR
        hand_bits, rare = comp.tile_yaku[flags & 63 | menzen << 6]
        if menzen and tsumo:
            hand_bits |= B_MENZEN_TSUMO
        if riichi:
            hand_bits |= B_DOUBLE_RIICHI if c.double_riichi else B_RIICHI
            if c.ippatsu:
                hand_bits |= B_IPPATSU
        if tsumo:
            if c.rinshan:
                hand_bits |= B_RINSHAN
            elif c.haitei:
                hand_bits |= B_HAITEI
        elif c.chankan:
            hand_bits |= B_CHANKAN
        elif c.houtei:
            hand_bits |= B_HOUTEI
        yakuman_hand = 0
        if kans >= 3:
            if kans == 3:
                hand_bits |= B_SANKANTSU
            else:
                yakuman_hand = YM_SUUKANTSU
        if tsumo:
            if c.tenhou:
                yakuman_hand |= YM_TENHOU
            elif c.chiihou:
                yakuman_hand |= YM_CHIIHOU
        elif c.renhou:  # a ron, as tenhou and chiihou are tsumo
            if comp.renhou == "yakuman":
                yakuman_hand |= YM_RENHOU
            elif comp.renhou == "mangan":
                hand_bits |= B_RENHOU
        if rare:  # the only hands that may be all honors, green or terminals, or nine gates
            suits = flags & 7
            if not suits:
                yakuman_hand |= YM_TSUUIISOU
            elif not flags & F_NOT_GREEN:
                if not comp.ryuuiisou_needs_hatsu or flags & F_HATSU:
                    yakuman_hand |= YM_RYUUIISOU
            elif not flags & (F_SIMPLE | F_HONOR):
                yakuman_hand |= YM_CHINROUTOU
            elif menzen and suits in (1, 2, 4) and not honors and not kans:
                yakuman_hand |= _chuuren(k_closed, wk)
        if not menzen:
            yakuman_hand &= ~_CLOSED_ONLY_YAKUMAN
        base_fu = 22 if tsumo else 30 if menzen else 20  # 20, closed ron 10, tsumo 2 (not for pinfu: see below)
        wind_seat = 27 + seat
        wind_round = 27 + rnd
        pair_fu = comp.pair_fu[seat << 2 | rnd]
        kiriage = comp.kiriage
        min_han = comp.min_han
        yaku_table = _YAKU_TABLE
        n_dora = 0
        k_all = k_closed + k_melds
        for t in dora_ind:
            n_dora += k_all >> _DORA_SHIFT[t._code] & 7
        n_ura = 0
        if riichi and ura_ind and comp.ura_dora:
            for t in ura_ind:
                n_ura += k_all >> _DORA_SHIFT[t._code] & 7
        extra = n_dora + red + n_ura

        # every reading: key = basic points << 16 | han << 8 | fu (a yakuman: 99 han); the best, and any ties
        best_key = -1
        best: Entry = (0, (), 0, 0, None, 0)
        ties: list[Entry] | None = None
        complete = special
        for p in candidates:
            lo = p & M_LOW_WORD
            if lo & 7 != 1:
                continue
            complete = True
            npung = lo >> S_NPUNG & 7
            nconc = lo >> S_NCONC & 7
            wait = lo >> S_WAIT
            mid = p >> S_PAIR & M_LOW_WORD
            pair = (mid & 63) - 1
            hp = mid >> 6 & 127
            ym = yakuman_hand
            if nconc == 4 or _HONOR_YAKUMAN[hp]:
                if nconc == 4 and menzen:
                    ym |= YM_SUUANKOU_TANKI if wait == TANKI else YM_SUUANKOU
                if hp >= 0b1110000:
                    ym |= YM_DAISANGEN
                winds = _WIND_PUNGS[hp]
                if winds == 4:
                    ym |= YM_DAISUUSHII
                elif winds == 3 and 27 <= pair <= 30:
                    ym |= YM_SHOUSUUSHII
            if ym:
                total, names = comp.yakuman_lists.get(ym) or comp.yakuman_list(ym)
                key = (8000 * total) << 16 | 99 << 8
                if key > best_key:
                    best_key, best, ties = key, (p, names, 0, 0, None, total), None
                elif key == best_key and p != best[0]:
                    ties = [*(ties or (best,)), (p, names, 0, 0, None, total)]
                continue
            bits = hand_bits
            if npung == 0:
                if (
                    menzen
                    and wait == RYANMEN
                    and (pair < 27 or (pair < 31 and pair != wind_seat and pair != wind_round))
                ):
                    bits |= B_PINFU
            else:
                if hp:
                    if hp >> seat & 1:
                        bits |= B_SEAT
                    if hp >> rnd & 1:
                        bits |= B_ROUND
                    bits |= (hp >> 4) * B_HAKU  # haku, hatsu, chun: consecutive bits in both
                    if pair >= 31 and _DRAGON_PUNGS[hp] == 2:
                        bits |= B_SHOUSANGEN
                if npung == 4:
                    bits |= B_TOITOI
                if nconc == 3:
                    bits |= B_SANANKOU
                if npung >= 3:
                    pm = p >> S_PUNGS
                    if pm & pm >> 9 & pm >> 18 & 511:
                        bits |= B_DOUKOU
            nrun = lo >> S_NRUN & 7
            if nrun:
                if menzen:
                    peikou = lo >> S_PEIKOU & 3
                    if peikou == 1:
                        bits |= B_IIPEIKOU
                    elif peikou == 2:
                        bits |= B_RYANPEIKOU
                if not lo >> S_NOYAO & 7:
                    bits |= B_CHANTA if honors else B_JUNCHAN
                if nrun >= 3:
                    rm = p >> S_RUNS & 0x1FFFFF
                    if rm & rm >> 7 & rm >> 14 & 127:
                        bits |= B_SANSHOKU
                    if rm & _ITTSU0 == _ITTSU0 or rm & _ITTSU1 == _ITTSU1 or rm & _ITTSU2 == _ITTSU2:
                        bits |= B_ITTSU
            han, names = yaku_table[bits << 1 | menzen]
            if han < min_han:
                continue
            if tsumo and bits & B_PINFU:
                fu = 20
            else:
                fu = _FU_ROUNDED[base_fu + (lo >> S_FU & 255) + pair_fu[pair] + _WAIT_FU[wait]]
            han += extra
            if han >= 5:
                basic, limit = _LIMITS[han] if han < 13 or comp.kazoe else _NO_KAZOE
            else:
                basic = fu << (han + 2)
                limit = None
                if basic > 2000 or (kiriage and basic >= 1920):
                    basic, limit = 2000, "mangan"
            key = basic << 16 | han << 8 | fu
            if key > best_key:
                best_key, best, ties = key, (p, names, han, fu, limit, 0), None
            elif key == best_key and p != best[0]:
                ties = [*(ties or (best,)), (p, names, han, fu, limit, 0)]
        if special:
            entry: Entry | None = None
            if special == 1:
                p = -1
                ym = yakuman_hand
            else:
                p = -2
                ym = yakuman_hand | (YM_KOKUSHI13 if special - 3 == wk else YM_KOKUSHI)
            if ym:
                total, names = comp.yakuman_lists.get(ym) or comp.yakuman_list(ym)
                key = (8000 * total) << 16 | 99 << 8
                entry = (p, names, 0, 0, None, total)
            else:
                han, names = yaku_table[(hand_bits | B_CHIITOITSU) << 1 | 1]
                if han >= min_han:
                    han += extra
                    basic, limit = han_fu_points(han, 25, comp.kazoe, kiriage)
                    key = basic << 16 | han << 8 | 25
                    entry = (p, names, han, 25, limit, 0)
            if entry is not None:
                if key > best_key:
                    best_key, best, ties = key, entry, None
                elif key == best_key:
                    ties = [*(ties or (best,)), entry]  # after every regular reading in the reference's order
        if best_key < 0:
            if not complete:
                return fallback(h, c, comp.rules)  # not a complete hand: the reference says so
            raise _NoYakuError(LAZY_MESSAGE, h, win, comp.name)  # its message is written when read
        if ties is not None:  # equal scores: the reading the reference meets first explains the result
            best = ties[0]
            for e in ties:
                if _met_first(e[0], best[0]):
                    best = e
        p, names, han, fu, limit, total = best
        if total:
            yaku = list(names)
            limit = "yakuman" if total == 1 else f"{total}x_yakuman"
            basic = 8000 * total
        else:
            yaku = list(names)
            if extra:  # as the reference appends them
                if n_dora:
                    yaku.append(_DORA_ITEMS[n_dora] if n_dora < 64 else ("dora", n_dora))
                if red:
                    yaku.append(_AKA_ITEMS[red])
                if n_ura:
                    yaku.append(_URA_ITEMS[n_ura] if n_ura < 64 else ("ura_dora", n_ura))
            basic = best_key >> 16

        # payments (no pao here): what the reference's payments() computes
        one, two, four, six = comp.rounded.get(basic) or comp.round_up(basic)
        honba = c.honba * comp.honba_points
        winner = c.winner
        if tsumo:
            each = honba // 3
            if seat == 0:
                pay = two + each
                deltas = [-pay, -pay, -pay, -pay]
                paid = 3 * pay
            else:
                child = one + each
                deltas = [-child, -child, -child, -child]
                pay = two + each
                deltas[(winner - seat) % 4] = -pay
                paid = 2 * child + pay
        else:
            deltas = [0, 0, 0, 0]
            paid = (six if seat == 0 else four) + honba
            deltas[c.discarder] = -paid  # type: ignore[index]
        points = paid - honba
        deltas[winner] = paid + 1000 * c.deposits
        result = _new(_ScoreResult)
        _set_dict(
            result,
            "__dict__",
            {
                "han": han,
                "fu": fu,
                "yaku": yaku,
                "yakuman": total,
                "limit": limit,
                "basic": basic,
                "points": points,
                "payments": deltas,
                "rules": comp.name,
                "conditions": c,
                "_lazy": (h, comp.rules, p, names),
            },
        )
        return result

    return score


Entry = tuple[int, YakuList, int, int, "str | None", int]
"""A scored reading: (packed reading or -1 seven pairs / -2 thirteen orphans, yaku, han, fu, limit, yakuman)."""

_LIMITS = tuple(
    (8000, "kazoe_yakuman")
    if han >= 13
    else (6000, "sanbaiman")
    if han >= 11
    else (4000, "baiman")
    if han >= 8
    else (3000, "haneman")
    if han >= 6
    else (2000, "mangan")
    for han in range(256)
)
"""Basic points and limit from 5 han up, with kazoe yakuman."""
_NO_KAZOE = (6000, "sanbaiman")
_DORA_ITEMS = tuple(("dora", n) for n in range(64))
_AKA_ITEMS = tuple(("aka_dora", n) for n in range(4))
_URA_ITEMS = tuple(("ura_dora", n) for n in range(64))
"""The yaku entries of n dora, red fives and ura dora (shared: tuples are immutable)."""

LAZY_MESSAGE = object()
"""Marks a :class:`~jantaku.riichi.scoring.NoYakuError` whose message is written when read."""
_set_dict = object.__setattr__
_new = object.__new__
_ScoreResult: Any = None
_NoYakuError: Any = None


def bind_result_types(score_result: type, no_yaku: type) -> None:
    """Tell the kernel the result and error classes (defined in :mod:`jantaku.riichi.scoring`, which imports
    this module)."""
    global _ScoreResult, _NoYakuError
    _ScoreResult, _NoYakuError = score_result, no_yaku


def _met_first(p: int, q: int) -> bool:
    """Whether the reference meets reading ``p`` before ``q`` (packed readings; -1 seven pairs, -2 thirteen
    orphans). It sorts decompositions by pair, then more closed pungs first, then the closed pungs' kinds, which
    fix the runs; then places the winning tile. Seven pairs and thirteen orphans come after every regular
    reading. Called melds are the same in both readings, so all pungs can be compared: of two equally many, the
    kinds first differ at the lowest kind that only one of them holds, and that one comes first."""
    if q < 0:
        return p >= 0
    if p < 0:
        return False
    pair_p, pair_q = pair_of(p), pair_of(q)
    if pair_p != pair_q:
        return pair_p < pair_q
    mp = p >> S_PUNGS | (p >> S_HONOR_PUNGS & 127) << 27
    mq = q >> S_PUNGS | (q >> S_HONOR_PUNGS & 127) << 27
    if mp != mq:
        np, nq = mp.bit_count(), mq.bit_count()
        if np != nq:
            return np > nq
        diff = mp ^ mq
        return bool(mp & diff & -diff)
    return (p >> S_PLACE & 15) < (q >> S_PLACE & 15)


def _kokushi(k: int) -> int:
    """3 + the doubled kind when the 14 closed tiles are thirteen orphans, else 0."""
    pair = -1
    for kind in TERMINALS_AND_HONORS:
        n = k >> TILE_BITS * kind & 7
        if n == 2 and pair < 0:
            pair = kind
        elif n != 1:
            return 0
    return 3 + pair if pair >= 0 else 0


_CHUUREN_BASE = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _chuuren(k_closed: int, win: int) -> int:
    """The nine gates bit (pure or not) of a closed one-suit hand without kans, or 0."""
    suit = next(s for s in range(3) if k_closed >> 27 * s & M_SUIT)
    counts = [k_closed >> (27 * suit + TILE_BITS * i) & 7 for i in range(9)]
    if sum(counts) != 14 or any(n < b for n, b in zip(counts, _CHUUREN_BASE, strict=True)):
        return 0
    pos = win % 9
    return YM_JUNSEI if counts[pos] - 1 == _CHUUREN_BASE[pos] else YM_CHUUREN


def _decline(hand: Hand, conditions: WinConditions, rules: Ruleset) -> None:
    return None


score_fast = make_scorer(_decline)
"""The fast path alone: ``None`` for whatever it leaves to the reference scorer."""
