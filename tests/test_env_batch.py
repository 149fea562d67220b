"""The compiled batch encoder and the self-play vector environment, against the engine and the one-by-one encoder."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("numba")

from env_helpers import ScriptedSeats
from jantaku.env import BatchEncoder, MahjongEnv, SelfPlayVectorEnv, encode, parallel_env, raw_env
from jantaku.env.encoding import (
    A_ANKAN,
    A_DAIMINKAN,
    A_KAKAN,
    A_PON,
    A_RON,
    A_TSUMO,
    NUM_ACTIONS,
    legal_indices,
)
from jantaku.errors import JantakuError
from jantaku.rules import load_rules
from jantaku.table import Game

KANS = (A_DAIMINKAN, *range(A_ANKAN, A_ANKAN + 34), *range(A_KAKAN, A_KAKAN + 34))


@pytest.mark.parametrize("preset", ["tenhou", "mu", "jielu", "mleague"])
def test_the_batch_equals_encode_at_every_decision_of_whole_games(preset):
    """Six games at once, each at its own stage (games end at different times and are then held at their end);
    the seats play efficiency bots that also take every kan and pon on offer, so that melds, kans, riichi, wins
    and the end of the game are all encoded. Compared plane by plane, privileged too."""
    rules = load_rules(preset)
    n = 6
    games = [Game(rules, seed) for seed in range(40, 40 + n)]
    players = [ScriptedSeats(seed, prefer=(A_TSUMO, A_RON, *KANS, A_PON)) for seed in range(n)]
    plain, privileged = BatchEncoder(n), BatchEncoder(n, privileged=True)
    kinds: set[str] = set()
    decisions = 0
    while not all(g.over for g in games):
        seats = [g.to_act()[0] if not g.over else 0 for g in games]
        got, got_priv = plain.encode(games, seats), privileged.encode(games, seats)
        for i, g in enumerate(games):
            np.testing.assert_array_equal(got[i], encode(g, seats[i]), err_msg=f"game {i}, decision {decisions}")
            np.testing.assert_array_equal(got_priv[i], encode(g, seats[i], privileged=True))
            if g.over:
                continue
            legal = legal_indices(g.legal_actions(seats[i]))
            mask = np.zeros(NUM_ACTIONS, np.int8)
            mask[list(legal)] = 1
            action = legal[players[i].choose(g, seats[i], mask)]
            kinds.add(action.kind)
            g.apply(action)
            decisions += 1
    assert decisions > (300 if preset == "jielu" else 1000)
    assert {"pon", "dahai"} <= kinds
    assert kinds & {"ankan", "kakan", "daiminkan"}, kinds
    assert kinds & {"tsumo", "ron"}, kinds
    assert all(g.result is not None for g in games)


def test_the_batch_encoder_refuses_bad_input_by_name():
    games = [Game(load_rules("standard"), 1)]
    enc = BatchEncoder(1)
    with pytest.raises(JantakuError, match="one game and one seat per slot"):
        enc.encode(games * 2, [0, 1])
    with pytest.raises(JantakuError, match="seat must be 0-3"):
        enc.encode(games, [4])
    with pytest.raises(JantakuError, match="out must be a float32 array"):
        enc.encode(games, [0], out=np.zeros((1, 185, 34), np.float64))
    with pytest.raises(JantakuError, match="slots must be a positive integer"):
        BatchEncoder(0)


def _play(env, rng, steps):
    """Random legal actions for ``steps`` steps; returns what the steps gave."""
    obs, info = env.reset(seed=7)
    seen = []
    for _ in range(steps):
        masks = obs["action_mask"]
        acts = (rng.random(masks.shape) * masks).argmax(axis=1)
        obs, rewards, term, _, info = env.step(acts)
        seen.append((acts, rewards, term, info))
    return seen


def test_self_play_asks_every_seat_with_its_own_mask_and_ends_games_with_their_results():
    env = SelfPlayVectorEnv(3, rules="tenhou")
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(0)
    finished = 0
    seats_seen = set()
    for _ in range(4000):
        for i, t in enumerate(env.tables):
            seat = int(info["seat"][i])
            assert seat == t.game.to_act()[0]
            seats_seen.add(seat)
            legal = sorted(t.legal(seat))
            assert np.flatnonzero(obs["action_mask"][i]).tolist() == legal
            np.testing.assert_array_equal(obs["observation"][i], encode(t.game, seat))
        masks = obs["action_mask"]
        acts = (rng.random(masks.shape) * masks).argmax(axis=1)
        before = [t.game for t in env.tables]
        asked = info["seat"].copy()
        obs, rewards, term, trunc, info = env.step(acts)
        assert not trunc.any()
        np.testing.assert_array_equal(info["acted"], asked)
        for i in np.flatnonzero(term):
            g = before[i]
            assert g.result is not None
            np.testing.assert_allclose(info["seat_rewards"][i], g.result.final)
            assert rewards[i] == pytest.approx(g.result.final[info["acted"][i]])
            assert info["final_info"][i]["ranks"] == list(g.result.ranks)
            assert env.tables[i].game is not g and env.tables[i].game.hands_played == 0  # a new game, same step
            finished += 1
        for i in np.flatnonzero(~term):
            assert not info["seat_rewards"][i].any() and rewards[i] == 0
        if finished >= 3:
            break
    assert finished >= 3 and seats_seen == {0, 1, 2, 3}


def test_self_play_score_rewards_add_up_to_each_seats_points_and_hand_episodes_follow_the_game():
    env = SelfPlayVectorEnv(2, rules="mleague", reward="score", episode="hand")
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(1)
    totals = np.zeros((2, 4))
    start = [np.array(t.scores()) for t in env.tables]
    games = [t.game for t in env.tables]
    hands_seen = [0, 0]
    episodes = 0
    while episodes < 12:
        masks = obs["action_mask"]
        acts = (rng.random(masks.shape) * masks).argmax(axis=1)
        obs, rewards, term, _, info = env.step(acts)
        totals += info["seat_rewards"]
        np.testing.assert_allclose(rewards, info["seat_rewards"][np.arange(2), info["acted"]])
        for i in range(2):
            if term[i]:
                episodes += 1
                g = games[i]
                assert g.hands_played == hands_seen[i] + 1, "one episode is one hand"
                hands_seen[i] = g.hands_played
                scale = 100_000
                np.testing.assert_allclose(totals[i] * scale, np.array(info["final_info"][i]["scores"]) - start[i])
                if g.result is not None:  # the game ended: the slot's next episode is a new game's first hand
                    games[i] = env.tables[i].game
                    hands_seen[i] = 0
                    totals[i] = 0
                    start[i] = np.array(env.tables[i].scores())
                else:
                    assert env.tables[i].game is g, "the next hand of the same game"
    assert episodes >= 12


def test_self_play_is_reproducible_and_refuses_bad_options():
    a = _play(SelfPlayVectorEnv(2, "standard"), np.random.default_rng(5), 300)
    b = _play(SelfPlayVectorEnv(2, "standard"), np.random.default_rng(5), 300)
    assert all((x[0] == y[0]).all() and (x[1] == y[1]).all() for x, y in zip(a, b, strict=True))
    with pytest.raises(JantakuError, match="episode must be one of"):
        SelfPlayVectorEnv(2, episode="round")
    with pytest.raises(JantakuError, match="num_envs must be a positive integer"):
        SelfPlayVectorEnv(0)
    env = SelfPlayVectorEnv(2)
    with pytest.raises(JantakuError, match="call reset"):
        env.step(np.zeros(2, int))
    env.reset(seed=1)
    with pytest.raises(JantakuError, match="one action per game"):
        env.step(np.zeros(3, int))
    with pytest.raises(JantakuError, match="seed must be a whole number"):
        env.reset(seed=-1)
    with pytest.raises(Exception, match="not legal"):
        env.step(np.full(2, 160))
    # an illegal action in the second game: the first game's legal one is not applied either
    obs, _ = env.reset(seed=1)
    moves = [t.moves for t in env.tables]
    legal_first = int(np.flatnonzero(obs["action_mask"][0])[0])
    with pytest.raises(Exception, match="not legal"):
        env.step(np.array([legal_first, 160]))
    assert [t.moves for t in env.tables] == moves
    obs, *_ = env.step(np.array([legal_first, int(np.flatnonzero(obs["action_mask"][1])[0])]))
    assert [t.moves for t in env.tables] == [m + 1 for m in moves]


@pytest.mark.parametrize(("preset", "privileged", "extra"), [("tenhou", False, ()), ("jielu", True, ("waits", "safe"))])
def test_the_single_game_environments_observe_what_encode_gives(preset, privileged, extra):
    """The AEC, parallel and Gym environments encode with the compiled batch encoder (one slot, or four for the
    parallel form's four seats): at every decision of a whole game each observation is :func:`encode`'s."""
    options = {"privileged": privileged, "extra_planes": extra, "mjai_events": False}
    rng = np.random.default_rng(7)
    aec = raw_env(preset, **options)
    aec.reset(seed=11)
    checked = 0
    for agent in aec.agent_iter():
        obs, _, term, trunc, _ = aec.last()
        seat = int(agent[-1])
        np.testing.assert_array_equal(obs["observation"], encode(aec.table.game, seat, privileged, extra_planes=extra))
        checked += 1
        aec.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 200 and aec.table.game.result is not None
    par = parallel_env(preset, **options)
    observations, _ = par.reset(seed=12)
    while par.agents:
        game = par.table.game
        for s, agent in enumerate(par.possible_agents):
            expected = encode(game, s, privileged, extra_planes=extra)
            np.testing.assert_array_equal(observations[agent]["observation"], expected)
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"])))
            for a, o in observations.items()
            if o["action_mask"].any()
        }
        observations, *_ = par.step(actions)
    gym_env = MahjongEnv(preset, opponents="random", **options)
    obs, _ = gym_env.reset(seed=13)
    done = False
    while not done:
        np.testing.assert_array_equal(obs["observation"], encode(gym_env.table.game, 0, privileged, extra_planes=extra))
        obs, _, done, _, _ = gym_env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
