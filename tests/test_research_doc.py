"""The reward-scale table of docs/guide/research.md is the engine's own settlement of each riichi preset (issue 35:
the reward scale per rule set documented): a changed preset that the page does not follow fails here."""

from __future__ import annotations

import re
from pathlib import Path

from jantaku.league.recording import replay_entries
from jantaku.rules import load_rules, preset_names

PAGE = Path(__file__).parents[1] / "docs" / "guide" / "research.md"


def test_the_reward_table_is_the_settlement():
    rows = re.findall(r"^\| `(\w+)` \| ([\d,]+) \| ([^|]+) \| (\w+) \|$", PAGE.read_text(encoding="utf-8"), re.M)
    riichi = [n for n in preset_names() if load_rules(n).family == "riichi"]
    assert sorted(r[0] for r in rows) == sorted(riichi)
    for name, start, rewards, leftover in rows:
        rules = load_rules(name)
        sp = rules.starting_points
        assert int(start.replace(",", "")) == sp and leftover == rules.leftover_deposits
        final = [sp + 15000, sp + 5000, sp - 5000, sp - 15000]
        settled = replay_entries(rules, 0, [{"kind": "final", "scores": final, "deposits": 0}]).result.final
        assert [float(x) for x in rewards.split(" / ")] == settled, name
