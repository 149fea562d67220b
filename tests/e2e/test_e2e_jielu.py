"""洁律 (``jielu``) in a real browser: a points-mode game started from the lobby with bots and played by clicking
until the hand's result panel shows each winner's fans, S, wildcards and payment and the non-winners'
completions; seats that won are marked while the others play on; the finished game offers mjai only (no
tenhou.net/6) and its replay shows the fans and S; the calculator shows a 洁律 column beside a riichi preset."""

from __future__ import annotations

import re

from jantaku.jielu.jsonio import score_request
from jantaku.scoring_requests import score_json

from .driver import play_turn, wait_ready
from .test_e2e_play import _signed, _start_from_lobby, _table_of


def _won_on_page(page) -> set[int]:
    return {int(x) for x in page.eval_on_selector_all(".badge.won", "bs => bs.map(b => b.dataset.won)")}


def _check_jielu_panel(page, result: dict) -> None:
    panel = page.locator("#result-dialog .result")
    assert panel.get_attribute("data-family") == "jielu" and panel.get_attribute("data-kind") == result["kind"]
    assert page.locator("#result-dialog .jielu-mode").inner_text().startswith("points mode")
    for w in result["wins"]:
        section = panel.locator(f"section.win[data-seat='{w['seat']}']")
        rows = section.locator("tr[data-yaku]")
        assert [r.get_attribute("data-yaku") for r in rows.all()] == [f["name"] for f in w["yaku"]]
        for row, fan in zip(rows.all(), w["yaku"], strict=True):
            cells = row.locator("td").all_inner_texts()
            unit = "point" if fan["value"] == 1 else "points"
            assert cells[1] == " ".join(fan["melds"]) and cells[2] == f"{fan['value']} {unit}"
            assert fan["english"] in cells[0]
        assert section.locator(".win-points").inner_text() == f"S = {w['score']}"
        assert f"value {w['value']}" in section.locator(".win-total").inner_text()
        gain = section.locator(".win-gain")
        assert gain.inner_text() == f"×{w['multiplier']} = {_signed(w['payments'][w['seat']])}"
        shown = section.locator(".wildcard").evaluate_all("ws => ws.map(w => w.dataset.wildcard)")
        assert shown == [f"{x['tile'] or 'extra'}→{x['stands_for']}" for x in w["wildcards"]]
        tiles = section.locator(".win-hand > img.tile").evaluate_all("imgs => imgs.map(i => i.alt)")
        assert tiles == [*w["hand"], w["win_tile"]]
    for s, c in result["completions"].items():
        box = panel.locator(f".completions section[data-seat='{s}']")
        assert box.locator(".completion-score").inner_text() == f"S = {c['score']}"
        tiles = box.locator(".win-hand > img.tile").evaluate_all("imgs => imgs.map(i => i.alt)")
        assert tiles == c["hand"]
    for s in range(4):
        row = panel.locator(f"table.payments tr[data-seat='{s}'] td")
        assert row.nth(1).inner_text() == _signed(result["deltas"][s])
        assert row.nth(2).inner_text() == str(result["scores"][s])


def test_a_jielu_hand_played_by_clicking_shows_fans_and_s(page, server):
    _start_from_lobby(page, server, "jielu", ["human", "efficiency", "efficiency", "efficiency"])
    page.wait_for_selector("#hand > img.tile")
    table, _ = _table_of(page, server)
    assert table.rules == "jielu"
    wait_ready(page)
    center = page.locator("#center").inner_text()
    assert "jielu" in center and "points mode" in center and page.locator("#dora").is_hidden()  # 洁律 has no dora
    page.click("#waits-button")
    assert "Regular-form shanten" in page.locator("#waits").inner_text()
    decisions, marked = [], 0
    while not page.evaluate("() => document.getElementById('result-dialog').open"):
        # the seats that won and left the hand are marked, as the engine has them; the person lets wins go
        # until a bot has won, so that the others are seen playing on
        won = {s for s in range(4) if table.game.kyoku.won[s]}
        assert _won_on_page(page) == won
        marked += len(won)
        decisions.append(play_turn(page, prefer_wins=True, take_wins=bool(won)))
        assert len(decisions) < 300
        wait_ready(page)
    result = table.hand_results[0]
    print(
        f"[e2e] jielu: {len(decisions)} decisions, {result['reason']}, marked winners {marked}, "
        f"wins {[(w['seat'], w['score'], w['payments'][w['seat']]) for w in result['wins']]}"
    )
    assert result["wins"] and marked, "a winner was never seen marked while the others played on"
    _check_jielu_panel(page, result)
    page.click("#result-dialog button")


def test_a_finished_jielu_game_offers_mjai_only_and_replays_with_fans(page, server):
    manager = server.app.state.manager
    table = manager.create("jielu", ["human", "efficiency", "efficiency", "efficiency"])
    token = table.seats[0].token
    while not table.over:  # played out on the server: the browser opens the finished game
        view = table.view(0)
        kinds = [a["type"] for a in view["actions"]]
        manager.act(table.id, token, view["step"], kinds.index("ron") if "ron" in kinds else len(kinds) - 1)
    page.goto(f"{server.url}?table={table.id}&token={token}")
    final = page.locator("#result-dialog .final")
    final.wait_for()
    scores = table.game.result.scores
    for row in final.locator("tr[data-seat]").all():
        cells = row.locator("td").all_inner_texts()
        assert cells[2] == cells[3].lstrip("+") == str(scores[int(row.get_attribute("data-seat"))])
    assert final.locator("a[href*='format=tenhou6']").count() == 0
    assert final.locator("a[href*='format=mjai']").count() == 1
    page.goto(f"{server.url}games")
    row = page.locator(f"tr:has(a[href='/replay?game={table.id}'])")
    row.wait_for()
    assert row.locator("a[data-format=tenhou6]").count() == 0 and row.locator("a[data-format=mjai]").count() == 1
    page.goto(f"{server.url}replay?game={table.id}")
    page.wait_for_selector("#viewer:not([hidden])")
    assert page.locator("#export-tenhou6").count() == 0 and page.locator("#export-mjai").count() == 1
    hora = next(e for e in table.game.events if e["type"] == "hora")
    page.click("#next-hand")  # to the second hand's deal, then back to the end of the first
    page.click("#prev")
    section = page.locator(f"#replay-result section.win[data-seat='{hora['actor']}']").first
    assert section.locator(".win-points").inner_text() == f"S = {hora['score']}"
    fans = [r.get_attribute("data-yaku") for r in section.locator("tr[data-yaku]").all()]
    assert fans == [f[0] for f in hora["fans"]]
    end = next(e for e in table.game.events if e["type"] == "ryukyoku")
    assert page.locator(f"#replay-result section.draw[data-reason='{end['reason']}']").count() == 1
    center = page.locator("#center").inner_text()
    assert "Dora" not in center and "null" not in center and "Wall" in center


def _click_tiles(page, text: str) -> None:
    for digits, suit in re.findall(r"(\d+)([mpsz])", text):
        for d in digits:
            page.click(f"#palette img[data-tile='{d}{suit}']")


def test_the_calculator_shows_jielu_beside_a_riichi_preset(page, server):
    page.goto(server.url + "score")
    page.wait_for_selector("#palette img[data-tile='9m']")
    _click_tiles(page, "123m456m789m123p1z")
    page.check("input[name=target][value=win]")
    _click_tiles(page, "1z")
    page.check("#tsumo")
    page.select_option("#rules", "jielu")
    page.select_option("#rules2", "mleague")
    page.click("#calc")
    columns = page.locator("#score-result .score-column")
    columns.nth(1).wait_for()
    hand = {"hand": "123m456m789m123p11z", "win": "1z", "tsumo": True}
    jielu = score_request({**hand, "rules": "jielu"})
    col = columns.nth(0)
    assert col.get_attribute("data-family") == "jielu"
    assert col.locator(".score-points").inner_text() == f"S = {jielu['score']}"
    assert [r.get_attribute("data-yaku") for r in col.locator("tr[data-yaku]").all()] == [f[0] for f in jielu["fans"]]
    assert col.locator(".wildcards.none").count() == 1
    riichi = score_json({**hand, "rules": "mleague"})
    assert columns.nth(1).locator(".score-points").inner_text() == f"{riichi['points']} points"
    # a hand that needs a wildcard: 洁律 scores it (halved), riichi says it is not complete
    page.fill("#hand", "123m456p789s11z344z")
    page.fill("#win", "4z")
    page.uncheck("#tsumo")
    page.click("#calc")
    page.wait_for_function("() => document.querySelector('#score-result .wildcard') !== null")
    col = columns.nth(0)
    assert col.locator(".score-points").inner_text() == "S = 5"
    assert col.locator(".wildcard").get_attribute("data-wildcard") == "3z→1z"
    assert "Mixed shifted chows" in col.locator("tr[data-yaku='三步顺']").inner_text()
    assert columns.nth(1).locator(".score-error").inner_text()
