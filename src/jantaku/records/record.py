"""jantaku's own game record: an mjai event list plus what a replay needs to know about the rules.

Every reader (Tenhou mjlog XML, tenhou.net/6 JSON, mjai JSON lines) produces :class:`GameRecord` objects, the
replay drives the table engine from their events, and every writer starts from them. The events are mjai
events (https://mjai.app conventions; tiles ``1m``..``9s``, ``E S W N P F C``, red fives ``5mr 5pr 5sr``):

==================  ================================================================================
event               fields
==================  ================================================================================
``start_game``      ``names`` (4); jantaku adds ``rules`` and ``seed`` when it wrote the record
``start_kyoku``     ``bakaze`` (E/S/W/N), ``kyoku`` (1-4), ``honba``, ``kyotaku`` (riichi sticks on the
                    table), ``oya`` (dealer seat), ``dora_marker``, ``scores`` (4), ``tehais`` (4 x 13)
``tsumo``           ``actor``, ``pai``
``dahai``           ``actor``, ``pai``, ``tsumogiri``
``reach``           ``actor`` (the declaration; the discard follows as ``dahai``)
``reach_accepted``  ``actor``, optional ``deltas`` and ``scores``
``chi`` ``pon``     ``actor``, ``target`` (seat discarding), ``pai`` (the called tile), ``consumed`` (from hand)
``daiminkan``       as ``pon``, three consumed
``ankan``           ``actor``, ``consumed`` (4)
``kakan``           ``actor``, ``pai`` (the added tile), ``consumed`` (the pon's 3)
``dora``            ``dora_marker`` (a new kan dora indicator)
``hora``            ``actor``, ``target`` (= actor for tsumo), ``pai``, ``deltas`` (4), ``ura_markers``;
                    jantaku and the Tenhou readers add ``han``, ``fu``, ``points``, ``yakuman``, ``yaku``
                    (``[name, han]``), ``pao`` (seat or null), ``scores`` (after the win)
``ryukyoku``        ``deltas`` (4); jantaku adds ``reason`` (``exhaustive``, ``nagashi_mangan``,
                    ``nine_terminals``, ``four_winds``, ``four_riichi``, ``four_kans``, ``triple_ron``),
                    ``tenpais`` (4 booleans: the hands shown tenpai, which the payments follow) and
                    ``scores``; ``silent`` (seats tenpai that declared noten, where the rule set lets
                    them: ``tenpai_silence``) only when there are any
``end_kyoku``       -
``end_game``        ``scores`` (4, leftover riichi sticks included as the record has them); jantaku adds
                    ``ranks``, ``final``, ``deposits`` and ``penalties`` (4, rank points the referee
                    deducted) when there are any
``card``            jantaku's: the referee shows ``actor`` a ``card`` (``yellow`` or ``red``) for
                    ``reason``; ``pt`` the rank points it deducts (a red card; ``yellows``: the yellow
                    cards of the day that made it red)
``penalty``         jantaku's: the referee deducts ``pt`` rank points from ``actor`` for ``reason``
==================  ================================================================================

``card`` and ``penalty`` stand between two hands (or inside the hand during which the referee acted).

``deltas`` of a ``hora``/``ryukyoku`` are the hand's settlement: riichi sticks collected are included, the
1,000 points a riichi declaration posts are not (they are in ``reach_accepted``).

>>> rec = GameRecord(source="x", events=[{"type": "start_game", "names": ["a", "b", "c", "d"]}])
>>> rec.red_fives, rec.hands()
(True, [])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["GameRecord", "rotate_seats"]

_SEAT_FIELDS = ("actor", "target", "oya", "pao")
_SEAT_LISTS = ("scores", "deltas", "tehais", "tenpais", "names")


def rotate_seats(events: list[dict[str, Any]], first: int) -> list[dict[str, Any]]:
    """The same events with seat ``first`` renumbered 0 (and the others after it), as formats that put the
    first dealer at seat 0 (tenhou.net/6) need.

    >>> rotate_seats([{"type": "dahai", "actor": 2, "pai": "1m"}, {"type": "end_game", "scores": [1, 2, 3, 4]}], 2)
    [{'type': 'dahai', 'actor': 0, 'pai': '1m'}, {'type': 'end_game', 'scores': [3, 4, 1, 2]}]
    """
    if first % 4 == 0:
        return events
    out = []
    for e in events:
        r = dict(e)
        for key in _SEAT_FIELDS:
            if isinstance(r.get(key), int):
                r[key] = (r[key] - first) % 4
        for key in _SEAT_LISTS:
            value = r.get(key)
            if isinstance(value, list) and len(value) == 4:
                r[key] = value[first:] + value[:first]
        out.append(r)
    return out


@dataclass
class GameRecord:
    """One game (or one or more hands of one) as mjai events, with the rule hints the source carries.

    Attributes:
        source: where it came from (file and position), for messages.
        events: mjai events in order.
        red_fives: the game was played with red fives (Tenhou GO type bit 2 clear; tenhou.net/6 ``aka``).
        open_tanyao: open tanyao counts (Tenhou GO type bit 4 clear).
        hanchan: East+South (else East only).
        walls: optional full walls per hand (136 tile ids in dealing order), when the source has them.
        rule_name: the rule set the record says it used (``tenhou`` for Tenhou logs).
        final: the final scores with rank points as the source records them (``owari``), if any.
    """

    source: str
    events: list[dict[str, Any]] = field(default_factory=list)
    red_fives: bool = True
    open_tanyao: bool = True
    hanchan: bool = True
    walls: list[list[int]] | None = None
    rule_name: str = "tenhou"
    final: list[float] | None = None
    dora_timing_known: bool = True
    """Whether the events place kan dora where they turned (tenhou.net/6 does not record it)."""
    rank_points: tuple[int, int, int, int] | None = None
    """Rank points (uma with oka to first) the record's own final scores imply, when it has them."""
    problems: list[str] = field(default_factory=list)
    """What the reader could not take in (a truncated last hand, ...), each naming the hand."""

    def hands(self) -> list[list[dict[str, Any]]]:
        """The events of each hand, from ``start_kyoku`` to ``end_kyoku``."""
        out: list[list[dict[str, Any]]] = []
        current: list[dict[str, Any]] | None = None
        for e in self.events:
            if e["type"] == "start_kyoku":
                current = [e]
            elif current is not None:
                current.append(e)
                if e["type"] == "end_kyoku":
                    out.append(current)
                    current = None
        return out
