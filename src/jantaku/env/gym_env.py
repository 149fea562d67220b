"""The Gymnasium single-agent environment ``jantaku/Mahjong-v0``: one seat learns, bots play the other three.

Each step is one decision of the learning seat; between its decisions the opponents (jantaku bots by name,
agents with ``act(view, legal)``, or callables ``(view, legal) -> Action``) play. An episode is one whole
game. Observations, the action space and the options are those of :mod:`jantaku.env.encoding` and
:class:`jantaku.env.aec.raw_env`; the legal action mask is in the observation, in ``info["action_mask"]``
and from :meth:`MahjongEnv.action_masks` (the name sb3-contrib's maskable algorithms call).

>>> e = MahjongEnv(rules="standard", opponents="random", mjai_events=False)
>>> obs, info = e.reset(seed=2)
>>> obs, reward, terminated, truncated, info = e.step(int(info["action_mask"].argmax()))
>>> reward, terminated, obs["observation"].shape
(0.0, False, (185, 34))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from jantaku.errors import JantakuError
from jantaku.rules import Ruleset

from .aec import keep_options, observation_space, render_table
from .batch import BatchEncoder
from .core import Opponent, Table, check_choice, close_opponents, make_opponent, resolve_rules
from .encoding import ENCODING_VERSION, NUM_ACTIONS
from .selfplay import EPISODES

__all__ = ["MahjongEnv", "opponent_list"]


def opponent_list(seat: int, opponents: Any) -> list[Any]:
    """Per seat the opponent spec (``None`` at the learning seat): one spec for all three, three specs for
    the other seats in seat order, or four with anything at the learning seat."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise JantakuError(f"seat must be 0-3, got {seat!r}")
    if isinstance(opponents, str) or callable(opponents) or callable(getattr(opponents, "act", None)):
        specs = [opponents] * 3
    elif isinstance(opponents, Sequence) and len(opponents) in (3, 4):
        specs = list(opponents)
        if len(specs) == 4:
            specs = [x for s, x in enumerate(specs) if s != seat]
    else:
        raise JantakuError("opponents must be a bot name, an agent or callable, or a list of 3 (or 4) of them")
    out: list[Any] = []
    it = iter(specs)
    for s in range(4):
        out.append(None if s == seat else next(it))
    return out


class MahjongEnv(gym.Env[dict[str, np.ndarray], np.int64]):
    """One seat of a whole game as a Gymnasium environment.

    Args:
        rules: a preset name, a rule file path or a :class:`Ruleset`.
        seat: the learning seat, 0-3 (a table position; the first dealer is drawn by the rule set).
        opponents: ``"random"`` (default), ``"efficiency"``, ``"mjai:COMMAND"``, an agent or a callable; or a
            list of three (the other seats in order) or four (the learning seat's entry ignored).
        reward: ``"rank"`` (the final result in rank points at the end) or ``"score"`` (point changes,
            scaled as the observation's scores).
        privileged, mjai_events, illegal_action, render_mode, extra_planes: as :class:`jantaku.env.aec.raw_env`.
        episode: ``"game"`` (default) or ``"hand"``: each hand is an episode, and ``reset()`` without a seed goes
            on with the same game's next hand (a new game once it is over); with ``reward="rank"`` only the last
            hand's episode is rewarded, ``reward="score"`` rewards each hand's point changes.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4, "encoding_version": ENCODING_VERSION}  # noqa: RUF012

    def __init__(
        self,
        rules: str | Ruleset = "standard",
        seat: int = 0,
        opponents: Any = "random",
        *,
        reward: str = "rank",
        privileged: bool = False,
        mjai_events: bool = True,
        illegal_action: str = "raise",
        render_mode: str | None = None,
        extra_planes: Sequence[str] = (),
        episode: str = "game",
    ) -> None:
        self.rules = resolve_rules(rules)
        self.episode = check_choice("episode", episode, EPISODES)
        self._hands = 0
        self.seat = seat
        self._opponent_specs = opponent_list(seat, opponents)
        for s, spec in enumerate(self._opponent_specs):
            if spec is not None:
                make_opponent(spec, f"0:{s}")  # a bad name fails here, not at the first reset
        keep_options(self, reward, illegal_action, render_mode, privileged, mjai_events, extra_planes)
        self.observation_space = observation_space(self.privileged, self.extra_planes)
        self.action_space = gym.spaces.Discrete(NUM_ACTIONS)
        self._encoder = BatchEncoder(1, self.privileged, self.extra_planes)
        self.table: Table | None = None
        self._bots: list[Opponent | None] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a game: with ``seed`` that game's seed, without one a seed from the environment's generator. With
        ``episode="hand"`` and no ``seed``, a game not over goes on: the episode is its next hand."""
        t = self.table
        if self.episode == "hand" and seed is None and t is not None and not t.over:
            self._hands = t.game.hands_played
            self._scores = t.scores()
            obs = self._observe()
            return obs, self._info(False, obs["action_mask"])
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**31))
        self.table = Table(self.rules, game_seed, mjai=self.mjai_events)
        close_opponents(self._bots, self._opponent_specs)  # the last game's (an mjai bot's process ends with its game)
        self._bots = [
            None if spec is None else make_opponent(spec, f"{game_seed}:{s}")
            for s, spec in enumerate(self._opponent_specs)
        ]
        self.table.play_bots(self._bots, self.seat)
        self._scores = self.table.scores()
        self._hands = self.table.game.hands_played
        obs = self._observe()
        return obs, self._info(False, obs["action_mask"])

    def _observe(self) -> dict[str, np.ndarray]:
        t = self.table
        assert t is not None
        obs = self._encoder.encode([t.game], [self.seat])[0]
        return {"observation": obs, "action_mask": t.mask(self.seat)}

    def _info(self, illegal: bool, mask: np.ndarray) -> dict[str, Any]:
        t = self.table
        assert t is not None
        info: dict[str, Any] = {"action_mask": mask.copy()}  # the observation's mask, built once
        if self.mjai_events:
            info["mjai_events"] = t.new_events(self.seat)
        if illegal:
            info["illegal_action"] = True
        if t.over:
            info["final"] = t.final()[self.seat]
            info["rank"] = t.game.result.ranks[self.seat]  # type: ignore[union-attr]
        return info

    def action_masks(self) -> np.ndarray:
        """The legal action mask now (``bool``)."""
        if self.table is None:
            raise JantakuError("call reset() first")
        return self.table.mask(self.seat).astype(bool)

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play the learning seat's action, then the opponents until the seat acts again or the game ends."""
        t = self.table
        if t is None:
            raise JantakuError("call reset() before step()")
        if t.over:
            raise JantakuError("the game is over: call reset()")
        if self.episode == "hand" and t.game.hands_played != self._hands:
            raise JantakuError("the episode's hand is over: call reset() (it goes on with the next hand)")
        engine_action, illegal = t.decode(self.seat, action, self.illegal_action)
        t.apply(engine_action)
        t.play_bots(self._bots, self.seat)
        if self.reward_mode == "score":
            now = t.scores()
            reward = (now[self.seat] - self._scores[self.seat]) / t.scale
            self._scores = now
        else:
            reward = float(t.final()[self.seat]) if t.over else 0.0
        if self.render_mode == "human":
            self.render()
        obs = self._observe()
        done = t.over or (self.episode == "hand" and t.game.hands_played != self._hands)
        return obs, float(reward), done, False, self._info(illegal, obs["action_mask"])

    def render(self) -> str | None:
        """A text picture of the table (``ansi``), printed for ``human``."""
        return render_table(self.table, self.render_mode)

    def close(self) -> None:
        """End the game and stop the opponents' processes (mjai bots)."""
        if hasattr(self, "_bots"):  # (an env whose options were refused has none)
            close_opponents(self._bots, self._opponent_specs)
        self._bots = []
        self.table = None
        super().close()
