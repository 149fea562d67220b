"""The tables of a server (:class:`TableManager`): held in memory while in play, stored on every change, rebuilt
from the store when asked for, capped in number and in creations per client, and their clock: one thread that
takes every table's timed steps.

>>> from jantaku.web.storage import SqliteStore
>>> m = TableManager(SqliteStore(":memory:"))
>>> t = m.create("mleague", ["human", "efficiency", "efficiency", "efficiency"], seed="doc")
>>> v = t.view(0)
>>> len(v["hand"]) + (v["drawn"] is not None), v["players"][1]["hand_count"] in (13, 14), "tiles" in v["players"][1]
(14, True, False)
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from jantaku.errors import JantakuError
from jantaku.table import Game
from jantaku.text import TextError, check_name

from .errors import BadRequest, Conflict, Forbidden, NotFound, TooManyRequests, Unavailable, WebError
from .gamestore import GameStore, StaleWrite, StoreClosed, StoredGame, StoredTable, StoreError, utc_now
from .leases import Leases
from .live import LiveTable, SeatInfo, _short, catch_up, rebuild_table
from .notices import TableNotices
from .options import (
    _EARLY,
    AUTO_KEYS,
    BOT_GAMES_DAYS,
    BOTS,
    CLOCK_IDLE,
    TableOptions,
    _is_int,
    playable_presets,
    table_rules,
)
from .storage import SqlStore
from .views import (
    action_from_json,
)

log = logging.getLogger("jantaku.web")

_RETRIES = 5
"""How many times a change that does not depend on the game's step is tried when other processes keep moving
the table first."""

# -- the manager ------------------------------------------------------------------------------------------------


class TableManager:
    """The tables of the server: those in play held in memory (at most ``max_tables``), every one in the store.

    - A finished game leaves memory once nobody watches it, and so does a table nobody has used for
      ``idle_seconds``; either is rebuilt from the store on its next request (a view of a finished game
      still works).
    - At most ``max_tables`` tables are held: the least recently used unwatched ones leave first; when every
      held table is watched, a new one is refused with 503 (:class:`Unavailable`).
    - One client (an address) may create at most ``creates_per_minute`` tables a minute (429,
      :class:`TooManyRequests`); 0 means no limit.
    """

    def __init__(
        self,
        store: GameStore,
        seed_source: Callable[[], str] | None = None,
        *,
        max_tables: int = 1000,
        idle_seconds: float = 900.0,
        creates_per_minute: int = 60,
        defaults: TableOptions | None = None,
        clock: Callable[[], float] | None = None,
        bot_games_days: float = BOT_GAMES_DAYS,
    ) -> None:
        """``seed_source`` gives each new table's seed (default: 64 random bits); tests pass a fixed sequence
        to make games reproducible. ``bot_games_days``: stored games of bots alone are deleted after this many
        days (0: kept). ``defaults``: the options of a table created without them (default: no
        pace, no hold at a hand's end, no timer, the rule set's length: what a program driving the API
        wants; ``jantaku serve`` passes a person's defaults). ``clock``: the tables' clock (default
        :func:`time.monotonic`, with a thread that runs their timed steps; a test passing its own clock calls
        :meth:`run_due` itself)."""
        if max_tables < 1 or idle_seconds <= 0 or creates_per_minute < 0 or bot_games_days < 0:
            raise ValueError("max_tables >= 1, idle_seconds > 0, creates_per_minute >= 0 and bot_games_days >= 0")
        self.bot_games_days = bot_games_days
        self._expired_at = float("-inf")
        self.defaults = defaults or TableOptions()
        self.clock = clock or time.monotonic
        self.wall: Callable[[], float] = time.time if clock is None else clock
        """The wall clock of the times stored with a table (a held hand's end, a call window's): every process
        reads the same moment from it. A test's clock is its own wall clock."""
        self._threaded = clock is None
        self._clock_cond = threading.Condition()
        self._clock_thread: threading.Thread | None = None
        self._closed = False
        self.store = store
        self.seed_source = seed_source or (lambda: secrets.token_hex(8))
        self.max_tables = max_tables
        self.idle_seconds = idle_seconds
        self.creates_per_minute = creates_per_minute
        self.tables: dict[str, LiveTable] = {}
        self._lock = threading.RLock()
        self._loading: dict[str, threading.Lock] = {}
        self._creates: dict[str, deque[float]] = {}
        self._swept = 0.0
        self.leases: Leases | None = None
        """Which tables this process drives, when several share the store's database (else ``None``: all)."""
        self.notices: TableNotices | None = None
        """The other processes' moves, when several share the store's database."""
        if self._threaded and isinstance(store, SqlStore) and store.shared:
            self.leases = Leases(store.engine, store.node).start(self._driven, self._watched, self._watched_elsewhere)
            self.notices = TableNotices(store.url, store.node, self._on_notice, self._on_reconnect).start()

    # -- creating --------------------------------------------------------------------------------------------

    def create(
        self,
        rules: str,
        seats: list[str],
        names: list[str] | None = None,
        seed: str | None = None,
        client: str | None = None,
        options: TableOptions | None = None,
        creator_seat: Any = "first",
        play: bool = True,
    ) -> LiveTable:
        """A new table: ``seats`` are four of ``human`` or a bot name (:data:`BOTS`). Bots play at once (a
        table of four bots plays its whole game here), or at the table's pace (``options``, default
        :attr:`defaults`). ``client`` (an address) counts against the creation limit. ``play=False``: a table of
        four bots is returned unplayed and unstored (the web server plays it in a worker process,
        :func:`play_bots_only`, and stores it with :meth:`store_bots_only`).

        The creator sits at ``creator_seat``: the first human seat by default, a human seat's number, or
        ``None`` for a creator who only hands out the invitations. That seat is claimed at once (its token is
        the creator's); every other human seat waits for its invitation to be opened (:meth:`claim`)."""
        if not isinstance(rules, str) or rules not in playable_presets():
            raise BadRequest(f"unknown rule set {rules!r}: one of {', '.join(playable_presets())}")
        if not isinstance(seats, list) or len(seats) != 4:
            raise BadRequest("seats: a list of four entries, each 'human' or a bot name")
        infos = []
        for s, kind in enumerate(seats):
            if kind == "human":
                infos.append(SeatInfo("human", f"player {s + 1}", None, None, secrets.token_urlsafe(12)))
            elif isinstance(kind, str) and kind in BOTS:
                infos.append(SeatInfo("bot", f"{kind} bot {s + 1}", kind))
            else:
                raise BadRequest(f"seat {s}: {_short(kind)} is neither 'human' nor a bot ({', '.join(BOTS)})")
        humans = [s for s, info in enumerate(infos) if info.kind == "human"]
        if creator_seat == "first":
            creator_seat = humans[0] if humans else None
        if creator_seat is not None:
            if not _is_int(creator_seat) or creator_seat not in humans:
                raise BadRequest(f"creator_seat: one of the human seats {humans} or null, not {_short(creator_seat)}")
            infos[creator_seat].token, infos[creator_seat].invite = secrets.token_urlsafe(16), None
        if names is not None:
            if not isinstance(names, list) or len(names) != 4 or not all(isinstance(n, str) for n in names):
                raise BadRequest("names: a list of four strings")
            for s, (info, name) in enumerate(zip(infos, names, strict=True)):
                if name.strip():
                    try:
                        info.name = check_name(name, f"names[{s}]")
                    except TextError as e:
                        raise BadRequest(str(e)) from None
        self._count_creation(client)
        self._sweep(force=True)
        with self._lock:
            if len(self.tables) >= self.max_tables and not self._evict_lru():
                raise Unavailable(
                    f"the server holds its limit of {self.max_tables} tables in play, all watched: try again later"
                )
        seed = seed or self.seed_source()
        options = options or self.defaults
        table_id = secrets.token_urlsafe(8)
        with self._storing(table_id):
            while table_id in self.tables or self.store.get_table(table_id) or self.store.get_game(table_id):
                table_id = secrets.token_urlsafe(8)  # pragma: no cover - 64 random bits
        game = Game(table_rules(rules, options), seed=seed, names=[i.name for i in infos])
        table = LiveTable(
            table_id, rules, seed, infos, utc_now(), game, options=options, clock=self.clock, wall=self.wall
        )
        table.scheduler = self._wake_clock
        if any(info.kind == "human" for info in infos):
            table.owner = secrets.token_urlsafe(16)
        if not play and not table.humans:
            return table
        table.run_bots()
        with self._storing(table_id):
            self._persist(table, None)
        if not table.over:
            with self._lock:
                self.tables[table_id] = table
            self._wake_clock()  # the clock may have looked before the table was held
        return table

    def store_bots_only(self, table: LiveTable, played: StoredGame) -> None:
        """Store the game of a table of four bots that :func:`play_bots_only` played elsewhere (``create`` with
        ``play=False`` made the table); stored games of bots alone older than :attr:`bot_games_days` are
        deleted meanwhile (at most once an hour)."""
        if played.id != table.id or played.status != "finished":
            raise BadRequest(f"table {table.id}: not the finished game of this table")
        with self._storing(table.id):
            self.store.finish_table(table.id, played, None, None)
        self.expire_bot_games()

    def expire_bot_games(self, force: bool = False) -> int:
        """Delete the stored games of bots alone older than :attr:`bot_games_days` (none when it is 0); at most
        once an hour unless ``force``. How many were deleted."""
        now = time.monotonic()
        if not self.bot_games_days or (not force and now - self._expired_at < 3600):
            return 0
        self._expired_at = now
        cutoff = (datetime.now(UTC) - timedelta(days=self.bot_games_days)).strftime("%Y-%m-%dT%H:%M:%SZ")
        with self._storing("(expiry)"):
            return self.store.delete_bot_games(cutoff)

    def _count_creation(self, client: str | None) -> None:
        if not self.creates_per_minute or client is None:
            return
        now = time.monotonic()
        with self._lock:
            times = self._creates.setdefault(client, deque())
            while times and times[0] <= now - 60:
                times.popleft()
            if len(times) >= self.creates_per_minute:
                wait = int(times[0] + 60 - now) + 1
                raise TooManyRequests(
                    f"at most {self.creates_per_minute} new tables a minute from one address: try again in {wait} s"
                )
            times.append(now)
            if len(self._creates) > 10_000:  # forget addresses that created nothing in the last minute
                for key in [k for k, v in self._creates.items() if not v or v[-1] <= now - 60]:
                    del self._creates[key]

    # -- holding and loading ---------------------------------------------------------------------------------

    def get(self, table_id: str) -> LiveTable:
        """A table, rebuilt from the store when it is not held (after a restart, once idle, once finished, or
        moved on by another server process on the same file); :class:`NotFound` if there is none."""
        self._sweep()
        with self._lock:
            table = self.tables.get(table_id)
        if table is not None:
            if not table.over:
                with table.lock, self._storing(table_id):  # never compared while a move is being stored
                    if self.store.table_stamp(table_id) != (table.step, table.tokens, table.version):
                        self._refresh(table)  # another process moved it on, finished it or reissued a link
            table.touch()
            return table
        with self._lock:
            loading = self._loading.setdefault(table_id, threading.Lock())
        with loading:  # one rebuild per table at a time; other tables are not held up
            with self._lock:
                table = self.tables.get(table_id)
            if table is None:
                table = self._load(table_id)
                with self._lock:
                    if len(self.tables) < self.max_tables or self._evict_lru():
                        self.tables[table_id] = table
                self._wake_clock()  # its timed steps were scheduled before it was held
        with self._lock:
            self._loading.pop(table_id, None)
        return table

    def _load(self, table_id: str) -> LiveTable:
        with self._storing(table_id):
            stored = self.store.get_table(table_id)
            if stored is None:
                stored = self.store.get_finished_table(table_id)
                if stored is None and self.store.get_game(table_id) is not None:
                    raise NotFound(f"game {table_id} is over: see /api/games/{table_id}")
        if stored is None:
            raise NotFound(f"no table {table_id}")
        return self._rebuild(stored)

    def _refresh(self, table: LiveTable) -> None:
        """Read a held table again from the store, in place (its watchers stay and are told)."""
        with table.lock:
            with self._storing(table.id):
                stored = self.store.get_table(table.id) or self.store.get_finished_table(table.id)
            if stored is None:
                self.evict(table.id, table)
                raise NotFound(f"no table {table.id}")
            if not catch_up(table, stored):  # (usually it applies only the moves made since)
                self._replace(table, stored)
        table.notify()

    def _replace(self, table: LiveTable, stored: StoredTable) -> None:
        """Every part of ``table`` as ``stored`` describes it, replayed from the start (its watchers stay; the
        caller tells them); a table whose stored actions do not replay leaves memory (:class:`NotFound`)."""
        with table.lock:
            try:
                fresh = self._rebuild(stored)
            except NotFound:
                self.evict(table.id, table)
                raise
            table.game, table.actions, table.hand_results = fresh.game, fresh.actions, fresh.hand_results
            table._bots, table._seen = fresh._bots, fresh._seen
            table.seats, table.owner, table.tokens = fresh.seats, fresh.owner, fresh.tokens
            table.options, table.auto, table.released = fresh.options, fresh.auto, fresh.released
            table._ended, table._ended_round = fresh._ended, fresh._ended_round
            table.version = fresh.version
            # the timing stored with it (a held hand's end and who closed its result panel, an open call window):
            # the same moments as the process that wrote it shows
            table._shadow, table._hold, table._last_change = fresh._shadow, fresh._hold, fresh._last_change
            # and the people's turn timers: the decisions open since the moment stored, the banks as spent
            table._turns, table._bank, table._bank_hand = fresh._turns, fresh._bank, fresh._bank_hand
            table._settle(table.clock())

    def _rebuild(self, stored: StoredTable) -> LiveTable:
        return rebuild_table(stored, self.clock, self._wake_clock, self.wall)

    def evict(self, table_id: str, table: LiveTable | None = None) -> None:
        """Let a table leave memory (it stays in the store); with ``table``, only if that object is held."""
        with self._lock:
            if table is None or self.tables.get(table_id) is table:
                self.tables.pop(table_id, None)

    def _sweep(self, force: bool = False) -> None:
        """Let finished and idle unwatched tables leave memory (at most once a second unless ``force``)."""
        now = time.monotonic()
        with self._lock:
            if not force and now - self._swept < 1.0:
                return
            self._swept = now
            for tid, t in list(self.tables.items()):
                if not t.listeners and (t.over or now - t.last_used > self.idle_seconds):
                    del self.tables[tid]

    def _evict_lru(self) -> bool:
        """Make room for one table: the least recently used unwatched one leaves memory (``False``: none can)."""
        with self._lock:
            free = [t for t in self.tables.values() if not t.listeners]
            if not free:
                return False
            oldest = min(free, key=lambda t: t.last_used)
            del self.tables[oldest.id]
            return True

    def release(self, table: LiveTable) -> None:
        """A watcher left: a finished table nobody watches any more leaves memory."""
        if table.over and not table.listeners:
            self.evict(table.id, table)

    # -- moving ----------------------------------------------------------------------------------------------

    def act(self, table_id: str, token: Any, step: Any, index: Any) -> LiveTable:
        """Apply a person's action, by index into the legal actions (see :meth:`LiveTable.act`) or as an action
        object (``{"type", "tile", "consumed", "tsumogiri"}``), storing the new state before it is applied for
        good (see the module docs)."""
        if not isinstance(token, str):
            raise BadRequest("'token' (the seat's secret, a string) is required")
        if not _is_int(step):
            raise BadRequest("'step' (an integer: the step of the view the action was chosen in) is required")
        table = self.get(table_id)
        seat = table.seat_of(token)
        try:
            if isinstance(index, dict):
                try:
                    action = action_from_json({**index, "seat": index.get("seat", seat)})
                except (JantakuError, KeyError, TypeError, ValueError, OverflowError) as e:
                    raise BadRequest(f"malformed action: {e}") from None
                table.apply_action(seat, step, action, self._commit)
            elif _is_int(index):
                table.act(seat, step, index, self._commit)
            else:
                raise BadRequest("an action is {'step': int, 'index': int} or {'step': int, 'action': {...}}")
        except StaleWrite:
            self._refresh(table)
            raise Conflict(
                "another server process moved this table first: nothing was applied, reload the table"
            ) from None
        table.touch()
        return table

    def claim(self, table_id: str, invite: Any) -> tuple[LiveTable, int, str]:
        """Open an invitation: the seat whose invitation code is ``invite`` is claimed by whoever opens it first,
        who receives the seat's secret token (returned with the table and the seat). A code that is no longer any
        seat's, because the seat was claimed or the creator issued a new invitation, is refused (409)."""
        if not isinstance(invite, str) or not invite:
            raise BadRequest("'invite' (the invitation code of a seat link, a string) is required")
        table = self.get(table_id)
        with table.lock:
            seats = [
                s
                for s, info in enumerate(table.seats)
                if info.kind == "human" and info.invite is not None and secrets.compare_digest(info.invite, invite)
            ]
            if not seats:
                raise Conflict(
                    "this invitation was already used (the seat is taken) or replaced by a new one: "
                    "ask the table's creator for a new link"
                )
            if table.over:
                raise Conflict(f"table {table.id} is over: its seats can no longer be taken")
            fresh = secrets.token_urlsafe(16)
            self._change_seat(table, seats[0], token=fresh, invite=None)
        return table, seats[0], fresh

    def reissue(self, table_id: str, token: Any, seat: Any) -> tuple[LiveTable, str, str]:
        """A new link for human seat ``seat``: returns the table, what the secret is (``"invite"`` or
        ``"token"``) and the secret.

        - The seat's holder (``token`` its own token) gets a new token; its old link is refused (403) from then.
        - The table's creator (``token`` its ``owner_token``) may replace the invitation of a seat nobody has
          claimed yet, or whose holder left (:meth:`leave`): the old invitation is refused from then. A claimed
          seat belongs to its holder, and the creator can neither read nor replace its link (409).

        A finished table's links stay as they are (409)."""
        if not isinstance(token, str):
            raise BadRequest("'token' (the creator's owner_token or the seat's own token, a string) is required")
        if not _is_int(seat) or not 0 <= seat < 4:
            raise BadRequest(f"seat: 0-3, not {_short(seat)}")
        table = self.get(table_id)
        with table.lock:
            info = table.seats[seat]
            owner = table.owner is not None and secrets.compare_digest(table.owner, token)
            own = info.token is not None and secrets.compare_digest(info.token, token)
            if not (owner or own):
                raise Forbidden("only the table's creator (its owner_token) or the seat itself may reissue its link")
            if info.kind != "human":
                raise BadRequest(f"seat {seat} is a bot: it has no link")
            if table.over:
                raise Conflict(f"table {table.id} is over: its links can no longer be changed")
            if own:
                fresh = secrets.token_urlsafe(16)
                self._change_seat(table, seat, token=fresh, invite=None)
                kind = "token"
            elif info.claimed:
                raise Conflict(
                    f"seat {seat} is held by the person who opened its invitation: only they can change its link "
                    "(or leave the seat, after which you can invite someone else)"
                )
            else:
                fresh = secrets.token_urlsafe(12)
                self._change_seat(table, seat, token=None, invite=fresh)
                kind = "invite"
        table.touch()
        table.notify(wake=seat)  # the old link's websockets learn that it no longer holds the seat
        return table, kind, fresh

    def leave(self, table_id: str, token: Any) -> tuple[LiveTable, int]:
        """The holder of ``token`` leaves the seat: the token is refused from then on, and the seat waits for a
        new invitation, which the creator issues (:meth:`reissue`, :meth:`seat_links`). The game does not wait
        for the empty seat any more than for a person who does not act (the turn timer and the auto options
        apply as before). Returns the table and the seat."""
        if not isinstance(token, str):
            raise BadRequest("'token' (the seat's secret, a string) is required")
        table = self.get(table_id)
        with table.lock:
            seat = table.seat_of(token)
            if table.over:
                raise Conflict(f"table {table.id} is over: its seats can no longer be changed")
            self._change_seat(table, seat, token=None, invite=secrets.token_urlsafe(12))
        table.touch()
        table.notify(wake=seat)
        return table, seat

    def seat_links(self, table_id: str, owner: Any) -> tuple[LiveTable, list[dict[str, Any]]]:
        """The creator's view of the seats (``owner`` the ``owner_token``): each human seat's name, whether it is
        claimed, and the invitation code of each seat nobody holds. Never a claimed seat's token."""
        if not isinstance(owner, str):
            raise BadRequest("'token' (the creator's owner_token, a string) is required")
        table = self.get(table_id)
        if table.owner is None or not secrets.compare_digest(table.owner, owner):
            raise Forbidden("only the table's creator (its owner_token) may list the invitations")
        out = []
        for seat, info in enumerate(table.seats):
            if info.kind != "human":
                continue
            entry: dict[str, Any] = {"seat": seat, "name": info.name, "claimed": info.claimed}
            if not info.claimed and info.invite is not None:
                entry["invite"] = info.invite
            out.append(entry)
        return table, out

    def _change_seat(self, table: LiveTable, seat: int, token: str | None, invite: str | None) -> None:
        """Set seat ``seat``'s token and invitation and store them (with ``table.lock`` held); on a refused write
        the seat is put back as it was. A write refused because another process moved the table on meanwhile (a
        bot's step) is made again on the table as it now is, unless that process changed this seat too (409):
        a seat's link does not depend on the game's step."""
        before = table.seats[seat].token, table.seats[seat].invite
        for _ in range(_RETRIES):
            info = table.seats[seat]  # (a table read again has new seat objects)
            old = info.token, info.invite
            if old != before or table.over:
                break
            info.token, info.invite = token, invite
            table.tokens += 1
            try:
                with self._storing(table.id):
                    self.store.save_tokens(table.stored_table(), table.step, table.tokens - 1)
                table.version += 1
                return
            except StaleWrite:
                (info.token, info.invite), table.tokens = old, table.tokens - 1
                self._refresh(table)
            except BaseException:
                (info.token, info.invite), table.tokens = old, table.tokens - 1
                raise
        raise Conflict("another server process changed this table first: nothing was changed, try again")

    def ready(self, table_id: str, token: Any) -> LiveTable:
        """The seat of ``token`` closed the result panel of the hand held on the board (see
        :meth:`LiveTable.ready`); the next deal is shown once every person has."""
        if not isinstance(token, str):
            raise BadRequest("'token' (the seat's secret, a string) is required")
        table = self.get(table_id)
        seat = table.seat_of(token)
        self._guarded(table, lambda: table.ready(seat, self._commit))
        return table

    def set_auto(self, table_id: str, token: Any, changes: Any) -> LiveTable:
        """Change the auto options of ``token``'s seat (``changes``: some of :data:`AUTO_KEYS`, each a boolean);
        they are stored with the table and apply at once."""
        if not isinstance(token, str):
            raise BadRequest("'token' (the seat's secret, a string) is required")
        if not isinstance(changes, dict) or not changes:
            raise BadRequest(f"auto options: an object with some of {', '.join(AUTO_KEYS)}, each true or false")
        for key, value in changes.items():
            if key not in AUTO_KEYS:
                raise BadRequest(f"unknown auto option {_short(key)}: one of {', '.join(AUTO_KEYS)}")
            if not isinstance(value, bool):
                raise BadRequest(f"auto option {key}: true or false, not {_short(value)}")
        table = self.get(table_id)
        seat = table.seat_of(token)
        if table.over:
            raise Conflict("the game is over")
        if "riichi_discard" in changes and not table.game.rules.riichi:
            raise BadRequest(f"auto option riichi_discard: {table.rules} has no riichi")
        self._guarded(table, lambda: table.set_auto(seat, dict(changes), self._commit))
        table.touch()
        return table

    def _guarded(self, table: LiveTable, change: Callable[[], None]) -> None:
        """Make ``change`` (a person's closing of the result panel or change of auto options: it does not depend
        on the step the person saw) and store it; when another process moved the table on first, make it again
        on the table as it now is."""
        for _ in range(_RETRIES):
            try:
                change()
                return
            except StaleWrite:
                self._refresh(table)
        raise Conflict("another server process moved this table first: nothing was applied, reload the table")

    # -- the clock: paced steps, call windows, timers, held hands ---------------------------------------------

    def _wake_clock(self) -> None:
        """A table's next timed step may have changed, or a table was created or read back: make sure the clock
        runs, and let it look again at once."""
        if not self._threaded:
            return
        with self._clock_cond:
            if self._clock_thread is None or not self._clock_thread.is_alive():
                self._clock_thread = threading.Thread(target=self._clock_loop, name="jantaku-table-clock", daemon=True)
                self._clock_thread.start()
            self._clock_cond.notify_all()

    def _clock_loop(self) -> None:
        """Run each held table's :meth:`LiveTable.tick` when it is due.

        The one clock of the manager: it lives until :meth:`close`, sleeping until the earliest time due, or
        :data:`CLOCK_IDLE` seconds when nothing is due, and looks at every held table again whenever it wakes.
        A table created, read back or moved on while it sleeps is seen at the latest :data:`CLOCK_IDLE`
        seconds later (at once, as every change of a table's timed step wakes it): no table can be missed
        because it was made between a look and a sleep."""
        while not self._closed:
            with self._clock_cond:
                with self._lock:
                    times = [at for t in self.tables.values() if (at := self._due_at(t)) is not None]
                wait = min(times) - self.clock() if times else CLOCK_IDLE
                if wait > 0:
                    self._clock_cond.wait(min(wait, CLOCK_IDLE))
                    continue
            try:
                self.run_due()
            except Exception:  # never let one table's failure stop every table's clock
                log.exception("the table clock failed; it goes on")

    def close(self, wait: float = 10.0) -> None:
        """Stop the clock thread (the server is shutting down) and wait up to ``wait`` seconds for a timed step it
        is taking to end, so that nothing is written after the store is closed."""
        with self._clock_cond:
            self._closed = True
            self._clock_cond.notify_all()
            thread = self._clock_thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(wait)
        if self.notices is not None:
            self.notices.close()
        if self.leases is not None:
            self.leases.close()  # the other processes take this one's tables over at once

    def run_due(self, now: float | None = None) -> None:
        """Tick every held table whose next timed step is due (the clock thread calls this; tests may too)."""
        with self._lock:
            tables = list(self.tables.values())
        for table in tables:
            at = now if now is not None else table.clock()
            due = table.wake_at is not None and table.wake_at <= at + _EARLY
            # closing a call window changes only what this process shows: whoever drives the table or not
            if due and (table._shadow is not None or self._drives(table)):
                self._tick(table, at)

    # -- several processes on one database: who drives a table, and the others' moves -------------------------

    def cluster_status(self) -> dict[str, Any] | None:
        """``None`` for a process alone on its database; else this process's id (the ``holder`` of its rows in
        ``leases``), how many tables' timed steps it drives and whether it hears the other processes' moves."""
        if self.leases is None or self.notices is None:
            return None
        with self._lock:
            held = list(self.tables)
        return {
            "process": self.leases.node,
            "drives": sum(self.leases.holds(tid) for tid in held),
            "listening": self.notices.connected.is_set(),
        }

    def _drives(self, table: LiveTable) -> bool:
        """Whether this process takes ``table``'s timed steps (it holds the table's lease, or there are none)."""
        return self.leases is None or self.leases.take(table.id)

    def _due_at(self, table: LiveTable) -> float | None:
        """When the clock should next look at ``table``: its next timed step, or, when another process drives
        it, when this one may next ask for its lease."""
        if table.wake_at is None or self.leases is None or table._shadow is not None:
            return table.wake_at
        return max(table.wake_at, self.leases.next_try(table.id))

    def _driven(self) -> list[str]:
        """The tables whose leases this process keeps: those held in memory and not over."""
        with self._lock:
            return [tid for tid, t in self.tables.items() if not t.over]

    def _watched(self) -> list[str]:
        """The tables someone watches through this process (a socket open on it)."""
        with self._lock:
            return [tid for tid, t in self.tables.items() if t.listeners]

    def _watched_elsewhere(self, table_ids: set[str]) -> None:
        """Someone watches these tables through another process: their people's timers run here too."""
        with self._lock:
            tables = [self.tables[tid] for tid in table_ids if tid in self.tables]
        for table in tables:
            table.touch()

    def _on_notice(self, table_id: str) -> None:
        """Another process changed ``table_id``: read it again if it is held, and push it to its sockets."""
        with self._lock:
            table = self.tables.get(table_id)
        if table is not None:
            with contextlib.suppress(WebError):
                self._refresh(table)
            self._wake_clock()

    def _on_reconnect(self) -> None:
        """The notices were interrupted (some may be lost): read every held table again."""
        with self._lock:
            held = list(self.tables)
        for table_id in held:
            self._on_notice(table_id)

    def _tick(self, table: LiveTable, now: float) -> None:
        with table.lock:
            before = table._snapshot()
            try:
                stored = table.tick(now)
                if stored:
                    self._commit(table, before["step"])
            except StaleWrite:
                table._restore(before)
                with contextlib.suppress(WebError):
                    self._refresh(table)
                return
            except Exception as e:  # a store that refused the write: put the table back and try again in a second
                table._restore(before)
                if isinstance(e.__cause__, StoreClosed):  # the store was closed: the server stops
                    table.wake_at = None
                    return
                log.warning("table %s: a timed step could not be stored (%s); retrying", table.id, e)
                table.wake_at = now + 1.0
                return
        table.notify()

    def _commit(self, table: LiveTable, step: int) -> None:
        with self._storing(table.id):
            self._persist(table, step)

    def _persist(self, table: LiveTable, expected_step: int | None) -> None:
        """Store ``table``: a new one (``expected_step`` ``None``), or a change of the table stored at
        ``expected_step`` and at the table's :attr:`~LiveTable.version`, which the write advances."""
        if table.over:
            # the table itself is kept only where a person holds a token to view it with
            state = table.stored_table() if any(i.kind == "human" for i in table.seats) else None
            self.store.finish_table(table.id, table.stored_game(), expected_step, state)
        else:
            self.store.save_table(table.stored_table(), expected_step)
        if expected_step is not None:
            table.version += 1

    @contextlib.contextmanager
    def _storing(self, table_id: str) -> Iterator[None]:
        """A context in which a store failure (disk full, database locked, a lost connection) becomes
        :class:`Unavailable`."""
        try:
            yield
        except (StoreError, OSError) as e:
            raise Unavailable(
                f"table {table_id}: the game store refused the request ({e}); nothing changed, try again"
            ) from e
