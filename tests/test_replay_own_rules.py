"""A record jantaku wrote of a game under a rule file of its own (a name that is no preset) replays under the rules
it carries (``start_game``'s ``rule_changes``), with no rule set given: a 洁律 variant (no dead wall, so no dora
marker at the start of a hand) was refused as malformed, and any such record as naming an unknown rule set."""

from __future__ import annotations

import pytest

from jantaku.cli import main
from jantaku.rules import load_rules


@pytest.mark.parametrize(
    ("base", "changes", "lineup"),
    [
        (
            "jielu",
            {"name": "club-jielu", "jielu_max_wildcards": 2, "jielu_min_score": 4},
            "strong,efficiency,random,strong",
        ),
        ("mleague", {"name": "club-east", "rounds": 1, "kiriage": False}, "efficiency"),
    ],
)
def test_a_record_under_a_rule_file_replays_under_its_own_rules(tmp_path, capsys, base, changes, lineup):
    rule_file = tmp_path / "club.toml"
    lines = [f'base = "{base}"'] + [
        f"{k} = {str(v).lower() if isinstance(v, bool) else (repr(v) if isinstance(v, str) else v)}".replace("'", '"')
        for k, v in changes.items()
    ]
    rule_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert load_rules(str(rule_file)).name == changes["name"]
    out = tmp_path / "games"
    args = ["simulate", "--rules", str(rule_file), "--games", "2", "--seed", "3", "--bots", lineup, "--quiet"]
    assert main([*args, "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", "--check", str(out)]) == 0  # no --rules: the records' own
    text = capsys.readouterr().out
    assert "2 files" in text and "unreadable" not in text
    hands = int(text.split(" hands")[0].rsplit(" ", 1)[1])
    assert hands > 0 and f"{hands} hands, {hands} matched" in text
