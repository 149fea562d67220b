"""The optional observation planes (jantaku.env.planes): the same from the engine and from the seat's own view at
every decision of whole games, each against an independent reading of what it claims, and in every environment."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from env_helpers import ScriptedSeats
from jantaku.env import BatchEncoder, MahjongEnv, SelfPlayVectorEnv, encode, raw_env
from jantaku.env.agent import ViewObserver
from jantaku.env.encoding import A_ANKAN, A_KAKAN, A_PON, A_RIICHI, NUM_ACTIONS, OBS_PLANES, legal_indices
from jantaku.env.planes import EXTRA_PLANES, extra_planes
from jantaku.errors import JantakuError
from jantaku.rules import load_rules
from jantaku.shapes.shanten import shanten
from jantaku.shapes.waits import discard_options, wait_kinds
from jantaku.table import Game
from jantaku.table.actions import RON
from jantaku.tiles import Tile

ALL = tuple(EXTRA_PLANES)
ROWS = {}
_row = 0
for _name in ALL:
    ROWS[_name] = _row
    _row += EXTRA_PLANES[_name]


@pytest.mark.parametrize(("preset", "seed"), [("tenhou", 11), ("mleague", 4), ("mu", 3), ("jielu", 2)])
def test_planes_from_the_engine_and_from_the_view_agree_and_mean_what_they_say(preset, seed):
    """Efficiency bots that also declare riichi and take pons and kans whenever offered play a whole game. At each
    decision the acting seat's planes are read from the engine and from its view (equal: nothing leaks), and
    checked: the shanten one-hot and the waits against jantaku.shapes, furiten against the engine's own refusal,
    and every tile marked safe against a seat is, when discarded next, never offered to that seat as a ron."""
    rules = load_rules(preset)
    game = Game(rules, seed)
    players = ScriptedSeats(seed, prefer=(*range(A_RIICHI, A_RIICHI + 38), *range(A_ANKAN, A_KAKAN + 34), A_PON))
    observers = [ViewObserver(extra_planes=ALL) for _ in range(4)]
    decisions = safe_discards = riichi_seen = tenpai_seen = 0
    while not game.over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        mine = extra_planes(game, seat, ALL)
        view = game.view(seat)
        obs, mask, _ = observers[seat](view, legal)
        np.testing.assert_array_equal(obs[OBS_PLANES:], mine, err_msg=f"decision {decisions}")
        np.testing.assert_array_equal(obs, encode(game, seat, extra_planes=ALL))
        st = game.kyoku.seats[seat]
        counts = list(st.counts)
        n = sum(counts)
        if n % 3:
            assert mine[ROWS["shanten"]].argmax() == min(shanten(counts) + 1, 8) and mine[ROWS["shanten"]].sum() == 1
        waits = mine[ROWS["waits"]]
        if n % 3 == 1:
            marked = set(np.flatnonzero(waits).tolist())
            assert marked <= set(wait_kinds(counts))
            unseen = [4 - a - b for a, b in zip(counts, view.visible_counts(), strict=True)]
            assert marked == {k for k in wait_kinds(counts) if unseen[k] > 0}
            tenpai_seen += bool(marked)
        elif n % 3 == 2:
            tenpai_after = {Tile(o.discard).kind for o in discard_options(counts) if o.shanten == 0}
            assert set(np.flatnonzero(waits).tolist()) == tenpai_after
        if rules.furiten and n % 3 == 1:
            assert bool(mine[ROWS["furiten"], 0]) == bool(st.furiten)
        for r in range(4):
            other = game.kyoku.seats[(seat + r) % 4]
            assert (mine[ROWS["riichi_turn"], r] > 0) == any(t.riichi for t in other.river)
            riichi_seen += bool(other.riichi)
        choice = legal_indices(legal)[players.choose(game, seat, mask)]
        safe = mine[ROWS["safe"] : ROWS["safe"] + 3]
        game.apply(choice)
        if choice.kind == "dahai" and not game.over:
            kind = choice.tile.kind
            for r in (1, 2, 3):
                if safe[r - 1, kind]:
                    safe_discards += 1
                    other = (seat + r) % 4
                    assert not any(a.kind == RON for a in game.legal_actions(other)), (decisions, r)
        decisions += 1
    assert decisions > (40 if preset == "jielu" else 300)
    if preset != "jielu":
        assert safe_discards > 20 and riichi_seen > 0 and tenpai_seen > 0
    else:
        assert safe_discards == 0  # no furiten: nothing is safe that way


def test_every_environment_adds_the_planes_it_is_asked_for():
    names = ("waits", "safe")
    extra = EXTRA_PLANES["waits"] + EXTRA_PLANES["safe"]
    env = MahjongEnv("tenhou", extra_planes=names, mjai_events=False)
    obs, _ = env.reset(seed=3)
    assert obs["observation"].shape == (OBS_PLANES + extra, 34)
    assert env.observation_space.contains(obs)
    np.testing.assert_array_equal(obs["observation"], encode(env.table.game, 0, extra_planes=names))
    aec = raw_env("mleague", extra_planes=names, mjai_events=False)
    aec.reset(seed=1)
    o, *_ = aec.last()
    assert o["observation"].shape == (OBS_PLANES + extra, 34)
    vec = SelfPlayVectorEnv(3, "tenhou", extra_planes=names)
    vobs, info = vec.reset(seed=2)
    for _ in range(200):
        for i, t in enumerate(vec.tables):
            np.testing.assert_array_equal(
                vobs["observation"][i], encode(t.game, int(info["seat"][i]), extra_planes=names)
            )
        m = vobs["action_mask"]
        vobs, _, _, _, info = vec.step(m.argmax(axis=1))
    games = [Game(load_rules("tenhou"), s) for s in range(2)]
    batch = BatchEncoder(2, privileged=True, extra_planes=names).encode(games, [0, 1])
    assert batch.shape == (2, 200 + extra, 34)
    np.testing.assert_array_equal(batch[1], encode(games[1], 1, privileged=True, extra_planes=names))
    for bad in (("nope",), ("waits", "waits")):
        with pytest.raises(JantakuError, match="plane"):
            MahjongEnv("tenhou", extra_planes=bad)
    assert NUM_ACTIONS == 161
