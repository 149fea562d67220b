"""Games played by jantaku's bots, turned into the hand entries an organiser would type: to check that the
recorder reproduces the engine's own settlement of the same hands."""

from __future__ import annotations

from typing import Any

from jantaku.rules import load_rules
from jantaku.sim.runner import play_game
from jantaku.table.game import Game


def simulated_game(rules: str, seed: int) -> Game:
    """A whole game under ``rules`` played by the efficiency bots."""
    return play_game(load_rules(rules), seed, ["efficiency"] * 4)


def entries_of(game: Game) -> list[dict[str, Any]]:
    """Each hand of ``game`` as a recorder entry: winners with han and fu (or yakuman), riichi, tenpai."""
    riichi_per_hand: list[list[int]] = []
    current: list[int] = []
    for e in game.events:
        if e["type"] == "start_kyoku":
            current = []
        elif e["type"] == "reach_accepted":
            current.append(e["actor"])
        elif e["type"] == "end_kyoku":
            riichi_per_hand.append(current)
    out = []
    for result, riichi in zip(game.results, riichi_per_hand, strict=True):
        if result.kind in ("ron", "tsumo"):
            wins = []
            for w in result.wins:
                win: dict[str, Any] = {"winner": w.seat, "from": w.from_seat}
                if w.score.yakuman:
                    win["yakuman"] = w.score.yakuman
                else:
                    win["han"], win["fu"] = w.score.han, w.score.fu
                if w.pao is not None:
                    win["pao"] = w.pao
                wins.append(win)
            out.append({"kind": "win", "wins": wins, "riichi": riichi})
        elif result.kind == "exhaustive":
            entry: dict[str, Any] = {
                "kind": "draw",
                "riichi": riichi,
                "tenpai": [s for s in range(4) if result.tenpai[s]],
            }
            if result.reason == "nagashi_mangan":
                entry["nagashi"] = [s for s in range(4) if result.deltas[s] > 0]
            out.append(entry)
        else:
            out.append({"kind": "abortive", "reason": result.reason, "riichi": riichi})
    return out
