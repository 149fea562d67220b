"""Situations of issue 30 played in chromium at the server's default pace (one hand at the fast pace), with fixed walls
(:func:`scenario_walls.build_wall`; the server runs in this process, so the wall of a table's first hand can be
set): every page that watches a table sees what happens, and nothing stands still (:func:`watch`).

- A game that ends on a bot's ron against another bot (a yakuman that busts the discarder): the person who
  created the table, a second person who took the other seat through its invitation, and a spectator all see the
  last result and the final table; the same for a game ending on an exhaustive draw.
- The person's own closed kan, open kan and added kan, each followed by the replacement draw and a discard; the
  melds drawn on the table as they are (the closed kan's ends face down, the called tiles turned to the seat
  they came from, the added tile on the called one).
- A reload and a dropped websocket in the middle of a hand and in the middle of a call window: the page resumes.
"""

from __future__ import annotations

import contextlib
import time

from playwright.sync_api import Error as PlaywrightError

from jantaku.web.tables import PACES, SERVE_DEFAULTS, TableOptions

from .tables import pages, walled

LAPTOP = (1366, 768)

KAN_HANDS = {
    0: "5z5z5z6z6z6z7z7z1m2m3m4p4z",
    1: "1m2m3m4p5p6p7s8s9s2s3s5p5p",
    2: "4m5m6m1p2p3p4s5s6s1s2s9m9m",
    3: "7m8m9m7p8p9p2s3s4s3m4m2p2p",
}
"""By seat offset from the dealer: the person deals with three 5z (the fourth drawn: a closed kan), three 6z (the
bot to the right discards the fourth: an open kan) and two 7z (pon of the bot's 7z, the fourth drawn: an added
kan); the bots' hands wait on nothing the person discards."""

WATCHDOG = 12.0
"""Seconds a page's view may stand still while its table does not wait for that page's person."""


STATE = """() => ({
  step: document.body.dataset.step || '',
  mine: document.getElementById('status').dataset.mine === '1',
  dialog: document.getElementById('result-dialog').open,
  final: !!document.querySelector('#result-dialog .final'),
})"""


def watch(pages, done, label: str, limit: float = 120.0) -> None:
    """Poll the pages until ``done(states)`` holds; fail when a page's view stands still for :data:`WATCHDOG`
    seconds while its person is not asked to act (naming the page and its step), or after ``limit`` seconds."""
    start = time.monotonic()
    seen = [("", time.monotonic())] * len(pages)
    while True:
        states = [p.evaluate(STATE) for p in pages]
        if done(states):
            return
        now = time.monotonic()
        for i, s in enumerate(states):
            if s["step"] != seen[i][0] or s["mine"] or s["dialog"]:
                seen[i] = (s["step"], now)
            elif now - seen[i][1] > WATCHDOG:
                raise AssertionError(f"{label}: page {i}'s view stood still at step {s['step']} for {WATCHDOG:.0f} s")
        assert now - start < limit, f"{label}: not done after {limit:.0f} s: {states}"
        time.sleep(0.1)


def test_a_game_ending_on_a_bots_ron_is_seen_by_both_people_and_a_spectator(browser, server, monkeypatch):
    seed = "end-ron"
    # the dealer (a person) discards 9m; the bot to its right draws 7z beside a tenpai hand and discards it; the
    # next bot waits on 7z for thirteen orphans: 32,000 from a non-dealer with 25,000 ends the game (Tenhou: below 0)
    dealer = walled(
        monkeypatch,
        "tenhou",
        seed,
        {
            0: "4m5m6m7m7p8p9p4s5s6s8s8s2p",
            1: "1m2m3m4p5p6p7s8s9s2s3s5p5p",
            2: "1m9m1p9p1s9s1z2z3z4z5z6z1m",
            3: "2m3m5m6m8m2p3p6p7p2s3s6s7s",
        },
        ["9m", "7z"],
        dora="1p",
    )
    person_b, ron_bot = (dealer + 3) % 4, (dealer + 2) % 4
    kinds = ["efficiency"] * 4
    kinds[dealer] = kinds[person_b] = "human"
    manager = server.app.state.manager
    table = manager.create("tenhou", kinds, seed=seed, options=SERVE_DEFAULTS, creator_seat=dealer)
    with pages(browser, LAPTOP, 3) as (page_a, page_b, watcher):
        page_a.goto(f"{server.url}?table={table.id}&token={table.seats[dealer].token}")
        page_b.goto(f"{server.url}?table={table.id}&invite={table.seats[person_b].invite}")  # taken in the browser
        page_b.wait_for_url(lambda url: "token=" in url)
        watcher.goto(f"{server.url}?table={table.id}&watch={table.spectator_token()}")
        for p in (page_a, page_b, watcher):
            p.wait_for_selector(".river")
        page_a.wait_for_function("() => document.getElementById('status').dataset.mine === '1'")
        page_a.click("#hand > img.tile.drawn")  # the 9m
        watch([page_a, page_b, watcher], lambda states: all(s["final"] for s in states), "ron ending")
        assert table.over and table.hand_results[-1]["wins"][0]["seat"] == ron_bot
        for p in (page_a, page_b, watcher):
            result = p.locator("#result-dialog .result")
            assert result.get_attribute("data-kind") == "ron"
            assert result.locator(f"section.win[data-seat='{ron_bot}']").count() == 1
            rows = p.locator("#result-dialog .final tr[data-seat]")
            assert rows.count() == 4 and rows.first.get_attribute("data-seat") == str(ron_bot)
            assert "game is over" in p.locator("#status").inner_text()


def test_the_persons_own_kans_each_draw_a_replacement_and_discard(browser, server, monkeypatch):
    seed = "own-kans"
    # the person deals with three 5z (the fourth drawn: a closed kan), three 6z (the bot to the right discards
    # the fourth: an open kan) and two 7z (pon of the bot's 7z, then the fourth drawn: an added kan)
    dealer = walled(
        monkeypatch,
        "tenhou",
        seed,
        KAN_HANDS,
        ["5z", "6z", "7z", "1z", "1z", "1z", "7z"],
        dora="1p",
        rinshan=["2z", "3z", "9p"],
    )
    kinds = ["efficiency"] * 4
    kinds[dealer] = "human"
    manager = server.app.state.manager
    table = manager.create("tenhou", kinds, seed=seed, options=SERVE_DEFAULTS)
    with pages(browser, LAPTOP, 1) as (page,):
        page.goto(f"{server.url}?table={table.id}&token={table.seats[dealer].token}")
        page.wait_for_selector("#hand > img.tile")

        def my_turn_with(action: str) -> None:
            watch(
                [page],
                lambda s: s[0]["mine"] and page.locator(f"#actions button[data-action={action}]").count() > 0,
                f"waiting for {action}",
            )

        def kan_then_discard(action: str, replacement: str) -> None:
            step = page.evaluate("() => document.body.dataset.step")
            page.locator(f"#actions button[data-action={action}]").first.click()
            # the replacement tile comes as the drawn tile, and the person may discard
            page.wait_for_function(
                "([s, t]) => document.body.dataset.step !== s && document.querySelector('#hand > img.tile.drawn')"
                " && document.querySelector('#hand > img.tile.drawn').dataset.tile === t"
                " && document.getElementById('status').dataset.mine === '1'",
                arg=[step, replacement],
            )
            page.click("#hand > img.tile.drawn")

        my_turn_with("ankan")
        kan_then_discard("ankan", "2z")
        my_turn_with("daiminkan")
        kan_then_discard("daiminkan", "3z")
        my_turn_with("pon")
        page.locator("#actions button[data-action=pon]").click()
        page.wait_for_selector("#hand > img.tile.playable[data-tile='4z']")
        page.click("#hand > img.tile.playable[data-tile='4z']")
        my_turn_with("kakan")
        kan_then_discard("kakan", "9p")
        watch(
            [page],
            lambda s: not s[0]["mine"] or table.view(dealer)["players"][dealer]["river"][-1]["tile"] == "9p",
            "the last discard",
        )
        melds = table.view(dealer)["players"][dealer]["melds"]
        assert [m["type"] for m in melds] == ["ankan", "minkan", "kakan"]
        # drawn as they are: the closed kan's ends face down, the open kan's called tile (from the seat to the
        # right) last and sideways, the added kan's tile laid on the ponned one
        drawn = page.locator(".player.self .melds .meld")
        page.wait_for_function("() => document.querySelectorAll('.player.self .melds .meld').length === 3")
        alts = [drawn.nth(i).locator("img").evaluate_all("i => i.map(x => x.alt)") for i in range(3)]
        assert alts[0] == ["back", "5z", "5z", "back"]
        assert drawn.nth(1).locator("img").last.get_attribute("class").split().count("sideways") == 1
        assert drawn.nth(2).locator(".kakan-stack img").count() == 2
        assert melds[1]["source"] == 1 and melds[2]["source"] == 1  # both from the seat to the right
        discards = [r["tile"] for r in table.view(dealer)["players"][dealer]["river"]]
        assert discards[:4] == ["2z", "3z", "4z", "9p"]


def test_a_reload_and_a_dropped_websocket_mid_hand_and_mid_call_window(browser, server, monkeypatch):
    seed = "resume"
    # as above: the person is offered the open kan on the bot's 6z (a call window waiting on the person)
    dealer = walled(
        monkeypatch,
        "tenhou",
        seed,
        KAN_HANDS,
        ["5z", "6z"],
        dora="1p",
        rinshan=["2z", "3z"],
    )
    kinds = ["efficiency"] * 4
    kinds[dealer] = "human"
    table = server.app.state.manager.create("tenhou", kinds, seed=seed, options=SERVE_DEFAULTS)
    with pages(browser, LAPTOP, 1) as (page,):
        page.goto(f"{server.url}?table={table.id}&token={table.seats[dealer].token}")
        page.wait_for_selector("#actions button[data-action=ankan]")
        # mid-hand: a reload shows the same hand and the same choice
        hand = page.locator("#hand > img.tile").evaluate_all("i => i.map(x => x.alt)")
        page.reload()
        page.wait_for_selector("#actions button[data-action=ankan]")
        assert page.locator("#hand > img.tile").evaluate_all("i => i.map(x => x.alt)") == hand
        # a dropped websocket: the page says so, connects again and goes on
        page.evaluate("() => socket.close()")
        page.wait_for_function("() => document.getElementById('status').dataset.mine === '1'")
        page.click("#actions button[data-action=ankan]")
        page.wait_for_selector("#hand > img.tile.drawn[data-tile='2z']")
        page.click("#hand > img.tile.drawn")
        # mid-call-window: the bot's 6z waits on the person's open kan; drop the socket, then reload: still asked
        page.wait_for_selector("#actions button[data-action=daiminkan]", timeout=30_000)
        page.evaluate("() => socket.close()")
        page.wait_for_selector("#actions button[data-action=daiminkan]")
        page.reload()
        page.wait_for_selector("#actions button[data-action=daiminkan]")
        page.click("#actions button[data-action=daiminkan]")
        page.wait_for_selector("#hand > img.tile.drawn[data-tile='3z']")
        page.click("#hand > img.tile.drawn")
        watch(
            [page],
            lambda s: (
                table.view(dealer)["players"][dealer]["river"][-1:] != []
                and table.view(dealer)["players"][dealer]["river"][-1]["tile"] == "3z"
            ),
            "after the kan",
        )


def _pass_or_tsumogiri(view: dict) -> int:
    """The index of a person's quietest move: discard the drawn tile, pass a call, stay silent at a draw."""
    acts = view["actions"]
    for want in (
        lambda a: a["type"] == "dahai" and a.get("tsumogiri"),
        lambda a: a["type"] in ("none", "noten"),
        lambda a: a["type"] == "dahai",
    ):
        found = [i for i, a in enumerate(acts) if want(a)]
        if found:
            return found[0]
    return 0


def test_a_game_ending_on_an_exhaustive_draw_is_seen_by_both_people_and_a_spectator(browser, server):
    """Random bots almost never win, and the people only discard what they draw: every hand of this East-only
    game is an exhaustive draw. The first three hands are played at once on the server (at no pace), then the
    table takes the server's default options for its last hand (its result hold, no turn timer) at the fast pace,
    played in the browsers: 70 bot turns at the default pace kept three pages busy for a minute, and the default
    pace's whole games are played by tests/e2e/test_e2e_serve.py."""
    manager = server.app.state.manager
    kinds = ["human", "random", "human", "random"]
    table = manager.create("mleague", kinds, seed="draw-end-0", options=TableOptions(length="east"), creator_seat=0)
    claimed = manager.claim(table.id, table.seats[2].invite)[2]
    tokens = {0: table.seats[0].token, 2: claimed}
    while len(table.hand_results) < 3:
        seat = next(s for s in tokens if table.view(s)["actions"])
        view = table.view(seat)
        manager.act(table.id, tokens[seat], view["step"], _pass_or_tsumogiri(view))
    assert [r["kind"] for r in table.hand_results] == ["exhaustive"] * 3
    with table.lock:  # the last hand with `jantaku serve`'s result hold and timer, at the fast pace
        table.options = TableOptions(PACES["fast"], SERVE_DEFAULTS.result_seconds, SERVE_DEFAULTS.timer, "east")
    with pages(browser, LAPTOP, 3) as (page_a, page_b, watcher):
        page_a.goto(f"{server.url}?table={table.id}&token={tokens[0]}")
        page_b.goto(f"{server.url}?table={table.id}&token={tokens[2]}")
        watcher.goto(f"{server.url}?table={table.id}&watch={table.spectator_token()}")
        people = [page_a, page_b]
        for p in (*people, watcher):
            p.wait_for_selector(".river")
            if p.locator("#result-dialog[open]").count():  # the third hand's result, seen at load
                p.click("#result-dialog form button")

        quiet = (  # what a person clicks, in this order: pass, stay silent, discard the drawn tile, any discard
            ("#actions button[data-action=none]", "first"),
            ("#actions button[data-action=noten]", "first"),
            ("#hand > img.tile.drawn.playable", "first"),
            ("#hand > img.tile.playable", "last"),
        )

        def step(states) -> bool:
            for p, s in zip(people, states, strict=False):
                if not s["mine"] or s["dialog"]:
                    continue
                for selector, which in quiet:
                    found = getattr(p.locator(selector), which)
                    if found.count():
                        # the view may have moved on since the poll (the other person acted): then poll again
                        with contextlib.suppress(PlaywrightError):
                            found.click(timeout=2_000)
                        break
            return all(s["final"] for s in states)

        watch([*people, watcher], step, "the last hand", limit=300)
        assert table.over and table.hand_results[-1]["kind"] == "exhaustive" and len(table.hand_results) == 4
        for p in (*people, watcher):
            result = p.locator("#result-dialog .result")
            assert result.get_attribute("data-kind") == "exhaustive"
            assert result.locator("h3.draw").inner_text() == "Exhaustive draw"
            assert p.locator("#result-dialog .final tr[data-seat]").count() == 4
