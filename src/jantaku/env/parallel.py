"""The PettingZoo parallel form: every step takes the actions of all the seats the engine waits for at once.

After a draw or a call one seat acts; after a discard every seat that may call or ron answers in the same
step, as at the table, and the engine resolves the answers together (win before pon or kan before chi).
Each step returns an observation for every agent: the seats asked now have a non-zero ``action_mask``,
the others an all-zero mask, and their actions (if given) are ignored. Rewards and options are those of
:class:`jantaku.env.aec.raw_env`.

>>> e = parallel_env(rules="mleague", mjai_events=False)
>>> obs, infos = e.reset(seed=3)
>>> sorted(obs) == e.agents, sum(int(o["action_mask"].any()) for o in obs.values())
(True, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from pettingzoo import ParallelEnv

from jantaku.errors import JantakuError
from jantaku.rules import Ruleset

from .aec import AGENTS, TableEnvBase
from .encoding import ENCODING_VERSION, NUM_ACTIONS

__all__ = ["parallel_env"]


class parallel_env(TableEnvBase, ParallelEnv):
    """A whole game as a PettingZoo parallel environment (options as :class:`jantaku.env.aec.raw_env`)."""

    metadata = {  # noqa: RUF012 - PettingZoo reads it from the class
        "name": "jantaku_mahjong_v0",
        "render_modes": ["ansi", "human"],
        "render_fps": 4,
        "encoding_version": ENCODING_VERSION,
    }
    _observed_at_once = 4

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
        self._setup(rules, reward, privileged, mjai_events, illegal_action, render_mode, extra_planes)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Start a new game (``seed`` as for the AEC form); the observations and infos of all four agents."""
        self._new_table(seed)
        self._scores = self.table.scores()
        return self._observe_all(), self._infos({})

    def _observe_all(self) -> dict[str, Any]:
        t = self.table
        assert t is not None
        asked = set(t.to_act())
        observations = self._encoder.encode([t.game] * 4, [0, 1, 2, 3])
        out = {}
        for s, a in enumerate(AGENTS):
            mask = t.mask(s) if s in asked else np.zeros(NUM_ACTIONS, np.int8)
            out[a] = {"observation": observations[s], "action_mask": mask}
        return out

    def _infos(self, illegal: dict[str, bool]) -> dict[str, dict[str, Any]]:
        t = self.table
        assert t is not None
        infos: dict[str, dict[str, Any]] = {}
        for s, a in enumerate(AGENTS):
            info: dict[str, Any] = {"mjai_events": t.new_events(s)} if self.mjai_events else {}
            if illegal.get(a):
                info["illegal_action"] = True
            if t.over:
                info["final"] = t.final()[s]
                info["rank"] = t.game.result.ranks[s]  # type: ignore[union-attr]
            infos[a] = info
        return infos

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """Apply the actions of every seat asked now (a missing one is an error naming the agent)."""
        t = self.table
        if t is None or not self.agents:
            raise JantakuError("call reset() before step() (the game is over or not started)")
        if not isinstance(actions, dict):
            raise JantakuError(f"actions must be a dict of agent name to action index, got {type(actions).__name__}")
        unknown = [a for a in actions if a not in AGENTS]
        if unknown:
            raise JantakuError(f"no agent {str(unknown[0])[:40]!r}: the agents are {', '.join(AGENTS)}")
        asked = t.to_act()
        chosen = []
        illegal: dict[str, bool] = {}
        for s in asked:
            a = AGENTS[s]
            if a not in actions:
                raise JantakuError(f"{a} must act now (waiting for {', '.join(AGENTS[x] for x in asked)})")
            engine_action, bad = t.decode(s, actions[a], self.illegal_action)
            illegal[a] = bad
            chosen.append(engine_action)
        for engine_action in chosen:
            t.apply(engine_action)
        if self.reward_mode == "score":
            now = t.scores()
            rewards = {a: (now[i] - self._scores[i]) / t.scale for i, a in enumerate(AGENTS)}
            self._scores = now
        elif t.over:
            final = t.final()
            rewards = {a: float(final[i]) for i, a in enumerate(AGENTS)}
        else:
            rewards = dict.fromkeys(AGENTS, 0.0)
        obs = self._observe_all()
        infos = self._infos(illegal)
        over = t.over
        terminations = dict.fromkeys(AGENTS, over)
        truncations = dict.fromkeys(AGENTS, False)
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos

    def close(self) -> None:
        self.table = None
