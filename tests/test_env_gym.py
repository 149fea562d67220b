"""The Gymnasium environment jantaku/Mahjong-v0 and the vector environment: Gymnasium's checker, options,
opponents, rewards, a whole game through the action indices, batch encoding and autoreset."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import jantaku.env as je
from env_helpers import ScriptedSeats
from jantaku.env.encoding import encode
from jantaku.errors import JantakuError
from jantaku.table.actions import PASS


@pytest.mark.parametrize(("preset", "opponents"), [("standard", "random"), ("jielu", "efficiency")])
def test_gymnasium_check_env(preset, opponents):
    # Gymnasium's checker steps actions sampled without the mask: the fallback mode is for such callers
    env = gym.make(je.GYM_ID, rules=preset, opponents=opponents, illegal_action="fallback")
    check_env(env.unwrapped, skip_render_check=True)
    strict = gym.make(je.GYM_ID, rules=preset, opponents=opponents)  # the default refuses what the mask forbids
    obs, _ = strict.reset(seed=3)
    with pytest.raises(JantakuError, match="not legal"):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


def test_registered_id_options_and_the_learning_seat():
    env = gym.make(je.GYM_ID, rules="mleague", seat=2, opponents=["random", "efficiency", "random"])
    obs, info = env.reset(seed=7)
    table = env.unwrapped.table
    assert env.unwrapped.seat == 2 and table.rules.name == "mleague"
    assert 2 in table.to_act()
    counts = table.game.kyoku.seats[2].counts
    assert obs["observation"][0:4].sum(axis=0).tolist() == [min(4, c) for c in counts]
    np.testing.assert_array_equal(info["action_mask"], obs["action_mask"])
    np.testing.assert_array_equal(env.unwrapped.action_masks(), obs["action_mask"].astype(bool))
    assert info["mjai_events"][0]["type"] == "start_game" and info["mjai_events"][0]["id"] == 2


def test_callable_opponents_and_a_whole_game_with_rank_reward():
    calls = []

    def passive(view, legal):  # a callable opponent: pass when it may, else the first legal action
        calls.append(view.seat)
        return next((a for a in legal if a.kind == PASS), legal[0])

    env = je.MahjongEnv("tenhou", seat=1, opponents=passive, mjai_events=False)
    obs, _ = env.reset(seed=3)
    me = ScriptedSeats(3)
    total, steps, done = 0.0, 0, False
    while not done:
        obs, reward, done, truncated, info = env.step(me.choose(env.table.game, 1, obs["action_mask"]))
        assert not truncated
        total += reward
        steps += 1
        if not done:
            assert reward == 0.0 and 1 in env.table.to_act()
    assert set(calls) == {0, 2, 3} and steps > 50
    final = env.table.game.result.final[1]
    assert total == info["final"] == final and info["rank"] == env.table.game.result.ranks[1]
    with pytest.raises(JantakuError, match="game is over"):
        env.step(0)


def test_score_reward_adds_up_to_the_point_change():
    env = je.MahjongEnv("standard", seat=0, opponents="efficiency", reward="score", mjai_events=False)
    obs, _ = env.reset(seed=5)
    me = ScriptedSeats(5)
    rewards, done = [], False
    while not done:
        obs, reward, done, _, _ = env.step(me.choose(env.table.game, 0, obs["action_mask"]))
        rewards.append(reward)
    result = env.table.game.result
    assert sum(rewards) == pytest.approx((result.scores[0] - 25_000) / 100_000)
    assert sum(1 for r in rewards[:-1] if r != 0) >= 3  # paid as the hands end, not only at the end


def test_bad_options_are_refused_by_name():
    with pytest.raises(JantakuError, match="seat must be 0-3"):
        je.MahjongEnv("standard", seat=4)
    with pytest.raises(JantakuError, match="unknown bot 'champion'"):
        je.MahjongEnv("standard", opponents="champion")
    with pytest.raises(JantakuError, match="list of 3"):
        je.MahjongEnv("standard", opponents=["random", "random"])
    with pytest.raises(JantakuError, match="reward must be one of"):
        gym.make(je.GYM_ID, reward="win")
    with pytest.raises(JantakuError, match="num_envs"):
        je.VectorMahjongEnv(0)


def test_vector_env_batch_encoding_autoreset_and_seeds():
    vec = gym.make_vec(je.GYM_ID, num_envs=3, vectorization_mode="vector_entry_point", rules="tenhou")
    assert isinstance(vec, je.VectorMahjongEnv)
    obs, info = vec.reset(seed=20)
    assert obs["observation"].shape == (3, 185, 34) and vec.observation_space.contains(obs)
    for i, t in enumerate(vec.tables):
        assert t.seed == 20 + i
        np.testing.assert_array_equal(obs["observation"][i], encode(t.game, 0))
        np.testing.assert_array_equal(obs["action_mask"][i], t.mask(0))
    twin = je.VectorMahjongEnv(3, rules="tenhou")
    twin_obs, _ = twin.reset(seed=20)
    rng = np.random.default_rng(0)
    finished = np.zeros(3, bool)
    steps = 0
    while not finished.all() and steps < 2000:
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        old = list(vec.tables)
        obs, rewards, term, trunc, info = vec.step(acts)
        twin_obs, *_ = twin.step(acts)
        np.testing.assert_array_equal(obs["observation"], twin_obs["observation"])
        assert not trunc.any()
        for i in np.flatnonzero(term):
            assert old[i].over and vec.tables[i] is not old[i]
            assert rewards[i] == info["final_info"][i]["final"] == old[i].game.result.final[0]
            assert info["final_obs"][i]["observation"][183, 19] == 1  # "game over" in the last observation
        for i in np.flatnonzero(~term):
            assert rewards[i] == 0
        np.testing.assert_array_equal(obs["observation"][1], encode(vec.tables[1].game, 0))
        finished |= term
        steps += 1
    assert finished.all()
    with pytest.raises(JantakuError, match="one action per game"):
        vec.step([0])
    # an illegal action in the last game: the others' legal ones are not applied either
    moves = [t.moves for t in vec.tables]
    first = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    with pytest.raises(Exception, match="not legal"):
        vec.step(np.array([*first[:2], 160]))
    assert [t.moves for t in vec.tables] == moves


def test_one_hand_episodes_go_on_with_the_same_game():
    """``episode="hand"``: an episode ends with its hand, ``reset()`` goes on with the same game's next hand and its
    score rewards add up to the seat's point change over the hand; a new game once the game is over. The vector
    env does the same slot by slot."""
    env = je.MahjongEnv("mleague", opponents="efficiency", reward="score", episode="hand", mjai_events=False)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(0)
    game = env.table.game
    episodes = games = 0
    while games < 2:
        start_hands, start_score = game.hands_played, env.table.scores()[0]
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, done, _, _ = env.step(int(rng.choice(legal)))
            total += reward
        episodes += 1
        assert game.hands_played > start_hands  # the episode ended with (at least) its hand
        assert total * 100_000 == pytest.approx(env.table.scores()[0] - start_score)
        with pytest.raises(JantakuError, match="is over: call reset"):
            env.step(int(np.flatnonzero(obs["action_mask"])[0]) if obs["action_mask"].any() else 0)
        over = game.result is not None
        obs, _ = env.reset()
        if over:
            games += 1
            assert env.table.game is not game and env.table.game.hands_played == 0
            game = env.table.game
        else:
            assert env.table.game is game  # the next hand of the same game
    assert episodes > games + 4
    vec = je.VectorMahjongEnv(2, "tenhou", opponents="random", episode="hand")
    vobs, _ = vec.reset(seed=1)
    first = [t.game for t in vec.tables]
    ended = 0
    for _ in range(3000):
        m = vobs["action_mask"]
        vobs, _, term, _, info = vec.step((rng.random(m.shape) * m).argmax(axis=1))
        for i in np.flatnonzero(term):
            ended += 1
            if info["final_info"][i].get("rank") is None:
                assert vec.tables[i].game is first[i]
        if ended >= 6:
            break
    assert ended >= 6
