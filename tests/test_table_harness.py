"""The generic harness (jantaku.table.harness) over every preset: thousands of games in CI.

Each game is checked after every action (136 tiles accounted for, points + deposits constant within a hand,
sampled legal actions all applicable, illegal actions refused without a change) and a share of them is
replayed from the seed to check that the game is identical. JANTAKU_HARNESS_GAMES sets the number of games
per preset (default 2000: 49 in 50 with random bots, 1 in 50 with efficiency bots against random ones); 洁律 runs
in both payment modes with 1 in 50 as many games (its points mode creates points, so only the original mode is
checked for points conservation).
"""

import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from jantaku.rules import load_rules
from jantaku.table.harness import HarnessError, check_game

GAMES = int(os.environ.get("JANTAKU_HARNESS_GAMES", "2000"))
PRESETS = ["tenhou", "standard", "mu", "mleague", "meibi", "mahjongsoul"]


def _run(args):
    preset, seeds = args
    rules = load_rules(preset)
    hands = 0
    for seed in seeds:
        efficiency = seed % 50 == 49 or (preset.startswith("jielu") and seed % 4 == 3)
        bots = ("efficiency", "random", "efficiency", "random") if efficiency else ("random",) * 4
        try:
            report = check_game(rules, seed, bots=bots, sample_every=60, check_replay=seed % 50 == 0)
        except HarnessError as e:
            return f"{preset}: {e}"
        hands += report.hands
    return hands


@pytest.mark.parametrize("preset", [*PRESETS, "jielu", "jielu_original"])  # 洁律 in both payment modes
def test_harness_every_preset(preset):
    # 洁律's wildcard searches (a legal-win check on every discard) make its games slower: 1 in 50 as many
    seeds = list(range(GAMES if not preset.startswith("jielu") else max(8, GAMES // 50)))
    chunks = [(preset, seeds[i::4]) for i in range(4)]
    with ProcessPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        results = list(pool.map(_run, chunks))
    errors = [r for r in results if isinstance(r, str)]
    assert not errors, errors
    assert sum(results) > len(seeds)  # every game has at least one hand


def test_harness_catches_a_broken_invariant(monkeypatch):
    """The harness is not a test that cannot fail: corrupt the tile accounting and it must complain."""
    from jantaku.table import kyoku as kyoku_module

    monkeypatch.setattr(kyoku_module.Kyoku, "tiles_accounted", lambda self: False)
    monkeypatch.setattr(kyoku_module.Kyoku, "tiles_counted", lambda self: False)
    with pytest.raises(HarnessError, match="tiles not accounted"):
        check_game(load_rules("tenhou"), 1, bots=("random",) * 4)


def test_harness_catches_points_created_in_jielu_original_mode(monkeypatch):
    """In 洁律's original mode points move between players: a payment that creates a point must be caught."""
    from jantaku.table import kyoku as kyoku_module

    real = kyoku_module._whole_payments

    def one_too_many(amounts, winner):
        out = real(amounts, winner)
        out[winner] += 1
        return out

    monkeypatch.setattr(kyoku_module, "_whole_payments", one_too_many)
    rules = load_rules("jielu_original")
    with pytest.raises(HarnessError, match=r"changed within a hand|do not add up"):
        for seed in range(20):
            check_game(rules, seed, bots=("random",) * 4, check_replay=False)
