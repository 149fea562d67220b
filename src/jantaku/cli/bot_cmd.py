"""``jantaku bot NAME``: one of jantaku's bots speaking mjai on stdin/stdout.

Any program that runs mjai bots as processes (mjai.app style, or jantaku itself with
``jantaku simulate --bots "mjai:jantaku bot efficiency,..."``) can seat ``random``, ``efficiency`` or ``strong``:

* each line on stdin is a JSON array of events (or one event object); after each line exactly one JSON
  action is printed (and flushed): ``{"type":"none"}`` when there is nothing to decide;
* the decision is about the **last** event of the line: the bot's own ``tsumo`` (discard, riichi, tsumo,
  closed or added kan, nine terminals), its own ``chi``/``pon`` (the discard after the call), its own
  ``reach`` (the discard declaring riichi: the bot answers ``reach`` first and the discard when the
  ``reach`` comes back), another player's ``dahai`` (ron, pon, chi, open kan or pass) or ``kakan``
  (robbing the kan), and an ``ankan`` where the rule set lets thirteen orphans rob a closed kan.

The bot never sees a table engine: a :class:`~jantaku.table.seatview.SeatView` follows the events (its own
hand, every meld, river and riichi, the dora indicators, scores, honba, riichi sticks, tiles left, its furiten,
the hand's events) and offers the seat's legal actions with the engine's own rules code, so the bot is offered
exactly what the engine would offer and plays as it does in-process (``tests/test_mjai_identity.py``).

* the rule set is ``--rules`` if given, else the ``rules`` that jantaku puts in ``start_game`` (if this
  installation knows it), else ``standard``; riichi presets and 洁律 alike.
* the seat is ``start_game``'s ``id``, else ``--seat``, else the one hand in ``start_kyoku`` that is not hidden.
* what mjai cannot ask is not asked: a tenpai hand at an exhaustive draw is shown by the server, so the bot
  answers ``none`` there.
* an event that contradicts the seat's view (a discard of a tile it does not hold) or is malformed ends the
  process with a one-line error on stderr (exit status 2) rather than answers at random.

>>> from jantaku.bots.simple import EfficiencyBot
>>> s = MjaiBotSession(EfficiencyBot(0), rules="standard")
>>> s.handle([{"type": "start_game", "id": 0}])
{'type': 'none'}
>>> tehais = [["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "C", "N"]] + [["?"] * 13] * 3
>>> start = {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
...          "dora_marker": "1s", "scores": [25000] * 4, "tehais": tehais}
>>> s.handle([start, {"type": "tsumo", "actor": 0, "pai": "C"}])
{'type': 'reach', 'actor': 0}
>>> s.handle([{"type": "reach", "actor": 0}])
{'type': 'dahai', 'actor': 0, 'pai': 'N', 'tsumogiri': False}
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from jantaku.bots.base import Agent
from jantaku.errors import JantakuError
from jantaku.rules import Ruleset, load_rules, preset_names, rules_with_changes
from jantaku.table.actions import (
    ANKAN,
    CHI,
    DAIMINKAN,
    DISCARD,
    KAKAN,
    KYUUSHU,
    NOTEN,
    PASS,
    PON,
    RIICHI,
    RON,
    TENPAI,
    TSUMO,
    Action,
)
from jantaku.table.seatview import HIDDEN, SeatView

__all__ = ["MjaiBotSession", "add_parser", "run"]

_NONE: dict[str, Any] = {"type": "none"}


class MjaiBotSession:
    """A jantaku bot answering mjai event batches: :meth:`handle` takes events and returns one action.

    Its :attr:`view` is the seat's :class:`~jantaku.table.seatview.SeatView` (``None`` until the seat is known),
    made at ``start_game`` (or at the first ``start_kyoku`` when the seat shows only there) and again at every
    ``start_game``."""

    def __init__(self, bot: Agent, rules: Ruleset | str | None = None, seat: int | None = None) -> None:
        self.bot = bot
        self.rules_given = load_rules(rules) if rules is not None else None
        self.seat_given = seat
        self.view: SeatView | None = None
        self.last: dict[str, Any] = {}
        """The last event taken in: the one a decision answers."""
        self._start: dict[str, Any] | None = None  # a start_game still waiting for the seat
        self._rules: Ruleset = self.rules_given or load_rules("standard")
        self._riichi: Action | None = None

    def _take(self, e: dict[str, Any]) -> None:
        kind = e.get("type")
        self.last = e
        if kind == "start_game":
            self._rules = self._rules_of(e)
            seat = e.get("id") if isinstance(e.get("id"), int) and not isinstance(e.get("id"), bool) else None
            seat = seat if seat is not None else self.seat_given
            self.view, self._start = None, e
            if seat is not None:
                self._open(seat)
            return
        if self.view is None:
            if kind != "start_kyoku":
                return  # nothing to follow before the seat's first hand
            self._open(self._seat_in(e))
        assert self.view is not None
        self.view.apply(e)

    def _open(self, seat: int) -> None:
        self.view = SeatView(seat, self._rules)  # a seat that is not 0-3: SeatViewError names it
        if self._start is not None:
            self.view.apply(self._start)
            self._start = None

    def _seat_in(self, e: dict[str, Any]) -> int:
        """The seat when ``start_game`` named none: ``--seat``, else the one dealt hand ``start_kyoku`` shows."""
        if self.seat_given is not None:
            return self.seat_given
        tehais = e.get("tehais") if isinstance(e.get("tehais"), list) else []
        shown = [s for s, h in enumerate(tehais) if isinstance(h, list) and h and HIDDEN not in h]
        if len(shown) != 1:
            raise JantakuError(
                "the bot's seat is unknown: no start_game id, no --seat, and start_kyoku does not show exactly one hand"
            )
        return shown[0]

    def _rules_of(self, e: dict[str, Any]) -> Ruleset:
        """``--rules``, else the rule set ``start_game`` names with its ``rule_changes`` (jantaku sends both: an
        East-only table of a hanchan preset changes ``rounds``), else standard."""
        if self.rules_given is not None:
            return self.rules_given
        name, changes = e.get("rules"), e.get("rule_changes")
        if isinstance(name, str) and name and (name in preset_names() or changes):
            try:
                return rules_with_changes(name, changes)
            except JantakuError as err:
                print(f"jantaku bot: start_game's rules cannot be read ({err}); playing by standard", file=sys.stderr)
        elif isinstance(name, str) and name:
            print(f"jantaku bot: unknown rule set {name!r} in start_game; playing by standard", file=sys.stderr)
        return load_rules("standard")

    def handle(self, events: Iterable[dict[str, Any]]) -> dict[str, Any]:
        """Take in the events, then answer the last one: an mjai action dict (``{"type": "none"}`` to pass)."""
        for e in events:
            if isinstance(e, dict):
                self._take(e)
        view = self.view
        if view is None:
            return dict(_NONE)
        legal = view.legal_actions()
        me = view.seat
        if self.last.get("type") == "reach" and self.last.get("actor") == me:
            # the riichi declared with our previous answer: now its discard
            riichi = [a for a in legal if a.kind == RIICHI]
            if not riichi:
                raise JantakuError("a reach event for this seat where it cannot declare riichi")
            chosen = self._riichi if self._riichi in riichi else self.bot.act(view, riichi)  # type: ignore[arg-type]
            self._riichi = None
            self._check(chosen, riichi)
            return {"type": "dahai", "actor": me, "pai": chosen.tile.mjai, "tsumogiri": chosen.tsumogiri}  # type: ignore[union-attr]
        if {a.kind for a in legal} <= {PASS, TENPAI, NOTEN}:
            # nothing to decide (mjai has no tenpai declaration: the server shows a tenpai hand itself)
            if legal:
                view.answered(Action(PASS, me))
            return dict(_NONE)
        chosen = self.bot.act(view, legal)  # type: ignore[arg-type]
        self._check(chosen, legal)
        view.answered(chosen)
        return self._message(chosen)

    def _check(self, action: Action, legal: list[Action]) -> None:
        if action not in legal:
            raise JantakuError(f"the bot chose {action!r}, which is not among {legal!r}")

    def _message(self, a: Action) -> dict[str, Any]:
        assert self.view is not None
        me = self.view.seat
        pai = a.tile.mjai if a.tile is not None else None
        consumed = [t.mjai for t in a.consumed]
        last = self.last
        if a.kind == DISCARD:
            return {"type": "dahai", "actor": me, "pai": pai, "tsumogiri": a.tsumogiri}
        if a.kind == RIICHI:
            self._riichi = a
            return {"type": "reach", "actor": me}
        if a.kind == TSUMO:
            return {"type": "hora", "actor": me, "target": me, "pai": pai}
        if a.kind == RON:
            return {"type": "hora", "actor": me, "target": last.get("actor"), "pai": pai}
        if a.kind in (CHI, PON, DAIMINKAN):
            return {"type": a.kind, "actor": me, "target": last.get("actor"), "pai": pai, "consumed": consumed}
        if a.kind == ANKAN:
            return {"type": "ankan", "actor": me, "consumed": consumed}
        if a.kind == KAKAN:
            return {"type": "kakan", "actor": me, "pai": pai, "consumed": consumed}
        if a.kind == KYUUSHU:
            return {"type": "ryukyoku", "actor": me}
        return dict(_NONE)

    def handle_line(self, line: str) -> str:
        """One input line (a JSON array of events or one event) -> one output line (without the newline)."""
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError) as e:  # not JSON, nested past Python's depth, an integer too long
            why = "not JSON" if isinstance(e, json.JSONDecodeError) else f"unreadable ({str(e)[:80]})"
            print(f"jantaku bot: ignoring a line that is {why}: {line.strip()[:200]!r}", file=sys.stderr)
            return json.dumps(_NONE)
        events = obj if isinstance(obj, list) else [obj]
        return json.dumps(self.handle(events), ensure_ascii=False, separators=(",", ":"))

    def serve(self, stdin: TextIO, stdout: TextIO) -> int:
        """Answer every non-empty line of ``stdin`` on ``stdout`` until end of input; returns 0."""
        for line in stdin:
            if not line.strip():
                continue
            stdout.write(self.handle_line(line) + "\n")
            stdout.flush()
        return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bot",
        help="run one of jantaku's bots as an mjai bot on stdin/stdout",
        description="Run jantaku's random, efficiency or strong bot as an mjai bot process: read one JSON array of "
        "events (or one event object) per line on stdin and print one JSON action per line on stdout "
        '({"type":"none"} when there is nothing to decide). The seat is start_game\'s id. The bot knows '
        "the game from the events alone (its seat's view: its hand, every meld, river and riichi, dora, scores, "
        "furiten) and is offered its legal actions by the table engine's own rules code; the rule set is --rules, "
        "else start_game's rules (jantaku sends them), else standard. Riichi presets and 洁律 alike.",
        epilog="examples:\n"
        "  jantaku bot efficiency\n"
        '  jantaku simulate --bots "mjai:jantaku bot efficiency,efficiency,random,efficiency"\n'
        '  echo \'[{"type":"start_game","id":0}]\' | jantaku bot random',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("name", choices=["random", "efficiency", "strong"], help="which of jantaku's bots plays")
    p.add_argument("--rules", default=None, help="preset name or TOML file (default: start_game's, else standard)")
    p.add_argument("--seat", type=int, choices=range(4), default=None, help="seat when start_game has no id")
    p.add_argument("--seed", default="0", help="the bot's random seed (default 0)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jantaku.bots import make_bot

    bot = make_bot(args.name, args.seed)
    session = MjaiBotSession(bot, rules=args.rules, seat=args.seat)
    if sys.stdin.isatty():  # a person at a terminal, not a game server: say what is awaited
        print(WAITING, file=sys.stderr, flush=True)
    return session.serve(sys.stdin, sys.stdout)


WAITING = (
    "jantaku bot: waiting for mjai events on standard input, one JSON line each (a game server or "
    "`jantaku simulate --bots mjai:COMMAND` sends them); Ctrl-D ends"
)
"""What ``jantaku bot`` says when its standard input is a terminal."""
