"""Playing in a real browser: a table started from the lobby under two presets and a whole hand played by
clicking until the result panel shows what the engine decided; a reload mid-hand; two people sharing a table
by link, neither seeing the other's tiles; the final table of a finished game."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlparse

import pytest

from .driver import play_turn, play_until_result, wait_ready


def _table_of(page, server):
    query = parse_qs(urlparse(page.url).query)
    table = server.app.state.manager.get(query["table"][0])
    return table, query["token"][0]


def _hand_on_page(page) -> list[str]:
    return page.eval_on_selector_all("#hand > img.tile", "imgs => imgs.map(i => i.dataset.tile)")


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _start_from_lobby(page, server, rules: str, seats: list[str]) -> None:
    page.goto(server.url)
    page.select_option("#rules", rules)
    for s, kind in enumerate(seats):
        page.select_option(f"#kind{s}", kind)
    page.click("#new-table button[type=submit]")


def _check_result_panel(page, result: dict) -> None:
    """The open result panel shows the engine's result: who won or the draw, each yaku with its value, the
    points and every player's payment and new score."""
    dialog = page.locator("#result-dialog")
    assert dialog.evaluate("d => d.open")
    panel = dialog.locator(".result")
    assert panel.get_attribute("data-kind") == result["kind"]
    for w in result["wins"]:
        section = panel.locator(f"section.win[data-seat='{w['seat']}']")
        rows = section.locator("tr[data-yaku]")
        assert [rows.nth(i).get_attribute("data-yaku") for i in range(rows.count())] == [y["name"] for y in w["yaku"]]
        for i, y in enumerate(w["yaku"]):
            value = rows.nth(i).locator("td.num").inner_text()
            assert (f"{y['value']} han" if y["unit"] == "han" else "yakuman") in value
        assert section.locator(".win-points").inner_text() == f"{w['points']} points"
        if w["fu"] is not None:
            assert f"{w['han']} han {w['fu']} fu" in section.locator(".win-total").inner_text()
        shown = section.locator(".win-hand > img.tile").evaluate_all("imgs => imgs.map(i => i.alt)")
        assert shown == [*w["hand"], *([w["win_tile"]] if w["win_tile"] else [])]
    if not result["wins"]:
        assert panel.locator("h3.draw").count() == 1
    for s in range(4):
        row = panel.locator(f"table.payments tr[data-seat='{s}'] td")
        assert row.nth(1).inner_text() == _signed(result["deltas"][s])
        assert row.nth(2).inner_text() == str(result["scores"][s])


@pytest.mark.parametrize("rules", ["tenhou", "mleague"])
def test_a_whole_hand_played_by_clicking(page, server, rules):
    _start_from_lobby(page, server, rules, ["human", "efficiency", "efficiency", "efficiency"])
    page.wait_for_selector("#hand > img.tile")
    table, _ = _table_of(page, server)
    assert table.rules == rules
    wait_ready(page)
    view = table.view(0)
    assert _hand_on_page(page) == view["hand"] + ([view["drawn"]] if view["drawn"] else [])
    assert page.locator("#center").inner_text().count(rules) == 1
    # the waits on request
    page.click("#waits-button")
    assert page.locator("#waits").is_visible() and page.locator("#waits").inner_text().strip()
    decisions = play_until_result(page, prefer_wins=True)
    assert "dahai" in decisions
    assert len(table.hand_results) >= 1
    result = table.hand_results[0]
    wins = [(w["seat"], w["points"]) for w in result["wins"]]
    print(f"[e2e] {rules}: {len(decisions)} decisions, {result['kind']} {wins}")
    _check_result_panel(page, result)
    page.click("#result-dialog button")
    assert not page.locator("#result-dialog").evaluate("d => d.open")


def test_reload_keeps_the_game(page, server):
    _start_from_lobby(page, server, "standard", ["human", "random", "random", "random"])
    page.wait_for_selector("#hand > img.tile")
    table, _ = _table_of(page, server)
    for _ in range(3):
        wait_ready(page)
        play_turn(page, prefer_wins=False)
    wait_ready(page)
    before_hand, before_step = _hand_on_page(page), page.evaluate("document.body.dataset.step")
    rivers = page.locator(".river").all_inner_texts()
    page.reload()
    page.wait_for_function("(s) => document.body.dataset.step === s", arg=before_step)
    assert _hand_on_page(page) == before_hand
    assert page.locator(".river").all_inner_texts() == rivers
    assert int(before_step) == table.view(0)["step"]


def test_two_people_share_a_table_and_see_only_their_own_tiles(browser, server):
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    try:
        host = contexts[0].new_page()
        _start_from_lobby(host, server, "mu", ["human", "human", "efficiency", "efficiency"])
        own = host.locator("#link-list a.own-link")  # the creator's own seat: not an invitation
        own.wait_for()
        invitations = host.locator("#link-list a.seat-link")
        assert invitations.count() == 1
        urls = [own.get_attribute("href"), invitations.first.get_attribute("href")]
        assert "token=" in urls[0] and "invite=" in urls[1] and "token=" not in urls[1]
        pages = [host, contexts[1].new_page()]
        frames: list[list[dict]] = [[], []]
        for i, p in enumerate(pages):
            p.on("websocket", lambda ws, i=i: ws.on("framereceived", lambda f, i=i: frames[i].append(json.loads(f))))
            p.goto(urls[i])
        for p in pages:
            p.wait_for_selector("#hand > img.tile")
        assert "invite=" not in pages[1].url and "token=" in pages[1].url  # the invitation became the seat
        # a third browser with the same invitation is refused, and sees no hand
        late = browser.new_context().new_page()
        late.goto(urls[1])
        late.wait_for_selector("#status[data-claim='refused']")
        assert late.locator("#hand > img").count() == 0 and "already used" in late.locator("#status").inner_text()
        late.context.close()
        table, _ = _table_of(pages[0], server)
        moves = 0
        for _ in range(6):
            for i, p in enumerate(pages):
                view = table.view(i)
                p.wait_for_function("(s) => document.body.dataset.step === s", arg=str(view["step"]))
                assert _hand_on_page(p) == view["hand"] + ([view["drawn"]] if view["drawn"] else [])
                other = 1 - i
                # the other person's seat shows backs only
                backs = p.locator(f".player[data-rel='{(other - i) % 4}'] .concealed img")
                assert backs.count() == len(table.game.kyoku.seats[other].tiles)
                assert set(backs.evaluate_all("imgs => imgs.map(i => i.alt)")) == {"back"}
            mover = [i for i in range(2) if table.view(i)["actions"]]
            if not mover or table.hand_results:
                break
            play_turn(pages[mover[0]], prefer_wins=False)
            moves += 1
        assert moves >= 3, "the two people took too few turns"
        for i in range(2):
            views = [f["view"] for f in frames[i] if f.get("type") == "view"]
            assert views, "no view came over the websocket"
            for v in views:  # everything that reached this browser: own seat only, no other hand, no seed
                assert v["seat"] == i
                assert all("tiles" not in p and "hand" not in p for p in v["players"])
                assert table.seed not in json.dumps(v)
    finally:
        for c in contexts:
            c.close()


def test_the_final_table_shows_rank_points(page, server):
    manager = server.app.state.manager
    table = manager.create("tenhou", ["human", "random", "random", "random"])
    token = table.seats[0].token
    while not table.over:  # played out on the server: the browser opens the finished game
        view = table.view(0)
        manager.act(table.id, token, view["step"], len(view["actions"]) - 1)
    page.goto(f"{server.url}?table={table.id}&token={token}")
    final = page.locator("#result-dialog .final")
    final.wait_for()
    result = table.game.result
    rows = final.locator("tr[data-seat]")
    assert rows.count() == 4
    for i in range(4):
        seat = int(rows.nth(i).get_attribute("data-seat"))
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0] == str(result.ranks[seat]) and cells[2] == str(result.scores[seat])
        assert float(cells[3]) == pytest.approx(result.final[seat])
    assert final.locator(f"a[href='/replay?game={table.id}']").count() == 1
