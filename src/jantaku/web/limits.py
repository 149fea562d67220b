"""What the web server accepts: request sizes, JSON shape, number ranges and how far an upload may inflate.

Every limit refuses with a :class:`~jantaku.web.tables.WebError` naming the problem (400, or 413 for a size),
before the work or the memory it would cost:

- a JSON request body (``/api/tables``, ``/act``, ``/api/score``) or websocket message is at most
  :data:`MAX_JSON_BYTES`; it nests at most :data:`MAX_DEPTH` levels, its integers have at most
  :data:`MAX_INT_DIGITS` digits and its numbers are finite (JSON has no NaN or Infinity);
- a record upload is at most :data:`MAX_UPLOAD` bytes as sent and, gzip-compressed, at most
  :data:`MAX_INFLATED` bytes once inflated: it is inflated in bounded steps and refused as soon as it
  passes the limit, so a small file that inflates to gigabytes never gets the memory;
- the number fields of a scoring request lie in the ranges of :data:`SCORE_RANGES`.

>>> parse_json(b'{"step": 3, "index": [1.5]}', "the body")
{'step': 3, 'index': [1.5]}
>>> parse_json(b"[" * 100_000, "the body")
Traceback (most recent call last):
...
jantaku.web.errors.BadRequest: the body nests deeper than 32 levels
>>> parse_json(b'{"honba": ' + b"9" * 5000 + b"}", "the body")
Traceback (most recent call last):
...
jantaku.web.errors.BadRequest: the body: honba: a number with 5000 digits (at most 100)
"""

from __future__ import annotations

import json
import math
import re
import threading
import zlib
from typing import Any

from starlette.requests import Request

from jantaku.riichi.jsonio import RANGES

from .tables import LENGTHS, MAX_PACE_MS, PACES, RESULT_SECONDS_MAX, TIMERS, BadRequest, TableOptions, WebError

__all__ = [
    "MAX_DEPTH",
    "MAX_INFLATED",
    "MAX_INT_DIGITS",
    "MAX_JSON_BYTES",
    "MAX_RECORD_EVENTS",
    "MAX_UPLOAD",
    "SCORE_RANGES",
    "TooLarge",
    "check_score_request",
    "check_table_options",
    "inflate",
    "parse_json",
    "read_body",
]

MAX_JSON_BYTES = 256 * 1024
"""The largest JSON request body or websocket message (bytes)."""

MAX_UPLOAD = 8 * 1024 * 1024
"""The largest record upload accepted, as sent (bytes)."""

MAX_INFLATED = 32 * 1024 * 1024
"""The most a gzip-compressed upload may inflate to (bytes)."""

MAX_RECORD_EVENTS = 60_000
"""The most events one record upload may hold, all its games together (a hanchan has about 1,000-2,000): the
replay viewer receives every event, so this bounds its answer (about 6 MB)."""

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects in a JSON request (a scoring request needs 3)."""

MAX_INT_DIGITS = 100
"""The most digits of an integer in a JSON request: far beyond any count or score of a game, far below what
costs time to read (each field then has its own range, e.g. :data:`SCORE_RANGES`)."""

SCORE_RANGES: dict[str, tuple[int, int]] = RANGES
"""The range of each whole-number field of a scoring request (``null`` stays allowed where the scorer takes
it): the command line's ranges (:data:`jantaku.riichi.jsonio.RANGES`), so both refuse the same requests."""

_CHUNK = 256 * 1024


class TooLarge(WebError):
    """A body or upload over its size limit (413)."""

    status = 413


class _Refused(ValueError):
    """A number the JSON parser hands back refused (turned into :class:`BadRequest`)."""


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _Refused(f"a number with {digits} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {text[:20]} is out of range")
    return value


def _constant(text: str) -> Any:
    raise _Refused(f"{text} is not a JSON number")


def parse_json(raw: bytes | str, what: str) -> Any:
    """``raw`` parsed as JSON within the limits above; :class:`BadRequest` naming ``what`` and the problem, or
    :class:`TooLarge` over :data:`MAX_JSON_BYTES`."""
    if len(raw) > MAX_JSON_BYTES:
        raise TooLarge(f"{what} is larger than {MAX_JSON_BYTES // 1024} KiB")
    try:
        obj = json.loads(raw, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except _Refused as e:
        raise BadRequest(f"{what}: {_field_of(raw)}{e}") from None
    except RecursionError:
        raise BadRequest(f"{what} nests deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as e:
        raise BadRequest(f"{what} is not valid JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    except (UnicodeDecodeError, ValueError) as e:
        raise BadRequest(f"{what} is not valid JSON ({type(e).__name__})") from None
    _check_depth(obj, what)
    return obj


_LONG_NUMBER = re.compile(rb'"([^"\\]{1,40})"\s*:\s*\[?\s*-?(?:\d{%d}|\d*\.?\d*[eE][+-]?\d{3})' % (MAX_INT_DIGITS + 1))


def _field_of(raw: bytes | str) -> str:
    """``"name: "`` of the first field holding an overlong number (for the message), or ``""``."""
    data = raw.encode("utf-8", "replace") if isinstance(raw, str) else raw
    m = _LONG_NUMBER.search(data)
    return m.group(1).decode("utf-8", "replace") + ": " if m else ""


def _check_depth(obj: Any, what: str) -> None:
    level: list[Any] = [obj]
    for _ in range(MAX_DEPTH + 1):
        level = [
            child
            for item in level
            if isinstance(item, dict | list)
            for child in (item.values() if isinstance(item, dict) else item)
            if isinstance(child, dict | list)
        ]
        if not level:
            return
    raise BadRequest(f"{what} nests deeper than {MAX_DEPTH} levels")


def check_score_request(obj: dict[str, Any]) -> None:
    """Refuse a scoring request whose whole-number fields are not whole numbers in :data:`SCORE_RANGES`.

    >>> check_score_request({"hand": "123m", "honba": 2})
    >>> check_score_request({"honba": 10**21})
    Traceback (most recent call last):
    ...
    jantaku.web.errors.BadRequest: honba must be a whole number 0-99
    """
    for name, (low, high) in SCORE_RANGES.items():
        value = obj.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise BadRequest(f"{name} must be a whole number {low}-{high}")


def events_at_least(data: bytes) -> int:
    """A lower bound of the events an (inflated) record upload holds, counted before it is read: a large upload
    is refused by its count without the seconds and the memory reading it would cost (a 31 MB tenhou.net/6 file
    holds 4.7 million events: 70 s and 1.5 GB to read). mjai: its lines; mjlog XML: its tags, less a share that
    are not events; tenhou.net/6: each hand's draws and discards (the JSON is parsed, the events are not built);
    anything else: 0 (the reader's own limits apply).

    >>> events_at_least(b'{"type":"start_game"}\\n{"type":"end_game"}\\n')
    2
    >>> hand = [[0, 0, 0], [25000] * 4, [52], [], *[[11] * 13, [12, 13], [12, 13]] * 4, ["\u548c\u4e86"]]
    >>> events_at_least(json.dumps({"log": [hand, hand]}).encode())
    32
    >>> events_at_least(b"<mjloggm ver='2.3'><SHUFFLE/><GO/><UN/><TAIKYOKU/>" + b"<INIT/>" + b"<T36/><D36/>" * 10)
    17
    """
    head = data[:4096].lstrip()
    if head.startswith(b"<"):
        # a tag is an event, but for mjloggm, SHUFFLE, GO, UN, TAIKYOKU and a few that add none (up to a tenth of
        # a real record's tags: e.g. the second REACH step)
        return max(0, int((data.count(b"<") - data.count(b"</") - 5) * 0.85))
    lines = [line for line in data.split(b"\n") if line.strip()]
    try:
        first = json.loads(lines[0]) if lines else None
    except (ValueError, RecursionError):  # not JSON, or nested too deeply: the reader refuses it by name
        first = None
    if isinstance(first, dict) and "type" in first:
        return len(lines)
    count = 0
    try:
        docs = [json.loads(line) for line in lines] if isinstance(first, dict) else [json.loads(data)]
    except (ValueError, RecursionError):
        return 0
    for doc in docs:
        for hand in doc.get("log", []) if isinstance(doc, dict) and isinstance(doc.get("log"), list) else []:
            if isinstance(hand, list):  # per seat from index 4: its dealt tiles, draws, discards
                count += sum(len(p) for n, p in enumerate(hand[4:16]) if n % 3 and isinstance(p, list))
    return count


def inflate(raw: bytes, name: str, limit: int = MAX_INFLATED) -> bytes:
    """``raw`` inflated if it is gzip data (every member of it), else ``raw`` itself; refused with
    :class:`TooLarge` as soon as the output passes ``limit`` bytes (never holding more than ``limit`` plus one
    step), and with :class:`BadRequest` when the data is broken, cut short, or gzip again inside.

    >>> import gzip
    >>> inflate(gzip.compress(b"hello"), "x")
    b'hello'
    >>> inflate(gzip.compress(bytes(10_000)), "big.gz", limit=1000)
    Traceback (most recent call last):
    ...
    jantaku.web.limits.TooLarge: big.gz inflates to more than 1000 bytes
    """
    if raw[:2] != b"\x1f\x8b":
        return raw
    out = bytearray()
    data = raw
    while data:
        d = zlib.decompressobj(wbits=31)
        try:
            while not d.eof:
                chunk = d.decompress(data, min(_CHUNK, limit + 1 - len(out)))
                out += chunk
                if len(out) > limit:
                    raise TooLarge(f"{name} inflates to more than {_size(limit)}")
                data = d.unconsumed_tail
                if not chunk and not data:
                    break  # no input left and nothing more comes out: cut short
        except zlib.error as e:
            raise BadRequest(f"{name}: broken gzip data ({e})") from None
        if not d.eof:
            raise BadRequest(f"{name}: the gzip data is cut short")
        data = d.unused_data
        if data and data[:2] != b"\x1f\x8b":
            break  # trailing bytes after the last member are ignored, as gzip(1) does
    if out[:2] == b"\x1f\x8b":
        raise BadRequest(f"{name}: gzip data inside gzip data (compress a log file once)")
    return bytes(out)


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n} bytes"


async def read_body(request: Request, limit: int, what: str) -> bytes:
    """The request's body, refused with :class:`TooLarge` (413) as soon as it passes ``limit`` bytes, or when its
    Content-Length announces more; ``what`` names it in the message ("the upload is larger than 8 MiB")."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and len(declared) < 20 and int(declared) > limit:
        raise TooLarge(f"{what} is larger than {_limit_text(limit)}")
    raw = bytearray()
    async for chunk in request.stream():
        raw.extend(chunk)
        if len(raw) > limit:
            raise TooLarge(f"{what} is larger than {_limit_text(limit)}")
    return bytes(raw)


def _limit_text(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n >= 1024 * 1024 else f"{n // 1024} KiB"


def check_table_options(body: dict[str, Any], rules: Any, defaults: TableOptions, family: str) -> TableOptions:
    """The pace and time options of a table creation request (``pace``, ``result_seconds``, ``timer``,
    ``length``; each missing one from ``defaults``), refused with :class:`BadRequest` naming the field.

    ``pace``: a name of :data:`~jantaku.web.tables.PACES` or milliseconds 0-3000; ``result_seconds``: 0-600;
    ``timer``: a key of :data:`~jantaku.web.tables.TIMERS`; ``length``: ``east`` or ``hanchan`` (a riichi
    rule set's ``rounds``: 1 or 2; the 洁律 rule set plays its own length only).

    >>> check_table_options({"pace": "fast", "length": "east"}, "tenhou", TableOptions(), "riichi").pace
    150
    >>> check_table_options({"timer": "5+99"}, "tenhou", TableOptions(), "riichi")
    Traceback (most recent call last):
    ...
    jantaku.web.errors.BadRequest: timer: one of off, 3+5, 5+10, 5+20, 10+30, 30+60 (seconds + bank), not '5+99'
    """
    pace = body.get("pace", defaults.pace)
    if isinstance(pace, str) and pace in PACES:
        pace = PACES[pace]
    elif isinstance(pace, bool) or not isinstance(pace, int) or not 0 <= pace <= MAX_PACE_MS:
        names = ", ".join(PACES)
        raise BadRequest(f"pace: one of {names}, or milliseconds per step 0-{MAX_PACE_MS}, not {_shown(pace)}")
    seconds = body.get("result_seconds", defaults.result_seconds)
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 <= seconds <= RESULT_SECONDS_MAX:
        raise BadRequest(
            f"result_seconds: how long a finished hand waits for everyone to close its result, "
            f"0-{RESULT_SECONDS_MAX}, not {_shown(seconds)}"
        )
    timer = body.get("timer", defaults.timer)
    if not isinstance(timer, str) or timer not in TIMERS:
        raise BadRequest(f"timer: one of {', '.join(TIMERS)} (seconds + bank), not {_shown(timer)}")
    explicit = "length" in body
    length = body.get("length", defaults.length)
    if length is not None:
        if not isinstance(length, str) or length not in LENGTHS:
            raise BadRequest(f"length: east (East only) or hanchan (East and South), not {_shown(length)}")
        if family != "riichi":
            from jantaku.rules import load_rules

            own = load_rules(rules).rounds
            if LENGTHS[length] != own and explicit:
                raise BadRequest(f"length: the {rules} rule set plays {'East only' if own == 1 else 'East and South'}")
            length = None
    return TableOptions(pace, seconds, timer, length)


def _shown(value: Any) -> str:
    text = repr(value) if not isinstance(value, list | dict) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


# -- the Analyse page (jantaku.web.analyse) -------------------------------------------------------------------

ANALYSE_MAX_GAMES = 12
"""Most games per rule set one analysis from the web plays."""

ANALYSE_MAX_TOTAL_GAMES = 24
"""Most games over all rule sets of one analysis from the web (rule sets times games): about 55 s of one core
with the strong bots (2.3 s a hanchan), within the analysis deadline (90 s, :data:`jantaku.web.heavy.DEADLINES`);
larger analyses belong to ``jantaku analyze``."""

ANALYSE_MAX_RULE_SETS = 4
"""Most rule sets (or swept values) one analysis from the web compares."""

ANALYSE_KEPT = 8
"""Reports the server keeps in memory to be opened (the oldest is dropped first)."""


MAX_SOCKETS = 500
"""Default cap on open table websockets in all (``jantaku serve --max-sockets``): a process commonly may hold
1,024 open files, and the database, the HTTP connections and the log need some of them."""

MAX_SOCKETS_PER_ADDRESS = 50
"""Default cap on open table websockets from one address (``--max-sockets-per-address``): a household's
browsers, each with a few tabs and spectators' pages, stay far below it."""


class SocketLimiter:
    """Counts the open table websockets, per client address and in all, and refuses one over either cap (the
    socket is then closed with code 1013, "try again later", and the reason; nothing else is held for it).

    >>> limiter = SocketLimiter(total=3, per_address=2)
    >>> limiter.acquire("a"), limiter.acquire("a"), limiter.acquire("a") is not None
    (None, None, True)
    >>> limiter.acquire("b"), limiter.acquire("c") is not None
    (None, True)
    >>> limiter.release("a"); limiter.acquire("c")
    """

    def __init__(self, total: int = MAX_SOCKETS, per_address: int = MAX_SOCKETS_PER_ADDRESS) -> None:
        self.total, self.per_address = total, per_address
        self.open: dict[str | None, int] = {}
        self._lock = threading.Lock()

    def acquire(self, address: str | None) -> str | None:
        """Count a new socket from ``address``: ``None`` when it may stay open, else the reason it may not."""
        with self._lock:
            if self.total and sum(self.open.values()) >= self.total:
                return f"the server holds its limit of {self.total} open table connections: try again later"
            if self.per_address and self.open.get(address, 0) >= self.per_address:
                return f"{self.per_address} table connections are open from your address already: close some"
            self.open[address] = self.open.get(address, 0) + 1
            return None

    def release(self, address: str | None) -> None:
        """A socket counted by :meth:`acquire` closed."""
        with self._lock:
            left = self.open.get(address, 0) - 1
            if left > 0:
                self.open[address] = left
            else:
                self.open.pop(address, None)
