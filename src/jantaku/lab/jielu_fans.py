"""``jantaku analyze jielu-fans``: how rare each 洁律 fan is, a value table derived from it, and what it changes.

The 洁律麻将 document chose its fans by 规律 and meant "难度作为番种赋分的参考" (difficulty as the reference for a
fan's value, 洁律麻将规则设计思路, 番种选取篇), but its table of values did not survive; the values the engine ships
are the project's proposal. This tool measures difficulty and derives values from it:

1. **Complete hands** (``--samples`` of them): random closed hands of four melds and a pair, built meld by meld,
   each meld (and the pair) drawn with probability proportional to the number of ways to take its tiles from what
   the 136-tile wall has left - an approximation of how often each complete hand turns up in a shuffled wall.
   Each is read without wildcards (its best reading); a fan's frequency is the share of hands whose best reading
   counts it.
2. **Wildcard completions**: as many random 14-tile deals from a shuffled wall, completed by the optimiser with
   wildcards (the best completion); a fan's frequency is its share among the deals that reach 1 point.
3. **Bot wins**: ``--games`` games of the rule set with four bots of the best kind that plays 洁律; a fan's
   frequency among the winning hands that used wildcards and among those that did not.
4. **The rule**: ``points = clamp(round(K * log2(1 / p)), 1, full)``, ``p`` the fan's frequency among complete
   hands (a fan never seen in N hands gets ``p = 1 / (2N)``), ``K`` chosen so that 混一色 keeps its current
   value (the shipped proposal's reference, docs/rules/sources.md: 混一色 about half of 清一色). The fans a
   random complete hand cannot show keep their values: the incidental fans (自摸和, 海底和, 杠上和, 天和:
   circumstances, not patterns) and the kong fans (kongs are declared in play). The 32/24 rule (full, cap) is
   the document's and is kept.
5. **The effect**: the same games (the same seeds, so the same walls: common random numbers) played under the
   current and the proposed values; for each: wins per hand, the share of wins using wildcards and how many, the
   share of hands whose first win comes in the first go-around (before the fourth discard), the mean value S of
   a win, and how often each fan *decides* a win (without its points the winning completion would be worth less
   than 1 point).

The proposal is written as a rule file (``--out FILE``) that ``--rules`` accepts: ``base`` the analysed rule set,
and a ``[jielu_fans]`` table; the shipped values stay the default until a person chooses.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jantaku.errors import JantakuError
from jantaku.hand import Hand
from jantaku.jielu import JieluResult, score_hand
from jantaku.jielu.fantable import FAMILIES, FanTable, table_for_rules
from jantaku.rules import Ruleset, load_rules
from jantaku.rules.loader import diff_rules, preset_names
from jantaku.sim.runner import play_game

__all__ = [
    "AnalysisError",
    "add_arguments",
    "bot_for_jielu",
    "complete_hand_frequencies",
    "derive_points",
    "play_effect",
    "run",
    "wildcard_completion_frequencies",
]

KEPT_FAMILIES = ("incidental",)
"""Families whose fans keep their values: circumstances of the win, not patterns of the hand."""
KEPT_FANS = ("一杠", "二杠", "三杠", "四杠")
"""Fans kept besides: kongs are declared in play, so a random complete hand never shows them."""
REFERENCE_FAN = "混一色"
"""The fan whose current value fixes the scale K (the shipped proposal's reference, docs/rules/sources.md:
混一色 about half of 清一色)."""
_SUITS = "mpsz"
_MAX_SAMPLES = 1_000_000
_MAX_GAMES = 100_000
_BOTS = ("random", "efficiency", "strong")


class AnalysisError(JantakuError):
    """Bad input to ``jantaku analyze jielu-fans`` (a count out of range, a rule set that is not 洁律, ...)."""


# -- the hands --------------------------------------------------------------------------------------------------


def _hand_text(counts: Sequence[int]) -> str:
    parts = []
    for s in range(4):
        digits = "".join(str(n + 1) * counts[9 * s + n] for n in range(9 if s < 3 else 7))
        if digits:
            parts.append(digits + _SUITS[s])
    return "".join(parts)


def random_complete_hand(rng: random.Random) -> list[int]:
    """A random closed complete hand (34 counts): the pair, then four melds, each drawn with probability
    proportional to the ways to take its tiles from the tiles the wall has left (4 of each kind at first)."""
    left = [4] * 34
    hand = [0] * 34
    pair_weights = [c * (c - 1) // 2 for c in left]
    pair = rng.choices(range(34), pair_weights)[0]
    left[pair] -= 2
    hand[pair] += 2
    for _ in range(4):
        options: list[tuple[int, ...]] = []
        weights: list[int] = []
        for k in range(34):
            c = left[k]
            if c >= 3:
                options.append((k, k, k))
                weights.append(c * (c - 1) * (c - 2) // 6)
            if k < 27 and k % 9 <= 6:
                w = left[k] * left[k + 1] * left[k + 2]
                if w:
                    options.append((k, k + 1, k + 2))
                    weights.append(w)
        meld = rng.choices(options, weights)[0]
        for k in meld:
            left[k] -= 1
            hand[k] += 1
    return hand


def random_deal(rng: random.Random) -> list[int]:
    """14 tiles from a shuffled 136-tile wall, as 34 counts."""
    wall = [k for k in range(34) for _ in range(4)]
    hand = [0] * 34
    for k in rng.sample(wall, 14):
        hand[k] += 1
    return hand


def complete_hand_frequencies(samples: int, seed: int, table: FanTable) -> dict[str, float]:
    """Each fan's share of ``samples`` random complete hands (:func:`random_complete_hand`), read without
    wildcards (the best reading's fans; incidental fans never count: there are no circumstances)."""
    rng = random.Random(f"jielu-fans:complete:{seed}")
    seen: Counter[str] = Counter()
    for _ in range(samples):
        hand = Hand.parse(_hand_text(random_complete_hand(rng)))
        result = score_hand(hand, max_wildcards=0, table=table)
        seen.update({f.name for f in result.fans})
    return {name: seen[name] / samples for name in table.points}


def wildcard_completion_frequencies(samples: int, seed: int, table: FanTable) -> tuple[dict[str, float], int]:
    """Each fan's share among the random 14-tile deals (:func:`random_deal`) that wildcards make worth 1 point
    (their best completion's fans), and how many of the ``samples`` deals did."""
    rng = random.Random(f"jielu-fans:deal:{seed}")
    seen: Counter[str] = Counter()
    wins = 0
    for _ in range(samples):
        result = score_hand(Hand.parse(_hand_text(random_deal(rng))), table=table)
        if result.score >= 1:
            wins += 1
            seen.update({f.name for f in result.fans})
    return {name: seen[name] / max(1, wins) for name in table.points}, wins


# -- the rule ---------------------------------------------------------------------------------------------------


def derive_points(frequencies: dict[str, float], samples: int, table: FanTable) -> tuple[dict[str, int], float]:
    """The proposed points of every fan and the scale K: ``clamp(round(K * log2(1 / p)), 1, full)``.

    ``p`` is the fan's frequency among complete hands (``1 / (2 * samples)`` when it was never seen); K makes
    :data:`REFERENCE_FAN` keep its current value; the fans of :data:`KEPT_FAMILIES` and :data:`KEPT_FANS` keep
    theirs.

    >>> from jantaku.jielu.fantable import default_fan_table
    >>> t = default_fan_table()
    >>> freq = {name: 0.0 for name in t.points} | {"混一色": 1 / 64, "平和": 0.5, "清一色": 1 / 4096}
    >>> pts, k = derive_points(freq, 1000, t)
    >>> k, pts["混一色"], pts["平和"], pts["清一色"], pts["自摸和"], pts["字一色"]
    (1.0, 6, 1, 12, 1, 11)
    """
    unseen = math.log2(2 * samples)
    bits = {name: math.log2(1 / p) if p > 0 else unseen for name, p in frequencies.items()}
    ref_bits = bits.get(REFERENCE_FAN, 0.0)
    if ref_bits <= 0:
        raise AnalysisError(f"{REFERENCE_FAN} was in every sampled hand: no scale can be derived")
    k = table.points[REFERENCE_FAN] / ref_bits
    out: dict[str, int] = {}
    for name, current in table.points.items():
        if table.family[name] in KEPT_FAMILIES or name in KEPT_FANS:
            out[name] = current
        else:
            out[name] = max(1, min(table.full, round(k * bits[name])))
    return out, k


# -- the games --------------------------------------------------------------------------------------------------


def bot_for_jielu() -> str:
    """The best bot that plays 洁律: ``strong`` once it declares that it does (``StrongBot.plays_jielu``), else
    ``efficiency`` (the strong bot falls back to plain ranking under 洁律 until then)."""
    try:
        from jantaku.bots.strong import StrongBot
    except ImportError:  # pragma: no cover - the strong bot ships with jantaku
        return "efficiency"
    return "strong" if getattr(StrongBot, "plays_jielu", False) else "efficiency"


def _decides(result: JieluResult, table: FanTable) -> list[str]:
    """The fans without whose points the winning completion would be worth less than 1 point."""
    w = len(result.wildcards)
    out = []
    for f in result.fans:
        others_full = any(g.points >= table.full for g in result.fans if g is not f)
        value = table.full if others_full else min(table.cap, result.total - f.points)
        if value >> w < 1:
            out.append(f.name)
    return out


def play_effect(rules: Ruleset, games: int, seed: int, bot: str) -> dict[str, Any]:
    """Play ``games`` games (seeds ``seed .. seed + games - 1``) with four ``bot`` bots and measure the wins.

    Returns the counts (games, hands, wins) and: ``wins_per_hand``, ``wins_with_wildcards`` (share),
    ``mean_wildcards_per_win``, ``first_win_in_first_go_around`` (share of hands whose first win comes before
    the fourth discard), ``mean_value`` (S of a win), ``fans`` (share of wins counting each fan, split into wins
    with and without wildcards) and ``decides`` (share of wins each fan decides)."""
    table = table_for_rules(rules)
    hands = wins = first = with_wild = wild_total = value_total = 0
    wild_wins = plain_wins = 0
    fans_wild: Counter[str] = Counter()
    fans_plain: Counter[str] = Counter()
    decides: Counter[str] = Counter()
    for g in range(games):
        game = play_game(rules, seed + g, [bot] * 4)
        discards = 0
        first_seen = False
        for e in game.events:
            kind = e["type"]
            if kind == "start_kyoku":
                hands += 1
                discards = 0
                first_seen = False
            elif kind == "dahai":
                discards += 1
            elif kind == "hora" and not first_seen:
                first_seen = True
                first += discards < 4
        for r in game.results:
            for w in r.wins:
                sc = w.score
                if not isinstance(sc, JieluResult):  # pragma: no cover - a 洁律 game scores 洁律 results
                    continue
                wins += 1
                value_total += sc.score
                n_wild = len(sc.wildcards)
                names = {f.name for f in sc.fans}
                if n_wild:
                    with_wild += 1
                    wild_total += n_wild
                    wild_wins += 1
                    fans_wild.update(names)
                else:
                    plain_wins += 1
                    fans_plain.update(names)
                decides.update(_decides(sc, table))
    return {
        "games": games,
        "hands": hands,
        "wins": wins,
        "wins_with_wildcards_n": wild_wins,
        "wins_without_wildcards_n": plain_wins,
        "wins_per_hand": wins / max(1, hands),
        "wins_with_wildcards": with_wild / max(1, wins),
        "mean_wildcards_per_win": wild_total / max(1, wins),
        "first_win_in_first_go_around": first / max(1, hands),
        "mean_value": value_total / max(1, wins),
        "fans": {
            name: {
                "with_wildcards": fans_wild[name] / max(1, wild_wins),
                "without_wildcards": fans_plain[name] / max(1, plain_wins),
            }
            for name in table.points
        },
        "decides": {name: decides[name] / max(1, wins) for name in table.points},
    }


# -- the command ------------------------------------------------------------------------------------------------


def _count(text: str, what: str, limit: int, minimum: int = 0) -> int:
    try:
        value = int(text)
    except ValueError:
        raise AnalysisError(f"{what} must be a whole number, got {text!r}") from None
    if not minimum <= value <= limit:
        raise AnalysisError(f"{what} must be {minimum}..{limit}, got {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``jantaku analyze jielu-fans``."""
    parser.add_argument("--rules", default="jielu", help="the 洁律 rule set to analyse (preset or file; default jielu)")
    parser.add_argument("--games", default="40", help="games per value table for the bots' wins (default 40)")
    parser.add_argument("--samples", default="2000", help="random complete hands and deals (default 2000)")
    parser.add_argument("--seed", default="0", help="seed of the samples and the first game (default 0)")
    parser.add_argument("--bot", default=None, help="the bot at all four seats (default: the best that plays 洁律)")
    parser.add_argument("--json", action="store_true", help="print the whole analysis as one JSON object")
    parser.add_argument("--out", metavar="FILE", help="write the proposed values as a rule file (TOML) here")


def analyse(rules: Ruleset, samples: int, games: int, seed: int, bot: str) -> dict[str, Any]:
    """The whole analysis as a JSON-ready object (see the module docstring); the same input gives the same
    object, timings apart (``seconds``)."""
    if rules.family != "jielu":
        raise AnalysisError(f"rule set {rules.name!r} is not a 洁律 rule set (family = {rules.family!r})")
    start = time.perf_counter()
    table = table_for_rules(rules)
    complete = complete_hand_frequencies(samples, seed, table)
    wild, wild_wins = wildcard_completion_frequencies(samples, seed, table)
    proposed, k = derive_points(complete, samples, table)
    proposed_rules = rules.replace(jielu_fans=tuple(sorted(proposed.items())))
    current_play = play_effect(rules, games, seed, bot)
    proposed_play = play_effect(proposed_rules, games, seed, bot)
    fans = {}
    for name in table.points:
        fans[name] = {
            "family": table.family[name],
            "current": table.points[name],
            "proposed": proposed[name],
            "kept": proposed[name] == table.points[name] and (table.family[name] in KEPT_FAMILIES or name in KEPT_FANS),
            "complete_hands": complete[name],
            "wildcard_completions": wild[name],
            "bot_wins": {"current": current_play["fans"][name], "proposed": proposed_play["fans"][name]},
            "decides": {"current": current_play["decides"][name], "proposed": proposed_play["decides"][name]},
        }
    return {
        "rules": rules.name,
        "samples": samples,
        "games": games,
        "seed": seed,
        "bot": bot,
        "rule": (
            f"points = clamp(round(K * log2(1 / p)), 1, {table.full}); p = the fan's share of {samples} random "
            f"complete hands (1/{2 * samples} if never seen); K = {k:.4f} keeps {REFERENCE_FAN} at "
            f"{table.points[REFERENCE_FAN]}; incidental and kong fans keep their values"
        ),
        "scale": k,
        "wildcard_deals_that_win": wild_wins,
        "fans": fans,
        "play": {
            "current": {k2: v for k2, v in current_play.items() if k2 not in ("fans", "decides")},
            "proposed": {k2: v for k2, v in proposed_play.items() if k2 not in ("fans", "decides")},
        },
        "proposed_rules": proposed_rules,
        "seconds": time.perf_counter() - start,
    }


def rule_file_text(result: dict[str, Any], rules: Ruleset) -> str:
    """The proposal as a rule file: a preset as ``base`` (with the analysed rule set's own differences from it,
    if it was a file), a name and title, and the ``[jielu_fans]`` table, with comments stating the rule and the
    run that produced it."""
    base = (
        rules.name
        if rules.name in preset_names()
        else ("jielu_original" if rules.jielu_mode == "original" else "jielu")
    )
    extra = []
    for key, _, value in diff_rules(load_rules(base), rules):
        if key in ("name", "title", "jielu_fans"):
            continue
        if isinstance(value, bool):
            extra.append(f"{key} = {'true' if value else 'false'}")
        elif isinstance(value, (int, float)):
            extra.append(f"{key} = {value}")
        elif isinstance(value, str):
            extra.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")
        else:
            raise AnalysisError(f"cannot write parameter {key} of {rules.name!r} into the rule file; analyse a preset")
    play = result["play"]
    lines = [
        "# 洁律麻将: fan values DERIVED FROM DIFFICULTY by `jantaku analyze jielu-fans` (a proposal, not the",
        "# document's lost table). The document: 难度作为番种赋分的参考 (洁律麻将规则设计思路, 番种选取篇).",
        f"# Rule: {result['rule']}.",
        f"# Run: jantaku analyze jielu-fans --rules {result['rules']} --samples {result['samples']} "
        f"--games {result['games']} --seed {result['seed']} --bot {result['bot']}",
        "# Effect on play (the same games under the current and these values, common random numbers):",
    ]
    for which in ("current", "proposed"):
        p = play[which]
        lines.append(
            f"#   {which:8}: {p['wins']} wins in {p['hands']} hands; wins with wildcards "
            f"{p['wins_with_wildcards']:.0%} ({p['mean_wildcards_per_win']:.2f} per win); first win in the first "
            f"go-around {p['first_win_in_first_go_around']:.0%}; mean value S {p['mean_value']:.2f}"
        )
    lines += [
        f'base = "{base}"',
        'name = "jielu-derived-fans"',
        'title = "洁律麻将 with fan values derived from how rare each fan is"',
        *extra,
        "",
        "[jielu_fans]",
    ]
    for family in (*FAMILIES, "combinations"):
        names = [n for n, f in result["fans"].items() if f["family"] == family]
        for n in names:
            f = result["fans"][n]
            note = "kept" if f["kept"] else f"p = {f['complete_hands']:.5f}"
            lines.append(f'"{n}" = {f["proposed"]}    # {family}; now {f["current"]}; {note}')
    return "\n".join(lines) + "\n"


def _report(result: dict[str, Any]) -> str:
    out = [
        f"洁律 fan analysis of {result['rules']}: {result['samples']} complete hands and deals, "
        f"{result['games']} games per table with {result['bot']} bots, seed {result['seed']}",
        f"rule: {result['rule']}",
        "",
        f"{'fan':<6} {'family':<12} {'now':>4} {'new':>4} {'complete':>9} {'wild-deal':>9} "
        f"{'win+wc':>7} {'win-wc':>7} {'decides':>8} {'dec.new':>8}",
    ]
    for name, f in result["fans"].items():
        cur = f["bot_wins"]["current"]
        out.append(
            f"{name:<6} {f['family']:<12} {f['current']:>4} {f['proposed']:>4} {f['complete_hands']:>9.4f} "
            f"{f['wildcard_completions']:>9.4f} {cur['with_wildcards']:>7.3f} {cur['without_wildcards']:>7.3f} "
            f"{f['decides']['current']:>8.3f} {f['decides']['proposed']:>8.3f}"
        )
    out.append("")
    out.append(f"{'play':<34} {'current':>10} {'proposed':>10}")
    rows = (
        ("wins (N)", "wins", "{:.0f}"),
        ("hands (N)", "hands", "{:.0f}"),
        ("wins per hand", "wins_per_hand", "{:.2f}"),
        ("wins using wildcards", "wins_with_wildcards", "{:.1%}"),
        ("wildcards per win", "mean_wildcards_per_win", "{:.2f}"),
        ("first win in the first go-around", "first_win_in_first_go_around", "{:.1%}"),
        ("mean value S of a win", "mean_value", "{:.2f}"),
    )
    for label, key, fmt in rows:
        a, b = result["play"]["current"][key], result["play"]["proposed"][key]
        out.append(f"{label:<34} {fmt.format(a):>10} {fmt.format(b):>10}")
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    """Run the analysis with the options of :func:`add_arguments`; print a report (or JSON); write ``--out``."""
    samples = _count(str(args.samples), "--samples", _MAX_SAMPLES, 1)
    games = _count(str(args.games), "--games", _MAX_GAMES)
    seed = _count(str(args.seed), "--seed", 2**31 - 1)
    bot = args.bot or bot_for_jielu()
    if bot not in _BOTS:
        raise AnalysisError(f"--bot must be one of {', '.join(_BOTS)}, got {bot!r}")
    rules = load_rules(args.rules)
    result = analyse(rules, samples, games, seed, bot)
    if args.out:
        text = rule_file_text(result, rules)
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as e:
            raise AnalysisError(f"cannot write {args.out!r}: {e.strerror or e}") from None
    shown = {k: v for k, v in result.items() if k != "proposed_rules"}
    if args.json:
        print(json.dumps(shown, ensure_ascii=False, indent=1))
    else:
        print(_report(shown))
        if args.out:
            print(f"\nwrote the proposed values to {args.out} (use it with --rules {args.out})")
    return 0
