"""Self-play in batch: many games in which every seat is the learner, one decision per game per step.

:class:`SelfPlayVectorEnv` is a :class:`gymnasium.vector.VectorEnv` of ``num_envs`` games in one process.
Each step takes one action per game, for the seat that was asked (``info["seat"]``), applies it, and returns
each game's next decision: the observation of the seat asked next, encoded for all the games with one
:class:`~jantaku.env.batch.BatchEncoder` kernel, and the masks as one array. Every decision of every seat has its
observation (as in the PettingZoo environment), which is what self-play and league training want; no bot runs
between the learner's decisions.

Rewards. ``rewards[i]`` is what the seat that acted in game ``i`` gained in this step, and
``info["seat_rewards"]`` (``(num_envs, 4)``) what every seat gained, in seat order: with ``reward="rank"``
each seat's final result in rank points at the step that ends the game (0 before), with ``reward="score"`` every
change of the seats' points, divided by the encoding's score scale. A learner that keeps one trajectory per
(game, seat) adds ``seat_rewards[i, s]`` to seat ``s``'s.

Episodes. ``episode="game"`` (default): a game is terminated when it ends and is replaced in the same step
(Gymnasium's ``SAME_STEP`` autoreset; the last observation and result in ``info["final_obs"]`` /
``info["final_info"]``). ``episode="hand"``: terminated when a hand ends; the next episode is the same game's
next hand (so the later rounds and the score differences are seen), and a new game begins when one ends.

>>> v = SelfPlayVectorEnv(4, rules="tenhou")
>>> obs, info = v.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape, info["seat"].shape
((4, 185, 34), (4, 161), (4,))
>>> obs, rewards, terminated, truncated, info = v.step(obs["action_mask"].argmax(axis=1))
>>> rewards.shape, info["seat_rewards"].shape
((4,), (4, 4))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from jantaku.errors import JantakuError
from jantaku.rules import Ruleset

from .aec import observation_space
from .batch import BatchEncoder
from .core import (
    ILLEGAL_MODES,
    REWARDS,
    Table,
    batch_actions,
    batch_masks,
    batch_seeds,
    check_choice,
    resolve_rules,
)
from .encoding import ENCODING_VERSION, NUM_ACTIONS, encode
from .planes import check_names

__all__ = ["EPISODES", "SelfPlayVectorEnv", "batch_setup"]

EPISODES = ("game", "hand")
"""What one episode is: a whole game, or one hand of it."""


def batch_setup(env: Any, num_envs: int) -> BatchEncoder:
    """A vector environment's spaces (one game's and the batch's, from its ``privileged`` and ``extra_planes``)
    set on ``env``, and its batch encoder."""
    env.single_observation_space = observation_space(env.privileged, env.extra_planes)
    env.single_action_space = gym.spaces.Discrete(NUM_ACTIONS)
    env.observation_space = batch_space(env.single_observation_space, num_envs)
    env.action_space = batch_space(env.single_action_space, num_envs)
    return BatchEncoder(num_envs, env.privileged, env.extra_planes)


class SelfPlayVectorEnv(gym.vector.VectorEnv):  # type: ignore[type-arg]
    """``num_envs`` self-play games stepped together.

    Args:
        num_envs: how many games.
        rules: a preset name, a rule file path or a :class:`Ruleset`.
        reward: ``"rank"`` or ``"score"`` (see the module).
        episode: ``"game"`` or ``"hand"`` (see the module).
        privileged: every seat's closed hand in the observation (for a teacher network).
        illegal_action: ``"raise"`` (default) or ``"fallback"``, as :class:`jantaku.env.aec.raw_env`.
        extra_planes: names of optional observation planes to add (:mod:`jantaku.env.planes`).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "encoding_version": ENCODING_VERSION}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        rules: str | Ruleset = "standard",
        *,
        reward: str = "rank",
        episode: str = "game",
        privileged: bool = False,
        illegal_action: str = "raise",
        extra_planes: Sequence[str] = (),
    ) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise JantakuError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.num_envs = num_envs
        self.rules = resolve_rules(rules)
        self.reward_mode = check_choice("reward", reward, REWARDS)
        self.episode = check_choice("episode", episode, EPISODES)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_MODES)
        self.privileged = bool(privileged)
        self.extra_planes = check_names(extra_planes)
        self._encoder = batch_setup(self, num_envs)
        self._rng = np.random.default_rng()
        self.tables: list[Table] = []
        self.seats = np.zeros(num_envs, np.int64)
        """The seat asked in each game now."""
        self._scores: list[list[int]] = []
        self._hands: list[int] = []

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """New games everywhere: ``seed`` an int (games get ``seed``, ``seed + 1``, ...), a list of one seed per
        game, or ``None`` (seeds from the generator the last seeded reset started)."""
        seeds, self._rng = batch_seeds(seed, self.num_envs, self._rng)
        self.tables = [Table(self.rules, s, mjai=False) for s in seeds]
        self._scores = [t.scores() for t in self.tables]
        self._hands = [0] * self.num_envs
        obs = self._observe()
        return obs, {"action_mask": obs["action_mask"].copy(), "seat": self.seats.copy()}

    def _observe(self) -> dict[str, np.ndarray]:
        """Every game's next decision (after a reset; :meth:`step` reads them as it applies the actions)."""
        seats = [t.acting() for t in self.tables]
        return self._finish_observation(seats, batch_masks(self.tables, seats))

    def _finish_observation(self, seats: list[int], masks: np.ndarray) -> dict[str, np.ndarray]:
        """The observation of each game's seat asked next, with the masks already written."""
        self.seats = np.array(seats, np.int64)
        obs = self._encoder.encode([t.game for t in self.tables], seats)
        return {"observation": obs, "action_mask": masks}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per game (an array of ``num_envs`` indices), each for the seat asked in that game."""
        acts = batch_actions(self.tables, actions)
        n = self.num_envs
        seat_rewards = np.zeros((n, 4), np.float64)
        terminated = np.zeros(n, bool)
        illegal = [False] * n
        final_obs: np.ndarray | None = None
        final_info: np.ndarray | None = None
        acted = self.seats
        acted_seats = acted.tolist()
        score_mode = self.reward_mode == "score"
        by_hand = self.episode == "hand"
        mode = self.illegal_action
        # plain ints when the actions are integers; anything else as given, for decode to name what is wrong
        indices = acts.tolist() if acts.dtype.kind in "iu" else list(acts)
        tables = self.tables
        # every action decoded before any is applied: an illegal one (raised) leaves every game as it was
        decoded = [t.decode(acted_seats[i], indices[i], mode) for i, t in enumerate(tables)]
        # each game: its action applied, then its next decision read and its mask written (one pass)
        masks = bytearray(n * NUM_ACTIONS)
        seats = [0] * n
        base = 0
        for i in range(n):
            t = tables[i]
            seat = acted_seats[i]
            engine_action, illegal[i] = decoded[i]
            t.apply(engine_action)
            game = t.game
            if score_mode:
                now = t.scores()
                before = self._scores[i]
                if now != before:
                    seat_rewards[i] = [(a - b) / t.scale for a, b in zip(now, before, strict=True)]
                    self._scores[i] = now
            elif game.result is not None:
                seat_rewards[i] = game.result.final
            if game.result is not None or (by_hand and game.hands_played != self._hands[i]):
                terminated[i] = True
                if final_obs is None or final_info is None:
                    final_obs = np.full(n, None, dtype=object)
                    final_info = np.full(n, None, dtype=object)
                final_obs[i] = {
                    "observation": encode(game, seat, self.privileged, extra_planes=self.extra_planes),
                    "action_mask": np.zeros(NUM_ACTIONS, np.int8),
                }
                info_i: dict[str, Any] = {"hands_played": game.hands_played, "scores": t.scores()}
                if game.result is not None:
                    info_i["final"] = list(game.result.final)
                    info_i["ranks"] = list(game.result.ranks)
                final_info[i] = info_i
                self._hands[i] = game.hands_played
                if game.result is not None:
                    tables[i] = t = Table(self.rules, int(self._rng.integers(2**31)), mjai=False)
                    self._scores[i] = t.scores()
                    self._hands[i] = 0
            seats[i], legal = t.decision()
            for index in legal:
                masks[base + index] = 1
            base += NUM_ACTIONS
        rewards = seat_rewards[np.arange(n), acted]
        obs = self._finish_observation(seats, np.frombuffer(masks, np.int8).reshape(n, NUM_ACTIONS))
        info: dict[str, Any] = {
            "action_mask": obs["action_mask"].copy(),
            "seat": self.seats.copy(),
            "acted": acted,
            "seat_rewards": seat_rewards,
            "illegal_action": np.array(illegal, bool),
        }
        if final_obs is not None:
            info["final_obs"] = final_obs
            info["_final_obs"] = terminated.copy()
            info["final_info"] = final_info
            info["_final_info"] = terminated.copy()
        return obs, rewards, terminated, np.zeros(n, bool), info

    def close_extras(self, **kwargs: Any) -> None:
        """End the games."""
        self.tables = []
