"""Simulation: many games in one or several processes, with statistics and event logs."""

from .runner import GameStats, Summary, play_game, simulate

__all__ = ["GameStats", "Summary", "play_game", "simulate"]
