"""A jantaku game as a record: :class:`GameRecord` from a played :class:`~jantaku.table.game.Game`, and files."""

from __future__ import annotations

import json
from pathlib import Path

from jantaku.table.game import Game

from .mjai import write_mjai
from .record import GameRecord
from .tenhou6 import write_tenhou6

__all__ = ["game_record", "save_game"]


def game_record(game: Game, source: str = "") -> GameRecord:
    """The record of a (finished or running) jantaku game, with its rule set's hints."""
    rules = game.rules
    return GameRecord(
        source=source or f"jantaku:{rules.name}:{game.seed}",
        events=game.events,
        red_fives=any(rules.red_fives),
        open_tanyao=rules.open_tanyao,
        hanchan=rules.rounds >= 2,
        rule_name=rules.name,
        final=list(game.result.final) if game.result else None,
    )


def save_game(game: Game, path: str | Path, fmt: str = "mjai") -> Path:
    """Write a game as mjai JSON lines (``fmt="mjai"``) or tenhou.net/6 JSON (``"tenhou6"``, with the rule
    set's name in ``rule.disp``)."""
    target = Path(path)
    record = game_record(game)
    if fmt == "mjai":
        write_mjai(record, target)
    elif fmt == "tenhou6":
        doc = write_tenhou6(record, title=record.source, rule_disp=game.rules.name)
        target.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    else:
        raise ValueError(f"unknown record format {fmt!r}: mjai or tenhou6")
    return target
