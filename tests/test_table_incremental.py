"""What the hand engine keeps up to date per seat instead of recomputing (for speed) always equals what it stands
for: the block codes, the sorted discard keys and their counts, the shanten floor (a lower bound), and the
cached waits. Checked after every step of seeded games under several rule sets, bots that call
included, and against the plain functions the engine used before."""

from __future__ import annotations

import random

import pytest

from jantaku.bots import make_bot
from jantaku.rules import load_rules
from jantaku.shapes.shanten import block_codes, shanten, shanten_of_codes
from jantaku.shapes.waits import wait_kinds
from jantaku.table import Game
from jantaku.table.fastrandom import choice, shuffle
from jantaku.table.kyoku import DRAWN, Kyoku
from jantaku.table.wall import Wall


def _check_seat(kyoku: Kyoku, seat: int) -> None:
    st = kyoku.seats[seat]
    keys = kyoku._keys
    assert st._codes == block_codes(st.counts)
    assert st.key_table is keys
    expected_counts = [0] * 272
    for i in st.tiles:
        expected_counts[keys[i]] += 1
    assert st.key_counts == expected_counts
    assert st.keys == sorted({keys[i] for i in st.tiles})
    if len(st.tiles) % 3 == 1:  # between turns: the floor is a lower bound, the cached waits are the waits
        exact = shanten(st.counts)
        assert shanten_of_codes(st.counts, st._codes) == exact
        assert st.shanten_floor <= exact
        if st._waits is not None:
            assert st._waits == (wait_kinds(st.counts) if exact == 0 else [])


def _discard_choices_plain(kyoku: Kyoku, seat: int) -> list[int]:
    """The own turn's discard keys as the engine computed them before it kept sorted keys."""
    st = kyoku.seats[seat]
    keys = kyoku._keys
    found = {keys[i] for i in st.tiles if i != kyoku.drawn}
    found.add(keys[kyoku.drawn] + 1)
    return sorted(found)


@pytest.mark.parametrize(
    ("preset", "bots"),
    [
        ("tenhou", ["random"]),
        ("mleague", ["random"]),
        ("mu", ["efficiency", "random", "efficiency", "random"]),
        ("meibi", ["efficiency"]),
        ("jielu", ["random"]),
    ],
)
def test_incremental_state_matches_recomputation(preset: str, bots: list[str]) -> None:
    rules = load_rules(preset)
    steps = calls = 0
    for seed in range(3):
        bot_list = bots * 4 if len(bots) == 1 else bots
        game = Game(rules, seed)
        agents = [make_bot(name, f"{seed}:{s}") for s, name in enumerate(bot_list)]
        while not game.over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            k = game.kyoku
            for s in range(4):
                _check_seat(k, s)
            if k.phase == DRAWN and seat == k.actor and not k.seats[seat].riichi and not k.seats[seat].dead:
                offered = sorted({a.tile.sort_key * 2 + a.tsumogiri for a in legal if a.kind == "dahai"})
                assert offered == _discard_choices_plain(k, seat)
            action = agents[seat].act(k.view(seat), legal)
            calls += action.kind in ("chi", "pon")
            game.apply(action)
            steps += 1
    assert steps > 500
    assert calls > 0


def test_fast_random_draws_are_the_standard_librarys() -> None:
    for seed in ("0:1", 7, "x"):
        a, b = random.Random(seed), random.Random(seed)
        x, y = list(range(136)), list(range(136))
        a.shuffle(x)
        shuffle(b, y)
        assert x == y
        for n in (1, 2, 5, 14, 40):
            items = list(range(n))
            assert a.choice(items) == choice(b, items)
        assert a.getstate() == b.getstate()
    with pytest.raises(IndexError):
        choice(random.Random(0), [])


def test_wall_from_seed_is_a_checked_wall() -> None:
    w = Wall.from_seed("3:4")
    assert sorted(w.tiles) == list(range(136))
    assert Wall(w.tiles, w.dice).tiles == w.tiles
