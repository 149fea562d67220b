"""The PettingZoo AEC environment: four agents, one whole game per episode, under any rule set.

Agents ``player_0`` .. ``player_3`` are the table seats 0-3 (seat 0 is not always the first dealer: the
rule set's seating procedure decides, as in :class:`jantaku.table.Game`). The agent to act is the seat whose
decision the engine waits for; when several seats may answer one discard they are asked one after the
other, none of them seeing the others' answers (they are resolved together, as at the table). Under 洁律's
points mode a seat that has won stays an agent of the episode but is not asked again in that hand.

Observations are dicts ``{"observation": float32 (185, 34), "action_mask": int8 (161,)}`` from
:mod:`jantaku.env.encoding` (``(200, 34)`` with ``privileged=True``, which adds the other hands for a
centralised critic). An agent not asked to act has an all-zero mask. ``infos[agent]["mjai_events"]`` holds
the mjai events that agent has seen since it last acted (others' draws and dealt hands hidden), updated
when it is asked to act and at the end.

>>> e = raw_env(rules="tenhou", mjai_events=False)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0, e.agent_selection in e.possible_agents
((185, 34), True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from jantaku.errors import JantakuError
from jantaku.rules import Ruleset

from .batch import BatchEncoder
from .core import AGENTS, ILLEGAL_MODES, REWARDS, Table, agent_seat, check_choice, check_seed, resolve_rules
from .encoding import ENCODING_VERSION, NUM_ACTIONS, OBS_PLANES, OBS_PLANES_PRIVILEGED, observation_bounds
from .planes import check_names, plane_count

__all__ = ["AGENTS", "TableEnvBase", "env", "observation_space", "raw_env"]


def observation_space(privileged: bool = False, extra_planes: Sequence[str] = ()) -> spaces.Dict:
    """The observation space of one agent (the same for every environment of this package)."""
    extra = plane_count(extra_planes)
    low, high = observation_bounds(privileged, extra)
    planes = (OBS_PLANES_PRIVILEGED if privileged else OBS_PLANES) + extra
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, (planes, 34), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }
    )


class TableEnvBase:
    """What the AEC and the parallel forms share: the options, the spaces, the seeds and the text picture."""

    metadata: dict[str, Any]
    table: Table | None
    _observed_at_once = 1
    """Observations encoded together: one seat's (the AEC form), or the four seats' (the parallel form)."""

    def _setup(
        self,
        rules: str | Ruleset,
        reward: str,
        privileged: bool,
        mjai_events: bool,
        illegal_action: str,
        render_mode: str | None,
        extra_planes: Sequence[str] = (),
    ) -> None:
        """Check and keep the options (the constructors' arguments, documented on :class:`raw_env`)."""
        self.rules = resolve_rules(rules)
        keep_options(self, reward, illegal_action, render_mode, privileged, mjai_events, extra_planes)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self._obs_space = observation_space(self.privileged, self.extra_planes)
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self._encoder = BatchEncoder(self._observed_at_once, self.privileged, self.extra_planes)
        """The compiled encoder (the same arrays as :func:`~jantaku.env.encoding.encode`, about three times
        faster), with a slot per observation made at once."""
        self._seeds = np.random.default_rng()
        self.table = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same space object for every agent and every call (as PettingZoo's tests require)."""
        agent_seat(agent)
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(161)``: the action indices of :mod:`jantaku.env.encoding`."""
        agent_seat(agent)
        return self._act_space

    def _new_table(self, seed: int | None) -> Table:
        """A new game: with ``seed`` that game (and the generator of the following seeds restarted from it),
        without one the next seed from the generator."""
        if seed is not None:
            game_seed = check_seed(seed)
            self._seeds = np.random.default_rng(game_seed)
        else:
            game_seed = int(self._seeds.integers(2**31))
        self.table = Table(self.rules, game_seed, mjai=self.mjai_events)
        self.agents = list(self.possible_agents)
        return self.table

    def render(self) -> str | None:
        """A text picture of the table (``ansi``), printed for ``human``."""
        return render_table(self.table, self.render_mode)


class raw_env(TableEnvBase, AECEnv):
    """A whole game as a PettingZoo AEC environment.

    Args:
        rules: a preset name (``jantaku rules`` lists them), a rule file path or a :class:`Ruleset`.
        reward: ``"rank"`` (the final result in rank points at the end) or ``"score"`` (point changes, scaled).
        privileged: add every closed hand to the observation (for centralised critics).
        mjai_events: put the seat's new mjai events in its info (off is faster).
        illegal_action: ``"raise"`` (the default) or ``"fallback"`` (see :data:`jantaku.env.core.ILLEGAL_MODES`).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns text) or ``"human"`` (prints it).
        extra_planes: names of optional observation planes to add (:mod:`jantaku.env.planes`).
    """

    metadata = {  # noqa: RUF012 - PettingZoo reads it from the class
        "name": "jantaku_mahjong_v0",
        "render_modes": ["ansi", "human"],
        "render_fps": 4,
        # calls and ron on one discard are decided by several seats at once: the AEC form asks them one at a
        # time, so PettingZoo's AEC-to-parallel conversion does not hold; parallel_env is the parallel form
        "is_parallelizable": False,
        "encoding_version": ENCODING_VERSION,
    }

    def __init__(
        self,
        rules: str | Ruleset = "standard",
        *,
        reward: str = "rank",
        privileged: bool = False,
        mjai_events: bool = True,
        illegal_action: str = "raise",
        render_mode: str | None = None,
        extra_planes: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self._setup(rules, reward, privileged, mjai_events, illegal_action, render_mode, extra_planes)

    # -- episode -------------------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` is the game's seed (``jantaku simulate`` plays the same deals with it);
        without one the next seed comes from the generator the last seeded reset started."""
        self._new_table(seed)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._scores = self.table.scores()
        self._select()

    def _select(self) -> None:
        t = self.table
        assert t is not None
        seat = t.acting()
        if seat < 0:
            return
        self.agent_selection = AGENTS[seat]
        info = self.infos[self.agent_selection]
        info["mjai_events"] = t.new_events(seat)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        t = self.table
        if t is None:
            raise JantakuError("call reset() before observe()")
        seat = agent_seat(agent)
        obs = self._encoder.encode([t.game], [seat])[0]
        return {"observation": obs, "action_mask": t.mask(seat)}

    def step(self, action: Any) -> None:
        if self.table is None:
            raise JantakuError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        t = self.table
        seat = AGENTS.index(agent)
        self._cumulative_rewards[agent] = 0.0
        engine_action, illegal = t.decode(seat, action, self.illegal_action)
        t.apply(engine_action)
        self.infos[agent] = {"illegal_action": illegal} if illegal else {}
        self._set_rewards()
        if t.over:
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                s = AGENTS.index(a)
                self.infos[a] = {"mjai_events": t.new_events(s), "final": t.final()[s], "rank": t.game.result.ranks[s]}  # type: ignore[union-attr]
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _set_rewards(self) -> None:
        t = self.table
        assert t is not None
        if self.reward_mode == "score":
            now = t.scores()
            self.rewards = {a: (now[i] - self._scores[i]) / t.scale for i, a in enumerate(AGENTS)}
            self._scores = now
        elif t.over:
            final = t.final()
            self.rewards = {a: float(final[i]) for i, a in enumerate(AGENTS)}
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)

    def close(self) -> None:
        self.table = None


def keep_options(
    env: Any,
    reward: str,
    illegal_action: str,
    render_mode: str | None,
    privileged: bool,
    mjai_events: bool,
    extra_planes: Sequence[str] = (),
) -> None:
    """Check the options every jantaku environment takes and keep them on ``env`` (``reward_mode``,
    ``illegal_action``, ``render_mode`` among ``env.metadata["render_modes"]``, ``privileged``, ``mjai_events``,
    ``extra_planes``)."""
    env.extra_planes = check_names(extra_planes)
    env.reward_mode = check_choice("reward", reward, REWARDS)
    env.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_MODES)
    if render_mode is not None:
        check_choice("render_mode", render_mode, tuple(env.metadata["render_modes"]))
    env.render_mode = render_mode
    env.privileged = bool(privileged)
    env.mjai_events = bool(mjai_events)


def render_table(table: Table | None, mode: str | None) -> str | None:
    """What ``render()`` gives in ``mode``: the text picture (``ansi``), printed and ``None`` for ``human``,
    ``None`` without a render mode (shared by the PettingZoo and the Gymnasium environments)."""
    if mode is None:
        return None
    text = describe(table) if table is not None else "(no game: call reset())"
    if mode == "human":
        print(text)
        return None
    return text


def describe(t: Table) -> str:
    """A few lines about the game in play: the hand, each seat's points, closed tiles, melds and river."""
    from jantaku.tiles import format_tiles

    g = t.game
    k = g.kyoku
    lines = [f"{g.rules.name} {g.round_name} honba {k.honba} deposits {k.deposits} tiles left {k.tiles_left}"]
    for s in range(4):
        st = k.seats[s]
        hand = format_tiles(sorted(k.tile(i) for i in st.tiles))
        melds = " ".join(m.notation() if hasattr(m, "notation") else repr(m) for m in st.melds)
        river = format_tiles([k.tile(r.tile) for r in st.river])
        flag = " riichi" if st.riichi else ""
        lines.append(f"{AGENTS[s]} {k.scores[s]:>6}{flag}  {hand}  {melds}  | {river}")
    if g.over:
        lines.append(f"final {g.result.final}")  # type: ignore[union-attr]
    return "\n".join(lines)


def env(rules: str | Ruleset = "standard", **options: Any) -> AECEnv:
    """The AEC environment with PettingZoo's usual wrappers (actions in range, calls in order)."""
    e: AECEnv = raw_env(rules, **options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
