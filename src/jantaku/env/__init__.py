"""Reinforcement-learning environments for every rule set: PettingZoo (AEC and parallel), Gymnasium, vector.

Needs the optional extra ``env`` (``pip install 'jantaku[env]'``: PettingZoo and Gymnasium).

- :func:`env` / :class:`raw_env`: the PettingZoo AEC environment (``env`` adds PettingZoo's usual wrappers);
  :class:`parallel_env` its parallel form. Four agents, one whole game per episode.
- ``gymnasium.make("jantaku/Mahjong-v0", rules=..., seat=..., opponents=...)``: one seat learns, jantaku bots
  (or your callables) play the others (:class:`MahjongEnv`), registered when this package is imported.
- :class:`VectorMahjongEnv`: many such games stepped together, observations encoded in one batch.
- :class:`SelfPlayVectorEnv`: many games in which every seat learns, one decision per game per step (every
  decision with its observation), whole games or one hand per episode.
- :class:`~jantaku.env.batch.BatchEncoder`: the compiled batch encoder every environment and the dataset use.
- :mod:`jantaku.env.encoding`: the documented, versioned observation planes and action space.

>>> import gymnasium
>>> e = gymnasium.make("jantaku/Mahjong-v0", rules="jielu", opponents="efficiency")
>>> obs, info = e.reset(seed=0)
>>> obs["observation"].shape, info["action_mask"].shape
((185, 34), (161,))
"""

from __future__ import annotations

from jantaku.extras import require

gymnasium = require("gymnasium", "env", "jantaku.env")
require("pettingzoo", "env", "jantaku.env")

from .aec import env, raw_env  # noqa: E402 (after the check of the extra)
from .batch import BatchEncoder  # noqa: E402 (after the check of the extra)
from .encoding import ENCODING_VERSION, NUM_ACTIONS, UnknownActionError, action_name, encode, encode_batch  # noqa: E402 (after the check of the extra)
from .gym_env import MahjongEnv  # noqa: E402 (after the check of the extra)
from .parallel import parallel_env  # noqa: E402 (after the check of the extra)
from .selfplay import SelfPlayVectorEnv  # noqa: E402 (after the check of the extra)
from .vector import VectorMahjongEnv  # noqa: E402 (after the check of the extra)

__all__ = [
    "ENCODING_VERSION",
    "GYM_ID",
    "NUM_ACTIONS",
    "BatchEncoder",
    "MahjongEnv",
    "SelfPlayVectorEnv",
    "UnknownActionError",
    "VectorMahjongEnv",
    "action_name",
    "encode",
    "encode_batch",
    "env",
    "parallel_env",
    "raw_env",
]

GYM_ID = "jantaku/Mahjong-v0"
"""The Gymnasium id; options ``rules``, ``seat``, ``opponents`` (and the others of :class:`MahjongEnv`)."""

if GYM_ID not in gymnasium.registry:
    gymnasium.register(
        id=GYM_ID,
        entry_point="jantaku.env.gym_env:MahjongEnv",
        vector_entry_point="jantaku.env.vector:VectorMahjongEnv",
    )
