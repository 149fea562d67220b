"""Issue 32: one client saturating the heavy endpoints (strong reviews of whole hanchan, gzip record uploads,
analyses, without pause) does not delay another person's move. ``jantaku serve`` runs as a host starts it, with
its defaults; the moves are four people's ``POST /act`` at a table of that server."""

from __future__ import annotations

from flood import HeavyFlood, call, percentile, timed_moves
from served import served

MOVES = 200
SECONDS = 6.0
"""The flooded moves go on for this long at least: heavy jobs run throughout (two or three end meanwhile)."""
FLOOR = 0.015
"""The idle p99 the comparison starts from at least (s): on an idle machine a move answers in 3-5 ms, and three
times that is within the scheduler's own jitter on two busy cores."""


def test_a_flood_of_heavy_requests_does_not_delay_a_seats_move(tmp_path):
    with served(tmp_path) as (_, url):
        timed_moves(url, 20)  # warm up: the first table's imports and the database's first writes
        idle = timed_moves(url, MOVES)
        with HeavyFlood(url) as flood:
            before = flood.wait_saturated()
            loaded = timed_moves(url, MOVES, seconds=SECONDS)
            after = call(url + "api/status")[1]["heavy"]
        worked = {kind: flood.done(kind) for kind in flood.kinds}
    p_idle, p_loaded = percentile(idle, 99), percentile(loaded, 99)
    jobs = after["jobs"] - before["jobs"] + 1
    print(
        f"{len(loaded)} moves; p99 idle {p_idle * 1000:.1f} ms, flooded {p_loaded * 1000:.1f} ms; "
        f"heavy jobs meanwhile {jobs}, answered {worked}, refused {after['refused']}"
    )
    # saturated throughout: heavy work running at the start and at the end, and requests turned away meanwhile
    assert before["admitted"] >= 1 and after["admitted"] >= 1 and after["refused"] > before["refused"]
    assert p_loaded <= 3 * max(p_idle, FLOOR), (p_idle, p_loaded)
