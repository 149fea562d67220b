"""A generic checker that plays games and verifies the engine's invariants after every action.

Modelled on OpenSpiel's random simulation test: any rule set (a preset or a user's file) can be run
through it. After every action it checks that

- all 136 tiles are accounted for (hands, melds, rivers, live and dead wall) after every action, and every
  tile id is in exactly one place (checked every 16 actions and at the end of every hand);
- points plus riichi deposits on the table are constant within a hand;
- every action applied was legal (the engine raises otherwise), and - on sampled steps - every legal action
  of the acting seat can be applied to a copy of the state;
- an illegal action is refused with :class:`~jantaku.table.kyoku.IllegalActionError` and leaves the state
  exactly as it was;

and after the game that playing it again from the same seed gives the identical event log.

>>> from jantaku.rules import load_rules
>>> report = check_game(load_rules("mleague"), seed=3, bots=("random", "random", "random", "random"))
>>> report.hands > 0 and report.actions > 100
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from jantaku.bots import PlayerView, make_bot
from jantaku.rules import Ruleset
from jantaku.tiles import Tile

from .actions import DISCARD, Action
from .game import Game
from .kyoku import ENDED, IllegalActionError, Kyoku

__all__ = ["HarnessError", "HarnessReport", "check_game"]


class HarnessError(AssertionError):
    """An invariant of the engine was broken."""


@dataclass
class HarnessReport:
    """What one checked game covered: its hands and actions, the final scores, how its hands ended (``ron``,
    ``tsumo``, ``exhaustive``, ``abortive``, and ``pao`` for a win paid by a liable seat) and the actions taken
    by kind, named as :mod:`jantaku.table.actions` names them (``reach``, ``pon``, ``chi``, the kans...), so a run
    can show that wins, calls, riichi and kans had their share and not only draws."""

    seed: int | str
    hands: int
    actions: int
    final: list[float]
    endings: Counter[str] = field(default_factory=Counter)
    taken: Counter[str] = field(default_factory=Counter)


def _fingerprint(k: Kyoku) -> tuple[object, ...]:
    return (
        k.phase,
        tuple(k.scores),
        k.deposits,
        len(k.events),
        tuple(tuple(s.tiles) for s in k.seats),
        tuple(len(s.melds) for s in k.seats),
        k.live_next,
        k.rinshan_taken,
        tuple(sorted(k.answers)),
    )


def check_game(
    rules: Ruleset,
    seed: int | str,
    bots: Sequence[str] = ("random", "efficiency", "random", "efficiency"),
    sample_every: int = 25,
    check_replay: bool = True,
) -> HarnessReport:
    """Play one game and check every invariant; raises :class:`HarnessError` on the first violation."""
    game = Game(rules, seed)
    agents = [make_bot(name, f"{seed}:{s}") for s, name in enumerate(bots)]
    rng = random.Random(f"harness:{seed}")
    actions = 0
    taken: Counter[str] = Counter()
    kyoku = game.kyoku
    hand_total = sum(kyoku.scores) + 1000 * kyoku.deposits
    # every rule set moves points between players, except 洁律's points mode, where each win is a gain
    conserved = not (rules.family == "jielu" and rules.jielu_mode == "points")
    while not game.over:
        k = game.kyoku
        if k is not kyoku:
            kyoku = k
            hand_total = sum(k.scores) + 1000 * k.deposits
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        if not legal:
            raise HarnessError(f"seed {seed}: seat {seat} is asked to act but has no legal action")
        if actions % sample_every == 0:
            for a in legal:
                trial = k.copy()
                try:
                    trial.apply(a)
                except IllegalActionError as e:
                    raise HarnessError(f"seed {seed}: legal action {a!r} was refused: {e}") from None
            _check_refusal(k, seat, legal, rng, seed)
        action = agents[seat].act(PlayerView(k, seat), legal)
        game.apply(action)
        actions += 1
        taken[action.kind] += 1
        # 136 tiles counted after every action; each id exactly once every 16 actions and at every hand's end
        full = actions % 16 == 0 or k.phase == ENDED
        if not (k.tiles_accounted() if full else k.tiles_counted()):
            raise HarnessError(f"seed {seed}: tiles not accounted for after {action!r}")
        total = sum(k.scores) + 1000 * k.deposits
        if conserved and k.phase != ENDED and total != hand_total:
            raise HarnessError(f"seed {seed}: points + deposits changed within a hand: {hand_total} -> {total}")
    if check_replay:
        again = Game(rules, seed)
        agents = [make_bot(name, f"{seed}:{s}") for s, name in enumerate(bots)]
        while not again.over:
            seat = again.to_act()[0]
            again.apply(agents[seat].act(PlayerView(again.kyoku, seat), again.legal_actions(seat)))
        if again.events != game.events:
            raise HarnessError(f"seed {seed}: the same seed gave a different game")
    assert game.result is not None
    if conserved and abs(sum(game.result.final) - _expected_final_sum(game)) > 0.05:
        raise HarnessError(f"seed {seed}: final scores do not add up: {game.result.final}")
    endings: Counter[str] = Counter(r.kind for r in game.results)
    endings["pao"] = sum(1 for r in game.results for w in r.wins if w.pao is not None)
    return HarnessReport(seed, len(game.results), actions, game.result.final, endings, taken)


def _expected_final_sum(game: Game) -> float:
    rules = game.rules
    r = game.result
    assert r is not None
    lost = game.deposits * 1000 if rules.leftover_deposits == "nobody" else 0
    start = 4 * rules.starting_points
    return (start - lost - 4 * rules.return_points + sum(rules.rank_points)) / rules.final_unit - sum(game.penalties)


def _check_refusal(k: Kyoku, seat: int, legal: list[Action], rng: random.Random, seed: int | str) -> None:
    """An action that is not legal is refused with a reason and changes nothing."""
    before = _fingerprint(k)
    candidates = [
        Action(DISCARD, seat, Tile.from_kind(rng.randrange(34))),
        Action(DISCARD, (seat + 1) % 4, Tile.from_kind(rng.randrange(34))),
        Action("pon", seat, Tile.from_kind(rng.randrange(34)), ()),
        Action("tsumo", seat, Tile.from_kind(rng.randrange(34))),
    ]
    for bad in candidates:
        if bad in legal:
            continue
        try:
            k.apply(bad)
        except IllegalActionError as e:
            if not str(e):
                raise HarnessError(f"seed {seed}: refusal of {bad!r} gave no reason") from None
        else:
            raise HarnessError(f"seed {seed}: illegal action {bad!r} was accepted")
        if _fingerprint(k) != before:
            raise HarnessError(f"seed {seed}: refused action {bad!r} changed the state")
