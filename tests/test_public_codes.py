"""The engine's public codes (jantaku.table.public_codes) say what the seats' rivers and melds say, at every
decision of whole games with every kind of call, long rivers and 洁律's robbed added kans."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import jantaku.table.jielu_wins as jielu_wins
from jantaku.rules import load_rules
from jantaku.table import Game
from jantaku.table.public_codes import CALLED, KIND, RIVER_SLOTS, RIVER_WIDTH, RIVERS, PublicCodes, discard_code

CALLS_FIRST = ("kakan", "ankan", "daiminkan", "pon", "chi")


def play_calling_everything(game: Game, seed: int, check) -> dict[str, int]:
    """Play ``game`` to its end taking a kan, pon or chi whenever offered (else a random legal action, a win too),
    calling ``check(game)`` after every action; the kinds played, counted."""
    rng = random.Random(seed)
    kinds: dict[str, int] = {}
    while not game.over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        pick = None
        for kind in CALLS_FIRST:
            offered = [a for a in legal if a.kind == kind]
            if offered:
                pick = rng.choice(offered)
                break
        pick = pick or rng.choice(legal)
        kinds[pick.kind] = kinds.get(pick.kind, 0) + 1
        game.apply(pick)
        check(game)
    return kinds


@pytest.mark.parametrize("preset", ["tenhou", "mu", "mleague", "jielu"])
def test_the_codes_follow_every_river_and_meld_of_whole_games(preset):
    rules = load_rules(preset)
    kinds: dict[str, int] = {}
    longest = [0]

    def check(game: Game) -> None:
        k = game.kyoku
        assert k.public_codes_agree(), f"{preset}: the codes differ from the seats after {len(k.events)} events"
        longest[0] = max(longest[0], *(len(st.river) for st in k.seats))

    for seed in range(4, 8):  # jielu's 5 and 6 have rivers past the slots
        for kind, n in play_calling_everything(Game(rules, seed), seed, check).items():
            kinds[kind] = kinds.get(kind, 0) + n
    assert {"pon", "dahai"} <= set(kinds), kinds
    assert set(kinds) & {"kakan", "ankan", "daiminkan"}, kinds
    if preset != "jielu":
        assert "chi" in kinds, kinds
    if preset == "jielu":  # no dead wall and winners leave the hand: rivers past the slots
        assert longest[0] > RIVER_SLOTS, longest


def test_a_robbed_added_kan_goes_back_to_a_pon_and_its_tile_to_the_river(monkeypatch):
    """洁律 (004): a robbed added kong never stands; the codes follow the meld back to a pon and the tile into the
    river. Seed 48 robs one when everybody calls everything."""
    robbed: list[int] = []
    unrob = jielu_wins.JieluWins._unrob_kan

    def watched(self, seat, tid):
        unrob(self, seat, tid)
        robbed.append(tid)
        assert self.public_codes_agree()

    monkeypatch.setattr(jielu_wins.JieluWins, "_unrob_kan", watched)
    play_calling_everything(Game(load_rules("jielu"), 48), 48, lambda g: None)
    assert robbed


def test_a_copied_hand_has_codes_of_its_own():
    game = Game(load_rules("tenhou"), 3)
    rng = random.Random(3)
    while len(game.kyoku.seats[game.kyoku.actor].river) < 2:
        seat = game.to_act()[0]
        game.apply(rng.choice(game.legal_actions(seat)))
    k = game.kyoku
    copied = k.copy()
    before = list(copied.public.codes)
    seat = k.to_act()[0]
    k.apply(rng.choice(k.legal_actions(seat)))
    assert list(copied.public.codes) == before
    assert copied.public_codes_agree() and k.public_codes_agree()


def test_a_river_past_the_slots_keeps_its_last_discards():
    codes = PublicCodes()
    for j in range(RIVER_SLOTS + 5):
        codes.discard(2, discard_code(j % 34, False, False, False))
    codes.mark_called(2)
    base = RIVERS + RIVER_WIDTH * 2
    kept = codes.codes[base + 1 : base + 1 + RIVER_SLOTS]
    assert codes.codes[base] == RIVER_SLOTS and codes.lengths[2] == RIVER_SLOTS + 5
    assert [c & KIND for c in kept] == [j % 34 for j in range(5, RIVER_SLOTS + 5)]
    assert kept[-1] & CALLED and not any(c & CALLED for c in kept[:-1])


def test_the_batch_encoder_refuses_a_layout_that_is_not_the_engines():
    """The compiled kernel keeps its own copy of the layout (numba freezes it into the cached kernel, whose cache
    follows its own file only): a change made in the engine alone stops the import, naming what differs."""
    code = "import jantaku.table.public_codes as p; p.SIZE += 1; import jantaku.env.batch"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "copy of SIZE differs from jantaku.table.public_codes" in done.stderr
