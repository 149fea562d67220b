"""The HTML report of ``jantaku analyze`` (jantaku.lab.report_html): the paired differences lead with a forest plot
of every measure that has one, the rule sets' differing settings stand side by side, and the run is described."""

from __future__ import annotations

import html
import re

from jantaku.cli import main
from jantaku.lab.analysis import analyze
from jantaku.lab.forest import GROUPS, groups
from jantaku.lab.report_html import render


def test_forest_plots_cover_every_difference_and_the_settings_and_run_are_shown(tmp_path, capsys):
    target = tmp_path / "report.html"
    args = ["analyze", "--rules", "mleague", "--sweep", "kiriage=false,true", "--games", "2", "--seed", "1"]
    assert main([*args, "--bots", "efficiency", "--html", str(target), "--quiet"]) == 0
    capsys.readouterr()
    page = html.unescape(target.read_text(encoding="utf-8"))
    rep = analyze("mleague", 2, 1, "efficiency", "kiriage=false,true", workers=1)
    [c] = rep.comparisons
    # one forest plot per group, whose captions name every measure with a difference: value:mangan among them
    captions = re.findall(r"<figcaption>(Paired differences from kiriage=false: [^<]*)</figcaption>", page)
    drawn = [m for cap in captions for m in cap.split("Measures: ", 1)[1].split(", ")]
    assert sorted(drawn) == sorted(c.differences) and "value:mangan" in drawn
    assert len(captions) == len(groups(list(c.differences))) >= 5
    titles = [cap.split(": ", 1)[1].split(" (each", 1)[0] for cap in captions]
    assert titles == [g for g in GROUPS if g in titles]  # in the groups' order
    # the differences come before the estimates
    assert page.index("Paired differences from kiriage=false on the same walls") < page.index("Estimates of each")
    assert "Holm's correction over the" in page
    # the settings side by side: only what differs (kiriage), both values
    settings = page[page.index("<h2>Rule sets</h2>") : page.index("<h2>Paired")]
    assert re.findall(r"<tr><td>([a-z_]+)</td>", settings) == ["kiriage"]
    assert "<td>false</td><td>true</td>" in settings
    # the run: version, seed, games, bots, reference, sweep, workers, time, python, the command line
    run = page[page.index("<h2>The run</h2>") : page.index("<h2>Rule sets</h2>")]
    for key in ("jantaku", "python", "seed", "games", "bots", "rule_sets", "reference", "sweep", "workers"):
        assert f"<tr><th>{key}</th>" in run, key
    assert "<tr><th>started</th>" in run and "<tr><th>seconds</th>" in run
    assert "jantaku analyze --rules mleague --sweep kiriage=false,true --games 2 --seed 1" in run
    # the web table's page (the same render, its own picture addresses) has as many pictures
    web = render(rep, lambda i, png: f"/analyse/report/x/{i}.png", stylesheet="/static/analyse.css")
    assert web.count("<img ") == page.count("<img ") and "data:image" not in web
