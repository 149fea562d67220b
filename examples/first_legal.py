"""A Python policy for `jantaku evaluate` (and any seat a bot name fills: `py:examples/first_legal.py:act`):
it plays the first legal action it is offered - a discard of its first tile, a pass on every call. Write your
own the same way: a function ``act(view, legal)`` returning one of ``legal``, or a class taking a seed whose
objects have that method (a trained model is a class that loads its checkpoint)."""

from __future__ import annotations

from typing import Any


def act(view: Any, legal: list[Any]) -> Any:
    """The first legal action."""
    return legal[0]
