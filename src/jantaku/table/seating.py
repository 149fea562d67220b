"""Seating and the first dealer, as each rule set's procedure does it, reproducible from a seed.

Players are entrants 0-3; the procedure decides which seat (0-3, seat 0 being the table's East position)
each one takes and which seat deals first. Dice count from the thrower as 1, then counter-clockwise
(002 1.2: 1 self, 2 right, 3 across, 4 left).

- ``mu`` (000 Art 8, 10): six tiles (four winds, 1p and 2p) shuffled in a row; the shuffler's opposite throws
  and places the dealer marker; its holder throws again; from the second thrower, counter-clockwise, each
  takes a wind by the parity of the throw (odd: from the 1p end, even: from the 2p end); the marker holder
  is East and the others sit accordingly; then two more throws (marker holder, then the indicated player)
  pick the first dealer.
- ``mleague`` (001 3章1条): the referee's four wind tiles are drawn; East sits at the East seat and deals first.
- ``standard`` (002 1.2): the wind tiles are drawn, East is the temporary dealer; they throw, the indicated
  player throws again, and the player indicated by that throw deals first.
- ``meibi`` (003 3章1条): everyone throws (ties throw again); the highest chooses a seat and the others sit to
  their right, across and left by their throws; the highest throws, the indicated player throws, and the
  player that throw indicates deals first.

>>> s = draw_seating("standard", 5)
>>> sorted(s.seat_of_player), s.first_dealer in range(4), s == draw_seating("standard", 5)
([0, 1, 2, 3], True, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

__all__ = ["Seating", "draw_seating", "indicated"]


@dataclass(frozen=True)
class Seating:
    """Where each entrant sits, who deals first, and the throws that decided it."""

    procedure: str
    seat_of_player: tuple[int, int, int, int]
    first_dealer: int
    throws: tuple[tuple[str, int, int, int], ...] = field(default=())
    """(what, thrower seat, die 1, die 2) for every throw, in order."""


def indicated(thrower: int, total: int) -> int:
    """The seat a throw of ``total`` points to, counting the thrower as 1 and then counter-clockwise.

    >>> [indicated(0, t) for t in (5, 6, 7, 8, 9)]
    [0, 1, 2, 3, 0]
    """
    return (thrower + total - 1) % 4


def _throw(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def draw_seating(procedure: str, seed: int | str) -> Seating:
    """Run a seating procedure from ``seed``."""
    rng = random.Random(f"seating:{seed}")
    throws: list[tuple[str, int, int, int]] = []

    def throw(what: str, seat: int) -> int:
        a, b = _throw(rng)
        throws.append((what, seat, a, b))
        return a + b

    if procedure == "mleague":
        winds = [0, 1, 2, 3]
        rng.shuffle(winds)  # entrant i draws wind winds[i]; the East seat is seat 0
        return Seating(procedure, tuple(winds), 0, ())  # type: ignore[arg-type]
    if procedure == "standard":
        winds = [0, 1, 2, 3]
        rng.shuffle(winds)
        first = throw("temporary dealer", 0)
        second_thrower = indicated(0, first)
        dealer = indicated(second_thrower, throw("first dealer", second_thrower))
        return Seating(procedure, tuple(winds), dealer, tuple(throws))  # type: ignore[arg-type]
    if procedure == "meibi":
        entrants = [0, 1, 2, 3]
        order: list[int] = []
        pool = entrants
        while pool:
            totals: dict[int, int] = {}
            for e in pool:
                a, b = _throw(rng)
                throws.append(("order", e, a, b))
                totals[e] = a + b
            best = max(totals.values())
            top = [e for e in pool if totals[e] == best]
            if len(top) == 1 or len(pool) == 1:
                order.append(top[0])
                pool = [e for e in pool if e != top[0]]
            # ties throw again (the loop repeats with the same pool)
        chooser_seat = rng.randrange(4)
        seat_of = [0, 0, 0, 0]
        for rank, e in enumerate(order):
            seat_of[e] = (chooser_seat + rank) % 4
        first = throw("dealer choice", chooser_seat)
        second = indicated(chooser_seat, first)
        dealer = indicated(second, throw("first dealer", second))
        return Seating(procedure, tuple(seat_of), dealer, tuple(throws))  # type: ignore[arg-type]
    if procedure == "mu":
        sit = [0, 1, 2, 3]
        rng.shuffle(sit)  # (1) sit anywhere: entrant i at seat sit[i]
        row = ["E", "S", "W", "N"]
        rng.shuffle(row)  # (2) seat 0's player shuffles the four winds; 1p and 2p go to the ends (5)
        marker = indicated(2, throw("marker", 2))  # (3) the shuffler's opposite throws
        second = throw("wind order", marker)  # (4) the marker holder throws
        take = list(row) if second % 2 == 1 else list(reversed(row))  # (6) odd: from the 1p end
        wind_of_seat = [0, 0, 0, 0]
        for n in range(4):
            wind_of_seat[(marker + n) % 4] = "ESWN".index(take[n])
        east_seat = marker  # (7) the marker holder is East; the others sit South, West, North from there
        seat_of = [0, 0, 0, 0]
        for e in range(4):
            wind = wind_of_seat[sit[e]]
            seat_of[e] = (east_seat + wind) % 4
        dealer = indicated(marker, throw("first dealer 1", marker))  # Art 10 (1)
        dealer = indicated(dealer, throw("first dealer 2", dealer))  # Art 10 (2)
        return Seating(procedure, tuple(seat_of), dealer, tuple(throws))  # type: ignore[arg-type]
    raise ValueError(f"unknown seating procedure {procedure!r}")
