"""A vector environment: many games of one learning seat against bots, stepped together, encoded in batch.

:class:`VectorMahjongEnv` is a :class:`gymnasium.vector.VectorEnv` of ``num_envs`` games in one process. A
step applies one action per game, lets each game's opponents play until its learning seat acts again, and
then encodes all the observations with one :class:`~jantaku.env.batch.BatchEncoder` kernel and the masks
into one array. A finished game is replaced by a new one in the same step (Gymnasium's ``SAME_STEP``
autoreset): its last observation and result are in ``info["final_obs"]`` / ``info["final_info"]``.

>>> v = VectorMahjongEnv(3, rules="tenhou")
>>> obs, info = v.reset(seed=5)
>>> obs["observation"].shape, obs["action_mask"].shape
((3, 185, 34), (3, 161))
>>> obs, rewards, terminated, truncated, info = v.step(obs["action_mask"].argmax(axis=1))
>>> rewards.shape, terminated.dtype
((3,), dtype('bool'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from jantaku.errors import JantakuError
from jantaku.rules import Ruleset

from .core import (
    ILLEGAL_MODES,
    REWARDS,
    Opponent,
    Table,
    batch_actions,
    batch_masks,
    batch_seeds,
    check_choice,
    close_opponents,
    make_opponent,
    resolve_rules,
)
from .encoding import ENCODING_VERSION, NUM_ACTIONS, encode
from .gym_env import opponent_list
from .planes import check_names
from .selfplay import EPISODES, batch_setup

__all__ = ["VectorMahjongEnv"]


class VectorMahjongEnv(gym.vector.VectorEnv):  # type: ignore[type-arg]
    """``num_envs`` games, each with one learning seat (options as :class:`jantaku.env.gym_env.MahjongEnv`, the
    episode one too: with ``episode="hand"`` a slot whose hand ended goes on with its game's next hand; no mjai
    events in the infos)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "encoding_version": ENCODING_VERSION}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        rules: str | Ruleset = "standard",
        seat: int = 0,
        opponents: Any = "random",
        *,
        reward: str = "rank",
        privileged: bool = False,
        illegal_action: str = "raise",
        extra_planes: Sequence[str] = (),
        episode: str = "game",
    ) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise JantakuError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.num_envs = num_envs
        self.rules = resolve_rules(rules)
        self.seat = seat
        self._specs = opponent_list(seat, opponents)
        for s, spec in enumerate(self._specs):
            if spec is not None:
                make_opponent(spec, f"0:{s}")
        self.reward_mode = check_choice("reward", reward, REWARDS)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_MODES)
        self.privileged = bool(privileged)
        self.extra_planes = check_names(extra_planes)
        self.episode = check_choice("episode", episode, EPISODES)
        self._hands: list[int] = []
        self._encoder = batch_setup(self, num_envs)
        self._rng = np.random.default_rng()
        self.tables: list[Table] = []
        self._bots: list[list[Opponent | None]] = []
        self._scores: list[list[int]] = []

    def _new_game(self, i: int, seed: int) -> None:
        table = Table(self.rules, seed, mjai=False)
        if i < len(self._bots):
            close_opponents(self._bots[i], self._specs)  # the slot's last game's (an mjai bot's process)
        bots = [None if spec is None else make_opponent(spec, f"{seed}:{s}") for s, spec in enumerate(self._specs)]
        table.play_bots(bots, self.seat)
        self.tables[i] = table
        self._bots[i] = bots
        self._scores[i] = table.scores()
        self._hands[i] = table.game.hands_played

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """New games everywhere: ``seed`` an int (games get ``seed``, ``seed + 1``, ...), a list of one seed per
        game, or ``None`` (seeds from the generator the last seeded reset started)."""
        seeds, self._rng = batch_seeds(seed, self.num_envs, self._rng)
        self.tables = [None] * self.num_envs  # type: ignore[list-item]
        self._bots = [[] for _ in range(self.num_envs)]
        self._scores = [[] for _ in range(self.num_envs)]
        self._hands = [0] * self.num_envs
        for i, s in enumerate(seeds):
            self._new_game(i, s)
        obs = self._observe()
        return obs, {"action_mask": obs["action_mask"].copy()}

    def _observe(self) -> dict[str, np.ndarray]:
        obs = self._encoder.encode([t.game for t in self.tables], [self.seat] * self.num_envs)
        masks = batch_masks(self.tables, [self.seat] * self.num_envs)
        return {"observation": obs, "action_mask": masks}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per game (an array of ``num_envs`` indices)."""
        acts = batch_actions(self.tables, actions)
        rewards = np.zeros(self.num_envs, np.float64)
        terminated = np.zeros(self.num_envs, bool)
        illegal = np.zeros(self.num_envs, bool)
        final_obs = np.full(self.num_envs, None, dtype=object)
        final_info = np.full(self.num_envs, None, dtype=object)
        # every action decoded before any is applied: an illegal one (raised) leaves every game as it was
        decoded = [t.decode(self.seat, acts[i], self.illegal_action) for i, t in enumerate(self.tables)]
        for i, t in enumerate(self.tables):
            engine_action, illegal[i] = decoded[i]
            t.apply(engine_action)
            t.play_bots(self._bots[i], self.seat)
            if self.reward_mode == "score":
                now = t.scores()
                rewards[i] = (now[self.seat] - self._scores[i][self.seat]) / t.scale
                self._scores[i] = now
            elif t.over:
                rewards[i] = t.final()[self.seat]
            hand_over = self.episode == "hand" and t.game.hands_played != self._hands[i]
            if t.over or hand_over:
                terminated[i] = True
                final_obs[i] = {
                    "observation": encode(t.game, self.seat, self.privileged, extra_planes=self.extra_planes),
                    "action_mask": np.zeros(NUM_ACTIONS, np.int8),
                }
                result = t.game.result
                final_info[i] = {"hands_played": t.game.hands_played, "scores": t.scores()}
                if result is not None:
                    final_info[i].update(final=t.final()[self.seat], rank=result.ranks[self.seat])
                    self._new_game(i, int(self._rng.integers(2**31)))
                else:  # the next hand of the same game, already under way
                    self._hands[i] = t.game.hands_played
        obs = self._observe()
        info: dict[str, Any] = {"action_mask": obs["action_mask"].copy(), "illegal_action": illegal}
        if terminated.any():
            info["final_obs"] = final_obs
            info["_final_obs"] = terminated.copy()
            info["final_info"] = final_info
            info["_final_info"] = terminated.copy()
        return obs, rewards, terminated, np.zeros(self.num_envs, bool), info

    def close_extras(self, **kwargs: Any) -> None:
        """End the games and stop the opponents' processes (mjai bots)."""
        for bots in getattr(self, "_bots", []):  # (an env whose options were refused has none)
            close_opponents(bots, self._specs)
        self._bots = []
        self.tables = []
