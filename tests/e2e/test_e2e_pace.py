"""Pace and time in the browser (issue 13), on a phone (390x844) and a laptop (1366x768): the last discard marked
and animated (not with reduced motion), bots' steps at the table's pace, a pon announced on the board, the
finished hand kept under its result panel until both people closed it (the winner's hand open on the board),
the auto options and the turn timer in the page, and the table options chosen in the lobby.

Tables are made in the server's own process with fixed walls where a situation is needed
(:func:`scenario_walls.build_wall`) and a fast pace."""

from __future__ import annotations

import itertools

import pytest
from playwright.sync_api import Error as PlaywrightError

from jantaku.web.tables import TableOptions
from seats import create_claimed

from .tables import pages, walled

SIZES = [pytest.param((390, 844), id="phone"), pytest.param((1366, 768), id="laptop")]
PACE_MS = 150
RULES = "mleague"


def _open(page, server, table, seat):
    page.goto(f"{server.url}?table={table.id}&token={table.seats[seat].token}")
    page.wait_for_selector("#hand > img.tile")


@pytest.mark.parametrize("size", SIZES)
def test_bots_move_at_the_pace_and_the_last_discard_is_marked(browser, server, size):
    table = create_claimed(
        server.app.state.manager,
        RULES,
        ["human", "efficiency", "efficiency", "efficiency"],
        seed=f"e2e-pace-{size[0]}",
        options=TableOptions(pace=PACE_MS),
    )
    with pages(browser, size, 1) as (page,):
        _open(page, server, table, 0)
        page.evaluate("""() => {
          window.__steps = [];
          new MutationObserver(() => {
            const last = document.querySelector('.river .tile.last-discard');
            const anim = document.querySelector('.river .tile.discard-anim');
            window.__steps.push([performance.now(), last ? last.closest('.river').dataset.seat : null,
              anim ? anim.closest('.river').dataset.seat : null]);
          }).observe(document.body, { attributes: true, attributeFilter: ['data-step'] });
        }""")
        page.wait_for_function("() => document.getElementById('status').dataset.mine === '1'")
        page.locator("#hand > img.tile.playable").last.click()
        # the own discard at once: marked as the last discard and animated into the river
        try:
            page.locator(".river[data-seat='0'] > img.tile.last-discard").wait_for()
        except PlaywrightError as e:  # say what the page showed (a full run failed here once, not reproduced)
            shown = page.evaluate(
                "() => ({step: document.body.dataset.step, mine: document.getElementById('status').dataset.mine,"
                " status: document.getElementById('status').textContent, error: document.getElementById('error')"
                ".textContent, river: [...document.querySelectorAll(\".river[data-seat='0'] > img\")].map(i => "
                "i.className), to_act: view && view.to_act, phase: view && view.round.phase})"
            )
            step = table.view(0)["step"]
            raise AssertionError(f"no own discard marked after the click: {shown}; the table's step {step}") from e
        assert page.locator(".river .tile.last-discard").count() == 1
        page.wait_for_function("() => document.getElementById('status').dataset.mine === '1'", timeout=20_000)
        steps = page.evaluate("window.__steps")
        # a step changes one or two seats' boxes: only those are drawn again (data-draws counts a box's drawings)
        draws = page.evaluate("() => [...document.querySelectorAll('.player')].map((b) => Number(b.dataset.draws))")
        assert sum(draws) < 2.5 * len(steps), (draws, len(steps))
        assert steps[0][1:] == ["0", "0"]  # the own discard, marked and animated as it was shown
        animated = {anim for _, _, anim in steps if anim is not None}
        assert animated - {"0"}, "the bots' discards were animated too"
        times = [t for t, _, _ in steps]
        gaps = [b - a for a, b in itertools.pairwise(times)]
        # the bots' draws and discards came one at a time, at the pace (never all at once)
        assert len(steps) >= 6
        assert sorted(gaps)[len(gaps) // 2] >= PACE_MS * 0.7
        assert times[-1] - times[0] >= PACE_MS * (len(steps) - 1) * 0.7
        marked = {seat for _, seat, _ in steps if seat is not None}
        assert marked - {"0"}, "another seat's discard was marked as the last one"
        # with reduced motion the discard is not animated
        page.emulate_media(reduced_motion="reduce")
        page.evaluate("() => document.querySelector('.river .tile.last-discard').classList.add('discard-anim')")
        anim = page.evaluate(
            "() => getComputedStyle(document.querySelector('.river .tile.last-discard')).animationName"
        )
        assert anim == "none"
        page.emulate_media(reduced_motion="no-preference")
        anim = page.evaluate(
            "() => getComputedStyle(document.querySelector('.river .tile.last-discard')).animationName"
        )
        assert anim == "jt-discard"
        # the page waits for the person: the acting seat's label pulses as its turn starts, then nothing on the
        # page moves (an endless animation kept the browser busy for as long as the person thought)
        running = "() => document.getAnimations().filter(a => a.playState === 'running').map(a => a.animationName)"
        page.wait_for_function(f"() => ({running})().length === 0", timeout=10_000)
        assert page.evaluate("() => document.getElementById('status').dataset.mine") == "1"


@pytest.mark.parametrize("size", SIZES)
def test_a_pon_is_announced_on_the_board(browser, server, size, monkeypatch):
    seed = f"e2e-pace-pon-{size[0]}"
    a = walled(
        monkeypatch,
        RULES,
        seed,
        {
            0: "3m4m7m2p5p8p3s6s8s1z2z5z7z",
            1: "1m2m6m4p7p9p2s5s9s3z4z6z1p",
            2: "3m3m8m3p6p1s4s7s2z3z4z7z1z",
            3: "5m9m2p4p8p3s5s8s6z5z2z4z1p",
        },
        ["8m"],
        dora="1z",
    )
    b = (a + 2) % 4
    kinds = ["efficiency"] * 4
    kinds[a] = kinds[b] = "human"
    table = create_claimed(server.app.state.manager, RULES, kinds, seed=seed, options=TableOptions(pace=PACE_MS))
    with pages(browser, size, 2) as (page_a, page_b):
        _open(page_a, server, table, a)
        _open(page_b, server, table, b)
        page_a.wait_for_function("() => document.getElementById('status').dataset.mine === '1'")
        page_a.click("#hand > img.tile.playable[data-tile='3m']")
        page_b.locator("#actions button[data-action=pon]").click()
        banner = page_a.locator(".announce[data-announce=pon]")
        banner.wait_for()
        assert banner.inner_text() == "Pon" and banner.get_attribute("data-seat") == str(b)
        box = banner.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= size[0] and 0 <= box["y"] <= size[1]
        # near B's box (across the table from A)
        across = page_a.locator(".player[data-rel='2']").bounding_box()
        assert abs((box["y"] + box["height"] / 2) - (across["y"] + across["height"] / 2)) < across["height"] + 60
        banner.wait_for(state="detached", timeout=5_000)  # a banner, not a lasting mark


@pytest.mark.parametrize("size", SIZES)
def test_the_finished_hand_stays_until_both_people_closed_its_result(browser, server, size, monkeypatch):
    seed = f"e2e-pace-hold-{size[0]}"
    # the dealer (a person) holds the red dragon; the bot after it waits on it for a win (red dragon triplet)
    a = walled(
        monkeypatch,
        RULES,
        seed,
        {
            0: "7z1m4m7m2p5p8p3s6s9s1z2z3z",
            1: "1m2m3m4p5p6p7s8s9s1s1s7z7z",
            2: "2m5m8m3p6p9p1s4s8s4z5z6z2z",
            3: "3m6m9m1p4p7p2s5s8s6z6z5z4z",
        },
        ["9m"],
        dora="1z",
    )
    c, b = (a + 1) % 4, (a + 2) % 4
    kinds = ["efficiency"] * 4
    kinds[a] = kinds[b] = "human"
    table = create_claimed(
        server.app.state.manager, RULES, kinds, seed=seed, options=TableOptions(pace=PACE_MS, result_seconds=60)
    )
    with pages(browser, size, 2) as (page_a, page_b):
        _open(page_a, server, table, a)
        _open(page_b, server, table, b)
        page_a.wait_for_function("() => document.getElementById('status').dataset.mine === '1'")
        page_a.click("#hand > img.tile.playable[data-tile='7z']")
        for page in (page_a, page_b):
            page.locator("#result-dialog[open] .result section.win").wait_for()
            # the win announced on the page, never over the result panel (which lies above it)
            assert page.locator("body > .announce[data-announce=ron]").count() == 1
            assert page.locator("#result-dialog .announce").count() == 0
        assert table.game.hand_index == 1 and table.hand_results[0]["wins"][0]["seat"] == c
        # under the panel: the finished board, the winner's hand open in its box, the winning tile marked
        for page, me in ((page_a, a), (page_b, b)):
            rel = (c - me) % 4
            shown = page.locator(f".player[data-rel='{rel}'] .shown-hand img.tile")
            assert shown.count() == 14
            win_tile = page.locator(f".river[data-seat='{a}'] > img.tile.last-discard.win-tile")
            assert win_tile.get_attribute("alt") == "7z"
            assert page.locator("#center .round-name").inner_text() == "East 1"
            assert page.locator("#hold-note").is_visible()
        # A closes it: A still sees the finished hand (waiting for B)
        page_a.click("#result-dialog form button")
        page_a.wait_for_function("() => !document.getElementById('result-dialog').open")
        page_a.wait_for_function("() => /the others/.test(document.getElementById('hold-note').textContent)")
        assert page_a.locator(".player .shown-hand").count() == 1
        assert page_a.locator("#center .round-name").inner_text() == "East 1"
        assert table.view(a)["hold"]["ready"] is True
        # B's connection drops during the hold: it connects again, the panel still open and the hand held
        page_b.evaluate("() => socket.close()")
        page_b.wait_for_function("() => socket.readyState === WebSocket.OPEN", timeout=10_000)
        assert page_b.locator("#result-dialog[open]").count() == 1
        assert page_b.locator("#center .round-name").inner_text() == "East 1"
        # B reloads: the panel is still there for B, who closes it: the next hand is dealt on both pages
        page_b.reload()
        page_b.locator("#result-dialog[open]").wait_for()
        page_b.click("#result-dialog form button")
        for page in (page_a, page_b):
            page.wait_for_function("() => document.querySelector('#center .round-name').textContent === 'East 2'")
            assert page.locator(".player .shown-hand").count() == 0
        assert table.released == 1


@pytest.mark.parametrize("size", SIZES)
def test_auto_options_and_the_turn_timer_in_the_page(browser, server, size):
    table = create_claimed(
        server.app.state.manager,
        RULES,
        ["human", "efficiency", "efficiency", "efficiency"],
        seed=f"e2e-pace-auto-{size[0]}",
        options=TableOptions(pace=PACE_MS, timer="5+10"),
    )
    with pages(browser, size, 1) as (page,):
        _open(page, server, table, 0)
        page.wait_for_function("() => document.getElementById('status').dataset.mine === '1'")
        timer = page.locator("#turn-timer")
        timer.wait_for()
        first = int(timer.get_attribute("data-left"))
        # 5 s a turn and a 10 s bank: at most 15 s, and what the server has left (read after the page, so no more
        # than the page shows but for the page's rounding); on a busy machine seconds pass before the page draws
        server_left = table.view(0)["timer"]["left"]
        assert server_left - 1.5 <= first <= 15 and "Time" in timer.inner_text()
        page.wait_for_function("(f) => Number(document.getElementById('turn-timer').dataset.left) < f", arg=first)
        box = timer.bounding_box()
        assert box and box["y"] + box["height"] <= size[1] + page.evaluate("window.scrollY") + 1
        for key in ("no_calls", "win"):
            page.check(f"#auto-{key}")
            page.wait_for_function(f"() => document.getElementById('auto-{key}').checked")
        deadline = 50
        while not (table.auto[0]["no_calls"] and table.auto[0]["win"]) and deadline:
            page.wait_for_timeout(100)
            deadline -= 1
        assert table.auto[0] == {"riichi_discard": False, "win": True, "no_calls": True}
        page.reload()
        page.wait_for_selector("#auto-options input")
        assert page.is_checked("#auto-no_calls") and page.is_checked("#auto-win")
        assert not page.is_checked("#auto-riichi_discard")
        for label in page.locator("#auto-options label").all():
            b = label.bounding_box()
            assert b and b["x"] >= 0 and b["x"] + b["width"] <= size[0] + 1


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_sets_pace_timer_result_wait_and_east_only(browser, server, size):
    with pages(browser, size, 1) as (page,):
        page.goto(server.url)
        page.wait_for_selector("#opt-pace option", state="attached")
        page.select_option("#rules", "tenhou")
        page.select_option("#opt-pace", "fast")
        page.select_option("#opt-timer", "5+10")
        page.select_option("#opt-result", "30")
        page.select_option("#opt-length", "east")
        for sel in ("#opt-pace", "#opt-timer", "#opt-result", "#opt-length"):
            b = page.locator(sel).bounding_box()
            assert b and b["x"] + b["width"] <= size[0] + 1
        page.click("#new-table button[type=submit]")
        page.wait_for_selector("#hand > img.tile")
        table_id = page.evaluate("new URLSearchParams(location.search).get('table')")
        table = server.app.state.manager.get(table_id)
        assert table.options == TableOptions(pace=150, result_seconds=30, timer="5+10", length="east")
        assert table.game.rules.rounds == 1
