"""No hint of another person's options, in the browser (issue 13): two people share a table; while one of
them may pon the other's discard, the discarder's page says only "Waiting for other players" and marks no box
as acting, and nothing that reached it over the websocket names the caller or the phase. Once the pon is
made, it is public: the caller's box is marked on the discarder's page."""

from __future__ import annotations

import json

import pytest

from jantaku.rules import load_rules
from jantaku.table import Wall, draw_seating
from scenario_walls import build_wall
from seats import create_claimed

from .driver import wait_ready

RULES = "mleague"
SEED = "e2e-privacy-pon"


@pytest.fixture
def pon_table(server, monkeypatch):
    """A table where person A (the dealer) holds 3m and person B (across) a pair of 3m; the bot between them
    could chi 3m (and passes). Returns the table and the seats of A and B."""
    a = draw_seating(load_rules(RULES).seating, SEED).first_dealer
    c, b, d = (a + 1) % 4, (a + 2) % 4, (a + 3) % 4
    hands = {
        a: "3m4m7m2p5p8p3s6s8s1z2z5z7z",
        c: "1m2m6m4p7p9p2s5s9s3z4z6z1p",
        b: "3m3m8m3p6p1s4s7s2z3z4z7z1z",
        d: "5m9m2p4p8p3s5s8s6z5z2z4z1p",
    }
    wall = build_wall(hands, ["8m"], dealer=a, dora=["1z"])
    shuffled = Wall.from_seed

    def from_seed(cls, seed):
        return wall if seed == f"{SEED}:0" else shuffled(seed)

    monkeypatch.setattr(Wall, "from_seed", classmethod(from_seed))  # the server runs in this process
    kinds = ["efficiency"] * 4
    kinds[a] = kinds[b] = "human"
    table = create_claimed(server.app.state.manager, RULES, kinds, seed=SEED)
    return table, a, b


def _acting(page) -> list[str]:
    return page.eval_on_selector_all(".player.acting", "boxes => boxes.map(b => b.dataset.rel)")


def test_a_pending_call_shows_only_waiting_on_the_discarders_page(browser, server, pon_table):
    table, a, b = pon_table
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US") for _ in range(2)]
    try:
        pages = [c.new_page() for c in contexts]
        frames: list[dict] = []
        errors: list[str] = []
        for p in pages:
            p.on("pageerror", lambda e: errors.append(str(e)))
        pages[0].on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(json.loads(f))))
        for p, seat in zip(pages, (a, b), strict=True):
            p.goto(f"{server.url}?table={table.id}&token={table.seats[seat].token}")
            p.wait_for_selector("#hand > img.tile")
        page_a, page_b = pages
        rel_b = str((b - a) % 4)  # B's box on A's page
        rel_a = str((a - b) % 4)
        wait_ready(page_a)
        # before: A's own turn is shown on both pages (a public draw/discard turn)
        assert _acting(page_a) == ["0"]
        page_b.wait_for_function("(s) => document.body.dataset.step === s", arg=str(table.view(b)["step"]))
        assert _acting(page_b) == [rel_a]
        step = page_a.evaluate("document.body.dataset.step")
        page_a.click("#hand > img.tile.playable[data-tile='3m']")
        page_a.wait_for_function("(s) => document.body.dataset.step !== s", arg=step)
        assert table.game.to_act() == [b] and table.game.kyoku.phase == "responses"  # B may pon
        # B's page offers the pon and marks B's own box
        page_b.locator("#actions button[data-action=pon]").wait_for()
        assert page_b.locator("#status").inner_text() == "Your turn"
        assert _acting(page_b) == ["0"]
        # A's page: waiting, nobody marked, no button
        status = page_a.locator("#status")
        assert status.inner_text() == "Waiting for other players" and status.get_attribute("data-mine") == "0"
        assert _acting(page_a) == []
        assert page_a.locator(f".player[data-rel='{rel_b}']").get_attribute("class") == "player across"
        assert page_a.locator("#actions button[data-action]").count() == 0
        assert table.view(a)["round"]["phase"] == "waiting"
        # B pons: the call and B's discard turn are public, on A's page too
        step = page_a.evaluate("document.body.dataset.step")
        page_b.click("#actions button[data-action=pon]")
        page_a.wait_for_function("(s) => document.body.dataset.step !== s", arg=step)
        assert _acting(page_a) == [rel_b]
        assert page_a.locator(f".player[data-rel='{rel_b}'] .melds .meld[data-meld=pon]").count() == 1
        views = [f["view"] for f in frames if f.get("type") == "view"]
        assert len(views) >= 3
        for v in views:  # everything that reached A's browser
            assert v["seat"] == a
            assert v["round"]["phase"] not in ("responses", "chankan", "declare")
            if b in v["to_act"]:
                assert v["round"]["phase"] == "called" and v["players"][b]["melds"]
        assert not errors, f"JavaScript errors on the pages: {errors}"
    finally:
        for c in contexts:
            c.close()
