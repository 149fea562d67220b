"""洁律 payments: 积分制 (points mode, the default) and 原版计分方式 (the original mode) with pao.

积分制 (the seed's 计分方式):
    1分起和，积分制，第一位和牌获得三倍得分，第二位和牌获得两倍得分，第三位和牌或未和牌获得一倍得分。
原版计分方式:
    一人和牌后一局结束，和牌者获得牌型分数减4的三倍的得分。
    使某番种完成者包付此番种4分以上得分的四分之番种相关的副露数，其余由三家分付。
包付规则细节解释:
    仅对8分及以上的番种生效，番种相关一，二，三，四副露时需要先支付该番种分数减4的1/4，1/2，3/4，全部的三倍。
    ... 在后达成包付的杠和组合类的番种包含先达成的番种时，只计算后达成的包付。
    在多家需要包付时，按照达成包付的先后顺序支付，付完为止。
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from jantaku import Hand
from jantaku.jielu import JieluError, PaoClaim, original_payments, points_mode_scores, ron_order, score_hand

# -- points mode ------------------------------------------------------------------------------------------------------


def test_points_mode_multiplies_by_win_order():
    assert points_mode_scores([(1, 5), (3, 4), (0, 2)], {2: 3}) == (2, 15, 3, 8)


def test_points_mode_non_winners_score_their_best_completion_with_one_extra_wildcard():
    """Each player who has not won adds one wildcard and scores 1x its best value (0 if it cannot win)."""
    winner = score_hand(Hand.parse("123m456p789s11z344z"))  # S = 5
    near = score_hand(Hand.parse("123m123m456m789m1z"), extra_wildcards=1)  # S = 9
    hopeless = score_hand(Hand.parse("19m19p19s1234567z"), extra_wildcards=1)  # S = 0
    assert (winner.score, near.score, hopeless.score) == (5, 9, 0)
    assert points_mode_scores([(0, winner.score)], {1: near.score, 2: hopeless.score}) == (15, 9, 0, 0)


def test_several_rons_on_one_discard_are_ordered_from_the_discarders_right():
    """有一炮多响，一炮多响时按头跳顺序，即放铳者下家对家上家，依次结算。"""
    assert ron_order(0, [3, 1, 2]) == [1, 2, 3]
    assert ron_order(2, [1, 0]) == [0, 1]
    order = ron_order(2, [1, 3, 0])
    assert points_mode_scores([(s, 4) for s in order]) == (8, 4, 0, 12)


def test_points_mode_bad_input():
    with pytest.raises(JieluError, match="at most 3"):
        points_mode_scores([(0, 1), (1, 1), (2, 1), (3, 1)])
    with pytest.raises(JieluError, match="wins twice"):
        points_mode_scores([(0, 1), (0, 2)])
    with pytest.raises(JieluError, match="both a winner and a non-winner"):
        points_mode_scores([(0, 1)], {0: 2})
    with pytest.raises(JieluError, match="discarder cannot win"):
        ron_order(1, [1, 2])
    with pytest.raises(JieluError, match="seat 0-3"):
        points_mode_scores([(4, 1)])


# -- original mode ----------------------------------------------------------------------------------------------------


def test_original_mode_three_times_s_minus_4():
    """和牌者获得牌型分数减4的三倍的得分: each of the three pays S-4."""
    assert original_payments(2, 10) == (-6, -6, 18, -6)
    assert original_payments(1, 4) == (0, 0, 0, 0)


def test_original_mode_negative_base():
    """S < 4: the winner pays each other player 4-S (负底分)."""
    assert original_payments(0, 1) == (-9, 3, 3, 3)
    assert sum(original_payments(3, 2)) == 0


@pytest.mark.parametrize(("related", "liable_pays"), [(1, 6), (2, 12), (3, 18), (4, 24)])
def test_pao_pays_k_quarters_of_three_times_f_minus_4_then_shares(related, liable_pays):
    """三连刻 (12) with k related exposed melds: the liable player pays k/4 of 3x(12-4) = 24 first; the rest of
    3x(S-4) is shared by the three, the liable one included."""
    deltas = original_payments(0, 12, [PaoClaim("三连刻", 12, liable=1, related=related)])
    rest = (24 - liable_pays) // 3
    assert deltas == (24, -(liable_pays + rest), -rest, -rest)


def test_pao_only_for_fans_of_8_or_more():
    assert original_payments(0, 12, [PaoClaim("混一色", 6, liable=1, related=4)]) == (24, -8, -8, -8)


def test_pao_in_the_order_it_arose_until_the_total_is_paid():
    """在多家需要包付时，按照达成包付的先后顺序支付，付完为止: 24 of 36, then only 12 of the next 18."""
    claims = [PaoClaim("清一色", 12, 0, 4), PaoClaim("三元", 12, 1, 3)]
    assert original_payments(3, 16, claims) == (-24, -12, 0, 36)


def test_a_later_fan_containing_an_earlier_one_replaces_its_pao():
    """在后达成包付的杠和组合类的番种包含先达成的番种时，只计算后达成的包付: 四杠 over 三杠."""
    claims = [PaoClaim("三杠", 12, liable=2, related=3), PaoClaim("四杠", 32, liable=0, related=4, replaces=("三杠",))]
    assert original_payments(1, 32, claims) == (-84, 84, 0, 0)


def test_no_pao_when_the_base_is_not_positive():
    """Wildcards can halve a hand below its big fan: 12-point 三元 in a hand of S = 3 pays no pao."""
    assert original_payments(0, 3, [PaoClaim("三元", 12, liable=1, related=2)]) == (-3, 1, 1, 1)


def test_pao_amounts_are_exact_fractions_with_a_table_that_needs_them():
    deltas = original_payments(0, 13, [PaoClaim("custom", 9, liable=1, related=1)])
    assert deltas[1] == -(Fraction(15, 4) + (27 - Fraction(15, 4)) / 3)
    assert sum(deltas) == 0


def test_original_mode_bad_input():
    with pytest.raises(JieluError, match="cannot be liable"):
        original_payments(1, 12, [PaoClaim("三连刻", 12, liable=1, related=2)])
    with pytest.raises(JieluError, match="1-4"):
        PaoClaim("三连刻", 12, liable=1, related=5)
    with pytest.raises(JieluError, match="whole number"):
        original_payments(0, -1)
