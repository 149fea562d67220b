"""The two payment modes of 洁律, as pure functions of the hands' scores.

积分制 (``points``, the default; docs/rules/sources.md, 洁律 step 4): the hand goes on after a win, until three players
have won or nobody can draw. The first winner scores 3x its S, the second 2x, the third 1x; each player who has
not won scores 1x the best value of its hand completed with one extra wildcard (0 if even that cannot win).
Nobody pays anybody: every figure is a gain.

>>> points_mode_scores([(2, 6), (0, 4)], {1: 1, 3: 0})
(8, 1, 18, 0)

原版计分方式 (``original``; step 5): the first win ends the hand. The winner receives 3x(S-4), each other player
paying S-4 - a negative base: below 4 points the winner pays them. Pao: for a fan worth 8 or more, the player who
made it complete pays first k/4 of 3x(F-4), k being how many of that fan's melds were exposed (1-4); the rest of
the winner's total is shared by the three.

>>> original_payments(0, 12)                                  # 3 x 8 to the winner
(24, -8, -8, -8)
>>> original_payments(0, 2)                                   # the negative base
(-6, 2, 2, 2)
>>> original_payments(0, 12, [PaoClaim("三连刻", 12, liable=2, related=2)])   # seat 2 pays 2/4 of 3 x 8 first
(24, -4, -16, -4)

Assumptions where the document is silent (docs/rules/sources.md records the rules; these are this module's
readings):

- Pao is paid out of the winner's total 3x(S-4), never on top of it: the liable players pay in the order their
  liability arose, each its share, until the total is paid (付完为止); what is left is split equally by the three
  other players, the liable ones included (其余由三家分付).
- The share uses the fan's own points F even when wildcards halved the hand (S < F); the cap above keeps it
  within what the winner receives. When 3x(S-4) is 0 or negative there is nothing to share, so no pao.
- A claim may name earlier claims that it contains (在后达成包付的杠和组合类的番种包含先达成的番种时, 只计算后达成
  的包付: a later 四杠 over an earlier 三杠, a later 四连刻 over an earlier 三连刻); those are dropped. Which fans
  carry liability, who is liable and how many related melds were exposed depend on the game's history and are
  the caller's input (the table engine knows them).
- Only fans of at least ``min_points`` (8) carry pao.
- Amounts are exact: with the shipped table every share is whole (F-4 is a multiple of 4 for every fan of 8 or
  more); a table where it is not gives :class:`fractions.Fraction` amounts rather than rounding silently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .errors import JieluError

__all__ = ["PaoClaim", "original_payments", "points_mode_scores", "ron_order"]

Amount = int | Fraction


def _seat(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise JieluError(f"{what} must be a seat 0-3, got {value!r}")
    return value


def _score(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise JieluError(f"{what} must be a whole number >= 0, got {value!r}")
    return value


def ron_order(discarder: int, winners: Sequence[int]) -> list[int]:
    """Several rons on one discard all win, ordered from the discarder's right (下家, 对家, 上家).

    >>> ron_order(1, [0, 3, 2])
    [2, 3, 0]
    """
    _seat(discarder, "discarder")
    for w in winners:
        if _seat(w, "winner") == discarder:
            raise JieluError("the discarder cannot win on their own discard")
    if len(set(winners)) != len(winners):
        raise JieluError("a seat is listed twice among the winners")
    return sorted(winners, key=lambda s: (s - discarder) % 4)


def points_mode_scores(
    win_order: Sequence[tuple[int, int]],
    non_winners: Mapping[int, int] | None = None,
    multipliers: Sequence[int] = (3, 2, 1),
) -> tuple[int, int, int, int]:
    """积分制: each seat's gain for one hand.

    Args:
        win_order: (seat, S) of each winner, first winner first (use :func:`ron_order` for one discard).
        non_winners: seat -> the best value of its hand with one extra wildcard (``score_hand(...,
            extra_wildcards=1).score``), 0 if none; seats not given score 0.
        multipliers: first, second, third winner (3, 2, 1); a non-winner counts 1x.
    """
    if len(win_order) > len(multipliers):
        raise JieluError(f"at most {len(multipliers)} players win a hand, got {len(win_order)}")
    gains = [0, 0, 0, 0]
    seen: set[int] = set()
    for (seat, s), mult in zip(win_order, multipliers, strict=False):
        _seat(seat, "a winner's seat")
        if seat in seen:
            raise JieluError(f"seat {seat} wins twice in one hand")
        seen.add(seat)
        gains[seat] = mult * _score(s, f"seat {seat}'s score")
    for seat, s in (non_winners or {}).items():
        _seat(seat, "a non-winner's seat")
        if seat in seen:
            raise JieluError(f"seat {seat} is both a winner and a non-winner")
        gains[seat] = _score(s, f"seat {seat}'s score")
    return (gains[0], gains[1], gains[2], gains[3])


@dataclass(frozen=True, slots=True)
class PaoClaim:
    """One fan for which a player is liable (original mode).

    Attributes:
        fan: the fan's name.
        points: the fan's points F.
        liable: the seat that made it complete (sources.md: the discarder for suit and number fans; for shape and
            combination fans the one who supplied the last related meld, or the discarder if the winning tile
            belongs to it).
        related: k, the number of the fan's related melds that were exposed (1-4).
        replaces: names of earlier claims that this later one contains; they are dropped.
    """

    fan: str
    points: int
    liable: int
    related: int
    replaces: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _seat(self.liable, f"the liable seat of {self.fan}")
        if isinstance(self.related, bool) or not isinstance(self.related, int) or not 1 <= self.related <= 4:
            raise JieluError(f"related melds of {self.fan} must be 1-4, got {self.related!r}")
        _score(self.points, f"the points of {self.fan}")


def _exact(x: Fraction) -> Amount:
    return int(x) if x.denominator == 1 else x


def original_payments(
    winner: int, score: int, pao: Sequence[PaoClaim] = (), *, min_points: int = 8, base: int = 4
) -> tuple[Amount, Amount, Amount, Amount]:
    """原版计分方式: each seat's change for a hand won by ``winner`` with score S = ``score``.

    The winner receives 3x(S - base); each other player pays (S - base), negative when S < base. ``pao`` lists
    the fans with a liable player, in the order the liability arose (see the module docs for the rules and the
    assumptions).

    >>> original_payments(1, 24, [PaoClaim("三杠", 12, 0, 3), PaoClaim("四杠", 32, 0, 4, replaces=("三杠",))])
    (-60, 60, 0, 0)
    >>> original_payments(3, 16, [PaoClaim("清一色", 12, 0, 4), PaoClaim("三元", 12, 1, 3)])  # 24, then 12 of 18
    (-24, -12, 0, 36)
    """
    _seat(winner, "winner")
    _score(score, "score")
    dropped = {name for c in pao for name in c.replaces}
    claims = [c for c in pao if c.fan not in dropped and c.points >= min_points]
    for c in claims:
        if c.liable == winner:
            raise JieluError(f"the winner cannot be liable for their own {c.fan}")
    total = Fraction(3 * (score - base))
    deltas = [Fraction(0)] * 4
    deltas[winner] = total
    paid = Fraction(0)
    if total > 0:
        for c in claims:
            share = min(Fraction(3 * (c.points - base) * c.related, 4), total - paid)
            if share <= 0:
                break
            deltas[c.liable] -= share
            paid += share
    rest = (total - paid) / 3
    for seat in range(4):
        if seat != winner:
            deltas[seat] -= rest
    return (_exact(deltas[0]), _exact(deltas[1]), _exact(deltas[2]), _exact(deltas[3]))
