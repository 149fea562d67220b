"""The statistics of the rule lab, in plain Python: intervals for rates, p-values and Holm's correction.

- :func:`wilson`: the Wilson score interval of a proportion, and :func:`effective_n`: the sample size that
  gives a binomial proportion the variance the jackknife measured (so hands clustered in games widen the
  interval instead of being counted as independent);
- :func:`zero_upper`: the exact one-sided 95% upper bound of a rate whose event was never seen in ``n`` chances;
- :func:`two_sided_p`: the two-sided normal p-value of ``z`` (with :func:`math.erfc`; no scipy);
- :func:`holm`: Holm's step-down adjustment of a family of p-values (it controls the chance of any false
  finding in the family at the level chosen, whatever the dependence between the tests).

>>> [round(x, 4) for x in wilson(0.2, 100)]   # 20 events in 100 chances
[0.1334, 0.2888]
>>> round(zero_upper(100), 4)                 # never seen in 100 chances: the rate is below 2.95%
0.0295
>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["ALPHA", "Z95", "effective_n", "holm", "sign_test_p", "two_sided_p", "wilson", "zero_upper"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""
ALPHA = 0.05
"""The level of the tests (a difference is flagged when its Holm-adjusted p-value is below it)."""


def wilson(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``p`` observed in ``n`` chances (``n`` may be an effective,
    non-integer size). It stays inside [0, 1] and is not degenerate at 0 or 1.

    >>> wilson(0.0, 10)[0], round(wilson(0.0, 10)[1], 4)
    (0.0, 0.2775)
    >>> [round(x, 4) for x in wilson(1.0, 12)]
    [0.7575, 1.0]
    """
    if not n > 0:
        return (0.0, 1.0)
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    return (max(0.0, centre - half), min(1.0, centre + half))


def effective_n(p: float, se: float, chances: float) -> float:
    """The effective number of chances of a rate ``p`` whose standard error (the jackknife's, over games) is
    ``se``: ``p(1 - p) / se²``, the size of an independent sample with that error, at most ``chances`` (hands
    of one game that go together have fewer; a rate whose chances hinder each other would have more, and is
    given no more than it had). Where ``se`` is 0 or undefined, or ``p`` is 0 or 1, it is ``chances``.

    >>> round(effective_n(0.25, 0.05, 1000), 6)   # 0.1875 / 0.0025: 75 independent chances' worth
    75.0
    >>> effective_n(0.25, 0.001, 1000), effective_n(0.25, 0.0, 1000), effective_n(1.0, 0.0, 12)
    (1000, 1000, 12)
    """
    if not (math.isfinite(se) and se > 0) or not 0 < p < 1:
        return chances
    return min(chances, p * (1 - p) / (se * se))


def zero_upper(n: float, alpha: float = ALPHA) -> float:
    """The exact one-sided ``1 - alpha`` upper bound of a rate never observed in ``n`` chances: the rate ``x``
    at which seeing nothing has probability ``alpha``, ``(1 - x)^n = alpha``, so ``x = 1 - alpha^(1/n)``
    (about ``3/n``: "the rule of three").

    >>> round(zero_upper(1), 2), round(zero_upper(8), 4), round(3 / 1000, 4), round(zero_upper(1000), 4)
    (0.95, 0.3123, 0.003, 0.003)
    """
    if not n > 0:
        return 1.0
    return 1.0 - alpha ** (1.0 / n)


def two_sided_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic ``z``: ``P(|Z| >= |z|) = erfc(|z| / √2)``.

    >>> round(two_sided_p(1.959963984540054), 6), two_sided_p(0.0), round(two_sided_p(-3.0), 5)
    (0.05, 1.0, 0.0027)
    """
    return math.erfc(abs(z) / math.sqrt(2))


def sign_test_p(n: int) -> float:
    """The two-sided p-value of a sign test in which all ``n`` paired games moved the same way: ``2^(1 - n)``
    (the smallest p-value a test that only looks at the games' directions can give).

    >>> sign_test_p(2), sign_test_p(11)
    (0.5, 0.0009765625)
    """
    return min(1.0, 2.0 ** (1 - n)) if n >= 1 else 1.0


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: sort ascending, multiply the ``i``-th smallest
    (from 0) by ``m - i``, carry the running maximum, cap at 1. Rejecting where the adjusted p-value is below
    ``alpha`` keeps the chance of one or more false rejections in the family at most ``alpha``.

    >>> holm([0.5, 0.001, 0.02, 0.02])
    [0.5, 0.004, 0.06, 0.06]
    >>> holm([])
    []
    """
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out
