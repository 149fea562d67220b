"""Standings from settled games: total rank points, games, average rank, rank distribution, and - where the
hands were recorded - win and deal-in rates; team totals; one player's history.

Each finished game's ``result`` is the engine's settlement (penalties given in the game included);
penalties given for the event come off the totals.

>>> games = [{"players": ["a", "b", "c", "d"], "status": "finished", "entries": [],
...           "result": {"final": [30.0, 10.0, -10.0, -30.0], "ranks": [1, 2, 3, 4]}}]
>>> [(r["player"], r["total"], r["games"]) for r in player_standings(
...     [{"name": n, "team": None} for n in "abcd"], games, [{"player": "a", "pt": 5.0, "reason": "late"}])]
[('a', 25.0, 1), ('b', 10.0, 1), ('c', -10.0, 1), ('d', -30.0, 1)]
"""

from __future__ import annotations

from typing import Any

__all__ = ["player_history", "player_standings", "team_standings"]


def player_standings(
    players: list[dict[str, Any]], games: list[dict[str, Any]], penalties: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One row per player, best total first (ties: better average rank, then name). ``win_rate`` is wins per
    recorded hand the player sat in (``hands``), ``deal_in_rate`` the hands in which the player's discard was won
    on, per recorded hand (a double ron off one discard is one deal-in)."""
    rows: dict[str, dict[str, Any]] = {
        p["name"]: {
            "player": p["name"],
            "team": p.get("team"),
            "total": 0.0,
            "games": 0,
            "ranks": [0, 0, 0, 0],
            "average_rank": None,
            "penalties": 0.0,
            "hands": 0,
            "wins": 0,
            "deal_ins": 0,
            "win_rate": None,
            "deal_in_rate": None,
        }
        for p in players
    }
    for g in games:
        names = g["players"]
        if g["status"] == "finished" and g.get("result"):
            res = g["result"]
            for seat, name in enumerate(names):
                row = rows[name]
                row["total"] += res["final"][seat]
                row["games"] += 1
                row["ranks"][res["ranks"][seat] - 1] += 1
                row["penalties"] += res.get("penalties", [0, 0, 0, 0])[seat]
        hands: list[dict[str, Any]] = []
        for e in g.get("entries", []):
            hands.extend(e.get("hands", []) if e.get("kind") == "final" else [e])  # an imported game's hands
        for e in hands:
            if e.get("kind") not in ("win", "draw", "abortive"):
                continue
            for name in names:
                rows[name]["hands"] += 1
            if e["kind"] == "win":
                discarders = set()
                for w in e.get("wins", []):
                    rows[names[w["winner"]]]["wins"] += 1
                    if w.get("from") is not None:
                        discarders.add(w["from"])
                for seat in discarders:  # a double or triple ron is one deal-in of its discarder
                    rows[names[seat]]["deal_ins"] += 1
    for p in penalties:
        rows[p["player"]]["total"] -= p["pt"]
        rows[p["player"]]["penalties"] += p["pt"]
    for row in rows.values():
        row["total"] = round(row["total"], 1)
        row["penalties"] = round(row["penalties"], 1)
        if row["games"]:
            row["average_rank"] = round(sum((i + 1) * n for i, n in enumerate(row["ranks"])) / row["games"], 3)
        if row["hands"]:
            row["win_rate"] = round(row["wins"] / row["hands"], 4)
            row["deal_in_rate"] = round(row["deal_ins"] / row["hands"], 4)
    out = sorted(rows.values(), key=lambda r: (-r["total"], r["average_rank"] or 5, r["player"]))
    for place, row in enumerate(out, 1):
        row["place"] = place
    return out


def team_standings(standings: list[dict[str, Any]], games: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """One row per team, best first: the sum of its players' totals, and its ``games``: the finished games any
    of its players played, each counted once (two teammates at one table make one game of the team, not two);
    without ``games``, the sum of the players' games."""
    teams: dict[str, dict[str, Any]] = {}
    team_of: dict[str, str] = {}
    for row in standings:
        if not row.get("team"):
            continue
        t = teams.setdefault(row["team"], {"team": row["team"], "total": 0.0, "games": 0, "players": []})
        t["total"] += row["total"]
        if games is None:
            t["games"] += row["games"]
        t["players"].append(row["player"])
        team_of[row["player"]] = row["team"]
    if games is not None:
        for g in games:
            if g["status"] == "finished" and g.get("result"):
                for team in {team_of[p] for p in g["players"] if p in team_of}:
                    teams[team]["games"] += 1
    out = sorted(teams.values(), key=lambda t: (-t["total"], t["team"]))
    for place, t in enumerate(out, 1):
        t["total"] = round(t["total"], 1)
        t["place"] = place
    return out


def player_history(player: str, games: list[dict[str, Any]], penalties: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The player's finished games in order: game, rank, final score and the running total (event penalties
    last)."""
    out = []
    total = 0.0
    for g in games:
        if g["status"] != "finished" or not g.get("result") or player not in g["players"]:
            continue
        seat = g["players"].index(player)
        final = g["result"]["final"][seat]
        total = round(total + final, 1)
        out.append({"game": g["id"], "rank": g["result"]["ranks"][seat], "final": final, "total": total})
    for p in penalties:
        if p["player"] == player:
            total = round(total - p["pt"], 1)
            out.append({"game": None, "rank": None, "final": -p["pt"], "total": total, "penalty": p["reason"]})
    return out
