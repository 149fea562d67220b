"""Issue 34: a round's seating sheet and score sheets, printed from chromium (print CSS to PDF): one page of
seating and one score sheet per table, with the round's players at their winds; the ratings, series and
profile pages at a phone's size."""

from __future__ import annotations

import json
import re
import urllib.request

PW = {"X-League-Password": "s3cret-pw", "Content-Type": "application/json"}


def _post(url: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(url + "league/api/" + path, data=json.dumps(body).encode(), headers=PW)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def test_a_rounds_sheets_print_one_page_each(page, server):
    url = server.url
    _post(url, "events", {"name": "Print cup", "rules": "mleague", "password": "s3cret-pw"})
    for i in range(12):
        _post(url, "events/Print%20cup/players", {"name": f"P{i}"})
    _post(url, "events/Print%20cup/schedule", {"rounds": 2, "seed": 3})
    first = _post(url, "events/Print%20cup/rounds", {"method": "prescripted", "draw": False})
    _post(url, "events/Print%20cup/rounds", {"method": "prescripted", "draw": False})
    page.goto(url + "league/print?name=Print%20cup&round=1")
    page.wait_for_selector("section.score-sheet[data-table='3']")
    rows = page.eval_on_selector_all(
        "section.seating tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    assert [r[1:] for r in rows] == [
        [p + (" (deals first)" if i == 0 else "") for i, p in enumerate(g["players"])] for g in first["games"]
    ]
    assert page.locator("#print-round option").count() == 2
    pdf = page.pdf(format="A4")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages == 4, pages  # the seating, then a sheet per table


def test_ratings_series_and_a_profile_on_a_phone(browser, server):
    url = server.url
    _post(url, "events", {"name": "Rated", "rules": "mu", "password": "s3cret-pw"})
    for name in ("Aiko", "Ben", "Chen", "Dana"):
        _post(url, "events/Rated/players", {"name": name})
    for order in (["Aiko", "Ben", "Chen", "Dana"], ["Ben", "Chen", "Dana", "Aiko"]):
        _post(url, "events/Rated/quick", {"players": order, "scores": [45000, 35000, 25000, 15000]})
    _post(url, "series", {"name": "Year", "events": ["Rated"]})
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, locale="en-US")
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url + "league/ratings?series=Year")
        page.wait_for_selector("#ratings tr[data-player]")
        assert page.locator("#ratings tr[data-player]").count() == 4
        page.wait_for_selector("#series-standings tr[data-player]")
        first = page.locator("#series-standings tr[data-player]").first.get_attribute("data-player")
        assert first == "Ben"  # first, then second: the best total
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        page.click("#ratings tr[data-player='Aiko'] a")
        page.wait_for_selector("#profile-games tr td")
        assert page.inner_text("#player-name") == "Aiko"
        assert page.locator("#profile-games tr").count() == 3  # the header and two games
        assert "2 game(s)" in page.inner_text("#player-rating")
    finally:
        ctx.close()
    assert not errors, errors
