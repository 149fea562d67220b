"""The bots by name (:func:`make_bot`): what a rule-set run, a web table or a command line names a seat's bot by.

A Python policy is named ``py:MODULE:NAME`` (an importable module) or ``py:PATH.py:NAME`` (a file): ``NAME`` is
a class or a factory called with the seat's seed (the result has ``act(view, legal) -> Action``), or a function
``act(view, legal) -> Action`` itself. Worker processes and Ray tasks import it again by that name, so a policy
that loads a checkpoint is a factory that loads it.

>>> bot = make_bot("py:jantaku.bots.simple:RandomBot", "7")
>>> type(bot).__name__
'RandomBot'
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from pathlib import Path
from typing import Any

from jantaku.errors import JantakuError

from .mjai_process import MjaiProcessAgent
from .simple import EfficiencyBot, RandomBot
from .strong import StrongBot

__all__ = ["BOT_NAMES", "make_bot"]

BOT_NAMES = ("random", "efficiency", "strong")
"""jantaku's own bots; ``mjai:COMMAND`` names an external one."""


def make_bot(name: str, seed: int | str = 0) -> RandomBot | EfficiencyBot | StrongBot | MjaiProcessAgent:
    """A bot by name: ``random``, ``efficiency``, ``strong``, or ``mjai:COMMAND`` (an external mjai bot process).

    For ``mjai:COMMAND`` the seat is read from a seed of the form ``"SEED:SEAT"`` (as the simulation runner
    passes it); otherwise the agent takes its seat from the first view it is asked with.
    """
    if name == "random":
        return RandomBot(seed)
    if name == "efficiency":
        return EfficiencyBot(seed)
    if name == "strong":
        return StrongBot(seed)
    if name.startswith("mjai:"):
        tail = str(seed).rpartition(":")[2] if ":" in str(seed) else ""
        seat = int(tail) if tail in ("0", "1", "2", "3") else None
        return MjaiProcessAgent(name[len("mjai:") :].strip(), seat=seat)
    if name.startswith("py:"):
        return python_policy(name, seed)  # type: ignore[return-value]
    raise JantakuError(
        f"unknown bot {name!r}: jantaku's bots are random, efficiency, strong, mjai:COMMAND and py:MODULE:NAME"
    )


class FunctionAgent:
    """An agent around a function ``act(view, legal) -> Action``."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def act(self, view: Any, legal: list[Any]) -> Any:
        return self.fn(view, legal)


def _load_attribute(spec: str) -> Any:
    """The object ``py:MODULE:NAME`` or ``py:PATH.py:NAME`` names, or a :class:`JantakuError` saying why not."""
    body = spec[len("py:") :]
    where, sep, attr = body.rpartition(":")
    if not sep or not where or not attr:
        raise JantakuError(f"a Python policy is py:MODULE:NAME or py:PATH.py:NAME, got {spec!r}")
    try:
        if where.endswith(".py"):
            path = Path(where).resolve()
            if not path.is_file():
                raise JantakuError(f"{spec}: no file {where!r}")
            key = f"jantaku_policy_{abs(hash(str(path)))}"
            module = sys.modules.get(key)
            if module is None:
                loader = importlib.util.spec_from_file_location(key, path)
                assert loader is not None and loader.loader is not None
                module = importlib.util.module_from_spec(loader)
                sys.modules[key] = module
                loader.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except JantakuError:
        raise
    except Exception as e:  # the policy's own module failed to import: say which and why
        raise JantakuError(f"{spec}: cannot import {where!r} ({type(e).__name__}: {e})") from None
    if not hasattr(module, attr):
        raise JantakuError(f"{spec}: {where!r} has no {attr!r}")
    return getattr(module, attr)


def python_policy(spec: str, seed: int | str = 0) -> Any:
    """The agent ``py:...`` names (see the module): a class or factory called with ``seed``, or a function
    ``act(view, legal)`` wrapped as an agent."""
    obj = _load_attribute(spec)
    if not callable(obj):
        raise JantakuError(f"{spec}: {type(obj).__name__} is neither a class, a factory nor a function")
    if not inspect.isclass(obj):
        try:
            required = [
                p
                for p in inspect.signature(obj).parameters.values()
                if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            ]
        except (TypeError, ValueError):
            required = []
        if len(required) == 2:  # act(view, legal)
            return FunctionAgent(obj)
    try:
        agent = obj(seed)
    except Exception as e:  # the policy's own constructor failed (a missing checkpoint, say): name it and why
        raise JantakuError(f"{spec}: making the policy failed ({type(e).__name__}: {e})") from None
    if not callable(getattr(agent, "act", None)):
        raise JantakuError(f"{spec}: what it made ({type(agent).__name__}) has no act(view, legal)")
    return agent
