"""`jantaku analyze jielu-fans` (jantaku.lab.jielu_fans) and the rule files it writes.

The 洁律麻将 document (洁律麻将规则设计思路, 番种选取篇): 难度作为番种赋分的参考 - difficulty is the reference for a
fan's value; the tool derives values from how rare each fan is. The report leads with how wins are made in play
(the wildcards, the minimum), measures the rule-maker's options (a cap on wildcards, a higher minimum) on the same
games, shows rarity from every source and marks the values of unseen fans as lower bounds. Small runs only.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import random
from functools import cache
from pathlib import Path

import pytest

from jantaku import Hand
from jantaku.jielu import score_hand
from jantaku.jielu.bounds import combination_root_bounds
from jantaku.jielu.combos import best_assignment
from jantaku.jielu.fantable import default_fan_table, table_for_rules, with_points, with_win_rule
from jantaku.jielu.melds import PUNG, meld_tiles
from jantaku.lab import jielu_fans
from jantaku.rules import RulesError, load_rules
from jantaku.shapes.tables import tables

TIMING = ("seconds", "seconds_per_game")


def parse(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    jielu_fans.add_arguments(p)
    return p.parse_args(list(argv))


def run_json(*argv: str) -> dict:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert jielu_fans.run(parse(*argv, "--json")) == 0
    return json.loads(buf.getvalue())


def untimed(data: object) -> object:
    """``data`` without its timings (they differ between runs)."""
    if isinstance(data, dict):
        return {k: untimed(v) for k, v in data.items() if k not in TIMING and k != "timing"}
    if isinstance(data, list):
        return [untimed(v) for v in data]
    return data


RUN = ("--games", "1", "--samples", "80", "--targeted", "10", "--options", "cap=2,min=2", "--seed", "3")


@pytest.fixture(scope="module")
def json_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    out = tmp_path_factory.mktemp("fans") / "derived.toml"
    return run_json(*RUN, "--workers", "1", "--out", str(out)), out


def test_the_report_leads_with_how_wins_are_made(json_run: tuple[dict, Path]) -> None:
    data, _ = json_run
    assert next(iter(data)) == "how_wins_are_made"  # the first finding
    how = data["how_wins_are_made"]
    assert how["rules"] == "jielu" and how["rule"] == "no cap, a win needs 1 point" and how["min_score"] == 1
    assert how["hands"] == 4 and how["wins"] >= 1
    assert 0.0 <= how["wins_with_wildcards"] <= 1.0 and how["mean_wildcards_per_win"] > 0
    assert how["wins_with_wildcards_n"] + how["wins_without_wildcards_n"] == how["wins"]
    assert sum(how["values"].values()) == how["wins"]
    assert how["wins_at_minimum"] == pytest.approx(how["values"].get("1", 0) / how["wins"])
    assert how["wins_at_minimum"] + how["wins_above_minimum"] == pytest.approx(1.0)
    assert "wildcards" in how["finding"] and f"{how['wins']} wins" in how["finding"]
    # the text report says it first too
    text = jielu_fans._report(data)
    assert text.index("1. How wins are made in play") < text.index("2. The rule-maker's options")
    assert text.index("2. The rule-maker's options") < text.index("3. How rare each fan is")
    assert how["finding"].split(":")[0] in text


def test_the_finding_says_whether_the_values_matter() -> None:
    play = {
        "wins": 100,
        "min_score": 1,
        "wins_with_wildcards": 1.0,
        "mean_wildcards_per_win": 3.0,
        "wins_at_minimum": 0.99,
        "mean_value": 1.01,
        "wins_a_fan_decides": 0.9,
    }
    assert jielu_fans._play_finding(play).startswith("The fan values hardly change what a win pays")
    assert "not the payment" in jielu_fans._play_finding(play)
    assert jielu_fans._play_finding(play | {"wins_at_minimum": 0.3}).startswith("The fan values change what most")
    assert jielu_fans._play_finding(play | {"wins_at_minimum": 0.7}).startswith("The fan values change what a win")
    assert jielu_fans._play_finding(play | {"wins": 0}).startswith("No bot won")


def test_the_options_are_measured_on_the_same_games(json_run: tuple[dict, Path]) -> None:
    data, _ = json_run
    rows = {r["name"]: r for r in data["options"]}
    assert list(rows) == ["rules", "derived values", "cap=2", "min=2"]
    assert rows["cap=2"]["changes"] == {"jielu_max_wildcards": 2} and rows["cap=2"]["rule"].startswith("at most 2")
    assert rows["min=2"]["changes"] == {"jielu_min_score": 2} and rows["min=2"]["min_score"] == 2
    for row in rows.values():
        assert row["games"] == 1 and row["hands"] == 4  # the same seeds: four hands of the same walls
        assert 0.0 <= row["draw_rate"] <= 1.0 and 0.0 <= row["wins_a_fan_decides"] <= 1.0
        assert row["wins_per_hand"] == pytest.approx(row["wins"] / row["hands"])
        assert sum(row["wildcards_per_win"].values()) == row["wins"]
    assert max(int(w) for w in rows["cap=2"]["wildcards_per_win"]) <= 2  # the cap holds in play
    assert min(int(v) for v in rows["min=2"]["values"]) >= 2  # so does the minimum
    assert rows["min=2"]["wins_at_minimum"] == pytest.approx(
        rows["min=2"]["values"].get("2", 0) / rows["min=2"]["wins"]
    )
    assert data["timing"]["seconds_per_game"] > 0 and data["timing"]["games"] == 4


def test_rarity_sources_side_by_side(json_run: tuple[dict, Path]) -> None:
    data, _ = json_run
    src = data["rarity_sources"]
    assert src["complete_hands"] == 80 and src["targeted_per_rare_fan"] == 10
    assert src["derivation_uses"].startswith("complete hands") and "difficulty" in src["why"]
    table = default_fan_table()
    assert set(data["fans"]) == set(table.points)
    for name, fan in data["fans"].items():
        assert fan["current"] == table.points[name] and 1 <= fan["proposed"] <= table.full
        c = fan["complete_hands"]
        assert c["of"] == 80 and c["p"] == c["seen"] / 80
        assert (c["upper_95"] is None) == (c["seen"] > 0)
        bw = fan["bot_wins"]
        assert bw["with_wildcards"]["of"] + bw["without_wildcards"]["of"] == data["how_wins_are_made"]["wins"]
        assert set(fan["decides"]) == {"rules", "derived values", "cap=2", "min=2"}
        if fan["targeted"] is not None:
            assert c["seen"] < jielu_fans.RARE and fan["targeted"]["of"] == 10
    # the reference keeps its value; the incidental and kong fans are kept and are not lower bounds
    assert data["fans"]["混一色"]["proposed"] == table.points["混一色"]
    for name in ("自摸和", "海底和", "杠上和", "天和", "一杠", "四杠"):
        fan = data["fans"][name]
        assert fan["kept"] and fan["proposed"] == table.points[name] and not fan["lower_bound"]
    # 平和 (four chows) is the commonest pattern of a random complete hand and gets the least
    assert data["fans"]["平和"]["complete_hands"]["p"] > 0.3
    assert data["fans"]["平和"]["proposed"] == min(f["proposed"] for f in data["fans"].values())
    # targeted sampling saw 字一色 (never in 80 plain hands): an estimate, not a bound
    zi = data["fans"]["字一色"]
    assert zi["complete_hands"]["seen"] == 0 and zi["targeted"]["seen"] > 0
    assert zi["used"]["source"] == "targeted sampling" and not zi["lower_bound"]


def test_unseen_fans_are_lower_bounds_and_never_floored(tmp_path: Path) -> None:
    """Without targeted sampling a fan never seen in N complete hands has only p < 1 - 0.05^(1/N): its points are
    at least what that gives, it keeps max(current, bound), and the text, the JSON and the rule file say so."""
    out = tmp_path / "bounds.toml"
    argv = ("--games", "0", "--samples", "300", "--seed", "0", "--targeted", "0", "--options", "none")
    data = run_json(*argv, "--out", str(out))
    bound = 1 - 0.05 ** (1 / 300)
    assert "1 - 0.05^(1/300)" in data["rule"] and f"{bound:.6f}" in data["rule"]
    unseen = {n: f for n, f in data["fans"].items() if f["lower_bound"]}
    assert {"字一色", "四喜", "四同顺", "清二数"} <= set(unseen)
    k = data["scale"]
    for fan in unseen.values():
        assert fan["complete_hands"]["seen"] == 0 and fan["used"]["upper_only"]
        at_least = max(1, min(32, round(k * math.log2(1 / bound))))
        assert fan["proposed"] >= max(at_least, fan["current"])  # never below the bound nor its current value
        assert fan["note"].startswith(f"at least {at_least} (unseen)")
    assert data["fans"]["字一色"]["proposed"] == 32 and data["fans"]["四喜"]["proposed"] == 32
    text = out.read_text(encoding="utf-8")
    assert "# LOWER BOUNDS:" in text and "字一色" in text.split("# LOWER BOUNDS:")[1].split("\n#")[1]
    line = next(x for x in text.splitlines() if x.startswith('"四喜"'))
    assert line.startswith('"四喜" = 32') and "at least" in line and "unseen in 300 complete hands: p <" in line
    assert load_rules(out).family == "jielu"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        jielu_fans.run(parse(*argv))
    assert ">=32" in next(x for x in buf.getvalue().splitlines() if x.strip().startswith("四喜"))


def test_another_seed_other_hands(json_run: tuple[dict, Path]) -> None:
    data, _ = json_run
    other = jielu_fans.complete_hand_frequencies(80, 4, default_fan_table())
    assert other != {n: f["complete_hands"]["p"] for n, f in data["fans"].items()}  # another seed, other hands


def test_the_same_input_gives_the_same_analysis_in_workers() -> None:
    """Two worker processes give what one gives (the same seeds, the same hands and games: the analysis is a
    function of its input), and the progress callback counts every game."""
    rules = load_rules("jielu")
    options = jielu_fans.parse_options("cap=1", rules)
    calls: list[tuple[int, int]] = []
    one = jielu_fans.analyse(rules, 300, 2, 0, "efficiency", options, targeted=5, workers=1)
    two = jielu_fans.analyse(
        rules, 300, 2, 0, "efficiency", options, targeted=5, workers=2, progress=lambda d, t, s: calls.append((d, t))
    )
    for r in (one, two):
        r.pop("proposed_rules")
    assert untimed(one) == untimed(two)
    assert calls[-1] == (6, 6) and all(d <= t for d, t in calls)
    assert two["timing"]["workers"] == 2


def test_the_rule_file_loads_and_changes_the_values(json_run: tuple[dict, Path]) -> None:
    data, out = json_run
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# 洁律麻将") and "# Rule: points = clamp(round(K * log2(1 / p)), 1, 32)" in text
    assert "# Run: jantaku analyze jielu-fans --rules jielu --samples 80 --targeted 10 --games 1 --seed 3" in text
    assert "# What decides play first" in text and data["how_wins_are_made"]["finding"][:40] in text.replace(
        "\n#   ", " "
    )
    assert "cap=2" in text and "min=2" in text  # the options' effect
    rules = load_rules(out)
    assert rules.family == "jielu" and rules.name == "jielu-derived-fans"
    table = table_for_rules(rules)
    proposed = {n: f["proposed"] for n, f in data["fans"].items()}
    assert dict(table.points) == proposed
    changed = [n for n in proposed if proposed[n] != default_fan_table().points[n]]
    assert changed  # the derived table is not the shipped one
    for name, fan in data["fans"].items():
        line = next(x for x in text.splitlines() if x.startswith(f'"{name}" = '))
        assert ("at least" in line) == fan["lower_bound"]
        assert ("targeted" in line) == (fan["used"]["source"] == "targeted sampling" and not fan["kept"])
    # and the scorer plays with it: 平和 + 九数齐 + 三连顺 + 混一色 under both tables
    hand = Hand.parse("123m456m789m123p11z")
    now = score_hand(hand, table=default_fan_table())
    new = score_hand(hand, table=table)
    assert {f.name: f.points for f in new.fans} == {f.name: proposed[f.name] for f in now.fans}


def test_derive_points_rule() -> None:
    t = default_fan_table()
    measured = jielu_fans.Rarity
    rarity = {name: measured(0.25, 25, 100, "complete hands") for name in t.points}
    rarity["混一色"] = measured(1 / 256, 1, 256, "complete hands")
    rarity["清一色"] = measured(1 / 1024, 1, 1024, "complete hands")  # 10 bits: 7.5 -> 8
    rarity["清二色"] = measured(1 / 2**12, 5, 5 * 2**12, "targeted sampling")  # rarer than 清一色: 9
    bound = jielu_fans.unseen_upper_bound(100)
    rarity["字一色"] = measured(bound, 0, 100, "unseen")
    rarity["四喜"] = measured(bound, 0, 100, "unseen")
    rarity["双风"] = measured(2**-40, 3, 100, "targeted sampling")  # far rarer than 三风 and 四喜
    points, k, notes = jielu_fans.derive_points(rarity, t)
    assert k == pytest.approx(6 / 8)
    assert points["平和"] == round(k * 2) == 2 and points["混一色"] == 6 and notes["混一色"] == "measured"
    assert notes["清二色"] == "targeted estimate" and points["清二色"] == 9
    # 清一色 sits above 清二色 in the document's order: raised to 9
    assert points["清一色"] == 9 and "raised to 9 (not below 清二色: the document's order)" in notes["清一色"]
    at_least = round(k * math.log2(1 / bound))
    assert points["字一色"] == 32 and notes["字一色"] == f"at least {at_least} (unseen); kept at 32"
    # 双风 measured at 30 points: 三风 (unseen, 8 now) and 四喜 above it are raised to stay at least 双风
    assert points["双风"] == 30 and points["三风"] == 30 and points["四喜"] == 32
    assert points["自摸和"] == 1 and notes["自摸和"].startswith("kept")
    with pytest.raises(jielu_fans.AnalysisError, match="混一色 was in every sampled hand"):
        jielu_fans.derive_points(rarity | {"混一色": measured(1.0, 5, 5, "complete hands")}, t)
    with pytest.raises(jielu_fans.AnalysisError, match="混一色 was never seen"):
        jielu_fans.derive_points(rarity | {"混一色": measured(bound, 0, 100, "unseen")}, t)


def test_decides_uses_the_minimum() -> None:
    hand = Hand.parse("123m456m789m12345z")  # 三连顺 混一色 九数齐 单箭 (19) with 3 wildcards: S 2
    result = score_hand(hand)
    assert result.score == 2
    assert jielu_fans._decides(result, default_fan_table()) == []  # any one fan gone still leaves >= 8
    two = with_win_rule(default_fan_table(), min_score=2)
    assert set(jielu_fans._decides(result, two)) == {"三连顺", "混一色", "九数齐"}  # 13 >> 3 = 1 < 2


# -- targeted sampling: exact where the distribution can be summed ------------------------------------------------


def _options(left: tuple[int, ...], step: int) -> list[tuple[tuple[int, ...], int]]:
    """The complete-hand sampler's choices at a step and their weights (written out independently)."""
    out = []
    for k in range(34):
        c = left[k]
        if step == 0:
            if c >= 2:
                out.append(((k, k), c * (c - 1) // 2))
            continue
        if c >= 3:
            out.append(((k, k, k), c * (c - 1) * (c - 2) // 6))
        if k < 27 and k % 9 <= 6 and left[k] * left[k + 1] * left[k + 2]:
            out.append(((k, k + 1, k + 2), left[k] * left[k + 1] * left[k + 2]))
    return out


def exact_within(kinds: frozenset[int]) -> float:
    """The exact probability that a sampled complete hand holds only tiles of ``kinds``: the sum over every
    sequence of pair and melds within them of the product of the sampler's step probabilities."""

    @cache
    def rest(left: tuple[int, ...], step: int) -> float:
        if step == 5:
            return 1.0
        options = _options(left, step)
        total = sum(w for _, w in options)
        p = 0.0
        for tiles, w in options:
            if all(t in kinds for t in tiles):
                after = list(left)
                for t in tiles:
                    after[t] -= 1
                p += w / total * rest(tuple(after), step + 1)
        return p

    return rest((4,) * 34, 0)


@pytest.mark.parametrize(
    ("fan", "exact"),
    [
        ("字一色", lambda: exact_within(frozenset(range(27, 34)))),
        ("清一色", lambda: 3 * exact_within(frozenset(range(9)))),  # the three suits alike
    ],
)
def test_targeted_sampling_matches_the_exact_frequency(fan: str, exact: object) -> None:
    want = exact()  # type: ignore[operator]
    got = jielu_fans.targeted_frequency(fan, 300, 1, default_fan_table())
    assert got is not None and got.source == "targeted sampling" and got.seen > 50
    assert abs(got.p - want) <= 4 * got.se, (fan, got, want)
    assert got.se < 0.15 * want  # far tighter than the plain sample (字一色: about 4e-9)
    if fan == "字一色":
        assert 3.9e-9 < want < 4.2e-9


def test_targeted_sampling_agrees_with_plain_sampling_on_a_combination_fan() -> None:
    table = default_fan_table()
    plain = jielu_fans.complete_hand_counts(2000, 7, table)["同顺"] / 2000
    plain_se = math.sqrt(plain * (1 - plain) / 2000)
    got = jielu_fans.targeted_frequency("同顺", 300, 7, table)
    assert got is not None and got.seen > 30
    assert abs(got.p - plain) <= 4 * math.hypot(got.se, plain_se), (got, plain)


def test_fans_without_targets_are_not_targeted() -> None:
    table = default_fan_table()
    assert jielu_fans.targeted_frequency("平和", 10, 0, table) is None
    assert jielu_fans.targeted_frequency("自摸和", 10, 0, table) is None
    assert len(jielu_fans.fan_targets("清二数", table)) == 36 and len(jielu_fans.fan_targets("清三数", table)) == 16


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--samples", "0"), "--samples must be 1.."),
        (("--samples", "many"), "--samples must be a whole number"),
        (("--games", "-1"), "--games must be 0.."),
        (("--seed", "1.5"), "--seed must be a whole number"),
        (("--targeted", "-2"), "--targeted must be 0.."),
        (("--workers", "0"), "--workers must be 1.."),
        (("--bot", "oracle"), "--bot must be one of random, efficiency, strong"),
        (("--options", "wild=2"), "--options: 'wild=2' is not cap=N or min=N"),
        (("--options", "cap=x"), "--options: 'cap=x': N must be a whole number"),
        (("--options", "cap=15"), "--options: 'cap=15': jielu_max_wildcards must lie within 0..14"),
        (("--options", "min=0"), "--options: 'min=0': jielu_min_score must lie within 1..32"),
        (("--options", ",".join(["cap=1"] * 9)), "--options: at most 8 options"),
        (("--rules", "tenhou", "--samples", "5", "--games", "0"), "'tenhou' is not a 洁律 rule set"),
        (("--rules", "nope"), "unknown rule set 'nope'"),
    ],
)
def test_bad_input_is_a_clear_error(argv: tuple[str, ...], message: str) -> None:
    with pytest.raises((jielu_fans.AnalysisError, RulesError), match=message):
        jielu_fans.run(parse(*argv))


def test_unwritable_out_is_a_clear_error(tmp_path: Path) -> None:
    args = parse("--samples", "300", "--targeted", "0", "--games", "0", "--out", str(tmp_path / "no" / "dir.toml"))
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
