"""Which fans a completion with w wildcards can still have (jantaku.jielu.reach), checked against the completions.

The optimiser leaves a fan out of its value bound at a wildcard count when :func:`kept_bounds` says no completion
having it keeps enough of the hand's tiles. Two properties keep that exact:

- for random completions (built to have the bounded fans: pungs only, chows over the nine numbers with an honor,
  one group per suit and honor, several honor kinds) and hands made from them by swapping tiles, every bounded fan
  the completion has is within its bound - whenever each group of the completion holds a real tile of the hand,
  as the rules require (洁律, RULES.md section 2: no pair or meld made only of wildcards);
- the optimiser with its pruning on gives the same result as with it off, under the shipped table and under one
  that makes the bounded fans decisive (a rule file may change any fan's points), for the legal-win check
  (``stop_at=1``) and for scoring.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import tries
from jantaku.jielu.evaluate import evaluate
from jantaku.jielu.fantable import default_fan_table, with_points
from jantaku.jielu.melds import KONG, PUNG, meld_tiles
from jantaku.jielu.reach import FANS, kept_bounds, out_of_reach, zeroed_table
from jantaku.jielu.search import best_completion
from test_jielu_bruteforce import groups_get_real_tiles

DECISIVE = with_points({"对对和": 16, "九数齐": 16, "五门齐": 16, "三风": 16, "双风": 8, "双箭": 8, "单箭": 4})
"""A table under which the bounded fans decide most wins."""


def _chow(suit: int, start: int) -> int:
    return 9 * suit + start


def _target(rng: random.Random, style: str) -> tuple[list[int], int]:
    """Four meld codes and a pair kind of a complete hand of the given style (no kind five times)."""
    while True:
        if style == "pungs":
            kinds = rng.sample(range(34), 5)
            melds, pair = [PUNG + k for k in kinds[:4]], kinds[4]
        elif style == "nine":
            melds = [_chow(rng.randrange(3), a) for a in (0, 3, 6)]
            honor = rng.randrange(27, 34)
            if rng.random() < 0.5:
                melds.append(PUNG + honor)
                pair = rng.randrange(34)
            else:
                melds.append(rng.choice((PUNG + rng.randrange(34), _chow(rng.randrange(3), rng.randrange(7)))))
                pair = honor
        elif style == "five":
            groups = [rng.choice((_chow(s, rng.randrange(7)), PUNG + 9 * s + rng.randrange(9))) for s in range(3)]
            groups += [PUNG + rng.randrange(27, 31), PUNG + rng.randrange(31, 34)]
            i = rng.randrange(5)
            pair = meld_tiles(groups[i])[rng.randrange(3)]
            melds = groups[:i] + groups[i + 1 :]
        elif style == "honors":
            kinds = rng.sample(range(27, 34), rng.randrange(2, 5))
            melds = [PUNG + k for k in kinds]
            while len(melds) < 4:
                melds.append(rng.choice((PUNG + rng.randrange(27), _chow(rng.randrange(3), rng.randrange(7)))))
            pair = rng.randrange(34)
        else:
            melds = [
                rng.choice((PUNG + rng.randrange(34), _chow(rng.randrange(3), rng.randrange(7)))) for _ in range(4)
            ]
            pair = rng.randrange(34)
        counts = [0] * 34
        counts[pair] += 2
        for m in melds:
            for k in meld_tiles(m):
                counts[k] += 1
        if max(counts) <= 4:
            return melds, pair


def _hand(rng: random.Random, style: str, n_fixed: int, swaps: int):
    """(target melds, pair, fixed codes, closed counts of a hand ``swaps`` tiles away from the target)."""
    melds, pair = _target(rng, style)
    rng.shuffle(melds)
    fixed = [KONG + m - PUNG if m >= PUNG and rng.random() < 0.3 else m for m in melds[:n_fixed]]
    closed = [0] * 34
    closed[pair] += 2
    for m in melds[n_fixed:]:
        for k in meld_tiles(m):
            closed[k] += 1
    total = closed[:]
    for m in fixed:
        for k in meld_tiles(m):
            total[k] += 1
    if max(total) > 4:  # a kong made a fifth copy: keep the pung
        fixed = melds[:n_fixed]
        total = closed[:]
        for m in fixed:
            for k in meld_tiles(m):
                total[k] += 1
    for _ in range(swaps):
        k = rng.choice([k for k in range(34) if closed[k]])
        closed[k] -= 1
        total[k] -= 1
        k = rng.choice([k for k in range(34) if total[k] < 4])
        closed[k] += 1
        total[k] += 1
    return melds, pair, fixed, closed


@settings(max_examples=tries(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    style=st.sampled_from(("pungs", "nine", "five", "honors", "any")),
    n_fixed=st.sampled_from((0, 0, 0, 1, 2)),
    swaps=st.integers(0, 6),
)
def test_a_completion_keeps_no_more_than_the_bound_of_each_fan_it_has(seed, style, n_fixed, swaps):
    rng = random.Random(seed)
    melds, pair, fixed, closed = _hand(rng, style, n_fixed, swaps)
    need = [0] * 34
    need[pair] += 2
    closed_groups: list[tuple[int, ...]] = [(pair,)]
    for m in melds[n_fixed:]:
        closed_groups.append(meld_tiles(m))
        for k in meld_tiles(m):
            need[k] += 1
    kept = [min(a, b) for a, b in zip(need, closed, strict=True)]
    if not groups_get_real_tiles(closed_groups, dict(enumerate(kept))):
        return  # not a completion the rules allow
    codes = tuple(sorted([*fixed, *melds[n_fixed:]]))
    fans = {f.name for f in evaluate(codes, pair, default_fan_table()).fans}
    bounds = kept_bounds(tuple(closed), 4 - n_fixed, bool(fixed))
    slots = 3 * (4 - n_fixed) + 2
    w = slots - sum(kept)  # the wildcards this completion uses
    for name in fans & set(FANS):
        if name in bounds:
            assert sum(kept) <= bounds[name], (name, melds, pair, fixed, closed, dict(bounds))
    assert not fans & out_of_reach(bounds, slots - w)


@settings(max_examples=tries(60), deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    style=st.sampled_from(("pungs", "nine", "five", "honors", "any")),
    n_fixed=st.sampled_from((0, 0, 1)),
    swaps=st.integers(1, 5),
    decisive=st.booleans(),
    legal_win=st.booleans(),
)
def test_pruning_with_the_fans_out_of_reach_changes_nothing(seed, style, n_fixed, swaps, decisive, legal_win):
    rng = random.Random(seed)
    _, _, fixed, closed = _hand(rng, style, n_fixed, swaps)
    table = DECISIVE if decisive else default_fan_table()
    stop_at = 1 if legal_win else None
    pruned = best_completion(closed, fixed, table=table, stop_at=stop_at)
    full = best_completion(closed, fixed, table=table, stop_at=stop_at, prune=False)
    if legal_win:
        assert (pruned is None) == (full is None), (closed, fixed, decisive)
    else:
        assert (pruned.score if pruned else 0) == (full.score if full else 0), (closed, fixed, decisive)


def test_a_zeroed_table_keeps_everything_else():
    t = default_fan_table()
    z = zeroed_table(t, frozenset({"九数齐", "对对和"}))
    assert z.points["九数齐"] == z.points["对对和"] == 0
    assert {n: p for n, p in z.points.items() if n not in ("九数齐", "对对和")} == {
        n: p for n, p in t.points.items() if n not in ("九数齐", "对对和")
    }
    assert z.combinations == t.combinations and (z.full, z.cap) == (t.full, t.cap)
    assert zeroed_table(t, frozenset()) is t and zeroed_table(t, frozenset({"九数齐", "对对和"})) is z
