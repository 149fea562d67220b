"""A web table's options and the server's table constants: the bots, paces, timers and lengths a table may
choose (:class:`TableOptions`), ``jantaku serve``'s defaults, the auto options and the playable presets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jantaku.rules import load_rules, preset_names
from jantaku.rules.ruleset import Ruleset
from jantaku.table.actions import ANKAN, DISCARD, KAKAN, RIICHI
from jantaku.table.kyoku import CALLED, CHANKAN, DECLARE, DRAWN, ENDED, RESPONSES

BOTS = ("strong", "efficiency", "random")
"""The bots a web table may seat, the default (``strong``) first (external ``mjai:`` processes are never
started from a web request)."""

_WINDS = "ESWN"

WAITING = "waiting"
"""The phase a seat's view shows while the table waits on decisions that are not this seat's and not public
(another seat's answer to a discard, a robbable kan, a tenpai declaration at the draw)."""

_PUBLIC_PHASES = (DRAWN, CALLED, ENDED)
"""Phases whose decision-maker everyone knows: the seat on its draw/discard turn (or nobody)."""

_ANNOUNCED = ("chi", "pon", "daiminkan", "ankan", "kakan", "reach", "hora", "ryukyoku")
"""The public events a page announces on the board (a call, riichi, a win, a draw of the hand)."""

_ANSWER_PHASES = (RESPONSES, CHANKAN, DECLARE)
"""Phases in which seats answer another seat's move (a discard, a kan) or the draw's tenpai question."""

_WINDOW_KINDS = (DISCARD, RIICHI, KAKAN, ANKAN)
"""Moves other seats may answer (call or win on a discard, rob a kan): at a paced table each is followed by the
same call window whether or not anyone may answer it (see :class:`LiveTable`)."""

PACES = {"normal": 450, "fast": 150, "instant": 0}
"""The named paces of a table: milliseconds between two steps a person sees (a draw, a discard, a call). A
bot's turn is two steps (its draw, then its discard), so ``normal`` plays a bot's turn in about 0.9 s, near
Mahjong Soul's bots; every discard at a paced table waits one step for calls (the call window)."""

MAX_PACE_MS = 3000
"""The slowest pace a table may be given (milliseconds per step)."""

TIMERS = {"off": None, "3+5": (3, 5), "5+10": (5, 10), "5+20": (5, 20), "10+30": (10, 30), "30+60": (30, 60)}
"""The turn timers: seconds for each decision plus a bank of seconds refilled at each deal, used once a
decision takes longer. Tenhou plays East-only games at 3+5 and East-South games at 5+10; on expiry the drawn
tile is discarded (or the call passed)."""

LENGTHS = {"east": 1, "hanchan": 2}
"""Game lengths a table may choose: the rule set's ``rounds`` (1 East only, 2 East and South)."""

_EARLY = 0.0005

CLOCK_IDLE = 1.0
"""The longest the tables' clock sleeps before it looks at every held table again (seconds)."""
"""Seconds a timed step may run before its time (a clock's rounding must not cost a whole extra tick)."""

RESULT_SECONDS_MAX = 600
"""The longest a finished hand's board may wait for the people at the table (seconds)."""


@dataclass
class TableOptions:
    """How a table is paced and timed (see :class:`LiveTable`); chosen when it is created and stored with it.

    ``pace``: milliseconds between two steps a person sees (0: bots move at once); ``result_seconds``: how
    long the finished board of a hand stays under its result panel when not every person closed it (0: the
    next hand is dealt at once); ``timer``: a key of :data:`TIMERS`; ``length``: a key of :data:`LENGTHS`, or
    ``None`` for the rule set's own."""

    pace: int = 0
    result_seconds: int = 0
    timer: str = "off"
    length: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"pace": self.pace, "result_seconds": self.result_seconds, "timer": self.timer, "length": self.length}

    @classmethod
    def from_json(cls, obj: Any) -> TableOptions:
        """Options as stored (missing or unknown values fall back to the defaults: tables from before them)."""
        if not isinstance(obj, dict):
            return cls()
        pace = obj.get("pace", 0)
        seconds = obj.get("result_seconds", 0)
        timer = obj.get("timer", "off")
        length = obj.get("length")
        return cls(
            pace if _is_int(pace) and 0 <= pace <= MAX_PACE_MS else 0,
            seconds if _is_int(seconds) and 0 <= seconds <= RESULT_SECONDS_MAX else 0,
            timer if isinstance(timer, str) and timer in TIMERS else "off",
            length if isinstance(length, str) and length in LENGTHS else None,
        )


BOT_GAMES_DAYS = 30.0
"""Stored games of bots alone are deleted after this many days (``jantaku serve --bot-games-days``): a server
on the internet would otherwise keep every four-bot game anyone asked for, forever (issue 32)."""

UNWATCHED_SECONDS = 60.0
"""A table without an open websocket and without a request for this long is unwatched: its people's turn timers
stop (issue 32: abandoned tables with a timer went on moving for their absent people, and writing, until they
left memory). Bots still play up to a person's turn; the timers go on when someone opens the table again."""

SERVE_DEFAULTS = TableOptions(pace=PACES["normal"], result_seconds=20, timer="off")
"""The options ``jantaku serve`` gives a table created without them (its ``--pace``, ``--result-seconds`` and
``--timer`` defaults): the normal pace, a finished hand held 20 s under its result, no turn timer."""


def table_rules(rules: str, options: TableOptions) -> Ruleset:
    """A table's rule set: preset ``rules`` with the game length of ``options`` (its ``rounds``).

    >>> table_rules("tenhou", TableOptions(length="east")).rounds, table_rules("tenhou", TableOptions()).rounds
    (1, 2)
    """
    ruleset = load_rules(rules)
    if options.length is not None and LENGTHS[options.length] != ruleset.rounds:
        ruleset = ruleset.replace(rounds=LENGTHS[options.length])
    return ruleset


AUTO_KEYS = ("riichi_discard", "win", "no_calls")
"""A person's automatic answers: discard the drawn tile while in riichi (when nothing else is offered), take
every win offered, pass every call (chi, pon, kan) offered on a discard (never a win)."""


def _no_auto() -> dict[str, bool]:
    return dict.fromkeys(AUTO_KEYS, False)


SPECTATOR = -1
"""The seat number of a spectator's view and listener: it sees what every seat sees in public (no closed tile
of any seat, no seat's options) and, once the game is over, every hand (see :meth:`LiveTable.spectator_view`)."""

_SPECTATOR_KEYS = ("table", "rules", "family", "mode", "round", "players", "wins", "hand_results", "last_result")
_SPECTATOR_KEYS += ("over", "final", "options", "last_discard", "announce")
"""The public parts of a seat's view that a spectator's view keeps (anything else a view may hold is left out)."""


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


TABLE_FAMILIES = ("riichi", "jielu")
"""The scoring families the table engine plays: riichi and 洁律 (whose hand results carry fans with points, the
score S and the wildcards instead of yaku, han and fu; see :func:`_win_score_json`)."""


def playable_presets() -> list[str]:
    """The presets a web table can play (those of the families in :data:`TABLE_FAMILIES`)."""
    return [name for name in preset_names() if load_rules(name).family in TABLE_FAMILIES]
