"""``jantaku analyze jielu-fans``: how 洁律 wins are made in play, how rare each fan is, values derived from that,
and what the rule-maker's options (a cap on wildcards, a higher minimum) would change.

The 洁律麻将 document chose its fans by 规律 and meant "难度作为番种赋分的参考" (difficulty as the reference for a
fan's value, 洁律麻将规则设计思路, 番种选取篇), but its table of values did not survive; the values the engine ships
are the project's proposal. The report leads with what decides play, then measures rarity and derives values:

1. **How wins are made in play** (the first finding): ``--games`` games of the rule set with four bots of the best
   kind that plays 洁律. The share of wins using wildcards, the wildcards per win, the share of wins worth exactly
   the least score a win needs (1 point by the document: 1分起和) and a sentence saying whether the fan values
   change what a win pays at all. A player may declare a win whenever some choice of wildcards reaches the
   minimum; when nearly every win is worth exactly the minimum, the values decide only how many wildcards a hand
   may spend, not the payment.
2. **The rule-maker's options**, side by side on the same games (the same seeds, so the same walls: common random
   numbers): the rules as given, the derived values, and each ``--options`` item (caps on the wildcards a win may
   use, ``jielu_max_wildcards``; higher minimums, ``jielu_min_score``). For each: wins per hand, the draw rate
   (hands nobody wins), the share of wins with wildcards, wildcards per win, the mean value S, the share of wins at
   the minimum, and how often the fans matter (a win worth more than the minimum, so the values change the
   payment; a win some fan *decides*: without its points no allowed choice of wildcards would reach the minimum).
3. **Rarity**, from every source, side by side with the number of observations:

   - *complete hands* (``--samples``): random closed hands of four melds and a pair, built meld by meld, each meld
     (and the pair) drawn with probability proportional to the number of ways to take its tiles from what the
     136-tile wall has left, each read without wildcards (its best reading);
   - *targeted sampling* (``--targeted`` hands per rare fan): the same distribution of complete hands estimated by
     importance sampling, for the fans seen fewer than :data:`RARE` times among the complete hands. The hands are
     drawn from a mixture that leans towards the fan (its tiles, or the melds of one of its instances: each step
     picks, with probability :data:`LEAN`, among the options the target allows) and each hand is weighted by its
     probability under the complete-hand sampler divided by its probability under the mixture (exact, as both
     are products over the five steps): an unbiased estimate with a standard error, for fans the plain sample
     cannot see;
   - *wildcard completions*: random 14-tile deals completed by the optimiser with wildcards (the best
     completion), among the deals that reach 1 point;
   - *bot wins*: the winning hands of the games of the rules as given, with wildcards and without.

   The derivation uses the complete hands (and the targeted estimates for the rare fans): the document asks for
   the difficulty of the pattern itself, which a random complete hand measures. Bot wins measure what the bots
   chase under the current values (almost every win is made with wildcards, at the minimum, so the fans that are
   quickest to complete with wildcards dominate), and their few hundred wins see none of the rare fans.
4. **The rule**: ``points = clamp(round(K * log2(1 / p)), 1, full)``, ``K`` chosen so that 混一色 keeps its current
   value (the shipped proposal's reference: 混一色 about half of 清一色). A fan never seen in ``N`` complete hands
   (and not estimated by targeted sampling) has only an upper bound on its frequency, the exact one-sided 95%
   bound ``1 - 0.05 ** (1 / N)``; the points that bound gives are a *lower* bound, and such a fan keeps
   ``max(current, bound)`` (never a floor below its current value: 字一色 and 四喜 stay at 32), marked as a lower
   bound in the report, the JSON and the rule file. Then the document's order of fans is kept where the data
   leaves it open: a fan above another in the same line (清一色 above 混一色 and 清二色, 三风 above 双风, 四同顺
   above 三同顺 above 同顺, ...: :data:`ORDER`) is worth at least as much. The fans a random complete hand cannot
   show keep their values: the incidental fans (自摸和, 海底和, 杠上和, 天和: circumstances, not patterns) and the
   kong fans (kongs are declared in play). The 32/24 rule (full, cap) is the document's and is kept.

The proposal is written as a rule file (``--out FILE``) that ``--rules`` accepts: ``base`` the analysed rule set,
and a ``[jielu_fans]`` table whose comments say which values are measured and which are lower bounds; the shipped
values stay the default until a person chooses. The games run in ``--workers`` processes, with a progress bar on
a terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import random
import statistics
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from jantaku.errors import JantakuError
from jantaku.hand import Hand
from jantaku.jielu import JieluResult, score_hand
from jantaku.jielu.combos import instances
from jantaku.jielu.fantable import FAMILIES, NO_WILDCARD_CAP, FanTable, table_for_rules
from jantaku.jielu.melds import meld_tiles, tile_mask
from jantaku.jielu.wholehand import content_fans
from jantaku.rules import RulesError, Ruleset, load_rules
from jantaku.rules.loader import diff_rules, preset_names
from jantaku.sim.runner import play_game

__all__ = [
    "LEAN",
    "ORDER",
    "RARE",
    "AnalysisError",
    "Rarity",
    "add_arguments",
    "analyse",
    "bot_for_jielu",
    "complete_hand_counts",
    "complete_hand_frequencies",
    "derive_points",
    "parse_options",
    "play_effect",
    "random_complete_hand",
    "run",
    "targeted_frequency",
    "unseen_upper_bound",
    "wildcard_completion_frequencies",
]

KEPT_FAMILIES = ("incidental",)
"""Families whose fans keep their values: circumstances of the win, not patterns of the hand."""
KEPT_FANS = ("一杠", "二杠", "三杠", "四杠")
"""Fans kept besides: kongs are declared in play, so a random complete hand never shows them."""
REFERENCE_FAN = "混一色"
"""The fan whose current value fixes the scale K (the shipped proposal's reference: 混一色 about half of 清一色)."""
CONFIDENCE = 0.95
"""The confidence of the upper bound on an unseen fan's frequency."""
RARE = 10
"""Fans seen fewer times than this among the complete hands are estimated by targeted sampling too."""
LEAN = 0.8
"""The share of each step of a targeted hand drawn among the options its target allows (the rest as the plain
sampler draws: every hand keeps a weight of at most ``1 / (1 - LEAN) ** 5``)."""
ORDER: tuple[tuple[str, ...], ...] = (
    ("清二色", "清一色"),
    ("混一色", "清一色"),
    ("混一色", "字一色"),
    ("混四数", "混三数", "混二数", "混一数"),
    ("清五数", "清四数", "清三数", "清二数"),
    ("双风", "三风", "四喜"),
    ("单箭", "双箭", "三元"),
    ("同顺", "双同顺"),
    ("同顺", "三同顺", "四同顺"),
    ("逢顺", "双逢顺"),
    ("逢顺", "三逢顺", "四逢顺"),
    ("三连顺", "四连顺"),
    ("三步顺", "四步顺"),
    ("逢刻", "双逢刻"),
    ("逢刻", "三逢刻"),
    ("三连刻", "四连刻"),
    ("三步刻", "四步刻"),
)
"""Lines of fans in the document's order, lower to upper (若采用某一类番种，则向上采用其所有的上位番种: a fan's upper
fans ask more of the hand): a derived value never puts an upper fan below a lower one."""
DEFAULT_OPTIONS = "cap=2,cap=1,min=2,min=4"
"""The rule-maker's options measured by default: caps of 2 and 1 wildcards, minimums of 2 and 4 points."""
_SUITS = "mpsz"
_MAX_SAMPLES = 1_000_000
_MAX_GAMES = 100_000
_MAX_OPTIONS = 8
_MAX_WORKERS = 256
_BOTS = ("random", "efficiency", "strong")
_OPTION_KEYS = {"cap": "jielu_max_wildcards", "min": "jielu_min_score"}


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


def _holds(name: str, hand: Sequence[int], table: FanTable) -> bool:
    """Whether the best reading of the complete hand ``hand`` (34 counts, no wildcards) counts fan ``name``: the
    suit, number and honor fans from the tiles present (the same in every reading), the others by scoring it."""
    if table.family[name] in ("suits", "numbers", "honors"):
        mask = 0
        for k in range(34):
            if hand[k]:
                mask |= tile_mask(k)
        return any(n == name for n, _ in content_fans(mask, table))
    return name in _plain_fans(_hand_text(hand), table)


@cache
def _plain_fans(text: str, table: FanTable) -> frozenset[str]:
    """The fans of a complete hand's best reading without wildcards (no circumstances: no incidental fan)."""
    return frozenset(f.name for f in score_hand(Hand.parse(text), max_wildcards=0, table=table).fans)


def complete_hand_counts(samples: int, seed: int, table: FanTable) -> Counter[str]:
    """How many of ``samples`` random complete hands (:func:`random_complete_hand`) count each fan in their best
    reading without wildcards (incidental fans never count: there are no circumstances)."""
    rng = random.Random(f"jielu-fans:complete:{seed}")
    seen: Counter[str] = Counter()
    for _ in range(samples):
        seen.update(_plain_fans(_hand_text(random_complete_hand(rng)), table))
    return seen


def complete_hand_frequencies(samples: int, seed: int, table: FanTable) -> dict[str, float]:
    """Each fan's share of ``samples`` random complete hands (:func:`complete_hand_counts`)."""
    seen = complete_hand_counts(samples, seed, table)
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


def unseen_upper_bound(samples: int, confidence: float = CONFIDENCE) -> float:
    """The exact one-sided upper confidence bound on a frequency never seen in ``samples`` independent draws:
    ``1 - (1 - confidence) ** (1 / samples)`` (about 3 / samples at 95%).

    >>> round(unseen_upper_bound(2000), 6), round(unseen_upper_bound(20000), 7)
    (0.001497, 0.0001498)
    """
    return 1.0 - (1.0 - confidence) ** (1.0 / samples)


# -- targeted sampling ------------------------------------------------------------------------------------------

_CHOW_STARTS = np.array([k for k in range(27) if k % 9 <= 6], dtype=np.int64)
_MELDS: tuple[tuple[int, int, int], ...] = (
    *((k, k, k) for k in range(34)),
    *((int(k), int(k) + 1, int(k) + 2) for k in _CHOW_STARTS),
)
"""The 55 melds a complete hand is built of: the 34 pungs, then the 21 chows (as tile kinds)."""
_HONORS = frozenset(range(27, 34))
_WINDS = frozenset(range(27, 31))
_DRAGONS = frozenset(range(31, 34))
_ALL_PAIRS = frozenset(range(34))
_ALL_MELDS = frozenset(range(55))
_NUMBER_SETS = {
    "混一数": (1, True),
    "混二数": (2, True),
    "清二数": (2, False),
    "混三数": (3, True),
    "清三数": (3, False),
    "混四数": (4, True),
    "清四数": (4, False),
    "清五数": (5, False),
}

Target = tuple[frozenset[int], frozenset[int]]
"""What a targeted step may pick: pair kinds (0-33) and melds (indexes into :data:`_MELDS`)."""


def _alphabet(kinds: frozenset[int] | set[int]) -> Target:
    """The target of hands made of these tile kinds only: pairs of them, melds all of whose tiles are among them."""
    return frozenset(kinds), frozenset(i for i, m in enumerate(_MELDS) if all(k in kinds for k in m))


def _meld_index(code: int) -> int:
    tiles = meld_tiles(code)[:3]
    return _MELDS.index((tiles[0], tiles[1], tiles[2]))


def _number_sets(n: int) -> list[tuple[int, ...]]:
    """The sets of ``n`` numbers (0-8) a number fan allows: any two (or one), equally spaced from three on."""
    if n == 1:
        return [(a,) for a in range(9)]
    if n == 2:
        return [(a, b) for a in range(9) for b in range(a + 1, 9)]
    return [tuple(a + d * i for i in range(n)) for d in range(1, 9) for a in range(9 - d * (n - 1))]


@cache
def fan_targets(name: str, table: FanTable) -> tuple[Target, ...]:
    """The targets a targeted sampling of fan ``name`` leans towards (empty: the fan is not targeted).

    Tile-set fans lean towards hands of their tiles (字一色 honors, 清一色 one suit, 混二数 two numbers and honors,
    四喜 winds, ...); 对对和 towards pungs; a combination fan towards the melds of one of its instances.

    >>> from jantaku.jielu.fantable import default_fan_table
    >>> t = default_fan_table()
    >>> len(fan_targets("字一色", t)), len(fan_targets("清一色", t)), len(fan_targets("四同顺", t))
    (1, 3, 21)
    >>> fan_targets("平和", t)
    ()
    """
    suits = [frozenset(range(9 * s, 9 * s + 9)) for s in range(3)]
    family = table.family.get(name)
    if name == "字一色":
        return (_alphabet(_HONORS),)
    if name == "清一色":
        return tuple(_alphabet(s) for s in suits)
    if name == "混一色":
        return tuple(_alphabet(s | _HONORS) for s in suits)
    if name == "清二色":
        return tuple(_alphabet(suits[a] | suits[b]) for a in range(3) for b in range(a + 1, 3))
    if name in _NUMBER_SETS:
        n, honors = _NUMBER_SETS[name]
        out = []
        for numbers in _number_sets(n):
            kinds = {9 * s + x for s in range(3) for x in numbers}
            out.append(_alphabet(kinds | _HONORS if honors else kinds))
        return tuple(out)
    if name in ("双风", "三风", "四喜", "单箭", "双箭", "三元"):
        kinds = _WINDS if name in ("双风", "三风", "四喜") else _DRAGONS
        pairs, melds = _alphabet(kinds)
        return ((pairs, melds), (_ALL_PAIRS, melds))
    if name == "对对和":
        return ((_ALL_PAIRS, frozenset(range(34))),)
    if family == "combinations":
        spec = next(c for c in table.combinations if c.name == name)
        return tuple(sorted((_ALL_PAIRS, frozenset(_meld_index(c) for c in inst)) for inst in instances(spec)))
    return ()


@dataclass(frozen=True)
class Rarity:
    """How rare a fan is among complete hands, as the derivation uses it.

    Attributes:
        p: the frequency (an estimate; for an unseen fan the upper bound).
        seen: hands holding the fan in the sample that gave ``p``.
        samples: hands in that sample.
        source: ``complete hands``, ``targeted sampling`` or ``unseen`` (``p`` is then only an upper bound).
        se: the standard error of a targeted estimate (0 otherwise).
    """

    p: float
    seen: int
    samples: int
    source: str
    se: float = 0.0

    @property
    def upper_only(self) -> bool:
        """The fan was never seen: ``p`` is an upper bound, and the points derived from it a lower bound."""
        return self.source == "unseen"


def targeted_frequency(name: str, samples: int, seed: int, table: FanTable, lean: float = LEAN) -> Rarity | None:
    """The frequency of fan ``name`` among complete hands (the distribution of :func:`random_complete_hand`),
    estimated by importance sampling from ``samples`` hands drawn leaning towards the fan (:func:`fan_targets`);
    ``None`` when the fan has no targets.

    Each hand picks one target at random; each of its five steps (the pair, then four melds) picks, with
    probability ``lean``, among the options the target allows (in proportion to their plain weights), else as
    the plain sampler does. Its weight is its plain probability divided by its probability under the whole
    mixture (every target), so the mean of ``weight * [the hand's best reading counts the fan]`` is unbiased;
    the standard error is the sample's.

    >>> from jantaku.jielu.fantable import default_fan_table
    >>> r = targeted_frequency("字一色", 300, 0, default_fan_table())   # exactly 4.06e-9 (tests/test_jielu_fans_lab.py)
    >>> r.source, r.seen > 50, 3e-9 < r.p < 5e-9, r.se < r.p / 5
    ('targeted sampling', True, True, True)
    """
    targets = fan_targets(name, table)
    if not targets or samples < 2:
        return None
    n_t = len(targets)
    pair_m = np.zeros((n_t, 34), dtype=bool)
    meld_m = np.zeros((n_t, 55), dtype=bool)
    for j, (pairs, melds) in enumerate(targets):
        pair_m[j, list(pairs)] = True
        meld_m[j, list(melds)] = True
    rng = random.Random(f"jielu-fans:targeted:{name}:{seed}")
    values: list[float] = []
    hits = 0
    for _ in range(samples):
        j = rng.randrange(n_t)
        left = np.full(34, 4, dtype=np.int64)
        factors = np.ones(n_t)
        hand = [0] * 34
        for step in range(5):
            if step == 0:
                w = left * (left - 1) // 2
                allowed = pair_m
            else:
                pung = left * (left - 1) * (left - 2) // 6
                chow = left[_CHOW_STARTS] * left[_CHOW_STARTS + 1] * left[_CHOW_STARTS + 2]
                w = np.concatenate((pung, chow))
                allowed = meld_m
            total = float(w.sum())
            in_target = allowed @ w  # each target's weight at this step
            mine = w * allowed[j]
            if in_target[j] > 0 and rng.random() < lean:
                pick = rng.choices(range(len(w)), mine.tolist())[0]
            else:
                pick = rng.choices(range(len(w)), w.tolist())[0]
            share = in_target / total
            inside = allowed[:, pick]
            with np.errstate(divide="ignore", invalid="ignore"):
                f = np.where(share > 0, (1 - lean) + lean * inside / np.where(share > 0, share, 1.0), 1.0)
            factors *= f
            kinds = (pick, pick) if step == 0 else _MELDS[pick]
            for k in kinds:
                left[k] -= 1
                hand[k] += 1
        weight = 1.0 / float(factors.mean())
        held = _holds(name, hand, table)
        hits += held
        values.append(weight if held else 0.0)
    p = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(samples)
    return Rarity(p, hits, samples, "targeted sampling", se)


# -- the rule ---------------------------------------------------------------------------------------------------


def rarities(
    counts: Counter[str], samples: int, table: FanTable, targeted: dict[str, Rarity | None] | None = None
) -> dict[str, Rarity]:
    """Each fan's :class:`Rarity`: for a rare fan the targeted estimate when that saw the fan (at least as often as
    the complete hands did); else its share of the complete hands; else (never seen) the upper bound."""
    out: dict[str, Rarity] = {}
    for name in table.points:
        k = counts[name]
        t = (targeted or {}).get(name)
        if t is not None and t.seen and t.seen >= k:
            out[name] = t
        elif k:
            out[name] = Rarity(k / samples, k, samples, "complete hands")
        else:
            out[name] = Rarity(unseen_upper_bound(samples), 0, samples, "unseen")
    return out


def derive_points(rarity: dict[str, Rarity], table: FanTable) -> tuple[dict[str, int], float, dict[str, str]]:
    """The proposed points of every fan, the scale K, and a note per fan on how its value was set.

    ``clamp(round(K * log2(1 / p)), 1, full)``, K making :data:`REFERENCE_FAN` keep its current value; an unseen
    fan (``p`` only an upper bound) keeps ``max(current, that)`` and is noted as a lower bound; then each line of
    :data:`ORDER` is made non-decreasing; the fans of :data:`KEPT_FAMILIES` and :data:`KEPT_FANS` keep theirs.

    >>> from jantaku.jielu.fantable import default_fan_table
    >>> t = default_fan_table()
    >>> r = {n: Rarity(0.5, 1, 2, "complete hands") for n in t.points}
    >>> r |= {"混一色": Rarity(1 / 64, 1, 64, "complete hands"), "清一色": Rarity(1 / 4096, 1, 4096, "complete hands")}
    >>> r |= {"字一色": Rarity(unseen_upper_bound(1000), 0, 1000, "unseen")}
    >>> pts, k, notes = derive_points(r, t)
    >>> k, pts["混一色"], pts["平和"], pts["清一色"], pts["自摸和"], pts["字一色"], notes["字一色"]
    (1.0, 6, 1, 12, 1, 32, 'at least 8 (unseen); kept at 32')
    """
    ref = rarity.get(REFERENCE_FAN)
    if ref is None or ref.upper_only:
        raise AnalysisError(
            f"{REFERENCE_FAN} was never seen in the complete hands: no scale can be derived (raise --samples, or "
            "--targeted to estimate it)"
        )
    if ref.p >= 1:
        raise AnalysisError(f"{REFERENCE_FAN} was in every sampled hand: no scale can be derived")
    k = table.points[REFERENCE_FAN] / math.log2(1 / ref.p)
    out: dict[str, int] = {}
    notes: dict[str, str] = {}
    for name, current in table.points.items():
        if table.family[name] in KEPT_FAMILIES or name in KEPT_FANS:
            out[name] = current
            notes[name] = "kept (not a pattern of a complete hand)"
            continue
        r = rarity[name]
        points = max(1, min(table.full, round(k * math.log2(1 / r.p))))
        if r.upper_only:
            out[name] = max(points, min(current, table.full))
            notes[name] = f"at least {points} (unseen)" + (f"; kept at {current}" if current > points else "")
        else:
            out[name] = points
            notes[name] = "measured" if r.source == "complete hands" else "targeted estimate"
    for line in ORDER:
        for lower, upper in itertools.pairwise(line):
            if lower in out and upper in out and out[upper] < out[lower]:
                out[upper] = out[lower]
                notes[upper] += f"; raised to {out[lower]} (not below {lower}: the document's order)"
    return out, k, notes


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
    """The fans without whose points the winning completion would be worth less than the least score a win needs
    (``table.min_score``)."""
    w = len(result.wildcards)
    out = []
    for f in result.fans:
        others_full = any(g.points >= table.full for g in result.fans if g is not f)
        value = table.full if others_full else min(table.cap, result.total - f.points)
        if value >> w < table.min_score:
            out.append(f.name)
    return out


def _warm(table: FanTable, bot: str) -> None:
    """Load what a game's first check and first bot would load (the compiled check, the table's arrays, the bot's
    module), so that a game's time is its play alone."""
    from jantaku.bots import make_bot
    from jantaku.jielu.wincheck import win_check

    win_check(table)
    make_bot(bot, "warm-up")


def _game_counts(rules: Ruleset, seed: int, bot: str) -> dict[str, Counter[str]]:
    """One game's counts: ``n`` (hands, wins, ...), the fans of wins with and without wildcards, the fans that
    decide a win, and the wildcards and values of the wins (histograms)."""
    table = table_for_rules(rules)
    _warm(table, bot)
    start = time.perf_counter()
    game = play_game(rules, seed, [bot] * 4)
    n: Counter[str] = Counter()
    n["seconds"] = time.perf_counter() - start  # type: ignore[assignment]
    n["games"] = 1
    fans_wild: Counter[str] = Counter()
    fans_plain: Counter[str] = Counter()
    decides: Counter[str] = Counter()
    wildcards: Counter[str] = Counter()
    values: Counter[str] = Counter()
    discards = 0
    first_seen = False
    for e in game.events:
        kind = e["type"]
        if kind == "start_kyoku":
            discards = 0
            first_seen = False
        elif kind == "dahai":
            discards += 1
        elif kind == "hora" and not first_seen:
            first_seen = True
            n["first_go_around"] += discards < 4
    for r in game.results:
        n["hands"] += 1
        n["draws"] += not r.wins
        for w in r.wins:
            sc = w.score
            if not isinstance(sc, JieluResult):  # pragma: no cover - a 洁律 game scores 洁律 results
                continue
            n["wins"] += 1
            n["value"] += sc.score
            n["at_min"] += sc.score == table.min_score
            w_used = len(sc.wildcards)
            wildcards[str(w_used)] += 1
            values[str(sc.score)] += 1
            names = {f.name for f in sc.fans}
            if w_used:
                n["with_wildcards"] += 1
                n["wildcards"] += w_used
                fans_wild.update(names)
            else:
                fans_plain.update(names)
            decided = _decides(sc, table)
            decides.update(decided)
            n["decided"] += bool(decided)
    return {
        "n": n,
        "fans_wild": fans_wild,
        "fans_plain": fans_plain,
        "decides": decides,
        "wildcards": wildcards,
        "values": values,
    }


def _chunk(job: tuple[int, Ruleset, list[int], str]) -> tuple[int, dict[str, Counter[str]]]:
    """Play some games of one variant (the body of a worker's job): its index and the summed counts."""
    index, rules, seeds, bot = job
    total: dict[str, Counter[str]] = {}
    for seed in seeds:
        for key, counts in _game_counts(rules, seed, bot).items():
            total.setdefault(key, Counter()).update(counts)
    return index, total


def _measures(counts: dict[str, Counter[str]], table: FanTable) -> dict[str, Any]:
    """The measures of one variant's summed counts (see :func:`play_effect`)."""
    n = counts.get("n", Counter())
    wins = n["wins"]
    hands = n["hands"]
    plain = wins - n["with_wildcards"]
    fans_wild, fans_plain, decides = (counts.get(k, Counter()) for k in ("fans_wild", "fans_plain", "decides"))
    return {
        "games": int(n["games"]),
        "hands": int(hands),
        "wins": int(wins),
        "min_score": table.min_score,
        "max_wildcards": table.max_wildcards,
        "wins_with_wildcards_n": int(n["with_wildcards"]),
        "wins_without_wildcards_n": int(plain),
        "wins_per_hand": wins / max(1, hands),
        "draw_rate": n["draws"] / max(1, hands),
        "wins_with_wildcards": n["with_wildcards"] / max(1, wins),
        "mean_wildcards_per_win": n["wildcards"] / max(1, wins),
        "mean_value": n["value"] / max(1, wins),
        "wins_at_minimum": n["at_min"] / max(1, wins),
        "wins_above_minimum": (wins - n["at_min"]) / max(1, wins),
        "wins_a_fan_decides": n["decided"] / max(1, wins),
        "first_win_in_first_go_around": n["first_go_around"] / max(1, hands),
        "seconds_per_game": n["seconds"] / max(1, n["games"]),
        "wildcards_per_win": {k: v for k, v in sorted(counts.get("wildcards", Counter()).items(), key=_num)},
        "values": {k: v for k, v in sorted(counts.get("values", Counter()).items(), key=_num)},
        "fans": {
            name: {
                "with_wildcards": {"seen": fans_wild[name], "of": int(n["with_wildcards"])},
                "without_wildcards": {"seen": fans_plain[name], "of": int(plain)},
            }
            for name in table.points
        },
        "decides": {name: decides[name] / max(1, wins) for name in table.points},
    }


def _num(item: tuple[str, int]) -> int:
    return int(item[0])


Progress = Callable[[int, int, float], None]
"""Called as ``progress(games done, games in all, seconds)`` after every chunk of games."""


def play_variants(
    variants: Sequence[Ruleset],
    games: int,
    seed: int,
    bot: str,
    workers: int = 1,
    progress: Progress | None = None,
    pool: Executor | None = None,
) -> list[dict[str, Any]]:
    """Play ``games`` games (seeds ``seed .. seed + games - 1``, the same walls under every variant) with four
    ``bot`` bots under each rule set of ``variants`` and return each one's measures (:func:`play_effect`), in
    ``workers`` processes (1: this one; ``pool``: an executor of that many to use)."""
    size = max(1, min(10, games // max(1, workers * 3)))
    chunks = [list(range(seed + i, seed + min(games, i + size))) for i in range(0, games, size)]
    jobs = [(v, rules, c, bot) for v, rules in enumerate(variants) for c in chunks]
    sums: list[dict[str, Counter[str]]] = [{} for _ in variants]
    done, total, start = 0, games * len(variants), time.perf_counter()
    with _pool(workers, pool) as executor:
        results = executor.map(_chunk, jobs) if executor is not None else map(_chunk, jobs)
        for index, counts in results:
            for key, c in counts.items():
                sums[index].setdefault(key, Counter()).update(c)
            done += int(counts.get("n", Counter())["games"])
            if progress is not None:
                progress(done, total, time.perf_counter() - start)
    return [_measures(s, table_for_rules(v)) for s, v in zip(sums, variants, strict=True)]


@contextlib.contextmanager
def _pool(workers: int, given: Executor | None = None) -> Iterator[Executor | None]:
    """The executor to run jobs in: ``given``, else a pool of ``workers`` processes (started by the fork server,
    :func:`jantaku.sim.pool.process_pool`), else ``None`` (this process)."""
    if given is not None or workers <= 1:
        yield given
        return
    from jantaku.sim.pool import process_pool

    with process_pool(workers) as executor:
        yield executor


def _targeted_job(job: tuple[str, int, int, Ruleset]) -> tuple[str, Rarity | None]:
    """One fan's targeted sampling (the body of a worker's job; the rule set travels, its table is rebuilt)."""
    name, samples, seed, rules = job
    return name, targeted_frequency(name, samples, seed, table_for_rules(rules))


def play_effect(rules: Ruleset, games: int, seed: int, bot: str) -> dict[str, Any]:
    """Play ``games`` games (seeds ``seed .. seed + games - 1``) with four ``bot`` bots and measure the wins.

    Returns the counts (games, hands, wins) and: ``wins_per_hand``, ``draw_rate`` (hands nobody won),
    ``wins_with_wildcards`` (share), ``mean_wildcards_per_win``, ``mean_value`` (S of a win), ``wins_at_minimum``
    (share worth exactly the least score a win needs), ``wins_above_minimum``, ``wins_a_fan_decides`` (share of
    wins some fan decides: without its points no allowed completion would reach the minimum),
    ``first_win_in_first_go_around`` (share of hands whose first win comes before the fourth discard),
    ``seconds_per_game``, the histograms ``wildcards_per_win`` and ``values``, ``fans`` (how many wins with and
    without wildcards count each fan, of how many) and ``decides`` (share of wins each fan decides)."""
    return play_variants([rules], games, seed, bot)[0]


# -- the options ------------------------------------------------------------------------------------------------


def parse_options(text: str, rules: Ruleset) -> list[tuple[str, Ruleset]]:
    """The rule-maker's options of ``--options``: items separated by commas, each ``cap=N`` (at most N wildcards
    in a win, ``jielu_max_wildcards``) or ``min=N`` (a win needs N points, ``jielu_min_score``), or several joined
    by ``+`` (``cap=2+min=2``); ``none`` for no option. Returns (name, rule set) pairs.

    >>> from jantaku.rules import load_rules
    >>> [(n, r.jielu_max_wildcards, r.jielu_min_score) for n, r in parse_options("cap=2, min=4", load_rules("jielu"))]
    [('cap=2', 2, 1), ('min=4', 14, 4)]
    >>> parse_options("cap=2+min=2", load_rules("jielu"))[0][0], parse_options("none", load_rules("jielu"))
    ('cap=2+min=2', [])
    >>> parse_options("wild=2", load_rules("jielu"))
    Traceback (most recent call last):
    ...
    jantaku.lab.jielu_fans.AnalysisError: --options: 'wild=2' is not cap=N or min=N (items separated by commas)
    """
    text = text.strip()
    if text in ("", "none"):
        return []
    out: list[tuple[str, Ruleset]] = []
    for item in text.split(","):
        item = item.strip()
        changes: dict[str, int] = {}
        for part in item.split("+"):
            key, sep, value = part.strip().partition("=")
            if not sep or key.strip() not in _OPTION_KEYS:
                raise AnalysisError(f"--options: {part.strip()!r} is not cap=N or min=N (items separated by commas)")
            try:
                number = int(value.strip())
            except ValueError:
                raise AnalysisError(f"--options: {part.strip()!r}: N must be a whole number") from None
            changes[_OPTION_KEYS[key.strip()]] = number
        try:
            variant = rules.replace(**changes)
        except RulesError as e:
            raise AnalysisError(f"--options: {item!r}: {e}") from None
        name = "+".join(f"{k}={changes[p]}" for k, p in _OPTION_KEYS.items() if p in changes)
        out.append((name, variant))
    if len(out) > _MAX_OPTIONS:
        raise AnalysisError(f"--options: at most {_MAX_OPTIONS} options, got {len(out)}")
    return out


def _rule_text(rules: Ruleset) -> str:
    cap = rules.jielu_max_wildcards
    caps = "no cap" if cap >= NO_WILDCARD_CAP else f"at most {cap} wildcard{'s' if cap != 1 else ''}"
    return f"{caps}, a win needs {rules.jielu_min_score} point{'s' if rules.jielu_min_score != 1 else ''}"


def _play_finding(play: dict[str, Any]) -> str:
    """The first finding in words: whether the fan values change what a win pays under these rules."""
    wins = play["wins"]
    if not wins:
        return "No bot won a hand: play more games (--games) to see how wins are made."
    least = play["min_score"]
    unit = "point" if least == 1 else "points"
    how = (
        f"{play['wins_with_wildcards']:.0%} of the {wins} wins used wildcards ({play['mean_wildcards_per_win']:.2f} "
        f"per win) and {play['wins_at_minimum']:.0%} were worth exactly the minimum a win needs ({least} {unit}); "
        f"the mean win is worth {play['mean_value']:.2f}."
    )
    if play["wins_at_minimum"] >= 0.9:
        return (
            f"The fan values hardly change what a win pays under these rules: {how} A player may declare a win as "
            "soon as some choice of wildcards reaches the minimum, so the values decide how many wildcards a hand "
            f"may spend (a fan decides {play['wins_a_fan_decides']:.0%} of the wins), not the payment."
        )
    if play["wins_at_minimum"] >= 0.6:
        return f"The fan values change what a win pays in a minority of wins: {how}"
    return f"The fan values change what most wins pay: {how}"


def _options_finding(rows: list[dict[str, Any]]) -> str:
    """Which measured option makes the fans matter most, and what it costs in wins and draws."""
    base = rows[0]
    others = [r for r in rows[1:] if r["name"] != "derived values" and r["wins"]]
    if not others or not base["wins"]:
        return ""
    best = max(others, key=lambda r: (r["wins_above_minimum"], -r["draw_rate"]))
    return (
        f"Of the options measured, {best['name']} makes the values matter most: {best['wins_above_minimum']:.0%} of "
        f"its wins are worth more than the minimum (now {base['wins_above_minimum']:.0%}), the mean win "
        f"{best['mean_value']:.2f} (now {base['mean_value']:.2f}), {best['mean_wildcards_per_win']:.2f} wildcards "
        f"per win (now {base['mean_wildcards_per_win']:.2f}); wins per hand {best['wins_per_hand']:.2f} (now "
        f"{base['wins_per_hand']:.2f}), hands nobody wins {best['draw_rate']:.0%} (now {base['draw_rate']:.0%})."
    )


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
    parser.add_argument("--games", default="40", help="games per variant (rules, options) for the bots (default 40)")
    parser.add_argument("--samples", default="2000", help="random complete hands and deals (default 2000)")
    parser.add_argument(
        "--targeted",
        default="1000",
        help=f"hands of targeted sampling per fan seen fewer than {RARE} times among the complete hands "
        "(default 1000; 0: none)",
    )
    parser.add_argument(
        "--options",
        default=DEFAULT_OPTIONS,
        help="the rule-maker's options to measure beside the rules: cap=N (at most N wildcards in a win), "
        f"min=N (a win needs N points), joined by + to combine, separated by commas (default {DEFAULT_OPTIONS}; "
        "none: only the rules and the derived values)",
    )
    parser.add_argument("--seed", default="0", help="seed of the samples and the first game (default 0)")
    parser.add_argument("--bot", default=None, help="the bot at all four seats (default: the best that plays 洁律)")
    parser.add_argument(
        "--workers",
        default=None,
        help="processes to play in (default: one per CPU when there are 40 games or more in all, else this one)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the whole analysis as one JSON object")
    parser.add_argument("--out", metavar="FILE", help="write the proposed values as a rule file (TOML) here")


def analyse(
    rules: Ruleset,
    samples: int,
    games: int,
    seed: int,
    bot: str,
    options: Sequence[tuple[str, Ruleset]] = (),
    targeted: int = 0,
    workers: int = 1,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The whole analysis as a JSON-ready object (see the module docstring); the same input gives the same
    object, timings apart (``seconds``, ``timing`` and each variant's ``seconds_per_game``)."""
    if rules.family != "jielu":
        raise AnalysisError(f"rule set {rules.name!r} is not a 洁律 rule set (family = {rules.family!r})")
    start = time.perf_counter()
    table = table_for_rules(rules)
    counts = complete_hand_counts(samples, seed, table)
    wild, wild_wins = wildcard_completion_frequencies(samples, seed, table)
    rare = [
        name
        for name in table.points
        if counts[name] < RARE and table.family[name] not in KEPT_FAMILIES and name not in KEPT_FANS
    ]
    with _pool(workers) as pool:
        aimed: dict[str, Rarity | None] = {}
        if targeted:
            jobs = [(name, targeted, seed, rules) for name in rare if fan_targets(name, table)]
            aimed = dict(pool.map(_targeted_job, jobs) if pool is not None else map(_targeted_job, jobs))
        rarity = rarities(counts, samples, table, aimed)
        proposed, k, notes = derive_points(rarity, table)
        proposed_rules = rules.replace(jielu_fans=tuple(sorted(proposed.items())))
        variants = [("rules", rules), ("derived values", proposed_rules), *options]
        played = play_variants([v for _, v in variants], games, seed, bot, workers, progress, pool)
    current = played[0]
    rows = []
    for (name, variant), play in zip(variants, played, strict=True):
        changes = {key: value for key, _, value in diff_rules(rules, variant) if key != "jielu_fans"}
        rows.append({"name": name, "changes": changes, "rule": _rule_text(variant)} | _summary(play))
    fans = {}
    for name in table.points:
        r = rarity[name]
        aim = aimed.get(name)
        bot_fans = current["fans"][name]
        kept = name in KEPT_FANS or table.family[name] in KEPT_FAMILIES
        fans[name] = {
            "family": table.family[name],
            "current": table.points[name],
            "proposed": proposed[name],
            "lower_bound": r.upper_only and not kept,
            "kept": kept,
            "note": notes[name],
            "used": asdict(r) | {"upper_only": r.upper_only},
            "complete_hands": {
                "seen": counts[name],
                "of": samples,
                "p": counts[name] / samples,
                "upper_95": unseen_upper_bound(samples) if not counts[name] else None,
            },
            "targeted": None if aim is None else {"seen": aim.seen, "of": aim.samples, "p": aim.p, "se": aim.se},
            "wildcard_completions": {"seen": round(wild[name] * wild_wins), "of": wild_wins, "p": wild[name]},
            "bot_wins": {
                which: {**bot_fans[which], "p": bot_fans[which]["seen"] / max(1, bot_fans[which]["of"])}
                for which in ("with_wildcards", "without_wildcards")
            },
            "decides": {row["name"]: play["decides"][name] for row, play in zip(rows, played, strict=True)},
        }
    how = {"rules": rules.name, "rule": _rule_text(rules)} | _summary(current)
    how["finding"] = _play_finding(current)
    timed = sum(p["games"] for p in played)
    return {
        "how_wins_are_made": how,
        "options": rows,
        "options_finding": _options_finding(rows),
        "rules": rules.name,
        "samples": samples,
        "targeted": targeted,
        "games": games,
        "seed": seed,
        "bot": bot,
        "timing": {
            "seconds_per_game": sum(p["seconds_per_game"] * p["games"] for p in played) / max(1, timed),
            "games": timed,
            "bot": bot,
            "workers": workers,
        },
        "rarity_sources": {
            "complete_hands": samples,
            "targeted_per_rare_fan": targeted,
            "wildcard_deals_that_win": wild_wins,
            "wildcard_deals": samples,
            "bot_wins_with_wildcards": current["wins_with_wildcards_n"],
            "bot_wins_without_wildcards": current["wins_without_wildcards_n"],
            "derivation_uses": "complete hands (targeted estimates for the rare fans)",
            "why": (
                "the document values a fan by its difficulty, which a random complete hand measures; bot wins "
                "measure what bots chase under the current values (nearly every win uses wildcards and stops at "
                "the minimum) and are too few to see the rare fans"
            ),
        },
        "rule": (
            f"points = clamp(round(K * log2(1 / p)), 1, {table.full}); p = the fan's share of {samples} random "
            f"complete hands (fans seen fewer than {RARE} times: targeted sampling of {targeted} hands, when it "
            f"sees them); a fan never seen has p < 1 - 0.05^(1/{samples}) = {unseen_upper_bound(samples):.6f} "
            f"(95%), so its points are a lower bound and it keeps max(current, bound); K = {k:.4f} keeps "
            f"{REFERENCE_FAN} at {table.points[REFERENCE_FAN]}; upper fans stay at least their lower fans; "
            "incidental and kong fans keep their values"
        ),
        "scale": k,
        "fans": fans,
        "proposed_rules": proposed_rules,
        "seconds": time.perf_counter() - start,
    }


_SUMMARY_KEYS = (
    "games",
    "hands",
    "wins",
    "min_score",
    "max_wildcards",
    "wins_per_hand",
    "draw_rate",
    "wins_with_wildcards",
    "wins_with_wildcards_n",
    "wins_without_wildcards_n",
    "mean_wildcards_per_win",
    "mean_value",
    "wins_at_minimum",
    "wins_above_minimum",
    "wins_a_fan_decides",
    "first_win_in_first_go_around",
    "seconds_per_game",
    "wildcards_per_win",
    "values",
)


def _summary(play: dict[str, Any]) -> dict[str, Any]:
    return {key: play[key] for key in _SUMMARY_KEYS}


def _pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` columns of a terminal (a CJK character takes two)."""
    used = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(0, width - used)


def _frequency(seen: int, of: int) -> str:
    return f"{seen / of:.5f} ({seen}/{of})" if of else "-"


def _p_text(fan: dict[str, Any]) -> str:
    """The frequency the derivation used, in words (with its source)."""
    used = fan["used"]
    if used["upper_only"]:
        return f"unseen in {used['samples']} complete hands: p < {used['p']:.2e} (95%)"
    if used["source"] == "targeted sampling":
        return f"p = {used['p']:.2e} +- {used['se']:.1e} (targeted, {used['seen']} of {used['samples']} hands)"
    return f"p = {used['p']:.5f} ({used['seen']} of {used['samples']} complete hands)"


def rule_file_text(result: dict[str, Any], rules: Ruleset) -> str:
    """The proposal as a rule file: a preset as ``base`` (with the analysed rule set's own differences from it,
    if it was a file), a name and title, and the ``[jielu_fans]`` table, with comments stating the rule, the run,
    what decides play, and for each fan whether its value is measured or only a lower bound."""
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
    how = result["how_wins_are_made"]
    lower = [n for n, f in result["fans"].items() if f["lower_bound"]]
    lines = [
        "# 洁律麻将: fan values DERIVED FROM DIFFICULTY by `jantaku analyze jielu-fans` (a proposal, not the",
        "# document's lost table). The document: 难度作为番种赋分的参考 (洁律麻将规则设计思路, 番种选取篇).",
        f"# Run: jantaku analyze jielu-fans --rules {result['rules']} --samples {result['samples']} "
        f"--targeted {result['targeted']} --games {result['games']} --seed {result['seed']} --bot {result['bot']}",
        "# What decides play first (the rules as analysed, bots' wins):",
        *_wrap(how["finding"], "#   "),
        *_wrap(f"Rule: {result['rule']}.", "# "),
        "# LOWER BOUNDS: a fan never seen in the sample has only an upper bound on its frequency, so its derived",
        "# points are only a lower bound ('at least N' below) and it keeps max(current, N): "
        + (", ".join(lower) if lower else "none in this run")
        + ".",
        "# Effect on play (the same games under each variant, common random numbers):",
    ]
    for row in result["options"]:
        lines += _wrap(
            f"{row['name']} ({row['rule']}): {row['wins_per_hand']:.2f} wins per hand, {row['draw_rate']:.0%} hands "
            f"without a win, wins with wildcards {row['wins_with_wildcards']:.0%} ({row['mean_wildcards_per_win']:.2f} "
            f"per win), mean value S {row['mean_value']:.2f}, at the minimum {row['wins_at_minimum']:.0%}",
            "#   ",
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
        for n, f in result["fans"].items():
            if f["family"] != family:
                continue
            what = f["note"] if f["kept"] else f"{f['note']}; {_p_text(f)}"
            lines.append(f'"{n}" = {f["proposed"]}    # {family}; now {f["current"]}; {what}')
    return "\n".join(lines) + "\n"


def _wrap(text: str, prefix: str, width: int = 116) -> list[str]:
    out: list[str] = []
    line = ""
    for word in text.split():
        if line and len(prefix) + len(line) + 1 + len(word) > width:
            out.append(prefix + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        out.append(prefix + line)
    return out


_OPTION_ROWS = (
    ("games (N)", "games", "{:.0f}"),
    ("hands (N)", "hands", "{:.0f}"),
    ("wins (N)", "wins", "{:.0f}"),
    ("wins per hand", "wins_per_hand", "{:.2f}"),
    ("hands nobody wins", "draw_rate", "{:.1%}"),
    ("wins using wildcards", "wins_with_wildcards", "{:.1%}"),
    ("wildcards per win", "mean_wildcards_per_win", "{:.2f}"),
    ("mean value S of a win", "mean_value", "{:.2f}"),
    ("wins at the minimum", "wins_at_minimum", "{:.1%}"),
    ("wins above the minimum", "wins_above_minimum", "{:.1%}"),
    ("wins a fan decides", "wins_a_fan_decides", "{:.1%}"),
    ("first win before 4th discard", "first_win_in_first_go_around", "{:.1%}"),
    ("seconds per game", "seconds_per_game", "{:.3f}"),
)


def _report(result: dict[str, Any]) -> str:
    how = result["how_wins_are_made"]
    timing = result["timing"]
    out = [
        f"洁律 fan analysis of {result['rules']} ({how['rule']}): {result['games']} games per variant with "
        f"{result['bot']} bots, {result['samples']} complete hands and deals, seed {result['seed']}",
        "",
        f"1. How wins are made in play ({how['wins']} wins in {how['hands']} hands):",
        *_wrap(how["finding"], "   "),
        "",
        "2. The rule-maker's options, on the same games (common random numbers):",
    ]
    rows = result["options"]
    width = max(12, *(len(r["name"]) + 1 for r in rows))
    out.append(f"   {'':<30}" + "".join(f"{r['name']:>{width}}" for r in rows))
    for label, key, fmt in _OPTION_ROWS:
        out.append(f"   {label:<30}" + "".join(f"{fmt.format(r[key]):>{width}}" for r in rows))
    if result["options_finding"]:
        out += _wrap(result["options_finding"], "   ")
    out.append(
        f"   One game with four {timing['bot']} bots takes {timing['seconds_per_game']:.3f} s of one process "
        f"(mean of {timing['games']} games; {timing['workers']} worker process{'es' if timing['workers'] > 1 else ''})."
    )
    src = result["rarity_sources"]
    out += [
        "",
        "3. How rare each fan is, side by side: complete hands (the derivation's source: "
        f"{src['complete_hands']}), targeted sampling ({src['targeted_per_rare_fan']} hands per fan seen fewer "
        f"than {RARE} times), wildcard completions ({src['wildcard_deals_that_win']} of {src['wildcard_deals']} "
        f"deals win), bot wins with wildcards ({src['bot_wins_with_wildcards']}) and without "
        f"({src['bot_wins_without_wildcards']}).",
        *_wrap(f"The derivation uses {src['derivation_uses']}: {src['why']}.", "   "),
        "",
        f"   {'fan':<6} {'family':<12} {'now':>4} {'new':>5}  {'complete hands':<24} {'targeted':<22} "
        f"{'wild-deal':>9} {'win+wc':>14} {'win-wc':>12} {'decides':>8}",
    ]
    for name, f in result["fans"].items():
        c = f["complete_hands"]
        complete = _frequency(c["seen"], c["of"]) if c["seen"] else f"< {c['upper_95']:.2e} (0/{c['of']})"
        if f["kept"]:
            complete = "- (kept: not a pattern)"
        t = f["targeted"]
        aimed = f"{t['p']:.2e}+-{t['se']:.0e} ({t['seen']})" if t else ""
        bw = f["bot_wins"]
        new = f"{'>=' if f['lower_bound'] else ''}{f['proposed']}"
        out.append(
            f"   {_pad(name, 6)} {f['family']:<12} {f['current']:>4} {new:>5}  {complete:<24} {aimed:<22} "
            f"{f['wildcard_completions']['p']:>9.4f} "
            f"{bw['with_wildcards']['seen']:>5}/{bw['with_wildcards']['of']:<8} "
            f"{bw['without_wildcards']['seen']:>4}/{bw['without_wildcards']['of']:<7} "
            f"{f['decides']['rules']:>8.3f}"
        )
    out += [
        "   (>=N: never seen, so the points are a lower bound; the fan keeps max(current, N))",
        "",
        "4. The derived values:",
        *_wrap(f"rule: {result['rule']}.", "   "),
    ]
    return "\n".join(out)


def _workers(text: str | None, total_games: int) -> int:
    if text is None:
        if total_games < 40:
            return 1
        from jantaku.sim.pool import available_cpus

        return available_cpus()
    return _count(str(text), "--workers", _MAX_WORKERS, 1)


def run(args: argparse.Namespace) -> int:
    """Run the analysis with the options of :func:`add_arguments`; print a report (or JSON); write ``--out``."""
    samples = _count(str(args.samples), "--samples", _MAX_SAMPLES, 1)
    games = _count(str(args.games), "--games", _MAX_GAMES)
    targeted = _count(str(getattr(args, "targeted", 0)), "--targeted", _MAX_SAMPLES)
    seed = _count(str(args.seed), "--seed", 2**31 - 1)
    bot = args.bot or bot_for_jielu()
    if bot not in _BOTS:
        raise AnalysisError(f"--bot must be one of {', '.join(_BOTS)}, got {bot!r}")
    rules = load_rules(args.rules)
    if rules.family != "jielu":
        raise AnalysisError(f"rule set {rules.name!r} is not a 洁律 rule set (family = {rules.family!r})")
    options = parse_options(str(getattr(args, "options", DEFAULT_OPTIONS)), rules)
    workers = _workers(getattr(args, "workers", None), games * (2 + len(options)))
    bar = None
    if not getattr(args, "quiet", False) and sys.stderr.isatty() and games:
        from jantaku.sim.progress import ProgressBar

        bar = ProgressBar()
    result = analyse(rules, samples, games, seed, bot, options, targeted, workers, bar)
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
