"""Who is liable for a big fan (洁律, original mode): jantaku.jielu.liability.pao_claims.

包付规则细节解释 (seed 004):
    对于花色类和数字类的番种，放铳者为使番种完成者。
    对于牌型类和组合类的番种，若已完成，提供最后一副露者为使番种完成者，若未完成，若放铳者放铳的牌属于此组合，
    放铳者为使番种完成者，否则不包付。
    对于双同顺，放铳未被副露的一组顺子不包付。
    在后达成包付的杠和组合类的番种包含先达成的番种时，只计算后达成的包付。
"""

from __future__ import annotations

import pytest

from jantaku import Hand, Tile
from jantaku.jielu import original_payments, score_hand
from jantaku.jielu.liability import pao_claims


def claims(text: str, suppliers: list[int | None], discarder: int | None, win: str | None, **kw):
    hand = Hand.parse(text)
    result = score_hand(hand)
    found = pao_claims(
        result, list(zip(hand.melds, suppliers, strict=True)), discarder, Tile(win) if win else None, **kw
    )
    return result, [(c.fan, c.liable, c.related, c.replaces) for c in found]


def test_suit_fan_the_discarder_is_liable_with_k_exposed_melds():
    """花色类: the discarder; k = the exposed melds (two pungs) -> 2/4."""
    result, found = claims("111m222m44m 333m+ 555m+", [2, 3], 1, "4m")
    assert found == [("清一色", 1, 2, ())]
    hand = Hand.parse("111m222m44m 333m+ 555m+")
    pao = pao_claims(result, list(zip(hand.melds, [2, 3], strict=True)), 1, Tile("4m"))
    # 3 x (24 - 4) = 60: seat 1 first pays 2/4 of 3 x (12 - 4) = 12, the rest 48 is shared by the three
    assert original_payments(0, result.score, pao) == (60, -28, -16, -16)


def test_suit_fan_on_a_self_drawn_win_nobody_is_liable():
    assert claims("111m222m44m 333m+ 555m+", [2, 3], None, None)[1] == []


def test_combination_complete_before_the_win_the_supplier_of_its_last_meld():
    """若已完成，提供最后一副露者: 111m 222m 333m all called, the last (333m) from seat 2; the win on the pair, or a
    self-drawn win, does not matter."""
    assert claims("11p555m 111m+ 222m+ 333m+", [2, 3, 2], 0, "1p")[1] == [("三连刻", 2, 3, ())]
    assert claims("11p555m 111m+ 222m+ 333m+", [2, 3, 2], None, None)[1] == [("三连刻", 2, 3, ())]


def test_combination_not_complete_the_discarder_only_if_the_winning_tile_belongs_to_it():
    """若未完成，若放铳者放铳的牌属于此组合，放铳者为使番种完成者，否则不包付."""
    text, suppliers = "111m222m44m 333m+ 555m+", [2, 3]
    assert ("三连刻", 1, 1, ()) in claims(text, suppliers, 1, "2m")[1]
    assert all(c[0] != "三连刻" for c in claims(text, suppliers, 1, "4m")[1])


def test_honor_collection_fans_follow_the_suit_rule():
    """三元 (12): a collection of the whole hand, read like the suit fans (the seed is silent; documented)."""
    assert claims("55m666z123p 777z+ 555z+", [1, 3], 2, "6z")[1] == [("三元", 2, 2, ())]
    assert claims("55m666z123p 777z+ 555z+", [1, 3], None, None)[1] == []


def test_a_closed_kong_was_supplied_by_nobody():
    """The last of the three kongs is a closed one: nobody supplied it, so nobody is liable."""
    assert claims("11z789p 1111m* 2222m+ 3333m*", [None, 3, None], 1, "1z")[1] == []


def test_a_later_kong_fan_containing_a_combination_replaces_it():
    """在后达成包付的杠和组合类的番种包含先达成的番种时，只计算后达成的包付: 三杠 on the same three melds as 三连刻."""
    result, found = claims("11z789p 2222m+ 1111m+ 3333m+", [2, 3, 1], 0, "1z")
    assert found == [("三连刻", 1, 3, ()), ("三杠", 1, 3, ("三连刻",))]
    hand = Hand.parse("11z789p 2222m+ 1111m+ 3333m+")
    pao = pao_claims(result, list(zip(hand.melds, [2, 3, 1], strict=True)), 0, Tile("1z"))
    # 3 x (24 - 4) = 60: seat 1 pays 3/4 of 3 x (12 - 4) = 18 once (not twice), the rest 42 is shared
    assert original_payments(3, result.score, pao) == (-14, -32, -14, 60)


@pytest.mark.parametrize(("win", "liable"), [("5p", False), ("2m", True)])
def test_double_identical_chows_dealing_into_the_unexposed_pair_carries_no_pao(win, liable):
    """对于双同顺，放铳未被副露的一组顺子不包付 (双同顺 is 6 in the proposed table: min_points lowered to show it)."""
    found = claims("99s123m456p456p 123m+", [3], 2, win, min_points=6)[1]
    assert (found == [("双同顺", 2, 1, ())]) is liable


def test_small_fans_carry_no_pao():
    """仅对8分及以上的番种生效: the same hand with the default minimum of 8."""
    assert claims("99s123m456p456p 123m+", [3], 2, "2m")[1] == []
