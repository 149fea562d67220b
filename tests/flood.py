"""Tests' and benchmarks' helper: people's moves timed at a served table, and a client flooding the heavy
endpoints (reviews, record uploads, analyses) of the same server, as issue 32's unfriendly stranger did."""

from __future__ import annotations

import gzip
import json
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

RECORDS = Path(__file__).parent / "data" / "records" / "tenhou6-json"
JADE = RECORDS / "mahjongsoul" / "jade_room_south_2024.json"
"""A real hanchan: the flood's review, with the strong bot (a few seconds of a core each)."""
TWINS = RECORDS / "mjx-twins" / "2010102910gm-00a9-0000-cdb9804c.json"
"""Eleven real hands, one a line: the flood's record upload (gzip, as a stranger sends it)."""


def call(url: str, method: str = "GET", body: Any = None, raw: bytes | None = None, timeout: float = 120) -> tuple:
    """``(status, answer JSON or None, seconds)`` of one request."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            out = res.read()
            status = res.status
    except urllib.error.HTTPError as e:
        out, status = e.read(), e.code
    seconds = time.perf_counter() - t0
    try:
        answer = json.loads(out)
    except ValueError:
        answer = None
    return status, answer, seconds


def four_people(url: str, rules: str = "mleague") -> tuple[str, list[str]]:
    """A new table of four people (every seat claimed through its invitation) at the instant pace (no pause
    between steps: the moves come as fast as they are answered): its id and the four tokens."""
    body = {"rules": rules, "seats": ["human"] * 4, "pace": "instant"}
    status, made, _ = call(url + "api/tables", "POST", body)
    assert status == 201, made
    tid, tokens = made["id"], []
    for entry in made["seats"]:
        token = entry.get("token")
        if token is None:
            status, got, _ = call(url + f"api/tables/{tid}/claim", "POST", {"invite": entry["invite"]})
            assert status == 200, got
            token = got["token"]
        tokens.append(token)
    return tid, tokens


def timed_moves(url: str, moves: int, rules: str = "mleague", seconds: float = 0.0) -> list[float]:
    """At least ``moves`` moves, for at least ``seconds``, played by four people at new tables (each the first
    action offered, a new table when a game ends): the seconds each ``POST /act`` took to answer."""
    times: list[float] = []
    tid, tokens = four_people(url, rules)
    until = time.monotonic() + seconds
    while len(times) < moves or time.monotonic() < until:
        views = [call(url + f"api/tables/{tid}/view?token={t}")[1] for t in tokens]
        if views[0]["over"]:
            tid, tokens = four_people(url, rules)
            continue
        acting = [s for s, v in enumerate(views) if v["actions"]]
        if not acting:  # between hands: every seat ready for the next
            for t in tokens:
                call(url + f"api/tables/{tid}/ready", "POST", {"token": t})
            continue
        for seat in acting:
            v = views[seat]
            status, answer, seconds = call(
                url + f"api/tables/{tid}/act", "POST", {"token": tokens[seat], "step": v["step"], "index": 0}
            )
            if status == 200:
                times.append(seconds)
            elif status != 409:  # 409: the view moved on (another seat's call settled the discard)
                raise AssertionError(f"act answered {status}: {answer}")
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


class HeavyFlood:
    """Threads sending heavy requests to ``url`` without pause until stopped, each a little different from the
    last (so no cache answers it): a strong review of a hanchan, a gzip record upload, an analysis.
    ``answers`` counts the statuses per kind."""

    def __init__(self, url: str, kinds: tuple[str, ...] = ("review", "replay", "analyse"), refused_pause: float = 0.05):
        self.url = url
        self.kinds = kinds
        self.pause = refused_pause
        self.stop = threading.Event()
        self.answers: Counter[tuple[str, int]] = Counter()
        self.seconds: dict[str, list[float]] = {k: [] for k in kinds}
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._loop, args=(k,), daemon=True) for k in kinds]

    def __enter__(self) -> HeavyFlood:
        for t in self._threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()  # requests in flight are left to finish (or to the server's end): none is waited for

    def wait_saturated(self, timeout: float = 60.0) -> dict[str, Any]:
        """Wait until the server runs heavy work and has turned a request away; its ``heavy`` status then."""
        until = time.monotonic() + timeout
        while True:
            heavy = call(self.url + "api/status")[1]["heavy"]
            if heavy["admitted"] >= 1 and heavy["refused"] >= 1 and heavy["jobs"] >= 1:
                return heavy
            if time.monotonic() > until:
                raise AssertionError(f"the heavy endpoints were not saturated within {timeout:g} s: {heavy}")
            time.sleep(0.1)

    def done(self, kind: str) -> int:
        """Requests of ``kind`` answered 200."""
        return self.answers[(kind, 200)]

    def _loop(self, kind: str) -> None:
        jade, twins = JADE.read_bytes(), TWINS.read_bytes()
        n = 0
        while not self.stop.is_set():
            n += 1
            if kind == "review":
                status, _, seconds = call(self.url + "api/review?bot=strong", "POST", raw=jade + b" " * n)
            elif kind == "replay":
                body = gzip.compress(twins + b"\n" * n)
                status, _, seconds = call(self.url + "api/replay?name=flood.json.gz", "POST", raw=body)
            else:
                status, _, seconds = call(
                    self.url + "api/analyse", "POST", {"games": 8, "bots": "strong", "rules": "mleague", "seed": n}
                )
            with self._lock:
                self.answers[(kind, status)] += 1
                self.seconds[kind].append(seconds)
            if status != 200:
                time.sleep(self.pause)
