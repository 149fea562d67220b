"""The ends of a riichi hand in the hand's state machine: a tsumo, one or more rons (head bump, double or triple
ron as the rule set says), the exhaustive draw with its tenpai declarations, nagashi mangan and noten payments,
the abortive draws, and the hand's last event. Mixed into :class:`~jantaku.table.kyoku.Kyoku`, whose state it
changes; a 洁律 win goes on to :class:`~jantaku.table.jielu_wins.JieluWins`.
"""

from __future__ import annotations

from typing import Any

from jantaku.riichi.scoring import ScoreResult

from .actions import NOTEN, TENPAI, Action
from .legal import _YAOCHU, DECLARE, ENDED
from .results import HandResult, WinRecord, exhaustive_draw_deltas

__all__ = ["HandEndings"]


class HandEndings:
    """The ends of a hand of :class:`~jantaku.table.kyoku.Kyoku` (a mixin: ``self`` is the hand)."""

    rules: Any
    seats: Any
    scores: list[int]
    wins: list[WinRecord]

    def _tsumo(self, seat: int) -> None:
        tid = self.drawn
        assert tid is not None
        if self._jielu:
            self._jielu_wins([seat], None, tid, chankan=False)
            return
        score = self._win_score(seat, tid, tsumo=True, honba=self.honba, deposits=self.deposits)
        assert score is not None
        pao = score.conditions.pao if score.conditions else None
        self._finish_wins([WinRecord(seat, None, score, pao, tuple(score.payments))], tid)  # type: ignore[arg-type]

    def _ron(self, rons: list[int], discarder: int, tid: int, chankan: bool) -> None:
        rules = self.rules
        if self._jielu:
            self._jielu_wins(rons, discarder, tid, chankan)
            return
        if rules.multiple_ron == "head_bump":
            rons = rons[:1]
        elif rules.multiple_ron == "double" and len(rons) == 3:
            if "triple_ron" in rules.abortive_draws:
                self._abort("triple_ron")
                return
            rons = rons[:2]
        # the discarder's riichi is not accepted when the declaring discard is won on
        self.seats[discarder].riichi_pending = False
        records = []
        for n, seat in enumerate(rons):
            honba = self.honba if n == 0 else 0
            deposits = self.deposits if n == 0 else 0
            score = self._win_score(
                seat, tid, tsumo=False, chankan=chankan, discarder=discarder, honba=honba, deposits=deposits
            )
            assert score is not None
            pao = score.conditions.pao if score.conditions else None
            records.append(WinRecord(seat, discarder, score, pao, tuple(score.payments)))  # type: ignore[arg-type]
        self._finish_wins(records, tid)

    def _finish_wins(self, wins: list[WinRecord], tid: int) -> None:
        total = [0, 0, 0, 0]
        for w in wins:
            for s in range(4):
                total[s] += w.payments[s]
        for s in range(4):
            self.scores[s] += total[s]
        self.deposits = 0
        self.wins = list(wins)
        for w in wins:
            ura = [self.mjai(i) for i in self.ura_indicators()] if self.seats[w.seat].riichi else []
            sc = w.score
            assert isinstance(sc, ScoreResult)
            self._emit(
                {
                    "type": "hora",
                    "actor": w.seat,
                    "target": w.from_seat if w.from_seat is not None else w.seat,
                    "pai": self.mjai(tid),
                    "deltas": list(sc.payments),
                    "ura_markers": ura,
                    "han": sc.han,
                    "fu": sc.fu,
                    "yakuman": sc.yakuman,
                    "yaku": [[n, h] for n, h in sc.yaku],
                    "points": sc.points,
                    "scores": list(self.scores),
                }
            )
        dealer_won = any(w.seat == self.dealer for w in wins)
        self._end(
            HandResult(
                kind="tsumo" if wins[0].from_seat is None else "ron",
                wins=wins,
                deltas=total,
                dealer_continues=dealer_won,
                deposits_left=0,
            )
        )

    def _exhaustive_draw(self) -> None:
        """The wall is empty: the seats that may stay silent declare (phase :data:`DECLARE`), then the draw is
        settled. Declaring is the player's act (000 Art 22(2), 71: 宣言听牌; 001 3章11条3; 003 3章11条3)."""
        tenpai = [self._tenpai(s) for s in range(4)]
        choosers = [s for s in range(4) if tenpai[s] and self._may_stay_silent(s)]
        if not choosers:
            self._settle_exhaustive_draw(tenpai, [])
            return
        self._draw_tenpai = tenpai
        self.phase = DECLARE
        self.actor = self.dealer
        self.options = {s: [Action(TENPAI, s), Action(NOTEN, s)] for s in choosers}
        self.answers = {}
        self._legal_cache = None

    def _settle_exhaustive_draw(self, tenpai: list[bool], silent: list[int]) -> None:
        rules = self.rules
        dead = [st.dead for st in self.seats]  # ruled dead while declaring: noten (000 Art 72), not silent
        silent = sorted(s for s in silent if not dead[s])
        tenpai = [t and s not in silent and not dead[s] for s, t in enumerate(tenpai)]
        reason = None
        nagashi: list[int] = []
        if rules.nagashi_mangan:
            for s, st in enumerate(self.seats):
                if st.river and all((r.tile >> 2) in _YAOCHU and r.called_by is None for r in st.river):
                    nagashi.append(s)
        if nagashi:
            reason = "nagashi_mangan"
        deltas = exhaustive_draw_deltas(rules, self.dealer, tenpai, nagashi)
        for s in range(4):
            self.scores[s] += deltas[s]
        dealer_continues = tenpai[self.dealer] or (rules.nagashi_renchan and self.dealer in nagashi)
        event: dict[str, Any] = {
            "type": "ryukyoku",
            "reason": reason or "exhaustive",
            "deltas": deltas,
            "tenpais": tenpai,
            "scores": list(self.scores),
        }
        if silent:
            event["silent"] = silent  # tenpai seats that declared noten (jantaku's; hidden in a player's view)
        self._emit(event)
        self._end(
            HandResult(
                kind="exhaustive",
                reason=reason,
                deltas=deltas,
                tenpai=tenpai,
                dealer_continues=dealer_continues,
                deposits_left=self.deposits,
                silent=silent,
            )
        )

    def _abort(self, reason: str, actor: int | None = None) -> None:
        event: dict[str, Any] = {
            "type": "ryukyoku",
            "reason": reason,
            "deltas": [0, 0, 0, 0],
            "scores": list(self.scores),
        }
        if actor is not None:
            event["actor"] = actor
        self._emit(event)
        continues = True
        if self.rules.abortive_renchan == "tenpai":
            # 003 3章12条3 流局时听牌是连庄: a dealer holding 14 tiles (who declared nine terminals) is not waiting
            dealer_hand = self.seats[self.dealer]
            continues = len(dealer_hand.tiles) % 3 == 1 and self._tenpai(self.dealer)
        self._end(HandResult(kind="abortive", reason=reason, dealer_continues=continues, deposits_left=self.deposits))

    def _end(self, result: HandResult) -> None:
        result.scores = list(self.scores)
        self.result = result
        self.phase = ENDED
        self.options = {}
        self.answers = {}
        self._emit({"type": "end_kyoku"})
