"""jantaku.env.encoding: the action space's layout, every engine action's index, and the observation planes
checked against the engine's state computed independently here."""

import numpy as np
import pytest

from jantaku.bots import EfficiencyBot
from jantaku.bots.registry import make_bot
from jantaku.env import encoding as enc
from jantaku.env.aec import observation_space
from jantaku.errors import JantakuError
from jantaku.rules import load_rules
from jantaku.table import Game
from jantaku.table.actions import CHI, CONTINUE, DISCARD, KYUUSHU, PON, RIICHI, STOP, Action
from jantaku.tiles import Tile


def test_action_space_layout():
    assert enc.NUM_ACTIONS == len(enc.ACTION_NAMES) == 161
    assert len(set(enc.ACTION_NAMES)) == enc.NUM_ACTIONS
    assert enc.action_name(4) == "discard 5m" and enc.action_name(34) == "discard 0m"
    assert enc.action_name(37) == "tsumogiri" and enc.action_name(75) == "riichi tsumogiri"
    assert enc.action_name(38 + 33) == "riichi 7z"
    assert [enc.action_name(i) for i in range(76, 82)] == [
        "chi low",
        "chi low red",
        "chi middle",
        "chi middle red",
        "chi high",
        "chi high red",
    ]
    assert enc.action_name(85) == "ankan 1m" and enc.action_name(152) == "kakan 7z"
    assert [enc.action_name(i) for i in range(153, 161)] == [
        "tsumo",
        "ron",
        "pass",
        "nine terminals",
        "stop",
        "continue",
        "declare tenpai",
        "stay silent",
    ]
    with pytest.raises(JantakuError, match="0-160"):
        enc.action_name(161)


def test_calls_and_red_fives_get_their_own_indices():
    five, red = Tile("5p"), Tile("0p")
    chis = [
        Action.chi(1, Tile("4p"), (five, Tile("6p"))),  # 4p called: the lowest tile
        Action.chi(1, Tile("4p"), (red, Tile("6p"))),
        Action.chi(1, Tile("5p"), (Tile("3p"), Tile("4p"))),  # 5p called: the highest
        Action.chi(1, Tile("0p"), (Tile("4p"), Tile("6p"))),  # a called red five is not a choice: middle
    ]
    assert [enc.legal_indices([a]).popitem()[0] for a in chis] == [76, 77, 80, 78]
    pons = [Action.pon(2, five, (five, five)), Action.pon(2, five, (red, five))]
    assert [enc.legal_indices([a]).popitem()[0] for a in pons] == [82, 83]
    assert enc.legal_indices([Action(RIICHI, 0, red, (), False)]) == {38 + 35: Action(RIICHI, 0, red, (), False)}


def test_tsumogiri_and_hand_copy_of_one_tile():
    hand = Action.discard(0, Tile("3s"))
    drawn = Action.discard(0, Tile("3s"), tsumogiri=True)
    assert enc.legal_indices([drawn, hand]) == {20: hand, 37: drawn}
    only_drawn = enc.legal_indices([Action.discard(0, Tile("7z"), tsumogiri=True)])
    assert only_drawn[33] == only_drawn[37] and only_drawn[37].tsumogiri


def test_unknown_engine_actions_are_named_and_the_tenpai_decision_is_reserved():
    with pytest.raises(enc.UnknownActionError, match=r"'kita'.*version 1"):
        enc.legal_indices([Action("kita", 0, Tile("4z"))])
    assert list(enc.legal_indices([Action("tenpai", 1)])) == [159]
    assert list(enc.legal_indices([Action("noten", 1)])) == [160]
    assert sorted(enc.legal_indices([Action(STOP, 2), Action(CONTINUE, 2), Action(KYUUSHU, 2)])) == [156, 157, 158]


def _reference(game, seat, privileged=False):
    """The observation rebuilt plane by plane from the engine's state, independently of the encoder."""
    k = game.kyoku
    planes = enc.OBS_PLANES_PRIVILEGED if privileged else enc.OBS_PLANES
    ref = np.zeros((planes, 34), np.float32)

    def hand(s, first, red_plane):
        st = k.seats[s]
        for kind in range(34):
            for i in range(min(4, st.counts[kind])):
                ref[first + i, kind] = 1
        for t in st.tiles:
            if k.tile(t).red:
                ref[red_plane, t >> 2] = 1

    hand(seat, 0, 4)
    for r in range(4):
        st = k.seats[(seat + r) % 4]
        counts = [0] * 34
        for m in st.melds:
            for t in m.tiles:
                counts[t.kind] += 1
                if t.red:
                    ref[8 + 8 * r + 7, t.kind] = 1
            if m.kind.value != "chi":
                ref[8 + 8 * r + 4, m.tiles[0].kind] = 1
            if m.kind.is_kan:
                ref[8 + 8 * r + 5, m.tiles[0].kind] = 1
            if m.kind.value == "ankan":
                ref[8 + 8 * r + 6, m.tiles[0].kind] = 1
        for kind in range(34):
            for i in range(min(4, counts[kind])):
                ref[8 + 8 * r + i, kind] = 1
        base = 40 + 34 * r
        for j, rt in enumerate(st.river[-30:]):
            ref[base + j, rt.tile >> 2] = 1
            ref[base + 30, j] = rt.tsumogiri
            ref[base + 31, j] = rt.riichi
            ref[base + 32, j] = rt.called_by is not None
            ref[base + 33, j] = k.tile(rt.tile).red
    if privileged:
        for r in (1, 2, 3):
            hand((seat + r) % 4, 185 + 4 * (r - 1), 197 + r - 1)
    return ref


def _states(preset, seed, limit):
    """(game, seat to act) at every decision of an efficiency-bot game, up to ``limit`` decisions."""
    game = Game(load_rules(preset), seed)
    bots = [EfficiencyBot(f"{seed}:{s}") for s in range(4)]
    n = 0
    while not game.over and n < limit:
        seat = game.to_act()[0]
        yield game, seat
        legal = game.legal_actions(seat)
        game.apply(bots[seat].act(game.view(seat), legal))
        n += 1
    yield game, 0


@pytest.mark.parametrize(("preset", "seed"), [("standard", 4), ("jielu", 3)])
def test_planes_match_the_engine_state_and_every_action_has_an_index(preset, seed):
    rules = load_rules(preset)
    space = observation_space(privileged=True)
    scale = enc.score_scale(rules)
    kinds = set()
    checked = 0
    for game, seat in _states(preset, seed, 900 if preset == "standard" else 400):
        legal = game.legal_actions(seat)
        mapped = enc.legal_indices(legal)
        assert set(mapped.values()) == set(legal)
        kinds.update(a.kind for a in legal)
        obs = enc.encode(game, seat, privileged=True)
        assert space["observation"].contains(obs)
        ref = _reference(game, seat, privileged=True)
        compared = list(range(0, 5)) + list(range(8, 176)) + list(range(185, 200))
        np.testing.assert_array_equal(obs[compared], ref[compared], err_msg=f"decision {checked}")
        k = game.kyoku
        for r in range(4):
            s = (seat + r) % 4
            assert obs[182, r] == pytest.approx(max(-4, min(4, k.scores[s] / scale)))
            assert obs[182, 16 + r] == k.seats[s].riichi
        assert obs[182, 4 + k.round_wind] == 1 and obs[182, 8 + (seat - k.dealer) % 4] == 1
        assert obs[5].sum() == (1 if k.phase == "drawn" and k.actor == seat and not game.over else 0)
        indicators = k.dora_indicators()
        assert [int(obs[176 + n].argmax()) for n in range(len(indicators[:5]))] == [i >> 2 for i in indicators[:5]]
        assert bool(obs[184, 9]) == (preset == "jielu")  # the rule set's switches
        np.testing.assert_array_equal(enc.encode(game, seat), obs[: enc.OBS_PLANES])
        checked += 1
    assert checked > (700 if preset == "standard" else 100)  # the whole game
    assert {DISCARD, CHI, PON} <= kinds
    if preset == "standard":
        assert {"reach", "ankan", "kakan", "tsumo", "ron", "none"} <= kinds


def test_encode_batch_equals_one_by_one_and_rejects_a_bad_out():
    games = []
    for seed in range(3):
        *_, last = _states("mleague", seed, 60 + 25 * seed)
        games.append(last)
    batch = enc.encode_batch([g for g, _ in games], [2, 1, 3])
    for n, (g, _) in enumerate(games):
        np.testing.assert_array_equal(batch[n], enc.encode(g, [2, 1, 3][n]))
    out = np.full((3, enc.OBS_PLANES, 34), 7.0, np.float32)
    assert enc.encode_batch([g for g, _ in games], [2, 1, 3], out=out) is out
    np.testing.assert_array_equal(out, batch)
    with pytest.raises(JantakuError, match="shape"):
        enc.encode_batch([g for g, _ in games], [0, 0, 0], out=np.zeros((2, 5), np.float32))
    with pytest.raises(JantakuError, match="one seat per game"):
        enc.encode_batch([g for g, _ in games], [0])


VIEW_PRESETS = ["tenhou", "standard", "mu", "mleague", "meibi", "mahjongsoul", "jielu", "jielu_original"]


@pytest.mark.parametrize("preset", VIEW_PRESETS)
def test_the_observation_read_from_the_seats_view_is_the_engines(preset):
    """Issue 33: the encoding is a function of what the seat knows. At every decision of seeded East-only games
    (efficiency bots for riichi and wins, random ones for calls and kans), the observation read from the seat's
    own view (built from the events it received) equals the one read from the engine."""
    rules = load_rules(preset).replace(rounds=1)
    decisions = riichi = calls = 0
    for seed in range(4):
        names = ["efficiency", "random", "efficiency", "random"] if seed % 2 else ["efficiency"] * 4
        game = Game(rules, seed)
        bots = [make_bot(name, f"{seed}:{s}") for s, name in enumerate(names)]
        while not game.over:
            seat = game.to_act()[0]
            view = game.view(seat)
            if game.kyoku.result is None:
                mine, theirs = enc.encode(game, seat, view=view), enc.encode(game, seat)
                diff = np.argwhere(mine != theirs)
                assert not len(diff), f"{preset} game {seed} seat {seat} in {game.kyoku.phase}: planes {diff[:5]}"
                decisions += 1
            action = bots[seat].act(view, game.legal_actions(seat))
            riichi += action.kind == "reach"
            calls += action.kind in ("chi", "pon", "daiminkan", "ankan", "kakan")
            game.apply(action)
    assert decisions > 100 and calls, (decisions, riichi, calls)
    if rules.riichi:
        assert riichi, (decisions, riichi, calls)


def test_a_view_is_read_for_its_own_seat_only_and_never_privileged():
    game = Game(load_rules("tenhou"), 1)
    with pytest.raises(JantakuError, match="seat 0's, not seat 1's"):
        enc.encode(game, 1, view=game.view(0))
    with pytest.raises(JantakuError, match="privileged"):
        enc.encode(game, 0, privileged=True, view=game.view(0))
