"""Properties of the shape functions, checked with hypothesis and against a brute-force oracle."""

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jantaku import decompositions, is_complete, shanten, shanten_batch, shanten_forms
from jantaku.shapes import ukeire, wait_kinds, waits
from jantaku.tiles import KIND_NAMES, TERMINALS_AND_HONORS

WALL = [k for k in range(34) for _ in range(4)]


@st.composite
def hands(draw, sizes=(1, 2, 4, 5, 7, 8, 10, 11, 13, 14)):
    """Counts of a hand of a legal size drawn from a real wall (never a fifth copy)."""
    n = draw(st.sampled_from(sizes))
    picks = draw(st.lists(st.integers(0, 135), min_size=n, max_size=n, unique=True))
    counts = [0] * 34
    for i in picks:
        counts[WALL[i]] += 1
    return counts


@st.composite
def complete_hands(draw):
    """A complete hand built from melds and a pair (or seven pairs / thirteen orphans)."""
    form = draw(st.sampled_from(["regular", "regular", "regular", "chiitoitsu", "kokushi"]))
    counts = [0] * 34
    if form == "chiitoitsu":
        for k in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True)):
            counts[k] = 2
        return counts
    if form == "kokushi":
        for k in TERMINALS_AND_HONORS:
            counts[k] = 1
        counts[draw(st.sampled_from(TERMINALS_AND_HONORS))] += 1
        return counts
    melds = draw(st.integers(0, 4))
    for _ in range(melds):
        if draw(st.booleans()):
            k = draw(st.integers(0, 33))
            add = [k, k, k]
        else:
            suit, start = draw(st.integers(0, 2)), draw(st.integers(0, 6))
            add = [9 * suit + start + j for j in range(3)]
        for k in add:
            counts[k] += 1
    counts[draw(st.integers(0, 33))] += 2
    if max(counts) > 4:
        from hypothesis import assume

        assume(False)
    return counts


@settings(max_examples=400, deadline=None)
@given(complete_hands())
def test_complete_hands_have_shanten_minus_one_and_a_decomposition(counts):
    assert shanten(counts) == -1
    assert is_complete(counts)
    assert decompositions(counts)


@settings(max_examples=400, deadline=None)
@given(hands(sizes=(2, 5, 8, 11, 14)))
def test_shanten_is_minus_one_exactly_for_complete_hands(counts):
    assert (shanten(counts) == -1) == is_complete(counts) == bool(decompositions(counts))


@settings(max_examples=300, deadline=None)
@given(hands(sizes=(2, 5, 8, 11, 14)), st.data())
def test_decompositions_use_exactly_the_hand(counts, data):
    for d in decompositions(counts):
        rebuilt = [0] * 34
        if d.form == "regular":
            rebuilt[d.pair] += 2
            for k in d.pungs:
                rebuilt[k] += 3
            for k in d.runs:
                assert k < 27 and k % 9 <= 6
                for j in range(3):
                    rebuilt[k + j] += 1
        elif d.form == "chiitoitsu":
            for k in d.pairs:
                rebuilt[k] += 2
        else:
            for k in TERMINALS_AND_HONORS:
                rebuilt[k] += 1
            rebuilt[d.pair] += 1
        assert rebuilt == counts


@settings(max_examples=400, deadline=None)
@given(hands(sizes=(14,)), st.data())
def test_discard_then_draw_changes_shanten_by_at_most_one(counts, data):
    before = shanten(counts)
    held = [k for k in range(34) if counts[k]]
    out = data.draw(st.sampled_from(held))
    counts[out] -= 1
    drawable = [k for k in range(34) if counts[k] < 4 and k != out]
    counts[data.draw(st.sampled_from(drawable))] += 1
    assert abs(shanten(counts) - before) <= 1


@settings(max_examples=400, deadline=None)
@given(hands(sizes=(1, 4, 7, 10, 13)))
def test_waits_are_exactly_the_tiles_that_complete_the_hand(counts):
    completing = []
    for k in range(34):
        if counts[k] < 4:
            counts[k] += 1
            if is_complete(counts):
                completing.append(k)
            counts[k] -= 1
    assert wait_kinds(counts) == completing
    assert waits(counts) == [KIND_NAMES[k] for k in completing]
    assert (shanten(counts) == 0) == bool(completing)


@settings(max_examples=200, deadline=None)
@given(hands(sizes=(4, 7, 10, 13)))
def test_ukeire_tiles_lower_shanten(counts):
    u = ukeire(counts)
    s = shanten(counts)
    assert u.shanten == s
    for k in range(34):
        if counts[k] < 4:
            counts[k] += 1
            lowers = shanten(counts) < s
            counts[k] -= 1
            assert (KIND_NAMES[k] in u.tiles) == lowers


@settings(max_examples=100, deadline=None)
@given(st.lists(hands(), min_size=1, max_size=40))
def test_batch_and_one_hand_apis_agree(rows):
    arr = np.array(rows, dtype=np.int8)
    assert shanten_batch(arr).tolist() == [shanten(r) for r in rows]
    assert shanten_batch(arr.astype(np.int64)).tolist() == [shanten(r) for r in rows]


# -- an independent oracle: the fewest tiles to add so that the hand contains m melds and a pair ---------


def _targets(melds):
    shapes = [[k] * 3 for k in range(34)] + [
        [9 * s + i, 9 * s + i + 1, 9 * s + i + 2] for s in range(3) for i in range(7)
    ]
    out = []
    for combo in itertools.combinations_with_replacement(range(len(shapes)), melds):
        base = [0] * 34
        for j in combo:
            for k in shapes[j]:
                base[k] += 1
        for pair in range(34):
            t = list(base)
            t[pair] += 2
            if max(t) <= 4:
                out.append(t)
    return np.array(out, dtype=np.int16)


_TARGETS = {m: _targets(m) for m in (0, 1, 2)}


@pytest.mark.parametrize("size", [1, 2, 4, 5, 7, 8])
def test_regular_shanten_matches_brute_force_over_all_targets(size):
    rng = random.Random(size)
    targets = _TARGETS[size // 3]
    for _ in range(150):
        counts = [0] * 34
        # bias toward few kinds so that shapes interact
        kinds = rng.sample(range(34), rng.randint((size + 3) // 4, 6))
        pool = [k for k in kinds for _ in range(4)]
        for k in rng.sample(pool, size):
            counts[k] += 1
        distance = int(np.maximum(targets - np.array(counts, dtype=np.int16), 0).sum(axis=1).min())
        assert shanten_forms(counts).regular == distance - 1, counts


@settings(max_examples=300, deadline=None)
@given(hands(), st.booleans())
def test_shanten_after_each_is_shanten_of_each_changed_hand(counts, regular_only):
    """shanten_after_each (one block looked up again per kind) answers as shanten of each changed hand does."""
    from jantaku.shapes.shanten import shanten_after_each, shanten_regular

    measure = shanten_regular if regular_only else shanten
    n = sum(counts)
    for change in (1, -1):
        if (n + change) % 3 == 0 or not 1 <= n + change <= 14:
            with pytest.raises(Exception, match="3n\\+1 or 3n\\+2"):
                shanten_after_each(counts, change, regular_only)
            continue
        before = list(counts)
        got = shanten_after_each(counts, change, regular_only)
        assert counts == before  # the caller's counts are left as they were
        for k in range(34):
            if counts[k] + change > 4 or counts[k] + change < 0:
                assert got[k] is None
                continue
            changed = list(counts)
            changed[k] += change
            assert got[k] == measure(changed), (KIND_NAMES[k], change)


def test_shanten_after_each_refuses_what_is_not_a_change_of_one_tile():
    from jantaku.errors import HandError
    from jantaku.shapes.shanten import shanten_after_each

    with pytest.raises(ValueError, match="change is 1"):
        shanten_after_each([1] * 13 + [0] * 21, 2)
    with pytest.raises(HandError, match="0-4"):
        shanten_after_each([5] + [1] * 8 + [0] * 25, 1)
    with pytest.raises(HandError, match="0-4"):
        shanten_after_each([-1, 2] + [1] * 11 + [0] * 21, 1)
    with pytest.raises(HandError, match="34 counts"):
        shanten_after_each(["x"] + [1] * 12 + [0] * 21, 1)  # type: ignore[list-item]
