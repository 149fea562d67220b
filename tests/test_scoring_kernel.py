"""The fast path of ``score_hand`` (``jantaku.riichi.kernel``) against the reference scorer, field by field.

Random winning hands of every yaku family (the generator of ``tools/diff_mahjong.py``), under every riichi
preset and under rule variations that touch the fast path's arithmetic (kiriage, kazoe, double wind pair fu,
yakuman stacking and doubles, minimum han, open tanyao, renhou, all-green, rounding, honba), with varied
seats, discarders, honba and deposits: where the fast path answers, it answers exactly what the reference
does (every field, the lazily built fu items and reading, the explanation, the error and its message).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path
from random import Random
from types import ModuleType

import pytest

from jantaku import Hand, Tile
from jantaku.riichi import ScoringError, WinConditions, score_hand
from jantaku.riichi.kernel import score_fast
from jantaku.riichi.scoring import ScoreResult, score_reference
from jantaku.rules import load_rules

FIELDS = [f.name for f in dataclasses.fields(ScoreResult)]


def _generator() -> ModuleType:
    name = "diff_mahjong"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parents[1] / "tools" / "diff_mahjong.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hands() -> list[tuple[Hand, WinConditions]]:
    gen = _generator()
    rng = Random(7)
    out = []
    for deal in gen.make_deals(2500, 11):
        hand, cond = gen.to_jantaku(deal)
        out.append((hand, cond))
        # the same hand from another seat, with sticks
        winner = rng.randrange(4)
        changes: dict[str, object] = {"winner": winner, "honba": rng.randrange(4), "deposits": rng.randrange(3)}
        if not cond.tsumo:
            changes["discarder"] = rng.choice([s for s in range(4) if s != winner])
        out.append((hand, dataclasses.replace(cond, **changes)))
    return out


def _outcome(fn, hand, cond, rules):
    try:
        return fn(hand, cond, rules), None
    except ScoringError as e:
        return None, (type(e).__name__, str(e))


def _compare(hands, rules) -> tuple[int, int]:
    fast_count = 0
    for hand, cond in hands:
        ref, ref_err = _outcome(score_reference, hand, cond, rules)
        fast, fast_err = _outcome(score_fast, hand, cond, rules)
        if fast is None and fast_err is None:
            continue  # the fast path leaves this hand to the reference
        fast_count += 1
        where = f"{hand} win {cond.win} {cond} under {rules.name}"
        assert fast_err == ref_err, where
        if ref is None:
            continue
        for name in FIELDS:
            assert getattr(fast, name) == getattr(ref, name), f"{name}: {where}"
        assert fast.explain() == ref.explain(), where
        assert fast == ref
    return fast_count, len(hands)


RIICHI_PRESETS = ["tenhou", "mleague", "mu", "standard", "meibi", "mahjongsoul"]


def _plain(t: Tile) -> Tile:
    return Tile.from_kind(t.kind)


def _allowed(hand: Hand, cond: WinConditions, rules) -> tuple[Hand, WinConditions]:
    """The hand and circumstances without what the rule set does not have (red fives, ippatsu, ura dora, kan
    dora, honba)."""
    changes: dict[str, object] = {}
    if rules.red_fives == (0, 0, 0):
        melds = tuple(
            dataclasses.replace(
                m,
                tiles=tuple(_plain(t) for t in m.tiles),
                called=m.called and _plain(m.called),
                added=m.added and _plain(m.added),
            )
            for m in hand.melds
        )
        hand = Hand(tuple(_plain(t) for t in hand.closed), melds)
        changes["win"] = _plain(cond.win)
    if not rules.kan_dora and len(cond.dora) > 1:
        changes["dora"] = cond.dora[:1]
        changes["ura"] = cond.ura[:1]
    if not rules.ippatsu and cond.ippatsu:
        changes["ippatsu"] = False
    if not rules.ura_dora and cond.ura:
        changes["ura"] = ()
    if not rules.honba_points and cond.honba:
        changes["honba"] = 0
    return hand, dataclasses.replace(cond, **changes) if changes else cond


@pytest.mark.parametrize("preset", RIICHI_PRESETS)
def test_fast_path_equals_reference_under_each_preset(hands, preset):
    rules = load_rules(preset)
    fast, total = _compare([_allowed(hand, cond, rules) for hand, cond in hands], rules)
    assert fast == total


VARIATIONS = [
    {"kiriage": True},
    {"kazoe_yakuman": False},
    {"double_wind_pair_fu": 2},
    {"double_wind_pair_fu": 4},
    {"yakuman_stacking": False},
    {"yakuman_stacking": True, "double_yakuman": frozenset(("kokushi_musou_13", "suuankou_tanki", "daisuushii"))},
    {"min_han": 2},
    {"open_tanyao": False},
    {"ryuuiisou_needs_hatsu": True},
    {"payment_rounding": 1000, "honba_points": 1500},
]


@pytest.mark.parametrize("changes", VARIATIONS, ids=lambda d: ",".join(d))
def test_fast_path_equals_reference_under_rule_variations(hands, changes):
    rules = load_rules("tenhou").replace(**changes)
    _compare(hands[:2000], rules)


@pytest.mark.parametrize("renhou", ["mangan", "yakuman", "none"])
def test_renhou(renhou):
    rules = load_rules("standard").replace(renhou=renhou)
    for text, win in [("123m456p789s11z22z2z", "2z"), ("11223344556677z", "7z"), ("123456789m99p111s", "3m")]:
        cond = WinConditions(win=Tile(win), renhou=True, seat_wind="S", winner=1)
        hand = Hand.parse(text)
        fast, fast_err = _outcome(score_fast, hand, cond, rules)
        ref, ref_err = _outcome(score_reference, hand, cond, rules)
        if fast is not None or fast_err is not None:
            assert (fast, fast_err) == (ref, ref_err)
        else:
            assert renhou == "none"  # refused: the reference's ConditionError


def test_lazy_fields_are_built_once_and_kept():
    r = score_hand("234m567m66p777s999s", WinConditions(win=Tile("6p"), tsumo=True), "tenhou")
    assert "fu_items" not in vars(r)
    items = r.fu_items
    assert items == [("base", 20), ("closed pung 7s", 4), ("closed pung 9s", 8), ("tanki wait", 2), ("tsumo", 2)]
    assert r.fu_items is items and r.reading is vars(r)["reading"]
    assert r.reading.wait == "tanki" and r.fu == 40


def test_equal_scores_are_explained_by_the_references_reading():
    # 3m ends 123m (edge wait) or 234m (closed wait): both 40 fu riichi; the reference meets the edge first
    hand, cond = Hand.parse("122334567m88p999s"), WinConditions(win=Tile("3m"), riichi=True)
    r = score_hand(hand, cond, "tenhou")
    assert r.reading.wait == score_reference(hand, cond, "tenhou").reading.wait == "penchan"


@pytest.mark.parametrize(
    ("text", "win"),
    [("123m456p789s22340s", "5s"), ("123m456p789s22345s", "0s"), ("123m456p789s22345s", "9m")],
)
def test_a_winning_tile_not_in_the_hand_is_the_references_error(text, win):
    # a red five and a plain five are different tiles
    hand, cond = Hand.parse(text), WinConditions(win=Tile(win), tsumo=True)
    assert score_fast(hand, cond, "tenhou") is None
    with pytest.raises(ScoringError, match="not among the closed tiles"):
        score_hand(hand, cond, "tenhou")


def test_text_hands_and_preset_names():
    cond = WinConditions(win=Tile("0s"), tsumo=True, riichi=True)
    by_name = score_hand("123m456p789s22340s", cond, "tenhou")
    by_object = score_hand(Hand.parse("123m456p789s22340s"), cond, load_rules("tenhou"))
    assert by_name == by_object == score_reference("123m456p789s22340s", cond, "tenhou")
    assert [name for name, _ in by_name.yaku] == ["menzen_tsumo", "riichi", "pinfu", "aka_dora"]


def test_alternating_rule_sets_and_a_toml_file_read_on_every_call(tmp_path):
    hand = Hand.parse("234m567p456s78999s")
    cond = WinConditions(win=Tile("9s"), honba=1)  # pinfu ron, 30 fu (no kiriage under tenhou), honba paid
    tenhou, mleague = load_rules("tenhou"), load_rules("mleague")
    for rules in (tenhou, mleague, tenhou, "tenhou", mleague, "mleague"):
        assert score_hand(hand, cond, rules) == score_reference(hand, cond, rules)
    path = tmp_path / "house.toml"
    spec = str(path)  # the same string object in both calls
    path.write_text('base = "tenhou"\nhonba_points = 300\n')
    assert score_hand(hand, cond, spec).payments[3] == -1800  # the dealer: 1500 + 300
    path.write_text('base = "tenhou"\nhonba_points = 100\n')
    assert score_hand(hand, cond, spec).payments[3] == -1600


def test_reading_order_matches_the_references_sort():
    # the reference sorts decompositions by (pair, more closed pungs first, the closed pungs), then places the
    # winning tile (pair, pung, runs by start); _met_first compares packed readings the same way
    from jantaku.riichi.kernel import S_PAIR, S_PLACE, _met_first, pung_bit

    rng = Random(3)
    for _ in range(20000):
        readings = []
        for _ in range(2):
            pair = rng.randrange(3)
            pungs = sorted(rng.sample(range(34), rng.randrange(3)) if rng.random() < 0.5 else rng.sample([0, 1, 2], 1))
            place = rng.randrange(3)
            p = (pair + 1) << S_PAIR | place << S_PLACE
            for k in pungs:
                p |= pung_bit(k)
            readings.append((p, (pair, -len(pungs), *pungs, 99, place)))
        (p, kp), (q, kq) = readings
        if p != q:
            assert _met_first(p, q) == (kp < kq), (kp, kq)
    assert _met_first(0, -1) and not _met_first(-1, 0)


def test_a_fast_result_pickles_copies_and_replaces_like_any_other():
    import copy
    import pickle

    r = score_hand("234m567p456s78999s", WinConditions(win=Tile("9s"), tsumo=True), "tenhou")
    for other in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
        assert other == r and other.fu_items == [("base", 20)] and other.reading.wait == "ryanmen"
    assert dataclasses.replace(r, han=5).fu_items == r.fu_items
    assert dataclasses.asdict(r)["fu_items"] == [("base", 20)]


def test_full_tables_are_emptied_and_refilled(monkeypatch, hands):
    from jantaku.riichi import kernel

    monkeypatch.setattr(kernel, "MAX_TABLE_ENTRIES", 5)
    tables = (*kernel._BLOCKS, kernel._PLACED, kernel._YAKU_TABLE, kernel._MELDS)
    for table in tables:
        table.clear()  # they refill as they are used
    rules = load_rules("tenhou")
    for hand, cond in hands[:300]:
        fast, fast_err = _outcome(score_hand, hand, cond, rules)
        assert (fast, fast_err) == _outcome(score_reference, hand, cond, rules)
    assert all(len(t) <= 5 for t in tables)
