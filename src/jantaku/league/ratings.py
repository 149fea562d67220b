"""Ratings across events: each finished game, in the order it was played, moves the four players' ratings by
their places at the table, under the Plackett-Luce model of OpenSkill (``openskill``, a Bayesian rating system of
the TrueSkill family for games of more than two players; Weng and Lin 2011).

A rating is a mean ``mu`` and an uncertainty ``sigma`` (a new player: 25 and 25/3); players are listed by the
``ordinal``, ``mu - 3 sigma``, which a player with few games cannot top by luck alone. Places, not points, move
the ratings: a game counts the same under every rule set and uma. A player is known by name across events (an
organiser renames a player to merge two names or tell two people apart).

>>> games = [{"players": ["a", "b", "c", "d"], "ranks": [1, 2, 3, 4]}] * 3
>>> rows = rate(games)
>>> [r["player"] for r in rows], rows[0]["games"]
(['a', 'b', 'c', 'd'], 3)
>>> rows[0]["mu"] > 25 > rows[3]["mu"] and rows[0]["sigma"] < 25 / 3
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from jantaku.extras import require

__all__ = ["MODEL", "rate"]

MODEL = "OpenSkill Plackett-Luce (openskill 6)"
"""The rating system, as the pages and exports name it."""


def rate(games: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Ratings after ``games`` (each ``{"players": [4 names], "ranks": [4 places]}``, oldest first): one row per
    player, best ordinal first: player, mu, sigma, ordinal, games."""
    models = require("openskill.models", "league", "ratings across events")
    model = models.PlackettLuce()
    ratings: dict[str, Any] = {}
    played: dict[str, int] = {}
    for g in games:
        names = list(g["players"])
        teams = [[ratings.get(n) or model.rating(name=n)] for n in names]
        rated = model.rate(teams, ranks=list(g["ranks"]))
        for n, (r,) in zip(names, rated, strict=True):
            ratings[n] = r
            played[n] = played.get(n, 0) + 1
    rows = [
        {
            "player": n,
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "ordinal": round(r.ordinal(), 3),
            "games": played[n],
        }
        for n, r in ratings.items()
    ]
    return sorted(rows, key=lambda row: (-row["ordinal"], row["player"]))
