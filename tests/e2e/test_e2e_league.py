"""The league recorder's pages in a real browser, at a phone's size (390x844, league data in SQLite) and a
desktop's (1366x768, league data in PostgreSQL): an organiser creates an event with teams and players, seats
a round, and records a whole hanchan hand by hand through the entry form - one under ``mleague`` and one
under ``mu``, the hands of games the engine's bots played - and the public standings and team totals show the
engine's own settlement of those hands; an impossible entry is refused with the rule's article."""

from __future__ import annotations

import pytest

from jantaku.web.app import create_app
from jantaku.web.background import BackgroundServer
from jantaku.web.storage import SqliteStore
from league.simulated import entries_of, simulated_game

from .conftest import TIMEOUT_MS

SIZES = {"phone": (390, 844), "desktop": (1366, 768)}


@pytest.fixture(params=list(SIZES))
def league(request, tmp_path, browser, pg):
    size = request.param
    league_db = str(tmp_path / "league.sqlite3") if size == "phone" else pg.fresh_url()
    store = SqliteStore(tmp_path / "games.sqlite3")
    with BackgroundServer(create_app(store, league_db=league_db)) as srv:
        w, h = SIZES[size]
        ctx = browser.new_context(viewport={"width": w, "height": h}, locale="en-US", is_mobile=size == "phone")
        ctx.set_default_timeout(TIMEOUT_MS)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        yield page, srv.url, size
        ctx.close()
        assert not errors, f"JavaScript errors on the page: {errors}"
    store.close()


def _message(page) -> str:
    return page.inner_text("#message")


def _create_event(page, url: str, name: str, rules: str) -> None:
    page.goto(url + "league/admin")
    page.wait_for_selector("#ev-rules option[value=mleague]", state="attached")
    page.click("#login-section summary")
    page.fill("#ev-name", name)
    page.select_option("#ev-rules", rules)
    page.fill("#ev-password", "s3cret-pw")
    page.click("#ev-create")
    page.wait_for_selector("#organiser:not(.hidden)")
    for team in ("Red", "Blue"):
        page.fill("#team-name", team)
        page.click("#team-add")
        page.wait_for_selector(f"#player-team option[value={team}]", state="attached")
    for i, player in enumerate(("Ann", "Bo", "Cy", "Di")):
        page.fill("#player-name", player)
        page.select_option("#player-team", "Red" if i % 2 == 0 else "Blue")
        page.click("#player-add")
        page.wait_for_function(f"() => document.querySelector('#player-list').textContent.includes('{player}')")


def _enter(page, entry: dict, seat_map, n: int) -> None:
    """Fill the entry form with ``entry`` (the simulation's seats mapped to the table's) and submit it."""
    page.select_option("#kind", entry["kind"])
    for s in entry.get("riichi", []):
        page.check(f"input[name=riichi][value='{seat_map(s)}']")
    if entry["kind"] == "win":
        wins = entry["wins"]
        w = wins[0]
        page.select_option("#winner", str(seat_map(w["winner"])))
        page.select_option("#from", "" if w["from"] is None else str(seat_map(w["from"])))
        if w.get("yakuman"):
            page.fill("#yakuman", str(w["yakuman"]))
        else:
            page.fill("#yakuman", "0")
            page.fill("#han", str(w["han"]))
            page.select_option("#fu", str(w["fu"]))
        page.select_option("#pao", "" if w.get("pao") is None else str(seat_map(w["pao"])))
        assert len(wins) == 1  # mleague and mu: head bump
    elif entry["kind"] == "draw":
        for s in entry.get("tenpai", []):
            page.check(f"input[name=tenpai][value='{seat_map(s)}']")
        for s in entry.get("nagashi", []):
            page.check(f"input[name=nagashi][value='{seat_map(s)}']")
    page.click("#submit-entry")
    page.wait_for_function(f"() => document.querySelectorAll('#entries li').length === {n}")
    assert _message(page).startswith(f"Entry {n} entered"), _message(page)


def _standings(page) -> tuple[dict[str, float], dict[str, float]]:
    players = {
        r.get_attribute("data-player"): float(r.query_selector(".total").inner_text())
        for r in page.query_selector_all("#standings-table tr[data-player]")
    }
    teams = {
        r.get_attribute("data-team"): float(r.query_selector(".total").inner_text())
        for r in page.query_selector_all("#teams-table tr[data-team]")
    }
    return players, teams


@pytest.mark.parametrize("rules,seed", [("mleague", 0), ("mu", 0)])
def test_organiser_records_a_hanchan(league, rules, seed):
    page, url, size = league
    name = f"{rules} cup"
    _create_event(page, url, name, rules)
    page.click("#round-seat")
    page.wait_for_selector("#tables button.open-game")
    page.click("#tables button.open-game")
    page.wait_for_selector("#game-panel:not(.hidden)")
    gid = int(page.get_attribute("#tables button.open-game", "data-game"))
    table = page.evaluate(f"() => fetch('/league/api/games/{gid}').then(r => r.json())")
    players, first_dealer = table["players"], table["first_dealer"]
    game = simulated_game(rules, seed)
    shift = (first_dealer - game.first_dealer) % 4  # the same game turned to the table's first dealer

    def seat_map(s: int) -> int:
        return (s + shift) % 4

    # a han and fu no hand can have is refused with the rule document's article, and nothing is entered
    page.select_option("#kind", "win")
    page.select_option("#winner", "1")
    page.select_option("#from", "0")
    page.fill("#han", "1")
    page.select_option("#fu", "20")
    page.click("#submit-entry")
    page.wait_for_function("() => document.querySelector('#message').textContent.includes('cannot exist')")
    assert ("6章3条" if rules == "mleague" else "Art 56") in _message(page)
    assert page.query_selector_all("#entries li") == []
    if rules == "mleague":
        # a win entered as the hand itself is scored by jantaku (riichi, pinfu, dora 1: 3 han 30 fu, 3,900);
        # then undone
        page.check("input[name=riichi][value='1']")
        page.fill("#han", "")
        page.fill("#hand-tiles", "234m567p456s78999s")
        page.fill("#win-tile", "9s")
        page.fill("#dora", "3m")
        page.click("#submit-entry")
        page.wait_for_function("() => document.querySelectorAll('#entries li').length === 1")
        scores = [int(x.inner_text()) for x in page.query_selector_all("#game-seats .score")]
        assert scores == [21100, 28900, 25000, 25000]
        asked: list[str] = []
        page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        page.click("#undo")  # the page asks first, showing what would go: no
        page.wait_for_function("() => document.querySelectorAll('#entries li').length === 1")
        assert asked and asked[0].startswith("Delete entry 1: win")
        page.once("dialog", lambda d: d.accept())
        page.click("#undo")  # yes
        page.wait_for_function("() => document.querySelectorAll('#entries li').length === 0")
        assert _message(page) == "Entry 1 deleted."
    entries = entries_of(game)
    for n, entry in enumerate(entries, 1):
        _enter(page, entry, seat_map, n)
    assert page.inner_text("#game-hand") == "Game over"
    if size == "phone":
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, f"the organiser page is {width} px wide on a 390 px phone"
    expected = {players[seat_map(s)]: game.result.final[s] for s in range(4)}
    page.goto(url + f"league/event?name={name.replace(' ', '%20')}")
    page.wait_for_selector("#standings-table tr[data-player]")
    shown, teams = _standings(page)
    assert shown == expected
    assert teams == {
        "Red": round(expected["Ann"] + expected["Cy"], 1),
        "Blue": round(expected["Bo"] + expected["Di"], 1),
    }
    page.wait_for_selector("#chart svg circle")
    if size == "phone":
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # wide tables scroll in their box


# -- issue 34: two organisers correct the same game's hands; every correction previewed and confirmed; a page
# that is out of date is refused saying what changed; a finished game reopened by a correction

PW_JSON = {"X-League-Password": "s3cret-pw", "Content-Type": "application/json"}


@pytest.fixture(params=["sqlite", "postgresql"])
def two_organisers(request, tmp_path, browser, pg):
    """Two organisers' pages on one server, a phone at 390x844 and a laptop at 1366x768 (issue 34)."""
    league_db = str(tmp_path / "league.sqlite3") if request.param == "sqlite" else pg.fresh_url()
    store = SqliteStore(tmp_path / "games.sqlite3")
    with BackgroundServer(create_app(store, league_db=league_db)) as srv:
        pages, contexts, errors = [], [], []
        for size, mobile in (((390, 844), True), ((1366, 768), False)):
            ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-US", is_mobile=mobile)
            ctx.set_default_timeout(TIMEOUT_MS)
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            contexts.append(ctx)
            pages.append(page)
        yield pages, srv.url
        for ctx in contexts:
            ctx.close()
        assert not errors, f"JavaScript errors on the page: {errors}"
    store.close()


def _ron(winner: int, loser: int, han: int, fu: int = 30) -> dict:
    return {"kind": "win", "wins": [{"winner": winner, "from": loser, "han": han, "fu": fu}], "riichi": []}


def _open(page, gid: int) -> None:
    page.evaluate(f"() => openGame({gid})")
    page.wait_for_function(f"() => document.querySelector('#game-title').textContent === 'Game {gid}'")


def _fill_ron(page, winner: int, loser: int, han: int, fu: int = 30) -> None:
    page.select_option("#kind", "win")
    page.select_option("#winner", str(winner))
    page.select_option("#from", str(loser))
    page.fill("#yakuman", "0")
    page.fill("#han", str(han))
    page.select_option("#fu", str(fu))


def _entries(page, url: str, gid: int) -> list[dict]:
    return page.request.get(url + f"league/api/games/{gid}").json()["entries"]


def test_two_organisers_correct_hands_and_a_stale_page_is_refused(two_organisers):
    (phone, laptop), url = two_organisers
    _create_event(phone, url, "T", "tenhou")  # a score below zero ends the game
    api = url + "league/api/"
    gid = phone.request.post(
        api + "events/T/games", data={"players": ["Ann", "Bo", "Cy", "Di"]}, headers=PW_JSON
    ).json()["game"]
    for e in (_ron(1, 0, 2), {"kind": "draw", "tenpai": [1], "riichi": []}, _ron(2, 3, 1, 40)):
        assert phone.request.post(api + f"games/{gid}/entries", data={"entry": e}, headers=PW_JSON).status == 201
    laptop.goto(url + "league/admin")
    laptop.evaluate("() => login('T', 's3cret-pw')")
    laptop.wait_for_selector("#organiser:not(.hidden)")
    _open(phone, gid)
    _open(laptop, gid)
    assert not phone.is_visible("#third-row")  # Tenhou: at most two winners on one discard

    # the phone corrects hand 2 (it was Bo's ron off Di, not a draw): previewed, then confirmed
    asked: list[str] = []
    phone.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    phone.click("#entries li[data-seq='2'] button.edit-entry")
    assert phone.inner_text("#editing-note").startswith("Correcting entry 2: draw")
    _fill_ron(phone, 1, 3, 2)
    phone.click("#submit-entry")
    phone.wait_for_function("() => document.querySelector('#message').textContent === 'Entry 2 corrected.'")
    assert asked[0].startswith("Correct entry 2?") and "Scores now:" in asked[0] and "Scores after:" in asked[0]
    assert "Entries whose points change: 3" in asked[0]  # the honba of hand 3 is gone
    assert _entries(phone, url, gid)[1]["data"]["wins"][0]["from"] == 3
    assert "Bo +" in phone.inner_text("#entries li[data-seq='2']")  # each entry shows its point changes

    # the laptop still shows the old game: its correction of the same hand is refused, saying what changed
    laptop.on("dialog", lambda d: d.accept())
    laptop.click("#entries li[data-seq='2'] button.edit-entry")
    _fill_ron(laptop, 1, 3, 4)
    laptop.click("#submit-entry")
    laptop.wait_for_function("() => document.querySelector('#message').textContent.includes('changed since')")
    assert "correct entry 2" in _message(laptop)
    assert _entries(laptop, url, gid)[1]["data"]["wins"][0]["han"] == 2  # the phone's correction stands
    # reloaded, it deletes hand 3
    _open(laptop, gid)
    laptop.click("#entries li[data-seq='3'] button.delete-entry")
    laptop.wait_for_function("() => document.querySelector('#message').textContent === 'Entry 3 deleted.'")
    assert len(_entries(laptop, url, gid)) == 2

    # a finished game (a yakuman off Ann ends it) is opened from the list and reopened by a correction
    phone.request.post(api + f"games/{gid}/entries", data={"entry": _ron(2, 0, 13)}, headers=PW_JSON)
    phone.reload()
    phone.evaluate("() => login('T', 's3cret-pw')")
    phone.wait_for_selector(f"#edit-game option[value='{gid}']", state="attached")
    assert "finished" in phone.inner_text(f"#edit-game option[value='{gid}']")
    phone.select_option("#edit-game", str(gid))
    phone.click("#game-open")
    phone.wait_for_function("() => document.querySelector('#game-hand').textContent === 'Game over'")
    asked.clear()
    phone.click("#entries li[data-seq='3'] button.edit-entry")
    _fill_ron(phone, 2, 0, 3)
    phone.click("#submit-entry")
    phone.wait_for_function("() => document.querySelector('#message').textContent === 'Entry 3 corrected.'")
    assert "The game is no longer over." in asked[0]
    assert phone.get_attribute("#game-hand", "data-status") == "playing"
