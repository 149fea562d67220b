"""Every fan of 洁律麻将: a hand that has it and a near miss that does not, with the document's definition.

The definitions are quoted from the 洁律麻将 document (番种定义); docs/rules/sources.md (洁律)
reads them precisely (同 逢 连 步, "equal steps" >= 1, alternating suits, the number fans' "exactly these
numbers, equally spaced from three on"). The hands are scored without wildcards (``max_wildcards=0``), so
each fan is seen in the reading the optimiser chose for the plain hand.
"""

from __future__ import annotations

import pytest

from jantaku import Hand, Tile
from jantaku.jielu import default_fan_table, score_hand
from jantaku.riichi.conditions import WinConditions

# (fan, the document's definition, a hand with it, a near miss without it)
FANS = [
    # -- chow combinations ----------------------------------------------------------------------------------------
    ("同顺", "相同的两副顺子", "123m123m567p111z99s", "123m234m567p111z99s"),
    ("逢顺", "数字相同，花色不同的两副顺子", "123m123p567s111z99s", "123m234p567s111z99s"),
    ("双同顺", "两组相同的两副顺子", "123m123m567p567p11z", "123m123m567p678p11z"),
    ("双逢顺", "花色相同的两组数字相同，花色不同的两副顺子", "123m123p567m567p11z", "123m123p567m567s11z"),
    ("三同顺", "相同的三副顺子", "123m123m123m789p11z", "123m123m123p789p11z"),
    ("三逢顺", "数字相同，花色不同的三副顺子", "123m123p123s789m11z", "123m123p123p789m11z"),
    ("三连顺", "花色相同，数字间隔相等的三副顺子", "123m456m789m111z99p", "123m456m789p111z99p"),
    ("三连顺", "花色相同，数字间隔相等的三副顺子 (step 2)", "123m345m567m111z99p", "123m345m678m111z99p"),
    ("三步顺", "花色不同，数字间隔相等的三副顺子", "123m456p789s111z55z", "123m456p789m111z55z"),
    ("三步顺", "花色不同，数字间隔相等的三副顺子 (step 1)", "123m234p345s111z55z", "123m234p456s111z55z"),
    ("四同顺", "相同的四副顺子", "123m123m123m123m55p", "123m123m123m123p55p"),
    ("四逢顺", "两种花色相间，数字相同的四副顺子", "123m123p123m123p55s", "123m123p123s123m55s"),
    ("四连顺", "花色相同，数字间隔相等的四副顺子", "123m234m345m456m99p", "123m234m345m567m99p"),
    ("四步顺", "两种花色相间，数字间隔相等的四副顺子", "123m234p345m456p99s", "123m234p345p456m99s"),
    # -- pung combinations ----------------------------------------------------------------------------------------
    ("逢刻", "数字相同的两副刻子", "111m111p567s789s22z", "111m222p567s789s22z"),
    ("双逢刻", "花色相同的两组数字相同的两副刻子", "111m111p555m555p99s", "111m111p555m555s99s"),
    ("三逢刻", "数字相同的三副刻子", "111m111p111s789m22z", "111m111p222s789m22z"),
    ("三连刻", "花色相同，数字间隔相等的三副刻子", "111m333m555m789p99s", "111m333m666m789p99s"),
    ("三步刻", "花色不同，数字间隔相等的三副刻子", "111m222p333s789m55z", "111m222p333m789m55z"),
    ("四连刻", "花色相同，数字间隔相等的四副刻子", "111m222m333m444m55p", "111m222m333m555m55p"),
    ("四步刻", "两种花色相间，数字间隔相等的四副刻子", "111m333p555m777p99s", "111m333p555p777m99s"),
    # -- suits ----------------------------------------------------------------------------------------------------
    ("五门齐", "有三种花色的牌和两种字牌", "123m456p789s111z55z", "123m456p789s111z22z"),
    ("清二色", "有且仅有两种花色的牌", "123m456p789p111m99p", "123m456p789p111m55z"),
    ("混一色", "有且仅有一种花色的牌和字牌", "123m456m789m111z99m", "123m456m789m111z99p"),
    ("清一色", "仅有一种花色的牌", "123m456m789m111m99m", "123m456m789m111m55z"),
    ("字一色", "仅有字牌", "111z222z333z555z66z", "111z222z333z555z66m"),
    # -- numbers --------------------------------------------------------------------------------------------------
    ("九数齐", "有字牌和九种数字的牌", "123m456p789s111z22z", "123m456p678s111z22z"),
    ("清五数", "有且仅有五种间隔相等的数字的牌", "123m345p345s111p55m", "123m345p345s111p66m"),
    ("清五数", "有且仅有五种间隔相等的数字的牌 (1 3 5 7 9)", "111m333p555s777m99p", "111m333p555s777m88p"),
    ("混四数", "有且仅有四种间隔相等的数字的牌和字牌", "111m333p555s777m11z", "111m333p555s888m11z"),
    ("清四数", "有且仅有四种间隔相等的数字的牌", "123m234p123s444m11p", "123m234p123s444m11z"),
    ("混三数", "有且仅有三种间隔相等的数字的牌和字牌", "123m123p111s11z222z", "111m222p444s11z222z"),
    ("清三数", "有且仅有三种间隔相等的数字的牌", "123m123p123s111m22p", "111m222p444s111p22s"),
    ("混二数", "有且仅有两种数字的牌和字牌", "111m222p111s11z222z", "111m222p333s11z222z"),
    ("清二数", "仅有两种数字的牌", "111m222m111p222p11s", "111m222m111p333p11s"),
    ("混一数", "有且仅有一种数字的牌和字牌", "111m111p111s111z22z", "111m111p222s111z22z"),
    # -- honors ---------------------------------------------------------------------------------------------------
    ("单箭", "有且仅有一种三元牌", "123m456p789s555z11m", "123m456p789s555z66z"),
    ("双箭", "有且仅有两种三元牌", "123m456p789s555z66z", "123m456p555z666z77z"),
    ("三元", "有三种三元牌", "123m456p555z666z77z", "123m456p555z666z11z"),
    ("双风", "有且仅有两种风牌", "123m456p789s111z22z", "123m456p789s111z11m"),
    ("三风", "有且仅有三种风牌", "123m456p111z222z33z", "123m456p111z222z55z"),
    ("四喜", "有四种风牌", "123m111z222z333z44z", "123m111z222z333z55z"),
    # -- shape ----------------------------------------------------------------------------------------------------
    ("平和", "有四副顺子", "123m456p789s234m11z", "123m456p789s222m11z"),
    ("对对和", "有四副刻子", "111m444p777s222z11z", "111m444p777s234m11z"),
    ("一杠", "有且仅有一副杠", "123m456p789s11z 2222z*", "123m456p789s11z 222z+"),
    ("二杠", "有且仅有两副杠", "123m11z 789s+ 2222z* 5555m+2", "123m11z 789s+ 2222z* 555m+"),
    ("三杠", "有且仅有三副杠", "123m11z 4444p^ 2222z* 5555m+2", "123m11z 444p+ 2222z* 5555m+2"),
    ("四杠", "有四副杠", "11z 4444p^ 2222z* 5555m+2 7777s*", "11z 444p+ 2222z* 5555m+2 7777s*"),
]


def fan_names(hand: str, **kwargs) -> list[str]:
    return [f.name for f in score_hand(Hand.parse(hand), max_wildcards=0, **kwargs).fans]


@pytest.mark.parametrize(
    ("fan", "definition", "hand", "near_miss"), FANS, ids=[f"{f[0]}-{i}" for i, f in enumerate(FANS)]
)
def test_fan_and_near_miss(fan, definition, hand, near_miss):
    assert fan in fan_names(hand), f"{fan} ({definition}) should count in {hand}"
    assert fan not in fan_names(near_miss), f"{fan} ({definition}) should not count in {near_miss}"


def test_every_fan_of_the_table_has_a_test():
    tested = {f[0] for f in FANS} | {name for name, *_ in INCIDENTAL}
    assert tested == set(default_fan_table().points)


# -- incidental fans: the circumstances of the win ----------------------------------------------------------------

HAND = "123m456p789s234m11z"  # 平和 only without circumstances (the winning tile 1z)
INCIDENTAL = [
    ("自摸和", "摸牌后和牌", dict(tsumo=True), dict()),
    ("海底和", "在牌山用尽后和牌", dict(tsumo=True, haitei=True), dict(tsumo=True)),
    ("海底和", "在牌山用尽后和牌 (the last discard)", dict(houtei=True), dict()),
    ("杠上和", "在杠的过程中和牌 (robbing a kong)", dict(chankan=True), dict()),
    ("天和", "使用配牌与第一张自摸牌和牌", dict(tsumo=True, tenhou=True), dict(tsumo=True)),
    (
        "天和",
        "使用配牌与第一张自摸牌和牌 (a non-dealer's first draw)",
        dict(tsumo=True, chiihou=True, seat_wind="S"),
        dict(tsumo=True, seat_wind="S"),
    ),
]


@pytest.mark.parametrize(("fan", "definition", "flags", "near_flags"), INCIDENTAL)
def test_incidental_fan_and_near_miss(fan, definition, flags, near_flags):
    hand = Hand.parse(HAND)
    with_it = score_hand(hand, WinConditions(win=Tile("1z"), **flags))
    without = score_hand(hand, WinConditions(win=Tile("1z"), **near_flags))
    assert fan in [f.name for f in with_it.fans], definition
    assert fan not in [f.name for f in without.fans], definition


def test_kong_replacement_win_is_gang_shang():
    """杠上和: 在杠的过程中和牌 - a self-drawn win on a kong's replacement tile (the hand has a kong)."""
    hand = Hand.parse("123m456p789s11z 2222z*")
    r = score_hand(hand, WinConditions(win=Tile("1z"), tsumo=True, rinshan=True))
    assert [f.name for f in r.fans][-2:] == ["自摸和", "杠上和"]
    assert "杠上和" not in [f.name for f in score_hand(hand, WinConditions(win=Tile("1z"), tsumo=True)).fans]


def test_tenhou_is_32():
    """天和 is worth 32 under the proposal, so the 32 rule makes the whole hand exactly 32."""
    r = score_hand(Hand.parse(HAND), WinConditions(win=Tile("1z"), tsumo=True, tenhou=True))
    assert r.score == 32 and r.full


def test_incidental_fans_do_not_count_with_wildcards():
    """使用万能牌和牌时不加计偶然类的番种: the same win, one tile short, scores no 自摸和."""
    hand = Hand.parse("123m456p789s234m1z2z")  # 2z is no pair for 1z: one wildcard needed
    r = score_hand(hand, WinConditions(win=Tile("2z"), tsumo=True, haitei=True))
    assert r.wildcards and r.score >= 1
    assert not any(f.family == "incidental" for f in r.fans)


def test_combination_fans_list_their_melds():
    r = score_hand(Hand.parse("123m234p345m456p99s"), max_wildcards=0)
    fan = next(f for f in r.fans if f.name == "四步顺")
    assert fan.melds == ("123m", "345m", "234p", "456p")
    assert next(f for f in r.fans if f.name == "平和").melds == ("123m", "345m", "234p", "456p")
    whole = score_hand(Hand.parse("123m456p789s111z55z"), max_wildcards=0).fans
    assert [(f.name, f.melds) for f in whole if f.family != "combinations"] == [
        ("五门齐", ()),
        ("九数齐", ()),
        ("单箭", ()),
    ]


def test_a_kong_counts_as_a_pung_in_combinations():
    r = score_hand(Hand.parse("222m333m11z 1111m* 4444m+"), max_wildcards=0)
    assert [(f.name, f.melds) for f in r.fans if f.family == "combinations"] == [
        ("四连刻", ("222m", "333m", "1111m", "4444m"))
    ]


def test_honor_melds_take_part_in_no_combination():
    names = fan_names("111z111m111p789s55z")  # 111z is no 'number 1' pung
    assert "逢刻" in names and "三逢刻" not in names
