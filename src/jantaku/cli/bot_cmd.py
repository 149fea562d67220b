"""``jantaku bot NAME``: one of jantaku's bots speaking mjai on stdin/stdout.

Any program that runs mjai bots as processes (mjai.app style, or jantaku itself with
``jantaku simulate --bots "mjai:jantaku bot efficiency,..."``) can seat ``random`` or ``efficiency``:

* each line on stdin is a JSON array of events (or one event object); after each line exactly one JSON
  action is printed (and flushed): ``{"type":"none"}`` when there is nothing to decide;
* the decision is about the **last** event of the line: the bot's own ``tsumo`` (discard, riichi, tsumo,
  closed or added kan, nine terminals), its own ``chi``/``pon`` (the discard after the call), its own
  ``reach`` (the discard declaring riichi: the bot answers ``reach`` first and the discard when the
  ``reach`` comes back), another player's ``dahai`` (ron, pon, chi, open kan or pass) or ``kakan``
  (robbing the kan), and an ``ankan`` where the rule set lets thirteen orphans rob a closed kan.

The bot never sees a table engine: :class:`MjaiSeatState` rebuilds what one seat knows from the events (its
own hand, every meld, river and riichi, the dora indicators, scores, tiles left in the wall, its furiten)
and computes that seat's legal actions itself, the way the engine would; the chosen bot gets a
:class:`SeatView` with the attributes of :class:`~jantaku.bots.base.PlayerView` it reads.

Limits:

* the rule set is ``--rules`` if given, else the ``rules`` that jantaku puts in ``start_game`` (if this
  installation knows it), else ``standard``; thirteen-orphans robbing a closed kan, kuikae, riichi minimums,
  kan limits, renhou and nine terminals follow it. Riichi rule sets only.
* offered actions are a subset of the engine's where the bot cannot know enough: no closed kan after riichi,
  a tile passed while waiting on it always counts as (temporary) furiten, and a win needs a yaku that is
  known from the seat's view (riichi, menzen tsumo, haitei/houtei, rinshan, chankan, tenhou, chiihou, renhou
  and every hand-shape yaku; ippatsu and double riichi are not tracked because they never make a win
  possible on their own).
* the seat is ``start_game``'s ``id``, else ``--seat``, else the hand in ``start_kyoku`` that is not hidden.
* events that contradict the tracked hand (a discard of a tile it does not hold) end the process with a
  one-line error on stderr (exit status 2) rather than answers at random.

>>> from jantaku.bots.simple import EfficiencyBot
>>> s = MjaiBotSession(EfficiencyBot(0), rules="standard")
>>> s.handle([{"type": "start_game", "id": 0}])
{'type': 'none'}
>>> tehais = [["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "C", "N"]] + [["?"] * 13] * 3
>>> start = {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
...          "dora_marker": "1s", "scores": [25000] * 4, "tehais": tehais}
>>> s.handle([start, {"type": "tsumo", "actor": 0, "pai": "C"}])
{'type': 'reach', 'actor': 0}
>>> s.handle([{"type": "reach", "actor": 0}])
{'type': 'dahai', 'actor': 0, 'pai': 'N', 'tsumogiri': False}
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TextIO

from jantaku.bots.base import Agent
from jantaku.errors import JantakuError
from jantaku.hand import Hand
from jantaku.meld import Meld, MeldKind
from jantaku.riichi.conditions import WinConditions
from jantaku.riichi.scoring import score_hand
from jantaku.rules import Ruleset, load_rules
from jantaku.shapes.shanten import shanten, shanten_forms
from jantaku.shapes.waits import wait_kinds
from jantaku.table.actions import (
    ANKAN,
    CHI,
    DAIMINKAN,
    DISCARD,
    KAKAN,
    KYUUSHU,
    PASS,
    PON,
    RIICHI,
    RON,
    TSUMO,
    Action,
)
from jantaku.table.circumstances import win_flags
from jantaku.tiles import TERMINALS_AND_HONORS, Tile, counts34

__all__ = ["HandFacts", "MjaiBotSession", "MjaiSeatState", "SeatView", "add_parser", "run"]

_YAOCHU = frozenset(TERMINALS_AND_HONORS)
_WINDS = ("E", "S", "W", "N")
_NONE: dict[str, Any] = {"type": "none"}


class MjaiSeatState:
    """What one seat knows of the game, rebuilt from mjai events; and that seat's legal actions.

    Call :meth:`update` with every event in order; :meth:`legal_actions` then lists what the seat may do
    about the last event (empty if it has no decision).
    """

    def __init__(self, rules: Ruleset | None = None, seat: int | None = None) -> None:
        self.rules_given = rules is not None
        self.rules: Ruleset = rules if rules is not None else load_rules("standard")
        self.seat: int | None = seat
        self.names: list[str] = []
        self.last: dict[str, Any] = {}
        self.in_hand = False
        self._reset(0, 0, 0, [self.rules.starting_points] * 4, [])

    def _reset(
        self, bakaze: int, oya: int, kyoku: int, scores: list[int], dora: list[Tile], honba: int = 0, deposits: int = 0
    ) -> None:
        self.round_wind = bakaze
        self.dealer = oya
        self.kyoku = kyoku
        self.facts = HandFacts(kyoku, honba, deposits)
        self.scores = list(scores)
        self.dora_markers: list[Tile] = list(dora)
        self.hand: list[Tile] = []
        self.drawn: Tile | None = None
        self.all_melds: list[list[Meld]] = [[], [], [], []]
        self.rivers: list[list[tuple[Tile, bool]]] = [[], [], [], []]
        self.riichi_accepted = [False] * 4
        self.riichi_declared = False
        self.tiles_left = 70
        self.kans = 0
        self.no_calls = True
        self.own_discards = 0
        self.discarded_kinds: set[int] = set()
        self.furiten_temp = False
        self.furiten_riichi = False
        self.missed = False
        self.rinshan = False
        self.kan_made = False
        self.kuikae: frozenset[int] = frozenset()

    # -- reading events ------------------------------------------------------------------------------------

    @property
    def me(self) -> int:
        if self.seat is None:
            raise JantakuError("the bot's seat is unknown: no start_game id, no --seat, no visible hand yet")
        return self.seat

    def update(self, e: dict[str, Any]) -> None:
        """Take in one event."""
        if self.missed:  # a winning tile went by without a win: furiten until the next own discard
            self.missed = False
            self.furiten_temp = True
            if self.riichi_accepted[self.me]:
                self.furiten_riichi = True
        kind = e.get("type")
        self.last = e
        handler = getattr(self, f"_on_{kind}", None) if isinstance(kind, str) else None
        if handler is not None:
            try:
                handler(e)
            except JantakuError:
                raise
            except (KeyError, ValueError, TypeError, IndexError) as err:
                what = f"no {err.args[0]!r}" if isinstance(err, KeyError) else str(err)
                event = json.dumps(e, ensure_ascii=False)[:200]
                raise JantakuError(f"a malformed {kind} event ({what}): {event}") from None
        if self.in_hand:
            self.facts.events.append(e)

    def _on_start_game(self, e: dict[str, Any]) -> None:
        if isinstance(e.get("id"), int):
            self.seat = e["id"]
        if isinstance(e.get("names"), list):
            self.names = [str(n) for n in e["names"]]
        name = e.get("rules")
        if not self.rules_given and isinstance(name, str) and name:
            try:
                self.rules = load_rules(name)
            except JantakuError:
                print(
                    f"jantaku bot: unknown rule set {name!r} in start_game; playing by {self.rules.name}",
                    file=sys.stderr,
                )

    def _on_start_kyoku(self, e: dict[str, Any]) -> None:
        scores = e.get("scores") or [self.rules.starting_points] * 4
        honba, deposits = e.get("honba", 0), e.get("kyotaku", 0)
        bakaze = e.get("bakaze", "E")
        if bakaze not in _WINDS:
            raise JantakuError(f"start_kyoku's bakaze {bakaze!r} is not a round wind (E, S, W or N)")
        self._reset(
            _WINDS.index(bakaze),
            e.get("oya", 0),
            e.get("kyoku", 1),
            scores,
            [],
            honba if isinstance(honba, int) else 0,
            deposits if isinstance(deposits, int) else 0,
        )
        self.dora_markers = [Tile.from_mjai(e["dora_marker"])] if e.get("dora_marker") else []
        tehais = e.get("tehais") or []
        if self.seat is None:
            visible = [s for s, h in enumerate(tehais) if h and "?" not in h]
            if len(visible) == 1:
                self.seat = visible[0]
        self.hand = [Tile.from_mjai(t) for t in tehais[self.me]]
        self.in_hand = True

    def _on_tsumo(self, e: dict[str, Any]) -> None:
        self.tiles_left -= 1
        if e["actor"] == self.me:
            tile = Tile.from_mjai(e["pai"])
            self.hand.append(tile)
            self.drawn = tile
            self.rinshan = self.kan_made
            self.kan_made = False
            self.kuikae = frozenset()

    def _on_dahai(self, e: dict[str, Any]) -> None:
        actor = e["actor"]
        tile = Tile.from_mjai(e["pai"])
        self.rivers[actor].append((tile, False))
        if actor == self.me:
            self._remove(tile, "dahai")
            self.drawn = None
            self.rinshan = False
            self.own_discards += 1
            self.discarded_kinds.add(tile.kind)
            self.furiten_temp = False
            self.kuikae = frozenset()
        elif tile.kind in self.waits():
            self.missed = True

    def _on_reach(self, e: dict[str, Any]) -> None:
        if e["actor"] == self.me:
            self.riichi_declared = True

    def _on_reach_accepted(self, e: dict[str, Any]) -> None:
        actor = e["actor"]
        self.riichi_accepted[actor] = True
        self.facts.deposits += 1
        if actor == self.me:
            self.riichi_declared = False
        self._take_scores(e, default_delta=(actor, -1000))

    def _take_scores(self, e: dict[str, Any], default_delta: tuple[int, int] | None = None) -> None:
        if isinstance(e.get("scores"), list) and len(e["scores"]) == 4:
            self.scores = list(e["scores"])
        elif isinstance(e.get("deltas"), list) and len(e["deltas"]) == 4:
            self.scores = [s + d for s, d in zip(self.scores, e["deltas"], strict=True)]
        elif default_delta is not None:
            self.scores[default_delta[0]] += default_delta[1]

    def _on_call(self, e: dict[str, Any], kind: MeldKind) -> None:
        actor, target = e["actor"], e["target"]
        called = Tile.from_mjai(e["pai"])
        consumed = [Tile.from_mjai(t) for t in e["consumed"]]
        if self.rivers[target]:
            tile, _ = self.rivers[target][-1]
            self.rivers[target][-1] = (tile, True)
        self.all_melds[actor].append(Meld(kind, tuple(sorted((called, *consumed))), called, (target - actor) % 4))
        self.no_calls = False
        if kind is MeldKind.MINKAN:
            self.kans += 1
        if actor == self.me:
            for t in consumed:
                self._remove(t, e["type"])
            self.drawn = None
            if kind is MeldKind.MINKAN:
                self.kan_made = True
            else:
                self.kuikae = self._kuikae_after(kind, called, consumed)

    def _on_chi(self, e: dict[str, Any]) -> None:
        self._on_call(e, MeldKind.CHI)

    def _on_pon(self, e: dict[str, Any]) -> None:
        self._on_call(e, MeldKind.PON)

    def _on_daiminkan(self, e: dict[str, Any]) -> None:
        self._on_call(e, MeldKind.MINKAN)

    def _on_ankan(self, e: dict[str, Any]) -> None:
        actor = e["actor"]
        consumed = [Tile.from_mjai(t) for t in e["consumed"]]
        self.all_melds[actor].append(Meld(MeldKind.ANKAN, tuple(sorted(consumed))))
        self.kans += 1
        self.no_calls = False
        if actor == self.me:
            for t in consumed:
                self._remove(t, "ankan")
            self.drawn = None
            self.kan_made = True
        elif self._robs_closed_kan(consumed[0]) is not None and consumed[0].kind in self.waits():
            self.missed = True

    def _on_kakan(self, e: dict[str, Any]) -> None:
        actor = e["actor"]
        added = Tile.from_mjai(e["pai"])
        melds = self.all_melds[actor]
        idx = next((i for i, m in enumerate(melds) if m.kind is MeldKind.PON and m.kind34 == added.kind), None)
        if idx is None:
            tiles = tuple(sorted([added, *(Tile.from_mjai(t) for t in e.get("consumed", []))]))
            melds.append(Meld(MeldKind.KAKAN, tiles, tiles[0], 3, added))
        else:
            pon = melds[idx]
            melds[idx] = Meld(MeldKind.KAKAN, tuple(sorted((*pon.tiles, added))), pon.called, pon.source, added)
        self.kans += 1
        self.no_calls = False
        if actor == self.me:
            self._remove(added, "kakan")
            self.drawn = None
            self.kan_made = True
        elif added.kind in self.waits():
            self.missed = True

    def _on_dora(self, e: dict[str, Any]) -> None:
        self.dora_markers.append(Tile.from_mjai(e["dora_marker"]))

    def _on_hora(self, e: dict[str, Any]) -> None:
        self._take_scores(e)

    def _on_ryukyoku(self, e: dict[str, Any]) -> None:
        self._take_scores(e)

    def _on_end_kyoku(self, e: dict[str, Any]) -> None:
        self.in_hand = False

    def _remove(self, tile: Tile, what: str) -> None:
        try:
            self.hand.remove(tile)
        except ValueError:
            raise JantakuError(
                f"{what} of {tile.mjai} by seat {self.me}, but the tracked hand is "
                f"{' '.join(t.mjai for t in self.hand)}: the events do not fit together"
            ) from None

    def _kuikae_after(self, kind: MeldKind, called: Tile, consumed: list[Tile]) -> frozenset[int]:
        if self.rules.kuikae != "forbidden":
            return frozenset()
        k = called.kind
        forbidden = {k}
        if kind is MeldKind.CHI:
            lo = min(t.kind for t in (called, *consumed))
            if k == lo and k % 9 + 3 <= 8:
                forbidden.add(k + 3)
            if k == lo + 2 and k % 9 - 3 >= 0:
                forbidden.add(k - 3)
        return frozenset(forbidden)

    # -- what the seat knows -------------------------------------------------------------------------------

    @property
    def counts(self) -> list[int]:
        return counts34(self.hand)

    def waits(self) -> list[int]:
        """Wait kinds of the closed hand between turns (3n+1 tiles), else empty."""
        counts = self.counts
        if sum(counts) % 3 != 1 or shanten(counts) != 0:
            return []
        return wait_kinds(counts)

    @property
    def furiten(self) -> bool:
        return self.furiten_temp or self.furiten_riichi or any(k in self.discarded_kinds for k in self.waits())

    @property
    def closed(self) -> bool:
        return all(not m.is_open for m in self.all_melds[self.me])

    def visible_counts(self) -> list[int]:
        seen = [0] * 34
        for river in self.rivers:
            for tile, called in river:
                if not called:
                    seen[tile.kind] += 1
        for melds in self.all_melds:
            for m in melds:
                for t in m.tiles:
                    seen[t.kind] += 1
        for t in self.dora_markers:
            seen[t.kind] += 1
        return seen

    def can_win(self, tile: Tile, tsumo: bool, discarder: int | None = None, chankan: bool = False) -> bool:
        """The hand (with ``tile``) is complete and has a yaku under the rule set, as far as the seat knows."""
        me = self.me
        closed = list(self.hand) if tsumo else [*self.hand, tile]
        first = self.no_calls and self.own_discards == 0
        dealer = me == self.dealer
        last = self.tiles_left == 0
        rules = self.rules
        try:
            hand = Hand(tuple(closed), tuple(self.all_melds[me]))
            flags = win_flags(
                tsumo=tsumo,
                first_turn=first,
                dealer=dealer,
                last_tile=last,
                rinshan=self.rinshan,
                chankan=chankan,
                renhou=rules.renhou != "none",
            )
            cond = WinConditions(
                win=tile,
                riichi=self.riichi_accepted[me],
                **flags,
                seat_wind=(me - self.dealer) % 4,
                round_wind=self.round_wind,
                dora=tuple(self.dora_markers),
                winner=me,
                discarder=None if tsumo else discarder,
            )
            score_hand(hand, cond, rules)
        except JantakuError:  # not complete, no yaku, or circumstances the scorer rejects: no win offered
            return False
        return True

    # -- legal actions -------------------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """What the seat may do about the last event (empty: nothing to decide)."""
        e = self.last
        if not self.in_hand or self.seat is None:
            return []
        kind, actor, me = e.get("type"), e.get("actor"), self.seat
        if actor == me:
            if kind == "tsumo":
                return self._own_turn()
            if kind in ("chi", "pon"):
                return self._discards(exclude=self.kuikae)
            if kind == "reach":
                return [a for a in self._own_turn(declaring=True) if a.kind == RIICHI]
            return []
        if kind == "dahai":
            return self._responses(Tile.from_mjai(e["pai"]), actor)
        if kind == "kakan":
            return self._rob(Tile.from_mjai(e["pai"]), actor, closed_kan=False)
        if kind == "ankan":
            return self._rob(Tile.from_mjai(e["consumed"][0]), actor, closed_kan=True)
        return []

    def _discards(self, exclude: frozenset[int] = frozenset()) -> list[Action]:
        me, drawn = self.me, self.drawn
        out: list[Action] = []
        seen: set[tuple[Tile, bool]] = set()
        rest = list(self.hand)
        if drawn is not None:
            rest.remove(drawn)
            out.append(Action(DISCARD, me, drawn, (), True))
            seen.add((drawn, True))
        for t in sorted(rest):
            if t.kind not in exclude and (t, False) not in seen:
                seen.add((t, False))
                out.append(Action(DISCARD, me, t, (), False))
        return out

    def _kan_possible(self) -> bool:
        return self.tiles_left > 0 and self.kans < min(4, self.rules.max_kans)

    def _own_turn(self, declaring: bool = False) -> list[Action]:
        """The seat's options after its draw (``declaring``: its riichi has just been announced)."""
        me, drawn, rules = self.me, self.drawn, self.rules
        assert drawn is not None
        out: list[Action] = []
        if self.can_win(drawn, tsumo=True):
            out.append(Action(TSUMO, me, drawn))
        if self.riichi_accepted[me]:
            out.append(Action(DISCARD, me, drawn, (), True))
            return out
        discards = self._discards()
        out.extend(discards)
        counts = self.counts
        riichi_ok = (
            (declaring or not self.riichi_declared)
            and self.closed
            and self.scores[me] >= rules.riichi_min_points
            and self.tiles_left >= rules.riichi_min_wall
        )
        if riichi_ok and shanten(counts) <= 0:
            for a in discards:
                k = a.tile.kind  # type: ignore[union-attr]
                counts[k] -= 1
                if shanten(counts) == 0:
                    out.append(Action(RIICHI, me, a.tile, (), a.tsumogiri))
                counts[k] += 1
        if self._kan_possible():
            for k in range(34):
                if counts[k] == 4:
                    four = tuple(sorted(t for t in self.hand if t.kind == k))
                    out.append(Action(ANKAN, me, four[0], four))
            for m in self.all_melds[me]:
                if m.kind is MeldKind.PON and counts[m.kind34]:
                    added = next(t for t in self.hand if t.kind == m.kind34)
                    out.append(Action(KAKAN, me, added, m.tiles))
        first = self.no_calls and self.own_discards == 0 and not self.rinshan
        if "nine_terminals" in rules.abortive_draws and first and sum(1 for k in _YAOCHU if counts[k]) >= 9:
            out.append(Action(KYUUSHU, me))
        return out

    def _after_call_has_discard(self, consumed: tuple[Tile, ...], forbidden: set[int]) -> bool:
        counts = self.counts
        for t in consumed:
            counts[t.kind] -= 1
        return any(n and k not in forbidden for k, n in enumerate(counts))

    def _responses(self, tile: Tile, discarder: int) -> list[Action]:
        me, rules = self.me, self.rules
        kind = tile.kind
        out: list[Action] = []
        if kind in self.waits() and not self.furiten and self.can_win(tile, tsumo=False, discarder=discarder):
            out.append(Action(RON, me, tile))
        if not self.riichi_accepted[me] and self.tiles_left > 0:
            same = sorted(t for t in self.hand if t.kind == kind)
            forbid_pon = rules.kuikae == "forbidden"
            if len(same) >= 2:
                pairs = sorted({(same[a], same[b]) for a in range(len(same)) for b in range(a + 1, len(same))})
                for pair in pairs:
                    if not forbid_pon or self._after_call_has_discard(pair, {kind}):
                        out.append(Action(PON, me, tile, pair))
            if len(same) >= 3 and self._kan_possible():
                out.append(Action(DAIMINKAN, me, tile, tuple(same)))
            if discarder == (me + 3) % 4 and kind < 27:
                out.extend(self._chi_options(tile))
        if out:
            out.append(Action(PASS, me))
        return out

    def _chi_options(self, tile: Tile) -> list[Action]:
        me, kind = self.me, tile.kind
        n = kind % 9
        out: list[Action] = []
        for lo in (n - 2, n - 1, n):
            if lo < 0 or lo > 6:
                continue
            need = [kind - n + lo + j for j in range(3) if lo + j != n]
            choices = [sorted({t for t in self.hand if t.kind == k}) for k in need]
            if not all(choices):
                continue
            forbidden = {kind}
            if lo == n and n + 3 <= 8:
                forbidden.add(kind + 3)
            if lo == n - 2 and n - 3 >= 0:
                forbidden.add(kind - 3)
            for a in choices[0]:
                for b in choices[1]:
                    if self.rules.kuikae == "forbidden" and not self._after_call_has_discard((a, b), forbidden):
                        continue
                    out.append(Action(CHI, me, tile, (a, b)))
        return out

    def _robs_closed_kan(self, tile: Tile) -> bool | None:
        """For a closed kan of ``tile``: True if this seat is a thirteen-orphans hand that may rob it."""
        if self.rules.chankan_closed_kan != "kokushi" or tile.kind not in _YAOCHU:
            return None
        return not self.all_melds[self.me] and shanten_forms(self.counts).kokushi == 0

    def _rob(self, tile: Tile, owner: int, closed_kan: bool) -> list[Action]:
        me = self.me
        if closed_kan and not self._robs_closed_kan(tile):
            return []
        if tile.kind not in self.waits() or self.furiten:
            return []
        if not self.can_win(tile, tsumo=False, discarder=owner, chankan=True):
            return []
        return [Action(RON, me, tile), Action(PASS, me)]


@dataclass
class HandFacts:
    """One hand's facts as the table's hand holds them for the bots: its number in the round, the honba counter,
    the riichi sticks on the table (those of ``start_kyoku``'s ``kyotaku`` and each accepted riichi) and the hand's
    mjai events so far."""

    kyoku_number: int
    honba: int = 0
    deposits: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)


class SeatView:
    """The :class:`~jantaku.bots.base.PlayerView` attributes jantaku's bots read, from an :class:`MjaiSeatState`."""

    def __init__(self, state: MjaiSeatState) -> None:
        self._s = state

    @property
    def _k(self) -> HandFacts:
        """What the bots read of the hand beside the view (a table's hand has the same attributes): its number,
        honba, deposits and events; a new object each hand."""
        return self._s.facts

    @property
    def hand_number(self) -> int:
        """The hand's number within its round (1-4), from ``start_kyoku``'s ``kyoku``."""
        return self._s.kyoku

    @property
    def seat(self) -> int:
        return self._s.me

    @property
    def hand(self) -> list[Tile]:
        return list(self._s.hand)

    @property
    def counts(self) -> list[int]:
        return self._s.counts

    def melds(self, seat: int | None = None) -> list[Meld]:
        return list(self._s.all_melds[self._s.me if seat is None else seat])

    def river(self, seat: int) -> list[Tile]:
        return [t for t, _ in self._s.rivers[seat]]

    def riichi(self, seat: int) -> bool:
        return self._s.riichi_accepted[seat]

    @property
    def dora_indicators(self) -> list[Tile]:
        return list(self._s.dora_markers)

    @property
    def scores(self) -> list[int]:
        return list(self._s.scores)

    @property
    def tiles_left(self) -> int:
        return self._s.tiles_left

    @property
    def seat_wind(self) -> int:
        return (self._s.me - self._s.dealer) % 4

    @property
    def round_wind(self) -> int:
        return self._s.round_wind

    @property
    def rules(self) -> Ruleset:
        return self._s.rules

    def visible_counts(self) -> list[int]:
        return self._s.visible_counts()


class MjaiBotSession:
    """A jantaku bot answering mjai event batches: :meth:`handle` takes events and returns one action."""

    def __init__(self, bot: Agent, rules: Ruleset | str | None = None, seat: int | None = None) -> None:
        self.bot = bot
        self.state = MjaiSeatState(load_rules(rules) if rules is not None else None, seat)
        self.view = SeatView(self.state)
        self._riichi: Action | None = None

    def handle(self, events: Iterable[dict[str, Any]]) -> dict[str, Any]:
        """Take in the events, then answer the last one: an mjai action dict (``{"type": "none"}`` to pass)."""
        for e in events:
            if isinstance(e, dict):
                self.state.update(e)
        legal = self.state.legal_actions()
        if not legal or all(a.kind == PASS for a in legal):
            return dict(_NONE)
        st = self.state
        if st.last.get("type") == "reach":
            # the riichi declared with our previous answer: now its discard
            chosen = self._riichi if self._riichi in legal else self.bot.act(self.view, legal)  # type: ignore[arg-type]
            self._riichi = None
            self._check(chosen, legal)
            return {"type": "dahai", "actor": st.me, "pai": chosen.tile.mjai, "tsumogiri": chosen.tsumogiri}  # type: ignore[union-attr]
        chosen = self.bot.act(self.view, legal)  # type: ignore[arg-type]
        self._check(chosen, legal)
        return self._message(chosen)

    def _check(self, action: Action, legal: list[Action]) -> None:
        if action not in legal:
            raise JantakuError(f"the bot chose {action!r}, which is not among {legal!r}")

    def _message(self, a: Action) -> dict[str, Any]:
        me = self.state.me
        pai = a.tile.mjai if a.tile is not None else None
        consumed = [t.mjai for t in a.consumed]
        last = self.state.last
        if a.kind == DISCARD:
            return {"type": "dahai", "actor": me, "pai": pai, "tsumogiri": a.tsumogiri}
        if a.kind == RIICHI:
            self._riichi = a
            return {"type": "reach", "actor": me}
        if a.kind == TSUMO:
            return {"type": "hora", "actor": me, "target": me, "pai": pai}
        if a.kind == RON:
            return {"type": "hora", "actor": me, "target": last.get("actor"), "pai": pai}
        if a.kind in (CHI, PON, DAIMINKAN):
            return {"type": a.kind, "actor": me, "target": last.get("actor"), "pai": pai, "consumed": consumed}
        if a.kind == ANKAN:
            return {"type": "ankan", "actor": me, "consumed": consumed}
        if a.kind == KAKAN:
            return {"type": "kakan", "actor": me, "pai": pai, "consumed": consumed}
        if a.kind == KYUUSHU:
            return {"type": "ryukyoku", "actor": me}
        return dict(_NONE)

    def handle_line(self, line: str) -> str:
        """One input line (a JSON array of events or one event) -> one output line (without the newline)."""
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            print(f"jantaku bot: ignoring a line that is not JSON: {line.strip()[:200]!r}", file=sys.stderr)
            return json.dumps(_NONE)
        events = obj if isinstance(obj, list) else [obj]
        return json.dumps(self.handle(events), ensure_ascii=False, separators=(",", ":"))

    def serve(self, stdin: TextIO, stdout: TextIO) -> int:
        """Answer every non-empty line of ``stdin`` on ``stdout`` until end of input; returns 0."""
        for line in stdin:
            if not line.strip():
                continue
            stdout.write(self.handle_line(line) + "\n")
            stdout.flush()
        return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bot",
        help="run one of jantaku's bots as an mjai bot on stdin/stdout",
        description="Run jantaku's random, efficiency or strong bot as an mjai bot process: read one JSON array of "
        "events (or one event object) per line on stdin and print one JSON action per line on stdout "
        '({"type":"none"} when there is nothing to decide). The seat is start_game\'s id. The bot tracks '
        "its own hand, every meld, river and riichi, dora, scores and furiten from the events and computes "
        "its legal actions itself; the rule set is --rules, else start_game's rules (jantaku sends them), "
        "else standard.",
        epilog="examples:\n"
        "  jantaku bot efficiency\n"
        '  jantaku simulate --bots "mjai:jantaku bot efficiency,efficiency,random,efficiency"\n'
        '  echo \'[{"type":"start_game","id":0}]\' | jantaku bot random',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("name", choices=["random", "efficiency", "strong"], help="which of jantaku's bots plays")
    p.add_argument("--rules", default=None, help="preset name or TOML file (default: start_game's, else standard)")
    p.add_argument("--seat", type=int, choices=range(4), default=None, help="seat when start_game has no id")
    p.add_argument("--seed", default="0", help="the bot's random seed (default 0)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jantaku.bots import make_bot

    bot = make_bot(args.name, args.seed)
    session = MjaiBotSession(bot, rules=args.rules, seat=args.seat)
    if sys.stdin.isatty():  # a person at a terminal, not a game server: say what is awaited
        print(WAITING, file=sys.stderr, flush=True)
    return session.serve(sys.stdin, sys.stdout)


WAITING = (
    "jantaku bot: waiting for mjai events on standard input, one JSON line each (a game server or "
    "`jantaku simulate --bots mjai:COMMAND` sends them); Ctrl-D ends"
)
"""What ``jantaku bot`` says when its standard input is a terminal."""
