"""The organiser's page at a phone's size (390x844, league data in SQLite): importing an online record with
its players mapped, a double ron whose second winner's yakuman has a liable player (pao), and the all-last
dealer's stop (``yame``) where the rule set (tenhou, 002 1.2) asks for it - through the form."""

from __future__ import annotations

from pathlib import Path

import pytest

from jantaku.web.app import create_app
from jantaku.web.background import BackgroundServer
from jantaku.web.storage import SqliteStore

from .conftest import HEAVY_TIMEOUT_MS, TIMEOUT_MS
from .test_e2e_league import _create_event, _message

RECORD = Path(__file__).parent.parent / "data/records/tenhou-mjlog/mjx-houou/2010081709gm-00a9-0000-fe3371ad.mjlog"
MAPPING = {"反陽子さん": "Ann", "ASAPIN": "Bo", "でこじ": "Cy", "デジタル仙人": "Di"}
PW = {"X-League-Password": "s3cret-pw", "Content-Type": "application/json"}


@pytest.fixture
def phone(tmp_path, browser):
    store = SqliteStore(tmp_path / "games.sqlite3")
    with BackgroundServer(create_app(store, league_db=str(tmp_path / "league.sqlite3"))) as srv:
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", is_mobile=True)
        ctx.set_default_timeout(TIMEOUT_MS)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        yield page, srv.url
        ctx.close()
        assert not errors, f"JavaScript errors on the page: {errors}"
    store.close()


def _wait_message(page, text: str) -> None:
    page.wait_for_function(f"() => document.querySelector('#message').textContent.includes({text!r})")


def _open_game(page, url: str, entries: list[dict]) -> int:
    """A new game (Ann, Bo, Cy, Di; Ann the first dealer) with ``entries`` entered, opened in the form."""
    api = url + "league/api/"
    r = page.request.post(api + "events/T/games", data={"players": ["Ann", "Bo", "Cy", "Di"]}, headers=PW)
    gid = r.json()["game"]
    for e in entries:
        assert page.request.post(api + f"games/{gid}/entries", data={"entry": e}, headers=PW).status == 201
    page.evaluate(f"() => openGame({gid})")
    page.wait_for_function(f"() => document.querySelector('#game-title').textContent === 'Game {gid}'")
    return gid


def test_import_pao_and_yame_on_a_phone(phone):
    page, url = phone
    _create_event(page, url, "T", "tenhou")
    # an online record: its names are read, each mapped to a player, then the game imported
    page.set_input_files("#import-file", str(RECORD))
    page.click("#import-read")
    page.wait_for_selector("#import-map select.import-player >> nth=3", timeout=HEAVY_TIMEOUT_MS)
    for name, player in MAPPING.items():
        page.select_option(f"select.import-player[data-name='{name}']", player)
    page.click("#import-go")
    _wait_message(page, "Imported game")
    games = page.request.get(url + "league/api/events/T").json()["games"]
    assert [(g["source"], g["players"]) for g in games] == [("import", ["Ann", "Bo", "Cy", "Di"])]
    # the same record again (issue 34): the page says it is there already and asks; no keeps it out
    page.click("#import-read")
    page.wait_for_selector("#import-map select.import-player >> nth=3", timeout=HEAVY_TIMEOUT_MS)
    for name, player in MAPPING.items():
        page.select_option(f"select.import-player[data-name='{name}']", player)
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#import-go")
    _wait_message(page, "already in the event")
    assert asked and f"as game {games[0]['id']}" in asked[0]
    assert len(page.request.get(url + "league/api/events/T").json()["games"]) == 1
    # a file that is no record is refused with the reason
    page.set_input_files("#import-file", {"name": "x.json", "mimeType": "application/json", "buffer": b"[1, 2]"})
    page.click("#import-read")
    _wait_message(page, "x.json")
    assert _message(page) == "x.json: not a game record jantaku knows (mjlog, tenhou.net/6, mjx, mjai)"

    # a double ron: Bo 2 han 30 fu, Cy a yakuman Di is liable for (half and half with the discarder)
    _open_game(page, url, [])
    page.select_option("#kind", "win")
    page.select_option("#winner", "1")
    page.select_option("#from", "0")
    page.fill("#han", "2")
    page.select_option("#fu", "30")
    page.check("#second")
    page.select_option("#winner2", "2")
    page.fill("#yakuman2", "1")
    page.select_option("#pao2", "3")
    page.click("#submit-entry")
    page.wait_for_function("() => document.querySelectorAll('#entries li').length === 1")
    assert [int(x.inner_text()) for x in page.query_selector_all("#game-seats .score")] == [7000, 27000, 57000, 9000]
    assert "(pao Di)" in page.inner_text("#entries li")

    # South 4, the dealer Di tenpai at a draw and first: the form offers the stop and the dealer stops
    to_s4 = [{"kind": "win", "wins": [{"winner": 3, "from": 0, "han": 5, "fu": 30}]}]
    to_s4 += [{"kind": "draw"}] * 6 + [{"kind": "draw", "tenpai": [3]}]
    _open_game(page, url, to_s4)
    assert "Di (the all-last dealer) may stop the game now" in page.inner_text("#yame-note")
    assert page.input_value("#kind") == "yame" and page.is_visible("#yame-choice")
    page.select_option("#yame-choice", "stop")
    page.click("#submit-entry")
    page.wait_for_function("() => document.querySelector('#game-hand').textContent === 'Game over'")
    assert "the dealer stops" in page.inner_text("#entries li:last-child")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def test_rename_and_delete_on_a_phone(phone):
    """Issue 32: the organiser deletes a game entered twice, renames a player and the event, deletes a player
    who never played and then the event, through the page; the public page follows each change."""
    page, url = phone
    _create_event(page, url, "T", "mleague")
    page.fill("#player-name", "Ed")
    page.click("#player-add")
    page.wait_for_function("() => document.querySelector('#player-list').textContent.includes('Ed')")
    api = url + "league/api/"
    quick = {"players": ["Ann", "Bo", "Cy", "Di"], "scores": [40000, 30000, 20000, 10000]}
    games = [page.request.post(api + "events/T/quick", data=quick, headers=PW).json()["game"] for _ in range(2)]
    page.evaluate("() => refreshEvent()")
    page.wait_for_selector(f"#edit-game option[value='{games[1]}']", state="attached")
    page.once("dialog", lambda d: d.accept())
    page.select_option("#edit-game", str(games[1]))
    page.click("#game-delete")
    _wait_message(page, f"Game {games[1]} deleted")
    assert page.request.get(api + "events/T").json()["standings"][0]["games"] == 1
    page.select_option("#edit-player", "Ann")
    page.fill("#player-new-name", "Anna")
    page.click("#player-rename")
    _wait_message(page, "Ann is now Anna")
    page.once("dialog", lambda d: d.accept())
    page.select_option("#edit-player", "Ed")
    page.click("#player-delete")
    _wait_message(page, "Ed deleted")
    assert "Ed" not in page.text_content("#player-list") and "Anna" in page.text_content("#player-list")
    page.fill("#event-new-name", "Spring")
    page.click("#event-rename")
    _wait_message(page, "now called Spring")
    assert page.text_content("#admin-title") == "Spring"
    assert page.request.get(api + "events/Spring").json()["standings"][0]["player"] == "Anna"
    page.once("dialog", lambda d: d.accept())
    page.click("#event-delete")
    _wait_message(page, "Event Spring deleted")
    assert page.request.get(api + "events").json()["events"] == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def test_a_deliberate_chombo_a_quick_entry_dealer_and_a_name_typed_while_adding(phone):
    """Issue 34: the form enters a deliberate chombo (the rule set's multiple), quick entry takes the first
    dealer, and a player name typed while the previous one is being added is not wiped."""
    page, url = phone
    _create_event(page, url, "T", "mleague")
    # the next add is held at the server's door while the organiser types the name after it
    held: list = []
    page.route("**/league/api/events/T/players", lambda route: held.append(route))
    page.fill("#player-name", "Ed")
    page.click("#player-add")
    for _ in range(250):
        if held:
            break
        page.wait_for_timeout(20)
    page.fill("#player-name", "Flo")
    held[0].continue_()
    page.unroute("**/league/api/events/T/players")
    page.wait_for_function("() => document.querySelector('#player-list').textContent.includes('Ed')")
    assert page.input_value("#player-name") == "Flo"

    gid = _open_game(page, url, [])
    page.select_option("#kind", "chombo")
    page.select_option("#who", "1")
    page.check("#deliberate")
    page.click("#submit-entry")
    _wait_message(page, "Entry 1 entered")
    [entry] = page.request.get(url + f"league/api/games/{gid}").json()["entries"]
    assert entry["data"]["kind"] == "chombo" and entry["data"]["deliberate"] is True

    for i, (player, score) in enumerate(zip(["Ann", "Bo", "Cy", "Di"], [30000, 30000, 20000, 20000], strict=True)):
        page.select_option(f"#quick-p{i}", player)
        page.fill(f"#quick-s{i}", str(score))
    page.select_option("#quick-dealer", "1")
    page.click("#quick-add")
    _wait_message(page, "Game ")
    games = page.request.get(url + "league/api/events/T").json()["games"]
    quick = [g for g in games if g["source"] == "quick"]
    assert quick and quick[0]["first_dealer"] == 1
    # ties break by seat order from the first dealer: Bo (the dealer) before Ann
    assert quick[0]["result"]["ranks"][:2] == [2, 1]


def test_a_triple_ron_where_the_rule_set_lets_all_win(phone):
    """Issue 34: 眉笔 lets every player who may win on a discard win (no head bump): the form takes a third
    winner there, and shows no third winner under a rule set with head bump."""
    page, url = phone
    _create_event(page, url, "T", "meibi")
    gid = _open_game(page, url, [])
    assert page.is_visible("#third-row")
    page.select_option("#kind", "win")
    for n, (winner, han) in enumerate(((1, 1), (2, 2), (3, 1)), 1):
        suffix = "" if n == 1 else str(n)
        if n > 1:
            page.check("#second" if n == 2 else "#third")
        page.select_option(f"#winner{suffix}", str(winner))
        if n == 1:
            page.select_option("#from", "0")
        page.fill(f"#yakuman{suffix}", "0")
        page.fill(f"#han{suffix}", str(han))
        page.select_option(f"#fu{suffix}", "30")
    page.click("#submit-entry")
    _wait_message(page, "Entry 1 entered")
    [entry] = page.request.get(url + f"league/api/games/{gid}").json()["entries"]
    assert [w["winner"] for w in entry["data"]["wins"]] == [1, 2, 3]
    assert entry["outcome"]["deltas"][0] < 0 and all(d > 0 for d in entry["outcome"]["deltas"][1:])


def test_a_given_seating_and_a_single_game_of_chosen_players_on_a_phone(phone):
    """Issue 34: the page seats a round as the organiser lists the players (without the draw: as listed, East
    dealing first) and makes one game of four chosen players with a chosen first dealer."""
    page, url = phone
    _create_event(page, url, "T", "mleague")
    page.select_option("#round-method", "given")
    page.fill("#given-players", "Di, Cy, Bo, Ann")
    page.uncheck("#given-draw")
    page.click("#round-seat")
    _wait_message(page, "Round 1 seated")
    assert "Table 1: E Di, S Cy, W Bo, N Ann; first dealer Di" in page.inner_text("#tables")
    for i, player in enumerate(("Bo", "Ann", "Di", "Cy")):
        page.select_option(f"#single-p{i}", player)
    page.select_option("#single-dealer", "1")
    page.click("#single-add")
    _wait_message(page, "created")
    gid = int(_message(page).split()[1])
    page.wait_for_function(f"() => document.querySelector('#game-title').textContent === 'Game {gid}'")
    game = page.request.get(url + f"league/api/games/{gid}").json()
    assert game["players"] == ["Bo", "Ann", "Di", "Cy"] and game["first_dealer"] == 1
