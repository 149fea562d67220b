"""Issue 34: players enter their own table from their phones, on the real thing - a ``jantaku serve`` process
started as the README starts it (league data in its default SQLite file, or in PostgreSQL with
``--league-db``) - driven in chromium: the organiser's laptop (1366x768) issues the personal codes and starts
the round's clock; two players' phones (390x844) sign in, one enters a hand, the other confirms it, the
organiser sees and accepts what still waits; one phone loses the network, queues two hands, and when the
network is back both are stored once; a reload keeps the player signed in."""

from __future__ import annotations

import json
import urllib.request

import pytest

from served import served

from .conftest import TIMEOUT_MS

PW = {"X-League-Password": "s3cret-pw", "Content-Type": "application/json"}
PLAYERS = ("Ann", "Bo", "Cy", "Di")


@pytest.fixture(params=["sqlite", "postgresql"])
def serve(request, tmp_path, pg):
    options = () if request.param == "sqlite" else ("--league-db", pg.fresh_url())
    with served(tmp_path, *options) as (_, url):
        yield url


def _call(url: str, path: str, body: dict | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url + "league/api/" + path, data=data, headers=PW if body is not None else {})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _context(browser, size, mobile, errors):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-US", is_mobile=mobile)
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    return ctx, page


def _sign_in(page, url: str, player: str, pin: str) -> None:
    page.goto(url + "league/table?event=Club")
    page.wait_for_selector(f"#t-player option[value={player}]", state="attached")
    page.select_option("#t-player", player)
    page.fill("#t-pin", pin)
    page.click("#t-login")
    page.wait_for_selector("#game-panel:not(.hidden)")


def _message_is(page, text: str) -> None:
    page.wait_for_function(f"() => document.querySelector('#message').textContent === {json.dumps(text)}")


def _enter_draw(page, tenpai: int) -> None:
    page.select_option("#kind", "draw")
    page.check(f"input[name=tenpai][value='{tenpai}']")
    page.click("#submit-entry")


def test_players_enter_and_confirm_their_table_and_a_phone_offline_loses_nothing(serve, browser):
    url = serve
    errors: list[str] = []
    contexts = []
    try:
        ctx, laptop = _context(browser, (1366, 768), False, errors)
        contexts.append(ctx)
        laptop.goto(url + "league/admin")
        laptop.wait_for_selector("#ev-rules option[value=mu]", state="attached")
        laptop.click("#login-section summary")
        laptop.fill("#ev-name", "Club")
        laptop.select_option("#ev-rules", "mu")
        laptop.fill("#ev-password", "s3cret-pw")
        laptop.click("#ev-create")
        laptop.wait_for_selector("#organiser:not(.hidden)")
        for p in PLAYERS:
            _call(url, "events/Club/players", {"name": p})
        seated = _call(url, "events/Club/rounds", {"method": "given", "players": list(PLAYERS), "draw": False})
        gid = seated["games"][0]["game"]
        laptop.click("#pins-issue")
        laptop.wait_for_selector("#pins:not(.hidden) td.pin")
        pins = {
            r[0]: r[1]
            for r in laptop.eval_on_selector_all(
                "#pins tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
            )
        }
        assert sorted(pins) == sorted(PLAYERS) and all(len(p) == 6 for p in pins.values())
        laptop.fill("#clock-round", "1")
        laptop.fill("#clock-minutes", "90")
        laptop.click("#clock-start")
        laptop.wait_for_selector("#clocks .clock-round[data-round='1']")
        assert "left" in laptop.inner_text("#clocks")

        ctx, ann = _context(browser, (390, 844), True, errors)
        contexts.append(ctx)
        ctx_bo, bo = _context(browser, (390, 844), True, errors)
        contexts.append(ctx_bo)
        _sign_in(ann, url, "Ann", pins["Ann"])
        _sign_in(bo, url, "Bo", pins["Bo"])
        assert "left" in ann.inner_text("#clocks")  # the table's round clock
        assert ann.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways scrolling

        # Ann enters Bo's ron off her; it counts at once and waits for the other three
        ann.select_option("#kind", "win")
        ann.select_option("#winner", "1")
        ann.select_option("#from", "0")
        ann.fill("#han", "3")
        ann.select_option("#fu", "30")
        ann.click("#submit-entry")
        _message_is(ann, "Entry 1 stored.")
        assert "waiting for Bo, Cy, Di" in ann.inner_text("#entries li[data-seq='1']")
        # Bo's phone shows it by itself within a few seconds, and Bo confirms it
        bo.wait_for_selector("#entries li[data-seq='1'] button.confirm-entry", timeout=20_000)
        bo.click("#entries li[data-seq='1'] button.confirm-entry")
        _message_is(bo, "Entry 1 confirmed.")
        assert "waiting for Cy, Di" in bo.inner_text("#entries li[data-seq='1']")
        # the organiser sees what waits and accepts it for the table
        laptop.reload()
        laptop.evaluate("() => login('Club', 's3cret-pw')")
        laptop.wait_for_selector("#unconfirmed li[data-seq='1']")
        assert "waiting for Cy, Di" in laptop.inner_text("#unconfirmed")
        laptop.click("#unconfirmed li[data-seq='1'] button.open-unconfirmed")
        laptop.wait_for_selector("#entries li[data-seq='1'] button.accept-entry")
        laptop.click("#entries li[data-seq='1'] button.accept-entry")
        _message_is(laptop, "Entry 1 accepted for the table.")
        assert _call(url, f"games/{gid}")["entries"][0]["confirmed"] is None

        # Ann's phone loses the network: two hands wait on the phone, nothing reaches the server
        ann.context.set_offline(True)
        _enter_draw(ann, 0)
        ann.wait_for_function("() => document.querySelector('#net').textContent.startsWith('1 entry not sent yet')")
        _enter_draw(ann, 1)
        ann.wait_for_function("() => document.querySelector('#net').textContent.startsWith('2 entries not sent yet')")
        assert "no network" in ann.inner_text("#net")
        assert len(_call(url, f"games/{gid}")["entries"]) == 1
        # back online: both are sent, in order, once each
        ann.context.set_offline(False)
        ann.wait_for_function("() => document.querySelector('#net').textContent === ''", timeout=20_000)
        ann.wait_for_selector("#entries li[data-seq='3']")
        entries = _call(url, f"games/{gid}")["entries"]
        assert [(e["seq"], e["kind"], e["data"].get("tenpai")) for e in entries] == [
            (1, "win", None),
            (2, "draw", [0]),
            (3, "draw", [1]),
        ]
        assert all(e["entered_by"] == "player Ann" for e in entries[1:])
        # a reload keeps Ann signed in at her table
        ann.reload()
        ann.wait_for_selector("#entries li[data-seq='3']")
        assert ann.is_hidden("#signin") and "Ann" in ann.inner_text("#t-who")
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
