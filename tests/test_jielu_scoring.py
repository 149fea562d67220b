"""洁律 scoring: the combination rule, exact optimisation, the 32/24 rule, wildcards, errors, the fan table file.

RULES.md section 2, "Scoring a hand", steps 1-3, and the seed's 计分方式:

    得分为满足的番种分数相加，若满足32分的番种，则计32分，否则相加不超过满贯24分。
    对于组合类的番种，同一个面子只能计入一个组合，对于全体类的番种，只要满足即可加计。
    和牌时可将任意张未固定的手牌视为万能牌，万能牌可被视为任意一张牌，未和牌时补充一张万能牌。
    相同的牌不能超过四张，不能使用万能牌组成整个对子或面子。
    每使用一张万能牌得分减半，得分向下取整，使用万能牌和牌时不加计偶然类的番种。
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from jantaku import Hand, HandError, JantakuError, Tile
from jantaku.jielu import (
    FanTableError,
    JieluError,
    WildcardError,
    best_value,
    can_win,
    default_fan_table,
    load_fan_table,
    score_hand,
)
from jantaku.jielu.combos import best_assignment, matching_specs
from jantaku.jielu.melds import meld_code
from jantaku.jielu.search import best_completion
from jantaku.riichi.conditions import WinConditions

FANS_TOML = Path(__file__).parents[1] / "src" / "jantaku" / "jielu" / "fans.toml"


def names(result, family=None):
    return [f.name for f in result.fans if family is None or f.family == family]


# -- the combination rule --------------------------------------------------------------------------------------------


def test_document_example_counts_one_sanlianshun_not_tongshun_as_well():
    """关于组合番种的复合: 如112233456789万，只计一个三连顺，不再加计同顺。

    RULES.md reads it as 'each meld in at most one combination fan': 112233456789m is 123 123 456 789; the
    三连顺 takes 123 456 789 and the spare 123 has no partner left for a 同顺.
    """
    r = score_hand(Hand.parse("112233456789m55z"), max_wildcards=0)
    assert names(r, "combinations") == ["三连顺"]
    assert r.fans[0].melds == ("123m", "456m", "789m")
    assert r.score == 6 + 6 + 6 + 1 + 1  # 三连顺 混一色 九数齐 单箭 平和


def test_two_two_meld_combinations_may_share_a_hand_but_not_a_meld():
    """Four melds split into two pairs: 同顺 (123m 123m) and 逢顺 (567p 567s) add up."""
    r = score_hand(Hand.parse("123m123m567p567s11z"), max_wildcards=0)
    assert sorted(names(r, "combinations")) == ["同顺", "逢顺"]


def _document_order_greedy(codes):
    """A strawman: take fans in the order the document lists them, each on melds still unused."""
    order = ["同顺", "逢顺", "双同顺", "双逢顺", "三同顺", "三逢顺", "三连顺", "三步顺", "四同顺", "四逢顺", "四连顺",
             "四步顺", "逢刻", "双逢刻", "三逢刻", "三连刻", "三步刻", "四连刻", "四步刻"]  # fmt: skip
    left = list(codes)
    total = 0
    for name in order:
        for size in (2, 3, 4):
            for group in itertools.combinations(left, size):
                if any(s.name == name for s in matching_specs(group)):
                    total += default_fan_table().points[name]
                    for c in group:
                        left.remove(c)
                    break
    return total


def test_greedy_assignment_is_wrong_and_the_optimum_is_found():
    codes = [meld_code(m) for m in ("123m", "123m", "456m", "789m")]
    assert _document_order_greedy(codes) == 2  # 同顺 first, then 456 789 make nothing
    assert best_assignment(codes).points == 6  # 三连顺


def test_greedy_decomposition_is_wrong_and_the_optimum_is_found():
    """111222333m777p99s reads as three chows 123m (三同顺 12) or three pungs (三连刻 12): the same combination,
    but only the pungs add 对对和. A reader that settles the decomposition by its combinations first can miss it."""
    r = score_hand(Hand.parse("111222333m777p99s"), max_wildcards=0)
    assert names(r) == ["三连刻", "对对和"] and r.score == 16


def test_greedy_wildcards_fewest_first_is_wrong():
    """Complete as it stands the hand is worth 1 (平和); one wildcard (3p as 6p) gives 三步顺 234m 456p 678s:
    value 4, halved to 2. Completing with the fewest wildcards first would stop at 1."""
    hand = Hand.parse("123m345p678s234m99p")
    assert score_hand(hand, max_wildcards=0).score == 1
    r = score_hand(hand)
    assert r.score == 2 and r.value == 4
    assert [(w.tile.mpsz, w.stands_for.mpsz) for w in r.wildcards] == [("3p", "6p")]


def test_assignment_is_exact_over_every_partition():
    """On every multiset of four suited chows or pungs in one suit pair, the assignment equals an exhaustive
    search over set partitions (each block scored by its best matching fan)."""
    kinds = [*(meld_code(f"{n}{n + 1}{n + 2}{s}") for n in range(1, 8) for s in "mp"),
             *(meld_code(f"{n}{n}{n}{s}") for n in range(1, 10) for s in "mp")]  # fmt: skip
    table = default_fan_table()

    def exhaustive(codes):
        best = 0
        for labels in itertools.product(range(4), repeat=len(codes)):
            blocks: dict[int, list[int]] = {}
            for c, lab in zip(codes, labels, strict=True):
                blocks.setdefault(lab, []).append(c)
            total = 0
            for block in blocks.values():
                if len(block) > 1:
                    specs = matching_specs(block, table)
                    if not specs:
                        break
                    total += specs[0].points
            else:
                best = max(best, total)
        return best

    checked = 0
    for codes in itertools.combinations_with_replacement(kinds, 4):
        if codes[0] % 5 or checked > 600:  # a spread sample: every fifth first meld, 600 sets
            continue
        checked += 1
        assert best_assignment(codes, table).points == exhaustive(codes), codes
    assert checked > 500


# -- the 32 rule and the 24 cap -------------------------------------------------------------------------------------


def test_a_32_point_fan_makes_the_value_exactly_32():
    """若满足32分的番种，则计32分: 四喜 with 混一色 and 混三数 sums to 46 but scores 32."""
    r = score_hand(Hand.parse("123m111z222z333z44z"), max_wildcards=0)
    assert r.total == 46 and r.value == 32 and r.score == 32 and r.full
    assert "score 32: value 32 (a 32-point fan: 32)" in r.explain()


def test_the_sum_is_capped_at_24():
    """否则相加不超过满贯24分: 四连顺 16 + 清一色 12 + 平和 1 = 29 -> 24."""
    r = score_hand(Hand.parse("123m234m345m456m99m"), max_wildcards=0)
    assert r.total == 29 and r.value == 24 and not r.full
    assert "(sum 29, capped)" in r.explain()


def test_a_hand_needs_one_point():
    """1分起和: a complete hand with no fan at all does not win, unless wildcards make it worth 1."""
    assert score_hand(Hand.parse("123m345p678s234m99p"), max_wildcards=0).score == 1  # 平和 only
    nothing = Hand.parse("123m567p111s789s99m")  # three suits, no honor, eight numbers: no fan
    r = score_hand(nothing, max_wildcards=0)
    assert r.score == 0 and not r.is_win and r.fans == ()
    assert "cannot win" in r.explain()


# -- wildcards ------------------------------------------------------------------------------------------------------


def test_each_wildcard_halves_rounding_down():
    r = score_hand(Hand.parse("123m456p789s11z344z"))
    assert (r.value, len(r.wildcards), r.score) == (11, 1, 5)


def test_the_best_wildcard_choice_beats_every_single_choice():
    hand = Hand.parse("123m456p789s11z344z")
    best = score_hand(hand).score
    singles = {t.mpsz: score_hand(hand, wildcards=[t]).score for t in set(hand.closed)}
    assert best == max(singles.values()) == singles["3z"] == 5
    assert singles["1z"] == 0


def test_wildcards_may_be_many_and_the_winning_tile_itself():
    """123m456p789s + 1z2z3z4z5z: three wildcards make 444z and 55z, value 14, halved three times: 1."""
    r = score_hand(Hand.parse("123m456p789s1z2z3z4z5z"), WinConditions(win=Tile("1z")))
    assert r.score == 1 and len(r.wildcards) == 3
    assert sorted(w.tile.mpsz for w in r.wildcards) == ["1z", "2z", "3z"]  # the winning 1z among them


def test_no_meld_made_only_of_wildcards():
    """不能使用万能牌组成整个对子或面子: 1z 2z 3z as a fourth 123m would give 四同顺 (32, halved 3 times: 4),
    but that chow would hold no real tile; the best is 333z from 3z and two wildcards: 三同顺 12, halved twice."""
    r = score_hand(Hand.parse("55p1z2z3z 123m+ 123m+ 123m+"))
    assert r.score == 3 and r.melds == ("123m+", "123m+", "123m+", "333z")


def test_no_fifth_copy():
    """相同的牌不能超过四张: with a kong of 5m called, no wildcard may stand for 5m (345m would need one)."""
    r = score_hand(Hand.parse("34m11z9p 5555m+ 123m+ 789m+"))
    assert "5m" not in [w.stands_for.mpsz for w in r.wildcards]
    assert r.score == 3 and r.melds == ("123m+", "234m", "789m+", "5555m+")


def test_extra_wildcard_for_a_non_winner():
    """未和牌时补充一张万能牌: 13 tiles and one extra wildcard; the extra one always counts (halves)."""
    hand = Hand.parse("123m123m456m789m1z")
    r = score_hand(hand, extra_wildcards=1)
    assert r.score == 9 and r.value == 19
    assert [(w.tile, w.stands_for.mpsz) for w in r.wildcards] == [(None, "1z")]
    with pytest.raises(JieluError, match="13 tiles"):
        score_hand(hand)


def test_max_wildcards_and_explicit_wildcards():
    hand = Hand.parse("123m456p789s1z2z3z4z5z")
    assert score_hand(hand, max_wildcards=2).score == 0
    assert score_hand(hand, wildcards=["1z", "2z", "3z"]).score == 1
    assert score_hand(hand, wildcards=["1m", "2z", "3z"]).score == 0


def test_legal_win_check():
    assert can_win(Hand.parse("123m456p789s11z344z"))  # one wildcard
    assert not can_win(Hand.parse("19m19p19s11234567z"))
    assert best_value(Hand.parse("123m456p789s11z344z")) == 5


def test_best_completion_stop_at_answers_yes_no_quickly():
    from jantaku.tiles import counts34, parse_tiles

    counts = counts34(parse_tiles("123m456p789s11z344z"))
    assert best_completion(counts, stop_at=1).score >= 1


# -- bad input ------------------------------------------------------------------------------------------------------


def test_wildcards_cannot_be_called_tiles():
    with pytest.raises(WildcardError, match="declared meld: its tiles are fixed"):
        score_hand(Hand.parse("123m456p789s11z 555z+"), wildcards=["5z"])
    with pytest.raises(WildcardError, match="2z is in a declared meld"):  # a closed kong is fixed too
        score_hand(Hand.parse("123m456p789s11z 2222z*"), wildcards=["2z"])


def test_wildcards_must_be_tiles_the_hand_holds():
    with pytest.raises(WildcardError, match="holds no 9m"):
        score_hand(Hand.parse("123m456p789s11z555z"), wildcards=["9m"])
    with pytest.raises(WildcardError, match="holds no 1m"):
        score_hand(Hand.parse("123m456p789s11z555z"), wildcards=["1m", "1m"])


def test_a_fifth_tile_is_an_error():
    with pytest.raises(HandError, match="five copies of 1m"):
        Hand.parse("11111m456p789s11z5z")
    with pytest.raises(JieluError, match="more than four copies"):
        best_completion([5] + [0] * 26 + [3, 3, 3, 0, 0, 0, 0])


def test_impossible_hands_are_errors():
    with pytest.raises(JieluError, match="13 tiles"):
        score_hand(Hand.parse("123m456p789s1134z"))
    with pytest.raises(JieluError, match="14 tiles counting its extra wildcards"):
        score_hand(Hand.parse("123m456p789s11z344z"), extra_wildcards=1)
    with pytest.raises(JieluError, match="extra_wildcards must be"):
        score_hand(Hand.parse("123m456p789s11z344z"), extra_wildcards=-1)
    with pytest.raises(JieluError, match="takes a Hand"):
        score_hand("123m456p789s11z344z")  # type: ignore[arg-type]
    with pytest.raises(JantakuError):
        Hand.parse("123m456p789s11z3444z")  # 15 tiles


def test_riichi_only_circumstances_are_errors():
    hand = Hand.parse("123m456p789s11z555z")
    for cond, message in (
        (WinConditions(win=Tile("5z"), riichi=True), "no riichi"),
        (WinConditions(win=Tile("5z"), dora=(Tile("1m"),)), "no dora"),
        (WinConditions(win=Tile("5z"), honba=1), "no honba"),
        (WinConditions(win=Tile("5z"), pao=2), "pao is per fan"),
        (WinConditions(win=Tile("9m")), "not among the closed tiles"),
        (WinConditions(win=Tile("5z"), tsumo=True, rinshan=True), "needs a kong"),
    ):
        with pytest.raises(JieluError, match=message):
            score_hand(hand, cond)
    with pytest.raises(JieluError, match="either as conditions or as flags"):
        score_hand(hand, WinConditions(win=Tile("5z")), tsumo=True)


# -- the fan table file ---------------------------------------------------------------------------------------------


def test_the_shipped_table_is_the_proposal_and_marked_so():
    text = FANS_TOML.read_text(encoding="utf-8")
    assert "PROPOSAL" in text and "docs/rules/sources.md" in text
    t = default_fan_table()
    assert (t.points["混一色"], t.points["清一色"], t.points["自摸和"], t.full, t.cap) == (6, 12, 1, 32, 24)
    assert len(t.points) == 19 + 5 + 9 + 6 + 6 + 4  # combinations, suits, numbers, honors, shape, incidental


def test_a_custom_table_changes_values_and_may_define_new_combinations(tmp_path):
    text = FANS_TOML.read_text(encoding="utf-8").replace('"平和" = 1', '"平和" = 5')
    text += '"两步顺" = { points = 3, shape = "chow", melds = 2, suits = "different", numbers = "steps" }\n'
    path = tmp_path / "fans.toml"
    path.write_text(text, encoding="utf-8")
    table = load_fan_table(path)
    r = score_hand(Hand.parse("123m456p789m111z99p"), max_wildcards=0, table=table)
    assert ("平和", 5) not in [(f.name, f.points) for f in r.fans]  # a pung: no 平和
    r = score_hand(Hand.parse("123m345p789m234s99p"), max_wildcards=0, table=table)
    assert ("两步顺", 3) in [(f.name, f.points) for f in r.fans] and ("平和", 5) in [(f.name, f.points) for f in r.fans]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s.replace('"平和" = 1\n', ""), "'平和' is missing from \\[shape\\]"),
        (lambda s: s.replace('"平和" = 1', '"平和" = 0'), "must be a whole number >= 1"),
        (lambda s: s.replace("[shape]", '[shape]\n"大四喜" = 8', 1), "unknown fan '大四喜'"),
        (
            lambda s: s.replace(
                'shape = "chow", melds = 2, suits = "same"', 'shape = "run", melds = 2, suits = "same"'
            ),
            "shape must be one of",
        ),
        (lambda s: s.replace("cap = 24", "cap = 24\nlimit = 3"), "unknown key 'limit'"),
        (lambda s: s + "\n[extras]\n", "unknown table \\[extras\\]"),
        (lambda s: s.replace("[scoring]", "[scoring", 1), "not valid TOML"),
    ],
)
def test_bad_fan_tables_are_rejected(tmp_path, edit, message):
    path = tmp_path / "bad.toml"
    path.write_text(edit(FANS_TOML.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(FanTableError, match=message):
        load_fan_table(path)
