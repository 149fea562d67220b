"""What spans events (part of :class:`~jantaku.league.store.LeagueStore`): ratings over every game played,
player profiles with their history in every event, and series - several events counted together.

A player is known by name across events. A series sums its events' standings (rank points, games, places,
penalties; each event settled under its own rule set) and rates its games alone.

>>> import os, tempfile
>>> from jantaku.league.store import LeagueStore
>>> store = LeagueStore(os.path.join(tempfile.mkdtemp(), "league.db"))
>>> for ev in ("Spring", "Autumn"):
...     _ = store.create_event(ev, "mleague")
...     for name in "ABCD":
...         _ = store.add_player(ev, name)
...     _ = store.quick_entry(ev, list("ABCD"), [40000, 30000, 20000, 10000])
>>> _ = store.create_series("Year", ["Spring", "Autumn"])
>>> [(r["player"], r["total"], r["games"]) for r in store.series("Year")["standings"]][:2]  # +60 and +10 a game
[('A', 120.0, 2), ('B', 20.0, 2)]
>>> store.ratings()["players"][0]["player"], store.profile("D")["events"][0]["place"]
('A', 4)
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from . import schema as t
from .errors import LeagueError, NotFoundError
from .values import checked_name, utc_now


class AcrossEvents:
    """Ratings, profiles and series (see the module); the methods named with an underscore are LeagueStore's."""

    engine: sa.Engine

    def _games_played(self, conn: sa.Connection, event_ids: list[int] | None) -> list[dict[str, Any]]:
        """Every finished game of the live events (or of ``event_ids``), in the order played: event, game id,
        when, the players by seat, their places and final points."""
        q = (
            sa.select(t.games.c.id, t.games.c.event_id, t.games.c.created, t.games.c.result, t.events.c.name)
            .select_from(t.games.join(t.events, t.events.c.id == t.games.c.event_id))
            .where(t.games.c.deleted.is_(None), t.events.c.deleted.is_(None), t.games.c.status == "finished")
            .order_by(t.games.c.created, t.games.c.id)
        )
        if event_ids is not None:
            q = q.where(t.games.c.event_id.in_(event_ids))
        out = []
        for r in conn.execute(q).all():
            if not r.result:
                continue
            out.append(
                {
                    "event": r.name,
                    "game": r.id,
                    "date": r.created.isoformat()[:10],
                    "players": self._seat_names(conn, r.id),  # type: ignore[attr-defined]
                    "ranks": list(r.result["ranks"]),
                    "final": list(r.result["final"]),
                }
            )
        return out

    def ratings(self, series: str | None = None) -> dict[str, Any]:
        """Every player's rating over the games of every event (or of a ``series``' events), best first, and
        the rating system's name (:mod:`jantaku.league.ratings`)."""
        from .ratings import MODEL, rate

        with self.engine.connect() as conn:
            ids = self._series_event_ids(conn, series) if series is not None else None
            games = self._games_played(conn, ids)
        return {"model": MODEL, "series": series, "players": rate(games)}

    def profile(self, player: str) -> dict[str, Any]:
        """A player's history across events: each event with their total, games and place in its standings,
        each game with its places and points, and their rating."""
        from .ratings import rate

        with self.engine.connect() as conn:
            events = [
                r._mapping
                for r in conn.execute(
                    sa.select(t.events.c.id, t.events.c.name, t.events.c.rules)
                    .select_from(t.events.join(t.players, t.players.c.event_id == t.events.c.id))
                    .where(t.players.c.name == player, t.players.c.deleted.is_(None), t.events.c.deleted.is_(None))
                    .order_by(t.events.c.id)
                )
            ]
            if not events:
                raise NotFoundError(f"no player {player!r} in any event")
            rows = []
            for ev in events:
                table = self._standings(conn, self._event(conn, ev["id"]))  # type: ignore[attr-defined]
                mine = next(r for r in table if r["player"] == player)
                rows.append(
                    {
                        "event": ev["name"],
                        "rules": ev["rules"],
                        "total": mine["total"],
                        "games": mine["games"],
                        "average_rank": mine["average_rank"],
                        "place": 1 + [r["player"] for r in table].index(player),
                        "of": len(table),
                    }
                )
            games = self._games_played(conn, None)
        played = [
            {"event": g["event"], "game": g["game"], "date": g["date"], "rank": g["ranks"][s], "final": g["final"][s]}
            for g in games
            for s, name in enumerate(g["players"])
            if name == player
        ]
        rating = next((r for r in rate(games) if r["player"] == player), None)
        return {"player": player, "events": rows, "games": played, "rating": rating}

    # -- series ------------------------------------------------------------------------------------------------

    def create_series(self, name: str, events: list[str], *, actor: str = "organiser") -> dict[str, Any]:
        """A series of ``events`` (names, at least one), counted together; its name is its own."""
        name = checked_name(name, "series name")
        if not isinstance(events, list) or not events or not all(isinstance(e, str) for e in events):
            raise LeagueError("a series lists its events by name (one at least)")
        with self._tx() as conn:  # type: ignore[attr-defined]
            ids = [self._event(conn, e)["id"] for e in events]  # type: ignore[attr-defined]
            if conn.execute(sa.select(t.series.c.id).where(t.series.c.name == name)).first():
                raise LeagueError(f"a series named {name!r} exists already")
            conn.execute(t.series.insert().values(name=name, events=ids, created=utc_now()))
            self._audit(conn, None, actor, "create_series", {"name": name, "events": events})  # type: ignore[attr-defined]
        return {"name": name, "events": events}

    def series_names(self) -> list[str]:
        """Every series' name, oldest first."""
        with self.engine.connect() as conn:
            return [r.name for r in conn.execute(sa.select(t.series.c.name).order_by(t.series.c.id))]

    def _series_event_ids(self, conn: sa.Connection, name: str) -> list[int]:
        row = conn.execute(sa.select(t.series.c.events).where(t.series.c.name == name)).first()
        if row is None:
            raise NotFoundError(f"no series {name!r}")
        live = {r.id for r in conn.execute(sa.select(t.events.c.id).where(t.events.c.deleted.is_(None)))}
        return [i for i in row.events if i in live]

    def series(self, name: str) -> dict[str, Any]:
        """A series: its events, the standings summed over them (best total first) and its ratings."""
        with self.engine.connect() as conn:
            ids = self._series_event_ids(conn, name)
            events = [self._event(conn, i) for i in ids]  # type: ignore[attr-defined]
            summed: dict[str, dict[str, Any]] = {}
            for ev in events:
                for r in self._standings(conn, ev):  # type: ignore[attr-defined]
                    row = summed.setdefault(
                        r["player"],
                        {"player": r["player"], "total": 0.0, "games": 0, "ranks": [0, 0, 0, 0], "events": 0},
                    )
                    row["total"] = round(row["total"] + r["total"], 1)
                    row["games"] += r["games"]
                    row["ranks"] = [a + b for a, b in zip(row["ranks"], r["ranks"], strict=True)]
                    row["events"] += 1 if r["games"] else 0
        for row in summed.values():
            row["average_rank"] = (
                round(sum((k + 1) * n for k, n in enumerate(row["ranks"])) / row["games"], 3) if row["games"] else None
            )
        played = [r for r in summed.values() if r["games"]]  # a substitute who never played is left out
        standings = sorted(played, key=lambda r: (-r["total"], r["average_rank"] or 9, r["player"]))
        return {
            "name": name,
            "events": [e["name"] for e in events],
            "standings": standings,
            "ratings": self.ratings(name)["players"],
        }
