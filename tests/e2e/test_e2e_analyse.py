"""``jantaku analyze``'s HTML report in a real browser: the stand-alone file shows its plots (every picture
decoded, natural width > 0) and its tables; the web table's Analyse page runs a small analysis, shows its
pictures and opens the report, under the server's security policy (no inline content)."""

from __future__ import annotations

from jantaku.cli import main

from .conftest import HEAVY_TIMEOUT_MS

ALL_IMAGES_LOADED = """() => {
  const imgs = [...document.images];
  return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0);
}"""


def _widths(page) -> list[int]:
    return page.evaluate("() => [...document.images].map((i) => i.naturalWidth)")


def test_standalone_report_renders_with_its_plots(page, tmp_path):
    target = tmp_path / "report.html"
    args = ["analyze", "--rules", "mleague", "--sweep", "starting_points=25000,15000", "--games", "2"]
    assert main([*args, "--seed", "1", "--bots", "efficiency", "--html", str(target), "--quiet"]) == 0
    page.goto(target.as_uri())
    page.wait_for_function(ALL_IMAGES_LOADED)
    widths = _widths(page)
    # the paired differences' forest plots (a group of measures each), key measures, two histograms, yaku
    assert len(widths) >= 8 and all(w >= 400 for w in widths), widths
    assert page.locator("h1").inner_text().startswith("jantaku analyze: starting_points=25000")
    assert page.locator("table").count() == 5  # the run, the rule sets' settings, differences, measures, yaku
    assert page.locator("td", has_text="bust_rate").count() >= 1


def test_analyse_page_runs_an_analysis_and_opens_its_report(page, context, server):
    page.goto(server.url + "analyse")
    page.fill("#rules", "mleague,mu")
    page.fill("#games", "2")
    page.select_option("#bots", "efficiency")
    page.click("#run")
    page.wait_for_selector("#result:not([hidden])", timeout=HEAVY_TIMEOUT_MS)
    assert page.locator("#status").inner_text() == "Done."
    assert page.locator("#summary td", has_text="win_rate").count() == 1
    page.wait_for_function(ALL_IMAGES_LOADED)
    assert len(_widths(page)) >= 8  # every picture of the report, the paired differences' first
    assert "flagged after Holm's correction" in page.locator("#summary").inner_text()
    with context.expect_page() as opened:
        page.click("#report-link")
    report = opened.value
    report.wait_for_load_state()
    report.wait_for_function(ALL_IMAGES_LOADED)
    assert len(_widths(report)) == len(_widths(page)) and all(w > 0 for w in _widths(report))
    assert report.locator("h1").inner_text() == "jantaku analyze: mleague, mu"
    # the style sheet is the server's own file, so the policy lets it apply
    assert report.evaluate("() => getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"


def test_without_the_lab_extra_the_page_says_how_to_install_it_before_any_click(page, server, monkeypatch):
    import jantaku.web.analyse as analyse

    monkeypatch.setattr(analyse, "lab_available", lambda: False)  # a server installed without the lab extra
    page.goto(server.url + "analyse")
    page.wait_for_selector("#status[data-unavailable='1']")
    assert "pip install 'jantaku[lab]'" in page.locator("#status").inner_text()
    assert page.locator("#run").is_disabled()
