"""The generic harness (jantaku.sim.harness) over every preset: hundreds of games in CI.

Each game is checked after every action (136 tiles accounted for, points + deposits constant within a hand,
sampled legal actions all applicable, illegal actions refused without a change) and a share of them is
replayed from the seed to check that the game is identical.

Random bots almost never win: a harness of random bots alone checks exhaustive draws. The games therefore rotate
through line-ups (``LINEUPS``): four random bots (draws, odd calls and kans, abortive draws), efficiency bots
beside random ones and four efficiency bots (wins, riichi, deposits, honba), and now and then a ``strong`` bot
(dama, folding, pao-aware calls). Each preset's run must show its wins, draws, riichi, calls and kans. Pao needs
deals of its own (``dragon_pao_deal``): a few games per riichi preset deal one seat the dragon pairs.
JANTAKU_HARNESS_GAMES sets the number of games per riichi preset (default 16, five times as many with
JANTAKU_THOROUGH=1: 96 riichi games and about 1,030 hands in CI, each preset's run showing every ending and
call; the nightly thorough run plays 480). 洁律 runs in both payment modes with 12 and 20 games (or a sixth as many when
more are asked), half of them with efficiency bots (its wildcard searches make a game slower; its points mode
creates points, so only the original mode is checked for points conservation). Each preset's games run in two
processes (the machine's two cores: more would only wait for them).
"""

import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import pytest

from budget import tries
from jantaku.rules import load_rules
from jantaku.sim.harness import HarnessError, check_game, dragon_pao_deal
from jantaku.table.actions import ANKAN, CHI, DAIMINKAN, KAKAN, PON, RIICHI

GAMES = int(os.environ.get("JANTAKU_HARNESS_GAMES", str(tries(16))))
PRESETS = ["tenhou", "standard", "mu", "mleague", "meibi", "mahjongsoul"]
RANDOM4 = ("random",) * 4
MIXED = ("efficiency", "random", "efficiency", "random")
EFFICIENCY4 = ("efficiency",) * 4
WITH_STRONG = ("strong", "random", "efficiency", "efficiency")
LINEUPS = (*(RANDOM4, MIXED, EFFICIENCY4) * 3, RANDOM4, MIXED, WITH_STRONG)
"""The line-up of each game by its seed, a cycle of twelve: a third four random bots, a third efficiency against
random, a quarter four efficiency bots, one in twelve with a strong bot (the slowest, and played in whole games by
its own tests)."""
JIELU_LINEUPS = (RANDOM4, MIXED)
JIELU_GAMES = {"jielu": 12, "jielu_original": 20}
"""洁律's games: its points mode's games are long and slow (wildcard searches), the original mode's short (a
first win often ends it), so it needs more of them to meet an exhaustive draw."""


def _run(args):
    preset, seeds = args
    rules = load_rules(preset)
    lineups = JIELU_LINEUPS if preset.startswith("jielu") else LINEUPS
    hands = 0
    endings: Counter = Counter()
    taken: Counter = Counter()
    for seed in seeds:
        bots = lineups[seed % len(lineups)]
        try:
            report = check_game(rules, seed, bots=bots, sample_every=60, check_replay=seed % 25 == 0)
        except HarnessError as e:
            return f"{preset}: {e}"
        hands += report.hands
        endings += report.endings
        taken += report.taken
    return hands, endings, taken


@pytest.mark.parametrize("preset", [*PRESETS, "jielu", "jielu_original"])  # 洁律 in both payment modes
def test_harness_every_preset(preset):
    seeds = list(range(GAMES if not preset.startswith("jielu") else max(JIELU_GAMES[preset], GAMES // 6)))
    chunks = [(preset, seeds[i::2]) for i in range(2)]
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_run, chunks))
    errors = [r for r in results if isinstance(r, str)]
    assert not errors, errors
    hands = sum(r[0] for r in results)
    endings = sum((r[1] for r in results), Counter())
    taken = sum((r[2] for r in results), Counter())
    assert hands > len(seeds)  # every game has at least one hand
    # the run covered what a referee meets, not only draws: wins of both kinds, draws, riichi, calls and kans
    wins = endings["ron"] + endings["tsumo"]
    print(f"{preset}: {hands} hands, endings {dict(endings)}, actions {dict(taken)}")
    assert wins >= 0.3 * hands, endings
    assert endings["ron"] and endings["tsumo"] and endings["exhaustive"], endings
    assert taken[PON] and taken[CHI] and (taken[ANKAN] + taken[KAKAN] + taken[DAIMINKAN]), taken
    if load_rules(preset).riichi:
        assert taken[RIICHI] >= 0.1 * hands, taken


PAO_GAMES = 4
PAO_LINEUP = ("efficiency",) * 3


@pytest.mark.parametrize("preset", PRESETS)
def test_harness_deals_pao_and_checks_it(preset):
    """Ordinary deals almost never give a pao win, so these games deal one seat a pair of each dragon and the
    others the third copies (:func:`dragon_pao_deal`): the ``strong`` bot there calls the dragons, the efficiency
    bots throw their lone dragons away, and the feeder of the last set is liable for the daisangen. Every
    invariant holds through those settlements, and the liable seat pays."""
    rules = load_rules(preset)
    assert "daisangen" in rules.pao
    endings: Counter = Counter()
    for seed in range(PAO_GAMES):
        seat = seed % 4
        bots = (*PAO_LINEUP[:seat], "strong", *PAO_LINEUP[seat:])
        report = check_game(
            rules, seed, bots=bots, sample_every=30, check_replay=seed == 0, deal=dragon_pao_deal(seed, seat)
        )
        endings += report.endings
    assert endings["pao"] >= 2, endings


def test_harness_catches_a_pao_win_the_liable_seat_does_not_pay(monkeypatch):
    """Settle pao wins as if the liable seat paid nothing: the harness must refuse the settlement."""
    from jantaku.table import endings

    real = endings.WinRecord

    def unpaid(seat, from_seat, score, pao=None, payments=(0, 0, 0, 0)):
        if pao is not None:
            payments = tuple(0 if s == pao else p for s, p in enumerate(payments))
        return real(seat, from_seat, score, pao, payments)

    monkeypatch.setattr(endings, "WinRecord", unpaid)
    with pytest.raises(HarnessError, match="liable"):
        for seed in range(PAO_GAMES):
            check_game(
                load_rules("tenhou"),
                seed,
                bots=("strong", *PAO_LINEUP),
                check_replay=False,
                deal=dragon_pao_deal(seed, 0),
            )


def test_harness_catches_a_broken_invariant(monkeypatch):
    """The harness is not a test that cannot fail: corrupt the tile accounting and it must complain."""
    from jantaku.table import kyoku as kyoku_module

    monkeypatch.setattr(kyoku_module.Kyoku, "tiles_accounted", lambda self: False)
    monkeypatch.setattr(kyoku_module.Kyoku, "tiles_counted", lambda self: False)
    with pytest.raises(HarnessError, match="tiles not accounted"):
        check_game(load_rules("tenhou"), 1, bots=("random",) * 4)


def test_harness_catches_points_created_in_jielu_original_mode(monkeypatch):
    """In 洁律's original mode points move between players: a payment that creates a point must be caught."""
    from jantaku.table import jielu_wins

    real = jielu_wins._whole_payments

    def one_too_many(amounts, winner):
        out = real(amounts, winner)
        out[winner] += 1
        return out

    monkeypatch.setattr(jielu_wins, "_whole_payments", one_too_many)
    rules = load_rules("jielu_original")
    with pytest.raises(HarnessError, match=r"changed within a hand|do not add up"):
        for seed in range(20):
            check_game(rules, seed, bots=("random",) * 4, check_replay=False)
