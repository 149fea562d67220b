"""Property test: the legal-win check the table runs (:func:`jantaku.jielu.can_win`: every pruning rule and cache
of the search on) answers exactly as the same search with every pruning rule off (``prune=False``: iterative
deepening over every wildcard count, no bound), which tests/test_jielu_bruteforce.py checks against an
independent brute force.

Two sources of hands: random ones (14 tiles from a shuffled wall with zero to two called melds, and complete hands
with one to four tiles replaced, so that both answers occur often), with random circumstances of the win; and the
hands the table itself asks about while bots play 洁律 games in both payment modes (the check runs for every other
seat on every discard and for the drawer on every draw: RULES.md section 2 and 004 基本规则, no furiten).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

import jantaku.table.legal as legal_module
from budget import tries
from jantaku.hand import Hand
from jantaku.jielu import can_win
from jantaku.jielu.conditions import incidental_flags
from jantaku.jielu.melds import code_of_meld
from jantaku.jielu.search import best_completion
from jantaku.jielu.wholehand import incidental_fans
from jantaku.meld import Meld, MeldKind
from jantaku.riichi.conditions import WinConditions
from jantaku.rules import load_rules
from jantaku.sim.runner import play_game
from jantaku.tiles import KIND_NAMES, Tile, counts34


def exact(hand: Hand, conditions: WinConditions | None) -> bool:
    """The unpruned search: some completion is worth 1 point (the win's incidental fans count without wildcards)."""
    incidental = incidental_fans(**incidental_flags(conditions)) if conditions is not None else ()
    fixed = tuple(code_of_meld(m) for m in hand.melds)
    return best_completion(counts34(hand.closed), fixed, incidental=incidental, prune=False) is not None


# -- random hands ----------------------------------------------------------------------------------------------


def _tile(kind: int) -> Tile:
    return Tile(KIND_NAMES[kind])


def _random_meld(rng: random.Random, left: list[int]) -> Meld | None:
    if rng.random() < 0.5:
        k = 9 * rng.randrange(3) + rng.randrange(7)
        kinds = [k, k + 1, k + 2]
        kind = MeldKind.CHI
    else:
        k = rng.randrange(34)
        kinds = [k, k, k]
        kind = MeldKind.PON
    if any(left[x] < kinds.count(x) for x in set(kinds)):
        return None
    for x in kinds:
        left[x] -= 1
    return Meld(kind, tuple(_tile(x) for x in kinds), _tile(kinds[0]), 3 if kind == MeldKind.CHI else 1)


def _closed_from(rng: random.Random, left: list[int], n: int, near: bool) -> list[int]:
    """``n`` closed tiles: random from the wall, or (``near``) a complete shape with a few tiles replaced."""
    closed = [0] * 34
    if near:
        shape: list[int] = []
        while len(shape) < n - 2:
            meld = (
                [k := 9 * rng.randrange(3) + rng.randrange(7), k + 1, k + 2]
                if rng.random() < 0.6
                else [rng.randrange(34)] * 3
            )
            if all(left[x] - closed[x] >= meld.count(x) for x in set(meld)):
                for x in meld:
                    closed[x] += 1
                shape += meld
        pair = rng.randrange(34)
        while left[pair] - closed[pair] < 2:
            pair = rng.randrange(34)
        closed[pair] += 2
        for _ in range(rng.randint(1, 4)):  # replace a few tiles
            out = rng.choice([x for x in range(34) if closed[x]])
            closed[out] -= 1
            into = rng.choice([x for x in range(34) if left[x] - closed[x] > 0])
            closed[into] += 1
    else:
        wall = [x for x in range(34) for _ in range(left[x])]
        for x in rng.sample(wall, n):
            closed[x] += 1
    return closed


def random_case(rng: random.Random) -> tuple[Hand, WinConditions | None]:
    left = [4] * 34
    melds: list[Meld] = []
    for _ in range(rng.choice((0, 0, 0, 1, 2))):
        meld = _random_meld(rng, left)
        if meld is not None:
            melds.append(meld)
    counts = _closed_from(rng, left, 14 - 3 * len(melds), near=rng.random() < 0.6)
    closed = tuple(_tile(x) for x in range(34) for _ in range(counts[x]))
    hand = Hand(closed, tuple(melds))
    win = rng.choice(closed)
    form = rng.choice(("none", "ron", "tsumo", "tsumo_last", "ron_last"))
    if form == "none":
        return hand, None
    tsumo = form.startswith("tsumo")
    last = form.endswith("last")
    return hand, WinConditions(win=win, tsumo=tsumo, haitei=tsumo and last, houtei=not tsumo and last)


def test_random_hands_answer_as_the_unpruned_search():
    rng = random.Random(16)
    answers = []
    for _ in range(tries(24)):
        hand, conditions = random_case(rng)
        want = exact(hand, conditions)
        assert can_win(hand, conditions) == want, (str(hand), conditions)
        answers.append(want)
    assert 0.08 * len(answers) <= sum(answers) <= 0.92 * len(answers)  # both answers are tested, many times


# -- the hands the table asks about ----------------------------------------------------------------------------


def asked(monkeypatch: pytest.MonkeyPatch, mode: str, bot: str, seed: int) -> list[tuple[Hand, WinConditions, bool]]:
    """Every legal-win check of one 洁律 game, with the answer the table got (as a hand and its circumstances)."""
    seen: list[tuple[Hand, WinConditions, bool]] = []
    check = legal_module.jielu_can_win_counts

    def recording(counts: list[int], melds: Sequence[Meld], flags: dict[str, bool], table: object) -> bool:
        answer = check(counts, melds, flags, table)
        closed = tuple(_tile(x) for x in range(34) for _ in range(counts[x]))
        win_flags = {k: v for k, v in flags.items() if k != "renhou"}
        seen.append((Hand(closed, tuple(melds)), WinConditions(win=closed[0], **win_flags), answer))
        return answer

    monkeypatch.setattr(legal_module, "jielu_can_win_counts", recording)
    play_game(load_rules("jielu").replace(jielu_mode=mode), seed, [bot] * 4)
    monkeypatch.undo()
    assert seen, "the table ran no legal-win check (did its call to jantaku.table.legal.jielu_can_win_counts move?)"
    return seen


@pytest.mark.parametrize(
    ("mode", "bot", "seed"),
    [("points", "efficiency", 3), ("points", "random", 4), ("original", "efficiency", 5), ("original", "random", 6)],
)
def test_the_checks_a_game_runs_answer_as_the_unpruned_search(monkeypatch, mode, bot, seed):
    checks = asked(monkeypatch, mode, bot, seed)
    rng = random.Random(seed)
    yes = [c for c in checks if c[2]]
    no = [c for c in checks if not c[2]]
    assert yes and no
    sample = rng.sample(yes, min(tries(4), len(yes))) + rng.sample(no, min(tries(10), len(no)))
    for hand, conditions, answer in sample:
        assert answer == exact(hand, conditions), (str(hand), conditions)
