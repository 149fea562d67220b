"""Every yaku and yakuman of the four riichi seeds, as a table of small predicates with one signature.

Each entry's ``check(r, h, c, rules)`` gets the :class:`~jantaku.riichi.reading.Reading`, the
:class:`~jantaku.riichi.reading.HandFacts`, the :class:`~jantaku.riichi.conditions.WinConditions` and the
:class:`~jantaku.rules.Ruleset`, and says whether the yaku is there. Han come from the entry: ``han`` closed,
``han_open`` open (``None``: closed only). Sources: μ 000 Art 51-52, M-League 001 9章, general 002 第二章,
眉笔 003 9章; where they differ, the rule set's parameters decide.

>>> [y.name for y in YAKU][:4]
['menzen_tsumo', 'riichi', 'double_riichi', 'ippatsu']
>>> YAKU_BY_NAME["chinitsu"].han, YAKU_BY_NAME["chinitsu"].han_open, YAKU_BY_NAME["chinitsu"].kanji
(6, 5, '清一色')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jantaku.tiles import TERMINALS_AND_HONORS

from .reading import RUN, HandFacts, Reading

if TYPE_CHECKING:
    from jantaku.rules import Ruleset

    from .conditions import WinConditions

__all__ = ["YAKU", "YAKUMAN", "YAKU_BY_NAME", "Yaku", "yakuhai_kinds"]

Check = Callable[[Reading, HandFacts, "WinConditions", "Ruleset"], bool]

_YAOCHU = frozenset(TERMINALS_AND_HONORS)
_TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
_GREEN = frozenset((19, 20, 21, 23, 25, 32))
_DRAGONS = (31, 32, 33)
_WINDS = (27, 28, 29, 30)


@dataclass(frozen=True)
class Yaku:
    """A yaku (``yakuman=False``: han) or a yakuman (``han`` = 1 for a single, the multiplier)."""

    name: str
    han: int
    han_open: int | None
    check: Check
    tenhou_id: int
    kanji: str
    english: str
    chinese: str
    yakuman: bool = False


def yakuhai_kinds(h: HandFacts) -> tuple[int, ...]:
    """Kinds whose pung is a yaku: the dragons, the seat wind and the round wind."""
    return (*_DRAGONS, 27 + h.seat_wind, 27 + h.round_wind)


def _pungs(r: Reading) -> tuple[int, ...]:
    return r.pungs


def _runs(r: Reading) -> tuple[int, ...]:
    return r.runs


def _kinds(h: HandFacts) -> tuple[int, ...]:
    return h.kinds


def _suits(h: HandFacts) -> frozenset[int]:
    return h.suits


def _has_honor(h: HandFacts) -> bool:
    return h.has_honor


# -- predicates ---------------------------------------------------------------------------------------------


def _menzen_tsumo(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return h.menzen and c.tsumo


def _riichi(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return c.riichi and not c.double_riichi


def _double_riichi(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return c.double_riichi


def _ippatsu(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return c.ippatsu and rules.ippatsu


def _chankan(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return c.chankan


def _rinshan(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return c.rinshan


def _haitei(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    # a win on the last tile that is a kan's replacement is rinshan only (000 Art 51(8); 001 5章4条)
    return c.haitei and not c.rinshan


def _houtei(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return c.houtei


def _pinfu(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return (
        h.menzen
        and r.form == "regular"
        and r.wait == "ryanmen"
        and all(b.shape == RUN for b in r.blocks)
        and r.pair not in yakuhai_kinds(h)
    )


def _tanyao(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    if not h.menzen and not rules.open_tanyao:
        return False
    return h.no_yaochu


def peikou_pairs(runs: Sequence[int]) -> int:
    """Pure double sequences among sorted runs: disjoint adjacent equal pairs (the fast scorer counts the same way).

    >>> peikou_pairs((0, 0, 0, 9)), peikou_pairs((0, 0, 1, 1))
    (1, 2)
    """
    pairs = i = 0
    while i + 1 < len(runs):
        if runs[i] == runs[i + 1]:
            pairs += 1
            i += 2
        else:
            i += 1
    return pairs


def _peikou_count(r: Reading) -> int:
    return peikou_pairs(r.runs)


def _iipeikou(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return h.menzen and r.form == "regular" and _peikou_count(r) == 1


def _ryanpeikou(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return h.menzen and r.form == "regular" and _peikou_count(r) == 2


def _yakuhai(kind_of: Callable[[HandFacts], int]) -> Check:
    def check(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
        return kind_of(h) in _pungs(r)

    return check


def _chiitoitsu(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return r.form == "chiitoitsu"


def _all_blocks_have(r: Reading, tiles: frozenset[int]) -> bool:
    if r.pair not in tiles:
        return False
    for b in r.blocks:
        if b.shape == RUN:
            if b.kind not in tiles and b.kind + 2 not in tiles:
                return False
        elif b.kind not in tiles:
            return False
    return True


def _chanta(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    # 000 Art 51(15): every set and the pair hold a terminal or honor, at least one run; honors present
    return r.form == "regular" and bool(_runs(r)) and _has_honor(h) and _all_blocks_have(r, _YAOCHU)


def _junchan(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return r.form == "regular" and bool(_runs(r)) and not _has_honor(h) and _all_blocks_have(r, _TERMINALS)


def _ittsu(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    runs = set(_runs(r))
    return any({s * 9, s * 9 + 3, s * 9 + 6} <= runs for s in range(3))


def _sanshoku(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    runs = set(_runs(r))
    return any({n, n + 9, n + 18} <= runs for n in range(7))


def _sanshoku_doukou(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    pungs = set(_pungs(r))
    return any({n, n + 9, n + 18} <= pungs for n in range(9))


def _kan_count(r: Reading) -> int:
    return r.kans


def _sankantsu(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return _kan_count(r) == 3


def _toitoi(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return r.form == "regular" and len(_pungs(r)) == 4


def _concealed_pungs(r: Reading) -> int:
    return r.concealed_pungs


def _sanankou(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return _concealed_pungs(r) == 3


def _shousangen(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    pungs = _pungs(r)
    return r.pair in _DRAGONS and sum(1 for d in _DRAGONS if d in pungs) == 2


def _honroutou(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return h.has_honor and h.all_yaochu and r.form != "kokushi"


def _honitsu(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return len(_suits(h)) == 1 and _has_honor(h)


def _chinitsu(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return len(_suits(h)) == 1 and not _has_honor(h)


def _renhou_han(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return c.renhou and rules.renhou == "mangan"


# -- yakuman -------------------------------------------------------------------------------------------------


def _tenhou(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return c.tenhou


def _chiihou(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return c.chiihou


def _renhou_yakuman(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return c.renhou and rules.renhou == "yakuman"


def _kokushi(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return r.form == "kokushi" and r.wait == "kokushi"


def _kokushi13(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return r.form == "kokushi" and r.wait == "kokushi13"


def _suuankou(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return _concealed_pungs(r) == 4 and r.wait != "tanki"


def _suuankou_tanki(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return _concealed_pungs(r) == 4 and r.wait == "tanki"


def _daisangen(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    pungs = _pungs(r)
    return all(d in pungs for d in _DRAGONS)


def _shousuushii(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    pungs = _pungs(r)
    return r.pair in _WINDS and sum(1 for w in _WINDS if w in pungs) == 3


def _daisuushii(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    pungs = _pungs(r)
    return all(w in pungs for w in _WINDS)


def _tsuuiisou(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return all(k >= 27 for k in _kinds(h))


def _ryuuiisou(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    kinds = _kinds(h)
    if rules.ryuuiisou_needs_hatsu and not h.counts[32]:
        return False
    return all(k in _GREEN for k in kinds)


def _chinroutou(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return all(k in _TERMINALS for k in _kinds(h))


def _chuuren_counts(h: HandFacts) -> list[int] | None:
    if not h.menzen or len(_suits(h)) != 1 or _has_honor(h) or h.kans:
        return None
    suit = next(iter(_suits(h)))
    counts = list(h.closed_counts[suit * 9 : suit * 9 + 9])
    base = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    if sum(counts) != 14 or any(n < b for n, b in zip(counts, base, strict=True)):
        return None
    return counts


def _chuuren(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    counts = _chuuren_counts(h)
    return counts is not None and counts[h.win_kind % 9] - 1 != [3, 1, 1, 1, 1, 1, 1, 1, 3][h.win_kind % 9]


def _junsei_chuuren(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    counts = _chuuren_counts(h)
    return counts is not None and counts[h.win_kind % 9] - 1 == [3, 1, 1, 1, 1, 1, 1, 1, 3][h.win_kind % 9]


def _suukantsu(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset) -> bool:
    return _kan_count(r) == 4


def _seat_wind(h: HandFacts) -> int:
    return 27 + h.seat_wind


def _round_wind(h: HandFacts) -> int:
    return 27 + h.round_wind


YAKU: tuple[Yaku, ...] = (
    Yaku("menzen_tsumo", 1, None, _menzen_tsumo, 0, "門前清自摸和", "Fully concealed hand", "门前清自摸和"),
    Yaku("riichi", 1, None, _riichi, 1, "立直", "Riichi", "立直"),
    Yaku("double_riichi", 2, None, _double_riichi, 21, "両立直", "Double riichi", "两立直"),
    Yaku("ippatsu", 1, None, _ippatsu, 2, "一発", "Ippatsu", "一发"),
    Yaku("chankan", 1, 1, _chankan, 3, "搶槓", "Robbing a kan", "抢杠"),
    Yaku("rinshan_kaihou", 1, 1, _rinshan, 4, "嶺上開花", "After a kan", "岭上开花"),
    Yaku("haitei", 1, 1, _haitei, 5, "海底摸月", "Under the sea", "海底摸月"),
    Yaku("houtei", 1, 1, _houtei, 6, "河底撈魚", "Under the river", "河底捞鱼"),
    Yaku("pinfu", 1, None, _pinfu, 7, "平和", "Pinfu", "平和"),
    Yaku("tanyao", 1, 1, _tanyao, 8, "断幺九", "All simples", "断幺九"),
    Yaku("iipeikou", 1, None, _iipeikou, 9, "一盃口", "Pure double sequence", "一杯口"),
    Yaku("yakuhai_seat_wind", 1, 1, _yakuhai(_seat_wind), 10, "自風牌", "Seat wind", "自风牌"),
    Yaku("yakuhai_round_wind", 1, 1, _yakuhai(_round_wind), 14, "場風牌", "Round wind", "场风牌"),
    Yaku("yakuhai_haku", 1, 1, _yakuhai(lambda h: 31), 18, "役牌 白", "White dragon", "役牌 白"),
    Yaku("yakuhai_hatsu", 1, 1, _yakuhai(lambda h: 32), 19, "役牌 發", "Green dragon", "役牌 发"),
    Yaku("yakuhai_chun", 1, 1, _yakuhai(lambda h: 33), 20, "役牌 中", "Red dragon", "役牌 中"),
    Yaku("chiitoitsu", 2, None, _chiitoitsu, 22, "七対子", "Seven pairs", "七对子"),
    Yaku("chanta", 2, 1, _chanta, 23, "混全帯幺九", "Half outside hand", "混全带幺九"),
    Yaku("ittsu", 2, 1, _ittsu, 24, "一気通貫", "Pure straight", "一气通贯"),
    Yaku("sanshoku", 2, 1, _sanshoku, 25, "三色同順", "Mixed triple sequence", "三色同顺"),
    Yaku("sanshoku_doukou", 2, 2, _sanshoku_doukou, 26, "三色同刻", "Triple triplets", "三色同刻"),
    Yaku("sankantsu", 2, 2, _sankantsu, 27, "三槓子", "Three kans", "三杠子"),
    Yaku("toitoi", 2, 2, _toitoi, 28, "対々和", "All triplets", "对对和"),
    Yaku("sanankou", 2, 2, _sanankou, 29, "三暗刻", "Three concealed triplets", "三暗刻"),
    Yaku("shousangen", 2, 2, _shousangen, 30, "小三元", "Little three dragons", "小三元"),
    Yaku("honroutou", 2, 2, _honroutou, 31, "混老頭", "All terminals and honors", "混老头"),
    Yaku("ryanpeikou", 3, None, _ryanpeikou, 32, "二盃口", "Twice pure double sequence", "两杯口"),
    Yaku("junchan", 3, 2, _junchan, 33, "純全帯幺九", "Fully outside hand", "纯全带幺九"),
    Yaku("honitsu", 3, 2, _honitsu, 34, "混一色", "Half flush", "混一色"),
    Yaku("chinitsu", 6, 5, _chinitsu, 35, "清一色", "Full flush", "清一色"),
    Yaku("renhou", 5, None, _renhou_han, 36, "人和", "Blessing of man (mangan)", "人和"),
)
"""The han yaku, in Tenhou's order."""

YAKUMAN: tuple[Yaku, ...] = (
    Yaku("tenhou", 1, None, _tenhou, 37, "天和", "Blessing of heaven", "天和", True),
    Yaku("chiihou", 1, None, _chiihou, 38, "地和", "Blessing of earth", "地和", True),
    Yaku("renhou_yakuman", 1, None, _renhou_yakuman, 36, "人和", "Blessing of man", "人和", True),
    Yaku("daisangen", 1, 1, _daisangen, 39, "大三元", "Big three dragons", "大三元", True),
    Yaku("suuankou", 1, None, _suuankou, 40, "四暗刻", "Four concealed triplets", "四暗刻", True),
    Yaku(
        "suuankou_tanki",
        1,
        None,
        _suuankou_tanki,
        41,
        "四暗刻単騎",
        "Four concealed, pair wait",
        "四暗刻单骑",
        True,
    ),
    Yaku("tsuuiisou", 1, 1, _tsuuiisou, 42, "字一色", "All honors", "字一色", True),
    Yaku("ryuuiisou", 1, 1, _ryuuiisou, 43, "緑一色", "All green", "绿一色", True),
    Yaku("chinroutou", 1, 1, _chinroutou, 44, "清老頭", "All terminals", "清老头", True),
    Yaku("chuuren_poutou", 1, None, _chuuren, 45, "九蓮宝燈", "Nine gates", "九莲宝灯", True),
    Yaku("junsei_chuuren_poutou", 1, None, _junsei_chuuren, 46, "純正九蓮宝燈", "True nine gates", "纯正九莲", True),
    Yaku("kokushi_musou", 1, None, _kokushi, 47, "国士無双", "Thirteen orphans", "国士无双", True),
    Yaku(
        "kokushi_musou_13",
        1,
        None,
        _kokushi13,
        48,
        "国士無双13面",
        "Thirteen orphans, 13-sided",
        "国士无双十三面",
        True,
    ),
    Yaku("daisuushii", 1, 1, _daisuushii, 49, "大四喜", "Big four winds", "大四喜", True),
    Yaku("shousuushii", 1, 1, _shousuushii, 50, "小四喜", "Little four winds", "小四喜", True),
    Yaku("suukantsu", 1, 1, _suukantsu, 51, "四槓子", "Four kans", "四杠子", True),
)
"""The yakuman."""

YAKU_BY_NAME = {y.name: y for y in (*YAKU, *YAKUMAN)}
"""Every yaku and yakuman by name."""
