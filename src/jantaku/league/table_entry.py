"""Players entering their own table's hands, and the round clock (part of :class:`~jantaku.league.store.LeagueStore`).

**Personal codes.** The organiser issues each player of an event a six-digit code (:meth:`TableEntry.issue_pins`,
``jantaku league pins``); it is shown once and stored hashed. With their name and code a player may write the
entries of a game they sit at: add a hand, correct or delete the last entry while the other three have not all
confirmed it. Every other change stays the organiser's.

**Confirmations.** An entry a player writes counts at once (the next hand's scores follow from it) and waits for
the table: each of the other three confirms it from their own phone (:meth:`TableEntry.confirm_entry`), or the
organiser accepts it for them. :meth:`TableEntry.unconfirmed` lists what is waiting, for the organiser. An entry
the organiser writes needs no confirmation.

**Writes sent twice.** A phone that lost its answer (or its network) sends the same write again with the same
``request_id``: the entry stored the first time is answered and nothing is written twice.

**The round clock.** The organiser starts a round's clock with its minutes (:meth:`TableEntry.start_clock`). When
the time is up the hand in play is the last (000 Art 24(2): 有时间限制的规则下，达到时限的那一局结束时): the first
hand a table enters after the time is up gets a ``time_up`` entry (written by ``clock``) before it, and the game
ends when that hand ends. An organiser may also enter ``time_up`` by hand, or delete the clock's entry.

>>> import os, tempfile
>>> from jantaku.league.store import LeagueStore
>>> store = LeagueStore(os.path.join(tempfile.mkdtemp(), "league.db"))
>>> _ = store.create_event("Club", "mu")
>>> for name in "ABCD":
...     _ = store.add_player("Club", name)
>>> pins = store.issue_pins("Club")
>>> sorted(pins), all(len(p) == 6 and p.isdigit() for p in pins.values())
(['A', 'B', 'C', 'D'], True)
>>> store.check_pin("Club", "B", pins["B"]), store.check_pin("Club", "B", "000000" if pins["B"] != "000000" else "1")
(True, False)
>>> g = store.new_game("Club", list("ABCD"))
>>> out = store.add_entry(g, {"kind": "draw", "tenpai": [0]}, player="B", request_id="phone-1")
>>> store.add_entry(g, {"kind": "draw", "tenpai": [0]}, player="B", request_id="phone-1")["repeat"]
True
>>> [(u["seq"], u["waiting"]) for u in store.unconfirmed("Club")]
[(1, ['A', 'C', 'D'])]
>>> for p in "ACD":
...     _ = store.confirm_entry(g, 1, player=p)
>>> store.unconfirmed("Club")
[]
"""

from __future__ import annotations

import datetime as _dt
import secrets
from typing import Any

import sqlalchemy as sa

from . import schema as t
from .errors import EntryError, LeagueError, NotFoundError
from .values import hash_secret, secret_matches
from .values import utc_now as _now

__all__ = ["CLOCK_ACTOR", "PIN_DIGITS", "TableEntry"]

PIN_DIGITS = 6
"""The length of a player's personal code."""

CLOCK_ACTOR = "clock"
"""Who the audit log and the entry name for a ``time_up`` the round clock wrote."""

_ENDS_A_HAND = ("win", "draw", "abortive")
"""The entries that end the hand in play (a chombo replays it)."""


def _aware(when: _dt.datetime) -> _dt.datetime:
    """SQLite gives back a naive time for a timezone-aware column: it was stored in UTC."""
    return when if when.tzinfo is not None else when.replace(tzinfo=_dt.UTC)


def request_id_of(value: object) -> str | None:
    """A writer's request id: ``None``, or 1-64 printable ASCII characters (a UUID, say)."""
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= 64 or not value.isascii() or not value.isprintable():
        raise EntryError(f"a request id is 1-64 printable ASCII characters, got {str(value)[:70]!r}")
    return value


def seat_at(names: list[str], player: str, game_id: int) -> int:
    """The seat ``player`` has among a game's players ``names``, or a :class:`LeagueError`: they do not sit there."""
    if player not in names:
        raise LeagueError(f"{player} does not sit at game {game_id}: only its four players enter its hands")
    return names.index(player)


def may_change(old: dict[str, Any], seat: int) -> None:
    """Refuse a player's change of an entry that is not theirs to change: the organiser's, or one the whole
    table confirmed."""
    confirmed = old.get("confirmed")
    if confirmed is None:
        raise EntryError(f"entry {old['seq']} was written by the organiser: ask the organiser to change it")
    if len(set(confirmed)) >= 4:
        raise EntryError(f"entry {old['seq']} was confirmed by the whole table: ask the organiser to change it")


class TableEntry:
    """The part of the league store for players at their tables and for the round clock (see the module)."""

    engine: sa.Engine  # the methods named with an underscore below are LeagueStore's

    # -- personal codes ------------------------------------------------------------------------------------

    def issue_pins(
        self, event: str | int, players: list[str] | None = None, *, actor: str = "organiser"
    ) -> dict[str, str]:
        """Personal codes for the event's players: the ``players`` named (a new code replaces an old one), or
        every player who has none. Returns name -> code; the codes are stored hashed and never shown again."""
        with self._tx() as conn:
            ev = self._event(conn, event)
            rows = conn.execute(
                sa.select(t.players.c.id, t.players.c.name, t.players.c.pin_hash).where(
                    t.players.c.event_id == ev["id"], t.players.c.deleted.is_(None)
                )
            ).all()
            by_name = {r.name: r for r in rows}
            if players is not None:
                missing = [n for n in players if n not in by_name]
                if missing:
                    raise NotFoundError(f"no player {missing[0]!r} in {ev['name']}")
                chosen = [by_name[n] for n in players]
            else:
                chosen = [r for r in rows if r.pin_hash is None]
            pins: dict[str, str] = {}
            for r in chosen:
                pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
                conn.execute(t.players.update().where(t.players.c.id == r.id).values(pin_hash=hash_secret(pin)))
                pins[r.name] = pin
            self._audit(conn, ev["id"], actor, "issue_pins", {"players": sorted(pins)})
        return pins

    def check_pin(self, event: str | int, player: str, pin: str) -> bool:
        """Whether ``pin`` is the personal code of ``player`` in the event (a player without one has none)."""
        with self.engine.connect() as conn:
            ev = self._event(conn, event)
            row = conn.execute(
                sa.select(t.players.c.pin_hash).where(
                    t.players.c.event_id == ev["id"], t.players.c.name == player, t.players.c.deleted.is_(None)
                )
            ).first()
        if row is None or not row.pin_hash or not isinstance(pin, str):
            return False
        return secret_matches(pin, row.pin_hash)

    def player_games(self, event: str | int, player: str) -> list[dict[str, Any]]:
        """The games ``player`` sits at in the event, those in play first, newest first: id, table, status,
        players."""
        with self.engine.connect() as conn:
            ev = self._event(conn, event)
            q = (
                sa.select(t.games.c.id, t.games.c.table_no, t.games.c.status, t.games.c.source)
                .select_from(
                    t.games.join(t.seats, t.seats.c.game_id == t.games.c.id).join(
                        t.players, t.players.c.id == t.seats.c.player_id
                    )
                )
                .where(t.games.c.event_id == ev["id"], t.games.c.deleted.is_(None), t.players.c.name == player)
                .order_by(t.games.c.id.desc())
            )
            rows = conn.execute(q).all()
            out = [
                {"game": r.id, "table": r.table_no, "status": r.status, "source": r.source, "players": []} for r in rows
            ]
            for g in out:
                g["players"] = self._seat_names(conn, g["game"])
        return sorted(out, key=lambda g: g["status"] != "playing")

    # -- confirmations -------------------------------------------------------------------------------------

    def confirm_entry(
        self,
        game_id: int,
        seq: int,
        *,
        player: str | None = None,
        expected_version: int | None = None,
        actor: str | None = None,
    ) -> dict[str, Any]:
        """``player`` (a player of the table) confirms entry ``seq`` as they saw it at game version
        ``expected_version`` (a correction made since is refused: :class:`ConflictError`); without a player the
        organiser accepts the entry for the whole table. A confirmation changes no score and not the game's
        version. Returns the seats that confirmed (``None``: accepted by the organiser)."""
        actor = actor or (f"player {player}" if player else "organiser")
        with self._tx() as conn:
            g = self._game_row(conn, game_id, lock=True)
            self._check_version(conn, g, expected_version)  # type: ignore[attr-defined]
            names = self._seat_names(conn, game_id)
            entry = next((e for e in self._entries(conn, game_id) if e["seq"] == seq), None)
            if entry is None:
                raise NotFoundError(f"game {game_id} has no entry {seq}")
            confirmed = entry["confirmed"]
            if player is not None:
                seat = seat_at(names, player, game_id)
                if confirmed is not None:
                    confirmed = sorted({*confirmed, seat})
            else:
                confirmed = None
            conn.execute(t.entries.update().where(t.entries.c.id == entry["id"]).values(confirmed=confirmed))
            self._audit(conn, g["event_id"], actor, "confirm", {"game": game_id, "seq": seq})
        return {"game": game_id, "seq": seq, "confirmed": confirmed}

    def unconfirmed(self, event: str | int) -> list[dict[str, Any]]:
        """The entries players wrote that not all four have confirmed: game, table, number, kind, who wrote
        it and who has not confirmed yet."""
        with self.engine.connect() as conn:
            ev = self._event(conn, event)
            q = (
                sa.select(t.entries, t.games.c.table_no)
                .select_from(t.entries.join(t.games, t.games.c.id == t.entries.c.game_id))
                .where(t.games.c.event_id == ev["id"], t.games.c.deleted.is_(None), t.entries.c.confirmed.is_not(None))
                .order_by(t.entries.c.game_id, t.entries.c.seq)
            )
            out = []
            names: dict[int, list[str]] = {}
            for r in conn.execute(q).mappings():
                confirmed = r["confirmed"]
                if confirmed is None or len(set(confirmed)) >= 4:  # a JSON null reads back as None
                    continue
                seats = names.setdefault(r["game_id"], self._seat_names(conn, r["game_id"]))
                out.append(
                    {
                        "game": r["game_id"],
                        "table": r["table_no"],
                        "seq": r["seq"],
                        "kind": r["kind"],
                        "entered_by": r["entered_by"],
                        "waiting": [n for i, n in enumerate(seats) if i not in confirmed],
                    }
                )
        return out

    def _repeat(self, g: dict[str, Any], e: dict[str, Any]) -> dict[str, Any]:
        """The answer to a write sent again: the entry it stored, the game as it is now."""
        return {
            "seq": e["seq"],
            "outcome": e["outcome"],
            "state": g["state"],
            "result": g["result"],
            "version": g["version"],
            "replaced": None,
            "repeat": True,
        }

    # -- the round clock -----------------------------------------------------------------------------------

    def start_clock(
        self, event: str | int, round_number: int, minutes: int, *, actor: str = "organiser"
    ) -> dict[str, Any]:
        """Start round ``round_number``'s clock now, for ``minutes`` (started again: from now)."""
        if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 24 * 60:
            raise LeagueError(f"a round's time is 1 to 1440 minutes, got {minutes!r}")
        with self._tx() as conn:
            ev = self._event(conn, event)
            row = conn.execute(
                sa.select(t.rounds.c.id).where(t.rounds.c.event_id == ev["id"], t.rounds.c.number == round_number)
            ).first()
            if row is None:
                raise NotFoundError(f"no round {round_number!r} in {ev['name']}")
            now = _now()
            started = t.rounds.update().where(t.rounds.c.id == row.id)
            conn.execute(started.values(clock_start=now, clock_minutes=minutes))
            self._audit(conn, ev["id"], actor, "start_clock", {"round": round_number, "minutes": minutes})
        return self._clock_data(round_number, now, minutes)

    def clocks(self, event: str | int) -> list[dict[str, Any]]:
        """The event's rounds with their clocks: number, method, and once started its start, minutes, end and
        the seconds left now (0 once the time is up)."""
        with self.engine.connect() as conn:
            ev = self._event(conn, event)
            rows = conn.execute(
                t.rounds.select().where(t.rounds.c.event_id == ev["id"]).order_by(t.rounds.c.number)
            ).mappings()
            out = []
            for r in rows:
                clock = (
                    self._clock_data(r["number"], _aware(r["clock_start"]), r["clock_minutes"])
                    if r["clock_start"] is not None
                    else {"round": r["number"]}
                )
                out.append({**clock, "method": r["method"]})
        return out

    @staticmethod
    def _clock_data(number: int, start: _dt.datetime, minutes: int) -> dict[str, Any]:
        end = start + _dt.timedelta(minutes=minutes)
        left = max(0.0, (end - _now()).total_seconds())
        return {
            "round": number,
            "start": start.isoformat(),
            "minutes": minutes,
            "end": end.isoformat(),
            "seconds_left": round(left, 1),
        }

    def _clock_ran_out(
        self, conn: sa.Connection, g: dict[str, Any], entries: list[dict[str, Any]], entry: dict[str, Any]
    ) -> bool:
        """Whether ``entry`` is a hand entered after its round's time ran out, with no ``time_up`` yet."""
        if entry.get("kind") not in _ENDS_A_HAND or g["round_id"] is None or g["status"] != "playing":
            return False
        if any(e["kind"] == "time_up" for e in entries):
            return False
        r = conn.execute(
            sa.select(t.rounds.c.clock_start, t.rounds.c.clock_minutes).where(t.rounds.c.id == g["round_id"])
        ).first()
        if r is None or r.clock_start is None:
            return False
        return _now() >= _aware(r.clock_start) + _dt.timedelta(minutes=r.clock_minutes)

    def _add_time_up(
        self, conn: sa.Connection, g: dict[str, Any], ev: dict[str, Any], entries: list[dict[str, Any]]
    ) -> None:
        from .recording import replay_entries

        entry = {"kind": "time_up"}
        replayed = replay_entries(self._rules(ev), g["first_dealer"], [*(e["data"] for e in entries), entry])
        meta = {"entered_by": CLOCK_ACTOR, "confirmed": None, "request_id": None}
        self._write_entries(conn, g["id"], entries, len(entries), entry, replayed, meta)
        self._store_state(conn, g, replayed)
        seq = (entries[-1]["seq"] if entries else 0) + 1
        detail = {"game": g["id"], "seq": seq, "entry": entry, "version": g["version"] + 1}
        self._audit(conn, ev["id"], CLOCK_ACTOR, "time_up", detail)
