"""Importing an online game record (Tenhou, Mahjong Soul, mjai, ...) into an event.

Each hand of the record becomes an entry (its winners with their han, fu, yakuman and pao; riichi
declarations; draws with who was tenpai; abortive draws), replayed under the event's rule set. When the
replay gives every hand the scores the record shows, the game is kept hand by hand; when the event's rule
set pays differently from the room the game was played in (no honba under μ, say), what happened online
stands: the game is kept as a quick entry of its final scores (with its hands' winners and deal-ins for the
statistics), settled by the event's rule set.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jantaku.errors import JantakuError
from jantaku.records.load import read_records
from jantaku.rules import Ruleset

from .errors import EntryError, LeagueError
from .recording import replay_entries

__all__ = ["record_games", "record_names"]


def _read(path: Path) -> list[Any]:
    try:
        return read_records(path)
    except JantakuError as e:
        raise LeagueError(str(e)) from None


def _names(rec: Any) -> list[str]:
    start = next((e for e in rec.events if e["type"] == "start_game"), {})
    return list(start.get("names") or [f"player{i}" for i in range(4)])


def record_names(path: Path) -> list[list[str]]:
    """The players' names (seat order) of each game of a record file, as the record writes them: what a
    mapping to the event's players maps from."""
    out = []
    for rec in _read(path):
        if not rec.hands():
            raise LeagueError(f"{rec.source}: no hand to import")
        out.append(_names(rec))
    return out


def record_games(
    path: Path, rules: Ruleset, mapping: dict[str, str]
) -> list[tuple[list[str], int, list[dict[str, Any]]]]:
    """The games of a record file: (players in seat order, first dealer's seat, entries)."""
    out = []
    for rec in _read(path):
        hands = rec.hands()
        if not hands:
            raise LeagueError(f"{rec.source}: no hand to import")
        players = [mapping.get(n, n) for n in _names(rec)]
        first = hands[0][0]
        first_dealer = (first["oya"] - (first["kyoku"] - 1)) % 4
        if first["scores"] != [rules.starting_points] * 4:
            raise LeagueError(
                f"{rec.source}: the game starts at {first['scores']}, the event's rule set {rules.name} at "
                f"{rules.starting_points} each; import it into an event with a matching rule set"
            )
        entries, ends = _entries(hands)
        end = next((e for e in rec.events if e["type"] == "end_game"), None)
        final_scores = list(end["scores"]) if end and end.get("scores") else ends[-1]
        out.append((players, first_dealer, _checked(rules, first_dealer, entries, ends, final_scores)))
    return out


def _entries(hands: list[list[dict[str, Any]]]) -> tuple[list[dict[str, Any]], list[list[int]]]:
    entries = []
    ends = []
    for hand in hands:
        riichi = [e["actor"] for e in hand if e["type"] == "reach_accepted"]
        wins = [e for e in hand if e["type"] == "hora"]
        draw = next((e for e in hand if e["type"] == "ryukyoku"), None)
        last_scores = next((e["scores"] for e in reversed(hand) if isinstance(e.get("scores"), list)), None)
        if wins:
            entry: dict[str, Any] = {"kind": "win", "riichi": riichi, "wins": []}
            for w in wins:
                win: dict[str, Any] = {"winner": w["actor"], "from": None if w["target"] == w["actor"] else w["target"]}
                if w.get("yakuman"):
                    win["yakuman"] = w["yakuman"]
                else:
                    win["han"], win["fu"] = w.get("han"), w.get("fu")
                if w.get("pao") is not None:
                    win["pao"] = w["pao"]
                entry["wins"].append(win)
        elif draw is not None and draw.get("reason") in ("exhaustive", "nagashi_mangan"):
            tenpai = [s for s, t in enumerate(draw.get("tenpais") or []) if t]
            entry = {"kind": "draw", "riichi": riichi, "tenpai": tenpai}
            if draw.get("reason") == "nagashi_mangan":
                entry["nagashi"] = [s for s, d in enumerate(draw.get("deltas") or []) if d > 0]
        elif draw is not None:
            entry = {"kind": "abortive", "reason": draw.get("reason"), "riichi": riichi}
        else:
            raise LeagueError(
                f"a hand of the record ends without a win or a draw ({hand[0].get('bakaze')}{hand[0].get('kyoku')})"
            )
        entries.append(entry)
        ends.append(list(last_scores) if last_scores else [])
    return entries, ends


def _checked(
    rules: Ruleset, first_dealer: int, entries: list[dict[str, Any]], ends: list[list[int]], final: list[int]
) -> list[dict[str, Any]]:
    """The hand entries when the event's rule set reproduces the record, else one quick entry."""
    try:
        replayed = replay_entries(rules, first_dealer, entries)
        same = replayed.over and all(o.get("scores") == end for o, end in zip(replayed.outcomes, ends, strict=True))
        if same:
            return entries
    except EntryError:
        pass
    deposits, rest = divmod(4 * rules.starting_points - sum(final), 1000)
    if rest or deposits < 0:
        raise LeagueError(f"the record's final scores {final} do not add up under {rules.name}")
    summary = [
        {"kind": e["kind"], "wins": [{"winner": w["winner"], "from": w["from"]} for w in e.get("wins", [])]}
        for e in entries
    ]
    return [{"kind": "final", "scores": final, "deposits": deposits, "hands": summary}]
