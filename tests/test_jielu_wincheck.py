"""The compiled legal-win check (:mod:`jantaku.jielu.wincheck`) answers as the optimiser does, under any fan table.

The optimiser (:func:`jantaku.jielu.search.best_completion` with ``stop_at=1``) is held to an independent brute
force in tests/test_jielu_bruteforce.py and tests/test_jielu_legal_win.py. Here the compiled check, whose bounds
are built from the fan table's points, is compared with it under the shipped table and under three rule files
that move the bounds' weak spots: every fan worth the same (a low ``full``, so fewer wildcards can pay), the
whole-hand fans made decisive (worth ``full``), and the combination fans made heavy (so that the best assignment of
the melds decides). Hands are drawn near complete (a complete shape with one to five tiles replaced) and at random,
with zero to four called melds (chows, pungs and kongs) and random incidental fans, so that both answers and every
number of wildcards occur.
"""

from __future__ import annotations

import random
import tomllib
from importlib import resources

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jantaku.jielu import JieluError, can_win_counts
from jantaku.jielu.fantable import FanTable, default_fan_table, fan_table_from_mapping
from jantaku.jielu.melds import KONG, PUNG
from jantaku.jielu.search import best_completion
from jantaku.jielu.wincheck import win_check


def _table(change: dict[str, dict[str, int]], full: int = 32, cap: int = 24) -> FanTable:
    data = tomllib.loads(resources.files("jantaku.jielu").joinpath("fans.toml").read_text(encoding="utf-8"))
    data["scoring"] = {"full": full, "cap": cap}
    for family, points in change.items():
        for name, value in points.items():
            if family == "combinations":
                data[family][name]["points"] = value
            else:
                data[family][name] = value
    return fan_table_from_mapping(data, "test")


def _flat() -> FanTable:
    data = tomllib.loads(resources.files("jantaku.jielu").joinpath("fans.toml").read_text(encoding="utf-8"))
    change = {fam: dict.fromkeys(data[fam], 2) for fam in ("suits", "numbers", "honors", "shape", "incidental")}
    change["combinations"] = dict.fromkeys(data["combinations"], 2)
    return _table(change, full=16, cap=12)


TABLES = {
    "shipped": default_fan_table(),
    "flat": _flat(),
    "whole-hand decisive": _table(
        {
            "suits": {"五门齐": 12, "清二色": 6},
            "numbers": {"九数齐": 12, "混三数": 12},
            "honors": {"三风": 32},
            "shape": {"对对和": 12, "平和": 3},
        },
        cap=30,
    ),
    "heavy combinations": _table(
        {"combinations": {"逢顺": 3, "同顺": 6, "三步顺": 16, "逢刻": 8, "双逢顺": 16, "三连顺": 32}}, cap=40
    ),
}

INCIDENTAL = ((), (("自摸和", 1),), (("海底和", 2),), (("自摸和", 1), ("杠上和", 2)), (("自摸和", 1), ("天和", 32)))


def _fixed_melds(rng: random.Random, left: list[int], n: int) -> tuple[int, ...]:
    codes: list[int] = []
    while len(codes) < n:
        roll = rng.random()
        if roll < 0.45:
            k = 9 * rng.randrange(3) + rng.randrange(7)
            kinds, code = [k, k + 1, k + 2], k
        elif roll < 0.85:
            k = rng.randrange(34)
            kinds, code = [k] * 3, PUNG + k
        else:
            k = rng.randrange(34)
            kinds, code = [k] * 4, KONG + k
        if all(left[x] >= kinds.count(x) for x in set(kinds)):
            for x in kinds:
                left[x] -= 1
            codes.append(code)
    return tuple(codes)


def _closed(rng: random.Random, left: list[int], n: int, swaps: int) -> list[int]:
    closed = [0] * 34
    if swaps < 0:  # at random from what is left
        wall = [x for x in range(34) for _ in range(left[x])]
        for x in rng.sample(wall, n):
            closed[x] += 1
        return closed
    while sum(closed) < n - 2:
        k = 9 * rng.randrange(3) + rng.randrange(7)
        meld = [k, k + 1, k + 2] if rng.random() < 0.6 else [rng.randrange(34)] * 3
        if all(left[x] - closed[x] >= meld.count(x) for x in set(meld)):
            for x in meld:
                closed[x] += 1
    pair = rng.randrange(34)
    while left[pair] - closed[pair] < 2:
        pair = rng.randrange(34)
    closed[pair] += 2
    for _ in range(swaps):
        out = rng.choice([x for x in range(34) if closed[x]])
        closed[out] -= 1
        into = rng.choice([x for x in range(34) if left[x] - closed[x] > 0])
        closed[into] += 1
    return closed


def _case(seed: int, n_fixed: int, swaps: int) -> tuple[list[int], tuple[int, ...]]:
    rng = random.Random(seed)
    left = [4] * 34
    fixed = _fixed_melds(rng, left, n_fixed)
    return _closed(rng, left, 14 - 3 * n_fixed, swaps), fixed


def _scored_case(
    seed: int, n_fixed: int, swaps: int, incidental: tuple[tuple[str, int], ...], extra: int
) -> tuple[list[int], tuple[int, ...], tuple[tuple[str, int], ...]]:
    """A case to score: with a non-winner's ``extra`` wildcard, one tile fewer and no incidental fans."""
    closed, fixed = _case(seed, n_fixed, swaps)
    if extra:
        closed[max(range(34), key=lambda k: closed[k])] -= 1
        incidental = ()
    return closed, fixed, incidental


@pytest.mark.parametrize("name", list(TABLES))
@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n_fixed=st.sampled_from((0, 0, 0, 1, 1, 2, 3, 4)),
    swaps=st.sampled_from((-1, 1, 2, 2, 3, 3, 4, 5)),
    incidental=st.sampled_from(INCIDENTAL),
)
def test_the_compiled_check_answers_as_the_optimiser(name, seed, n_fixed, swaps, incidental):
    table = TABLES[name]
    closed, fixed = _case(seed, n_fixed, swaps)
    want = best_completion(closed, fixed, incidental=incidental, table=table, stop_at=1) is not None
    assert win_check(table)(closed, fixed, incidental) == want, (name, closed, fixed, incidental)


@pytest.mark.parametrize("name", list(TABLES))
def test_both_answers_occur_under_every_table(name):
    """The cases above are not all one answer: a check that always said no (or yes) would fail here."""
    table = TABLES[name]
    answers = [
        win_check(table)(*_case(seed, n_fixed, swaps))
        for seed in range(60)
        for n_fixed, swaps in ((0, -1), (0, 3), (1, 2), (2, 4), (0, 5))
    ]
    assert 20 <= sum(answers) <= len(answers) - 20


def test_known_hands():
    check = win_check(default_fan_table())
    from jantaku.tiles import counts34, parse_tiles

    def counts(text: str) -> list[int]:
        return counts34(parse_tiles(text))

    assert check(counts("123m456p789s11z344z"), ())  # a wildcard for 2z or 4z: 五门齐 and more
    assert not check(counts("19m19p19s11234567z"), ())  # thirteen orphans is no 洁律 shape
    # a complete hand whose only fan is 自摸和 wins by tsumo, not by ron
    plain = counts("234m567m345p678s55s")
    assert check(plain, (), (("自摸和", 1),)) == (
        best_completion(plain, (), incidental=(("自摸和", 1),), stop_at=1) is not None
    )
    # four called kongs and a pair: 四杠 alone is worth full
    assert check(counts("55z"), (KONG + 0, KONG + 10, KONG + 20, KONG + 30))


# complete hands of the shipped table's fans worth ``full`` (and of 三风, worth full in "whole-hand decisive")
FULL_FAN_HANDS = (
    "11122233355577z",  # 字一色
    "111999m111999p11s",  # 清二数
    "555m555p555s111z22z",  # 混一数
    "111222333444z55m",  # 四喜
    "111122223333m55p",  # 四同顺
    "111222333444m55p",  # 四连刻
    "111222333z123m55p",  # 三风
)


@pytest.mark.parametrize("name", list(TABLES))
def test_hands_near_a_fan_worth_full_answer_as_the_optimiser(name):
    """With more wildcards than the cap pays for (2**w > cap), only a fan worth ``full`` pays, and the search skips
    that level when no such fan is within reach of the hand (its forbidden tiles, its missing honors, a
    combination's missing tiles). Hands three to ten tiles from each such fan answer as the optimiser does."""
    from jantaku.tiles import counts34, parse_tiles

    table = TABLES[name]
    check = win_check(table)
    rng = random.Random(5)
    for text in FULL_FAN_HANDS:
        for swaps in (3, 5, 5, 6, 7, 8, 9, 10):
            hand = counts34(parse_tiles(text))
            for _ in range(swaps):
                hand[rng.choice([k for k in range(34) if hand[k]])] -= 1
                hand[rng.choice([k for k in range(34) if hand[k] < 4])] += 1
            want = best_completion(hand, (), table=table, stop_at=1) is not None
            assert check(hand, ()) == want, (name, hand)


@pytest.mark.parametrize(
    ("name", "hand"),
    [
        ("shipped", "3m26p8s1222333567z"),  # 混一数 (no 9, nor anything but 1)
        ("shipped", "111149m11899p19s4z"),  # 清二数
        ("shipped", "455m559p59s112246z"),  # 混一数
        ("shipped", "155m4p78s12222344z"),  # 四喜
        ("shipped", "1111233m25578p3s7z"),  # 四同顺
        ("shipped", "112223445m578p7s7z"),  # 四连刻
        ("whole-hand decisive", "36m5p3s1122233457z"),  # 三风
        ("whole-hand decisive", "11159m11269p119s4z"),  # 清二数
        ("whole-hand decisive", "25569m5s11223346z"),  # 三风
    ],
)
def test_a_win_at_the_most_wildcards_is_found(name, hand):
    """Hands whose only wins use five wildcards, through a fan worth ``full``: the level is searched, not skipped."""
    from jantaku.tiles import counts34, parse_tiles

    table = TABLES[name]
    counts = counts34(parse_tiles(hand))
    found = best_completion(counts, (), table=table, stop_at=1)
    assert found is not None and found.wildcards == 5 and found.evaluation.full
    assert win_check(table)(counts, ())
    assert win_check(table).best_score(counts, ()) == best_completion(counts, (), table=table).score


@pytest.mark.parametrize(
    ("counts", "fixed", "message"),
    [
        ([1] * 14 + [0] * 20, (), None),
        ([1] * 13 + [0] * 21, (), "14 tiles"),
        ([5] + [1] * 9 + [0] * 24, (), "34 counts"),
        ([0] + [1] * 12 + [0] * 21, (PUNG + 0,), "this one has 15"),
        ([2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0] + [0] * 23, (PUNG + 0,), "more than four copies"),
        ([1] * 14, (), "34 counts"),
        ([-1] + [1] * 15 + [0] * 18, (), "34 counts"),
    ],
)
def test_bad_hands_are_named(counts, fixed, message):
    check = win_check(default_fan_table())
    if message is None:
        assert check(counts, fixed) in (True, False)
        return
    with pytest.raises(JieluError, match=message):
        check(counts, fixed)


@pytest.mark.parametrize("bad", [-1, True, 1.5, "1"])
def test_a_bad_known_score_is_named(bad):
    from jantaku import Hand
    from jantaku.jielu import score_hand
    from jantaku.tiles import counts34, parse_tiles

    with pytest.raises(JieluError, match="at_least must be a whole number"):
        win_check(default_fan_table()).best_score(counts34(parse_tiles("123m456p789s11z344z")), (), (), 0, bad)
    with pytest.raises(JieluError, match="at_least must be a whole number"):
        score_hand(Hand.parse("123m456p789s11z344z"), at_least=bad)


def test_can_win_counts_is_the_public_form():
    from jantaku.tiles import counts34, parse_tiles

    c = counts34(parse_tiles("234m567m345p678s55s"))
    assert can_win_counts(c, (), tsumo=True) == win_check(default_fan_table())(c, (), (("自摸和", 1),))
    with pytest.raises(JieluError):
        can_win_counts(c[:-1], ())


@pytest.mark.parametrize("name", list(TABLES))
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n_fixed=st.sampled_from((0, 0, 1, 2, 4)),
    swaps=st.sampled_from((0, 1, 2, 3)),
    incidental=st.sampled_from(INCIDENTAL),
    extra=st.sampled_from((0, 0, 1)),
)
def test_the_best_score_is_the_optimisers(name, seed, n_fixed, swaps, incidental, extra):
    """``best_score`` (the same search, not stopping at 1) gives the optimiser's score S, with or without a
    non-winner's extra wildcard."""
    table = TABLES[name]
    closed, fixed, incidental = _scored_case(seed, n_fixed, swaps, incidental, extra)
    found = best_completion(closed, fixed, extra=extra, incidental=incidental, table=table)
    want = found.score if found else 0
    assert win_check(table).best_score(closed, fixed, incidental, extra) == want, (name, closed, fixed, extra)


@pytest.mark.parametrize("name", list(TABLES))
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n_fixed=st.sampled_from((0, 0, 1, 2, 4)),
    swaps=st.sampled_from((0, 1, 2, 3, 4)),
    incidental=st.sampled_from(INCIDENTAL),
)
def test_a_known_win_gives_the_same_best_score(name, seed, n_fixed, swaps, incidental):
    """``best_score(..., at_least=1)`` (what a table passes once the check said the hand may win) looks only above
    1 and gives the same best score; given more than the hand reaches, it answers that score."""
    table = TABLES[name]
    closed, fixed, incidental = _scored_case(seed, n_fixed, swaps, incidental, 0)
    check = win_check(table)
    best = check.best_score(closed, fixed, incidental)
    if best:
        assert check.best_score(closed, fixed, incidental, 0, 1) == best
    assert check.best_score(closed, fixed, incidental, 0, best + 1) == best + 1


@pytest.mark.parametrize("name", list(TABLES))
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n_fixed=st.sampled_from((0, 0, 1, 2)),
    swaps=st.sampled_from((0, 1, 2, 3)),
    incidental=st.sampled_from(INCIDENTAL),
    extra=st.sampled_from((0, 0, 1)),
)
def test_score_hand_finds_the_optimisers_own_completion(name, seed, n_fixed, swaps, incidental, extra):
    """``score_hand`` asks the compiled search for the best score S, then the optimiser for its first completion
    of score S: the very completion (melds, pair, wildcards, fans) that the optimiser's whole search returns."""
    from jantaku.jielu.scoring import _best_found

    table = TABLES[name]
    closed, fixed, incidental = _scored_case(seed, n_fixed, swaps, incidental, extra)
    whole = best_completion(closed, fixed, extra=extra, incidental=incidental, table=table)
    assert _best_found(closed, fixed, extra, incidental, table) == whole, (name, closed, fixed, extra)


@pytest.mark.parametrize("name", list(TABLES))
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n_fixed=st.sampled_from((0, 0, 1, 2)),
    swaps=st.sampled_from((1, 2, 3)),
    extra=st.sampled_from((0, 0, 1)),
)
def test_the_first_reading_is_the_one_the_optimiser_returns(name, seed, n_fixed, swaps, extra):
    """``first_reading``, told the best score, follows the optimiser's own order to the completion it returns: the
    same wildcards, closed melds and pair (whenever that completion uses a wildcard)."""
    table = TABLES[name]
    closed, fixed, _ = _scored_case(seed, n_fixed, swaps, (), extra)
    whole = best_completion(closed, fixed, extra=extra, table=table)
    if whole is None or whole.wildcards == 0:
        return
    got = win_check(table).first_reading(closed, fixed, whole.score, extra)
    assert got is not None, (name, closed, fixed, extra)
    w, groups, pair = got
    assert (w, tuple(sorted(groups)), pair) == (whole.wildcards, whole.closed_melds, whole.pair)


WARM_COVERS = """
import numba
from jantaku.jielu import wincheck
from jantaku.jielu.wincheck import warm_up
from jantaku.rules import load_rules
from jantaku.scoring_requests import score_json
from jantaku.sim.runner import play_game

def compiled():
    return {name: len(f.signatures) for name, f in vars(wincheck).items()
            if isinstance(f, numba.core.registry.CPUDispatcher)}

warm_up()
after_warm_up = compiled()
for mode in ("points", "original"):
    for seed in range(2):
        play_game(load_rules("jielu").replace(jielu_mode=mode), seed, ["efficiency", "strong", "random", "efficiency"])
score_json({"hand": "123m456m789m123p1z 1z", "win": "1z", "tsumo": True, "rules": "jielu"})
score_json({"hand": "123m456m789m12p55z", "win": "2p", "rules": "jielu"})
later = {name: n for name, n in compiled().items() if n != after_warm_up[name]}
assert not later, f"compiled after warm_up: {later}"
print(sum(after_warm_up.values()))
"""


def test_warm_up_compiles_everything_play_and_scoring_use():
    """A server warms the check at start (``jantaku serve``) and the suite before its workers start: every compiled
    function that play and scoring then call is among those warm_up compiled (or loaded from numba's cache), so
    no hand of a fresh install waits seconds for the compiler and no process compiles what another already did.
    (The optimiser's wildcard search, ``_find``, was once compiled by the first hand needing it, in every process
    that met one before the cache held it.)"""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", WARM_COVERS], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.split()[-1]) >= 3  # the check, the best score and the first reading at least
