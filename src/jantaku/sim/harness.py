"""A generic checker that plays games and verifies the engine's invariants after every action (it seats bots, so it
sits above the engine and the bots, with the simulations).

Modelled on OpenSpiel's random simulation test: any rule set (a preset or a user's file) can be run
through it. After every action it checks that

- all 136 tiles are accounted for (hands, melds, rivers, live and dead wall) after every action, and every
  tile id is in exactly one place (checked every 16 actions and at the end of every hand);
- points plus riichi deposits on the table are constant within a hand;
- every action applied was legal (the engine raises otherwise), and - on sampled steps - every legal action
  of the acting seat can be applied to a copy of the state;
- an illegal action is refused with :class:`~jantaku.table.kyoku.IllegalActionError` and leaves the state
  exactly as it was;
- a seat liable for a win (pao) pays for it;

and after the game that playing it again from the same seed gives the identical event log.

>>> from jantaku.rules import load_rules
>>> report = check_game(load_rules("mleague"), seed=3, bots=("random", "random", "random", "random"))
>>> report.hands > 0 and report.actions > 100
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from jantaku.bots import make_bot
from jantaku.rules import Ruleset
from jantaku.table.actions import DISCARD, Action
from jantaku.table.game import Game
from jantaku.table.kyoku import ENDED, IllegalActionError, Kyoku
from jantaku.table.seating import draw_seating
from jantaku.table.wall import DEAD_WALL, LIVE_START, Wall, hand_positions
from jantaku.tiles import Tile

__all__ = ["Deal", "HarnessError", "HarnessReport", "check_game", "dragon_pao_deal"]

Deal = Callable[[int, int], Wall]
"""A function of a hand's index in the game (0, 1, 2, ...) and its dealer's seat that gives the hand's wall."""


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
    deal: Deal | None = None,
) -> HarnessReport:
    """Play one game and check every invariant; raises :class:`HarnessError` on the first violation.

    ``deal`` builds each hand's wall from the hand's index and its dealer (:func:`dragon_pao_deal` deals one seat
    the hands that lead to pao); by default every wall is shuffled from the seed."""
    game = _game(rules, seed, deal)
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
        action = agents[seat].act(k.view(seat), legal)
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
        again = _game(rules, seed, deal)
        agents = [make_bot(name, f"{seed}:{s}") for s, name in enumerate(bots)]
        while not again.over:
            seat = again.to_act()[0]
            again.apply(agents[seat].act(again.kyoku.view(seat), again.legal_actions(seat)))
        if again.events != game.events:
            raise HarnessError(f"seed {seed}: the same seed gave a different game")
    for r in game.results:
        for w in r.wins:
            if w.pao is not None and (w.pao == w.seat or w.payments[w.pao] >= 0):
                raise HarnessError(f"seed {seed}: seat {w.pao} is liable (pao) for a win it does not pay: {w}")
    assert game.result is not None
    if conserved and abs(sum(game.result.final) - _expected_final_sum(game)) > 0.05:
        raise HarnessError(f"seed {seed}: final scores do not add up: {game.result.final}")
    endings: Counter[str] = Counter(r.kind for r in game.results)
    endings["pao"] = sum(1 for r in game.results for w in r.wins if w.pao is not None)
    return HarnessReport(seed, len(game.results), actions, game.result.final, endings, taken)


def _game(rules: Ruleset, seed: int | str, deal: Deal | None) -> Game:
    """The game to check; with ``deal``, each hand's wall comes from it (the game's dealer read when the hand
    starts: the first hand's from the seating the game draws from its seed)."""
    if deal is None:
        return Game(rules, seed)
    started: list[Game] = []

    def walls(hand_index: int) -> Wall:
        dealer = started[0].dealer if started else draw_seating(rules.seating, seed).first_dealer
        return deal(hand_index, dealer)

    game = Game(rules, seed, walls=walls)
    started.append(game)
    return game


def dragon_pao_deal(seed: int | str, seat: int) -> Deal:
    """Walls that deal ``seat`` a pair of each dragon, each other seat one of the third copies and keep the fourth
    copies in the dead wall, the rest shuffled from ``seed`` and the hand's index. ``seat`` can call all three
    dragon sets, and whoever feeds the last one is liable for a daisangen (pao, where the rule set has it): a
    harness run that seats a bot calling dragons there (``strong``) beside bots that throw lone honours away
    (``efficiency``) gets pao wins, which ordinary deals almost never give.

    >>> deal = dragon_pao_deal(7, seat=2)
    >>> wall = deal(0, 1)
    >>> hands = wall.haipai(1)
    >>> [sum(1 for t in hands[s] if t // 4 >= 31) for s in range(4)]
    [1, 1, 6, 1]
    >>> [(i, t // 4) for i, t in enumerate(wall.tiles) if i >= 52 and t // 4 >= 31]  # the fourth copies
    [(122, 31), (123, 32), (125, 33)]
    >>> dragon_pao_deal(7, seat=4)
    Traceback (most recent call last):
    ...
    ValueError: dragon_pao_deal: seat 4 is not a seat (0-3)
    """
    if seat not in range(4):
        raise ValueError(f"dragon_pao_deal: seat {seat} is not a seat (0-3)")

    def wall(hand_index: int, dealer: int) -> Wall:
        rng = random.Random(f"dragon-pao:{seed}:{hand_index}")
        dragons = [[k * 4 + c for c in range(4)] for k in (31, 32, 33)]
        for copies in dragons:
            rng.shuffle(copies)
        rest = list(range(31 * 4))  # every tile but the dragons
        rng.shuffle(rest)
        feeders = [s for s in range(4) if s != seat]
        hands: list[list[int]] = [[] for _ in range(4)]
        hands[seat] = [t for copies in dragons for t in copies[:2]]
        for feeder, copies in zip(feeders, dragons, strict=True):
            hands[feeder].append(copies[2])
        for h in hands:
            while len(h) < 13:
                h.append(rest.pop())
            rng.shuffle(h)
        fourth = [copies[3] for copies in dragons]
        # the fourth copies sit deep in the dead wall (wall[122], wall[123], wall[125]: the fourth kan dora, its ura
        # and the third kan dora's ura), where only a hand of three or four kans turns them
        dead = rest[: DEAD_WALL - 3]
        live = rest[DEAD_WALL - 3 :]
        dead_wall = fourth[:2] + dead[:1] + fourth[2:] + dead[1:]
        tiles = [0] * LIVE_START + live + dead_wall
        for h, positions in zip(hands, hand_positions(dealer), strict=True):
            for pos, tid in zip(positions, h, strict=True):
                tiles[pos] = tid
        return Wall(tiles)

    return wall


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
