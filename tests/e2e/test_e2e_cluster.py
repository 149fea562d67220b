"""Two people in two browsers at one table served by two ``jantaku serve`` processes on one PostgreSQL database
(tests/test_web_cluster.py tests the same with websocket clients): what a person behind a proxy that spreads the
people over the processes sees.

- Person A creates the table in the lobby of process 1 (M-League rules East only, which has no sudden-death
  extension; two people, two efficiency bots; the servers' pace of 20 ms a step and 2 s result wait) and sends
  the second seat's invitation; person B opens it through process 2 (same path, other port) and takes the seat.
  Each plays by clicking in their own page, through their own process (tests/e2e/driver.py): the drawn tile or
  the most efficient discard, riichi when offered, wins taken, calls passed, result panels closed.
- Every discard a person makes shows in the other person's page within :data:`SEEN_WITHIN` seconds (the move
  crosses from one process to the other: stored, announced with NOTIFY, read again, pushed to the socket).
- In the second hand person B reloads the page and goes on; a few decisions later the process driving the table
  (the holder of its lease: the bots' steps) is killed with SIGKILL, and the person whose page was on it goes to
  the same table on the surviving process, as a proxy would send them. The other process takes the table over
  (neither page stands still longer than the lease's lapse and a retry, and a few seconds) and the game is
  played to its final table, which both pages show alike, with the stored game's scores.
- No JavaScript error on either page (console errors included, but for the dead process's refused connections
  in the moment between its kill and the person's move), and the stored game holds every move the pages sent
  and saw taken, in order.

On two cores (two servers, a database and chromium on them) the test takes about 30-35 s for a game of 4-6 hands
(one click costs the page about 0.1 s), about a minute for a long game of 8 hands on a busy machine.
"""

from __future__ import annotations

import json
import statistics
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from jantaku.web.leases import LEASE_SECONDS, RETRY_SECONDS
from jantaku.web.storage import SqlStore
from served import lease_holder, served

from .driver import WATCHDOG, play_turn
from .tables import pages

PACE_MS = 20
RESULT_SECONDS = 2
SEEN_WITHIN = 3.0
"""Seconds within which a person's discard must show in the other person's page."""
GAME_SECONDS = 150
"""The longest the whole game may take here (25-60 s)."""
TAKEOVER_SECONDS = LEASE_SECONDS + RETRY_SECONDS + 3.0
"""The longest a page may stand still after the kill, its person not asked: the killed driver's lease lapses, the
other process takes it (as tests/test_web_cluster.py bounds it)."""

STATE = """() => ({
    step: document.body.dataset.step || '',
    mine: document.getElementById('status').dataset.mine === '1',
    dialog: document.getElementById('result-dialog').open,
    final: !!document.querySelector('#result-dialog .final'),
    over: !!(view && view.over),
    hands: view ? view.hand_results : -1,
})"""

FINAL_ROWS = """() => [...document.querySelectorAll('#result-dialog .final tr[data-seat]')].map(
    (r) => [Number(r.dataset.seat), ...[...r.querySelectorAll('td')].map((td) => td.textContent)])"""

RIVER = '(seat) => document.querySelectorAll(`.river[data-seat="${seat}"] > img`).length'


@dataclass
class Person:
    """One person at the table: their page, the seat, the process their page is on (``"1"`` or ``"2"``) and what
    went over their page's websockets."""

    name: str
    seat: int
    page: Any
    where: str
    sockets: list[list[tuple[str, dict]]] = field(default_factory=list)
    console: list[tuple[float, str, str]] = field(default_factory=list)
    decisions: int = 0
    hands: int = 0
    clicked: dict[str, int] = field(default_factory=dict)
    step: str = ""
    moved_at: float = 0.0
    done: bool = False

    def listen(self) -> None:
        """Keep every frame of every websocket the page opens, and the console's errors."""

        def on_socket(ws: Any) -> None:
            frames: list[tuple[str, dict]] = []
            self.sockets.append(frames)
            ws.on("framesent", lambda payload: frames.append(("sent", json.loads(payload))))
            ws.on("framereceived", lambda payload: frames.append(("received", json.loads(payload))))

        def on_console(msg: Any) -> None:
            if msg.type == "error":
                self.console.append((time.monotonic(), msg.text, (msg.location or {}).get("url", "")))

        self.page.on("websocket", on_socket)
        self.page.on("console", on_console)
        self.page.keep = False  # listeners of its own: closed after the test rather than handed to another

    def moves(self) -> tuple[list[dict], int]:
        """The moves this person's page sent that the table took (a later view of the seat came on the same
        socket, and no refusal), in order; and how many were sent without either (cut off with their socket)."""
        taken, unsure = [], 0
        for frames in self.sockets:
            shown: dict[int, dict] = {}
            waiting: tuple[int, dict] | None = None
            for kind, msg in frames:
                if kind == "sent":
                    assert waiting is None, f"{self.name}: a move sent before the one before was answered: {msg}"
                    action = shown[msg["step"]]["actions"][msg["index"]]
                    waiting = (msg["step"], {k: v for k, v in action.items() if k != "index"})
                elif msg["type"] == "view":
                    shown[msg["view"]["step"]] = msg["view"]
                    if waiting is not None and msg["view"]["step"] > waiting[0]:
                        taken.append(waiting[1])
                        waiting = None
                else:
                    raise AssertionError(f"{self.name}: the server refused a move or closed the socket: {msg}")
            unsure += waiting is not None
        return taken, unsure


def _cluster_process(base: str) -> str:
    with urllib.request.urlopen(base + "api/status", timeout=10) as r:
        cluster = json.loads(r.read())["cluster"]
    assert cluster and cluster["listening"], cluster
    return cluster["process"]


def _create_table(page: Any, base: str) -> str:
    """In process 1's lobby, as a person does: M-League rules, a second person at seat 2 and two efficiency bots,
    East only, the server's default pace and result wait; the creator goes to their seat. The second seat's
    invitation link."""
    page.goto(base)
    page.select_option("#rules", "mleague")
    page.select_option("#kind1", "human")
    for s in (2, 3):
        page.select_option(f"#kind{s}", "efficiency")
    page.select_option("#opt-length", "east")
    assert page.input_value("#opt-pace") == str(PACE_MS)  # the servers' --pace, the lobby's default
    page.click("#new-table button[type=submit]")
    invitation = page.locator("#link-list a.seat-link")
    invitation.wait_for()
    assert invitation.count() == 1
    link = invitation.get_attribute("href")
    page.click("#go-to-seat")
    return link


def _elsewhere(url: str, base: str) -> str:
    """``url`` (a page of one process) at the address ``base`` of another: the same path and query."""
    return base + url.split("/", 3)[3]


def test_two_browsers_two_processes_a_reload_and_a_killed_driver(browser, pg_cluster, tmp_path):
    url = pg_cluster.fresh_url()
    options = (
        "--db", url, "--pace", str(PACE_MS), "--result-seconds", str(RESULT_SECONDS), "--tables-per-minute", "0",
    )  # fmt: skip
    started = time.monotonic()
    with (
        served(tmp_path, *options) as (proc_1, base_1),
        served(tmp_path, *options) as (proc_2, base_2),
        pages(browser, (1280, 900), 2) as (page_a, page_b),
    ):
        procs, bases = {"1": proc_1, "2": proc_2}, {"1": base_1, "2": base_2}
        nodes = {_cluster_process(base): k for k, base in bases.items()}
        a, b = Person("A", 0, page_a, "1"), Person("B", 1, page_b, "2")
        people = [a, b]
        for p in people:
            p.listen()
        up = time.monotonic() - started

        # 1-2. A creates the table through process 1; B takes the invitation through process 2
        invitation = _create_table(page_a, base_1)
        assert "invite=" in invitation and invitation.startswith(base_1)
        page_b.goto(_elsewhere(invitation, base_2))
        for p in people:
            p.page.wait_for_selector("#hand > img.tile")
            assert p.page.url.startswith(bases[p.where]) and "token=" in p.page.url, p.page.url
        assert "invite=" not in page_b.url
        table_id = page_a.evaluate("() => tableId")
        assert page_b.evaluate("() => tableId") == table_id
        assert [p.page.evaluate("() => view.seat") for p in people] == [0, 1]

        # 3-4. both play to the end, each through their own process
        lags: list[float] = []  # from a discard's click to the other person's page, through the other process
        second_hand: int | None = None  # B's decisions when the first hand ended
        reloaded_at: int | None = None  # B's decisions when B reloaded
        killed: dict[str, Any] = {}
        still = {"before": 0.0, "after": 0.0}  # the longest a page stood still, its person not asked
        game_start = time.monotonic()
        for p in people:
            p.moved_at = time.monotonic()

        def seen_by_the_other(mover: Person, clicked: float) -> None:
            """The other person's page shows ``mover``'s discard (clicked at ``clicked``) within SEEN_WITHIN s."""
            other = b if mover is a else a
            if other.done:
                return
            count = mover.page.evaluate(RIVER, mover.seat)  # the mover's page shows the discard (play_turn waited)
            try:
                left = max(0.1, SEEN_WITHIN - (time.monotonic() - clicked))
                other.page.wait_for_function(
                    f"(n) => ({RIVER})({mover.seat}) >= n", arg=count, polling=20, timeout=left * 1000
                )
            except PlaywrightTimeout:
                shown = other.page.evaluate(RIVER, mover.seat)
                raise AssertionError(
                    f"{mover.name}'s discard (river {count}) not in {other.name}'s page {SEEN_WITHIN} s after the "
                    f"click (it shows {shown}; {mover.name} on process {mover.where}, {other.name} on {other.where})"
                ) from None
            if mover.where != other.where:
                lags.append(time.monotonic() - clicked)

        def kill_the_driver() -> None:
            deadline = time.monotonic() + 5
            while (node := lease_holder(url, table_id)) is None:
                assert time.monotonic() < deadline, "no process holds the table's lease"
                time.sleep(0.05)
            dead = nodes[node]
            procs[dead].kill()
            killed.update(where=dead, at=time.monotonic(), base=bases[dead])
            procs[dead].wait()
            store = SqlStore(url)
            try:
                moves_then = len(store.get_table(table_id).actions)
            finally:
                store.close()
            killed["moves"] = moves_then  # what the table had stored when its driver died
            alive = "2" if dead == "1" else "1"
            for p in people:
                if p.where == dead:  # the proxy sends them to the process still up
                    p.where = alive
                    p.page.goto(_elsewhere(p.page.url, bases[alive]))
                    p.page.wait_for_selector("#hand > img.tile")
                    killed["moved"] = p.name
                    p.moved_at = time.monotonic()

        while not all(p.done for p in people):
            assert time.monotonic() - game_start < GAME_SECONDS, f"no final table after {GAME_SECONDS} s"
            acted = False
            for p in people:
                if p.done:
                    continue
                state = p.page.evaluate(STATE)
                now = time.monotonic()
                p.hands = state["hands"]
                if state["step"] != p.step:
                    p.step, p.moved_at = state["step"], now
                if state["final"] and state["over"]:
                    p.done = True
                    continue
                if state["dialog"]:
                    p.page.locator("#result-dialog form button").click()  # the next hand is dealt
                    p.moved_at, acted = time.monotonic(), True
                    continue
                if state["mine"]:
                    clicked = time.monotonic()
                    what = play_turn(p.page, prefer_wins=True)
                    p.decisions += 1
                    p.clicked[what] = p.clicked.get(what, 0) + 1
                    p.moved_at, acted = time.monotonic(), True
                    if what in ("dahai", "reach"):
                        seen_by_the_other(p, clicked)
                    continue
                phase = "after" if killed else "before"
                still[phase] = max(still[phase], now - p.moved_at)
                assert now - p.moved_at < WATCHDOG, (
                    f"{p.name}: the view stood still at step {p.step} for {WATCHDOG:.0f} s, the person not asked"
                )
            # 4. in the second hand: B reloads, and a few decisions later the driving process is killed
            hands = max(p.hands for p in people)
            if second_hand is None and hands >= 1:
                second_hand = b.decisions
            if reloaded_at is None and second_hand is not None and b.decisions >= second_hand + 2 and not b.done:
                before = b.page.evaluate("() => Number(document.body.dataset.step)")
                b.page.reload()
                b.page.wait_for_function("(s) => Number(document.body.dataset.step || -1) >= s", arg=before)
                b.page.wait_for_selector("#hand > img.tile")
                reloaded_at, b.moved_at = b.decisions, time.monotonic()
            elif reloaded_at is not None and not killed and (hands >= 2 or b.decisions >= reloaded_at + 8):
                kill_the_driver()
            if not acted:
                time.sleep(0.02)
        game_seconds = time.monotonic() - game_start

        assert reloaded_at is not None and killed, "the game ended before the reload and the kill"
        # 4. the same final table in both pages
        finals = [p.page.evaluate(FINAL_ROWS) for p in people]
        assert len(finals[0]) == 4 and finals[0] == finals[1], finals
        # 5. no JavaScript error; console errors only for the dead process's refused connections
        host = killed["base"].split("//", 1)[1].rstrip("/")
        for p in people:
            assert not p.page.errors, p.page.errors
            unexpected = [(t, text, where) for t, text, where in p.console if host not in text + where]
            assert not unexpected, f"{p.name}'s console: {unexpected}"
            assert all(t >= killed["at"] for t, _, _ in p.console), p.console
        moves = {p.seat: p.moves() for p in people}

    # 5. the stored game: every move the pages saw taken, and no other move of the people's seats
    store = SqlStore(url)
    try:
        stored = store.get_finished_table(table_id)
        game = store.get_game(table_id)
    finally:
        store.close()
    assert stored is not None and game is not None and stored.status == "finished"
    for seat, (taken, unsure) in moves.items():
        mine = [act for act in stored.actions if act["seat"] == seat]
        it = iter(mine)  # each taken move stored, in order (a move cut off with its socket may be stored too)
        assert all(any(move == act for act in it) for move in taken), seat
        assert len(taken) <= len(mine) <= len(taken) + unsure, (seat, len(taken), len(mine), unsure)
    shown = {row[0]: int(row[3]) for row in finals[0]}
    assert [shown[s] for s in range(4)] == game.summary["scores"], (finals[0], game.summary)
    bots = [act for act in stored.actions[killed["moves"] :] if act["seat"] in (2, 3)]
    assert bots, "no bot moved after the kill: the other process never took the table over"

    lags.sort()
    print(
        f"\n[e2e] two processes up in {up:.1f} s; an East-only game of {game.summary['hands']} hands in "
        f"{game_seconds:.0f} s ({a.decisions} + {b.decisions} decisions, {len(stored.actions)} moves); "
        f"{len(lags)} discards crossed processes: median {statistics.median(lags) * 1000:.0f} ms, "
        f"max {lags[-1] * 1000:.0f} ms; process {killed['where']} killed, {killed['moved']} moved; the longest "
        f"standstill {still['before']:.1f} s before the kill, {still['after']:.1f} s after; clicked: A {a.clicked}, "
        f"B {b.clicked}"
    )
    assert len(lags) >= 10, lags
    assert still["after"] < TAKEOVER_SECONDS, still
