"""The random draws a game makes thousands of times, without the layers of :mod:`random`'s pure-Python methods.

:func:`shuffle` and :func:`choice` return exactly what ``rng.shuffle(x)`` and ``rng.choice(seq)`` return for
a :class:`random.Random` and leave it in the same state: they draw the same ``getrandbits`` calls in the same
order (the standard library's ``_randbelow_with_getrandbits``), only without one Python call per draw. At import
they are checked against the running Python's own methods; if a Python version ever drew differently they
fall back to those methods, so a seed gives the same game on every version either way.

>>> import random
>>> a, b = random.Random(7), random.Random(7)
>>> x, y = list(range(20)), list(range(20))
>>> a.shuffle(x); shuffle(b, y)
>>> x == y, a.choice(x) == choice(b, y), a.getstate() == b.getstate()
(True, True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

__all__ = ["choice", "shuffle"]

T = TypeVar("T")

_BITS = tuple(n.bit_length() for n in range(257))
"""``n.bit_length()`` for the sizes a game draws from (a hand, a list of legal actions, the wall)."""


def _shuffle_inline(rng: random.Random, x: list[T]) -> None:
    getrandbits = rng.getrandbits
    bits = _BITS
    for i in reversed(range(1, len(x))):
        n = i + 1
        k = bits[n] if n < 257 else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _choice_inline(rng: random.Random, seq: Sequence[T]) -> T:
    n = len(seq)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    k = _BITS[n] if n < 257 else n.bit_length()
    getrandbits = rng.getrandbits
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return seq[r]


def _stdlib_shuffle(rng: random.Random, x: list[T]) -> None:
    rng.shuffle(x)


def _stdlib_choice(rng: random.Random, seq: Sequence[T]) -> T:
    return rng.choice(seq)


def _draws_like_stdlib() -> bool:
    """Whether the inlined draws give the running Python's results (shuffles of several sizes, choices from
    sequences of 1 to 149 items, and the generator's state after them)."""
    for seed in (0, "0:1"):
        a, b = random.Random(seed), random.Random(seed)
        for size in (2, 3, 14, 136, 300):
            x, y = list(range(size)), list(range(size))
            a.shuffle(x)
            _shuffle_inline(b, y)
            if x != y:
                return False
        for size in range(1, 150):
            items = list(range(size))
            if a.choice(items) != _choice_inline(b, items):
                return False
        if a.getstate() != b.getstate():
            return False
    return True


if _draws_like_stdlib():
    shuffle = _shuffle_inline
    choice = _choice_inline
else:  # pragma: no cover - a Python whose random module draws otherwise
    shuffle = _stdlib_shuffle
    choice = _stdlib_choice
