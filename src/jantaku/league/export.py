"""CSV and JSON export of an event: standings (one row per player), games (one row per player per game), or
the whole event as JSON (:meth:`~jantaku.league.store.LeagueStore.export`).

>>> rows = [{"place": 1, "player": "a", "team": None, "total": 12.5, "games": 1, "average_rank": 1.0,
...          "ranks": [1, 0, 0, 0], "hands": 0, "wins": 0, "deal_ins": 0, "win_rate": None,
...          "deal_in_rate": None, "penalties": 0.0}]
>>> print(standings_csv(rows).splitlines()[1])
1,a,,12.5,1,1.0,1,0,0,0,0,0,0,,,0.0
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from jantaku.text import csv_cell

__all__ = ["STANDINGS_COLUMNS", "games_csv", "standings_csv", "to_json"]

STANDINGS_COLUMNS = (
    "place", "player", "team", "total", "games", "average_rank", "first", "second", "third", "fourth",
    "hands", "wins", "deal_ins", "win_rate", "deal_in_rate", "penalties",
)  # fmt: skip


def standings_csv(rows: list[dict[str, Any]]) -> str:
    """Standings as CSV, one row per player."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(STANDINGS_COLUMNS)
    w = _Safe(w)
    for r in rows:
        ranks = r["ranks"]
        w.writerow(
            [r["place"], r["player"], r["team"] or "", r["total"], r["games"], _blank(r["average_rank"]), *ranks,
             r["hands"], r["wins"], r["deal_ins"], _blank(r["win_rate"]), _blank(r["deal_in_rate"]), r["penalties"]]
        )  # fmt: skip
    return out.getvalue()


def games_csv(games: list[dict[str, Any]]) -> str:
    """Games as CSV, one row per player per game: game, table, source, status, seat, player,
    ``settled_score`` (a finished game's raw points with the riichi sticks left on the table settled as the rule
    set settles them - to the top under most, shared on a tie - so they differ from the last hand's scores by
    that share; a game in play's running points), rank and final score (finished games)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(("game", "table", "source", "status", "seat", "player", "settled_score", "rank", "final"))
    w = _Safe(w)
    for g in games:
        res = g.get("result") or {}
        for seat, name in enumerate(g["players"]):
            w.writerow(
                [g["id"], g["table"], g["source"], g["status"], seat, name,
                 (res.get("scores") or g["state"]["scores"])[seat],
                 _blank(res["ranks"][seat] if res else None), _blank(res["final"][seat] if res else None)]
            )  # fmt: skip
    return out.getvalue()


class _Safe:
    """A CSV writer whose text cells never start a formula (:func:`jantaku.text.csv_cell`): a name like
    ``=HYPERLINK(...)`` is written as ``'=HYPERLINK(...)``."""

    def __init__(self, writer: Any) -> None:
        self.writer = writer

    def writerow(self, row: list[Any]) -> None:
        self.writer.writerow([csv_cell(v) for v in row])


def to_json(data: Any) -> str:
    """JSON text of exported data (UTF-8 names kept readable)."""
    return json.dumps(data, ensure_ascii=False, indent=2, default=str)


def _blank(v: object) -> object:
    return "" if v is None else v
