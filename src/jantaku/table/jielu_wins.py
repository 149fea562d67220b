"""洁律's wins in the hand's state machine (004; docs/rules/sources.md): one or more winners on a tile, each scored
and paid, the hand ending or the others playing on (the points mode), a robbed kong undone, and the end of a 洁律
hand with the non-winners' completions. Mixed into :class:`~jantaku.table.kyoku.Kyoku`, whose state it changes.

The 洁律 scoring is imported on first use: a process that plays riichi hands only never loads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jantaku.hand import Hand
from jantaku.meld import Meld, MeldKind
from jantaku.rules import Ruleset

from .public_codes import discard_code
from .results import HandResult, WinRecord
from .seat import RiverTile

if TYPE_CHECKING:
    from jantaku.jielu import JieluResult

__all__ = ["JieluWins", "jielu_table_for"]


def jielu_table_for(rules: Ruleset) -> Any:
    """:func:`jantaku.jielu.fantable.table_for_rules` (the fan values of the rule set), imported on first use."""
    from jantaku.jielu.fantable import table_for_rules

    return table_for_rules(rules)


def jielu_score_hand(*args: Any, **kwargs: Any) -> JieluResult:
    """:func:`jantaku.jielu.score_hand`, imported on first use."""
    from jantaku.jielu import score_hand

    return score_hand(*args, **kwargs)


def pao_claims(*args: Any, **kwargs: Any) -> Any:
    """:func:`jantaku.jielu.liability.pao_claims`, imported on first use."""
    from jantaku.jielu.liability import pao_claims as claims

    return claims(*args, **kwargs)


def original_payments(*args: Any, **kwargs: Any) -> Any:
    """:func:`jantaku.jielu.original_payments`, imported on first use."""
    from jantaku.jielu import original_payments as payments

    return payments(*args, **kwargs)


_POINTS_MULTIPLIERS = (3, 2, 1)
"""洁律's points mode: the first, second and third winner's multiple of S (004 积分制)."""


def _whole_payments(amounts: tuple[Any, Any, Any, Any], winner: int) -> list[int]:
    """Original-mode payments as whole points: exact with the shipped fan table; a table whose shares are
    fractional rounds each payer's share to the nearest point and the winner receives what they pay."""
    out = [round(a) for a in amounts]
    out[winner] = -sum(out[s] for s in range(4) if s != winner)
    return out


class JieluWins:
    """The 洁律 wins and end of hand of :class:`~jantaku.table.kyoku.Kyoku` (a mixin: ``self`` is the hand)."""

    rules: Any
    seats: Any
    scores: list[int]
    wins: list[WinRecord]
    won: list[bool]

    def _called_with_suppliers(self, seat: int) -> list[tuple[Meld, int | None]]:
        """A seat's declared melds in the order made, each with the seat that supplied its called tile."""
        st = self.seats[seat]
        return list(zip(st.melds, st.suppliers, strict=True))

    def _jielu_wins(self, seats: list[int], discarder: int | None, tid: int, chankan: bool) -> None:
        """One or more 洁律 wins on one tile: score and pay each, then end the hand or let the others play on.

        Several rons on one discard all win, ordered from the discarder's right (004 有一炮多响); under the
        original mode the first of them only (004 原版: 一人和牌后一局结束)."""
        if self.rules.jielu_mode == "original":
            seats = seats[:1]
        tsumo = discarder is None
        robbed = self.actor if chankan else None
        for seat in seats:
            cond = self._win_conditions(seat, tid, tsumo, chankan)
            # the legal-win check found a completion worth the least score a win needs (1 by the document; the rule
            # set's jielu_min_score, within its cap on wildcards, both carried by the table): the best score is
            # looked for from there
            hand = self._win_hand(seat, tid, tsumo)
            result = jielu_score_hand(hand, cond, table=self._fan_table, at_least=self._fan_table.min_score)
            payments = [0, 0, 0, 0]
            if self._play_on:
                payments[seat] = _POINTS_MULTIPLIERS[len(self.wins)] * result.score
            else:
                claims = pao_claims(result, self._called_with_suppliers(seat), discarder, self._tiles[tid])
                payments = _whole_payments(original_payments(seat, result.score, claims), seat)
            for s in range(4):
                self.scores[s] += payments[s]
            record = WinRecord(seat, discarder, result, None, (payments[0], payments[1], payments[2], payments[3]))
            self.wins.append(record)
            self.won[seat] = True
            self._emit(
                {
                    "type": "hora",
                    "actor": seat,
                    "target": seat if discarder is None else discarder,
                    "pai": self.mjai(tid),
                    "deltas": list(payments),
                    "score": result.score,
                    "value": result.value,
                    "fans": [[f.name, f.points, list(f.melds)] for f in result.fans],
                    "wildcards": [[w.tile.mpsz if w.tile else None, w.stands_for.mpsz] for w in result.wildcards],
                    "melds": list(result.melds),
                    "pair": result.pair,
                    "scores": list(self.scores),
                }
            )
        if robbed is not None:
            self._unrob_kan(robbed, tid)
        self.options = {}
        self.answers = {}
        self.last_discard = None
        self.drawn = None
        if not self._play_on or sum(self.won) >= 3:
            self._jielu_end("three_winners" if self._play_on else "win")
            return
        # the winners leave; the next player still in the hand draws (004 三人和牌或无法摸牌时一局结束)
        after = seats[0] if tsumo else (robbed if robbed is not None else discarder)
        assert after is not None
        if self.live_next >= self.live_end:
            self._jielu_end("wall_empty")
            return
        self._draw(self._next_active(after))

    def _unrob_kan(self, seat: int, tid: int) -> None:
        """A robbed added kong never stands: the meld is a pung again and the robbed tile lies in the river."""
        st = self.seats[seat]
        idx = next(j for j, ids in enumerate(st.meld_ids) if tid in ids)
        kan = st.melds[idx]
        ids = tuple(i for i in st.meld_ids[idx] if i != tid)
        pon_tiles = tuple(sorted(self._tiles[i] for i in ids))
        st.melds[idx] = Meld(MeldKind.PON, pon_tiles, kan.called, kan.source)
        st.meld_ids[idx] = ids
        st.river.append(RiverTile(tid, False))
        self.public.set_melds(seat, st.melds)
        self.public.discard(seat, discard_code(tid >> 2, False, False, self._tiles[tid].red))
        self.kakan_tile = None

    def _jielu_end(self, reason: str) -> None:
        """The end of a 洁律 hand: under the points mode each player who has not won scores its hand completed
        with one extra wildcard, 1x (004 未和牌时补充一张万能牌; docs/rules/sources.md, 洁律 step 4). Under a
        rule set's cap on wildcards (``jielu_max_wildcards``) the extra one counts against the cap but is always
        allowed; the least score a win needs (``jielu_min_score``) does not apply: this is no win."""
        completions: dict[int, JieluResult] = {}
        deltas = [0, 0, 0, 0]
        if self._play_on:
            for s, st in enumerate(self.seats):
                if self.won[s]:
                    continue
                hand = Hand(tuple(self._tiles[i] for i in st.tiles), tuple(st.melds))
                completions[s] = jielu_score_hand(hand, extra_wildcards=1, table=self._fan_table)
                deltas[s] = completions[s].score
            for s in range(4):
                self.scores[s] += deltas[s]
        if self._play_on or not self.wins:
            self._emit(
                {
                    "type": "ryukyoku",
                    "reason": reason if self._play_on else "exhaustive",
                    "deltas": deltas,
                    "completions": {str(s): [r.score, list(r.melds), r.pair] for s, r in completions.items()},
                    "scores": list(self.scores),
                }
            )
        total = list(deltas)
        for w in self.wins:
            for s in range(4):
                total[s] += w.payments[s]
        last = self.wins[-1] if self.wins and reason != "wall_empty" else None
        kind = "exhaustive" if last is None else ("tsumo" if last.from_seat is None else "ron")
        self._end(
            HandResult(
                kind=kind,
                reason=reason if self._play_on else None,
                wins=list(self.wins),
                deltas=total,
                completions=completions,
            )
        )
