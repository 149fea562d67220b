"""Comparing a rule set with the reference on the same games: paired differences, p-values and Holm's correction.

Each measure's difference (:func:`jantaku.lab.measures.difference`: this rule set minus the reference, with the
paired jackknife standard error over the games played on the same walls) gets a two-sided p-value from
``z = difference / SE`` under the normal distribution. The p-values of one comparison - every measure with a
defined difference - are one family, adjusted by Holm's method (:func:`jantaku.lab.stats.holm`); a difference
is *flagged* only when its adjusted p-value is below 0.05, so the chance that a comparison flags any measure the
rule does not change is at most 5%, however many measures are shown.

With few games the normal approximation overstates certainty (the jackknife's error is itself uncertain), so
a p-value is never below ``2^(1 - games)``: the p-value of a sign test in which every game moved the measure
the same way, the smallest that any test on that many paired games can give without assuming a distribution.
``games`` counts the games that bear on the measure (something in a column it reads, under either rule set):
every game for a win rate, only the games with such a win for a rare yaku's han, so a rule that moves a rare yaku's
han alike in its ten games is not called certain by the thousand games around them. From about 30 such games
on this floor is far below anything Holm's correction needs; below 13 no difference can be flagged in a family
of 60 measures. Two edge cases: a difference of zero with a standard
error of zero (every game the same under both rule sets, e.g. a rate that no game ever saw) has p = 1; a
nonzero difference with a standard error of zero (every game moved the measure alike) has the floor. Where
the error is undefined (fewer than two games in which the measure is defined under both) there is no
p-value and the measure is not in the family.

>>> from jantaku.lab.measures import Difference
>>> d = {"a": Difference(0.08, (0.07, 0.09), 0.005, 100), "b": Difference(0.01, (-0.02, 0.04), 0.015, 100),
...      "same": Difference(0.0, (0.0, 0.0), 0.0, 100)}
>>> c = adjust(Comparison("kiriage=true", "kiriage=false", d))
>>> c.tested, c.flagged, round(c.differences["b"].p, 3), round(c.differences["b"].p_holm, 3)
(3, ['a'], 0.505, 1.0)
>>> c.differences["same"].p, c.differences["same"].flagged
(1.0, False)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .measures import ZERO, Difference, Measure, difference
from .stats import ALPHA, holm, sign_test_p, two_sided_p

__all__ = ["CORRECTION", "Comparison", "adjust", "compare", "p_value"]

CORRECTION = "holm"
"""The multiple-comparison correction applied to each comparison's p-values."""


@dataclass
class Comparison:
    """One rule set against the reference: ``differences`` (measure -> :class:`Difference`, with ``p``,
    ``p_holm`` and ``flagged`` set by :func:`adjust`)."""

    rule_set: str
    reference: str
    differences: dict[str, Difference] = field(default_factory=dict)
    alpha: float = ALPHA
    correction: str = CORRECTION

    @property
    def tested(self) -> int:
        """The size of the family: the measures whose difference has a p-value."""
        return sum(1 for d in self.differences.values() if d.p is not None)

    @property
    def flagged(self) -> list[str]:
        """The measures whose difference is flagged (Holm-adjusted p below ``alpha``), in the measures' order."""
        return [k for k, d in self.differences.items() if d.flagged]


def p_value(d: Difference) -> float | None:
    """The two-sided p-value of a paired difference, never below ``2^(1 - games)`` (see the module's text).

    >>> round(p_value(Difference(0.0196, (0.0, 0.0392), 0.01, 50)), 4)     # z = 1.96
    0.05
    >>> p_value(Difference(0.5, (0.5, 0.5), 0.0, 12)), 2.0 ** -11   # all 12 games moved alike: a sign test
    (0.00048828125, 0.00048828125)
    >>> p_value(Difference(0.5, (0.4, 0.6), 0.05, 12)), f"{p_value(Difference(0.5, (0.4, 0.6), 0.05, 100)):.3g}"
    (0.00048828125, '1.52e-23')
    """
    if not math.isfinite(d.se):
        return None
    if d.unchanged:
        return 1.0
    floor = sign_test_p(d.games)
    if d.se <= ZERO * d.scale:
        return floor
    return max(floor, two_sided_p(d.mean / d.se))


def adjust(comparison: Comparison) -> Comparison:
    """``comparison`` with every difference's p-value, Holm-adjusted p-value and flag set (in place)."""
    names = [k for k, d in comparison.differences.items() if p_value(d) is not None]
    ps = [p_value(comparison.differences[k]) or 0.0 for k in names]
    adjusted = dict(zip(names, holm(ps), strict=True))
    for k, d in comparison.differences.items():
        p = p_value(d)
        q = adjusted.get(k)
        comparison.differences[k] = dataclasses.replace(
            d, p=p, p_holm=q, flagged=q is not None and q < comparison.alpha
        )
    return comparison


def compare(
    name: str,
    cols: Mapping[str, np.ndarray],
    reference: str,
    reference_cols: Mapping[str, np.ndarray],
    measures: Sequence[Measure],
) -> Comparison:
    """The comparison of rule set ``name`` (its games' columns ``cols``) with ``reference`` on every measure of
    ``measures`` defined under both."""
    diffs = {}
    for m in measures:
        d = difference(m, cols, reference_cols)
        if d is not None:
            diffs[m.name] = d
    return adjust(Comparison(name, reference, diffs))
