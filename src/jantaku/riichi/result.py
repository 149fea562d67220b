"""The score of a riichi win (:class:`ScoreResult`), what the reference scorer (:mod:`.scoring`) and the fast
kernel (:mod:`.kernel`) both return."""

from __future__ import annotations

from dataclasses import dataclass, field

from .conditions import WinConditions
from .points import FuItem
from .reading import Reading
from .yaku import YAKU_BY_NAME

__all__ = ["ScoreResult"]


@dataclass(frozen=True)
class ScoreResult:
    """The score of a win, with everything needed to explain it.

    ``yaku`` lists (name, han), dora included as ``dora``, ``aka_dora`` and ``ura_dora``; for a yakuman
    hand it lists the yakuman as (name, multiplier) and ``han`` is 0. ``points`` is what the winner gains
    before honba and deposits; ``payments`` the change of every seat's points, honba and deposits included.
    """

    han: int
    fu: int
    yaku: list[tuple[str, int]]
    yakuman: int
    limit: str | None
    basic: int
    points: int
    payments: list[int]
    fu_items: list[FuItem] = field(default_factory=list)
    reading: Reading | None = None
    rules: str = ""
    conditions: WinConditions | None = None

    def explain(self) -> str:
        """A human-readable account of the score.

        >>> from jantaku import Tile
        >>> from jantaku.riichi import score_hand
        >>> print(score_hand("11123455678999m", WinConditions(win=Tile("1m"), tsumo=True)).explain())
        chuuren_poutou (九蓮宝燈) yakuman
        yakuman: 48000 points (16000 all)
        payments: seat 0 +48000, seat 1 -16000, seat 2 -16000, seat 3 -16000
        """
        lines = []
        for name, value in self.yaku:
            y = YAKU_BY_NAME.get(name)
            label = f"{name} ({y.kanji})" if y else name
            if self.yakuman:
                lines.append(f"{label} {'yakuman' if value == 1 else f'{value}x yakuman'}")
            else:
                lines.append(f"{label} {value} han")
        if not self.yakuman:
            fu_text = " + ".join(f"{what} {fu}" for what, fu in self.fu_items)
            lines.append(f"fu: {self.fu} ({fu_text})" if fu_text else f"fu: {self.fu}")
            total = f"{self.han} han {self.fu} fu"
        else:
            total = "yakuman" if self.yakuman == 1 else f"{self.yakuman}x yakuman"
        limit = f" {self.limit}" if self.limit and not self.yakuman else ""
        lines.append(f"{total}:{limit} {self.points} points{self._split()}")
        c = self.conditions
        if c is not None and (c.honba or c.deposits):
            lines.append(f"honba {c.honba}, deposits {c.deposits}")
        pays = ", ".join(f"seat {s} {d:+d}" for s, d in enumerate(self.payments))
        lines.append(f"payments: {pays}")
        return "\n".join(lines)

    def _split(self) -> str:
        c = self.conditions
        if c is None or not c.tsumo:
            return ""
        others = [s for s in range(4) if s != c.winner]
        base = [-self.payments[s] for s in others]
        honba_each = c.honba * 100
        base = [b - honba_each for b in base]
        if c.pao is not None:
            return ""
        if c.is_dealer:
            return f" ({base[0]} all)"
        dealer_pay = -self.payments[c.dealer] - honba_each
        child = next(b for s, b in zip(others, base, strict=True) if s != c.dealer)
        return f" ({child}/{dealer_pay})"
