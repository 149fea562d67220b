"""The review page in a real browser, on a phone-sized and a laptop-sized screen: a real tenhou.net/6 game uploaded,
its decisions stepped through with the keyboard, the bot's choice beside the player's on the board, a player
filter and jumps to the differences, nothing wider than the screen; a stored game opened from the games list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import HEAVY_TIMEOUT_MS, TIMEOUT_MS

# a real Mahjong Soul Jade-room hanchan in tenhou.net/6 form (kbkn3's converter tests, Apache-2.0)
JADE = Path(__file__).parents[1] / "data" / "records" / "tenhou6-json" / "mahjongsoul" / "jade_room_south_2024.json"


@pytest.fixture
def sized(browser, server, request):
    """A page at the viewport given as the test's parameter; no JavaScript errors allowed."""
    width, height = request.param
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def _label(page) -> tuple[int, int]:
    """(decision number, decisions shown) from "Decision N of M"."""
    words = page.inner_text("#decision-label").split()
    return int(words[1]), int(words[3])


def _overflowing(page) -> list[str]:
    """Elements that reach past the right edge of the screen (the summary table scrolls inside its box)."""
    return page.evaluate(
        """() => {
        const width = document.documentElement.clientWidth;
        const out = [];
        if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth}`);
        for (const node of document.querySelectorAll('#decision *, #review-board *, #review-controls *, header *')) {
          if (node.closest('.table-scroll')) continue;
          const r = node.getBoundingClientRect();
          if (r.width && r.right > width + 1) out.push(`${node.tagName}.${node.className} ${Math.round(r.right)}`);
        }
        return out;
      }"""
    )


@pytest.mark.parametrize("sized", [(390, 844), (1366, 768)], indirect=True, ids=["phone", "laptop"])
def test_a_real_tenhou6_game_reviewed_step_by_step(sized, server):
    page = sized
    page.goto(server.url + "review")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#review-upload", str(JADE))
    page.wait_for_selector("#decision h2", timeout=HEAVY_TIMEOUT_MS)
    # what the server answered the page (the same upload again comes from the server's cache)
    answer = page.request.post(
        server.url + f"api/review?name={JADE.name}", data=JADE.read_bytes(), timeout=HEAVY_TIMEOUT_MS
    )
    expected = answer.json()["decisions"]
    assert _label(page) == (1, len(expected))
    # the summary: every player's agreement, and all decisions counted
    total = page.inner_text("#review-summary tr[data-seat='all'] td:last-child")
    agree = sum(d["agree"] for d in expected)
    assert f"({agree}/{len(expected)})" in total
    # step with the keyboard: each decision shows the player's action and the bot's, as the server reviewed it
    for n in range(3):
        d = expected[n]
        assert _label(page)[0] == n + 1
        played = page.get_attribute("#decision .played .review-action", "data-action")
        bot = page.get_attribute("#decision .bot .review-action", "data-action")
        key = lambda a: f"{a['type']}:{a.get('pai', '')}:{','.join(a.get('consumed', []))}"  # noqa: E731
        assert (played, bot) == (key(d["actual"]), key(d["bot"]))
        assert page.get_attribute("#decision .verdict", "data-agree") == json.dumps(d["agree"])
        hand = page.locator(f"#decision .review-hand[data-seat='{d['actor']}'] img")
        assert hand.count() == len(d["board"]["hand"]) + (d["board"]["drawn"] is not None)
        if d["decision"] == "discard":
            assert page.locator("#decision .review-hand img.pick-actual").count() == 1
            assert page.locator("#decision .review-hand img.pick-bot").count() == 1
        assert page.locator("#review-board .review-seat").count() == 4
        assert page.locator("#review-board .review-seat.acting").get_attribute("data-seat") == str(d["actor"])
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert _label(page)[0] == 3
    # jump to the next difference (arrow down): the bot chose otherwise there, both marked in the hand
    page.keyboard.press("ArrowDown")
    n = _label(page)[0]
    first_diff = next(i for i, d in enumerate(expected) if i >= 3 and not d["agree"])
    assert n == first_diff + 1
    assert page.get_attribute("#decision .verdict", "data-agree") == "false"
    assert not _overflowing(page)
    # one player, differences only
    page.select_option("#player-filter", "1")
    page.check("#only-differences")
    wanted = [d for d in expected if d["actor"] == 1 and not d["agree"]]
    assert _label(page)[1] == len(wanted)
    page.keyboard.press("ArrowRight")  # the arrows work with the checkbox focused too
    page.click("#next-decision")
    assert _label(page)[0] == 3
    assert page.get_attribute("#decision-label", "data-index") == str(expected.index(wanted[2]))
    assert page.get_attribute("#decision .verdict", "data-agree") == "false"
    assert page.get_attribute("#review-board .review-seat.acting", "data-seat") == "1"
    assert not _overflowing(page)
    # the page in Chinese
    page.select_option("#lang", "zh")
    assert page.inner_text("#decision .verdict") == "选择不同"
    assert not _overflowing(page)


def test_a_stored_game_from_the_games_list(page, server):
    body = {"rules": "mleague", "seats": ["efficiency"] * 4}
    made = page.request.post(server.url + "api/tables", data=body, timeout=HEAVY_TIMEOUT_MS)
    gid = made.json()["id"]
    page.goto(server.url + "games")
    page.click(f"a.review-link[href='/review?game={gid}']")
    page.wait_for_selector("#decision h2", timeout=HEAVY_TIMEOUT_MS)
    assert page.url.endswith(f"/review?game={gid}")
    assert page.input_value("#stored-choice") == gid
    assert _label(page)[0] == 1 and _label(page)[1] > 100
    page.select_option("#bot-choice", "efficiency")
    page.locator("#review-summary h2", has_text="Efficiency").wait_for()
    # the efficiency bot reviewing its own game (same seeds) agrees with itself everywhere
    assert page.locator("#review-summary tr[data-seat='all'] td:last-child").inner_text().startswith("100%")
