"""Live tables in the server process: seats (human or bot), secret per-seat tokens, views and actions.

A :class:`LiveTable` wraps a :class:`~jantaku.table.game.Game`. People act by *index* into their list of legal
actions together with the table's ``step`` (how many actions the game has taken) as they saw it: a submission
made against an older state (a second tab, a double click) is refused with 409, an illegal one with 400
naming the rule, and in both cases nothing changes. Bots act at once until a person must decide, or at the
table's pace (:class:`TableOptions`, :class:`LiveTable`: a call window after every discard, a finished hand held
under its result, a turn timer, each person's auto options; a clock thread runs the timed steps). Every
change is written to the :class:`~jantaku.web.storage.GameStore` (rules, seed and the actions so far) before
it is answered or shown to anyone, so a table survives a server restart; a write the store refuses (disk full,
database locked) is answered with 503 and the table is put back exactly as it was, and a write that another
server process on the same file got in first is refused with 409. A finished game is stored with its complete
event log.

The :class:`TableManager` keeps only tables in play in memory: a finished game, and a table nobody has used
for a while, leave memory and are rebuilt from the store when asked for (lazily, one table at a time, so a
restarted server answers at once). It caps the tables it holds and the tables one client may create per
minute.

A seat's view (:meth:`LiveTable.view`) holds its own hand and everything public, never another seat's closed
tiles (nor the game's seed, from which every wall follows), nor another seat's options: while other seats
may answer a discard (pon, chi, kan, ron), rob a kan or declare tenpai, the view says only that the table is
waiting (see :meth:`LiveTable.view`). Its ``step`` counts the changes this seat can see, so a pass is not
counted by anyone but the seat that passed.

A human seat's link is an invitation (:class:`SeatInfo`): the first to open it claims the seat
(:meth:`TableManager.claim`) and alone holds its secret token from then on; the creator, who holds the table's
owner token and its own seat's token, can replace an invitation nobody has used, never read a claimed seat.

A table with people also has a read-only spectator link (:meth:`LiveTable.spectator_token`, derived from the
owner's token): its view (:meth:`LiveTable.spectator_view`) holds the public table only, no closed tile and no
options, until the game is over, when every hand is shown; it can never act.

(The manager, :class:`~jantaku.web.manager.TableManager`, holds the server's tables.)
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import copy
import hashlib
import hmac
import logging
import math
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from jantaku.bots import make_bot
from jantaku.errors import JantakuError
from jantaku.rules.ruleset import Ruleset
from jantaku.table import Game
from jantaku.table.actions import ANKAN, CHI, DAIMINKAN, DISCARD, KAKAN, PASS, PON, RON, TENPAI, TSUMO, Action
from jantaku.table.kyoku import CHANKAN, DRAWN, ENDED, RESPONSES, IllegalActionError, Kyoku

from .errors import BadRequest, Conflict, Forbidden, NotFound, Unavailable
from .gamestore import StoredGame, StoredTable, utc_now
from .options import (
    _ANNOUNCED,
    _ANSWER_PHASES,
    _EARLY,
    _PUBLIC_PHASES,
    _SPECTATOR_KEYS,
    _WINDOW_KINDS,
    _WINDS,
    AUTO_KEYS,
    SPECTATOR,
    TIMERS,
    UNWATCHED_SECONDS,
    WAITING,
    TableOptions,
    _is_int,
    _no_auto,
    table_rules,
)
from .views import (
    _meld_json,
    _sorted_ids,
    _win_tiles,
    action_from_json,
    action_to_json,
    hand_result_json,
    waits_json,
)

log = logging.getLogger("jantaku.web")

# -- a table --------------------------------------------------------------------------------------------------


@dataclass
class SeatInfo:
    """Who sits at a seat: ``kind`` is ``human`` or ``bot``.

    A human seat is either *claimed*, when its ``token`` (the secret its holder acts with) is set, or open,
    when only its ``invite`` is: the code of the invitation link the table's creator shares. The first browser
    that opens the invitation claims the seat and receives the token; the creator never sees it.
    """

    kind: str
    name: str
    bot: str | None = None
    token: str | None = None
    invite: str | None = None

    @property
    def claimed(self) -> bool:
        """Whether a person holds this (human) seat."""
        return self.kind == "human" and self.token is not None

    def to_json(self, with_token: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "bot": self.bot}
        if with_token:
            out["token"] = self.token
            if self.invite is not None:
                out["invite"] = self.invite
        return out


Commit = Callable[["LiveTable", int], None]
"""Stores a table's new state; given the table and the step it was at before the change."""


@dataclass
class _Listener:
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[int]
    seat: int | None = None
    told: tuple[int, str, int] = (-1, "", 0)
    """What the seat's view showed when this listener was last woken (:meth:`LiveTable.seen_key`): a seat's
    listener is woken only when that changed."""


@dataclass
class _Shadow:
    """What the seats not asked to answer a move see during its call window: the hand right after the move,
    before any answer (see :class:`LiveTable`); ``at`` is the move's place in the table's actions."""

    kyoku: Kyoku
    round_name: str
    results: int
    until: float
    seats: frozenset[int]
    steps: dict[int, int]
    at: int = -1


@dataclass
class _Hold:
    """A finished hand's board held under its result panel: until every person closed it (``ready``: the seats
    that did), or ``until``."""

    until: float | None
    ready: set[int] = field(default_factory=set)


@dataclass
class LiveTable:
    """One game in play. Use :meth:`act` to move it; :meth:`view` to show it to a seat.

    **Pace** (``options.pace`` milliseconds, :data:`PACES`): at a table with a person, bots (and a person's
    automatic moves) take their turns one step at a time, ``pace`` apart, driven by :meth:`tick` (the
    :class:`TableManager`'s clock calls it); a pace of 0 plays them at once. Answers to a discard or a kan
    (a bot's call or pass, a person's automatic pass) are taken at once, so nothing waits longer than the
    pace. Every move that others may answer (a discard, a kan) opens a *call window* of one step: until it
    closes, every person who was not asked to answer sees the table as it was right after the move (the
    discard in its river, the table waiting), whether or not anyone may answer it and however fast an answer
    came, so neither the wait nor the number of messages tells that someone could call. The window's move and
    end are stored with the table (:meth:`timing`): another server process that reads the table opens the same
    window until the same moment (:func:`rebuild_table`).

    **Hand's end** (``options.result_seconds``): when a hand ends and the game goes on, every seat goes on
    seeing the finished hand (rivers, melds, the result) until every person at the table has closed the
    result panel (:meth:`ready`) or the seconds have passed; only then is the next deal shown and played. Who
    closed it and when its seconds are up are stored with the table (:meth:`timing`), so every server process
    that reads the table counts the same people and the same seconds.

    **Timer** (``options.timer``, :data:`TIMERS`): a person asked to decide has the decision's seconds plus
    what is left of the hand's bank; on expiry the table answers for them (:meth:`_timeout_choice`: pass a
    call, discard the drawn tile), never taking a win unless the person's auto-win is on.

    **Auto options** (:attr:`auto`, per seat, :data:`AUTO_KEYS`): kept with the table and applied whenever
    the seat is asked."""

    id: str
    rules: str
    seed: str
    seats: list[SeatInfo]
    created: str
    game: Game
    actions: list[dict[str, Any]] = field(default_factory=list)
    owner: str | None = None
    tokens: int = 0
    hand_results: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.RLock = field(default_factory=threading.RLock)
    listeners: list[_Listener] = field(default_factory=list)
    last_used: float = field(default_factory=time.monotonic)
    options: TableOptions = field(default_factory=TableOptions)
    auto: list[dict[str, bool]] = field(default_factory=lambda: [_no_auto() for _ in range(4)])
    released: int = 0
    """How many finished hands' boards were let go (every person closed the result, or its time ran out)."""
    version: int = 0
    """The version of the stored row this state extends (:attr:`StoredTable.version`): the table's next write is
    made only if nobody wrote the row since, and advances it (the manager counts it)."""
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time
    """The wall clock (seconds since 1970) the stored times are kept in (a test clock is its own)."""
    scheduler: Callable[[], None] | None = None
    """Called when the table's next timed step (:attr:`wake_at`) may have changed (the manager's clock)."""
    wake_at: float | None = None
    """When :meth:`tick` has something to do next (a call window closing, a bot's step, a timer, a hold)."""
    _bots: dict[int, Any] = field(default_factory=dict)
    _seen: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Per seat, how many times its being asked to act began or ended (a part of :meth:`view_step`)."""
    _ended: Kyoku | None = None
    _ended_round: str = ""
    _shadow: _Shadow | None = None
    _hold: _Hold | None = None
    _last_change: float = 0.0
    _turns: dict[int, tuple[int, float]] = field(default_factory=dict)
    _paused_at: float | None = None
    """When the people's turn timers stopped because nobody watched the table (:meth:`watched`), or ``None``."""
    """Per person asked now: the view step of the decision and when it was shown (for the timer)."""
    _bank: list[float] = field(default_factory=lambda: [0.0] * 4)
    _bank_hand: int = -1

    def __post_init__(self) -> None:
        for s, info in enumerate(self.seats):
            if info.kind == "bot":
                self._bots[s] = make_bot(info.bot or "efficiency", seed=f"{self.seed}:{s}")

    @property
    def step(self) -> int:
        """How many actions the game has taken (a client echoes it back with its action)."""
        return len(self.actions)

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def humans(self) -> list[int]:
        return [s for s, info in enumerate(self.seats) if info.kind == "human"]

    @property
    def paced(self) -> bool:
        """Whether bots take their turns a step at a time (a pace and at least one person at the table)."""
        return self.options.pace > 0 and bool(self.humans)

    def ruleset(self) -> Ruleset:
        """The table's rule set: its preset, with the chosen game length."""
        return table_rules(self.rules, self.options)

    def view_step(self, seat: int) -> int:
        """The ``step`` of ``seat``'s view, which a client echoes back with its action: the public events of the
        game so far (draws, discards, calls, riichi, dora, wins, draws of the hand...) plus the times this seat
        was asked to act or answered, plus the finished hands let go. It moves whenever the view changes, and it
        is a function of what this seat may know: another seat's pass on a discard adds nothing (a pass that
        settles the discard brings the same events, the next draw or call, as a discard nobody could answer),
        so neither the step nor how far it moves tells who else could call. During a call window a seat not
        asked to answer is at the step of the move itself. It follows from the actions alone (a table rebuilt
        from the store counts the same); it is not the table's :attr:`step`, which counts every action. A
        spectator's (:data:`SPECTATOR`) counts the public events and the finished hands let go, and during a call
        window it is a watcher like any seat not asked (so a spectator cannot time who could call either)."""
        sh = self._shadow
        if sh is not None and seat in sh.steps:
            return sh.steps[seat]
        if seat == SPECTATOR:
            return self.game.event_count + self.released
        return self.game.event_count + self._seen[seat] + self.released

    def seen_key(self, seat: int) -> tuple[int, str, int]:
        """What ``seat``'s view shows, in brief: its :meth:`view_step` and which scene it is shown (a call window
        it watches, a finished hand held under its result, the live table, the game over). A listener is told
        whenever this changes: a scene can change with the step unchanged (a person's own added kan: the call
        window's step counts the kan and the end of the turn, the table after it the kan and the replacement
        draw), and the page must then be sent what it now shows. Like the step, it is a function of what the
        seat may see."""
        sh = self._shadow
        if sh is not None and (seat in sh.seats or seat == SPECTATOR):
            return self.view_step(seat), "window", sh.results
        if self._hold is not None:
            return self.view_step(seat), "held", len(self.hand_results)
        return self.view_step(seat), "over" if self.game.over else "live", len(self.hand_results)

    def _asked(self) -> list[bool]:
        """Per seat, whether it is asked to act now."""
        return [bool(self.game.legal_actions(s)) for s in range(4)]

    def seat_of(self, token: str | None) -> int:
        """The seat a token belongs to; :class:`Forbidden` for any other token."""
        if isinstance(token, str) and token:
            for s, info in enumerate(self.seats):
                if info.kind == "human" and info.token is not None and secrets.compare_digest(info.token, token):
                    return s
        raise Forbidden("this token does not belong to a seat at this table")

    def _shown_legal(self, seat: int) -> list[Action]:
        """The actions ``seat`` is offered in the view it is shown (none during a call window it only watches,
        nor while a finished hand is held)."""
        sh = self._shadow
        if self.game.over or self._hold is not None or (sh is not None and seat in sh.seats):
            return []
        return self.game.legal_actions(seat)

    def spectator_token(self) -> str | None:
        """The secret of the table's read-only link (``None`` for a table without people, which has no owner).
        It follows from the owner's token (an HMAC), so it survives a restart without being stored, and it
        tells nothing of the owner's token or any seat's."""
        if self.owner is None:
            return None
        digest = hmac.new(self.owner.encode(), b"jantaku spectator link", hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:18]).decode()

    def is_spectator(self, token: str | None) -> bool:
        """Whether ``token`` is this table's read-only (spectator) link."""
        watch = self.spectator_token()
        return isinstance(token, str) and watch is not None and secrets.compare_digest(watch, token)

    # -- moving the game -------------------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        """Apply one action (raises IllegalActionError, state unchanged), noting a hand's end."""
        k = self.game.kyoku
        was_playing = k.phase != ENDED
        round_name = self.game.round_name
        before = self._asked()
        self.game.apply(action)
        self.actions.append(action_to_json(action))
        if was_playing and k.phase == ENDED:
            self.hand_results.append(hand_result_json(k, len(self.hand_results) + 1, round_name))
            self._ended, self._ended_round = k, round_name
            if self.options.result_seconds and self.humans and not self.game.over:
                self._hold = _Hold(None)
        for s, now in enumerate(self._asked()):
            if now != before[s]:
                self._seen[s] += 1

    def _apply_move(self, action: Action, now: float) -> None:
        """Apply a move at a live table: a move others may answer opens its call window (at a paced table)."""
        game = self.game
        answering = game.yame_choice is None and game.kyoku.phase in _ANSWER_PHASES
        if not (self.paced and action.kind in _WINDOW_KINDS and not answering):
            self._apply(action)
            self._last_change = now
            return
        before_events = game.event_count
        before_kyoku = len(game.kyoku.events)
        seen = [self._seen[s] + bool(game.legal_actions(s)) for s in range(4)]
        shadow = self._shadow_kyoku(action)
        round_name, results = game.round_name, len(self.hand_results)
        self._apply(action)
        k = self.game.kyoku
        answers = set(k.options) if k.phase in (RESPONSES, CHANKAN) else set()
        watchers = frozenset(s for s in self.humans if s not in answers)
        added = len(shadow.events) - before_kyoku
        steps = {s: before_events + added + seen[s] + self.released for s in watchers}
        steps[SPECTATOR] = before_events + added + self.released
        at = len(self.actions) - 1
        self._shadow = _Shadow(shadow, round_name, results, now + self.options.pace / 1000, watchers, steps, at)
        self._last_change = now

    def _shadow_kyoku(self, action: Action) -> Kyoku:
        """A copy of the hand with ``action`` applied and nothing after it: no answer asked of anyone, no draw,
        no kan completed; the table as everyone not asked to answer sees it during the call window."""
        k = self.game.kyoku.copy()
        k._after_discard_settles = lambda: None  # type: ignore[method-assign]
        k._finish_kan = lambda seat: None  # type: ignore[method-assign]
        k._finish_ankan = lambda seat: None  # type: ignore[method-assign]
        k.apply(action)
        k.options, k.answers = {}, {}
        k.phase = CHANKAN if action.kind in (KAKAN, ANKAN) else RESPONSES
        return k

    def _choose_auto(self, own_turn: bool) -> Action | None:
        """The next move nobody needs to be asked for: a bot's, or a person's automatic one (:attr:`auto`);
        answers to a discard or kan always, own-turn moves only with ``own_turn``."""
        game = self.game
        if game.over or self._hold is not None:
            return None
        answering = game.yame_choice is None and game.kyoku.phase in _ANSWER_PHASES
        if not answering and not own_turn:
            return None
        for s in game.to_act():
            legal = game.legal_actions(s)
            if s in self._bots:
                return self._bots[s].act(game.view(s), legal)
            a = self._auto_choice(s, legal, answering)
            if a is not None:
                return a
        return None

    def _auto_pending(self) -> bool:
        """Whether a bot or a person's auto option has an own-turn move to take (without asking a bot)."""
        game = self.game
        if game.over or self._hold is not None:
            return False
        answering = game.yame_choice is None and game.kyoku.phase in _ANSWER_PHASES
        return any(
            s in self._bots or self._auto_choice(s, game.legal_actions(s), answering) is not None for s in game.to_act()
        )

    def _auto_choice(self, seat: int, legal: list[Action], answering: bool) -> Action | None:
        """A person's automatic move under their :attr:`auto` options, or ``None`` (they decide)."""
        auto = self.auto[seat]
        if not legal:
            return None
        if auto["win"]:
            for a in legal:
                if a.kind in (TSUMO, RON):
                    return a
        kinds = {a.kind for a in legal}
        if answering:
            if auto["no_calls"] and PASS in kinds and kinds <= {CHI, PON, DAIMINKAN, PASS}:
                return next(a for a in legal if a.kind == PASS)
            return None
        k = self.game.kyoku
        if auto["riichi_discard"] and self.game.yame_choice is None and k.seats[seat].riichi and kinds == {DISCARD}:
            return next((a for a in legal if a.tsumogiri), None)
        return None

    def _timeout_choice(self, legal: list[Action]) -> Action:
        """What the table does for a person whose time ran out: pass a call (or a robbable kan), discard the
        drawn tile (else the last tile of the hand), declare tenpai at the draw; never a win."""
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        if PASS in by_kind:
            return by_kind[PASS][0]
        if DISCARD in by_kind:
            return next((a for a in by_kind[DISCARD] if a.tsumogiri), by_kind[DISCARD][-1])
        if TENPAI in by_kind:
            return by_kind[TENPAI][0]
        return next((a for a in legal if a.kind not in (TSUMO, RON)), legal[0])

    def _run_auto(self, now: float) -> None:
        """Take every move nobody needs to be asked for that is due now: answers at once, own-turn moves too at a
        table without a pace."""
        own_turn = not self.paced
        for _ in range(10_000):
            a = self._choose_auto(own_turn)
            if a is None:
                return
            self._apply_move(a, now)

    def run_bots(self) -> None:
        """Let the bots (and the people's auto options) act until a person must decide, the game is over, a
        finished hand is held, or (at a paced table) the next step must wait for its time."""
        now = self.clock()
        self._last_change = now
        self._run_auto(now)
        self._settle(now)

    def _settle(self, now: float) -> None:
        """After a change: start the hold's time, the people's timers, and schedule the next timed step."""
        if self._hold is not None and self._hold.until is None:
            start = self._shadow.until if self._shadow is not None else now
            self._hold.until = start + self.options.result_seconds
        self._retime(now)
        self._reschedule(now)

    def _retime(self, now: float) -> None:
        """Start and stop the people's decision clocks: a decision starts when it is shown to its seat; the time
        it took past the decision's seconds comes off the hand's bank."""
        limits = TIMERS.get(self.options.timer)
        if limits is None:
            self._turns.clear()
            return
        per, bank = limits
        hand = self.game.hand_index
        if hand != self._bank_hand:
            self._bank_hand = hand
            self._bank = [float(bank)] * 4
        for s in self.humans:
            key = self.view_step(s)
            asked = bool(self._shown_legal(s))
            started = self._turns.get(s)
            if started is not None and (not asked or started[0] != key):
                used = now - started[1]
                self._bank[s] = max(0.0, self._bank[s] - max(0.0, used - per))
                del self._turns[s]
                started = None
            if asked and started is None:
                self._turns[s] = (key, now)

    def _deadline(self, seat: int) -> float | None:
        limits = TIMERS.get(self.options.timer)
        started = self._turns.get(seat)
        if limits is None or started is None:
            return None
        return started[1] + limits[0] + self._bank[seat]

    def _due(self) -> float | None:
        """When the next own-turn automatic move is due (one pace after the last change), or ``None``."""
        if not self.paced or self._shadow is not None or not self._auto_pending():
            return None
        return self._last_change + self.options.pace / 1000

    def _reschedule(self, now: float) -> None:
        times: list[float] = []
        if self._shadow is not None:
            times.append(self._shadow.until)
        elif self._hold is not None:
            if self._hold.until is not None:
                times.append(self._hold.until)
        elif not self.game.over:
            due = self._due()
            if due is not None:
                times.append(due)
            if self._paused_at is None:
                times.extend(d for s in self.humans if (d := self._deadline(s)) is not None)
        wake = min(times) if times else None  # a game over may still close its last call window
        changed = wake != self.wake_at
        self.wake_at = wake
        if changed and wake is not None and self.scheduler is not None:
            self.scheduler()

    def tick(self, now: float | None = None) -> bool:
        """Do what is due at ``now`` (default: the table's clock): close a call window, let go of a finished
        hand whose time is up, take a timed-out person's move, or one bot's (or automatic) step. Returns whether
        anything changed that must be stored (a move, a finished hand let go). The caller holds :attr:`lock`,
        stores the change and then calls :meth:`notify`."""
        now = self.clock() if now is None else now
        stored = False
        sh = self._shadow
        at = now + _EARLY  # compared with the times due
        if sh is not None:
            if at < sh.until:
                self._reschedule(now)
                return False
            self._shadow = None
            self._last_change = sh.until
        elif self._hold is not None:
            if self._hold.until is not None and at >= self._hold.until:
                self._release(now)
                stored = True
        elif not self.game.over:
            late = None
            if self._paused_at is None:
                late = next((s for s in self.humans if (d := self._deadline(s)) is not None and at >= d), None)
            if late is not None and not self.watched():
                # nobody watches: the people's timers stop here (an abandoned table makes no moves and writes
                # nothing) until someone opens the table again (:meth:`touch`)
                self._paused_at = now
                late = None
                self._reschedule(now)
            if late is not None:
                legal = self.game.legal_actions(late)
                if legal:
                    chosen = self._auto_choice(late, legal, self._answering()) or self._timeout_choice(legal)
                    self._apply_move(chosen, now)
                    self._run_auto(now)
                    stored = True
            else:
                due = self._due()
                if due is not None and at >= due:
                    a = self._choose_auto(own_turn=True)
                    if a is not None:
                        self._apply_move(a, now)
                        self._run_auto(now)
                        stored = True
        self._settle(now)
        return stored

    def watched(self) -> bool:
        """Whether anyone watches the table: a websocket open on it, or a request about it within the last
        :data:`UNWATCHED_SECONDS`. A table nobody watches stops its people's turn timers."""
        return bool(self.listeners) or time.monotonic() - self.last_used < UNWATCHED_SECONDS

    def touch(self) -> None:
        """Someone asked about the table: it is watched again, and a turn timer stopped meanwhile starts the
        person's decision over (its seconds, and the bank as it was: the person may be just back)."""
        self.last_used = time.monotonic()
        if self._paused_at is None:
            return
        with self.lock:
            if self._paused_at is None:
                return
            now = self.clock()
            self._turns = {s: (key, now) for s, (key, _) in self._turns.items()}
            self._paused_at = None
            self._reschedule(now)

    def _answering(self) -> bool:
        return self.game.yame_choice is None and self.game.kyoku.phase in _ANSWER_PHASES

    def _release(self, now: float) -> None:
        """Let go of a held finished hand: the next deal is shown (and played, where nobody needs asking)."""
        self._hold = None
        self.released = len(self.hand_results)
        self._last_change = now
        self._run_auto(now)

    def act(self, seat: int, step: int, index: int, commit: Commit | None = None) -> None:
        """Apply ``seat``'s legal action number ``index`` if the table is still at ``step``, then the bots.

        ``commit`` (given the table and the step it was at) stores the new state before anyone sees it; if it
        raises, the table is put back exactly as it was and the error goes on."""
        with self.lock:
            self._check_step(seat, step)
            legal = self._shown_legal(seat)
            if not legal:
                raise BadRequest(self._not_asked(seat))
            if not 0 <= index < len(legal):
                raise BadRequest(f"no legal action number {index}: seat {seat} has {len(legal)} (0-{len(legal) - 1})")
            self._move(legal[index], commit)
        self.notify()

    def apply_action(self, seat: int, step: int, action: Action, commit: Commit | None = None) -> None:
        """Like :meth:`act` with an explicit action (an illegal one is refused with 400 naming the rule)."""
        with self.lock:
            self._check_step(seat, step)
            if action.seat != seat:
                raise Forbidden(f"a seat may act only for itself (seat {seat}, action for seat {action.seat})")
            if not self._shown_legal(seat):
                raise BadRequest(self._not_asked(seat))
            self._move(action, commit)
        self.notify()

    def ready(self, seat: int, commit: Commit | None = None) -> None:
        """``seat`` closed the result panel of the finished hand held on the board; when every person has, the
        next deal is shown. Who closed it is stored with the table (``commit``), so a person closing it through
        another server process counts too. Nothing happens when no hand is held."""
        with self.lock:
            hold = self._hold
            if hold is None or seat in hold.ready:
                return
            with self._committed(commit) as now:  # (a failure puts back the snapshot's copy of the hold)
                hold.ready.add(seat)
                if set(self.humans) <= hold.ready:
                    self._release(now)
        self.notify()

    def set_auto(self, seat: int, changes: dict[str, bool], commit: Commit | None = None) -> None:
        """Change ``seat``'s auto options (kept with the table) and take any move they now decide."""
        with self.lock, self._committed(commit) as now:
            self.auto[seat] = {**self.auto[seat], **changes}
            if self._shadow is None or seat not in self._shadow.seats:
                self._run_auto(now)
        self.notify()

    @contextlib.contextmanager
    def _committed(self, commit: Commit | None) -> Iterator[float]:
        """A change of the table (made in the ``with`` block, given the time ``now``), then what it makes due
        (:meth:`_settle`) and ``commit``; on any failure the table is put back as it was (:meth:`_restore`)."""
        before = self._snapshot()
        now = self.clock()
        try:
            yield now
            self._settle(now)
            if commit is not None:
                commit(self, before["step"])
        except BaseException:
            self._restore(before)
            raise

    def _not_asked(self, seat: int) -> str:
        """The refusal of an action by a seat that is not asked to act: it names whose turn it is only when that
        is public (a draw/discard turn), never who else may answer a discard."""
        if self._hold is not None:
            return f"seat {seat} is not asked to act now (the hand is over: the next deal waits for the result panel)"
        turn = self._public_to_act(seat)
        if turn:
            return f"seat {seat} is not asked to act now (it is seat {turn[0]}'s turn)"
        return f"seat {seat} is not asked to act now (waiting for other players)"

    def _check_step(self, seat: int, step: int) -> None:
        if self.game.over:
            raise Conflict("the game is over")
        seen = self.view_step(seat)
        if step != seen:
            raise Conflict(f"stale action: this seat's view is at step {seen}, this was sent at step {step}")

    def _move(self, action: Action, commit: Commit | None) -> None:
        """Apply a person's action and the bots' answers, then ``commit``; on any failure after the person's
        action was applied, restore the table (an illegal action changes nothing)."""
        before = self._snapshot()
        now = self.clock()
        try:
            self._apply_move(action, now)
        except IllegalActionError as e:
            raise BadRequest(str(e)) from None
        try:
            self._run_auto(now)
            self._settle(now)
            if commit is not None:
                commit(self, before["step"])
        except BaseException:
            self._restore(before)
            raise

    def _snapshot(self) -> dict[str, Any]:
        """Everything a failed store puts back (see :meth:`_restore`)."""
        return {
            "step": self.step,
            "results": len(self.hand_results),
            "bots": copy.deepcopy(self._bots),
            "seen": list(self._seen),
            "shadow": self._shadow,
            "hold": copy.deepcopy(self._hold),
            "released": self.released,
            "auto": copy.deepcopy(self.auto),
            "last_change": self._last_change,
            "turns": dict(self._turns),
            "bank": list(self._bank),
            "bank_hand": self._bank_hand,
        }

    def _restore(self, snap: dict[str, Any]) -> None:
        """Put the table back as in ``snap``: the game replayed from its seed and first ``step`` actions (the game
        follows from them alone), the hand results, the bots, the seats' view steps and the timing as they were."""
        step = snap["step"]
        actions = self.actions[:step]
        game = Game(self.ruleset(), seed=self.seed, names=[i.name for i in self.seats])
        for a in actions:
            k, name = game.kyoku, game.round_name
            playing = k.phase != ENDED
            game.apply(action_from_json(a))
            if playing and k.phase == ENDED:
                self._ended, self._ended_round = k, name
        self.game, self.actions, self.hand_results = game, actions, self.hand_results[: snap["results"]]
        self._bots, self._seen, self._shadow, self._hold = snap["bots"], snap["seen"], snap["shadow"], snap["hold"]
        self.released, self.auto, self._last_change = snap["released"], snap["auto"], snap["last_change"]
        self._turns, self._bank, self._bank_hand = snap["turns"], snap["bank"], snap["bank_hand"]
        self._reschedule(self.clock())

    def resume(self, now: float | None = None, timing: dict[str, Any] | None = None) -> None:
        """After the table was rebuilt from the store: hold a finished hand not yet let go, until the time stored
        with it (``timing``, the stored options: the same moment for every process that reads the table) and with
        the people who closed its result panel, keep the call window the replay opened (:func:`rebuild_table`)
        until its stored time, and schedule what is due (a paced bot's step, the people's timers). A time
        stored further off than the whole hold (or window) is taken as that (a clock set wrong elsewhere)."""
        now = self.clock() if now is None else now
        timing = timing or {}
        sh = self._shadow
        if sh is not None:
            window = timing.get("window")
            until = self._local(window.get("until")) if isinstance(window, dict) else None
            sh.until = min(until, now + self.options.pace / 1000) if until is not None else now
            if sh.until <= now + _EARLY:
                self._shadow = None
        held = len(self.hand_results) > self.released and self.options.result_seconds and self.humans
        self._hold = None
        if held and not self.game.over:
            stored = timing.get("hold")
            if not isinstance(stored, dict) or stored.get("hand") != len(self.hand_results):
                stored = {}
            start = self._shadow.until if self._shadow is not None else now
            until = self._local(stored.get("until"))
            full = start + self.options.result_seconds
            ready = stored.get("ready")
            seats = {s for s in ready if s in self.humans} if isinstance(ready, list) else set()
            self._hold = _Hold(full if until is None else min(until, full), seats)
        self._last_change = now
        self._resume_timers(timing.get("turn_clock"), now)
        self._settle(now)

    def _wall(self, at: float) -> float:
        """The wall clock's time (seconds since 1970) of the table clock's ``at``: what is stored, so that another
        process (its own monotonic clock) reads the same moment."""
        return round(self.wall() + (at - self.clock()), 3)

    def _local(self, wall: Any) -> float | None:
        """The table clock's time of a stored wall clock time (:meth:`_wall`), or ``None`` for no time."""
        if not _is_real(wall):
            return None
        return self.clock() + (float(wall) - self.wall())

    # -- listeners (websockets) ------------------------------------------------------------------------------

    def subscribe(self, seat: int | None = None) -> _Listener:
        """A queue (of the running event loop) that gets a step after every change; with ``seat``, only after a
        change that seat can see (its :meth:`view_step` moved), so the messages pushed to a seat do not tell
        when another seat passed on a discard."""
        listener = _Listener(asyncio.get_running_loop(), asyncio.Queue(), seat)
        with self.lock:
            if seat is not None:
                listener.told = self.seen_key(seat)
            self.listeners.append(listener)
        self.touch()
        return listener

    def unsubscribe(self, listener: _Listener) -> None:
        with self.lock:
            if listener in self.listeners:
                self.listeners.remove(listener)

    def notify(self, wake: int | None = None) -> None:
        """Tell every listener the table changed (thread-safe; from any thread or loop). A seat's listeners are
        told only when its view moved, or when it is ``wake`` (its link was reissued: the old link's sockets
        must learn that they no longer hold the seat)."""
        told: list[tuple[_Listener, int]] = []
        with self.lock:
            for li in self.listeners:
                if li.seat is None:
                    told.append((li, self.step))
                    continue
                seen = self.seen_key(li.seat)
                if seen != li.told or li.seat == wake:
                    li.told = seen
                    told.append((li, seen[0]))
        for li, step in told:
            try:
                li.loop.call_soon_threadsafe(li.queue.put_nowait, step)
            except RuntimeError:  # the listener's loop is closed
                self.unsubscribe(li)

    # -- what a seat sees ------------------------------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see, as JSON: own hand (sorted, drawn tile apart), the public table, the
        legal actions with their indices, the last hand's result and the final table once the game is over.

        Nothing in it tells of another seat's options: ``to_act`` names another seat only on its draw/discard
        turn (or the all-last dealer's choice to stop), which everyone sees; while other seats may answer a
        discard, rob a kan or declare tenpai it holds this seat alone if this seat is asked too, else nothing,
        and ``round.phase`` is :data:`WAITING` unless this seat is asked. ``step`` is :meth:`view_step`."""
        with self.lock:
            return self._view(seat)

    def spectator_view(self) -> dict[str, Any]:
        """What a spectator (the read-only link) sees: the public table as every seat sees it, with no closed
        tile of any seat and no seat's options (``hand`` empty, ``actions`` empty, no ``waits``; ``to_act`` and
        ``round.phase`` as told to a seat that is not asked, see :meth:`view`). Once the game is over every
        seat's closed tiles of the last hand are shown (``players[s]["hand"]``). ``seat`` is ``None`` and
        ``spectator`` true; ``step`` counts the public events (a pass on a discard does not move it)."""
        with self.lock:
            seat_view = self._view(0, viewer=SPECTATOR)
            k, _, _, _ = self._scene(SPECTATOR)
            live = k is self.game.kyoku and not (self._hold is not None and k is self._ended)
            out = {key: seat_view[key] for key in _SPECTATOR_KEYS if key in seat_view}
            phase = self._public_phase(SPECTATOR) if live else (ENDED if k.phase == ENDED else WAITING)
            out["round"] = {**seat_view["round"], "phase": phase}
            out["players"] = [dict(p) for p in seat_view["players"]]
            if self.game.over:
                k = self.game.kyoku
                for p in out["players"]:
                    p["hand"] = [k.tile(i).mpsz for i in _sorted_ids(k, k.seats[p["seat"]].tiles)]
            out.update(
                spectator=True,
                seat=None,
                step=self.view_step(SPECTATOR),
                hand=[],
                drawn=None,
                to_act=self._public_to_act(SPECTATOR) if live else [],
                actions=[],
                waits=None,
            )
            return out

    def _public_to_act(self, seat: int) -> list[int]:
        """The seats ``seat`` may be told the table waits for: the seat on its (public) draw/discard turn or the
        all-last dealer deciding whether to stop; ``seat`` itself whenever it is asked; nobody else."""
        game = self.game
        if game.over:
            return []
        waiting = game.to_act()
        if game.yame_choice is not None or game.kyoku.phase in _PUBLIC_PHASES:
            return waiting
        return [seat] if seat in waiting else []

    def _public_phase(self, seat: int) -> str:
        """The hand's phase as ``seat`` may see it: a private decision (answers to a discard, a robbable kan, a
        tenpai declaration) is named only to a seat asked to take part in it."""
        k = self.game.kyoku
        if k.phase in _PUBLIC_PHASES or seat in k.to_act():
            return k.phase
        return WAITING

    def _scene(self, seat: int) -> tuple[Kyoku, str, int, bool]:
        """What ``seat`` is shown: the hand (the live one, a call window's, or a held finished one), its round's
        name, how many hand results it shows and whether the game is shown as over."""
        sh = self._shadow
        if sh is not None and (seat in sh.seats or seat == SPECTATOR):
            return sh.kyoku, sh.round_name, sh.results, False
        if self._hold is not None and self._ended is not None:
            return self._ended, self._ended_round, len(self.hand_results), False
        return self.game.kyoku, self.game.round_name, len(self.hand_results), self.game.over

    def _view(self, seat: int, viewer: int | None = None) -> dict[str, Any]:
        """``seat``'s view; ``viewer`` (default ``seat``) is whose scene it shows: :data:`SPECTATOR` for a
        spectator's view, built on a seat's and then stripped of everything private."""
        game = self.game
        k, round_name, shown_results, over = self._scene(seat if viewer is None else viewer)
        live = k is game.kyoku and not (self._hold is not None and k is self._ended)
        v = k.view(seat).seat_view  # the hand as this seat knows it, built from the events it received
        tile_of = v._tiles
        key: Callable[[int], int] = lambda i: tile_of[i].sort_key  # noqa: E731
        own = v.own
        drawn = v.drawn if (v.phase == DRAWN and v.actor == seat and v.drawn in own.tiles) else None
        hand = sorted((i for i in own.tiles if i != drawn), key=key)
        players = []
        for s in range(4):
            st = v.seats[s]
            players.append(
                {
                    "seat": s,
                    "name": self.seats[s].name,
                    "kind": self.seats[s].kind,
                    "bot": self.seats[s].bot,
                    "wind": _WINDS[v._seat_wind(s)],
                    "score": v.scores[s],
                    "riichi": st.riichi,
                    "hand_count": v.closed_count(s),
                    "has_drawn": v.phase == DRAWN and v.actor == s and not over,
                    "river": [
                        {
                            "tile": tile_of[r.tile].mpsz,
                            "tsumogiri": r.tsumogiri,
                            "riichi": r.riichi,
                            "called_by": r.called_by,
                        }
                        for r in st.river
                    ],
                    "melds": [_meld_json(m) for m in st.melds],
                    "won": bool(v.won[s]),
                }
            )
        # 洁律's points mode: a winner leaves the hand and the others play on; every winner's hand and S is public
        wins_so_far = []
        if k.rules.family == "jielu":
            tiles = _win_tiles(k)
            for n, w in enumerate(k.wins):
                wins_so_far.append(
                    {
                        "seat": w.seat,
                        "from": w.from_seat,
                        "hand": [k.tile(i).mpsz for i in _sorted_ids(k, k.seats[w.seat].tiles)],
                        "win_tile": tiles[n] if n < len(tiles) else None,
                        "score": w.score.score,
                        "payments": list(w.payments),
                    }
                )
        legal = self._shown_legal(seat)
        final = None
        if over and game.result is not None:
            r = game.result
            final = {"scores": list(r.scores), "ranks": list(r.ranks), "final": list(r.final)}
        return {
            "table": self.id,
            "step": self.view_step(seat),
            "seat": seat,
            "rules": self.rules,
            "family": k.rules.family,
            "mode": k.rules.jielu_mode if k.rules.family == "jielu" else None,
            "round": {
                "name": round_name,
                "wind": _WINDS[v.round_wind],
                "number": v.hand_number,
                "dealer": v.dealer,
                "honba": v.honba,
                "deposits": v.deposits,
                "tiles_left": v.tiles_left,
                "dora_indicators": [tile_of[i].mpsz for i in v._dora_ids()],
                "phase": self._public_phase(seat) if live else (ENDED if k.phase == ENDED else WAITING),
            },
            "players": players,
            "hand": [tile_of[i].mpsz for i in hand],
            "drawn": tile_of[drawn].mpsz if drawn is not None else None,
            "to_act": self._public_to_act(seat) if live else [],
            "actions": [{"index": n, **action_to_json(a)} for n, a in enumerate(legal)],
            "waits": waits_json(v) if k.phase != ENDED and not v.won[seat] else None,
            "wins": wins_so_far,
            "hand_results": shown_results,
            "last_result": self.hand_results[shown_results - 1] if shown_results else None,
            "over": over,
            "final": final,
            **self._pacing_view(seat, k),
        }

    def _pacing_view(self, seat: int, k: Kyoku) -> dict[str, Any]:
        """The view's parts about pace and time: the table's options, the seat's own auto options, the last
        discard (its seat and place in that river), the last call, riichi, win or draw to announce (with its
        event number, so a page shows each once), the held finished hand (seconds left, whether this seat closed
        it) and this seat's own decision clock (never another seat's: it would tell who is deciding)."""
        last_discard = None
        announce = None
        for n in range(len(k.events) - 1, -1, -1):
            e = k.events[n]
            kind = e.get("type")
            if announce is None and kind in _ANNOUNCED:
                key = f"{k.round_wind}-{k.kyoku_number}-{k.honba}-{n}"
                announce = {"type": kind, "seat": e.get("actor"), "key": key}
                if kind == "hora":
                    announce["tsumo"] = e.get("actor") == e.get("target")
            if last_discard is None and kind == "dahai":
                actor = e["actor"]
                last_discard = {"seat": actor, "index": len(k.seats[actor].river) - 1}
            if announce is not None and last_discard is not None:
                break
        now = self.clock()
        hold = None
        if self._hold is not None and k is self._ended:
            left = max(0.0, (self._hold.until or now + self.options.result_seconds) - now)
            hold = {"seconds_left": round(left, 1), "ready": seat in self._hold.ready}
        timer = None
        limits = TIMERS.get(self.options.timer)
        deadline = self._deadline(seat)
        if limits is not None:
            timer = {"seconds": limits[0], "bank": round(self._bank[seat], 1), "left": None}
            if deadline is not None and self._shown_legal(seat):
                timer["left"] = round(max(0.0, deadline - now), 1)
        return {
            "options": self.options.to_json(),
            "auto": dict(self.auto[seat]),
            "last_discard": last_discard,
            "announce": announce,
            "hold": hold,
            "timer": timer,
        }

    # -- storage ---------------------------------------------------------------------------------------------

    def stored_table(self) -> StoredTable:
        """The table as stored: rules, seed, seats, actions, options and auto options, and the timing every
        process that reads it must agree on (:meth:`timing`)."""
        return StoredTable(
            self.id,
            self.created,
            utc_now(),
            self.rules,
            self.seed,
            [info.to_json(with_token=True) for info in self.seats],
            list(self.actions),
            "finished" if self.over else "playing",
            self.owner,
            self.tokens,
            {**self.options.to_json(), "auto": copy.deepcopy(self.auto), "released": self.released, **self.timing()},
            self.version,
        )

    def timing(self) -> dict[str, Any]:
        """What of the table's timing is stored with it, so that another server process reading it shows the
        same: the finished hand held (``hold``: its number, the wall clock time its hold ends and who closed its
        result panel) and the open call window (``window``: its move's place in the actions and the wall clock
        time it closes)."""
        out: dict[str, Any] = {}
        if self._hold is not None and self._hold.until is not None:
            out["hold"] = {
                "hand": len(self.hand_results),
                "until": self._wall(self._hold.until),
                "ready": sorted(self._hold.ready),
            }
        sh = self._shadow
        if sh is not None and sh.at >= 0:
            out["window"] = {"at": sh.at, "until": self._wall(sh.until)}
        if TIMERS.get(self.options.timer) is not None and self._bank_hand >= 0 and not self.game.over:
            out["turn_clock"] = {
                "hand": self._bank_hand,
                "bank": [round(b, 3) for b in self._bank],
                "turns": [[s, key, self._wall(at)] for s, (key, at) in sorted(self._turns.items())],
            }
        return out

    def _resume_timers(self, timer: Any, now: float) -> None:
        """The people's turn timers as another process stored them (:meth:`timing`): the hand's banks as they
        were spent, and each decision still open since the moment it was shown, so that a process taking a table
        over (or reading another's move) neither refills a bank nor gives a decision its seconds again. A decision
        whose time ran out while no process drove the table starts again now, with its bank as it was (as after a
        pause, :meth:`touch`): a timer never runs out unseen. Anything malformed is left out."""
        limits = TIMERS.get(self.options.timer)
        if limits is None or not isinstance(timer, dict) or timer.get("hand") != self.game.hand_index:
            return
        per, full = limits
        bank = timer.get("bank")
        if not (isinstance(bank, list) and len(bank) == 4 and all(_is_real(b) for b in bank)):
            return
        self._bank_hand = self.game.hand_index
        self._bank = [min(float(full), max(0.0, float(b))) for b in bank]
        turns = timer.get("turns")
        for entry in turns if isinstance(turns, list) else ():
            if not (isinstance(entry, list) and len(entry) == 3 and _is_int(entry[0]) and _is_int(entry[1])):
                continue
            seat, key, wall = entry
            if seat not in self.humans or key != self.view_step(seat) or not self._shown_legal(seat):
                continue
            at = self._local(wall)
            if at is None or at > now:
                at = now
            if at + per + self._bank[seat] <= now:  # ran out while nobody drove the table: shown again now
                at = now
            self._turns[seat] = (key, at)

    def stored_game(self) -> StoredGame:
        r = self.game.result
        summary: dict[str, Any] = {"hands": len(self.hand_results)}
        if self.options.length is not None:
            summary["length"] = self.options.length
        if r is not None:
            summary.update(scores=list(r.scores), ranks=list(r.ranks), final=list(r.final))
        return StoredGame(
            self.id,
            self.created,
            self.rules,
            [info.to_json() for info in self.seats],
            "finished" if self.over else "playing",
            self.game.events,
            summary,
        )


def rebuild_table(
    stored: StoredTable,
    clock: Callable[[], float] = time.monotonic,
    scheduler: Callable[[], None] | None = None,
    wall: Callable[[], float] = time.time,
) -> LiveTable:
    """The live table ``stored`` describes: its game replayed from the seed and its actions, ready to go on
    (:meth:`LiveTable.resume`), with its call window open again if its stored time has not passed;
    :class:`NotFound` when its actions do not replay. ``clock`` and ``wall``: the table's clocks."""
    infos = _seat_infos(stored)
    options = TableOptions.from_json(stored.options)
    game = Game(table_rules(stored.rules, options), seed=stored.seed, names=[i.name for i in infos])
    table = LiveTable(
        stored.id, stored.rules, stored.seed, infos, stored.created, game, options=options, clock=clock, wall=wall
    )
    table.scheduler = scheduler
    _take_stored_state(table, stored, infos)
    try:
        _replay(table, stored, 0)
    except (JantakuError, KeyError, ValueError) as e:
        raise NotFound(f"table {stored.id} cannot be restored ({e})") from None
    table.resume(table.clock(), stored.options)
    return table


def catch_up(table: LiveTable, stored: StoredTable) -> bool:
    """Bring ``table`` (held in memory) to the state ``stored`` describes by applying only the actions it has
    not applied yet, as :func:`rebuild_table` would have left it (what another process stored after a move of its
    own); ``False``, with nothing changed, when ``stored`` does not simply extend ``table`` (another game, other
    options, a call window reopened on a move already applied here), or when an action does not apply (the table
    may then be half moved on): the caller rebuilds it (:func:`rebuild_table`) and takes every part of it. The
    whole game is not replayed for every move another process makes. The caller holds the table's lock."""
    n = len(table.actions)
    window_at = _window_at(stored)
    if (
        stored.id != table.id
        or stored.rules != table.rules
        or stored.seed != table.seed
        or len(stored.actions) < n
        or (_is_int(window_at) and window_at < n)
        or TableOptions.from_json(stored.options) != table.options
        or stored.actions[:n] != table.actions
    ):
        return False
    fresh = stored.actions[n:]
    try:
        moves = [action_from_json(a) for a in fresh]
    except (JantakuError, KeyError, ValueError):
        return False
    table._shadow, table._hold = None, None
    table._turns, table._bank_hand = {}, -1
    try:
        _replay(table, stored, n, moves)
    except (JantakuError, KeyError, ValueError):  # the table is then half moved on: the caller rebuilds it all
        return False
    _take_stored_state(table, stored, _seat_infos(stored))
    table.resume(table.clock(), stored.options)
    return True


def _window_at(stored: StoredTable) -> Any:
    """The place in the actions of the move whose call window ``stored`` keeps open (``None``: no window)."""
    window = stored.options.get("window")
    return window.get("at") if isinstance(window, dict) else None


def _seat_infos(stored: StoredTable) -> list[SeatInfo]:
    return [SeatInfo(s["kind"], s["name"], s.get("bot"), s.get("token"), s.get("invite")) for s in stored.seats]


def _take_stored_state(table: LiveTable, stored: StoredTable, infos: list[SeatInfo]) -> None:
    """The stored table's seats, owner, links, row version, auto options and finished hands let go."""
    table.seats = infos
    table.owner, table.tokens, table.version = stored.owner, stored.tokens, stored.version or 0
    auto = stored.options.get("auto")
    if isinstance(auto, list) and len(auto) == 4 and all(isinstance(a, dict) for a in auto):
        table.auto = [{key: a.get(key) is True for key in AUTO_KEYS} for a in auto]
    released = stored.options.get("released", 0)
    table.released = released if _is_int(released) and released >= 0 else 0


def _replay(table: LiveTable, stored: StoredTable, start: int, moves: list[Action] | None = None) -> None:
    """Apply ``stored``'s actions from number ``start`` on (``moves``: them, already read) to ``table``; the
    move whose call window may still be open (its stored ``window``) opens it again as it was."""
    window_at = _window_at(stored)
    now = table.clock()
    actions = moves if moves is not None else [action_from_json(a) for a in stored.actions[start:]]
    for n, action in enumerate(actions, start):
        if n == window_at:
            table._apply_move(action, now)
        else:
            table._apply(action)


def play_bots_only(stored: StoredTable) -> StoredGame:
    """The whole game of a new table of four bots (``stored``, as :meth:`TableManager.prepare` made it), as it
    is stored: heavy work, run in a worker process (:mod:`jantaku.web.heavy_tasks`)."""
    table = rebuild_table(stored)
    table.run_bots()
    if not table.over:  # pragma: no cover - bots alone always play to the end
        raise Unavailable(f"table {stored.id}: the bots stopped before the end")
    return table.stored_game()


def _is_real(x: Any) -> bool:
    """Whether ``x`` is a finite number (not a bool)."""
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def _short(value: Any) -> str:
    """``repr(value)`` cut to 40 characters (error messages name the bad part, never a whole request)."""
    text = repr(value) if not isinstance(value, list | dict) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."
