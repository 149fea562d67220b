"""Players: the agent interface, jantaku's random and efficiency bots."""

from .base import Agent, PlayerView
from .simple import EfficiencyBot, RandomBot, make_bot

__all__ = ["Agent", "EfficiencyBot", "PlayerView", "RandomBot", "make_bot"]
