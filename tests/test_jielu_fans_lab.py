"""`jantaku analyze jielu-fans` (jantaku.lab.jielu_fans) and the rule files it writes.

The 洁律麻将 document (洁律麻将规则设计思路, 番种选取篇): 难度作为番种赋分的参考 - difficulty is the reference for a
fan's value; the tool derives values from how rare each fan is. Small runs only (a few seconds of CPU in all).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
from pathlib import Path

import pytest

from jantaku import Hand
from jantaku.jielu import score_hand
from jantaku.jielu.bounds import combination_root_bounds
from jantaku.jielu.combos import best_assignment
from jantaku.jielu.fantable import default_fan_table, table_for_rules, with_points
from jantaku.jielu.melds import PUNG, meld_tiles
from jantaku.lab import jielu_fans
from jantaku.rules import RulesError, load_rules
from jantaku.shapes.tables import tables


def parse(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    jielu_fans.add_arguments(p)
    return p.parse_args(list(argv))


@pytest.fixture(scope="module")
def json_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    out = tmp_path_factory.mktemp("fans") / "derived.toml"
    args = parse("--games", "1", "--samples", "80", "--seed", "3", "--json", "--out", str(out))
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert jielu_fans.run(args) == 0
    return json.loads(buf.getvalue()), out


def test_json_shape(json_run: tuple[dict, Path]) -> None:
    data, _ = json_run
    assert {"rules", "samples", "games", "seed", "bot", "rule", "scale", "fans", "play"} <= set(data)
    assert data["samples"] == 80 and data["games"] == 1 and data["seed"] == 3 and data["rules"] == "jielu"
    table = default_fan_table()
    assert set(data["fans"]) == set(table.points)
    for name, fan in data["fans"].items():
        assert fan["current"] == table.points[name]
        assert 1 <= fan["proposed"] <= table.full
        assert 0.0 <= fan["complete_hands"] <= 1.0 and 0.0 <= fan["wildcard_completions"] <= 1.0
        for which in ("current", "proposed"):
            assert set(fan["bot_wins"][which]) == {"with_wildcards", "without_wildcards"}
            assert 0.0 <= fan["decides"][which] <= 1.0
    # the reference keeps its value, the incidental and kong fans are kept
    assert data["fans"]["混一色"]["proposed"] == table.points["混一色"]
    for name in ("自摸和", "海底和", "杠上和", "天和", "一杠", "四杠"):
        assert data["fans"][name]["kept"] and data["fans"][name]["proposed"] == table.points[name]
    # 平和 (four chows) is the commonest pattern of a random complete hand and gets the least
    assert data["fans"]["平和"]["complete_hands"] > 0.3
    assert data["fans"]["平和"]["proposed"] == min(f["proposed"] for f in data["fans"].values())
    for which in ("current", "proposed"):
        play = data["play"][which]
        assert play["games"] == 1 and play["hands"] >= 4 and play["wins"] >= 1
        assert 0.0 <= play["wins_with_wildcards"] <= 1.0 and play["mean_value"] >= 1.0
        assert play["wins_with_wildcards_n"] + play["wins_without_wildcards_n"] == play["wins"]


def test_same_seed_same_analysis(json_run: tuple[dict, Path]) -> None:
    data, _ = json_run
    again = jielu_fans.analyse(load_rules("jielu"), 80, 1, 3, data["bot"])
    again.pop("seconds")
    again.pop("proposed_rules")
    data = dict(data)
    data.pop("seconds")
    assert json.loads(json.dumps(again, ensure_ascii=False)) == data
    other = jielu_fans.complete_hand_frequencies(80, 4, default_fan_table())
    assert other != {n: f["complete_hands"] for n, f in data["fans"].items()}  # another seed, other hands


def test_the_rule_file_loads_and_changes_the_values(json_run: tuple[dict, Path]) -> None:
    data, out = json_run
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# 洁律麻将") and "# Rule: points = clamp(round(K * log2(1 / p))" in text
    assert "# Run: jantaku analyze jielu-fans --rules jielu --samples 80 --games 1 --seed 3" in text
    rules = load_rules(out)
    assert rules.family == "jielu" and rules.name == "jielu-derived-fans"
    table = table_for_rules(rules)
    proposed = {n: f["proposed"] for n, f in data["fans"].items()}
    assert dict(table.points) == proposed
    changed = [n for n in proposed if proposed[n] != default_fan_table().points[n]]
    assert changed  # the derived table is not the shipped one
    # and the scorer plays with it: 平和 + 九数齐 + 三连顺 + 混一色 under both tables
    hand = Hand.parse("123m456m789m123p11z")
    now = score_hand(hand, table=default_fan_table())
    new = score_hand(hand, table=table)
    assert {f.name: f.points for f in new.fans} == {f.name: proposed[f.name] for f in now.fans}


def test_derive_points_rule() -> None:
    t = default_fan_table()
    freq = {name: 0.0 for name in t.points} | {"混一色": 1 / 256, "平和": 0.25}
    points, k = jielu_fans.derive_points(freq, 100, t)
    assert k == pytest.approx(6 / 8)
    assert points["平和"] == round(k * 2) == 2 and points["混一色"] == 6
    assert points["字一色"] == round(k * 7.64385618977)  # never seen: p = 1/200
    with pytest.raises(jielu_fans.AnalysisError, match="混一色 was in every sampled hand"):
        jielu_fans.derive_points(freq | {"混一色": 1.0}, 100, t)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--samples", "0"), "--samples must be 1.."),
        (("--samples", "many"), "--samples must be a whole number"),
        (("--games", "-1"), "--games must be 0.."),
        (("--seed", "1.5"), "--seed must be a whole number"),
        (("--bot", "oracle"), "--bot must be one of random, efficiency, strong"),
        (("--rules", "tenhou", "--samples", "5", "--games", "0"), "'tenhou' is not a 洁律 rule set"),
        (("--rules", "nope"), "unknown rule set 'nope'"),
    ],
)
def test_bad_input_is_a_clear_error(argv: tuple[str, ...], message: str) -> None:
    with pytest.raises((jielu_fans.AnalysisError, RulesError), match=message):
        jielu_fans.run(parse(*argv))


def test_unwritable_out_is_a_clear_error(tmp_path: Path) -> None:
    args = parse("--samples", "5", "--games", "0", "--out", str(tmp_path / "no" / "such" / "dir.toml"))
    with pytest.raises(jielu_fans.AnalysisError, match="cannot write"):
        jielu_fans.run(args)


# -- user rule files with [jielu_fans] --------------------------------------------------------------------------


def test_rule_file_fan_values(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('base = "jielu"\n[jielu_fans]\n"混一色" = 9\n"平和" = 2\n', encoding="utf-8")
    rules = load_rules(path)
    assert rules.jielu_fans == (("平和", 2), ("混一色", 9))
    table = table_for_rules(rules)
    assert table.points["混一色"] == 9 and table.points["平和"] == 2 and table.points["清一色"] == 12
    assert table is table_for_rules(load_rules(path))  # one table per value set (the scorer caches per table)
    assert table_for_rules(load_rules("jielu")) is default_fan_table()  # the shipped values stay the default
    assert load_rules("jielu").replace(jielu_fans={"三连顺": 7}).jielu_fans == (("三连顺", 7),)
    assert with_points({"三连顺": 7}).combinations != default_fan_table().combinations


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('"七对" = 4', "unknown fan '七对'"),
        ('"混一色" = 0', "混一色 must be a whole number 1..1000"),
        ('"混一色" = true', "混一色 must be a whole number 1..1000"),
        ('"混一色" = 2000', "混一色 must be a whole number 1..1000"),
    ],
)
def test_rule_file_bad_fan_values(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(f'base = "jielu"\n[jielu_fans]\n{body}\n', encoding="utf-8")
    with pytest.raises(RulesError, match=message):
        load_rules(path)


def test_jielu_fans_must_be_a_table(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('base = "jielu"\njielu_fans = 3\n', encoding="utf-8")
    with pytest.raises(RulesError, match="jielu_fans must be a table of fan name = points"):
        load_rules(path)


def test_shipped_example_loads() -> None:
    path = Path(__file__).resolve().parents[1] / "examples" / "rules" / "jielu-derived-fans.toml"
    rules = load_rules(path)
    assert rules.family == "jielu" and rules.jielu_fans
    assert table_for_rules(rules).points != default_fan_table().points


# -- the combination bound with the rest of the hand's distance (search speed; must stay a bound) ---------------


def test_combination_root_bound_with_rest_is_a_bound() -> None:
    """For random completions C of a hand H with w misses, the combination points of C never exceed the bound
    computed for H with the distance of H's tiles to the rest of the hand (bounds.combination_root_bounds)."""
    t = default_fan_table()
    rng = random.Random(16)
    melds_all = [9 * s + n for s in range(3) for n in range(7)] + [PUNG + k for k in range(34)]
    checked = 0
    while checked < 300:
        melds = sorted(rng.choice(melds_all) for _ in range(4))
        pair = rng.randrange(34)
        target = [0] * 34
        target[pair] += 2
        for code in melds:
            for k in meld_tiles(code):
                target[k] += 1
        if max(target) > 4:
            continue
        tiles = [k for k in range(34) for _ in range(target[k])]
        w = rng.randrange(0, 5)
        hand = list(target)
        for k in rng.sample(tiles, w):  # w tiles replaced by others: C is a completion with at most w misses
            hand[k] -= 1
            other = rng.randrange(34)
            while hand[other] >= 4:
                other = rng.randrange(34)
            hand[other] += 1
        dist = tables().distances(bytes(hand))
        rest = tuple(dist[max(0, 4 - k)] for k in range(5))
        caps = combination_root_bounds(t, hand, 5, rest)
        points = sum(spec.points for spec, _ in best_assignment(tuple(melds), t).hits)
        assert points <= caps[w], (hand, melds, pair, w)
        checked += 1


def test_score_requests_use_the_rule_files_values(tmp_path: Path) -> None:
    from jantaku.jielu.jsonio import score_request

    path = tmp_path / "mine.toml"
    path.write_text('base = "jielu"\n[jielu_fans]\n"九数齐" = 10\n', encoding="utf-8")
    req = {"hand": "123m456m789m123p11z", "win": "1z"}
    mine = dict((name, pts) for name, pts, _ in score_request(req | {"rules": str(path)})["fans"])
    shipped = dict((name, pts) for name, pts, _ in score_request(req | {"rules": "jielu"})["fans"])
    assert mine["九数齐"] == 10 and shipped["九数齐"] == 6


def test_pruned_search_equals_the_unpruned_one_on_combination_hands() -> None:
    """Hands rich in combinations (chows of one number or equal steps, in one or more suits), a few tiles
    swapped: the optimiser with the tightened combination bound equals the search with no pruning at all."""
    from jantaku.jielu.search import best_completion

    rng = random.Random(7)
    scores = []
    while len(scores) < 12:
        step = rng.choice((0, 1, 2, 3))
        suits = rng.choice(((0, 0, 0), (0, 1, 2), (0, 1, 0), (1, 1, 2)))
        start = rng.randrange(0, 7 - 2 * step) if step else rng.randrange(7)
        counts = [0] * 34
        for i, s in enumerate(suits):
            first = 9 * s + start + i * step
            for k in (first, first + 1, first + 2):
                counts[k] += 1
        counts[rng.choice((27, 31, 9 * rng.randrange(3) + rng.randrange(9)))] += 2
        first = 9 * rng.randrange(3) + rng.randrange(7)
        for k in (first, first + 1, first + 2):
            counts[k] += 1
        if max(counts) > 4:
            continue
        for _ in range(rng.choice((1, 2, 3))):
            held = [k for k in range(34) if counts[k]]
            counts[rng.choice(held)] -= 1
            other = rng.choice([k for k in range(34) if counts[k] < 4])
            counts[other] += 1
        pruned = best_completion(counts, max_wildcards=3)
        full = best_completion(counts, max_wildcards=3, prune=False)
        assert (pruned.score if pruned else 0) == (full.score if full else 0), counts
        scores.append(pruned.score if pruned else 0)
    assert any(scores) and not all(scores)  # hands that win and hands that do not


def test_the_score_command_uses_the_rule_files_values(tmp_path: Path) -> None:
    # `jantaku score --rules FILE` (not only --jsonl) scores with the file's [jielu_fans]
    from jantaku.cli import main

    path = tmp_path / "mine.toml"
    path.write_text('base = "jielu"\n[jielu_fans]\n"九数齐" = 10\n', encoding="utf-8")
    out = {}
    for rules in (str(path), "jielu"):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["score", "123m456m789m123p11z", "--win", "1z", "--rules", rules, "--json"]) == 0
        out[rules] = {name: pts for name, pts, _ in json.loads(buf.getvalue())["fans"]}
    assert out[str(path)]["九数齐"] == 10 and out["jielu"]["九数齐"] == 6
