"""The bots by name (:func:`make_bot`): what a rule-set run, a web table or a command line names a seat's bot by."""

from __future__ import annotations

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
    raise JantakuError(f"unknown bot {name!r}: jantaku's bots are random, efficiency, strong and mjai:COMMAND")
