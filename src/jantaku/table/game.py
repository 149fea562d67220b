"""A whole game: seating, hand after hand with dealer rotation, honba and deposits, the end, the settlement.

:class:`Game` drives :class:`~jantaku.table.kyoku.Kyoku` objects: ``legal_actions(seat)`` and
``apply(action)`` work on the current hand, and when a hand ends the next one is set up by the rule set:
the dealer repeats after winning or being tenpai at a draw (and after an abortive draw), the honba counter
grows or resets, riichi sticks carry over; the game ends after the last scheduled hand, when a score drops
below zero (``bust``), in the west round as soon as someone reaches the target (sudden death) or after West
4, when the all-last dealer stops (``agari_yame``), or after ``time_limit_hands`` hands. The settlement
adds leftover deposits and rank points with the rule set's tie rule.

>>> from jantaku.rules import load_rules
>>> g = Game(load_rules("standard"), seed=3)
>>> g.round_name, g.kyoku.dealer == g.first_dealer
('E1', True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jantaku.rules import Ruleset, rule_changes

from .actions import CONTINUE, STOP, Action
from .kyoku import CALLED, DRAWN, ENDED, IllegalActionError, Kyoku
from .playerview import PlayerView
from .results import HandResult
from .seating import Seating, draw_seating
from .wall import Wall

__all__ = ["Game", "GameResult", "half_up_thousands", "settle", "tenhou_thousands"]

_ROUND = "ESWN"


@dataclass
class GameResult:
    """The end of a game: points, ranks (1-4) and final scores in rank points (pt).

    ``penalties`` are the rank points the referee deducted from each seat (chombo, red cards, other
    penalties; already subtracted in ``final``); ``cards`` the cards each seat was shown in this game, in
    order (``yellow``, ``red``)."""

    scores: list[int]
    ranks: list[int]
    final: list[float]
    deposits_to: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    penalties: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0])
    cards: list[list[str]] = field(default_factory=lambda: [[], [], [], []])


def tenhou_thousands(diff: int) -> int:
    """Tenhou's rounding of a final score's distance from the zero line to whole thousands: 500 and less
    dropped, 600 and more rounded up, toward zero for negative distances.

    >>> tenhou_thousands(17800), tenhou_thousands(5500), tenhou_thousands(-25600), tenhou_thousands(-22500)
    (18, 5, -26, -22)
    """
    thousands = (abs(diff) + 400) // 1000
    return thousands if diff >= 0 else -thousands


def half_up_thousands(diff: int) -> int:
    """Half-up rounding of a final score's distance from the zero line to whole thousands, on its magnitude
    (as some older Tenhou games settle): 500 and more rounded up.

    >>> half_up_thousands(1500), half_up_thousands(1400), half_up_thousands(-1500), half_up_thousands(-25400)
    (2, 1, -2, -25)
    """
    thousands = (abs(diff) + 500) // 1000
    return thousands if diff >= 0 else -thousands


def settle(
    rules: Ruleset, scores: list[int], deposits: int, first_dealer: int, penalties: list[float] | None = None
) -> GameResult:
    """The final settlement (001 6章2条; 002 3.4; 003 6章2条).

    Ranks by points; ties by seat order from the first dealer (``seat_order``) or shared (``split``: equal
    shares of the tied places' rank points and of leftover deposits, the indivisible remainder going to the
    seats nearest the first dealer, M-League 001 6章2条6). Leftover riichi sticks go to nobody, to first place,
    or to first place only when it is not tied (``first_if_decided``, else shared among those tied first).

    >>> from jantaku.rules import load_rules
    >>> r = settle(load_rules("mleague"), [28600, 28600, 28600, 13200], 1, 0)   # 001 6章2条6's example
    >>> r.final
    [19.0, 13.9, 13.9, -46.8]
    """
    pen = penalties or [0.0] * 4
    order = sorted(range(4), key=lambda s: (-scores[s], (s - first_dealer) % 4))
    ranks = [0, 0, 0, 0]
    for place, s in enumerate(order):
        ranks[s] = place + 1
    points = list(scores)
    rank_pts = [0.0] * 4
    deposit_pts = [0] * 4
    total_deposit = deposits * 1000
    groups: list[list[int]] = []
    for s in order:
        if groups and scores[groups[-1][0]] == scores[s]:
            groups[-1].append(s)
        else:
            groups.append([s])
    place = 0
    for group in groups:
        places = list(range(place, place + len(group)))
        place += len(group)
        if rules.tie_break == "split" and len(group) > 1:
            share_total = sum(rules.rank_points[p] for p in places)
            shares = _split(share_total, len(group), rules.tie_split_unit)
            for s, v in zip(group, shares, strict=True):
                rank_pts[s] = v
        else:
            for s, p in zip(group, places, strict=True):
                rank_pts[s] = rules.rank_points[p]
    if total_deposit:
        first = groups[0]
        if rules.leftover_deposits == "first":
            if rules.tie_break == "split" and len(first) > 1:
                for s, v in zip(first, _split_sticks(deposits, len(first)), strict=True):
                    deposit_pts[s] = v
            else:
                deposit_pts[order[0]] = total_deposit
        elif rules.leftover_deposits == "first_if_decided":
            for s, v in zip(first, _split_sticks(deposits, len(first)), strict=True):
                deposit_pts[s] = v
    final = []
    for s in range(4):
        points[s] += deposit_pts[s]
        value = (scores[s] - rules.return_points + rank_pts[s] + deposit_pts[s]) / rules.final_unit - pen[s]
        final.append(round(value, 1))
    if rules.final_rounding in ("tenhou", "half_up"):
        to_thousands = tenhou_thousands if rules.final_rounding == "tenhou" else half_up_thousands
        top = order[0]
        for s in range(4):
            if s != top:
                final[s] = float(to_thousands(points[s] - rules.return_points) + rank_pts[s] // 1000) - pen[s]
        final[top] = -sum(final[s] for s in range(4) if s != top)
    return GameResult(points, ranks, final, deposit_pts, pen)


def _split_sticks(sticks: int, n: int) -> list[float]:
    """Leftover riichi sticks shared by ``n`` tied players: one stick (1,000 points) is split in shares of 100
    points, the remainder to the seats nearest the first dealer (three ways: 400/300/300), and several sticks
    multiply that split (001 6章2条6 "存在多根立直棒时按倍数计算"; 003 6章2条6 "不能整除的情况下将其等倍处理（如
    2000点的情况是800、600、600）"), not the split of their sum (which would give 700/700/600).

    >>> _split_sticks(1, 3), _split_sticks(2, 3), _split_sticks(3, 2), _split_sticks(1, 4)
    ([400.0, 300.0, 300.0], [800.0, 600.0, 600.0], [1500.0, 1500.0], [250.0, 250.0, 250.0, 250.0])
    """
    return [share * sticks for share in _split(1000, n, 100)]


def _split(total: float, n: int, unit: int) -> list[float]:
    """Split ``total`` into ``n`` equal shares, or - when it does not divide evenly - shares in multiples of
    ``unit``, the remainder to the first shares."""
    if int(total) % n == 0:
        return [float(int(total) // n)] * n
    base = (int(total) // n) // unit * unit
    rest = int(total) - base * n
    shares = []
    for _ in range(n):
        extra = min(unit, rest) if rest > 0 else 0
        rest -= extra
        shares.append(float(base + extra))
    return shares


class Game:
    """A whole game under a rule set, reproducible from ``seed``.

    ``players`` are seated by the rule set's seating procedure (:attr:`seating`); seats 0-3 are table
    positions. The game's own event log (:attr:`events`) is mjai: ``start_game``, every hand's events,
    ``end_game``.
    """

    def __init__(
        self,
        rules: Ruleset,
        seed: int | str = 0,
        names: list[str] | None = None,
        *,
        first_dealer: int | None = None,
        walls: Callable[[int], Wall] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.seating: Seating = draw_seating(rules.seating, seed)
        self.first_dealer = self.seating.first_dealer if first_dealer is None else first_dealer
        self._walls = walls
        self._clock = clock
        self._started = clock()
        self.names = names or [f"player{i}" for i in range(4)]
        self.scores = [rules.starting_points] * 4
        self.round_wind = 0
        self.dealer = self.first_dealer
        self.honba = 0
        self.deposits = 0
        self.hands_played = 0
        self.hand_index = 0
        self.penalties = [0.0, 0.0, 0.0, 0.0]
        self.cards: list[list[str]] = [[], [], [], []]
        """The cards the referee showed each seat in this game (``yellow``, ``red``), in order."""
        self.yame_choice: int | None = None
        """The all-last dealer who may stop the game now (tenpai_yame = "choice"), else ``None``."""
        self.time_is_up = False
        """The time of a time-limited game ran out (:meth:`time_up`): the hand in play is the last."""
        self.results: list[HandResult] = []
        self.result: GameResult | None = None
        self._log: list[dict[str, Any]] = [
            {
                "type": "start_game",
                "names": list(self.names),
                "seed": str(seed),
                "rules": rules.name,
                **({"rule_changes": changes} if (changes := rule_changes(rules)) else {}),
                "seating": {
                    "procedure": self.seating.procedure,
                    "seat_of_player": list(self.seating.seat_of_player),
                    "first_dealer": self.first_dealer,
                    "throws": [list(t) for t in self.seating.throws],
                },
            }
        ]
        self.kyoku: Kyoku = self._new_kyoku()

    # -- the current hand ----------------------------------------------------------------------------------

    @property
    def round_name(self) -> str:
        """``E1``, ``S4``, ``W2``: round wind and hand number."""
        return f"{_ROUND[self.round_wind]}{(self.dealer - self.first_dealer) % 4 + 1}"

    @property
    def over(self) -> bool:
        return self.result is not None

    def _new_kyoku(self) -> Kyoku:
        wall = self._walls(self.hand_index) if self._walls else Wall.from_seed(f"{self.seed}:{self.hand_index}")
        k = Kyoku(
            self.rules,
            wall,
            dealer=self.dealer,
            round_wind=self.round_wind,
            honba=self.honba,
            deposits=self.deposits,
            scores=self.scores,
            kyoku_number=(self.dealer - self.first_dealer) % 4 + 1,
        )
        k.events[0]["dice"] = list(wall.dice)
        self._absorbed = False
        return k

    @property
    def events(self) -> list[dict[str, Any]]:
        """The complete mjai event log so far (a new list: the finished hands plus the hand in play)."""
        return self._log if self._absorbed else self._log + self.kyoku.events

    def events_since(self, start: int) -> list[dict[str, Any]]:
        """The events of :attr:`events` from index ``start`` on (a new list), without building the whole log: what
        a reader that keeps its place asks after each move.

        >>> from jantaku.rules import load_rules
        >>> g = Game(load_rules("tenhou"), seed=1)
        >>> g.events_since(len(g.events) - 1) == g.events[-1:]
        True
        """
        log = self._log
        if self._absorbed:
            return log[start:]
        n = len(log)
        if start >= n:
            return self.kyoku.events[start - n :]
        return log[start:] + self.kyoku.events

    @property
    def event_count(self) -> int:
        """``len(self.events)``, without building the log."""
        return len(self._log) + (0 if self._absorbed else len(self.kyoku.events))

    def _absorb(self) -> None:
        """Move the current hand's events into the game's log (once the hand is over)."""
        if not self._absorbed:
            self._log.extend(self.kyoku.events)
            self._absorbed = True
            self.kyoku.publish_events()  # a view kept past the hand holds the whole hand

    def resync(
        self, *, round_wind: int, dealer: int, honba: int, deposits: int, scores: list[int], hand_index: int
    ) -> None:
        """Set the game's state between hands and deal that hand again (a replay that lost step with its
        record uses this to go on checking the following hands)."""
        self.round_wind, self.dealer, self.honba, self.deposits = round_wind, dealer, honba, deposits
        self.scores = list(scores)
        self.hand_index = hand_index
        self.result = None
        self.kyoku = self._new_kyoku()

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` knows of the hand being played, for its agent (:meth:`Kyoku.view
        <jantaku.table.kyoku.Kyoku.view>`): hand it with the seat's legal actions, ``agent.act(game.view(seat),
        game.legal_actions(seat))``."""
        return self.kyoku.view(seat)

    def to_act(self) -> list[int]:
        if self.result is not None:  # self.over, inlined (called on every step)
            return []
        if self.yame_choice is not None:
            return [self.yame_choice]
        k = self.kyoku
        if k.phase in (DRAWN, CALLED):  # Kyoku.to_act's common case, inlined
            return [k.actor]
        return k.to_act()

    def legal_actions(self, seat: int) -> list[Action]:
        if self.result is not None:
            return []
        if self.yame_choice is not None:
            return [Action(STOP, seat), Action(CONTINUE, seat)] if seat == self.yame_choice else []
        return self.kyoku.legal_actions(seat)

    def apply(self, action: Action) -> None:
        """Apply an action to the current hand; when the hand ends, set up the next one or end the game."""
        if self.result is not None:
            raise IllegalActionError("the game is over")
        if self.yame_choice is not None:
            if action not in self.legal_actions(action.seat):
                raise IllegalActionError(f"seat {self.yame_choice} (the all-last dealer) decides whether to stop now")
            self.yame_choice = None
            self._log.append({"type": "yame" if action.kind == STOP else "continue", "actor": action.seat})
            if action.kind == STOP:
                self._finish()
            else:
                self.kyoku = self._new_kyoku()
            return
        self.kyoku.apply(action)
        if self.kyoku.phase == ENDED:
            self._hand_over(self.kyoku.result)

    def time_up(self) -> None:
        """The time limit ran out (a clock kept outside the game, as at a physical table): the game ends when
        the hand in play ends, the dealer's repeat notwithstanding (000 Art 24(2): 有时间限制的规则下，达到时限的那一局
        结束时); between hands, the next hand is the last one."""
        if self.over:
            raise IllegalActionError("the game is over")
        self.time_is_up = True

    def dead_hand(self, seat: int, reason: str = "") -> None:
        """Rule a seat's hand dead for the rest of the current hand (see :meth:`Kyoku.declare_dead_hand`)."""
        if self.over:
            raise IllegalActionError("the game is over")
        self.kyoku.declare_dead_hand(seat, reason)
        if self.kyoku.phase == ENDED:
            self._hand_over(self.kyoku.result)

    def chombo(self, seat: int, reason: str = "chombo", *, deliberate: bool = False) -> None:
        """Record a chombo by ``seat`` as a referee would (000 Art 68; 001 7章; 003 7章): the hand stops,
        riichi sticks posted in it go back, the penalty is applied (points paid like a mangan, or rank points
        deducted at the end), and the same hand is played again. A chombo the referee rules ``deliberate``
        costs ``deliberate_chombo_factor`` times as much (001 7章4条3, 003 7章4条3: 三倍)."""
        if self.over:
            raise IllegalActionError("the game is over")
        _check_seat(seat)
        factor = self.rules.deliberate_chombo_factor if deliberate else 1
        k = self.kyoku
        scores = list(k.start_scores)
        deltas = [0, 0, 0, 0]
        if self.rules.chombo_penalty:
            dealer = k.dealer
            for o in range(4):
                if o == seat:
                    continue
                pay = self.rules.chombo_penalty // (2 if seat == dealer else 4)
                if seat != dealer and o == dealer:
                    pay = self.rules.chombo_penalty // 2
                deltas[o] += pay * factor
                deltas[seat] -= pay * factor
        if self.rules.chombo_pt:
            self.penalties[seat] += self.rules.chombo_pt * factor
        for s in range(4):
            scores[s] += deltas[s]
        self._absorb()
        self._log.append(
            {
                "type": "ryukyoku",
                "reason": "chombo",
                "actor": seat,
                "detail": reason,
                "deltas": deltas,
                "scores": scores,
            }
        )
        if deliberate:
            self._log[-1]["deliberate"] = True
        self._log.append({"type": "end_kyoku"})
        self.scores = scores
        self.deposits = k.start_deposits
        if self.rules.chombo_adds_honba:
            self.honba += 1
        self.hand_index += 1
        self.kyoku = self._new_kyoku()

    def card(self, seat: int, color: str, reason: str = "", *, earlier_yellows: int = 0) -> str:
        """Show ``seat`` a yellow or red card as a referee would (001 7章5条; 003 7章5条), where the rule set
        has cards (``cards``). A yellow card that makes ``yellows_per_red`` yellows in the day - this game's
        plus ``earlier_yellows`` from the seat's earlier games that day, which the referee knows - is a red
        card (7章5条3). A red card deducts ``red_card_pt`` rank points, as a chombo does (7章5条4: 从个人总分中
        扣除20pt); a yellow one alone costs nothing. Cards are shown at a hand's end (7章5条2); after the last
        hand the settlement is made again. Writes a ``card`` event; returns the card in effect."""
        rules = self.rules
        if not rules.cards:
            raise IllegalActionError(f"rule set {rules.name} has no yellow or red cards")
        _check_seat(seat)
        if color not in ("yellow", "red"):
            raise IllegalActionError(f"a card is 'yellow' or 'red', not {color!r}")
        if not isinstance(earlier_yellows, int) or earlier_yellows < 0:
            raise IllegalActionError(f"earlier_yellows must be a count of cards (0 or more), got {earlier_yellows!r}")
        shown = color
        if color == "yellow":
            yellows = earlier_yellows + self.cards[seat].count("yellow") + 1
            if rules.yellows_per_red and yellows % rules.yellows_per_red == 0:
                shown = "red"  # 7章5条3: two yellow cards in one day make a red card
        pt = rules.red_card_pt if shown == "red" else 0.0
        self.cards[seat].append(color)
        if shown == "red" and color == "yellow":
            self.cards[seat].append("red")
        event: dict[str, Any] = {"type": "card", "actor": seat, "card": shown, "pt": pt, "reason": reason}
        if shown != color:
            event["yellows"] = yellows
        self._referee_event(event, seat, pt)
        return shown

    def penalty(self, seat: int, pt: float, reason: str = "") -> None:
        """Deduct ``pt`` rank points from ``seat``'s final score by the referee's decision (the seeds leave
        the size of some penalties to the referee: 001 3章3条4 依照破坏程度对该对局者进行处罚, 4章2条3 受到对应
        处罚; 003 3章3条4). Writes a ``penalty`` event."""
        _check_seat(seat)
        if isinstance(pt, bool) or not isinstance(pt, int | float) or pt != pt or pt < 0:
            raise IllegalActionError(f"a penalty is a number of rank points (0 or more), got {pt!r}")
        self._referee_event({"type": "penalty", "actor": seat, "pt": float(pt), "reason": reason}, seat, float(pt))

    def _referee_event(self, event: dict[str, Any], seat: int, pt: float) -> None:
        """Record a referee's card or penalty: between hands in the game's log, during a hand among its
        events, after the game before a new settlement."""
        self.penalties[seat] += pt
        if self.over:
            if self._log and self._log[-1]["type"] == "end_game":
                self._log.pop()
            self._log.append(event)
            self._finish()
        elif self.kyoku.phase != ENDED and len(self.kyoku.events) > 2:
            self.kyoku._emit(event)
        else:
            self._log.append(event)  # between hands: before the next hand's start_kyoku

    def record_result(self, result: HandResult) -> None:
        """End the current hand with a result decided elsewhere - a hand played at a physical table and
        entered in a league recorder (:mod:`jantaku.league`) - and go on as after a hand played here: the
        dealer repeats or passes, the honba counter and the deposits follow the rule set, or the game ends
        and is settled. ``result.scores`` are the points after the hand (riichi sticks already posted),
        ``result.deposits_left`` the sticks left on the table."""
        if self.over:
            raise IllegalActionError("the game is over")
        if self.yame_choice is not None:
            raise IllegalActionError(f"seat {self.yame_choice} (the all-last dealer) decides whether to stop now")
        if len(result.scores) != 4:
            raise IllegalActionError(f"a hand's result needs four scores, got {result.scores!r}")
        self._hand_over(result)

    # -- between hands -------------------------------------------------------------------------------------

    def _hand_over(self, result: HandResult | None) -> None:
        assert result is not None
        rules = self.rules
        self._absorb()
        self.results.append(result)
        self.hands_played += 1
        self.hand_index += 1
        self.scores = list(result.scores)
        self.deposits = result.deposits_left
        renchan = result.dealer_continues and rules.dealer_repeats
        if result.kind in ("ron", "tsumo"):
            self.honba = self.honba + 1 if (renchan and rules.honba_on_dealer_win) else (self.honba if renchan else 0)
        elif rules.honba_on_draw:
            self.honba += 1
        if self._game_ends(result):
            self._finish()
            return
        if self._tenpai_yame_possible(result):
            if rules.tenpai_yame == "auto":
                self._finish()
                return
            if rules.tenpai_yame == "choice":
                self.yame_choice = self.dealer
                return
        if not renchan:
            self.dealer = (self.dealer + 1) % 4
            if self.dealer == self.first_dealer:
                self.round_wind += 1
        self.kyoku = self._new_kyoku()

    def _tenpai_yame_possible(self, result: HandResult) -> bool:
        if result.kind != "exhaustive" or not result.tenpai[self.dealer] or not self._is_last_hand():
            return False
        scores = self.scores
        top = max(range(4), key=lambda s: (scores[s], -((s - self.first_dealer) % 4)))
        return top == self.dealer and self._over_the_line(scores[self.dealer])

    def _over_the_line(self, points: int) -> bool:
        """The all-last dealer's stop: over the zero line (002 1.2 超過原點, ``yame_strict``) or at it or more
        (Tenhou)."""
        line = self.rules.return_points
        return points > line if self.rules.yame_strict else points >= line

    def _west_target_reached(self, top: int) -> bool:
        """The west round's target: strictly over it (003 6章2条7 超过35000点, ``west_round_strict``) or at it
        or more (002 1.2 原點以上; Tenhou)."""
        target = self.rules.west_round_target if self.rules.west_round else self.rules.return_points
        return top > target if self.rules.west_round_strict else top >= target

    def _is_last_hand(self) -> bool:
        return self.round_wind >= self.rules.rounds - 1 and self.dealer == (self.first_dealer + 3) % 4

    def _game_ends(self, result: HandResult) -> bool:
        rules = self.rules
        scores = self.scores
        if rules.bust and (min(scores) <= 0 if rules.bust_at_zero else min(scores) < 0):
            return True  # 002 1.2 擊飛: 0點以下 (bust_at_zero); 003 3章2条4 and Tenhou: below 0
        if rules.time_limit_hands and self.hands_played >= rules.time_limit_hands:
            return True
        if self.time_is_up:
            return True  # 000 Art 24(2): the game ends with the hand in which the time ran out
        if rules.time_limit_minutes and self._clock() - self._started >= 60 * rules.time_limit_minutes:
            return True  # 000 Art 24(2): the game ends with the hand in which the time ran out
        extension = self.round_wind >= rules.rounds
        if extension and self._west_target_reached(max(scores)):
            return True  # sudden death in the west round
        last = self._is_last_hand()
        if not last:
            return False
        top = max(range(4), key=lambda s: (scores[s], -((s - self.first_dealer) % 4)))
        if extension and rules.west_last_draw_ends and result.kind in ("exhaustive", "abortive"):
            return True  # 003 6章2条7: after a West 4 draw the game ends, the dealer's tenpai notwithstanding
        if result.dealer_continues:
            # all-last: a dealer who wins while first stops the game (agari-yame; Tenhou's logs show no
            # tenpai-yame and no stop after an abortive draw)
            won = result.kind in ("ron", "tsumo")
            stops = rules.agari_yame if won else (rules.abortive_yame and result.kind == "abortive")
            return bool(stops and top == self.dealer and self._over_the_line(scores[self.dealer]))
        if extension:
            return self.round_wind >= rules.rounds  # West 4 ended
        return not (rules.west_round and not self._west_target_reached(max(scores)))

    def _finish(self) -> None:
        res = settle(self.rules, self.scores, self.deposits, self.first_dealer, list(self.penalties))
        res.cards = [list(c) for c in self.cards]
        self.result = res
        self._absorb()
        end: dict[str, Any] = {
            "type": "end_game",
            "scores": list(res.scores),
            "ranks": list(res.ranks),
            "final": list(res.final),
            "deposits": self.deposits,
        }
        if any(self.penalties):
            end["penalties"] = list(res.penalties)
        self._log.append(end)


def _check_seat(seat: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise IllegalActionError(f"seat must be 0-3, got {seat!r}")
