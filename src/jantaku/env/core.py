"""One game as the environments drive it: legal actions as indices, decoding, the seat's mjai events, rewards.

:class:`Table` is shared by the PettingZoo, Gymnasium and vector environments; it holds no API of either
ecosystem, only the engine's :class:`~jantaku.table.Game`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jantaku.bots import PlayerView, make_bot
from jantaku.errors import JantakuError
from jantaku.records.mjai import player_view_event
from jantaku.rules import Ruleset, load_rules
from jantaku.table import Game
from jantaku.table.actions import Action
from jantaku.table.legal import CALLED, DRAWN

from .encoding import A_PASS, A_TSUMOGIRI, NUM_ACTIONS, legal_indices, mask_of, score_scale

__all__ = [
    "AGENTS",
    "ILLEGAL_MODES",
    "REWARDS",
    "Opponent",
    "Table",
    "action_index",
    "agent_seat",
    "batch_actions",
    "batch_masks",
    "batch_seeds",
    "check_seed",
    "close_opponents",
    "make_opponent",
    "resolve_rules",
]

REWARDS = ("rank", "score")
"""``rank``: the seat's final result in rank points (the rule set's settlement: uma, oka, its unit) when
the game ends, 0 before; ``score``: every change of the seat's points, divided by the encoding's
score scale (100,000 points under riichi rules, 1,000 under 洁律)."""

AGENTS = ("player_0", "player_1", "player_2", "player_3")
"""The PettingZoo agents, seat by seat."""

ILLEGAL_MODES = ("raise", "fallback")
"""What an index that is not legal now does: ``raise`` (the default) raises
:class:`~jantaku.table.kyoku.IllegalActionError` naming the legal ones; ``fallback`` plays pass when that is legal,
else tsumogiri, else the lowest legal index, and says so in ``info["illegal_action"]`` (for a learner that
samples without the mask; the default never plays what the agent did not choose)."""


def action_index(index: Any) -> int:
    """An action index as a Python int: an ``int`` or a NumPy integer (a 0-d integer array too), never a bool,
    a float (``2.0`` included) or a string; else a :class:`JantakuError` saying what was given.

    >>> action_index(np.int64(3)), action_index(np.array(5))
    (3, 5)
    >>> action_index(2.0)
    Traceback (most recent call last):
    ...
    jantaku.errors.JantakuError: an action is an integer index 0-160, got 2.0 (float)
    """
    if isinstance(index, np.ndarray) and index.ndim == 0 and np.issubdtype(index.dtype, np.integer):
        index = index.item()
    if isinstance(index, bool | np.bool_) or not isinstance(index, int | np.integer):
        shown = repr(index) if len(repr(index)) <= 40 else repr(index)[:37] + "..."
        raise JantakuError(f"an action is an integer index 0-{NUM_ACTIONS - 1}, got {shown} ({type(index).__name__})")
    return int(index)


def agent_seat(agent: object) -> int:
    """The seat of a PettingZoo agent name (``player_0`` ... ``player_3``), or a :class:`JantakuError` naming it."""
    if agent not in AGENTS:
        raise JantakuError(f"no agent {str(agent)[:40]!r}: the agents are {', '.join(AGENTS)}")
    return AGENTS.index(agent)  # type: ignore[arg-type]


Opponent = Callable[[PlayerView, list[Action]], Action]


def resolve_rules(rules: str | Ruleset) -> Ruleset:
    """A preset name, a rule file path or a :class:`Ruleset`."""
    if not isinstance(rules, str | Ruleset):
        raise JantakuError(f"rules must be a preset name, a rule file path or a Ruleset, got {type(rules).__name__}")
    return load_rules(rules)


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise JantakuError(f"{name} must be one of {', '.join(repr(c) for c in choices)}, got {value!r}")
    return value  # type: ignore[return-value]


def make_opponent(spec: str | Opponent | Any, seed: str) -> Opponent:
    """An opponent from a bot name (``random``, ``efficiency``, ``mjai:COMMAND``), an object with
    ``act(view, legal)``, or a callable ``(view, legal) -> Action``."""
    if isinstance(spec, str):
        return make_bot(spec, seed).act
    act = getattr(spec, "act", None)
    if callable(act):
        return act  # type: ignore[no-any-return]
    if callable(spec):
        return spec  # type: ignore[no-any-return]
    raise JantakuError(f"an opponent is a bot name, an agent with act(view, legal) or a callable, got {spec!r}")


def close_opponents(bots: list[Opponent | None], specs: list[Any]) -> None:
    """Stop the opponents the environment made from a name (``specs[s]`` a string, such as ``mjai:COMMAND``: its
    process), so that a new game or closing the environment leaves no process running. An agent object the
    caller passed is the caller's to close."""
    for bot, spec in zip(bots, specs, strict=False):
        if not isinstance(spec, str):
            continue
        owner = getattr(bot, "__self__", bot)  # the agent whose bound ``act`` the environment holds
        close = getattr(owner, "close", None)
        if callable(close):
            close()


def check_seed(seed: Any) -> int:
    """A game seed: a whole number 0 to 2**63-1, or a :class:`JantakuError` saying what was given."""
    if not isinstance(seed, int | np.integer) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise JantakuError(f"seed must be a whole number 0 to 2**63-1, got {str(seed)[:40]!r}")
    return int(seed)


def batch_seeds(seed: Any, n: int, rng: np.random.Generator) -> tuple[list[int], np.random.Generator]:
    """The seeds of a vector environment's ``n`` new games and the generator of its later games' seeds: ``seed``
    an int (``seed``, ``seed + 1``, ...; the generator restarted from it), a list of one seed per game, or
    ``None`` (drawn from ``rng``)."""
    if isinstance(seed, list):
        if len(seed) != n:
            raise JantakuError(f"give one seed per game ({n}), got {len(seed)}")
        seeds = [check_seed(x) for x in seed]
        return seeds, np.random.default_rng(seeds[0])
    if seed is not None:
        first = check_seed(seed)
        return [first + i for i in range(n)], np.random.default_rng(first)
    return [int(x) for x in rng.integers(2**31, size=n)], rng


def batch_actions(tables: list[Table], actions: Any) -> np.ndarray:
    """A vector environment's step's actions as one flat array, one per game; a :class:`JantakuError` before the
    first reset or for a wrong count."""
    if not tables:
        raise JantakuError("call reset() before step()")
    acts = np.asarray(actions).reshape(-1)
    if acts.shape[0] != len(tables):
        raise JantakuError(f"give one action per game ({len(tables)}), got {acts.shape[0]}")
    return acts


SCALAR_EVENTS = frozenset(("tsumo", "dahai", "reach", "dora"))
"""The mjai event types whose values are all strings, numbers and booleans (most of a game's events): a new dict
of one is a copy of it (a test checks this over whole games)."""


def _copied(event: dict[str, Any]) -> dict[str, Any]:
    """``event`` (a new dict, as :func:`player_view_event` gives) with its lists and dicts copied too, so that an
    agent changing what it was given changes nothing in the game's log (an mjai event holds only JSON values)."""
    if event.get("type") in SCALAR_EVENTS:
        return event
    for key, value in event.items():
        if isinstance(value, (list, dict, tuple)):
            event[key] = _copied_value(value)
    return event


def _copied_value(value: Any) -> Any:
    if isinstance(value, list):
        return [_copied_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _copied_value(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_copied_value(v) for v in value)
    return value


def batch_masks(tables: list[Table], seats: Any) -> np.ndarray:
    """The action masks (``int8``, one row per table) of ``seats[i]`` at ``tables[i]``, written at once."""
    masks = bytearray(len(tables) * NUM_ACTIONS)  # written byte by byte, then seen as the array (no copy)
    base = 0
    for i, t in enumerate(tables):
        for index in t.legal(int(seats[i])):
            masks[base + index] = 1
        base += NUM_ACTIONS
    return np.frombuffer(masks, np.int8).reshape(len(tables), NUM_ACTIONS)


class Table:
    """A :class:`Game` with the environments' bookkeeping."""

    def __init__(self, rules: Ruleset, seed: int, *, mjai: bool = True) -> None:
        self.rules = rules
        self.seed = seed
        self.game = Game(rules, seed)
        self.scale = score_scale(rules)
        self.mjai = mjai
        self._cursor = [0, 0, 0, 0]
        self._legal_key: tuple[int, int] | None = None
        self._moves = 0
        self._legal: dict[int, Action] = {}

    @property
    def moves(self) -> int:
        """Decisions applied so far in this game (every seat's, bots' included)."""
        return self._moves

    @property
    def over(self) -> bool:
        return self.game.over

    def to_act(self) -> list[int]:
        return self.game.to_act()

    def acting(self) -> int:
        """The seat whose decision comes next (the first of several answering a discard), -1 at the end."""
        seats = self.game.to_act()
        return seats[0] if seats else -1

    def decision(self) -> tuple[int, dict[int, Action]]:
        """The seat whose decision comes next (:meth:`acting`) and its ``{index: Action}`` (:meth:`legal`): what a
        vector environment asks of every game after each step, in one call (the seat's own turn, most decisions,
        read without :meth:`Game.to_act`'s list).

        >>> t = Table(load_rules("tenhou"), 1)
        >>> seat, legal = t.decision()
        >>> seat == t.acting() and legal == t.legal(seat)
        True
        """
        g = self.game
        k = g.kyoku
        if g.result is None and g.yame_choice is None and (k.phase == DRAWN or k.phase == CALLED):
            seat = k.actor
        else:
            seats = g.to_act()
            if not seats:
                return -1, {}
            seat = seats[0]
        return seat, self.legal(seat)

    def legal(self, seat: int) -> dict[int, Action]:
        """``{index: Action}`` for ``seat`` now (empty when it is not asked)."""
        key = (self._moves, seat)
        if key != self._legal_key:
            self._legal = legal_indices(self.game.legal_actions(seat))
            self._legal_key = key
        return self._legal

    def mask(self, seat: int) -> np.ndarray:
        return mask_of(self.legal(seat))

    def decode(self, seat: int, index: Any, illegal: str) -> tuple[Action, bool]:
        """The engine action for ``index`` and whether it was illegal (and replaced by the fallback)."""
        legal = self.legal(seat)
        if type(index) is int:  # a plain int (a batch's actions as a list): legal or not, nothing to convert
            a = legal.get(index)
            if a is not None:
                return a, False
        if not legal:
            raise JantakuError(f"seat {seat} is not asked to act now")
        i = action_index(index)
        a = legal.get(i)
        if a is not None:
            return a, False
        if illegal == "raise":
            from jantaku.table.kyoku import IllegalActionError

            from .encoding import action_name

            what = action_name(i) if 0 <= i < NUM_ACTIONS else "out of range"
            names = ", ".join(f"{j} ({action_name(j)})" for j in sorted(legal))
            raise IllegalActionError(f"action {i} ({what}) is not legal for seat {seat} now; legal: {names}")
        for j in (A_PASS, A_TSUMOGIRI):
            if j in legal:
                return legal[j], True
        return legal[min(legal)], True

    def apply(self, action: Action) -> None:
        self.game.apply(action)
        self._moves += 1

    def scores(self) -> list[int]:
        g = self.game
        return list(g.result.scores if g.result is not None else g.kyoku.scores)

    def final(self) -> list[float]:
        assert self.game.result is not None
        return list(self.game.result.final)

    def new_events(self, seat: int) -> list[dict[str, Any]]:
        """The mjai events ``seat`` has seen since it was last asked (others' draws and hands hidden)."""
        if not self.mjai:
            return []
        g = self.game
        new = g.events_since(self._cursor[seat])
        self._cursor[seat] += len(new)
        return [_copied(player_view_event(e, seat)) for e in new]

    def play_bots(self, bots: list[Opponent | None], until: int) -> None:
        """Let the bots play until seat ``until`` must act or the game ends."""
        g = self.game
        guard = 0
        while not g.over:
            seats = g.to_act()
            if until in seats:
                return
            seat = seats[0]
            bot = bots[seat]
            assert bot is not None
            g.apply(bot(g.kyoku.view(seat), g.legal_actions(seat)))
            self._moves += 1
            guard += 1
            if guard > 200_000:  # pragma: no cover - a bug guard
                raise JantakuError(f"game {self.seed} did not end")
