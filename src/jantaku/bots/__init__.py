"""Players: the agent interface, jantaku's random and efficiency bots."""

from .base import Agent, PlayerView
from .registry import make_bot
from .simple import EfficiencyBot, RandomBot

__all__ = ["Agent", "EfficiencyBot", "PlayerView", "RandomBot", "make_bot"]
