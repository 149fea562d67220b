"""The pages on a phone (390x844) and a laptop (1366x768), issue 13: deep into a hand (long rivers, open melds,
a call offered) the play page, the 洁律 play page, the result panel with the final table, the replay viewer and
the score page never make the document wider than the screen, every seat box is on the screen with nothing in
it cut off, and every offered action button is on the screen and not covered."""

from __future__ import annotations

import os
from pathlib import Path

from .conftest import HEAVY_TIMEOUT_MS
from .scenes import deep_jielu, deep_riichi, deep_table

LAYOUT = """(vertical) => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const problems = [];
  const rect = (e) => e.getBoundingClientRect();
  const name = (e) => e.id || e.dataset.action || e.className;
  const wide = document.documentElement.scrollWidth;
  if (wide > vw) problems.push(`document ${wide} px wide`);
  for (const box of document.querySelectorAll('.player')) {
    const r = rect(box);
    if (r.left < -0.5 || r.right > vw + 0.5) problems.push(`seat ${name(box)} at x ${r.left}-${r.right}`);
    if (vertical && (r.top < -0.5 || r.bottom > vh + 0.5)) problems.push(`seat ${name(box)} at y ${r.top}-${r.bottom}`);
    if (box.scrollWidth > box.clientWidth + 1) problems.push(`seat ${name(box)} cut off (${box.scrollWidth} px)`);
    for (const img of box.querySelectorAll('img')) {
      const i = rect(img);
      if (!i.width && !i.height) continue;  // not drawn (a called tile leaves its river)
      if (i.right > r.right + 0.5 || i.left < r.left - 0.5) problems.push(`a tile of seat ${name(box)} sticks out`);
    }
  }
  for (const b of document.querySelectorAll('#actions button')) {
    const r = rect(b);
    if (r.left < -0.5 || r.right > vw + 0.5 || r.top < -0.5 || r.bottom > vh + 0.5) {
      problems.push(`button ${name(b)} at ${r.left},${r.top}-${r.right},${r.bottom}`);
      continue;
    }
    if (document.querySelector('dialog[open]')) continue;  // behind a modal panel, which the person closes first
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (!b.contains(hit)) problems.push(`button ${name(b)} covered by ${hit && name(hit)}`);
  }
  return {problems, seats: document.querySelectorAll('.player').length,
    buttons: document.querySelectorAll('#actions button').length, width: document.documentElement.scrollWidth};
}"""

BANDS = """() => {
  const edges = [0, window.innerHeight];
  const parts = document.querySelectorAll('header, #status, #table, #hand, #actions, #auto-options, #board-side');
  const boxes = [...parts].map((e) => e.getBoundingClientRect()).filter((r) => r.height > 0);
  const spans = boxes.map((r) => [r.top, r.bottom]).sort((a, b) => a[0] - b[0]);
  let widest = 0, reached = 0;
  for (const [top, bottom] of spans) { widest = Math.max(widest, top - reached); reached = Math.max(reached, bottom); }
  return Math.max(widest, edges[1] - reached);
}"""
"""The tallest stretch of the screen's height that no part of the play page covers (between two parts, or under
the last one): a phone's spare height left as one empty band shows here."""

SHOTS = os.environ.get("JANTAKU_LAYOUT_SHOTS")
"""A folder to save each checked page in (for a person to look at); unset: none saved."""


def _images_loaded(page) -> None:
    page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")


def _check(page, what: str, vertical: bool = True, seats: int = 4) -> dict:
    _images_loaded(page)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{what}-{page.size_id}.png"), full_page=True)
    out = page.evaluate(LAYOUT, vertical)
    assert not out["problems"], f"{what} at {page.size_id}: {out['problems']}"
    assert out["seats"] == seats
    return out


def _open_seat(page, server, table) -> None:
    page.goto(f"{server.url}?table={table.id}&token={table.seats[0].token}")
    page.wait_for_function("(s) => document.body.dataset.step === s", arg=str(table.view(0)["step"]))


def test_the_play_page_deep_into_a_hand(sized, server):
    table = deep_table(server.app.state.manager, "mleague", [f"layout-{n}" for n in range(40)], deep_riichi)
    view = table.view(0)
    _open_seat(sized, server, table)
    rivers = sized.locator(".river").evaluate_all("rs => rs.map(r => r.children.length)")
    assert min(rivers) >= 10 and max(rivers) >= 12
    assert sized.locator(".player.self .melds .meld").count() == len(view["players"][0]["melds"]) >= 1
    out = _check(sized, "play")
    offered = [a for a in view["actions"] if a["type"] != "dahai"]
    assert out["buttons"] == len(offered) + 1  # and the waits button
    # rivers wrap at 6 tiles a row, the third row running on (as Tenhou draws them); a called tile leaves the river
    for p in view["players"]:
        shown = [r for r in p["river"] if r["called_by"] is None]
        tops = sized.locator(f".river[data-seat='{p['seat']}'] img:not(.called)").evaluate_all(
            "imgs => imgs.map(i => Math.round(i.getBoundingClientRect().top))"
        )
        lefts = sized.locator(f".river[data-seat='{p['seat']}'] img:not(.called)").evaluate_all(
            "imgs => imgs.map(i => Math.round(i.getBoundingClientRect().left))"
        )
        assert len(tops) == len(shown)
        if p["seat"] == view["seat"]:  # the own river, drawn facing this person: rows go down
            assert len(set(tops)) == min(3, -(-len(shown) // 6))
            assert all(tops[i] == tops[0] for i in range(min(6, len(tops))))
        else:  # the others' rivers are turned to face their seats: their rows run along another axis
            assert len(set(tops)) > 1 or len(set(lefts)) > 1
        called = sized.locator(f".river[data-seat='{p['seat']}'] img.called")
        assert called.count() == len(p["river"]) - len(shown)
        assert all(not c.is_visible() for c in called.all())
    # the whole square table on the screen; at 1366x768 the page fits without scrolling, hand and buttons included
    box = sized.locator("#table").bounding_box()
    assert abs(box["width"] - box["height"]) < 1
    assert box["y"] >= 0 and box["y"] + box["height"] <= sized.viewport_size["height"]
    if sized.viewport_size["width"] >= 1000:
        assert sized.evaluate("() => document.scrollingElement.scrollHeight") <= sized.viewport_size["height"]
    else:  # a phone: the screen's spare height is not left as one empty band, and the hand's tiles use the width
        assert sized.evaluate(BANDS) <= 90, "an empty band on the phone's play page"
        tile = sized.locator("#hand > .tile").first.bounding_box()
        slots = 14 - 3 * len(view["players"][0]["melds"])
        assert tile["width"] * slots >= 0.85 * sized.viewport_size["width"]
    sized.click("#waits-button")  # the waits panel open: the buttons stay on screen
    _check(sized, "play-waits")


def test_the_jielu_play_page_with_a_winner_open(sized, server):
    table = deep_table(server.app.state.manager, "jielu", [f"layout-j{n}" for n in range(40)], deep_jielu)
    _open_seat(sized, server, table)
    assert sized.locator(".player.won .won-hand img").count() >= 13
    _check(sized, "jielu-play")


def test_the_result_panel_and_final_table(sized, server):
    manager = server.app.state.manager
    table = manager.create("tenhou", ["human", "random", "random", "random"], seed="layout-final")
    token = table.seats[0].token
    while not table.over:
        view = table.view(0)
        manager.act(table.id, token, view["step"], len(view["actions"]) - 1)
    sized.goto(f"{server.url}?table={table.id}&token={token}")
    sized.locator("#result-dialog .final").wait_for()
    _check(sized, "final")
    box = sized.locator("#result-dialog").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= sized.viewport_size["width"]
    assert sized.evaluate("() => document.getElementById('result-dialog').scrollWidth") <= box["width"] + 1


def test_the_replay_viewer_deep_into_a_hand(sized, server):
    body = {"rules": "mleague", "seats": ["efficiency"] * 4}
    created = sized.request.post(server.url + "api/tables", data=body, timeout=HEAVY_TIMEOUT_MS)
    gid = created.json()["id"]
    events = server.app.state.store.get_game(gid).events
    sized.goto(f"{server.url}replay?game={gid}")
    sized.wait_for_selector("#viewer:not([hidden])")
    # the last discard of the first hand: long rivers, every hand open
    end = next(i for i, e in enumerate(events) if e["type"] in ("hora", "ryukyoku"))
    last_discard = max(i for i in range(end) if events[i]["type"] == "dahai")
    while int(sized.locator("#step-label").get_attribute("data-position")) < last_discard + 1:
        sized.keyboard.press("ArrowRight")
    assert sized.locator(".river img").count() >= 24
    _check(sized, "replay")
    sized.click("#next-hand")
    sized.click("#prev")  # the hand's end: its result under the board
    _check(sized, "replay-result")


def test_the_score_page(sized, server):
    sized.goto(server.url + "score")
    sized.fill("#hand", "234m567p456s78999s")
    sized.fill("#win", "9s")
    sized.check("#riichi")
    sized.select_option("#rules", "mleague")
    sized.select_option("#rules2", "tenhou")
    sized.click("#calc")
    sized.locator("#score-result .score-column").nth(1).wait_for()
    _check(sized, "score", seats=0)
    for col in sized.locator("#score-result .score-column, #palette").all():
        box = col.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= sized.viewport_size["width"] + 0.5


def test_a_touched_tile_does_not_stay_raised_on_a_phone(browser, server):
    """On a touch screen a tile is never raised by "hover" (a tap that is not a discard leaves it where it was);
    with a mouse the tile under the pointer rises."""
    table = server.app.state.manager.create("tenhou", ["human", "random", "random", "random"], seed="layout-touch")
    raised = "(t) => getComputedStyle(document.querySelector(`#hand > img.tile.playable[data-tile='${t}']`)).transform"
    for touch in (True, False):
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=touch, is_mobile=touch)
        try:
            page = ctx.new_page()
            page.goto(f"{server.url}?table={table.id}&token={table.seats[0].token}")
            tile = page.locator("#hand > img.tile.playable").first
            tile.wait_for()
            name = tile.get_attribute("data-tile")
            tile.hover()
            page.wait_for_timeout(150)  # the rise is a 0.08 s transition
            assert (page.evaluate(raised, name) == "none") is touch
        finally:
            ctx.close()
