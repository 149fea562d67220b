"""jantaku's own bots: a random legal player and a tile-efficiency player."""

from __future__ import annotations

import random
from collections.abc import Callable

from jantaku.shapes.shanten import shanten, shanten_after_each, shanten_regular
from jantaku.table.actions import (
    ANKAN,
    CHI,
    DAIMINKAN,
    DISCARD,
    KAKAN,
    KYUUSHU,
    NOTEN,
    PASS,
    PON,
    RIICHI,
    RON,
    STOP,
    TENPAI,
    TSUMO,
    Action,
)
from jantaku.table.fastrandom import choice

from .base import PlayerView

__all__ = ["EfficiencyBot", "RandomBot"]

_YAOCHU = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33}


class RandomBot:
    """Picks a uniformly random legal action (reproducible with ``seed``)."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        return choice(self.rng, legal)  # self.rng.choice(legal), the same draw


class EfficiencyBot:
    """Plays for speed: wins whenever it can, discards to the lowest shanten with the most tiles accepted,
    declares riichi when tenpai, calls only when the call brings it closer and the hand keeps a yaku
    (a value-honor pung, all simples, or one suit with honors), and otherwise passes.

    Under 洁律 (no special hands, no yaku needed, any hand worth 1 point with wildcards may win) it counts
    shanten of the four-melds-and-a-pair form only, calls whenever a call brings it closer, and wins as soon
    as the engine offers a win (the engine offers one only when the hand is worth at least 1 point)."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)
        self._shanten: Callable[[list[int]], int] = shanten
        self._regular_only = False
        self._needs_yaku = True

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        jielu = view.rules.family == "jielu"
        self._shanten = shanten_regular if jielu else shanten
        self._regular_only = jielu
        self._needs_yaku = not jielu
        if not legal:
            raise ValueError("the bot was asked to act with no legal action")
        kinds = {a.kind for a in legal}
        for a in legal:
            if a.kind in (TSUMO, RON, STOP):
                return a
        if PASS in kinds:
            return self._respond(view, legal)
        if KYUUSHU in kinds:
            return next(a for a in legal if a.kind == KYUUSHU)
        if TENPAI in kinds:
            return declare_tenpai(view, legal)
        return self._own_turn(view, legal)

    # -- own turn ------------------------------------------------------------------------------------------

    def _own_turn(self, view: PlayerView, legal: list[Action]) -> Action:
        counts = view.counts
        visible = view.visible_counts()
        discards = [a for a in legal if a.kind == DISCARD]
        riichis = [a for a in legal if a.kind == RIICHI]
        pool = riichis or discards
        after = shanten_after_each(counts, -1, self._regular_only)  # every discard's shanten at once
        best = self._best_discards(counts, visible, pool, after) if pool else []
        best_shanten = min([s for s in after if s is not None] or [8])
        for a in legal:
            # a kan that costs nothing (the hand is as close after it as after the best discard) is taken
            if a.kind in (ANKAN, KAKAN) and a.tile is not None:
                trial = list(counts)
                trial[a.tile.kind] -= 4 if a.kind == ANKAN else 1
                if sum(trial) % 3 == 1 and self._shanten(trial) <= best_shanten:
                    return a
        if best:
            return best[0]
        # no discard offered (only kans, or a decision this bot does not know): a kan if there is one, else
        # the first legal action
        return next((a for a in legal if a.kind in (ANKAN, KAKAN, DAIMINKAN)), legal[0])

    def _best_discards(
        self, counts: list[int], visible: list[int], pool: list[Action], after: list[int | None]
    ) -> list[Action]:
        """``pool`` best first; ``after``: the shanten after discarding each kind (``shanten_after_each``)."""
        scored = []
        seen: dict[int, tuple[int, int]] = {}
        for a in pool:
            k = a.tile.kind  # type: ignore[union-attr]
            if k not in seen:
                seen[k] = (after[k], 0)  # type: ignore[assignment]
        best_s = min(v[0] for v in seen.values())
        for k, (s, _) in list(seen.items()):
            if s == best_s:
                counts[k] -= 1
                seen[k] = (s, _accepted(counts, visible, s, self._regular_only))
                counts[k] += 1
        for a in pool:
            k = a.tile.kind  # type: ignore[union-attr]
            s, u = seen[k]
            isolated_honor = 1 if (k >= 27 and counts[k] == 1) else 0
            scored.append((s, -u, -isolated_honor, -(k in _YAOCHU), 0 if a.tsumogiri else 1, self.rng.random(), a))
        scored.sort(key=lambda x: x[:-1])
        return [x[-1] for x in scored]

    # -- answering a discard -------------------------------------------------------------------------------

    def _respond(self, view: PlayerView, legal: list[Action]) -> Action:
        passing = next(a for a in legal if a.kind == PASS)
        calls = [a for a in legal if a.kind in (PON, CHI, DAIMINKAN)]
        if not calls:
            return passing
        counts = view.counts
        base = self._shanten(counts)
        best: tuple[int, Action] | None = None
        for a in calls:
            if a.kind == DAIMINKAN:
                continue
            trial = list(counts)
            for t in a.consumed:
                trial[t.kind] -= 1
            # after the call one tile is discarded: the best shanten over discards
            after = min(_shanten_after_discard(trial, self._regular_only))
            keeps = not self._needs_yaku or _keeps_a_yaku(view, a)
            if after < base and keeps and (best is None or after < best[0]):
                best = (after, a)
        return best[1] if best else passing


def declare_tenpai(view: PlayerView, legal: list[Action]) -> Action:
    """At an exhaustive draw (where the rule set lets this seat stay silent): show the tenpai hand, except
    as the dealer of the last scheduled hand who is first by points and whose passing deal then ends the
    game (no west round, or first is already past its target): silence passes the deal and ends the game
    first (000 Art 22(2): the deal moves when the dealer does not declare tenpai)."""
    want = TENPAI
    rules = view.rules
    scores = view.scores
    me = view.seat
    last_hand = view.round_wind >= rules.rounds - 1 and view.hand_number == 4
    first = all(scores[me] > scores[s] for s in range(4) if s != me)
    target = rules.west_round_target
    ends = not rules.west_round or scores[me] > target or (scores[me] == target and not rules.west_round_strict)
    if view.seat_wind == 0 and last_hand and first and ends:
        want = NOTEN
    return next((a for a in legal if a.kind == want), legal[0])


def _shanten_after_discard(counts: list[int], regular_only: bool = False) -> list[int]:
    """The shanten after each possible discard (one entry per kind held)."""
    out = [s for s in shanten_after_each(counts, -1, regular_only) if s is not None]
    return out or [8]


def _accepted(counts: list[int], visible: list[int], s: int, regular_only: bool = False) -> int:
    """The bot's measure of the tiles that lower the shanten ``s`` of a 3n+1 hand: for each such kind, the
    copies neither in the hand nor in ``visible``, less one (the measure this bot has always used: its
    seeded games stay as they were)."""
    total = 0
    for k, after in enumerate(shanten_after_each(counts, 1, regular_only)):
        if after is not None and after < s:
            total += max(0, 3 - counts[k] - visible[k])
    return total


def _keeps_a_yaku(view: PlayerView, call: Action) -> bool:
    """A value-honor pung, or every tile simple (if open tanyao counts), or one suit plus honors."""
    k = call.tile.kind  # type: ignore[union-attr]
    value = {31, 32, 33, 27 + view.seat_wind, 27 + view.round_wind}
    melds = view.melds()
    if call.kind == PON and k in value:
        return True
    if any(m.kind34 in value and m.kind.value != "chi" for m in melds):
        return True
    counts = view.counts
    for t in call.consumed:
        counts[t.kind] -= 1
    kinds = [i for i in range(34) if counts[i]] + [k] + [m.kind34 for m in melds]
    for m in melds:
        kinds.extend(t.kind for t in m.tiles)
    if view.rules.open_tanyao and all(i not in _YAOCHU for i in kinds):
        return True
    suits = {i // 9 for i in kinds if i < 27}
    return len(suits) == 1 and sum(counts) >= 4
