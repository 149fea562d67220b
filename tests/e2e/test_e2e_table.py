"""The square table's drawing rules (issue 30), checked on the play page's own code in chromium: a meld's called
tile turned toward the seat it came from (Tenhou's order), an added kan's tile laid on the called one, a closed
kan's ends face down; the dora an indicator makes; a river's rows and its sideways riichi tile (the next one when
the riichi tile was called); and the drawn table: every seat's river, melds and label where they belong."""

from __future__ import annotations

from .scenes import deep_riichi, deep_table


def _layout(page, meld: dict) -> list[str]:
    """The meld as drawn, left to right: ``5m`` for an upright tile, ``5m>`` sideways, ``5m>+5m>`` stacked."""
    return page.evaluate(
        """(m) => meldLayout(m).map((p) => p.added ? `${p.tile}>+${p.added}>` : p.tile + (p.sideways ? ">" : ""))""",
        meld,
    )


def _meld(kind: str, tiles: list[str], called: str | None, source: int | None) -> dict:
    return {"type": kind, "tiles": tiles, "called": called, "source": source, "text": ""}


def test_the_called_tile_is_turned_toward_its_source(page, server):
    page.goto(server.url)
    page.wait_for_function("() => typeof meldLayout === 'function'")
    # chi: always from the left, the called tile first
    assert _layout(page, _meld("chi", ["3m", "4m", "5m"], "4m", 3)) == ["4m>", "3m", "5m"]
    # pon: from the left first, from across in the middle, from the right last
    assert _layout(page, _meld("pon", ["7p", "7p", "7p"], "7p", 3)) == ["7p>", "7p", "7p"]
    assert _layout(page, _meld("pon", ["7p", "7p", "7p"], "7p", 2)) == ["7p", "7p>", "7p"]
    assert _layout(page, _meld("pon", ["7p", "7p", "7p"], "7p", 1)) == ["7p", "7p", "7p>"]
    # a red five called stays the called tile
    assert _layout(page, _meld("pon", ["5s", "0s", "5s"], "0s", 1)) == ["5s", "5s", "0s>"]
    # an open kan: the same three places
    assert _layout(page, _meld("minkan", ["1z"] * 4, "1z", 3)) == ["1z>", "1z", "1z", "1z"]
    assert _layout(page, _meld("minkan", ["1z"] * 4, "1z", 2)) == ["1z", "1z>", "1z", "1z"]
    assert _layout(page, _meld("minkan", ["1z"] * 4, "1z", 1)) == ["1z", "1z", "1z", "1z>"]
    # an added kan: the added tile (listed last) lies on the called one
    assert _layout(page, _meld("kakan", ["5p", "5p", "5p", "0p"], "5p", 2)) == ["5p", "5p>+0p>", "5p"]
    assert _layout(page, _meld("kakan", ["9s", "9s", "9s", "9s"], "9s", 1)) == ["9s", "9s", "9s>+9s>"]
    # a closed kan: both ends face down
    assert _layout(page, _meld("ankan", ["2m"] * 4, None, None)) == ["back", "2m", "2m", "back"]


def test_the_dora_an_indicator_makes(page, server):
    page.goto(server.url)
    page.wait_for_function("() => typeof doraOf === 'function'")
    cases = {"1m": "2m", "9m": "1m", "0p": "6p", "4s": "5s", "1z": "2z", "4z": "1z", "5z": "6z", "7z": "5z"}
    assert page.evaluate("(xs) => xs.map(doraOf)", list(cases)) == list(cases.values())


def test_the_drawn_table(sized, server):
    table = deep_table(server.app.state.manager, "mleague", [f"table-{n}" for n in range(40)], deep_riichi)
    view = table.view(0)
    sized.goto(f"{server.url}?table={table.id}&token={table.seats[0].token}")
    sized.wait_for_function("(s) => document.body.dataset.step === s", arg=str(view["step"]))
    centre = sized.locator("#center").bounding_box()
    cx, cy = centre["x"] + centre["width"] / 2, centre["y"] + centre["height"] / 2
    for p in view["players"]:
        rel = (p["seat"] - view["seat"]) % 4
        river = sized.locator(f".river[data-seat='{p['seat']}']").bounding_box()
        rx, ry = river["x"] + river["width"] / 2, river["y"] + river["height"] / 2
        # the river lies on its seat's side of the centre: below, right, above, left
        side = {0: ry > centre["y"] + centre["height"], 1: rx > centre["x"] + centre["width"]}
        side |= {2: ry < centre["y"], 3: rx < centre["x"]}
        assert side[rel], (rel, river, centre)
        # the label lies inside the centre, on the same side
        label = sized.locator(f".player[data-rel='{rel}'] .seat-label").bounding_box()
        lx, ly = label["x"] + label["width"] / 2, label["y"] + label["height"] / 2
        assert centre["x"] <= lx <= centre["x"] + centre["width"]
        assert centre["y"] <= ly <= centre["y"] + centre["height"]
        assert {0: ly > cy, 1: lx > cx, 2: ly < cy, 3: lx < cx}[rel]
        text = sized.locator(f".player[data-rel='{rel}'] .seat-label").inner_text()
        assert str(p["score"]) in text
        # the melds, as many as the seat has, each with as many tiles
        melds = sized.locator(f".player[data-rel='{rel}'] .melds .meld")
        assert melds.count() == len(p["melds"])
        for i, m in enumerate(p["melds"]):
            assert melds.nth(i).locator("img").count() == len(m["tiles"])
            turned = 0 if m["type"] == "ankan" else 2 if m["type"] == "kakan" else 1
            assert melds.nth(i).locator("img.sideways").count() == turned
    # the dora indicators and the dora they make
    indicators = sized.locator("#dora .indicators img").evaluate_all("i => i.map(x => x.alt)")
    assert indicators == view["round"]["dora_indicators"]
    assert sized.locator("#dora .made img").count() == len(indicators)
    assert "Dora indicators" in sized.locator("#dora").inner_text()
