"""The calculator, the games list and the replay viewer in a real browser: a known hand built by clicking tiles
scores right under two rule sets side by side; a stored game and uploaded real logs step forward and back with
every hand open; exports download; the interface switches to Chinese."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from jantaku.records.load import read_records
from jantaku.records.mjai import read_mjai
from jantaku.records.tenhou6 import read_tenhou6
from jantaku.scoring_requests import score_json

from .conftest import HEAVY_TIMEOUT_MS

RECORDS = Path(__file__).parents[1] / "data" / "records"
MJLOG = sorted(RECORDS.joinpath("tenhou-mjlog").rglob("*.mjlog"))[0]
TENHOU6 = sorted(RECORDS.joinpath("tenhou6").glob("*.json"))[0]

HONORS = {"E": "1z", "S": "2z", "W": "3z", "N": "4z", "P": "5z", "F": "6z", "C": "7z"}


def _tile(mjai: str) -> str:
    """mjai tile name -> the pictures' names (as the viewer shows them)."""
    if mjai in HONORS:
        return HONORS[mjai]
    return "0" + mjai[1] if mjai.endswith("r") else mjai


def _order(name: str) -> tuple[int, int, int]:
    return ("mpsz".index(name[1]), int(name[0]) or 5, name[0] == "0")


def _click_tiles(page, text: str) -> None:
    for digits, suit in re.findall(r"(\d+)([mpsz])", text):
        for d in digits:
            page.click(f"#palette img[data-tile='{d}{suit}']")


def test_calculator_scores_a_known_hand_built_by_clicking(page, server):
    page.goto(server.url + "score")
    page.wait_for_selector("#palette img[data-tile='9s']")
    _click_tiles(page, "234m567p456s7899s")
    page.check("input[name=target][value=win]")
    _click_tiles(page, "9s")
    page.check("input[name=target][value=dora]")
    _click_tiles(page, "3m")
    assert page.input_value("#hand") == "234m567p45678999s" and page.input_value("#win") == "9s"
    assert page.input_value("#dora") == "3m"
    page.check("#tsumo")
    page.check("#riichi")
    page.select_option("#seat_wind", "S")
    page.fill("#honba", "1")
    page.select_option("#rules", "mleague")
    page.select_option("#rules2", "tenhou")
    page.click("#calc")
    columns = page.locator("#score-result .score-column")
    columns.nth(1).wait_for()
    request = {
        "hand": "234m567p456s78999s",
        "win": "9s",
        "tsumo": True,
        "riichi": True,
        "dora": "3m",
        "seat_wind": "S",
        "winner": 1,
        "honba": 1,
    }
    for i, rules in enumerate(("mleague", "tenhou")):
        expected = score_json({**request, "rules": rules})
        col = columns.nth(i)
        assert col.get_attribute("data-rules") == rules
        assert col.locator(".score-points").inner_text() == f"{expected['points']} points"
        assert [r.get_attribute("data-yaku") for r in col.locator("tr[data-yaku]").all()] == [
            y for y, _ in expected["yaku"]
        ]
        payments = [int(c) for c in col.locator("table.payments td.num").all_inner_texts()]
        assert payments == expected["payments"]
    # the README's example: 5200 points, the winner +5500 with one honba
    assert columns.nth(0).locator(".score-points").inner_text() == "5200 points"
    assert columns.nth(0).locator("table.payments td.num").all_inner_texts() == ["-2700", "+5500", "-1400", "-1400"]
    # a hand that cannot win: a clear message, no score
    page.fill("#hand", "123m")
    page.fill("#win", "1m")
    page.click("#calc")
    page.wait_for_selector("#score-result .score-error")
    assert page.locator("#score-result .score-points").count() == 0


def _hands_on_page(page) -> list[list[str]]:
    return [
        page.locator(f".player[data-seat='{s}'] .shown-hand img").evaluate_all("imgs => imgs.map(i => i.alt)")
        for s in range(4)
    ]


def _position(page) -> int:
    return int(page.locator("#step-label").get_attribute("data-position"))


def _check_first_deal(page, events) -> None:
    deal = next(e for e in events if e["type"] == "start_kyoku")
    want = [sorted((_tile(t) for t in hand), key=_order) for hand in deal["tehais"]]
    assert _hands_on_page(page) == want
    assert _position(page) == events.index(deal) + 1


def _step_forward_and_back(page, events) -> None:
    start = _position(page)
    hands = _hands_on_page(page)
    first = events[start]
    page.click("#next")
    assert _position(page) == start + 1
    if first["type"] == "tsumo":  # the drawn tile shows apart in the drawer's open hand
        drawn = page.locator(f".player[data-seat='{first['actor']}'] .shown-hand img.drawn")
        assert drawn.get_attribute("alt") == _tile(first["pai"])
    page.click("#next")
    second = events[start + 1]
    if second["type"] == "dahai":
        river = page.locator(f".river[data-seat='{second['actor']}'] img")
        assert river.last.get_attribute("alt") == _tile(second["pai"])
    page.click("#prev")
    page.click("#prev")
    assert _position(page) == start and _hands_on_page(page) == hands
    assert page.locator(".river img").count() == 0


def _check_first_hand_result(page, events) -> None:
    """Forward to the end of the first hand: the result shown is the record's."""
    starts = [i for i, e in enumerate(events) if e["type"] == "start_kyoku"]
    end = starts[1] if len(starts) > 1 else len(events)
    page.click("#next-hand")
    if len(starts) > 1:  # on the next deal: one step back is the end of the first hand
        assert _position(page) == end + 1
        page.click("#prev")
    assert _position(page) == end
    results = [e for e in events[starts[0] : end] if e["type"] in ("hora", "ryukyoku")]
    shown = page.locator("#replay-result .result:not(.final)")
    assert shown.count() == len(results)
    for i, r in enumerate(results):
        box = shown.nth(i)
        if r["type"] == "hora":
            assert box.locator(".win-points").inner_text() == f"{r['points']} points"
            assert [row.get_attribute("data-yaku") for row in box.locator("tr[data-yaku]").all()] == [
                y for y, _ in r["yaku"]
            ]
        if r.get("deltas"):
            deltas = [int(x) for x in box.locator("table.payments td.delta").all_inner_texts()]
            assert deltas == r["deltas"]


def test_replay_of_a_stored_game_from_the_games_page(page, server):
    body = {"rules": "tenhou", "seats": ["efficiency"] * 4}
    created = page.request.post(server.url + "api/tables", data=body, timeout=HEAVY_TIMEOUT_MS)
    assert created.status == 201 and created.json()["over"]
    gid = created.json()["id"]
    events = server.app.state.store.get_game(gid).events
    page.goto(server.url + "games")
    link = page.locator(f"a.replay-link[href='/replay?game={gid}']")
    link.click()
    page.wait_for_selector("#viewer:not([hidden])")
    _check_first_deal(page, events)
    _step_forward_and_back(page, events)
    _check_first_hand_result(page, events)
    page.click("#last")
    assert _position(page) == len(events)
    final = page.locator("#replay-result .final td.num").all_inner_texts()
    assert [int(x) for x in final[0::2]] == events[-1]["scores"]
    page.click("#first")
    assert _position(page) == 0
    # the exports download and read back as the same game
    t6 = page.request.get(server.url + page.locator("#export-tenhou6").get_attribute("href").lstrip("/"))
    assert t6.status == 200 and len(read_tenhou6(t6.json())[0].hands()) == events.count({"type": "end_kyoku"})
    mj = page.request.get(server.url + page.locator("#export-mjai").get_attribute("href").lstrip("/"))
    assert mj.status == 200 and len(read_mjai(mj.text()).events) == len(events)


@pytest.mark.parametrize("path", [MJLOG, TENHOU6], ids=["mjlog", "tenhou6"])
def test_replay_of_an_uploaded_real_log(page, server, path):
    events = read_records(path)[0].events
    page.goto(server.url + "replay")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#upload", str(path))
    page.wait_for_selector("#viewer:not([hidden])", timeout=HEAVY_TIMEOUT_MS)  # read in the server's worker
    assert path.name in page.locator("#source").inner_text()
    names = next(e for e in events if e["type"] == "start_game")["names"]
    headers = " ".join(page.locator(".player h3").all_inner_texts())
    assert all(name in headers for name in names)
    _check_first_deal(page, events)
    _step_forward_and_back(page, events)
    _check_first_hand_result(page, events)


def test_a_malformed_upload_is_refused_with_a_message(page, server, tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text(json.dumps({"log": [[1, 2]]}))
    page.goto(server.url + "replay")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#upload", str(bad))
    error = page.locator("#error")
    error.wait_for(timeout=HEAVY_TIMEOUT_MS)
    assert "broken.json" in error.inner_text() and page.locator("#viewer").is_hidden()


def test_the_interface_speaks_chinese(page, server):
    page.goto(server.url)
    page.select_option("#lang", "zh")
    assert page.locator("header nav a").first.inner_text() == "对局"
    assert page.locator("#new-table button[type=submit]").inner_text() == "创建牌桌"
    page.goto(server.url + "score")  # the choice is remembered
    assert page.locator("h1").inner_text() == "点数计算"


def _wall_after(events, position: int) -> int:
    """The tiles left to draw after ``position`` events: 70 after a deal less every draw since (replacements
    included), as the table engine counts them (tests/test_web_replay_export.py checks that against it)."""
    deal = max(i for i in range(position) if events[i]["type"] == "start_kyoku")
    return 70 - sum(e["type"] == "tsumo" for e in events[deal:position])


def test_an_uploaded_log_shows_the_wall_and_exports_in_both_formats(page, server):
    events = read_records(MJLOG)[0].events
    page.goto(server.url + "replay")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#upload", str(MJLOG))
    page.wait_for_selector("#viewer:not([hidden])", timeout=HEAVY_TIMEOUT_MS)
    wall = page.locator("#center .wall-count")
    assert wall.get_attribute("data-wall") == "70"  # after the deal
    page.click("#next")
    assert wall.get_attribute("data-wall") == "69"  # the dealer's first draw
    # past a closed kan and its replacement draw (the fourth hand)
    kan = next(i for i, e in enumerate(events) if e["type"] == "ankan")
    for _ in range(sum(e["type"] == "start_kyoku" for e in events[:kan]) - 1):
        page.click("#next-hand")
    while _position(page) < kan + 3:
        page.keyboard.press("ArrowRight")
    assert events[kan + 2]["type"] == "tsumo"  # the replacement tile
    assert int(wall.inner_text().split()[-1]) == int(wall.get_attribute("data-wall")) == _wall_after(events, kan + 3)
    # both exports download and read back as the game uploaded
    with page.expect_download() as info:
        page.click("#export-tenhou6")
    download = info.value
    assert download.suggested_filename == MJLOG.stem.replace("=", "") + ".json"
    back = read_tenhou6(json.loads(Path(download.path()).read_text(encoding="utf-8")))[0]
    assert [(e["type"], e.get("actor"), e.get("pai")) for e in back.events] == [
        (e["type"], e.get("actor"), e.get("pai")) for e in events
    ]
    with page.expect_download() as info:
        page.click("#export-mjai")
    download = info.value
    assert download.suggested_filename.endswith(".mjson")
    back = read_mjai(Path(download.path()).read_text(encoding="utf-8"))
    assert [{k: v for k, v in e.items() if k != "final"} for e in back.events] == events
    assert back.final == read_records(MJLOG)[0].final
