"""The league recorder's storage and operations: events, players, teams, rounds, games and their entries,
penalties and the audit log, in SQLite (a file path) or PostgreSQL (a ``postgresql://`` URL).

Every change is one transaction that also writes an audit row. Adding an entry to a game locks the game's row
(``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite takes its write lock at the transaction's start), replays
the game's entries with the new one, stores it under the next number (unique per game) and bumps the game's
``version``: two organisers entering at once are served one after the other, and one who passes the number
they expect (``expected_seq``) gets a :class:`~jantaku.league.errors.ConflictError` instead of a hand entered
on top of someone else's.

>>> import tempfile, os
>>> store = LeagueStore(os.path.join(tempfile.mkdtemp(), "league.db"))
>>> ev = store.create_event("Autumn", "mleague")
>>> for name in "ABCD":
...     _ = store.add_player("Autumn", name)
>>> g = store.new_game("Autumn", ["A", "B", "C", "D"], first_dealer=0)
>>> store.add_entry(g, {"kind": "win", "wins": [{"winner": 1, "from": 0, "han": 2, "fu": 30}]})["state"]["scores"]
[23000, 27000, 25000, 25000]
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from jantaku.errors import JantakuError
from jantaku.extras import require
from jantaku.rules import Ruleset, load_rules
from jantaku.rules.loader import preset_names, rules_from_mapping

from . import schema as t
from .across_events import AcrossEvents
from .errors import (
    ConflictError,
    DuplicateImportError,
    EntryError,
    LeagueError,
    NotFoundError,
    StoreUnavailable,
)
from .migrations import head_revision, upgrade
from .recording import HAND_KINDS, ReplayedGame, replay_entries, result_data
from .seating import balance_winds, group_players, make_schedule, seat_table
from .table_entry import TableEntry, may_change, request_id_of, seat_at
from .values import checked_name as _name
from .values import hash_secret as _hash_password
from .values import utc_now as _now

__all__ = ["LeagueStore", "database_url"]


def database_url(db: str | Path) -> str:
    """A SQLAlchemy URL for ``db``: a file path is a SQLite database; ``postgresql://`` URLs use psycopg 3.

    >>> database_url("league.db")
    'sqlite:///league.db'
    >>> database_url("postgresql://u@localhost/league")
    'postgresql+psycopg://u@localhost/league'
    """
    text = str(db)
    if text.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        require("psycopg", "league", "a PostgreSQL league database")
    if text.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + text.split("://", 1)[1]
    if "://" in text:
        if text.startswith(("sqlite://", "postgresql+psycopg://")):
            return text
        raise LeagueError(f"--db is a file path (SQLite) or a postgresql:// URL, got {text[:100]!r}")
    return f"sqlite:///{text}"


MIN_PASSWORD_LENGTH = 8
"""The shortest organiser password an event takes (issue 32: guessing is slowed per address, and a short
password would still fall to many addresses)."""


class LeagueStore(TableEntry, AcrossEvents):
    """The recorder's database and every operation on it. ``db`` is a file path or a PostgreSQL URL."""

    def __init__(self, db: str | Path, *, create: bool = True) -> None:
        """Open ``db``; a SQLite file that does not exist is created (``create``) or refused, naming it, so a
        read-only command never leaves a new database behind. A missing folder is always refused."""
        url = database_url(db)
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            path = url[len("sqlite:///") :]
            if path and path != ":memory:" and not Path(path).parent.exists():
                raise LeagueError(f"no folder for the database {path!r}")
            if path and path != ":memory:" and not create and not Path(path).exists():
                raise LeagueError(
                    f"no league database at {path!r}: create an event first (jantaku league create EVENT --rules "
                    "PRESET), or name the database with --db"
                )
            self.engine = sa.create_engine(url, connect_args={"timeout": 60})
            _sqlite_write_locks(self.engine)
        else:
            self.engine = sa.create_engine(url, pool_pre_ping=True)
        try:
            upgrade(self.engine)
        except OperationalError as e:
            shown = sa.make_url(url).render_as_string(hide_password=True)
            raise LeagueError(f"cannot open the database {shown}: {str(e.orig).strip().splitlines()[0]}") from None
        except DBAPIError as e:  # a migration the database refused: it is left as it was (one transaction)
            shown = sa.make_url(url).render_as_string(hide_password=True)
            raise LeagueError(
                f"cannot bring the database {shown} up to this jantaku's schema ({head_revision()}): "
                f"{str(e.orig).strip().splitlines()[0]}; the database is unchanged"
            ) from None
        self._rules_cache: dict[int, Ruleset] = {}

    def close(self) -> None:
        """Close the database connections."""
        self.engine.dispose()

    # -- transactions and the audit log -------------------------------------------------------------------

    @contextmanager
    def _tx(self) -> Iterator[sa.Connection]:
        try:
            with self.engine.begin() as conn:
                yield conn
        except OperationalError as e:
            raise StoreUnavailable(
                f"the database refused the change ({str(e.orig).strip().splitlines()[0]}): nothing was changed, "
                "try again later"
            ) from None

    def _audit(
        self, conn: sa.Connection, event_id: int | None, actor: str, action: str, detail: dict[str, Any]
    ) -> None:
        conn.execute(t.audit.insert().values(event_id=event_id, at=_now(), actor=actor, action=action, detail=detail))

    def audit_log(self, event: str | int) -> list[dict[str, Any]]:
        """Every change to an event, oldest first."""
        with self.engine.connect() as conn:
            ev = self._event(conn, event)
            rows = conn.execute(t.audit.select().where(t.audit.c.event_id == ev["id"]).order_by(t.audit.c.id))
            return [{"at": r.at.isoformat(), "actor": r.actor, "action": r.action, "detail": r.detail} for r in rows]

    # -- events, teams, players ----------------------------------------------------------------------------

    def create_event(
        self, name: str, rules: str | Path, *, admin_password: str | None = None, actor: str = "organiser"
    ) -> dict[str, Any]:
        """A new event under a rule set: a preset name or a user's TOML rule file (kept in the database).
        ``admin_password``, the organiser's password for the web pages, has at least
        :data:`MIN_PASSWORD_LENGTH` characters; without one the event is read-only on the web."""
        name = _name(name, "event name")
        if admin_password is not None and len(admin_password) < MIN_PASSWORD_LENGTH:
            raise LeagueError(f"an organiser password has at least {MIN_PASSWORD_LENGTH} characters")
        rules_text = None
        spec = str(rules)
        if spec not in preset_names():
            path = Path(spec)
            if not path.is_file():
                raise LeagueError(
                    f"rules must be a preset ({', '.join(preset_names())}) or a TOML rule file, got {spec!r}"
                )
            rules_text = path.read_text(encoding="utf-8")
            ruleset = _rules_from_text(rules_text, spec)
            spec = ruleset.name
        ruleset = _rules_from_text(rules_text, spec) if rules_text else load_rules(spec)
        if ruleset.family != "riichi":
            raise LeagueError(f"the league recorder keeps riichi games; rule set {ruleset.name} is {ruleset.family}")
        with self._tx() as conn:
            if conn.execute(sa.select(t.events.c.id).where(t.events.c.name == name)).first():
                raise LeagueError(f"an event named {name!r} exists already")
            admin_hash = _hash_password(admin_password) if admin_password else None
            eid = conn.execute(
                t.events.insert().values(
                    name=name, rules=spec, rules_toml=rules_text, admin_hash=admin_hash, created=_now()
                )
            ).inserted_primary_key[0]
            self._audit(conn, eid, actor, "create_event", {"name": name, "rules": spec})
        return {"id": eid, "name": name, "rules": spec}

    def events(self) -> list[dict[str, Any]]:
        """Every event: id, name and rule set."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(t.events.c.id, t.events.c.name, t.events.c.rules)
                .where(t.events.c.deleted.is_(None))
                .order_by(t.events.c.id)
            )
            return [{"id": r.id, "name": r.name, "rules": r.rules} for r in rows]

    def check_admin(self, event: str | int, password: str) -> bool:
        """Whether ``password`` is the event's organiser password (an event without one accepts none)."""
        with self.engine.connect() as conn:
            ev = self._event(conn, event)
        stored = ev["admin_hash"]
        if not stored:
            return True
        salt, _ = stored.split("$", 1)
        return hmac.compare_digest(_hash_password(password or "", bytes.fromhex(salt)), stored)

    def rules(self, event: str | int) -> Ruleset:
        """The event's rule set."""
        with self.engine.connect() as conn:
            return self._rules(self._event(conn, event))

    def _rules(self, ev: dict[str, Any]) -> Ruleset:
        cached = self._rules_cache.get(ev["id"])
        if cached is None:
            cached = _rules_from_text(ev["rules_toml"], ev["rules"]) if ev["rules_toml"] else load_rules(ev["rules"])
            self._rules_cache[ev["id"]] = cached
        return cached

    def _event(self, conn: sa.Connection, event: str | int) -> dict[str, Any]:
        col = t.events.c.id if isinstance(event, int) else t.events.c.name
        row = conn.execute(t.events.select().where(col == event, t.events.c.deleted.is_(None))).mappings().first()
        if row is None:
            raise NotFoundError(f"no event {event!r}")
        return dict(row)

    def add_team(self, event: str | int, name: str, *, actor: str = "organiser") -> int:
        """A team of the event (M-League is a team league: team totals beside the individual ones)."""
        name = _name(name, "team name")
        with self._tx() as conn:
            ev = self._event(conn, event)
            if conn.execute(
                sa.select(t.teams.c.id).where(t.teams.c.event_id == ev["id"], t.teams.c.name == name)
            ).first():
                raise LeagueError(f"team {name!r} exists already")
            tid = conn.execute(t.teams.insert().values(event_id=ev["id"], name=name)).inserted_primary_key[0]
            self._audit(conn, ev["id"], actor, "add_team", {"name": name})
        return int(tid)

    def add_player(
        self,
        event: str | int,
        name: str,
        *,
        team: str | None = None,
        substitute: bool = False,
        actor: str = "organiser",
    ) -> int:
        """A player of the event, optionally in a team; a ``substitute`` plays only in someone's place
        (:meth:`substitute`), never seated by a round's draw."""
        name = _name(name, "player name")
        with self._tx() as conn:
            ev = self._event(conn, event)
            team_id = None
            if team:
                row = conn.execute(
                    sa.select(t.teams.c.id).where(t.teams.c.event_id == ev["id"], t.teams.c.name == team)
                ).first()
                if row is None:
                    raise NotFoundError(f"no team {team!r} in {ev['name']} (add it first)")
                team_id = row.id
            if conn.execute(
                sa.select(t.players.c.id).where(t.players.c.event_id == ev["id"], t.players.c.name == name)
            ).first():
                raise LeagueError(f"player {name!r} exists already")
            pid = conn.execute(
                t.players.insert().values(event_id=ev["id"], name=name, team_id=team_id, substitute=bool(substitute))
            ).inserted_primary_key[0]
            detail = {"name": name, "team": team, **({"substitute": True} if substitute else {})}
            self._audit(conn, ev["id"], actor, "add_player", detail)
        return int(pid)

    def players(self, event: str | int) -> list[dict[str, Any]]:
        """The event's players: id, name, team, whether a substitute."""
        with self.engine.connect() as conn:
            ev = self._event(conn, event)
            return self._players(conn, ev["id"])

    def _players(self, conn: sa.Connection, event_id: int) -> list[dict[str, Any]]:
        q = (
            sa.select(t.players.c.id, t.players.c.name, t.teams.c.name.label("team"), t.players.c.substitute)
            .select_from(t.players.outerjoin(t.teams, t.players.c.team_id == t.teams.c.id))
            .where(t.players.c.event_id == event_id, t.players.c.deleted.is_(None))
            .order_by(t.players.c.id)
        )
        return [dict(r) for r in conn.execute(q).mappings()]

    def teams(self, event: str | int) -> list[str]:
        """The event's team names."""
        with self.engine.connect() as conn:
            ev = self._event(conn, event)
            rows = conn.execute(sa.select(t.teams.c.name).where(t.teams.c.event_id == ev["id"]).order_by(t.teams.c.id))
            return [r.name for r in rows]

    # -- renaming and deleting (soft: the rows stay, with the audit) -----------------------------------------

    def rename_event(self, event: str | int, name: str, *, actor: str = "organiser") -> dict[str, Any]:
        """Give the event a new name (its games, players and audit stay); :class:`ConflictError` when another
        event has it."""
        name = _name(name, "event name")
        with self._tx() as conn:
            ev = self._event(conn, event)
            if name != ev["name"] and conn.execute(sa.select(t.events.c.id).where(t.events.c.name == name)).first():
                raise ConflictError(f"an event named {name!r} exists already")
            conn.execute(t.events.update().where(t.events.c.id == ev["id"]).values(name=name))
            self._audit(conn, ev["id"], actor, "rename_event", {"from": ev["name"], "to": name})
        return {"id": ev["id"], "name": name, "rules": ev["rules"]}

    def delete_event(self, event: str | int, *, actor: str = "organiser") -> None:
        """Delete the event: it leaves every list and its name is free again; its rows and its audit stay in
        the database (the audit row names it)."""
        with self._tx() as conn:
            ev = self._event(conn, event)
            conn.execute(
                t.events.update()
                .where(t.events.c.id == ev["id"])
                .values(deleted=_now(), name=_freed(ev["name"], ev["id"]))
            )
            self._audit(conn, ev["id"], actor, "delete_event", {"name": ev["name"]})

    def rename_player(self, event: str | int, name: str, new: str, *, actor: str = "organiser") -> None:
        """Give a player a new name: their games, penalties and standing follow (they are kept by the player's
        number, not the name); :class:`ConflictError` when another player of the event has it."""
        new = _name(new, "player name")
        with self._tx() as conn:
            ev = self._event(conn, event)
            pid = self._player_id(conn, ev, name)
            taken = conn.execute(
                sa.select(t.players.c.id).where(t.players.c.event_id == ev["id"], t.players.c.name == new)
            ).first()
            if taken is not None and taken.id != pid:
                raise ConflictError(f"player {new!r} exists already")
            conn.execute(t.players.update().where(t.players.c.id == pid).values(name=new))
            self._audit(conn, ev["id"], actor, "rename_player", {"from": name, "to": new})

    def delete_player(self, event: str | int, name: str, *, actor: str = "organiser") -> None:
        """Delete a player who has played no game and has no penalty (a wrong entry in the list); a player with
        games keeps them: delete the games first (:class:`ConflictError`)."""
        with self._tx() as conn:
            ev = self._event(conn, event)
            pid = self._player_id(conn, ev, name)
            games = conn.execute(
                sa.select(sa.func.count())
                .select_from(t.seats.join(t.games, t.seats.c.game_id == t.games.c.id))
                .where(t.seats.c.player_id == pid, t.games.c.deleted.is_(None))
            ).scalar_one()
            penalties = conn.execute(
                sa.select(sa.func.count()).select_from(t.penalties).where(t.penalties.c.player_id == pid)
            ).scalar_one()
            if games or penalties:
                raise ConflictError(
                    f"player {name!r} has {games} game(s) and {penalties} penalty(ies) in {ev['name']}: delete the "
                    "games first (a penalty stays with the standings)"
                )
            conn.execute(t.players.update().where(t.players.c.id == pid).values(deleted=_now(), name=_freed(name, pid)))
            self._audit(conn, ev["id"], actor, "delete_player", {"name": name})

    def delete_game(self, game_id: int, *, actor: str = "organiser") -> None:
        """Delete a game (a table entered twice, a game that did not count): it leaves the games, the standings,
        the histories and the exports; its entries and the audit stay in the database."""
        with self._tx() as conn:
            g = self._game_row(conn, game_id, lock=True)
            names = self._seat_names(conn, game_id)
            conn.execute(t.games.update().where(t.games.c.id == game_id).values(deleted=_now()))
            self._audit(
                conn, g["event_id"], actor, "delete_game", {"game": game_id, "players": names, "status": g["status"]}
            )

    def _player_id(self, conn: sa.Connection, ev: dict[str, Any], name: str) -> int:
        row = conn.execute(
            sa.select(t.players.c.id).where(
                t.players.c.event_id == ev["id"], t.players.c.name == name, t.players.c.deleted.is_(None)
            )
        ).first()
        if row is None:
            raise NotFoundError(f"no player {name!r} in {ev['name']}")
        return int(row.id)

    def _player_ids(self, conn: sa.Connection, event_id: int, names: list[str]) -> list[int]:
        by_name = {p["name"]: p["id"] for p in self._players(conn, event_id)}
        ids = []
        for n in names:
            if n not in by_name:
                raise NotFoundError(f"no player {n!r} in this event (add the player first)")
            ids.append(by_name[n])
        return ids

    # -- rounds and games ----------------------------------------------------------------------------------

    def seat_round(
        self,
        event: str | int,
        method: str = "random",
        *,
        players: list[str] | None = None,
        seed: int | str | None = None,
        draw: bool = True,
        expected_round: int | None = None,
        actor: str = "organiser",
    ) -> dict[str, Any]:
        """Seat a new round (``expected_round``: the number it should get, as the organiser's page saw the
        event; another round seated meanwhile makes it a :class:`ConflictError`, nothing seated): group the
        players into tables (``random``, ``balanced``, ``swiss``, ``given``:
        ``players`` in table order, or ``prescripted``: the event's schedule, :meth:`make_schedule`; random,
        balanced and swiss never seat two teammates at one table where the teams allow it, nor a substitute)
        and seat each table by the rule set's draw (``draw``), or without it East first with the first dealer
        at seat 0: as given, as the schedule says, or else each player at the wind they have sat at least.
        Returns the round number and its games."""
        seed = secrets.randbelow(10**9) if seed is None else seed
        with self._tx() as conn:
            ev = self._event(conn, event)
            rules = self._rules(ev)
            roster = self._players(conn, ev["id"])
            names = players if players is not None else [p["name"] for p in roster if not p["substitute"]]
            teams = {p["name"]: p["team"] for p in roster if p.get("team")}
            standing: dict[str, float] = {}
            met: set[frozenset[str]] = set()
            if method in ("swiss", "balanced"):
                met = self._met(conn, ev["id"])
            if method == "swiss":
                for row in self._standings(conn, ev):
                    standing[row["player"]] = row["total"]
            number = (
                conn.execute(sa.select(sa.func.max(t.rounds.c.number)).where(t.rounds.c.event_id == ev["id"])).scalar()
                or 0
            ) + 1
            if expected_round is not None and expected_round != number:
                raise ConflictError(
                    f"{ev['name']} has {number - 1} round(s) now, so this would be round {number}, not "
                    f"{expected_round}: someone else seated one meanwhile; reload and check"
                )
            if method == "prescripted":
                schedule = ev["schedule"] or []
                if number > len(schedule):
                    raise LeagueError(
                        f"{ev['name']}'s schedule has {len(schedule)} round(s), so no round {number}: make a "
                        "schedule first (jantaku league schedule), or seat this round another way"
                    )
                tables = [list(table) for table in schedule[number - 1]]
            else:
                tables = group_players(names, method, seed=seed, standing=standing, met=met, teams=teams)
            if not draw and method not in ("given", "prescripted"):
                sat = self._winds_sat(conn, ev["id"])
                tables = [list(balance_winds(table, sat, seed=f"{seed}:{n}")) for n, table in enumerate(tables)]
            try:
                rid = conn.execute(
                    t.rounds.insert().values(event_id=ev["id"], number=number, method=method)
                ).inserted_primary_key[0]
            except IntegrityError:
                raise ConflictError(f"round {number} was seated by someone else just now") from None
            games = []
            for n, table in enumerate(tables, 1):
                seated = seat_table(table, rules.seating, draw=draw, seed=f"{seed}:{number}:{n}")
                gid = self._insert_game(
                    conn, ev, list(seated.players), seated.first_dealer, rid, n, "hands", seated.draw_data()
                )
                games.append(
                    {
                        "game": gid,
                        "table": n,
                        "players": list(seated.players),
                        "first_dealer": seated.first_dealer,
                        "draw": seated.draw_data(),
                    }
                )
            self._audit(
                conn,
                ev["id"],
                actor,
                "seat_round",
                {"round": number, "method": method, "seed": str(seed), "games": games},
            )
        return {"round": number, "games": games}

    def _winds_sat(self, conn: sa.Connection, event_id: int) -> dict[str, dict[int, int]]:
        """How often each player sat at each wind (0 East ... 3 North, from each game's first dealer)."""
        q = (
            sa.select(t.seats.c.seat, t.games.c.first_dealer, t.players.c.name)
            .select_from(
                t.seats.join(t.players, t.seats.c.player_id == t.players.c.id).join(
                    t.games, t.games.c.id == t.seats.c.game_id
                )
            )
            .where(t.games.c.event_id == event_id, t.games.c.deleted.is_(None))
        )
        sat: dict[str, dict[int, int]] = {}
        for r in conn.execute(q):
            wind = (r.seat - r.first_dealer) % 4
            sat.setdefault(r.name, {})[wind] = sat.get(r.name, {}).get(wind, 0) + 1
        return sat

    def make_schedule(
        self, event: str | int, rounds: int, *, seed: int | str | None = None, actor: str = "organiser"
    ) -> list[list[list[str]]]:
        """Decide every round's tables ahead (a prescripted event, seated with ``method="prescripted"``): the
        players but the substitutes, each round with the fewest repeated pairings, teammates apart, each
        player's winds balanced (:func:`~jantaku.league.seating.make_schedule`). A schedule made again replaces
        the rounds not yet seated and keeps the ones that were."""
        seed = secrets.randbelow(10**9) if seed is None else seed
        with self._tx() as conn:
            ev = self._event(conn, event)
            roster = [p for p in self._players(conn, ev["id"]) if not p["substitute"]]
            teams = {p["name"]: p["team"] for p in roster if p.get("team")}
            seated = (
                conn.execute(sa.select(sa.func.max(t.rounds.c.number)).where(t.rounds.c.event_id == ev["id"])).scalar()
                or 0
            )
            kept = list(ev["schedule"] or [])[:seated]
            ahead = make_schedule([p["name"] for p in roster], rounds, seed=seed, teams=teams)
            schedule = kept + ahead[: max(0, rounds - len(kept))] if kept else ahead
            conn.execute(t.events.update().where(t.events.c.id == ev["id"]).values(schedule=schedule))
            self._audit(conn, ev["id"], actor, "make_schedule", {"rounds": rounds, "seed": str(seed)})
        return schedule

    def schedule(self, event: str | int) -> list[list[list[str]]]:
        """The event's prescripted schedule (``[]``: none made)."""
        with self.engine.connect() as conn:
            return list(self._event(conn, event)["schedule"] or [])

    def substitute(self, game_id: int, seat: int, player: str, *, actor: str = "organiser") -> dict[str, Any]:
        """``player`` (of the event; a substitute or not) takes seat ``seat`` of a game, from its start or part
        way through: the game's result is theirs from then on (a team's, their team's). The audit log keeps who
        was replaced."""
        from .validation import check_seat

        seat = check_seat(seat)
        with self._tx() as conn:
            g = self._game_row(conn, game_id, lock=True)
            ev = self._event(conn, g["event_id"])
            names = self._seat_names(conn, game_id)
            if player in names:
                raise LeagueError(f"{player} sits at game {game_id} already")
            pid = self._player_id(conn, ev, player)
            conn.execute(
                t.seats.update().where(t.seats.c.game_id == game_id, t.seats.c.seat == seat).values(player_id=pid)
            )
            detail = {"game": game_id, "seat": seat, "out": names[seat], "in": player, "entries": None}
            detail["entries"] = len(self._entries(conn, game_id))
            self._audit(conn, ev["id"], actor, "substitute", detail)
        return detail

    def _met(self, conn: sa.Connection, event_id: int) -> set[frozenset[str]]:
        q = (
            sa.select(t.seats.c.game_id, t.players.c.name)
            .select_from(t.seats.join(t.players, t.seats.c.player_id == t.players.c.id))
            .where(t.players.c.event_id == event_id)
        )
        by_game: dict[int, list[str]] = {}
        for r in conn.execute(q):
            by_game.setdefault(r.game_id, []).append(r.name)
        met: set[frozenset[str]] = set()
        for names in by_game.values():
            for i, a in enumerate(names):
                for b in names[i + 1 :]:
                    met.add(frozenset((a, b)))
        return met

    def new_game(
        self,
        event: str | int,
        players: list[str],
        *,
        first_dealer: int | None = None,
        draw: bool = False,
        seed: int | str = 0,
        table: int = 1,
        actor: str = "organiser",
    ) -> int:
        """A game of four players: in seat order (seat 0 the table's East seat) with ``first_dealer`` (default
        seat 0), or seated by the rule set's draw (``draw``)."""
        with self._tx() as conn:
            ev = self._event(conn, event)
            rules = self._rules(ev)
            seated = seat_table(list(players), rules.seating, draw=draw, seed=seed, first_dealer=first_dealer or 0)
            gid = self._insert_game(
                conn, ev, list(seated.players), seated.first_dealer, None, table, "hands", seated.draw_data()
            )
            self._audit(
                conn,
                ev["id"],
                actor,
                "new_game",
                {
                    "game": gid,
                    "players": list(seated.players),
                    "first_dealer": seated.first_dealer,
                    "draw": seated.draw_data(),
                },
            )
        return gid

    def _insert_game(
        self,
        conn: sa.Connection,
        ev: dict[str, Any],
        players: list[str],
        first_dealer: int,
        round_id: int | None,
        table: int,
        source: str,
        draw: dict[str, Any] | None,
    ) -> int:
        ids = self._player_ids(conn, ev["id"], players)
        if len(set(ids)) != 4:
            raise LeagueError(f"a game seats four different players, got {players}")
        state = replay_entries(self._rules(ev), first_dealer, []).state()
        gid = conn.execute(
            t.games.insert().values(
                event_id=ev["id"],
                round_id=round_id,
                table_no=table,
                source=source,
                first_dealer=first_dealer,
                draw=draw,
                status="playing",
                state=state,
                result=None,
                version=0,
                created=_now(),
            )
        ).inserted_primary_key[0]
        conn.execute(t.seats.insert(), [{"game_id": gid, "seat": s, "player_id": p} for s, p in enumerate(ids)])
        return int(gid)

    def _game_row(self, conn: sa.Connection, game_id: int, lock: bool = False) -> dict[str, Any]:
        live_events = sa.select(t.events.c.id).where(t.events.c.deleted.is_(None))
        q = t.games.select().where(
            t.games.c.id == game_id, t.games.c.deleted.is_(None), t.games.c.event_id.in_(live_events)
        )
        if lock and not self.is_sqlite:
            q = q.with_for_update()
        row = conn.execute(q).mappings().first()
        if row is None:
            raise NotFoundError(f"no game {game_id!r}")
        return dict(row)

    def _entries(self, conn: sa.Connection, game_id: int) -> list[dict[str, Any]]:
        rows = conn.execute(t.entries.select().where(t.entries.c.game_id == game_id).order_by(t.entries.c.seq))
        return [dict(r) for r in rows.mappings()]

    def _seat_names(self, conn: sa.Connection, game_id: int) -> list[str]:
        q = (
            sa.select(t.seats.c.seat, t.players.c.name)
            .select_from(t.seats.join(t.players, t.seats.c.player_id == t.players.c.id))
            .where(t.seats.c.game_id == game_id)
            .order_by(t.seats.c.seat)
        )
        return [r.name for r in conn.execute(q)]

    def game(self, game_id: int) -> dict[str, Any]:
        """A game: its players by seat, first dealer, entries (with what each did), running state and result,
        its version (each change adds one) and who may win on one discard under its rule set (``multiple_ron``)."""
        with self.engine.connect() as conn:
            g = self._game_row(conn, game_id)
            entries = self._entries(conn, game_id)
            names = self._seat_names(conn, game_id)
            rules = self._rules(self._event(conn, g["event_id"]))
            round_number = (
                conn.execute(sa.select(t.rounds.c.number).where(t.rounds.c.id == g["round_id"])).scalar()
                if g["round_id"] is not None
                else None
            )
        return {
            "id": g["id"],
            "event_id": g["event_id"],
            "round": round_number,
            "table": g["table_no"],
            "source": g["source"],
            "players": names,
            "first_dealer": g["first_dealer"],
            "draw": g["draw"],
            "status": g["status"],
            "state": g["state"],
            "result": g["result"],
            "version": g["version"],
            "multiple_ron": rules.multiple_ron,
            "entries": [
                {
                    "seq": e["seq"],
                    "kind": e["kind"],
                    "data": e["data"],
                    "outcome": e["outcome"],
                    "entered_by": e["entered_by"],
                    "confirmed": e["confirmed"],  # None: the organiser's (nothing to confirm)
                    "waiting": [n for i, n in enumerate(names) if i not in e["confirmed"]]
                    if e["confirmed"] is not None
                    else [],
                }
                for e in entries
            ],
        }

    def games(self, event: str | int) -> list[dict[str, Any]]:
        """The event's games, oldest first (as :meth:`game`, without entries)."""
        with self.engine.connect() as conn:
            ev = self._event(conn, event)
            ids = [
                r.id
                for r in conn.execute(
                    sa.select(t.games.c.id)
                    .where(t.games.c.event_id == ev["id"], t.games.c.deleted.is_(None))
                    .order_by(t.games.c.id)
                )
            ]
        out = []
        for gid in ids:
            g = self.game(gid)
            g.pop("entries")
            out.append(g)
        return out

    # -- entries -------------------------------------------------------------------------------------------

    def add_entry(
        self,
        game_id: int,
        entry: dict[str, Any],
        *,
        expected_seq: int | None = None,
        expected_version: int | None = None,
        actor: str | None = None,
        player: str | None = None,
        request_id: str | None = None,
    ) -> dict[str, Any]:
        """Add an entry (a hand, a chombo, a card, a penalty; see :mod:`jantaku.league.recording`) to a game.
        ``expected_seq`` is the number the entry should get and ``expected_version`` the game's version as the
        organiser last saw it (:meth:`game`): if someone changed the game meanwhile, a :class:`ConflictError`
        saying what changed, and nothing is written. ``player``: a player of the table writes it (it waits for
        the others' confirmations, :mod:`jantaku.league.table_entry`); ``request_id``: the writer's id for this
        write (sent again, it is answered with the entry stored the first time). Returns the entry's number,
        what it did, the game's state, its new version and the entry it replaced (``None`` here)."""
        return self._change(
            game_id,
            actor,
            "add_entry",
            entry=entry,
            expected_seq=expected_seq,
            expected_version=expected_version,
            request_id=request_id,
            player=player,
        )

    def correct_last(
        self,
        game_id: int,
        entry: dict[str, Any] | None,
        *,
        expected_seq: int | None = None,
        expected_version: int | None = None,
        actor: str | None = None,
        player: str | None = None,
        request_id: str | None = None,
    ) -> dict[str, Any]:
        """Replace the game's last entry with ``entry`` (``None``: delete it). The old entry is kept in the
        audit log and returned as ``replaced``. A ``player`` changes only an entry of a player that not the
        whole table confirmed."""
        return self._change(
            game_id,
            actor,
            "correct_last",
            entry=entry,
            expected_seq=expected_seq,
            expected_version=expected_version,
            replace=True,
            request_id=request_id,
            player=player,
        )

    def correct_entry(
        self,
        game_id: int,
        seq: int,
        entry: dict[str, Any] | None,
        *,
        expected_version: int | None = None,
        actor: str = "organiser",
    ) -> dict[str, Any]:
        """Replace entry number ``seq`` of a game, finished or not, with ``entry`` (``None``: delete it; the
        entries after it move up one number). Every entry after it is replayed through the engine again: the
        scores, honba, sticks and dealer of the hands that follow, and the game's end, follow the correction
        (a correction that would end the game before its last entry is refused). The old entry is kept in the
        audit log; :meth:`preview_correction` shows the consequences without writing."""
        return self._change(
            game_id, actor, "correct_entry", entry=entry, expected_seq=None, expected_version=expected_version, at=seq
        )

    def preview_correction(self, game_id: int, seq: int, entry: dict[str, Any] | None) -> dict[str, Any]:
        """What :meth:`correct_entry` would change, without writing: the game's state and result before and after,
        and each entry whose outcome would change (its number, the outcome before and after)."""
        with self.engine.connect() as conn:
            g = self._game_row(conn, game_id)
            ev = self._event(conn, g["event_id"])
            entries = self._entries(conn, game_id)
            index = self._entry_index(game_id, entries, seq)
            entry = self._clean_entry(entry)
            data = [e["data"] for e in entries]
            data[index : index + 1] = [entry] if entry is not None else []
            self._check_source(g, entry)
            after = replay_entries(self._rules(ev), g["first_dealer"], data)
        changed = []
        for i in range(index, len(entries)):
            # deleted: the later entries move up one place
            new = after.outcomes[i] if entry is not None else (None if i == index else after.outcomes[i - 1])
            if i == index or new != entries[i]["outcome"]:
                changed.append({"seq": entries[i]["seq"], "before": entries[i]["outcome"], "after": new})
        return {
            "game": game_id,
            "version": g["version"],
            "before": {"state": g["state"], "result": g["result"]},  # as stored: the game before the correction
            "after": {"state": after.state(), "result": result_data(after.result) if after.over else None},
            "entries": changed,
        }

    @staticmethod
    def _clean_entry(entry: dict[str, Any] | None) -> dict[str, Any] | None:
        if entry is not None and not isinstance(entry, dict):
            raise EntryError(f"an entry is a mapping with a kind, got {entry!r}")
        return json.loads(json.dumps(entry)) if entry is not None else None  # JSON-clean, as it will be stored

    @staticmethod
    def _entry_index(game_id: int, entries: list[dict[str, Any]], seq: int) -> int:
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise EntryError(f"an entry's number is a whole number, got {seq!r}")
        for i, e in enumerate(entries):
            if e["seq"] == seq:
                return i
        raise NotFoundError(f"game {game_id} has no entry {seq} (it has {len(entries)})")

    @staticmethod
    def _check_source(g: dict[str, Any], entry: dict[str, Any] | None) -> None:
        if g["source"] != "hands" and entry is not None and entry.get("kind") in HAND_KINDS:
            raise EntryError(f"game {g['id']} was entered by its final scores ({g['source']}): no hands")

    def _check_version(self, conn: sa.Connection, g: dict[str, Any], expected: int | None) -> None:
        """Refuse a change prepared on an older version of the game, naming the changes made since."""
        if expected is None or expected == g["version"]:
            return
        if isinstance(expected, bool) or not isinstance(expected, int):
            raise EntryError(f"a game's version is a whole number, got {expected!r}")
        since = []
        rows = conn.execute(
            t.audit.select().where(t.audit.c.event_id == g["event_id"]).order_by(t.audit.c.id.desc()).limit(200)
        )
        for r in rows:
            d = r.detail or {}
            if d.get("game") == g["id"] and isinstance(d.get("version"), int) and d["version"] > expected:
                what = r.action.replace("_", " ")
                if d.get("seq") is not None:
                    what += f" {d['seq']}"
                since.append(f"{what} by {r.actor}")
        told = f" ({'; '.join(reversed(since))})" if since else ""
        raise ConflictError(
            f"game {g['id']} changed since you loaded it (version {g['version']}, not {expected}){told}: "
            "reload and check"
        )

    def _change(
        self,
        game_id: int,
        actor: str | None,
        action: str,
        *,
        entry: dict[str, Any] | None,
        expected_seq: int | None,
        expected_version: int | None = None,
        replace: bool = False,
        at: int | None = None,
        request_id: str | None = None,
        player: str | None = None,
    ) -> dict[str, Any]:
        """Every write of an entry: ``player`` is the writer when a player of the table writes (the entry then
        waits for the other players' confirmations, and a player changes only what is not confirmed by all;
        ``actor`` defaults to ``player NAME``, else ``organiser``), ``request_id`` the writer's own id for the
        write (sent again after a lost answer, the entry it stored is answered, ``"repeat": True``, and nothing
        is written twice)."""
        entry = self._clean_entry(entry)
        request_id = request_id_of(request_id)
        actor = actor or (f"player {player}" if player else "organiser")
        seq = 0
        try:
            with self._tx() as conn:
                g = self._game_row(conn, game_id, lock=True)
                seat = seat_at(self._seat_names(conn, game_id), player, game_id) if player is not None else None
                ev = self._event(conn, g["event_id"])
                entries = self._entries(conn, game_id)
                if request_id is not None:
                    for e in entries:
                        if e["request_id"] == request_id:  # written already: its answer again, nothing more
                            return self._repeat(g, e)
                self._check_version(conn, g, expected_version)
                last = entries[-1] if entries else None
                index = len(entries)  # where the entry goes (or which one it replaces)
                if at is not None:
                    index = self._entry_index(game_id, entries, at)
                    seq = at
                elif replace:
                    if last is None:
                        raise LeagueError(f"game {game_id} has no entry to correct")
                    if expected_seq is not None and expected_seq != last["seq"]:
                        raise ConflictError(
                            f"game {game_id}'s last entry is now number {last['seq']}, not {expected_seq}: "
                            "someone else entered one meanwhile; reload and check"
                        )
                    index, seq = len(entries) - 1, last["seq"]
                else:
                    seq = (last["seq"] if last else 0) + 1
                    if expected_seq is not None and expected_seq != seq:
                        raise ConflictError(
                            f"game {game_id} has {seq - 1} entries now, so this would be number {seq}, not "
                            f"{expected_seq}: someone else entered one meanwhile; reload and check"
                        )
                self._check_source(g, entry)
                old = entries[index] if index < len(entries) else None
                if seat is not None and old is not None:
                    may_change(old, seat)
                if old is None and entry is not None and self._clock_ran_out(conn, g, entries, entry):
                    # the round's time ran out before this hand was entered: it is the hand in play, the last
                    # (000 Art 24(2)); the clock's entry goes first
                    self._add_time_up(conn, g, ev, entries)
                    g = self._game_row(conn, game_id, lock=True)
                    entries = self._entries(conn, game_id)
                    index = len(entries)
                    seq = entries[-1]["seq"] + 1
                data = [e["data"] for e in entries]
                data[index : index + (old is not None)] = [entry] if entry is not None else []
                replayed = replay_entries(self._rules(ev), g["first_dealer"], data)
                meta = {
                    "entered_by": actor,
                    "confirmed": [seat] if seat is not None else None,
                    "request_id": request_id,
                }
                self._write_entries(conn, game_id, entries, index, entry, replayed, meta)
                self._store_state(conn, g, replayed)
                detail: dict[str, Any] = {"game": game_id, "seq": seq, "entry": entry, "version": g["version"] + 1}
                if old is not None:
                    detail["replaced"] = old["data"]
                self._audit(conn, ev["id"], actor, action, detail)
        except IntegrityError:
            if request_id is not None:  # the same write, sent twice at once: the other one stored it
                with self.engine.connect() as conn:
                    for e in self._entries(conn, game_id):
                        if e["request_id"] == request_id:
                            return self._repeat(self._game_row(conn, game_id), e)
            raise ConflictError(f"entry {seq} of game {game_id} was written by someone else just now") from None
        shown = replayed.outcomes[index] if entry is not None and index < len(replayed.outcomes) else None
        return {
            "seq": seq,
            "outcome": shown,
            "state": replayed.state(),
            "result": result_data(replayed.result) if replayed.result and replayed.over else None,
            "version": g["version"] + 1,
            "replaced": old["data"] if old is not None else None,
        }

    def _write_entries(
        self,
        conn: sa.Connection,
        game_id: int,
        entries: list[dict[str, Any]],
        index: int,
        entry: dict[str, Any] | None,
        replayed: ReplayedGame,
        meta: dict[str, Any] | None = None,
    ) -> None:
        """Write the entry at ``index`` (a new one, a replacement, or ``None``: a deletion, the later entries
        moving up one number) and the replayed outcome of every entry from there on. ``meta``: who wrote it,
        the seats that confirmed it and the writer's request id."""
        outcomes = replayed.outcomes
        if index < len(entries):
            conn.execute(t.entries.delete().where(t.entries.c.id == entries[index]["id"]))
        later = entries[index + 1 :]
        if entry is None:  # the later entries move up one number, in order (each number is free when it moves)
            for n, e in enumerate(later):
                conn.execute(
                    t.entries.update()
                    .where(t.entries.c.id == e["id"])
                    .values(seq=e["seq"] - 1, outcome=outcomes[index + n] if index + n < len(outcomes) else None)
                )
            return
        seq = entries[index]["seq"] if index < len(entries) else (entries[-1]["seq"] + 1 if entries else 1)
        conn.execute(
            t.entries.insert().values(
                game_id=game_id,
                seq=seq,
                kind=entry["kind"],
                data=entry,
                outcome=outcomes[index] if index < len(outcomes) else None,
                created=entries[index]["created"] if index < len(entries) else _now(),
                **(meta or {}),
            )
        )
        for n, e in enumerate(later, start=index + 1):
            new = outcomes[n] if n < len(outcomes) else None
            if new != e["outcome"]:
                conn.execute(t.entries.update().where(t.entries.c.id == e["id"]).values(outcome=new))

    def _store_state(self, conn: sa.Connection, g: dict[str, Any], replayed: ReplayedGame) -> None:
        over = replayed.over and replayed.result is not None
        res = conn.execute(
            t.games.update()
            .where(t.games.c.id == g["id"], t.games.c.version == g["version"])
            .values(
                version=g["version"] + 1,
                state=replayed.state(),
                status="finished" if over else "playing",
                result=result_data(replayed.result) if over and replayed.result else None,
            )
        )
        if res.rowcount != 1:  # pragma: no cover - the row lock makes this unreachable
            raise ConflictError(f"game {g['id']} changed meanwhile; reload and check")

    def quick_entry(
        self,
        event: str | int,
        players: list[str],
        scores: list[int],
        *,
        deposits: int = 0,
        first_dealer: int = 0,
        table: int = 1,
        actor: str = "organiser",
    ) -> int:
        """A game entered by its final raw scores only (players in seat order, the first dealer's seat for the
        tie rule) and the riichi sticks left on the table, settled by the rule set."""
        entry = {"kind": "final", "scores": list(scores), "deposits": deposits}
        with self._tx() as conn:
            ev = self._event(conn, event)
            rules = self._rules(ev)
            replayed = replay_entries(rules, first_dealer, [entry])
            gid = self._insert_game(conn, ev, list(players), first_dealer, None, table, "quick", None)
            conn.execute(
                t.entries.insert().values(
                    game_id=gid, seq=1, kind="final", data=entry, outcome=replayed.outcomes[0], created=_now()
                )
            )
            g = self._game_row(conn, gid)
            self._store_state(conn, g, replayed)
            self._audit(conn, ev["id"], actor, "quick_entry", {"game": gid, "players": list(players), "entry": entry})
        return gid

    def penalty(
        self,
        event: str | int,
        player: str,
        pt: float,
        reason: str,
        *,
        game: int | None = None,
        actor: str = "organiser",
    ) -> None:
        """Deduct ``pt`` rank points from a player, with a reason: in a game (the game's settlement carries it)
        or for the event (standings only)."""
        if isinstance(pt, bool) or not isinstance(pt, int | float) or pt != pt or not 0 <= pt <= 1000:
            raise LeagueError(f"a penalty is a number of rank points 0-1000, got {pt!r}")
        if not str(reason).strip():
            raise LeagueError("a penalty needs a reason")
        if game is not None:
            with self.engine.connect() as conn:
                names = self._seat_names(conn, game)
            if player not in names:
                raise NotFoundError(f"{player!r} did not play game {game} ({', '.join(names)})")
            self.add_entry(
                game, {"kind": "penalty", "seat": names.index(player), "pt": pt, "reason": reason}, actor=actor
            )
            return
        with self._tx() as conn:
            ev = self._event(conn, event)
            pid = self._player_ids(conn, ev["id"], [player])[0]
            conn.execute(
                t.penalties.insert().values(
                    event_id=ev["id"], player_id=pid, pt=float(pt), reason=reason, created=_now()
                )
            )
            self._audit(conn, ev["id"], actor, "penalty", {"player": player, "pt": pt, "reason": reason})

    # -- standings and export ------------------------------------------------------------------------------

    def standings(self, event: str | int) -> list[dict[str, Any]]:
        """Players by total rank points (see :func:`jantaku.league.standings.player_standings`)."""
        with self.engine.connect() as conn:
            return self._standings(conn, self._event(conn, event))

    def _standings(
        self, conn: sa.Connection, ev: dict[str, Any], games: list[dict[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        from .standings import player_standings

        if games is None:
            games = self._finished(conn, ev["id"])
        return player_standings(self._players(conn, ev["id"]), games, self._penalties(conn, ev["id"]))

    def team_standings(self, event: str | int) -> list[dict[str, Any]]:
        """Teams by the sum of their players' totals, and the games each team played (each counted once)."""
        from .standings import team_standings

        with self.engine.connect() as conn:
            ev = self._event(conn, event)
            games = self._finished(conn, ev["id"])
            rows = self._standings(conn, ev, games)
        return team_standings(rows, games)

    def history(self, event: str | int, player: str) -> list[dict[str, Any]]:
        """A player's games in order with the running total (for a chart)."""
        from .standings import player_history

        with self.engine.connect() as conn:
            ev = self._event(conn, event)
            return player_history(player, self._finished(conn, ev["id"]), self._penalties(conn, ev["id"]))

    def _finished(self, conn: sa.Connection, event_id: int) -> list[dict[str, Any]]:
        rows = (
            conn.execute(
                t.games.select()
                .where(t.games.c.event_id == event_id, t.games.c.deleted.is_(None))
                .order_by(t.games.c.id)
            )
            .mappings()
            .all()
        )
        out = []
        for g in rows:
            entries = self._entries(conn, g["id"])
            out.append(
                {
                    "id": g["id"],
                    "players": self._seat_names(conn, g["id"]),
                    "status": g["status"],
                    "result": g["result"],
                    "entries": [e["data"] for e in entries],
                }
            )
        return out

    def _penalties(self, conn: sa.Connection, event_id: int) -> list[dict[str, Any]]:
        q = (
            sa.select(t.players.c.name, t.penalties.c.pt, t.penalties.c.reason)
            .select_from(t.penalties.join(t.players, t.penalties.c.player_id == t.players.c.id))
            .where(t.penalties.c.event_id == event_id)
            .order_by(t.penalties.c.id)
        )
        return [{"player": r.name, "pt": r.pt, "reason": r.reason} for r in conn.execute(q)]

    def export(self, event: str | int) -> dict[str, Any]:
        """The whole event as JSON-ready data: rule set, players, games with entries and results, penalties,
        standings and team standings."""
        with self.engine.connect() as conn:
            ev = self._event(conn, event)
            penalties = self._penalties(conn, ev["id"])
        games = []
        for g in self.games(event):
            full = self.game(g["id"])
            games.append(full)
        standings = self.standings(event)
        return {
            "event": {"name": ev["name"], "rules": ev["rules"]},
            "players": self.players(event),
            "games": games,
            "penalties": penalties,
            "standings": standings,
            "teams": self.team_standings(event),
        }

    def _imported_digests(self, conn: sa.Connection, event_id: int) -> dict[str, int]:
        """The fingerprints of the event's imported games (not deleted): digest -> game."""
        rows = conn.execute(
            sa.select(t.games.c.id, t.games.c.draw).where(
                t.games.c.event_id == event_id, t.games.c.source == "import", t.games.c.deleted.is_(None)
            )
        )
        return {r.draw["digest"]: r.id for r in rows if isinstance(r.draw, dict) and r.draw.get("digest")}

    def import_record(
        self,
        event: str | int,
        path: str | Path,
        mapping: dict[str, str] | None = None,
        *,
        force: bool = False,
        actor: str = "organiser",
    ) -> list[int]:
        """Import an online game record (Tenhou, Mahjong Soul, mjai, ...: what ``jantaku replay`` reads) into
        the event, its players mapped to the event's by ``mapping`` (record name -> player; unmapped names are
        used as they are). Returns the new games. A game the event holds already (the same hands from the same
        first dealer, whatever the file's name or the mapping) is refused with :class:`DuplicateImportError`
        naming the game, unless ``force``."""
        from .importing import record_games

        rules = self.rules(event)
        games = record_games(Path(path), rules, mapping or {})
        digests = [_game_digest(first_dealer, entries) for _, first_dealer, entries in games]
        replays = [replay_entries(rules, first_dealer, entries) for _, first_dealer, entries in games]
        out = []
        # one transaction for the whole record, the event's imports one at a time (SQLite's write lock; on
        # PostgreSQL an advisory lock per event): two organisers importing the same record at once store it once
        with self._tx() as conn:
            ev = self._event(conn, event)
            if conn.dialect.name == "postgresql":
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k, :e)"), {"k": _IMPORT_LOCK, "e": ev["id"]})
            known = {p["name"] for p in self._players(conn, ev["id"])}
            for players, _, _ in games:
                unknown = [p for p in players if p not in known]
                if unknown:
                    raise LeagueError(
                        f"the record's player(s) {', '.join(map(repr, unknown))} are not players of the event: "
                        "map each name in the record to an event player (or add the player first)"
                    )
            if not force:
                held = self._imported_digests(conn, ev["id"])
                for n, digest in enumerate(digests):
                    if digest in held:
                        raise DuplicateImportError(
                            f"game {n + 1} of {Path(path).name} is already in the event as game {held[digest]} "
                            "(imported before): import it again only on purpose (force)"
                        )
            for (players, first_dealer, entries), digest, replayed in zip(games, digests, replays, strict=True):
                draw = {"procedure": "record", "file": Path(path).name, "digest": digest}
                gid = self._insert_game(conn, ev, players, first_dealer, None, 1, "import", draw)
                for seq, (e, o) in enumerate(zip(entries, replayed.outcomes, strict=True), 1):
                    conn.execute(
                        t.entries.insert().values(
                            game_id=gid, seq=seq, kind=e["kind"], data=e, outcome=o, created=_now()
                        )
                    )
                self._store_state(conn, self._game_row(conn, gid), replayed)
                self._audit(
                    conn, ev["id"], actor, "import_record", {"game": gid, "file": Path(path).name, "players": players}
                )
                out.append(gid)
        return out


_IMPORT_LOCK = 0x4A4B
"""The first key of the PostgreSQL advisory lock an import takes (the second is the event's id)."""


def _game_digest(first_dealer: int, entries: list[dict[str, Any]]) -> str:
    """A fingerprint of an imported game's content: its first dealer and hands (not the file's name, not the
    players' names, which a mapping changes)."""
    text = json.dumps([first_dealer, entries], sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _freed(name: str, row_id: int) -> str:
    """The name a deleted event or player keeps in its row, so that its own name is free again."""
    return f"{name[:160]} (deleted #{row_id})"


def _rules_from_text(text: str, shown: str) -> Ruleset:
    try:
        return rules_from_mapping(tomllib.loads(text), source=shown)
    except tomllib.TOMLDecodeError as e:
        raise LeagueError(f"rule file {shown}: not TOML: {e}") from None
    except JantakuError as e:
        raise LeagueError(f"rule file {shown}: {e}") from None


def _sqlite_write_locks(engine: sa.Engine) -> None:
    """SQLite: transactions take the write lock when they begin (BEGIN IMMEDIATE), so two writers queue
    instead of failing halfway; foreign keys are enforced."""

    @sa_event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=60000")
        cur.close()

    @sa_event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
