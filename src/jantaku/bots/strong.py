"""The ``strong`` bot: hand building with value, defence by expected value, riichi or dama, calls, placement.

Every decision is scored in points, by expected value:

- **Offence.** For each discard the bot works out the shanten and the tiles accepted (copies it cannot see)
  of the 13 tiles left, and it looks a second step ahead. At two-shanten, for the best two: after each accepted
  draw, the tiles accepted by the best next discard. At one-shanten, for every discard: after each draw that makes
  tenpai, the discard with the most waits times value, so the hand is valued by the tenpai it heads for (a
  dora kept, a yaku made or lost by the last tile) and not by the hand as it stands (``TENPAI_PLAN``). A small
  model turns shanten, acceptance and the draws left into a chance of winning before the hand ends (others may
  end it first), and
  :mod:`jantaku.bots.value` estimates what the win is worth under the rule set (yaku in sight, dora and red
  fives, riichi with ura and ippatsu only where the rule set has them, kiriage, honba and deposits).
- **Defence.** :mod:`jantaku.bots.danger` estimates per opponent the chance it is tenpai, what a deal-in
  would cost, and per kind the chance that kind is its winning tile. Each discard's score is its offence
  minus the cost of dealing in with it now, minus (while pushing) the risk of the dangerous tiles still to
  come; folding scores the discard's deal-in cost and the risk of running out of safe tiles. The bot takes
  the better of pushing and folding for each tile and discards the best tile.
- **Riichi or dama.** A tenpai discard is scored twice: as riichi (one han more, ura and ippatsu chances,
  the stick at stake, no folding later) and silent (only when the hand has a yaku, or for a closed tsumo).
  A riichi wins less often than the same wait silent as far as the others fold against it; the bot reads how
  much they do from the game so far (:mod:`jantaku.bots.folding`: their discards while facing a riichi).
- **Calls** only when the hand after the call has a yaku in sight, and the call's offence beats waiting.
  Kans when they cost nothing and nobody is in riichi; nine terminals unless a thirteen-orphans try is on.
- **Pao.** A tile that would feed an opponent the meld that makes this seat liable for a yakuman (the third
  dragon to two dragon pungs, the fourth wind to three wind pungs, where the rule set has pao for them) costs
  as a likely deal-in, so it is held.
- **The draw payment.** The offence also counts what being tenpai when the wall runs out is worth (the noten
  payment, 000 Art 71; for an open hand without a yaku only where the rule set counts a formal tenpai), and the
  push then counts the dangerous discards to the end of the wall: near the end a cheap tenpai is kept.
- **Tenpai at a draw.** Declared, except by the all-last dealer who is first and whose passing deal ends the
  game (:func:`jantaku.bots.simple.declare_tenpai`).
- **Discard order.** Tiles of the same shanten whose scores are close go in the order strong players discard
  them (:func:`_discard_order`, tuned on Tenhou top-room games).
- **Placement** when the game may end with the hand (all-last, the west round): points count by the final
  score they make, the rule set's rank points (uma and oka) included (:meth:`_Ctx._final_value`): a win is
  worth what it adds averaged over who pays, a deal-in what it takes away, so the leader folds a hand that
  would push earlier when a deal-in costs first place, and the last player pushes for the win that climbs.
  Where the west round would follow (nobody at its target) the rank points count half. A player near zero
  under a bust rule folds earlier. The dealer's stop (agari-yame) is always taken.
- **洁律** (004 洁律麻将): a win offered is scored as the engine would pay it; under 积分制 it is always taken (the
  first winner scores 3x, and nobody pays), under the original mode only above 4 points (3x(S-4) is paid to
  the winner, below 4 by the winner). Discards go to the lowest shanten of the four-melds-and-a-pair form,
  and among tiles accepting nearly as many draws the one keeping the most fans in sight (the best suit fan,
  number fan and honour fans, each halved for every tile that does not fit: a wildcard halves the score).
  Calls and kongs as the efficiency bot (any call that brings the hand closer; a kong that costs nothing).

Riichi wins offered are always taken. Deterministic for a given seed (ties break by a seeded random number).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import NamedTuple

from jantaku.shapes.shanten import shanten, shanten_after_each
from jantaku.shapes.waits import wait_kinds
from jantaku.table.actions import (
    ANKAN,
    CHI,
    CONTINUE,
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

from .base import PlayerView, unseen_counts
from .danger import Threat, threats
from .folding import FoldWatch
from .simple import EfficiencyBot, _keeps_a_yaku, declare_tenpai
from .value import DRAGONS, WINDS, YAOCHU, dora_kinds, estimate_value, win_points

__all__ = ["Decision", "StrongBot"]

KNOWN_KINDS = frozenset(
    (DISCARD, RIICHI, TSUMO, RON, CHI, PON, DAIMINKAN, ANKAN, KAKAN, KYUUSHU, PASS, STOP, CONTINUE, TENPAI, NOTEN)
)


_TYPICAL_ACCEPT = (0.0, 20.0, 34.0, 46.0, 56.0)
"""Tiles a hand of each shanten typically accepts (for the steps of a plan not looked at tile by tile)."""
_TYPICAL_WAITS = 5.0
BUCKETS = 20
"""Scores are compared in steps of about 1/20 in log scale (5%) when folding."""
PUSH_BUCKETS = 3
"""Pushing, tiles of the same shanten whose scores are more than ``NEAR_SHARE`` below the best are compared in
steps of a third in log scale (the estimates are rough)."""
NEAR_SHARE = 0.15
"""Pushing, tiles of the same shanten within this share of the best score count as equal: the discard order
decides (strong players' agreement was highest at 15%; benchmarks/bench_bot.py)."""
OPEN_SPEED = 1.6
"""How much faster an open hand (with a yaku) takes each step: it may chi and pon its tiles too."""
DEFENCE = 1.3
"""Every deal-in cost is weighed this much more than the offence's points: a deal-in also hands the hand and
its tempo to another player, and the offence model is optimistic about the draws left. With ``PUSH_TURNS``
(0.6 before) it took four strong bots' deal-in rate from 14.2% to 12.8% over 50 hanchan
(benchmarks/bench_bot.py; almost every deal-in was a push at tenpai or one-shanten, none while folding)."""
PUSH_TURNS = 1.0
"""Pushing a hand at shanten ``s`` means discarding about ``PUSH_BY_SHANTEN[s] * PUSH_TURNS`` more unknown
tiles."""
SERIOUS = 0.6
"""A threat at least this likely tenpai (a riichi, an open hand of three calls or more) makes the bot weigh
each tile's danger before its shanten."""
WIN_BONUS = 1500.0
"""Added to every win's value: a win also ends the hand, taking the others' chances to win (and to be dealt
in to by this seat) away. It is what makes a quick cheap hand worth playing."""


PUSH_BY_SHANTEN: tuple[float, ...] = (2, 5, 9, 13, 16)
"""The unknown tiles still to be discarded while pushing a hand at shanten 0, 1, 2, 3, 4 (times ``PUSH_TURNS``,
at most the draws left): a hand far from tenpai pushes through many more dangerous discards than one step per
shanten, as it waits on each step's draw. It replaced ``s + 2`` (2, 3, 4, 5, 6), which let the bot push
two-shanten hands against a riichi. On the same 1,600 hanchan against three efficiency bots the average rank went
from 2.306 to 2.287 and the bot's deal-in rate from 11.5% to 10.1%; in 300 four-strong hanchan the deal-in rate
went from 13.2% to 11.8% at a win rate of 20.4% against 21.0%. The full runs of benchmarks/bench_bot.py are in
the benchmarks README (four-strong deal-in 12.1% over 800 hanchan)."""

HAZARD: tuple[float, float] = (0.035, 0.15)
"""The chance per draw that the hand ends before this seat's next step (the others win or the wall runs out): a
base, plus this much for each opponent, times its chance of being tenpai. Calibrated with
benchmarks/bench_bot_calibration.py (160 seeds of duplicate play against efficiency bots, 68,000 discards: the
predicted chance of winning of each chosen discard against whether the seat won the hand; predicted / won):

- facing an opponent likely tenpai, the earlier (0.05, 0.06) gave 1.26 at tenpai, 1.77 at one-shanten and 3.17
  at two-shanten: a riichi ends the hand sooner than it assumed, so it pushed hands far from tenpai;
  (0.035, 0.15) gives 0.98, 1.28 and 1.29 (part of the rest is the bot folding later);
- with nobody threatening, 0.86, 0.88 and 0.74 before and 0.85, 0.95 and 0.83 now; at three- and four-shanten
  (typical acceptance for the later steps) 1.07 before and 1.24-1.27 now, where discards are compared by shanten
  first.

On the tuning harness's 1,600 hanchan against three efficiency bots the average rank went from 2.287 to 2.261
(-0.026 ± 0.04, paired) and the deal-in rate from 10.1% to 9.4%. The full runs of benchmarks/bench_bot.py: 2.270
against 2.273 under tenhou (the same 4,000 hanchan: no change beyond the noise), four-strong deal-in 11.3% against
12.1%, discard agreement with Tenhou's top room 61.2% against 61.3%."""

RIICHI_WIN = 0.93
"""A riichi's chance of winning against the same wait silent, when the others fold as strong players do; against
players who never fold it is 1 (the bot reads which from the game so far: :mod:`jantaku.bots.folding`). Against
three efficiency bots, which never fold, on the tuning harness's 1,600 hanchan: 2.261 with 0.93 always, 2.243
with 1 always, 2.246 reading the table (-0.015 +- 0.01, paired); but on benchmarks/bench_bot.py's 4,000 hanchan
(seeds 0-999) reading the table changed the rank by +0.001 +- 0.008 (paired): no effect on rank that the two
runs agree on. On Tenhou's top-room games the bot's riichi decisions agreed with the players' 45.1% of the time
with 0.93 always, 42.0% with 1 always (the players riichi less than the bot does) and 44.5% reading the table."""
RIICHI_STICK = 0.6
"""The share of the riichi stick counted as lost when the hand is not won (another winner takes it; a draw
leaves it on the table for the next winner)."""
RON_FACTOR = 1.8
"""A wait's chance per go-around of being discarded by one of the others, against drawing it oneself."""

PLACEMENT = True
"""Weigh points at all-last by the final score they make, rank points included (benchmarks/bench_bot.py)."""

TENPAI_PLAN = True
"""At one-shanten, value the hand by the tenpai it is heading for: for each draw that makes tenpai, the best
discard by waits times value (yaku, dora, riichi) of the tenpai hand, averaged over the draws; the discard whose
draws make the better-paid tenpai wins, not only the one with the most waits."""
CALL_PLAN = True
"""Answering a discard at one-shanten, value passing and each call's discards the same way (``TENPAI_PLAN``)."""

TENPAI_SHARE = 0.85
"""Being tenpai rather than noten at an exhaustive draw is worth this share of the noten payment (000 Art 71): with
one or two others tenpai it swings 2,500 of the 3,000 points, with none or three all of them. 0 turns the draw
payment off."""
DRAW_KEEP = 0.9
"""To reach the exhaustive draw the hand must also outlast this per-draw chance that another seat ends it, beyond
``HAZARD`` (calibrated on the bot's own wins, which come early in its horizon: alone it put a hand with ten draws
left at the draw about seven times in ten, where only one hand in five to ten ends there)."""


class Decision(NamedTuple):
    """One legal action with the bot's estimate of it (points, higher is better) and, for a discard on its own
    turn (riichi or not), its estimated chance of winning the hand after it (None where it has no such
    estimate)."""

    action: Action
    score: float
    win_chance: float | None = None


class _Offence(NamedTuple):
    """What a 3n+1 closed part offers: expected points, shanten, acceptance and the chance of winning."""

    points: float
    shanten: int
    accept: int
    chance: float
    tenpai_end: float = 0.0
    """The chance of being tenpai, not having won, when the wall runs out (paid at the exhaustive draw)."""


class _OpenSet(NamedTuple):
    """A meld as the value estimate needs it (for a call not made yet)."""

    kind: object
    tiles: tuple
    is_open: bool

    @property
    def kind34(self) -> int:
        return self.tiles[0].kind


class _Kind(NamedTuple):
    value: str


class _Ctx:
    """What one decision needs, computed once: own counts, unseen copies, threats, placement."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.rules = view.rules
        self.counts = view.counts
        hand = view.hand
        self.reds = sum(1 for t in hand if t.red)
        self.unseen = unseen_counts(view)
        self.n_unseen = max(1, sum(self.unseen))
        self.draws_left = max(0, view.tiles_left // 4)
        self.melds = view.melds()
        self.closed = all(not m.is_open for m in self.melds)
        self.dealer = view.seat_wind == 0
        self.dora = dora_kinds(view.dora_indicators)
        self.honba = view.honba
        self.deposits = view.deposits
        self.threats: list[Threat] = threats(view, self.unseen)
        self.pao = _pao_feeds(view, self.unseen)
        self.hazard = HAZARD[0] + HAZARD[1] * sum(t.tenpai for t in self.threats)
        own = view.river(view.seat)
        self.own_river = {t.kind for t in own}
        self.turn = len(own)
        self.risk_mult = DEFENCE
        self.all_last = False
        self.first_dealer = 0
        self.now_value = 0.0
        self._gains: dict[int, float] = {}
        self._placement(view)
        self.cache: dict[bytes, tuple[int, int]] = {}
        self.chances: dict[tuple[tuple[float, ...], float, bool], tuple[float, float]] = {}
        """:func:`_chances` by its arguments (many discards of one decision ask the same)."""
        self.follow_default: float | None = None
        self.riichi_win = RIICHI_WIN
        self.tenpai_value = self._tenpai_value()
        self.formal_tenpai_value = self.tenpai_value if self.rules.formal_tenpai else 0.0

    def _tenpai_value(self) -> float:
        """What being tenpai at an exhaustive draw is worth against being noten: about ``TENPAI_SHARE`` of the
        rule set's noten payment (000 Art 71), placement-weighted at all-last."""
        pts = TENPAI_SHARE * self.rules.noten_payment
        if self.all_last and pts > 0:
            return max(0.0, self._win_gain(pts))
        return pts

    def _placement(self, view: PlayerView) -> None:
        rules = self.rules
        scores = view.scores
        me = view.seat
        if rules.bust and scores[me] < 8000:
            self.risk_mult *= 1.4
        number = view.hand_number
        last_round = view.round_wind >= rules.rounds - 1
        if not PLACEMENT:
            return
        if not (last_round and number == 4) and not (rules.west_round and view.round_wind >= rules.rounds):
            return
        # the game may end with this hand (all-last, or the west round's sudden death): points count by the final
        # score they make, rank points included (the rule set's uma and oka), so a win too small to climb a
        # place or a deal-in that drops one weigh what the placement is worth
        self.all_last = True
        dealer = (me - view.seat_wind) % 4
        self.first_dealer = (dealer - (view.hand_number - 1)) % 4
        self.now_value = self._final_value(scores)
        self.threats = [t._replace(cost=self._deal_in_loss(t)) for t in self.threats]

    def _final_value(self, scores: Sequence[float]) -> float:
        """This seat's final points (points plus the rank points of its place, ties to the seat nearer the first
        dealer, as the settlement ranks them) if the game ended with ``scores``; where the west round would
        follow (nobody at its target) the rank points count half."""
        rules = self.rules
        me = self.view.seat
        fd = self.first_dealer
        mine = (-scores[me], (me - fd) % 4)
        place = sum(1 for s in range(4) if s != me and (-scores[s], (s - fd) % 4) < mine)
        weight = 1.0
        if rules.west_round and max(scores) < rules.west_round_target:
            weight = 0.5
        return scores[me] + weight * rules.rank_points[place]

    def _deal_in_loss(self, t: Threat) -> float:
        after = list(self.view.scores)
        after[self.view.seat] -= t.cost
        after[t.seat] += t.cost
        return max(0.0, self.now_value - self._final_value(after))

    def _win_gain(self, pts: float) -> float:
        """What a win of ``pts`` adds to this seat's final value, averaged over who pays (each opponent by ron,
        or all three by tsumo)."""
        key = int(pts) // 100
        got = self._gains.get(key)
        if got is not None:
            return got
        me = self.view.seat
        total = 0.0
        cases = 0
        for payer in [*(s for s in range(4) if s != me), None]:
            after = list(self.view.scores)
            after[me] += pts
            for s in range(4):
                if s != me and (payer is None or s == payer):
                    after[s] -= pts if payer is not None else pts / 3
            total += self._final_value(after) - self.now_value
            cases += 1
        got = total / cases
        self._gains[key] = got
        return got

    def points(self, han: float) -> float:
        """What a win of ``han`` brings (at least one han), honba and deposits included, placement-weighted."""
        pts = win_points(max(1.0, han), self.dealer, self.rules)
        pts += self.honba * self.rules.honba_points + 1000 * self.deposits
        if self.all_last:
            return max(0.0, self._win_gain(pts)) + WIN_BONUS
        return pts + WIN_BONUS


def _chances(steps: Sequence[float], waits: float, ron: bool, ctx: _Ctx) -> tuple[float, float]:
    """The chance to win before the hand ends, and the chance to be tenpai, not having won, when the wall runs out:
    ``steps`` the per-draw chance of each shanten step still to go (first step first), ``waits`` the unseen copies
    of the winning tiles once tenpai."""
    key = (tuple(steps), waits, ron)
    got = ctx.chances.get(key)
    if got is None:
        got = ctx.chances[key] = _chances_of(key[0], waits, ron, ctx)
    return got


def _chances_of(steps: Sequence[float], waits: float, ron: bool, ctx: _Ctx) -> tuple[float, float]:
    n = ctx.n_unseen
    p_win = min(0.9, waits / n * (RON_FACTOR if ron else 1.0))
    levels = len(steps)
    probs = [0.0] * (levels + 1)
    probs[levels] = 1.0
    won = 0.0
    keep = 1.0 - ctx.hazard
    for _ in range(ctx.draws_left):
        won += probs[0] * p_win
        probs[0] *= 1.0 - p_win
        for i in range(1, levels + 1):
            moved = probs[i] * steps[levels - i]
            probs[i] -= moved
            probs[i - 1] += moved
        for i in range(levels + 1):
            probs[i] *= keep
    return won, probs[0] * DRAW_KEEP**ctx.draws_left


class StrongBot:
    """The ``strong`` bot (see the module docs). ``act`` returns the best legal action; ``rank`` scores them
    all (for review)."""

    plays_jielu = True
    """It plays 洁律 by that variant's own rules (wins priced by the payment mode, fans in sight), so tools that
    want the best 洁律 player (``jantaku analyze jielu-fans``) seat it."""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)
        self._fallback = EfficiencyBot(seed)
        self._folds = FoldWatch()

    # -- entry points -------------------------------------------------------------------------------------

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        return self.rank(view, legal)[0].action

    def rank(self, view: PlayerView, legal: list[Action]) -> list[Decision]:
        """Every legal action with its estimate, best first (an action without an estimate scores 0)."""
        if not legal:
            raise ValueError("the bot was asked to act with no legal action")
        kinds = {a.kind for a in legal}
        if len(legal) == 1:
            return [Decision(legal[0], 0.0)]
        if not kinds <= KNOWN_KINDS:
            # a decision added to the engine after this bot: decide among the kinds it knows, else take the
            # first legal action
            known = [a for a in legal if a.kind in KNOWN_KINDS]
            if not known:
                return _first(legal[0], legal)
            ranked = self.rank(view, known)
            return ranked + [Decision(a, 0.0) for a in legal if a.kind not in KNOWN_KINDS]
        if view.rules.family == "jielu":
            return self._jielu_rank(view, legal)
        for a in legal:
            if a.kind in (TSUMO, RON):
                return _first(a, legal)
        if STOP in kinds:
            return _first(next(a for a in legal if a.kind == STOP), legal)
        if TENPAI in kinds or NOTEN in kinds:
            # at an exhaustive draw: show the hand, except where silence ends the game in first place
            choice = declare_tenpai(view, legal)
            return _first(choice if choice in legal else legal[0], legal)
        ctx = _Ctx(view)
        self._folds.observe(view)
        ctx.riichi_win = 1.0 - (1.0 - RIICHI_WIN) * self._folds.share()
        if PASS in kinds:
            return self._respond(ctx, legal)
        if KYUUSHU in kinds and self._take_kyuushu(ctx):
            return _first(next(a for a in legal if a.kind == KYUUSHU), legal)
        return self._own_turn(ctx, legal)

    def _jielu_rank(self, view: PlayerView, legal: list[Action]) -> list[Decision]:
        """洁律: a win offered is scored and weighed (:func:`_jielu_take_win`); discards are the efficiency bot's
        shanten of the four-melds-and-a-pair form, ties (and near ties in acceptance) broken toward the hand's
        fans (:func:`_jielu_discard`); calls and kongs as the efficiency bot (any call that brings the hand
        closer, a kong that costs nothing: 004 可食碰替, 吃碰后可开杠)."""
        wins = [a for a in legal if a.kind in (TSUMO, RON)]
        if wins:
            win = wins[0]
            score = _jielu_win_score(view, win)
            if _jielu_take_win(view, score):
                return [Decision(win, float(score if score is not None else 1))] + [
                    Decision(a, 0.0) for a in legal if a is not win
                ]
            rest = [a for a in legal if a.kind not in (TSUMO, RON)]
            if rest:
                ranked = self._jielu_rank(view, rest)
                return [*ranked, Decision(win, -float(score or 0))]
        discards = [a for a in legal if a.kind == DISCARD]
        if discards and all(a.kind in (DISCARD, ANKAN, KAKAN) for a in legal):
            choice = self._fallback.act(view, legal)
            if choice.kind == DISCARD:
                choice = _jielu_discard(view, discards, self.rng)
            return _first(choice, legal)
        return self._fallback_rank(view, legal)

    def _fallback_rank(self, view: PlayerView, legal: list[Action]) -> list[Decision]:
        choice = self._fallback.act(view, legal)
        if choice not in legal:
            choice = legal[0]
        return _first(choice, legal)

    # -- shapes ---------------------------------------------------------------------------------------------

    def _shape(self, counts: list[int], ctx: _Ctx) -> tuple[int, int]:
        """(shanten, unseen copies of the kinds that lower it) of a 3n+1 closed part, cached."""
        key = bytes(counts)
        got = ctx.cache.get(key)
        if got is not None:
            return got
        s, kinds = _improving(counts, key)
        unseen = ctx.unseen
        out = (s, sum(unseen[k] for k in kinds))
        ctx.cache[key] = out
        return out

    def _second_step(self, counts: list[int], s: int, ctx: _Ctx, near: Sequence[int]) -> float:
        """Average over accepted draws of the acceptance of the best next discard (for s = 1: tenpai waits)."""
        unseen = ctx.unseen
        cache = ctx.cache
        weight = 0
        total = 0.0
        for k in near:
            if counts[k] >= 4 or not unseen[k]:
                continue
            counts[k] += 1
            if shanten(counts) < s:
                best = 0
                for d in range(34):
                    if counts[d] and d != k:
                        counts[d] -= 1
                        got = cache.get(bytes(counts))
                        if got is None and shanten(counts) == s - 1:
                            got = self._shape(counts, ctx)
                        counts[d] += 1
                        if got is not None and got[0] == s - 1 and got[1] > best:
                            best = got[1]
                weight += unseen[k]
                total += unseen[k] * best
            counts[k] -= 1
        return total / weight if weight else 0.0

    def _tenpai_plan(self, counts: list[int], ctx: _Ctx, reds: int, melds: Sequence[object]) -> tuple[float, float]:
        """For a one-shanten 3n+1 closed part: (the waits and the value of the tenpai it heads for), each averaged
        over the draws that make tenpai, the waits weighted by the draw's unseen copies and the value by those
        times the waits. After each such draw the bot would keep the discard with the most waits times value
        (a furiten wait counts only for tsumo)."""
        unseen = ctx.unseen
        closed = all(not m.is_open for m in melds)  # type: ignore[attr-defined]
        weight = 0
        waits_total = 0.0
        value_total = 0.0
        _, draws = _improving(counts, bytes(counts))
        for k in draws:
            if not unseen[k]:
                continue
            counts[k] += 1
            best = (-1.0, 0.0, 0.0)
            for d in range(34):
                if not counts[d] or d == k:
                    continue
                counts[d] -= 1
                if not _is_tenpai(counts):
                    counts[d] += 1
                    continue
                _, kinds = _improving(counts, bytes(counts))
                u = sum(unseen[w] for w in kinds)
                if u:
                    eff = u / RON_FACTOR if any(w in ctx.own_river for w in kinds) else float(u)
                    value = self._value(counts, ctx, reds, melds, False, planned=closed)
                    if eff * value > best[0] or (best[0] <= 0 and eff > best[1]):
                        best = (eff * value, eff, value)
                counts[d] += 1
            counts[k] -= 1
            if best[1] <= 0:
                continue
            weight += unseen[k]
            waits_total += unseen[k] * best[1]
            value_total += unseen[k] * best[1] * best[2]
        if not weight or waits_total <= 0:
            return 0.0, 0.0
        return waits_total / weight, value_total / waits_total

    # -- offence ----------------------------------------------------------------------------------------

    def _value(
        self, counts: list[int], ctx: _Ctx, reds: int, melds: Sequence[object], riichi: bool, planned: bool = False
    ) -> float:
        """Points a win of this hand is worth (riichi: declared now or later on a closed hand)."""
        closed = all(not m.is_open for m in melds)  # type: ignore[attr-defined]
        v = ctx.view
        est = estimate_value(
            counts, melds, ctx.dora, reds, v.seat_wind, v.round_wind, ctx.rules.open_tanyao, unseen=ctx.unseen
        )  # type: ignore[arg-type]
        han = est.yaku_han + est.dora
        if closed and (riichi or planned or not est.has_yaku):
            if not ctx.rules.riichi:
                return ctx.points(han + 0.35) if est.has_yaku else ctx.points(1 + est.dora) * 0.4
            if riichi:  # declared now
                han += 1.0 + 0.35 + (0.4 if ctx.rules.ura_dora else 0.0) + (0.12 if ctx.rules.ippatsu else 0.0)
            else:  # a riichi still to come (or a dama hand that finds a yaku)
                han += 1.0 + 0.2 + (0.3 if ctx.rules.ura_dora else 0.0) + (0.08 if ctx.rules.ippatsu else 0.0)
        elif closed:
            han += 0.35  # a closed tsumo
        elif not est.has_yaku:
            return 0.0
        return ctx.points(han)

    def _offence(
        self,
        counts: list[int],
        ctx: _Ctx,
        near: Sequence[int],
        reds: int,
        melds: Sequence[object],
        follow: float | None,
        mode: str = "best",
        plan_value: float | None = None,
    ) -> _Offence:
        """Expected points, shanten, acceptance and chance of winning of a 3n+1 closed part. ``mode``: ``best``
        (riichi later if it pays), ``riichi`` (declared now), ``dama`` (tenpai, silent). ``plan_value``: what the
        tenpai this hand heads for is worth (:meth:`_tenpai_plan`), in place of the estimate from the hand as it
        is."""
        s, u = self._shape(counts, ctx)
        closed = all(not m.is_open for m in melds)  # type: ignore[attr-defined]
        if s > 4 or (ctx.draws_left == 0 and s > 0):
            return _Offence(0.0, s, u, 0.0)
        n = ctx.n_unseen
        if s == 0:
            waits = wait_kinds(counts)
            furiten = any(w in ctx.own_river for w in waits)
            w = float(u)
            tv = ctx.tenpai_value
            if mode == "riichi":
                value = self._value(counts, ctx, reds, melds, True)
                p, te = _chances((), w, not furiten, ctx)
                p *= ctx.riichi_win
                stick = 1000 * (1 - p) * RIICHI_STICK
                return _Offence(p * value - stick + te * tv, s, u, p, te)
            v = ctx.view
            est = estimate_value(
                counts, melds, ctx.dora, reds, v.seat_wind, v.round_wind, ctx.rules.open_tanyao, unseen=ctx.unseen
            )  # type: ignore[arg-type]
            if est.has_yaku:
                value = ctx.points(est.yaku_han + est.dora + (0.35 if closed else 0.0))
                p, te = _chances((), w, not furiten, ctx)
                return _Offence(p * value + te * tv, s, u, p, te)
            if closed:
                p, te = _chances((), w, False, ctx)
                return _Offence(p * ctx.points(1 + est.dora) + te * tv, s, u, p, te)
            # an open hand without a yaku cannot win, but its tenpai is paid at an exhaustive draw where the rule
            # set counts a formal tenpai
            _, te = _chances((), 0.0, False, ctx)
            return _Offence(te * ctx.formal_tenpai_value, s, u, 0.0, te)
        if follow is None and s <= 2 and ctx.follow_default is not None:
            follow = ctx.follow_default
        if follow is not None and s <= 2:
            steps = [u / n] + ([max(follow, 1.0) / n] if s == 2 else [])
            waits = follow if s == 1 else _TYPICAL_WAITS
        else:
            steps = [u / n] + [_TYPICAL_ACCEPT[level] / n for level in range(s - 1, 0, -1)]
            waits = _TYPICAL_WAITS
        if not closed:
            steps = [x * OPEN_SPEED for x in steps]  # an open hand with a yaku may call its next tiles too
        steps = [min(0.8, x) for x in steps]
        value = plan_value if plan_value is not None else self._value(counts, ctx, reds, melds, False, planned=closed)
        p, te = _chances(steps, waits, True, ctx)
        tv = ctx.tenpai_value if value > 0 or closed else ctx.formal_tenpai_value
        return _Offence(p * value + te * tv, s, u, p if value > 0 else 0.0, te)

    # -- defence -------------------------------------------------------------------------------------------

    def _deal_in(self, kind: int, ctx: _Ctx) -> float:
        cost = ctx.risk_mult * sum(t.tenpai * t.danger[kind] * t.cost for t in ctx.threats)
        return cost + ctx.pao.get(kind, 0.0)

    def _future_push(self, s: int, ctx: _Ctx, rest: Sequence[int], tenpai_end: float = 0.0) -> float:
        """Risk of the dangerous tiles still to be discarded while pushing a hand at shanten ``s``; with the
        chance ``tenpai_end`` of being tenpai at the exhaustive draw (whose payment the offence counts), that share
        of the discards after those, to the end of the wall."""
        if not ctx.threats:
            return 0.0
        turns = min(ctx.draws_left, PUSH_BY_SHANTEN[min(s, len(PUSH_BY_SHANTEN) - 1)]) * PUSH_TURNS
        turns += tenpai_end * max(0.0, ctx.draws_left - turns)
        kinds = [k for k in range(34) if rest[k]] or [0]
        return sum(
            t.tenpai * t.cost * ctx.risk_mult * sum(t.danger[k] for k in kinds) / len(kinds) * turns
            for t in ctx.threats
        )

    def _future_fold(self, ctx: _Ctx, rest: Sequence[int]) -> float:
        """Risk of running out of safe tiles while folding."""
        if not ctx.threats:
            return 0.0
        safe = sum(rest[k] for k in range(34) if all(t.danger[k] < 0.01 for t in ctx.threats))
        short = max(0, min(ctx.draws_left, 6) - safe)
        return sum(t.tenpai * t.cost * ctx.risk_mult * 0.05 * short for t in ctx.threats)

    # -- own turn ----------------------------------------------------------------------------------------

    def _own_turn(self, ctx: _Ctx, legal: list[Action]) -> list[Decision]:
        counts = ctx.counts
        near = _near(counts)
        pool = [a for a in legal if a.kind in (DISCARD, RIICHI)]
        base: dict[int, tuple[int, int]] = {}
        for a in pool:
            k = a.tile.kind  # type: ignore[union-attr]
            if k not in base:
                counts[k] -= 1
                base[k] = self._shape(counts, ctx)
                counts[k] += 1
        best_s = min((v[0] for v in base.values()), default=8)
        top_u = max((v[1] for v in base.values() if v[0] == best_s), default=0)
        top = sorted((k for k, v in base.items() if v[0] == best_s and v[1] >= 0.5 * top_u), key=lambda k: -base[k][1])
        offence_cache: dict[tuple[int, bool, str], _Offence] = {}
        follows: dict[int, float] = {}
        plans: dict[int, float] = {}
        if best_s == 1 and TENPAI_PLAN:
            # every one-shanten discard is valued by the tenpai it heads for (the same measure for all of them)
            for k, (s_k, _) in base.items():
                if s_k != 1:
                    continue
                counts[k] -= 1
                follows[k], plans[k] = self._tenpai_plan(counts, ctx, ctx.reds, ctx.melds)
                counts[k] += 1
        elif 1 <= best_s <= 2:
            # the second step costs most at two-shanten (many draws, each with many discards): the best two there
            for k in top[: 4 if best_s == 1 else 2]:
                counts[k] -= 1
                follows[k] = self._second_step(counts, best_s, ctx, near)
                counts[k] += 1
        ctx.follow_default = sum(follows.values()) / len(follows) * 0.9 if follows else None
        fold = self._future_fold(ctx, counts)  # of the whole hand: the tile discarded now is one of them
        rows = []
        for a in pool:
            t = a.tile
            assert t is not None
            k = t.kind
            reds = ctx.reds - (1 if t.red else 0)
            mode = "riichi" if a.kind == RIICHI else ("dama" if base[k][0] == 0 else "best")
            key = (k, t.red, mode)
            counts[k] -= 1
            if key not in offence_cache:
                offence_cache[key] = self._offence(
                    counts, ctx, near, reds, ctx.melds, follows.get(k), mode, plans.get(k) if mode == "best" else None
                )
            off, s, u, chance, te = offence_cache[key]
            push = off - self._future_push(s if mode != "riichi" else ctx.draws_left, ctx, counts, te)
            counts[k] += 1
            order = _discard_order(k, counts, ctx)
            deal = self._deal_in(k, ctx)
            folding = -deal - fold if mode != "riichi" else -1e18
            rows.append((a, s, u, order, -deal + push, folding, chance))
        out = self._order_rows(ctx, rows)
        kan = self._kan_choice(ctx, legal, best_s)
        if kan is not None:
            out.insert(0, Decision(kan, out[0].score if out else 0.0))
        ranked = {d.action for d in out}
        out.extend(Decision(a, 0.0) for a in legal if a not in ranked)
        return out

    def _order_rows(self, ctx: _Ctx, rows: list[tuple[Action, int, int, float, float, float, float]]) -> list[Decision]:
        """The discards ranked from their rows (action, shanten after, acceptance, order, push and fold
        scores, chance of winning)."""
        scored: list[tuple[tuple[float, ...], Action, float, float]] = []
        if not rows:
            return []
        # push while the best push beats the best fold: then shanten first, the safer of equal tiles; otherwise
        # every tile by its better score
        best_push = max(r[4] for r in rows)
        fold_mode = bool(ctx.threats) and max(r[5] for r in rows) > best_push
        near_best = best_push - (0.1 * abs(best_push) + 100)
        # a riichi, an open hand likely tenpai, or a tile that would make this seat liable (pao)
        serious = any(t.tenpai >= SERIOUS for t in ctx.threats) or bool(ctx.pao)
        best_at: dict[int, float] = {}
        for _, s, _, _, push_score, _, _ in rows:
            best_at[s] = max(best_at.get(s, -1e18), push_score)
        for a, s, u, order, push_score, fold_score, chance in rows:
            if fold_mode:
                score = max(push_score, fold_score)
                tie = (0, 0, -_bucket(score), s, order, -score, -u, 0 if a.tsumogiri else 1, self.rng.random())
            else:
                # pushing: the lowest shanten among the tiles whose score is near the best (a much more
                # dangerous tile does not win by its shanten alone)
                score = push_score
                far = 0 if push_score >= near_best or not serious else 1
                near = push_score >= best_at[s] - NEAR_SHARE * abs(best_at[s])
                band = 0 if near else -_bucket(score, PUSH_BUCKETS)
                tie = (far, s, 0 if near else 1, band, order, -score, -u, 0 if a.tsumogiri else 1, self.rng.random())
            scored.append((tie, a, score, chance))
        scored.sort(key=lambda x: x[0])
        return [Decision(a, sc, chance) for _, a, sc, chance in scored]

    def _kan_choice(self, ctx: _Ctx, legal: list[Action], best_s: int) -> Action | None:
        for a in legal:
            if a.kind not in (ANKAN, KAKAN) or a.tile is None:
                continue
            if ctx.view.riichi(ctx.view.seat):
                return a  # the engine offers a kan in riichi only when it keeps the waits
            if any(t.tenpai >= 0.9 for t in ctx.threats):
                continue
            trial = list(ctx.counts)
            trial[a.tile.kind] -= 4 if a.kind == ANKAN else 1
            if sum(trial) % 3 == 1 and shanten(trial) <= best_s:
                return a
        return None

    def _take_kyuushu(self, ctx: _Ctx) -> bool:
        kinds = sum(1 for k in YAOCHU if ctx.counts[k])
        return kinds < 11

    # -- answering a discard -----------------------------------------------------------------------------

    def _respond(self, ctx: _Ctx, legal: list[Action]) -> list[Decision]:
        passing = next(a for a in legal if a.kind == PASS)
        calls = [a for a in legal if a.kind in (PON, CHI)]
        if not calls:
            return _first(passing, legal)
        counts = ctx.counts
        near = _near(counts)
        now_s, _ = self._shape(counts, ctx)
        plan = TENPAI_PLAN and CALL_PLAN and now_s == 1
        follow, plan_value = self._tenpai_plan(counts, ctx, ctx.reds, ctx.melds) if plan else (None, None)
        passed = self._offence(counts, ctx, near, ctx.reds, ctx.melds, follow, "best", plan_value)
        pass_off = passed.points
        pass_score = pass_off - self._future_push(now_s, ctx, counts, passed.tenpai_end) if ctx.threats else pass_off
        pass_score = max(pass_score, -self._future_fold(ctx, counts))
        decisions = [Decision(passing, pass_score)]
        for a in calls:
            assert a.tile is not None
            trial = list(counts)
            for t in a.consumed:
                trial[t.kind] -= 1
            reds = ctx.reds - sum(1 for t in a.consumed if t.red)
            meld = _OpenSet(_Kind("chi" if a.kind == CHI else "pon"), (a.tile, *a.consumed), True)
            melds = [*ctx.melds, meld]
            # a call must keep a yaku in sight (M-League rules 2023, 1章3条: one yaku to win)
            v = ctx.view
            est = estimate_value(
                trial, melds, ctx.dora, reds, v.seat_wind, v.round_wind, ctx.rules.open_tanyao, unseen=ctx.unseen
            )  # type: ignore[arg-type]
            if not (est.has_yaku or _keeps_a_yaku(ctx.view, a)):
                decisions.append(Decision(a, -1e9))
                continue
            best = -1e18
            trial_near = _near(trial)
            for d in range(34):
                if not trial[d] or (a.kind == PON and d == a.tile.kind):
                    continue
                trial[d] -= 1
                if sum(trial) % 3 == 1:
                    follow, plan_value = None, None
                    if plan and self._shape(trial, ctx)[0] == 1:
                        follow, plan_value = self._tenpai_plan(trial, ctx, reds, melds)
                    off, s, _, _, te = self._offence(trial, ctx, trial_near, reds, melds, follow, "best", plan_value)
                    if s <= now_s:
                        push = off - self._future_push(s, ctx, trial, te)
                        score = push - self._deal_in(d, ctx)
                        best = max(best, score)
                trial[d] += 1
            decisions.append(Decision(a, best if best > -1e17 else -1e9))
        decisions.sort(key=lambda d: -d.score)
        if decisions[0].action is not passing and decisions[0].score <= pass_score + 50:
            decisions.sort(key=lambda d: (d.action is not passing, -d.score))
        ranked = {d.action for d in decisions}
        decisions.extend(Decision(a, -1e9) for a in legal if a not in ranked)
        return decisions


PAO_COST = 16000.0
"""What feeding the liable meld costs, weighted: the chance the opponent holds the pair and completes the
yakuman (about half a yakuman paid alone, by the liable player) or waits on the tile."""


def _pao_feeds(view: PlayerView, unseen: Sequence[int]) -> dict[int, float]:
    """Kinds whose discard would feed an opponent the meld that makes this seat liable (pao) for a yakuman,
    with the expected cost: the third dragon to a player with two dragon pungs (daisangen), the fourth wind to
    a player with three wind pungs (daisuushii), where the rule set has pao for them (General online rules 3.3;
    M-League rules 2023, 8章1条)."""
    pao = view.rules.pao
    out: dict[int, float] = {}
    if not pao:
        return out
    for o in range(4):
        if o == view.seat:
            continue
        pungs = {m.kind34 for m in view.melds(o) if m.kind.value != "chi"}
        for name, group, need in (("daisangen", DRAGONS, 2), ("daisuushii", WINDS, 3)):
            if name not in pao:
                continue
            have = [k for k in group if k in pungs]
            if len(have) != need:
                continue
            for k in group:
                if k in pungs or not unseen[k]:
                    continue
                # two unseen copies: it may hold the pair (a pon makes this seat liable); one: a single wait
                share = 0.5 if unseen[k] >= 2 else 0.15
                out[k] = max(out.get(k, 0.0), PAO_COST * share)
    return out


def _first(choice: Action, legal: list[Action]) -> list[Decision]:
    return [Decision(choice, 1.0)] + [Decision(a, 0.0) for a in legal if a != choice]


def _bucket(score: float, steps: int = BUCKETS) -> int:
    """Scores within a few per cent of each other count as equal (the estimates are not finer than that)."""
    return round(math.copysign(math.log1p(abs(score) / 50.0), score) * steps)


def _discard_order(kind: int, counts: Sequence[int], ctx: _Ctx) -> float:
    """Among equally good discards, which goes first (lowest first), the way strong players order them: a lone
    guest wind, a lone terminal, a lone value honour (one already seen by others before a live one), a lone 2
    or 8, a lone middle tile, then tiles that are part of a shape; honours are kept longer after the sixth
    turn (they are the safe tiles for later), and a dora is kept. Tuned on the discards of Tenhou's top-room
    players (benchmarks/bench_bot.py, the agreement part)."""
    if counts[kind] >= 2:
        order = 5.0
    elif kind >= 27:
        v = ctx.view
        value = kind >= 31 or kind in (27 + v.seat_wind, 27 + v.round_wind)
        order = (1.0 if value else 0.0) + 0.5 * (ctx.unseen[kind] - 2) + (3.0 if ctx.turn >= 6 else 0.0)
    else:
        n = kind % 9
        lo, hi = kind - min(n, 2), kind + min(8 - n, 2)
        lone = sum(counts[lo : hi + 1]) == 1
        order = (0.5 if n in (0, 8) else (2.0 if n in (1, 7) else 3.5)) if lone else 5.0
    return order + 4.0 * ctx.dora[kind]


_IMPROVING: dict[bytes, tuple[int, tuple[int, ...]]] = {}
_IMPROVING_MAX = 200_000


def _improving(counts: list[int], key: bytes) -> tuple[int, tuple[int, ...]]:
    """Shanten of a 3n+1 closed part and the kinds whose draw lowers it (for tenpai: the waits). Kept in a
    process-wide table, as a hand changes by a tile or two from one decision to the next."""
    got = _IMPROVING.get(key)
    if got is not None:
        return got
    s = shanten(counts)
    if s == 0:
        kinds = tuple(wait_kinds(counts))
    else:
        after = shanten_after_each(counts, 1)  # every draw's shanten at once (one block looked up per kind)
        kinds = tuple(k for k in _near(counts) if (a := after[k]) is not None and a < s)
    if len(_IMPROVING) >= _IMPROVING_MAX:
        _IMPROVING.clear()
    _IMPROVING[key] = (s, kinds)
    return s, kinds


_TENPAI: dict[bytes, bool] = {}


def _is_tenpai(counts: list[int]) -> bool:
    """Whether a 3n+1 closed part is tenpai (kept in a process-wide table, like :func:`_improving`)."""
    key = bytes(counts)
    got = _TENPAI.get(key)
    if got is None:
        known = _IMPROVING.get(key)
        got = known[0] == 0 if known is not None else shanten(counts) == 0
        if len(_TENPAI) >= _IMPROVING_MAX:
            _TENPAI.clear()
        _TENPAI[key] = got
    return got


_SPREAD = tuple(
    frozenset(j for j in range(k - 2, k + 3) if 0 <= j < 27 and j // 9 == k // 9) if k < 27 else frozenset((k,))
    for k in range(34)
)
"""The kinds a held tile of each kind makes near: itself and its suit neighbours within two (an honour: itself)."""


def _near(counts: Sequence[int]) -> list[int]:
    """Kinds whose draw can lower the shanten of a hand held in ``counts`` (held kinds and suit neighbours
    within two; the terminals and honours when a thirteen-orphans try is on), in order."""
    near: set[int] = set()
    for k, c in enumerate(counts):
        if c:
            near |= _SPREAD[k]
    if sum(1 for k in YAOCHU if counts[k]) >= 8:
        near |= YAOCHU
    return sorted(near)


# -- 洁律 (004 洁律麻将) ---------------------------------------------------------------------------------------

JIELU_NEAR = {"points": 0.8, "original": 0.6}
"""洁律 discards: tiles whose acceptance is at least this share of the best (same shanten) compete by the fans
the hand keeps in sight; under the original mode (a win below 4 points pays the others) value counts more."""


def _jielu_win_score(view: PlayerView, win: Action) -> int | None:
    """The score S the offered 洁律 win would be paid on (the table's own scoring of the view's
    :meth:`~jantaku.bots.base.PlayerView.offered_win`), or None when it cannot be worked out."""
    from jantaku.errors import JantakuError
    from jantaku.jielu import score_hand as jielu_score_hand
    from jantaku.jielu.fantable import table_for_rules

    offered = view.offered_win(win)
    if offered is None:
        return None
    try:  # with the rule set's fan values and win rule (its cap on wildcards), as the table pays it
        return int(jielu_score_hand(*offered, table=table_for_rules(view.rules)).score)
    except JantakuError:
        return None  # not a scorable hand after all: take the win


def _jielu_take_win(view: PlayerView, score: int | None) -> bool:
    """Whether to take an offered 洁律 win worth ``score``.

    Points mode (积分制): always - the first winner scores 3x, the next 2x and 1x, and nobody pays, so a win now
    is worth more than any hand still to be built while three others race to win first (004 积分制). Original
    mode (原版计分方式): only a win above 4 points, as the winner receives 3x(S-4) and below 4 pays the others
    (004 原版计分方式); at exactly 4 the hand goes on (a win would be worth nothing, and the others' cheap wins
    pay this seat)."""
    if score is None or view.rules.jielu_mode != "original":
        return True
    return score > 4


def _jielu_potential(counts: Sequence[int], melds: Sequence[object]) -> float:
    """A rough value in points of the fans a 洁律 hand keeps in sight: the best suit fan (清一色, 混一色,
    字一色), the best number fan (九数齐, 清/混 three to five numbers) and the honour fans of the honours held
    in pairs or sets, each halved for every tile that does not fit it (a tile that does not fit can still
    serve as a wildcard, which halves the score: 004 万能牌)."""
    allc = list(counts)
    for m in melds:
        for t in m.tiles[:3]:  # type: ignore[attr-defined]
            allc[t.kind] += 1
    suits = [sum(allc[0:9]), sum(allc[9:18]), sum(allc[18:27])]
    honors = sum(allc[27:34])
    total = sum(suits) + honors
    if not total:
        return 0.0
    best_suit = 32.0 * 0.5 ** (total - honors)
    for n in suits:
        if honors:
            best_suit = max(best_suit, 6.0 * 0.5 ** (total - n - honors))
        else:
            best_suit = max(best_suit, 12.0 * 0.5 ** (total - n))
    per_number = [allc[i] + allc[9 + i] + allc[18 + i] for i in range(9)]
    numbered = sum(per_number)
    top = sorted(per_number, reverse=True)
    best_number = 6.0 * 0.5 ** sum(1 for c in per_number if c == 0)
    for k, clean, mixed in ((3, 16.0, 8.0), (4, 6.0, 4.0), (5, 3.0, 0.0)):
        pts = mixed if honors else clean
        best_number = max(best_number, pts * 0.5 ** (numbered - sum(top[:k])))
    dragons = sum(1 for k in (31, 32, 33) if allc[k] >= 2)
    winds = sum(1 for k in (27, 28, 29, 30) if allc[k] >= 2)
    honour = (0.0, 1.0, 3.0, 12.0)[dragons] + (0.0, 0.0, 2.0, 8.0, 32.0)[winds]
    return min(24.0, best_suit + best_number + honour)


def _jielu_discard(view: PlayerView, discards: list[Action], rng: random.Random) -> Action:
    """The 洁律 discard: the lowest shanten of the four-melds-and-a-pair form; among tiles accepting nearly as
    many draws as the best, the one that keeps the most fans in sight (:func:`_jielu_potential`)."""
    from jantaku.shapes.shanten import shanten_regular

    counts = view.counts
    melds = view.melds()
    unseen = unseen_counts(view)
    rows: dict[int, tuple[int, int, float]] = {}
    for a in discards:
        k = a.tile.kind  # type: ignore[union-attr]
        if k in rows:
            continue
        counts[k] -= 1
        s = shanten_regular(counts)
        accept = 0
        for d in _near(counts):
            if counts[d] >= 4 or not unseen[d]:
                continue
            counts[d] += 1
            if shanten_regular(counts) < s:
                accept += unseen[d]
            counts[d] -= 1
        rows[k] = (s, accept, _jielu_potential(counts, melds))
        counts[k] += 1
    best_s = min(r[0] for r in rows.values())
    top_u = max(r[1] for r in rows.values() if r[0] == best_s)
    near = JIELU_NEAR.get(view.rules.jielu_mode, 0.8)
    scored = []
    for a in discards:
        s, u, pot = rows[a.tile.kind]  # type: ignore[union-attr]
        close = s == best_s and u >= near * top_u
        scored.append(((0 if close else 1, s, -pot if close else 0.0, -u, 0 if a.tsumogiri else 1, rng.random()), a))
    scored.sort(key=lambda x: x[0])
    return scored[0][1]
