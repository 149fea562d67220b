"""An external mjai bot process playing one seat of a jantaku game.

:class:`MjaiProcessAgent` implements the :class:`~jantaku.bots.base.Agent` protocol by talking to a program
over its stdin/stdout in the mjai.app style:

* jantaku writes one line: a JSON **array** of the events since the bot's last answer, as that seat sees
  them (:func:`~jantaku.table.seatview.as_seen_by`: others' draws and dealt hands are ``"?"``);
* the bot writes one line: one JSON action, e.g. ``{"type":"dahai","actor":0,"pai":"5m","tsumogiri":false}``,
  ``{"type":"reach","actor":0}``, ``{"type":"hora","actor":0,"target":2,"pai":"7p"}``,
  ``{"type":"pon","actor":0,"target":2,"pai":"7p","consumed":["7p","7p"]}``, ``{"type":"ankan",...}``,
  ``{"type":"kakan",...}``, ``{"type":"ryukyoku","actor":0}`` (nine terminals) or ``{"type":"none"}``.

jantaku asks only when the seat has a decision (its own turn, or a discard / added kan it may claim), so
every batch ends with the event the bot decides on. Riichi takes two answers, as on mjai.app: the bot
answers ``reach``, is sent ``[{"type":"reach","actor":seat}]`` and answers the discard; the pair becomes one
jantaku ``Action("reach", seat, tile)``, and the ``reach`` event is not sent a second time later. A
``tsumogiri`` flag that contradicts the tile (the bot says ``false`` but only the drawn copy exists, or the
reverse) is corrected rather than refused; anything else not legal raises
:class:`~jantaku.table.kyoku.IllegalActionError` naming the bot, its answer and what was legal. A process that
does not start, exits, does not answer within ``timeout`` seconds or writes something that is not a JSON
object raises :class:`MjaiBotError` (and the process is stopped).

**Where the events come from.** The view's :attr:`~jantaku.bots.base.PlayerView.events` (the hand's mjai
events, ``start_kyoku`` to ``end_kyoku``, as the seat sees them); the agent remembers how far it has sent them.
A new hand is noticed by the view's round, hand number and honba changing; the rest of the previous hand (its
result and ``end_kyoku``) is sent first. The game-level events that are not in any hand's list are
synthesised: a ``start_game`` (``id`` = the seat, ``names`` ``player0``..``player3``, ``rules`` = the rule
set's name, ``rule_changes`` where the game's rules differ from it) before the first hand, and an
``end_game`` (the scores after the last hand, before leftover deposits) when the agent is closed after a
finished hand. The all-last dealer's choice to stop (``yame``/``continue``) has no mjai counterpart: the bot
is not asked, the agent answers with ``yame`` (``stop_when_asked=False`` to continue instead).

**Lifetime.** The process is started at the first decision (so constructing an agent is cheap: ``simulate``
checks bot names by making them) and stopped by :meth:`close`, by leaving a ``with`` block, or when the
agent is garbage-collected. ``close()`` flushes the remaining events, closes the bot's stdin and waits up to
a second before killing it.

:func:`~jantaku.bots.simple.make_bot` makes one from ``mjai:COMMAND`` (the seat comes from the
``"SEED:SEAT"`` seed string the simulation runner passes, or else from the first view), so
``jantaku simulate --bots "mjai:python3 my_bot.py,efficiency,efficiency,efficiency"`` puts an external bot
at seat 0.

>>> agent = MjaiProcessAgent("python3 -c pass", seat=1)   # nothing starts until the first decision
>>> agent.argv, agent.seat, agent.running
(['python3', '-c', 'pass'], 1, False)
>>> agent.close()
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import json
import os
import queue
import shlex
import shutil
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any

from jantaku.errors import JantakuError
from jantaku.rules import rule_changes
from jantaku.table.actions import (
    ANKAN,
    CHI,
    CONTINUE,
    DAIMINKAN,
    DISCARD,
    KAKAN,
    KYUUSHU,
    PASS,
    PON,
    RIICHI,
    RON,
    STOP,
    TENPAI,
    TSUMO,
    Action,
)
from jantaku.table.kyoku import IllegalActionError
from jantaku.tiles import Tile

from .base import hand_key

if TYPE_CHECKING:
    from .base import PlayerView

__all__ = ["MjaiBotError", "MjaiProcessAgent", "action_to_mjai"]

_EOF = object()


class MjaiBotError(JantakuError):
    """An external mjai bot that cannot be talked to: it did not start, exited, timed out, or wrote non-JSON."""


def action_to_mjai(action: Action) -> dict[str, Any]:
    """The mjai message for a jantaku action (a riichi gives the ``reach`` message; its discard is separate).

    >>> action_to_mjai(Action.discard(1, Tile("0m"), tsumogiri=True))
    {'type': 'dahai', 'actor': 1, 'pai': '5mr', 'tsumogiri': True}
    >>> action_to_mjai(Action.pon(2, Tile("7z"), (Tile("7z"), Tile("7z"))))
    {'type': 'pon', 'actor': 2, 'pai': 'C', 'consumed': ['C', 'C']}
    """
    seat, kind = action.seat, action.kind
    pai = action.tile.mjai if action.tile is not None else None
    consumed = [t.mjai for t in action.consumed]
    if kind == DISCARD:
        return {"type": "dahai", "actor": seat, "pai": pai, "tsumogiri": action.tsumogiri}
    if kind == RIICHI:
        return {"type": "reach", "actor": seat}
    if kind in (TSUMO, RON):
        # the target of a ron is filled in by the caller, who knows the discarder
        return {"type": "hora", "actor": seat, "target": seat, "pai": pai}
    if kind in (CHI, PON, DAIMINKAN, KAKAN):
        return {"type": kind, "actor": seat, "pai": pai, "consumed": consumed}
    if kind == ANKAN:
        return {"type": "ankan", "actor": seat, "consumed": consumed}
    if kind == KYUUSHU:
        return {"type": "ryukyoku", "actor": seat}
    return {"type": "none"}


MAX_LINE = 1 << 20
"""The longest line (characters) read from a bot: an mjai action is a few hundred; a bot writing more without a
newline is stopped (a reader holding its whole output would take the memory it writes)."""

_OVERLONG = object()


def _pump_lines(stream: IO[str], out: queue.Queue[object]) -> None:
    """Reader thread: every line of ``stream`` into ``out``, then ``_EOF`` (or ``_OVERLONG`` for a line longer
    than :data:`MAX_LINE`, after which nothing more is read)."""
    try:
        while True:
            line = stream.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE:
                out.put(_OVERLONG)
                return
            out.put(line)
    except (OSError, ValueError):
        pass
    out.put(_EOF)


def _pump_tail(stream: IO[str], tail: collections.deque[str]) -> None:
    """Reader thread: keep the last lines of ``stream`` (the bot's stderr) for error messages (each cut to 500
    characters; a longer line is read in parts, never held whole)."""
    try:
        while True:
            line = stream.readline(MAX_LINE)
            if not line:
                break
            tail.append(line.rstrip("\n")[:500])
    except (OSError, ValueError):
        pass


_LIVE: weakref.WeakSet[MjaiProcessAgent] = weakref.WeakSet()
"""Agents with a running process: stopped at the interpreter's exit (see :func:`_stop_all`)."""


@atexit.register
def _stop_all() -> None:
    """At exit, stop every bot process still running and let the reader threads end, before the interpreter
    tears down the streams those threads read (reading a stream then aborts the process: SIGABRT)."""
    for agent in list(_LIVE):
        with contextlib.suppress(Exception):
            agent.close()


class MjaiProcessAgent:
    """An external mjai bot process at ``seat``: see the module docs.

    Args:
        command: the program and its arguments, split like a shell would (``python3 bot.py --flag``); a
            list is taken as the argument vector as is.
        seat: the seat it plays (0-3); ``None`` takes it from the first view it is asked with.
        timeout: seconds to wait for each answer.
        startup_timeout: seconds to wait for the first answer, which includes the program's start-up
            (default: the larger of ``timeout`` and 20 s; ``jantaku bot`` itself needs about a second to build
            its shanten tables).
        stop_when_asked: the answer to the all-last dealer's stop-or-continue choice, which mjai lacks.
        cwd, env: the process's working directory and extra environment variables.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        seat: int | None = None,
        timeout: float = 5.0,
        *,
        startup_timeout: float | None = None,
        stop_when_asked: bool = True,
        cwd: str | Path | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.command = command if isinstance(command, str) else shlex.join(command)
        try:
            self.argv = shlex.split(command, posix=os.name != "nt") if isinstance(command, str) else list(command)
        except ValueError as e:
            raise MjaiBotError(f"mjai bot command {command!r} cannot be read: {e}") from None
        if not self.argv:
            raise MjaiBotError("mjai bot command is empty (write it as mjai:PROGRAM ARGS...)")
        program = self.argv[0]
        if shutil.which(program) is None and not (Path(cwd or ".") / program).is_file():
            raise MjaiBotError(f"mjai bot {self.command!r}: program {program!r} not found")
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat <= 3):
            raise MjaiBotError(f"mjai bot {self.command!r}: seat must be 0-3, got {seat!r}")
        if timeout <= 0:
            raise MjaiBotError(f"mjai bot {self.command!r}: timeout must be positive, got {timeout}")
        self.seat = seat
        self.timeout = float(timeout)
        self.startup_timeout = float(startup_timeout) if startup_timeout is not None else max(self.timeout, 20.0)
        self.stop_when_asked = stop_when_asked
        self.cwd = cwd
        self.env = env
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._broken = False
        self._stderr_thread: threading.Thread | None = None
        self._stdout_thread: threading.Thread | None = None
        self._view: PlayerView | None = None
        """The view last asked with: its hand's events (a live sequence) are sent up to :attr:`_sent`."""
        self._hand: tuple[int, int, int] | None = None
        self._sent = 0
        self._started_game = False
        self._drop_reach = False
        self.exchanges = 0
        """Lines written to the bot and answered (for statistics and tests)."""

    # -- process -------------------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """The process has been started and has not exited."""
        return self._proc is not None and self._proc.poll() is None

    def _name(self) -> str:
        where = f" (seat {self.seat})" if self.seat is not None else ""
        return f"mjai bot {self.command!r}{where}"

    def _start(self) -> subprocess.Popen[str]:
        if self._proc is not None:
            return self._proc
        env = dict(os.environ)
        env.setdefault("PYTHONUNBUFFERED", "1")  # Python bots that forget to flush still answer
        if self.env:
            env.update(self.env)
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=self.cwd,
                env=env,
            )
        except OSError as e:
            self._broken = True
            raise MjaiBotError(f"{self._name()} could not be started: {e.strerror or e}") from None
        assert proc.stdout is not None and proc.stderr is not None
        self._stdout_thread = threading.Thread(target=_pump_lines, args=(proc.stdout, self._lines), daemon=True)
        self._stdout_thread.start()
        self._stderr_thread = threading.Thread(target=_pump_tail, args=(proc.stderr, self._stderr), daemon=True)
        self._stderr_thread.start()
        self._proc = proc
        _LIVE.add(self)
        return proc

    def _fail(self, what: str) -> MjaiBotError:
        """Stop the process and make the error to raise (with the end of the bot's stderr)."""
        self._broken = True
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()
        code = None
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):  # a killed process ends at once
                code = proc.wait(timeout=2)
        if self._stderr_thread is not None and code is not None:
            self._stderr_thread.join(timeout=1)  # let the last lines of stderr arrive
        msg = f"{self._name()} {what}"
        if code is not None and "exit" in what:
            msg += f" (exit status {code})"
        tail = [ln for ln in list(self._stderr) if ln.strip()][-5:]
        if tail:
            msg += "; its stderr ends with: " + " | ".join(tail)
        return MjaiBotError(msg)

    def _exchange(self, events: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
        """Send one batch, read one answer: (the raw line, the parsed object)."""
        if self._broken:
            raise MjaiBotError(f"{self._name()} has failed before and is not asked again")
        proc = self._start()
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(events, ensure_ascii=False) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            # the process has exited (broken pipe); collect what it said
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=1)
            raise self._fail("exited before reading its events") from None
        wait = self.timeout if self.exchanges else self.startup_timeout
        deadline = time.monotonic() + wait  # one deadline for the answer: blank lines do not extend it
        while True:
            try:
                item = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                first = "" if self.exchanges else " (its first answer, start-up included)"
                raise self._fail(f"did not answer within {wait:g} s{first}") from None
            if item is _EOF:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=1)
                raise self._fail("exited without answering")
            if item is _OVERLONG:
                raise self._fail(f"wrote a line longer than {MAX_LINE} characters (one JSON action per line expected)")
            line = str(item).strip()
            if line:
                break
        self.exchanges += 1
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            raise self._fail(f"wrote {line[:200]!r}, which is not JSON (one JSON action per line expected)") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise self._fail(f"wrote {line[:200]!r}: an mjai action is a JSON object with a 'type'")
        return line, obj

    def close(self) -> None:
        """Send what is left of the game (and ``end_game`` after a finished hand), then stop the process."""
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        try:
            if proc.poll() is None and not self._broken and proc.stdin is not None:
                rest = self._flush_previous(None)
                v = self._view
                if v is not None and v.events and v.events[-1].get("type") == "end_kyoku":
                    rest.append({"type": "end_game", "scores": list(v.scores)})
                if rest:
                    proc.stdin.write(json.dumps(rest, ensure_ascii=False) + "\n")
                    proc.stdin.flush()
            if proc.stdin is not None:
                proc.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=2)
        _LIVE.discard(self)
        # the process is gone, so its pipes reach their end and the reader threads finish; a stream is closed only
        # once no thread reads it (closing one under a reader aborts the interpreter at exit)
        for thread, stream in ((self._stdout_thread, proc.stdout), (self._stderr_thread, proc.stderr)):
            if thread is not None:
                thread.join(timeout=2)
            if stream is not None and (thread is None or not thread.is_alive()):
                with contextlib.suppress(OSError, ValueError):
                    stream.close()

    def __enter__(self) -> MjaiProcessAgent:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __del__(self) -> None:
        proc = self._proc if hasattr(self, "_proc") else None
        if proc is None:
            return
        with contextlib.suppress(Exception):  # nothing may escape a finaliser
            if sys.is_finalizing():  # the interpreter is going: stop the process only, touch no stream
                proc.kill()
                return
            self.close()

    def __repr__(self) -> str:
        return f"MjaiProcessAgent({self.command!r}, seat={self.seat!r}, timeout={self.timeout:g})"

    # -- events --------------------------------------------------------------------------------------------

    def _flush_previous(self, current: PlayerView | None) -> list[dict[str, Any]]:
        """The unsent events of the hand last seen, if ``current`` is a view of another hand (or ``None``: all of
        them)."""
        last = self._view
        if last is None or (current is not None and not self._new_hand(current)):
            return []
        events = last.events
        rest = self._visible(events[self._sent :])
        if current is not None and (not events or events[-1].get("type") != "end_kyoku"):
            rest.append({"type": "end_kyoku"})  # a hand abandoned mid-way (a chombo): close it for the bot
        self._sent = len(events)
        return rest

    def _new_hand(self, view: PlayerView) -> bool:
        """Whether ``view`` shows another hand than the last view (its round, number and honba, which no two hands
        of a game share, or an event list shorter than what was sent)."""
        return hand_key(view) != self._hand or len(view.events) < self._sent

    def _visible(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        assert self.seat is not None
        out = []
        for e in events:
            if self._drop_reach and e.get("type") == "reach" and e.get("actor") == self.seat:
                self._drop_reach = False  # the bot was sent this reach when it declared it
                continue
            out.append(e)
        return out  # already as the seat sees them (PlayerView.events)

    def _new_events(self, view: PlayerView) -> list[dict[str, Any]]:
        batch: list[dict[str, Any]] = []
        if not self._started_game:
            self._started_game = True
            names = [f"player{i}" for i in range(4)]
            start = {"type": "start_game", "id": self.seat, "names": names, "rules": view.rules.name}
            changes = rule_changes(view.rules)  # an East-only table of a hanchan preset: {"rounds": 1}
            if changes:
                start["rule_changes"] = changes
            batch.append(start)
        batch.extend(self._flush_previous(view))
        if self._view is None or self._new_hand(view):
            self._sent = 0
        self._view, self._hand = view, hand_key(view)
        events = view.events
        batch.extend(self._visible(events[self._sent :]))
        self._sent = len(events)
        return batch

    # -- deciding ------------------------------------------------------------------------------------------

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        """Send the new events, read the bot's answer and return the legal action it names."""
        if self.seat is None:
            self.seat = view.seat
        elif view.seat != self.seat:
            raise MjaiBotError(f"{self._name()} was asked to act for seat {view.seat}")
        kinds = {a.kind for a in legal}
        if kinds & {STOP, CONTINUE}:
            want = STOP if self.stop_when_asked else CONTINUE
            return next((a for a in legal if a.kind == want), legal[0])
        if TENPAI in kinds:
            # the mjai protocol has no tenpai declaration: a tenpai hand is shown (as mjai servers do)
            return next(a for a in legal if a.kind == TENPAI)
        line, msg = self._exchange(self._new_events(view))
        if msg["type"] == "reach":
            self._check_actor(msg, line, legal)
            if RIICHI not in kinds:
                raise self._illegal(line, legal, "riichi is not possible now")
            self._drop_reach = True
            line2, msg2 = self._exchange([{"type": "reach", "actor": self.seat}])
            if msg2["type"] != "dahai":
                raise self._illegal(line2, legal, "after reach the bot must answer the discard (dahai)")
            return self._match_discard(msg2, line2, [a for a in legal if a.kind == RIICHI], legal)
        return self._to_action(msg, line, legal, view)

    def _illegal(self, line: str, legal: list[Action], why: str = "") -> IllegalActionError:
        offered = ", ".join(json.dumps(self._offer(a), separators=(",", ":")) for a in legal) or "nothing"
        reason = f" ({why})" if why else ""
        return IllegalActionError(f"{self._name()} answered {line} which is not legal now{reason}; legal: {offered}")

    def _offer(self, a: Action) -> dict[str, Any]:
        m = action_to_mjai(a)
        if a.kind == RIICHI:
            m = {"type": "reach", "actor": a.seat, "pai": a.tile.mjai if a.tile else None, "tsumogiri": a.tsumogiri}
        if a.kind == RON:
            m.pop("target")
        return m

    def _check_actor(self, msg: dict[str, Any], line: str, legal: list[Action]) -> None:
        actor = msg.get("actor", self.seat)
        if actor != self.seat:
            raise self._illegal(line, legal, f"actor {actor!r} is not the bot's seat {self.seat}")

    def _tile(self, msg: dict[str, Any], key: str, line: str, legal: list[Action]) -> Tile:
        try:
            return Tile.from_mjai(msg.get(key))  # type: ignore[arg-type]
        except JantakuError:
            raise self._illegal(line, legal, f"{key} {msg.get(key)!r} is not an mjai tile") from None

    def _match_discard(self, msg: dict[str, Any], line: str, pool: list[Action], legal: list[Action]) -> Action:
        self._check_actor(msg, line, legal)
        tile = self._tile(msg, "pai", line, legal)
        same = [a for a in pool if a.tile == tile]
        if not same:
            raise self._illegal(line, legal, f"it cannot discard {tile.mjai} now")
        flag = msg.get("tsumogiri")
        exact = [a for a in same if a.tsumogiri == flag]
        # a wrong or missing tsumogiri flag with the right tile is corrected, not refused
        return exact[0] if exact else same[0]

    def _to_action(self, msg: dict[str, Any], line: str, legal: list[Action], view: PlayerView) -> Action:
        kind = msg["type"]
        if kind == "none":
            passing = next((a for a in legal if a.kind == PASS), None)
            if passing is None:
                raise self._illegal(line, legal, "it must act now, passing is not possible")
            return passing
        self._check_actor(msg, line, legal)
        if kind == "dahai":
            return self._match_discard(msg, line, [a for a in legal if a.kind == DISCARD], legal)
        if kind == "hora":
            target = msg.get("target", self.seat)
            want = TSUMO if target == self.seat else RON
            found = [a for a in legal if a.kind == want]
            if "pai" in msg:
                tile = self._tile(msg, "pai", line, legal)
                found = [a for a in found if a.tile is not None and a.tile.kind == tile.kind]
            if want == RON and found and "target" in msg:
                # a ron is on the last discard, or (robbing a kan) on the tile the kan's owner adds
                from_seat = _last_tile_offered_by(view.events)
                if target != from_seat:
                    return self._raise(line, legal, f"the tile to win on came from seat {from_seat}, not {target}")
            if not found:
                return self._raise(line, legal, "it cannot win here")
            return found[0]
        if kind in (CHI, PON, DAIMINKAN):
            tile = self._tile(msg, "pai", line, legal)
            consumed = msg.get("consumed")
            try:
                want_consumed = sorted(Tile.from_mjai(t) for t in consumed)  # type: ignore[union-attr]
            except (JantakuError, TypeError):
                raise self._illegal(line, legal, "consumed must list the mjai tiles taken from the hand") from None
            for a in legal:
                if a.kind == kind and a.tile == tile and sorted(a.consumed) == want_consumed:
                    return a
            return self._raise(line, legal, f"{kind} of {tile.mjai} with {consumed} is not possible")
        if kind == "ankan":
            consumed = msg.get("consumed") or ([msg["pai"]] if "pai" in msg else [])
            kinds = {Tile.from_mjai(t).kind for t in consumed if isinstance(t, str) and _is_mjai(t)}
            for a in legal:
                if a.kind == ANKAN and a.tile is not None and {a.tile.kind} == kinds:
                    return a
            return self._raise(line, legal, "this closed kan is not possible")
        if kind == "kakan":
            tile = self._tile(msg, "pai", line, legal)
            for a in legal:
                if a.kind == KAKAN and a.tile is not None and a.tile.kind == tile.kind:
                    return a
            return self._raise(line, legal, "this added kan is not possible")
        if kind == "ryukyoku":
            for a in legal:
                if a.kind == KYUUSHU:
                    return a
            return self._raise(line, legal, "nine terminals cannot be declared now")
        return self._raise(line, legal, f"unknown action type {kind!r}")

    def _raise(self, line: str, legal: list[Action], why: str) -> Action:
        raise self._illegal(line, legal, why)


def _is_mjai(name: str) -> bool:
    try:
        Tile.from_mjai(name)
    except JantakuError:
        return False
    return True


def _last_tile_offered_by(events: Sequence[dict[str, Any]]) -> int | None:
    """The seat whose tile a ron now would take: the last discard's, or the last kan's (robbing it)."""
    for e in reversed(events):
        if e.get("type") in ("dahai", "kakan", "ankan"):
            return e.get("actor")
    return None
