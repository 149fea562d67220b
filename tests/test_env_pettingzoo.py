"""The PettingZoo environments: PettingZoo's own API tests for every preset, seeded replays, whole games played
through the action indices (wins, calls, riichi, kans, 洁律's several winners and play-on), rewards, the
seat's mjai events, the parallel form's simultaneous answers, and clean errors."""

import copy

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

import jantaku.env as je
from env_helpers import ScriptedSeats
from jantaku.env.aec import AGENTS
from jantaku.env.core import SCALAR_EVENTS
from jantaku.env.encoding import A_DAIMINKAN, A_PASS
from jantaku.errors import JantakuError
from jantaku.records.mjai import player_view_events
from jantaku.rules import preset_names
from jantaku.table.kyoku import IllegalActionError

PRESETS = preset_names()


def test_every_preset_is_covered():
    assert {"mu", "mleague", "standard", "meibi", "tenhou", "jielu", "jielu_original"} <= set(PRESETS)


# PettingZoo's checker advises a plain array observation; a dict with "action_mask" is its own convention for
# masked actions (as its classic games use), and under 洁律's original mode scores go negative
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:The observation contains negative numbers")
@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api_test(preset):
    api_test(je.env(preset), num_cycles=120)


@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_parallel_api_test(preset):
    parallel_api_test(je.parallel_env(preset, mjai_events=False), num_cycles=150)


def _random_aec(preset, seed, steps=None, **options):
    """Play with seeded random legal indices; the observations' fingerprints, rewards and the final result."""
    env = je.raw_env(preset, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        trace.append((agent, hash(obs["observation"].tobytes()), reward))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if steps is not None and len(trace) >= steps:
            break
    return trace, env


def test_seeded_reset_replays_exactly():
    a, env_a = _random_aec("tenhou", 11)
    b, env_b = _random_aec("tenhou", 11)
    assert a == b and env_a.table.game.events == env_b.table.game.events
    c, _ = _random_aec("tenhou", 12, steps=50)
    assert c != a[:50]
    # an unseeded reset after a seeded one continues a seeded sequence of games
    env_a.reset(seed=11)
    env_a.reset()
    env_b.reset(seed=11)
    env_b.reset()
    assert env_a.table.seed == env_b.table.seed != 11
    # the parallel form too
    logs = []
    for _ in range(2):
        par = je.parallel_env("meibi", mjai_events=False)
        obs, _ = par.reset(seed=5)
        rng = np.random.default_rng(5)
        for _ in range(40):
            acts = {
                a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items() if o["action_mask"].any()
            }
            obs, *_ = par.step(acts)
        logs.append(par.table.game.events)
    assert logs[0] == logs[1] and len(logs[0]) > 40


def _scripted_game(preset, seed, prefer=(), reward="rank", privileged=False):
    """A whole AEC game, every seat an EfficiencyBot answering through the action indices; returns the env,
    every agent's collected mjai events and summed rewards, and the largest number of seats asked at once."""
    env = je.raw_env(preset, reward=reward, privileged=privileged)
    env.reset(seed=seed)
    seats = ScriptedSeats(seed, prefer)
    events = {a: [] for a in AGENTS}
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in env.agent_iter():
        obs, reward_now, term, trunc, info = env.last()
        totals[agent] += reward_now
        events[agent].extend(info.get("mjai_events", []))
        if term or trunc:
            env.step(None)
            continue
        seat = AGENTS.index(agent)
        assert obs["observation"].shape == ((200, 34) if privileged else (185, 34))
        env.step(seats.choose(env.table.game, seat, obs["action_mask"]))
    return env, events, totals


def test_a_whole_standard_game_reaches_the_env_with_wins_calls_riichi_and_kans():
    env, events, totals = _scripted_game("standard", 4)
    game = env.table.game
    assert game.over and env.agents == []
    types = [e["type"] for e in game.events]
    for kind in ("hora", "chi", "pon", "reach", "reach_accepted", "ankan", "kakan"):
        assert kind in types, kind
    assert any(e["type"] == "hora" and e["actor"] == e["target"] for e in game.events)  # a tsumo
    assert any(e["type"] == "hora" and e["actor"] != e["target"] for e in game.events)  # a ron
    # rank rewards: each agent's rewards add up to its final result
    assert [totals[a] for a in AGENTS] == pytest.approx(game.result.final)
    # each seat saw exactly the game's events as mjai shows them to that seat
    for s, a in enumerate(AGENTS):
        assert events[a] == player_view_events(game.events, s)
    hidden = [e for e in events["player_0"] if e["type"] == "tsumo" and e["actor"] != 0]
    assert hidden and all(e["pai"] == "?" for e in hidden)
    assert all(e["tehais"][1] == ["?"] * 13 for e in events["player_0"] if e["type"] == "start_kyoku")


def _spoil(value):
    """Change every list and dict inside an event's value in place (what a careless agent might do)."""
    if isinstance(value, list):
        for v in value:
            _spoil(v)
        value.append("spoilt")
    elif isinstance(value, dict):
        for v in value.values():
            _spoil(v)
        value["spoilt"] = True


@pytest.mark.parametrize("preset", ["standard", "jielu"])
def test_the_mjai_events_an_agent_is_given_are_its_own(preset):
    """The events in ``info["mjai_events"]`` are copies: an agent that changes their lists and dicts changes nothing
    in the game's log or in what the other seats are given. The event types copied as flat dicts
    (``SCALAR_EVENTS``) hold only strings, numbers and booleans in whole games with calls, kans and wins."""
    env = je.raw_env(preset)
    env.reset(seed=4)
    seats = ScriptedSeats(4, ())
    given = {a: [] for a in AGENTS}
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        for e in info.get("mjai_events", []):
            given[agent].append(copy.deepcopy(e))  # the event as it came, before it is spoilt below
            for v in e.values():
                _spoil(v)
        if term or trunc:
            env.step(None)
            continue
        env.step(seats.choose(env.table.game, AGENTS.index(agent), obs["action_mask"]))
    events = env.table.game.events
    assert "spoilt" not in repr(events)
    types = {e["type"] for e in events}
    assert {"start_kyoku", "hora"} <= types and types & {"chi", "pon", "daiminkan", "ankan", "kakan"}
    for s, a in enumerate(AGENTS):
        assert given[a] == player_view_events(events, s)
    scalar = [e for e in events if e["type"] in SCALAR_EVENTS]
    assert scalar and all(isinstance(v, (str, int, float, bool, type(None))) for e in scalar for v in e.values())


def test_open_kans_and_score_rewards():
    env, _, totals = _scripted_game("mleague", 4, prefer=(A_DAIMINKAN,), reward="score")
    game = env.table.game
    assert any(e["type"] == "daiminkan" for e in game.events)
    start = game.rules.starting_points
    assert [totals[a] for a in AGENTS] == pytest.approx([(p - start) / 100_000 for p in game.result.scores])


def test_nine_terminals_through_the_env():
    env, _, _ = _scripted_game("standard", 3)
    assert any(e["type"] == "ryukyoku" and e["reason"] == "nine_terminals" for e in env.table.game.events)


def test_jielu_several_winners_and_play_on_after_a_win():
    env, _, totals = _scripted_game("jielu", 3, privileged=True)
    game = env.table.game
    assert [totals[a] for a in AGENTS] == pytest.approx(game.result.final)
    hands = []
    for e in game.events:
        if e["type"] == "start_kyoku":
            hands.append([])
        elif hands:
            hands[-1].append(e)
    several = [h for h in hands if sum(e["type"] == "hora" for e in h) >= 2]
    assert several, "some hand has several winners (004 积分制)"
    for h in several:
        first_win = next(i for i, e in enumerate(h) if e["type"] == "hora")
        winner = h[first_win]["actor"]
        after = h[first_win + 1 :]
        assert any(e["type"] == "dahai" for e in after), "the others play on after a win"
        assert not any(e.get("actor") == winner and e["type"] in ("dahai", "tsumo") for e in after)


def test_parallel_asks_every_answering_seat_in_one_step():
    env = je.parallel_env("standard", mjai_events=False)
    obs, _ = env.reset(seed=4)
    seats = ScriptedSeats(4)
    several = 0
    while env.agents:
        asked = [a for a in AGENTS if obs[a]["action_mask"].any()]
        assert asked == [AGENTS[s] for s in env.table.to_act()]
        several += len(asked) > 1
        if len(asked) > 1:
            with pytest.raises(JantakuError, match=f"{asked[-1]} must act now"):
                env.step({a: A_PASS for a in asked[:-1]})
        actions = {a: seats.choose(env.table.game, AGENTS.index(a), obs[a]["action_mask"]) for a in asked}
        obs, rewards, terms, _, infos = env.step(actions)
    assert several > 5
    assert all(terms.values()) and [rewards[a] for a in AGENTS] == env.table.final()
    assert [infos[a]["final"] for a in AGENTS] == env.table.final()


def test_illegal_actions_fall_back_or_raise():
    env = je.raw_env("tenhou", mjai_events=False, illegal_action="fallback")
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    agent = env.agent_selection
    env.step(illegal)
    assert env.infos[agent] == {"illegal_action": True}
    assert env.table.game.events[-1]["type"] in ("dahai", "tsumo")  # the fallback, tsumogiri, was played
    strict = je.raw_env("tenhou", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match=r"action \d+ \(.*\) is not legal for seat \d now; legal: "):
        strict.step(illegal)
    with pytest.raises(JantakuError, match="integer index"):
        strict.step("discard")


def test_bad_options_are_refused_by_name():
    with pytest.raises(JantakuError, match="reward must be one of"):
        je.raw_env("standard", reward="points")
    with pytest.raises(JantakuError, match="illegal_action must be one of"):
        je.parallel_env("standard", illegal_action="ignore")
    with pytest.raises(JantakuError, match="nosuchrules"):
        je.env("nosuchrules")
    with pytest.raises(JantakuError, match="seed must be a whole number"):
        je.raw_env("standard").reset(seed="x")
    with pytest.raises(JantakuError, match="reset"):
        je.raw_env("standard").step(0)


def test_render_shows_the_table():
    env = je.raw_env("mu", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text.startswith("mu E1") and text.count("player_") == 4


@pytest.mark.parametrize("bad", [2.9, "2", True, np.float32(2), float("inf"), 2.0, None, [1]])
def test_an_action_is_an_integer_and_nothing_else(bad):
    """Issue 35: floats (2.0 and inf too), strings, booleans and NumPy floats are refused by name (they used to be
    rounded or cast: step(2.9) played action 2), under either illegal-action mode."""
    for mode in ("raise", "fallback"):
        env = je.raw_env("tenhou", mjai_events=False, illegal_action=mode)
        env.reset(seed=1)
        before = len(env.table.game.events)
        with pytest.raises(JantakuError, match="an action is an integer index 0-160, got"):
            env.step(bad)
        assert len(env.table.game.events) == before  # nothing played


def test_numpy_integers_are_actions():
    env = je.raw_env("tenhou", mjai_events=False)
    env.reset(seed=1)
    obs, *_ = env.last()
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(np.int64(legal))
    env.step(np.array(int(np.flatnonzero(env.last()[0]["action_mask"])[0])))


def test_the_default_never_plays_what_the_agent_did_not_choose():
    """Issue 35: an illegal index raises by default (the fallback played something else silently)."""
    env = je.raw_env("tenhou", mjai_events=False)
    env.reset(seed=1)
    obs, *_ = env.last()
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    par = je.parallel_env("tenhou", mjai_events=False)
    obs, _ = par.reset(seed=1)
    asked = [a for a in par.agents if obs[a]["action_mask"].any()]
    with pytest.raises(IllegalActionError):
        par.step({a: int(np.flatnonzero(obs[a]["action_mask"] == 0)[0]) for a in asked})


def test_agents_and_seeds_are_checked_by_name():
    env = je.raw_env("tenhou", mjai_events=False)
    for seed in (-1, 2**64, "7", 1.5):
        with pytest.raises(JantakuError, match="seed must be a whole number"):
            env.reset(seed=seed)
    env.reset(seed=1)
    for call in (env.observe, env.action_space, env.observation_space):
        with pytest.raises(JantakuError, match="no agent 'player_9'"):
            call("player_9")
    par = je.parallel_env("tenhou", mjai_events=False)
    par.reset(seed=1)
    with pytest.raises(JantakuError, match="no agent 'bob'"):
        par.step({"bob": 0})


def test_the_aec_form_does_not_claim_to_be_parallelizable():
    """Issue 35: several seats answer one discard; PettingZoo's aec_to_parallel would order them wrongly, so the
    AEC env says it is not parallelizable (parallel_env is the parallel form, tested by parallel_api_test)."""
    from pettingzoo.utils.conversions import aec_to_parallel

    assert je.raw_env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError):
        aec_to_parallel(je.raw_env("standard"))
