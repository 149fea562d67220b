"""Seating a round: which players share a table (random, swiss or given), then who sits where and deals
first at each table (the rule set's draw, :func:`jantaku.table.seating.draw_seating`, or given).

Swiss pairs players of similar standing while avoiding repeated pairings: tables are filled in standing
order, then pairs of players at different tables are swapped while a swap lowers the cost (each pair who
met before costs more than any standing difference can, two teammates at one table more than any repeat).
Random seating deals the teams round the tables, so that teammates sit apart.

>>> tables = group_players(["a", "b", "c", "d", "e", "f", "g", "h"], "random", seed=1)
>>> sorted(p for t in tables for p in t) == list("abcdefgh"), [len(t) for t in tables]
(True, [4, 4])
>>> met = {frozenset("ab"), frozenset("cd")}
>>> group_players(list("abcdefgh"), "swiss", standing={p: -i for i, p in enumerate("abcdefgh")}, met=met)
[['b', 'd', 'e', 'f'], ['a', 'c', 'g', 'h']]
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from jantaku.table.seating import draw_seating

from .errors import LeagueError

__all__ = ["METHODS", "TableSeats", "balance_winds", "group_players", "make_schedule", "repeats", "seat_table"]

METHODS = ("random", "balanced", "swiss", "given", "prescripted")
"""How a round's tables are made: random; balanced (random, then the fewest repeated pairings); swiss (by
standing, the fewest repeated pairings); given (the organiser's list); prescripted (the event's schedule, made
ahead for every round by :func:`make_schedule`)."""

_REPEAT_COST = 10**6
_TEAM_COST = 10**9
"""Two teammates at one table cost more than any number of repeated pairings."""


@dataclass(frozen=True)
class TableSeats:
    """One table: the players in seat order (seat 0 is the table's East seat), the first dealer's seat and
    the draw that decided them (``procedure`` and the dice throws), or ``given``."""

    players: tuple[str, str, str, str]
    first_dealer: int
    procedure: str
    throws: tuple[tuple[str, int, int, int], ...] = ()

    def draw_data(self) -> dict[str, object]:
        """The draw as JSON-ready data (kept with the game)."""
        return {"procedure": self.procedure, "throws": [list(t) for t in self.throws]}


def group_players(
    players: list[str],
    method: str,
    *,
    seed: int | str = 0,
    standing: dict[str, float] | None = None,
    met: Collection[frozenset[str]] = (),
    teams: Mapping[str, str] | None = None,
) -> list[list[str]]:
    """Split ``players`` into tables of four: ``random``; ``swiss`` (similar ``standing``, fewest pairs in
    ``met``); ``given`` (in the order given). With ``teams`` (player -> team) no two teammates share a table
    when the teams allow it (no team has more players than there are tables), random and swiss alike; a
    given seating is the organiser's.

    >>> teams = {p: "RBGY"[i // 2] for i, p in enumerate("abcdefgh")}  # four teams of two, two tables
    >>> [sorted(teams[p] for p in t) for t in group_players(list("abcdefgh"), "random", seed=3, teams=teams)]
    [['B', 'G', 'R', 'Y'], ['B', 'G', 'R', 'Y']]
    """
    if method not in METHODS:
        raise LeagueError(f"seating method must be one of {', '.join(METHODS)}, got {method!r}")
    if len(players) % 4 or not players:
        raise LeagueError(f"a round seats a multiple of four players, got {len(players)}")
    if len(set(players)) != len(players):
        raise LeagueError("a player is listed twice")
    order = list(players)
    teams = {p: t for p, t in (teams or {}).items() if t}
    if method == "random":
        rng = random.Random(f"league-seating:{seed}")
        rng.shuffle(order)
        if teams:
            order = _spread_teams(order, teams, rng)
    elif method == "balanced":  # random, then swaps while they lower the repeated pairings (and teammates)
        rng = random.Random(f"league-seating:{seed}")
        rng.shuffle(order)
        if teams:
            order = _spread_teams(order, teams, rng)
        order = _swiss(order, {}, set(met), teams)
    elif method == "swiss":
        standing = standing or {}
        order.sort(key=lambda p: -standing.get(p, 0.0))
        order = _swiss(order, standing, set(met), teams)
    elif method == "prescripted":
        raise LeagueError("a prescripted round is seated from the event's schedule (make one first)")
    return [order[i : i + 4] for i in range(0, len(order), 4)]


def balance_winds(
    table: list[str], sat: Mapping[str, Mapping[int, int]], *, seed: int | str = 0
) -> tuple[str, str, str, str]:
    """The order (East seat first, East deals first) that gives each player the wind they have sat at least:
    ``sat[player][wind]`` counts their earlier games at that wind (0 East ... 3 North). Ties go by ``seed``.

    >>> balance_winds(["a", "b", "c", "d"], {"a": {0: 2}, "b": {0: 1, 1: 1}})[:2]
    ('c', 'a')
    """
    rng = random.Random(f"league-winds:{seed}")
    orders = list(itertools.permutations(table))
    rng.shuffle(orders)

    def cost(order: tuple[str, ...]) -> int:
        # the square of each repeat: two players one repeat each beat one player two repeats
        return sum((sat.get(p, {}).get(w, 0) + 1) ** 2 for w, p in enumerate(order))

    return min(orders, key=cost)  # type: ignore[return-value]


def make_schedule(
    players: list[str],
    rounds: int,
    *,
    seed: int | str = 0,
    teams: Mapping[str, str] | None = None,
) -> list[list[list[str]]]:
    """Every round's tables decided ahead (a prescripted event): each round balanced against the rounds before
    it (the fewest repeated pairings, teammates apart) and each table's winds balanced over the rounds (East
    seat first). Returns ``rounds`` lists of tables of four.

    >>> s = make_schedule(list("abcdefghijklmnop"), 3, seed=1)
    >>> [len(r) for r in s], sorted(p for t in s[0] for p in t) == list("abcdefghijklmnop")
    ([4, 4, 4], True)
    """
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 100:
        raise LeagueError(f"a schedule has 1 to 100 rounds, got {rounds!r}")
    met: set[frozenset[str]] = set()
    sat: dict[str, dict[int, int]] = {}
    out = []
    for n in range(rounds):
        tables = group_players(players, "balanced", seed=f"{seed}:{n}", met=met, teams=teams)
        seated = []
        for k, table in enumerate(tables):
            order = balance_winds(table, sat, seed=f"{seed}:{n}:{k}")
            for w, p in enumerate(order):
                sat.setdefault(p, {})[w] = sat.get(p, {}).get(w, 0) + 1
            met.update(frozenset(pair) for pair in itertools.combinations(order, 2))
            seated.append(list(order))
        out.append(seated)
    return out


def repeats(rounds: list[list[list[str]]]) -> int:
    """How many times two players meet again after their first game together, over ``rounds``' tables."""
    seen: set[frozenset[str]] = set()
    again = 0
    for tables in rounds:
        for table in tables:
            for pair in itertools.combinations(table, 2):
                key = frozenset(pair)
                again += key in seen
                seen.add(key)
    return again


def _spread_teams(order: list[str], teams: Mapping[str, str], rng: random.Random) -> list[str]:
    """``order`` regrouped so that teammates sit at different tables: the teams (largest first, ties in random
    order; a player without a team alone) are dealt round the tables one player at a time, so a team of at most
    as many players as tables never has two at one table."""
    groups: dict[str, list[str]] = {}
    for p in order:
        groups.setdefault(teams.get(p) or f"\0{p}", []).append(p)
    dealt = list(groups.values())
    rng.shuffle(dealt)
    dealt.sort(key=len, reverse=True)
    count = len(order) // 4
    tables: list[list[str]] = [[] for _ in range(count)]
    for k, p in enumerate(p for g in dealt for p in g):
        tables[k % count].append(p)
    return [p for t in tables for p in t]


def _table_cost(
    table: list[str], standing: dict[str, float], met: set[frozenset[str]], teams: Mapping[str, str]
) -> float:
    repeats = sum(1 for a, b in itertools.combinations(table, 2) if frozenset((a, b)) in met)
    mates = sum(1 for a, b in itertools.combinations(table, 2) if a in teams and teams.get(a) == teams.get(b))
    values = [standing.get(p, 0.0) for p in table]
    return mates * _TEAM_COST + repeats * _REPEAT_COST + (max(values) - min(values))


def _swiss(
    order: list[str], standing: dict[str, float], met: set[frozenset[str]], teams: Mapping[str, str] | None = None
) -> list[str]:
    teams = teams or {}
    tables = [order[i : i + 4] for i in range(0, len(order), 4)]
    improved = True
    rounds = 0
    while improved and rounds < 50:
        improved = False
        rounds += 1
        for a, b in itertools.combinations(range(len(tables)), 2):
            for i in range(4):
                for j in range(4):
                    ta, tb = tables[a], tables[b]
                    before = _table_cost(ta, standing, met, teams) + _table_cost(tb, standing, met, teams)
                    na, nb = list(ta), list(tb)
                    na[i], nb[j] = tb[j], ta[i]
                    after = _table_cost(na, standing, met, teams) + _table_cost(nb, standing, met, teams)
                    if after < before - 1e-9 and (before - after) >= 1:
                        tables[a], tables[b] = na, nb
                        improved = True
    out = []
    for t in tables:
        out.extend(sorted(t, key=lambda p: (-standing.get(p, 0.0), order.index(p))))
    return out


def seat_table(
    players: list[str], rules_seating: str, *, draw: bool = True, seed: int | str = 0, first_dealer: int = 0
) -> TableSeats:
    """Seat four players at a table. With ``draw`` the rule set's procedure (μ 2021 Art 8-10: wind tiles and
    dice; M-League 2023 3章1条: wind tiles, East deals first; 眉笔 3章1条: dice) is run from ``seed`` and its
    throws are kept; else the players sit in the order given and ``first_dealer`` deals first (a draw done at
    the table, recorded)."""
    if len(players) != 4 or len(set(players)) != 4:
        raise LeagueError(f"a table seats four different players, got {players}")
    if not draw:
        if isinstance(first_dealer, bool) or first_dealer not in (0, 1, 2, 3):
            raise LeagueError(f"the first dealer is a seat 0-3, got {first_dealer!r}")
        return TableSeats(tuple(players), first_dealer, "given")  # type: ignore[arg-type]
    s = draw_seating(rules_seating, seed)
    seated = [""] * 4
    for entrant, seat in enumerate(s.seat_of_player):
        seated[seat] = players[entrant]
    return TableSeats(tuple(seated), s.first_dealer, s.procedure, s.throws)  # type: ignore[arg-type]
