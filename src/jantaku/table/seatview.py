"""What one seat knows, built only from the events as that seat receives them.

A :class:`SeatView` is fed the game's mjai events in order (:meth:`SeatView.apply`), either as the seat receives
them (another player's draw and dealt hand shown as ``"?"``, as an mjai server sends them) or whole: whatever it
must not know (another player's draw, another player's dealt tiles, the seed) it never stores. From them it keeps
the seat's own hand and drawn tile, every seat's melds, river (with the riichi discards and the called tiles),
riichi and closed-tile count, the dora indicators, scores, honba, riichi sticks, the tiles left in the wall, the
seat's furiten and this hand's events as the seat saw them. The seat's own answers (a pass is no event) are told
to it with :meth:`SeatView.answered`.

Its :meth:`SeatView.legal_actions` are computed by the engine's own rules code (:mod:`jantaku.table.legal`),
which reads one seat's tiles and the public state: the view keeps that state under the same names as
:class:`~jantaku.table.kyoku.Kyoku` (its own seat's tiles as tile ids, the other seats' closed tiles not at all).
It holds no reference to a table engine, so a bot given a view cannot reach another seat's closed tiles.
:func:`seat_facts` is the engine's projection of the same facts for one seat: ``tests/test_seatview.py`` checks
over hundreds of seeded games that, at every decision, a view built from the seat's events equals it and offers
the engine's actions.

>>> from jantaku.rules import load_rules
>>> v = SeatView(0, load_rules("tenhou"))
>>> v.apply({"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
...          "dora_marker": "1s", "scores": [25000] * 4,
...          "tehais": [["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "C", "N"]] + [["?"] * 13] * 3})
>>> v.apply({"type": "tsumo", "actor": 0, "pai": "C"})
>>> v.tiles_left, v.drawn_tile.mjai, len(v.hand)
(69, 'C', 14)
>>> sorted({a.kind for a in v.legal_actions()})
['dahai', 'reach']
>>> v.apply({"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": False})
>>> v.waits, v.furiten
([27, 33], False)
>>> v.apply({"type": "tsumo", "actor": 1, "pai": "7p"})  # another's draw: the tile is not kept
>>> v.closed_count(1), v.tiles_left
(14, 68)
>>> v.apply({"type": "dahai", "actor": 1, "pai": "E", "tsumogiri": False})
>>> [a.kind for a in v.legal_actions()]  # E: the dealer's and the round's wind, a yaku: ron, pon or pass
['ron', 'pon', 'none']
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from jantaku.errors import JantakuError
from jantaku.meld import Meld, MeldKind
from jantaku.rules import Ruleset
from jantaku.tiles import Tile

from . import legal
from .actions import NOTEN, RON, TENPAI, Action
from .jielu_wins import jielu_table_for
from .legal import _NO_KINDS, _YAOCHU, CALLED, CHANKAN, DRAWN, ENDED, RESPONSES
from .seat import RiverTile, SeatState
from .tileids import tile_tables

if TYPE_CHECKING:
    from jantaku.hand import Hand
    from jantaku.riichi.conditions import WinConditions

__all__ = [
    "HIDDEN",
    "PRIVATE_KEYS",
    "SeatView",
    "SeatViewError",
    "SeenEvents",
    "as_seen_by",
    "seat_facts",
    "visible_counts",
]

_OUTSIDE_PLAY = frozenset({"dora", "reach_accepted", "card", "penalty"})
"""Events that do not close the window a discard or a kan opened: a kan's new dora indicator, a riichi stick laid
down, a referee's card or penalty."""
_WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
_CALLS = {"chi": MeldKind.CHI, "pon": MeldKind.PON, "daiminkan": MeldKind.MINKAN}
HIDDEN = "?"
"""The mjai name of a tile a seat cannot see (another's draw or dealt tile)."""


class SeatViewError(JantakuError):
    """An event the view cannot follow (a discard of a tile the seat does not hold, an event out of place)."""


class SeatView(legal.PlayRules):
    """One seat's knowledge of a game, from the events it receives (see the module docs).

    Args:
        seat: the seat (0-3) whose view this is.
        rules: the rule set of the game (the wall's size, furiten, who may win on what).
    """

    def __init__(self, seat: int, rules: Ruleset) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise SeatViewError(f"a seat is 0-3, got {seat!r}")
        if not isinstance(rules, Ruleset):
            raise SeatViewError(f"rules must be a Ruleset, got {type(rules).__name__}")
        self.seat = seat
        self.rules = rules
        self._tiles, self._mjai, self._keys = tile_tables(rules.red_fives)
        self._jielu = rules.family == "jielu"
        self._furiten = rules.furiten
        self._dead_wall = rules.dead_wall
        self._fan_table = jielu_table_for(rules) if self._jielu else None
        self.scores: list[int] = [rules.starting_points] * 4
        self.names: list[str] = []
        self._start_hand(0, 1, 0, 0, 0)
        self.phase = ENDED

    # -- the hand's state (the engine's names: jantaku.table.legal.PlayState) --------------------------------

    def _start_hand(self, round_wind: int, number: int, honba: int, deposits: int, dealer: int) -> None:
        self.round_wind = round_wind
        self.hand_number = number
        self.honba = honba
        self.deposits = deposits
        self.dealer = dealer
        self.seats = [SeatState() for _ in range(4)]
        """Per seat its melds, river, riichi and flags; only the view's own seat has tiles."""
        self.seats[self.seat].key_table = self._keys
        self._dora: list[int] = []
        self._closed = [0, 0, 0, 0]
        self.won = [False] * 4
        """Seats that have won this hand (under 洁律's points mode the others play on)."""
        self.first_go_around = True
        self.has_discarded = [False] * 4
        self.kan_owners: list[int] = []
        self.rinshan_taken = 0
        self.tiles_left = (122 if self._dead_wall else 136) - 52
        self.phase = DRAWN
        self.actor = dealer
        self.drawn: int | None = None
        """The own drawn tile's id while the seat holds it after a draw."""
        self.drawn_rinshan = False
        self.last_discard: tuple[int, int] | None = None
        """The seat and tile id of the discard that may still be called or won on."""
        self.kakan_tile: int | None = None
        self._kan_is_ankan = False
        self._called_kuikae: frozenset[int] = _NO_KINDS
        self._waits_before_draw: Sequence[int] = ()
        self._floor_before_draw = -1
        self._options: list[Action] | None = None
        self._options_of: tuple[Any, ...] | None = None
        """The window's options not worked out yet: the rules function and its arguments (see :meth:`_offered`)."""
        self._answered = False
        self._open: str | None = None  # "discard" or "kan": a window the next event closes
        self._replacement_next = False
        self._declaring = [False] * 4
        self.events: list[dict[str, Any]] = []
        """This hand's events as the seat saw them (another's draw and dealt tiles ``"?"``)."""

    @property
    def kyoku_number(self) -> int:
        """The hand's number within its round (the engine's name for :attr:`hand_number`)."""
        return self.hand_number

    def _seat_wind(self, seat: int) -> int:
        return (seat - self.dealer) % 4

    def _dora_ids(self) -> list[int]:
        return list(self._dora)

    def _ura_ids(self) -> list[int]:
        """Nobody sees the ura dora before a riichi win: none (they never make a win legal or not)."""
        return []

    def _next_active(self, seat: int) -> int:
        nxt = (seat + 1) % 4
        while self.won[nxt]:
            nxt = (nxt + 1) % 4
        return nxt

    # -- reading (what a bot reads) ------------------------------------------------------------------------

    @property
    def own(self) -> SeatState:
        """The seat's own state (its tiles as tile ids, melds, river, riichi and furiten flags)."""
        return self.seats[self.seat]

    @property
    def hand(self) -> list[Tile]:
        """The seat's closed tiles (the drawn tile last)."""
        tiles = self._tiles
        return [tiles[i] for i in self.own.tiles]

    @property
    def counts(self) -> list[int]:
        """The seat's closed tiles as 34 counts (a new list)."""
        return list(self.own.counts)

    @property
    def drawn_tile(self) -> Tile | None:
        """The tile the seat just drew, while it holds it."""
        return self._tiles[self.drawn] if self.drawn is not None else None

    @property
    def dora_indicators(self) -> list[Tile]:
        """The dora indicators showing."""
        return [self._tiles[i] for i in self._dora]

    @property
    def seat_wind(self) -> int:
        """The seat's wind: 0 East (the dealer) .. 3 North."""
        return (self.seat - self.dealer) % 4

    def melds(self, seat: int | None = None) -> list[Meld]:
        """A seat's melds (the view's own by default), in the order they were made."""
        return list(self.seats[self.seat if seat is None else seat].melds)

    def river(self, seat: int) -> list[Tile]:
        """A seat's discards in order, the called ones included."""
        tiles = self._tiles
        return [tiles[r.tile] for r in self.seats[seat].river]

    def riichi(self, seat: int) -> bool:
        """Whether a seat's riichi stands (accepted)."""
        return self.seats[seat].riichi

    def closed_count(self, seat: int) -> int:
        """How many closed tiles a seat holds (its drawn tile included)."""
        return len(self.own.tiles) if seat == self.seat else self._closed[seat]

    def visible_counts(self) -> list[int]:
        """Per kind, the tiles the seat sees outside its closed hand: rivers (not the called tiles, which are in
        melds), melds and dora indicators."""
        return visible_counts(self.seats, self._dora)

    @property
    def waits(self) -> list[int]:
        """The kinds the seat's closed hand waits on (between its turns; empty with a drawn tile)."""
        return list(self.own.waits()) if len(self.own.tiles) % 3 == 1 else []

    @property
    def furiten(self) -> bool:
        """Furiten (000 Art 64; 001 5章5条): a wait among the seat's own discards, a winning tile passed since its
        last discard, or one passed after its riichi. Never under a rule set without furiten (洁律)."""
        self._settle_window()
        return self._furiten and len(self.own.tiles) % 3 == 1 and self.own.furiten

    # -- what the seat may do ------------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The actions the seat may take now, as the engine offers them (empty when it is not asked): its own
        turn after a draw or a call, its answer to a discard or a kan, or, at an exhaustive draw where the rule
        set lets a tenpai hand stay silent, its declaration."""
        seat = self.seat
        if self.phase in (DRAWN, CALLED):
            return self._own_turn_actions(seat) if self.actor == seat else []
        if self.phase in (RESPONSES, CHANKAN) and not self._answered and self._offered():
            return list(self._offered())
        if self._exhaustive_draw_now() and self._tenpai(seat) and self._may_stay_silent(seat):
            return [Action(TENPAI, seat), Action(NOTEN, seat)]
        return []

    def _exhaustive_draw_now(self) -> bool:
        """The last discard went by unclaimed with the wall empty (as far as the seat knows: its own answer is
        given and no event followed): the exhaustive draw's declarations (riichi rule sets)."""
        return (
            not self._jielu
            and self.phase == RESPONSES
            and self._open == "discard"
            and self.tiles_left == 0
            and (self._answered or not self._offered())
        )

    def offered_win(self, action: Action) -> tuple[Hand, WinConditions] | None:
        """The hand and conditions an offered win (``tsumo`` or ``ron`` among :meth:`legal_actions`) would be
        scored on, as the engine would score it; ``None`` when no winning tile is on the table."""
        return self._offered_win(self.seat, action)

    def answered(self, action: Action) -> None:
        """The seat's own answer to a discard or a kan (a pass is no event: the view learns it here)."""
        if action.seat == self.seat and self.phase in (RESPONSES, CHANKAN):
            self._answered = True

    # -- applying events -----------------------------------------------------------------------------------

    def apply(self, event: dict[str, Any]) -> None:
        """Follow one event. Raises :class:`SeatViewError` for one that contradicts what the view holds."""
        kind = event.get("type")
        if not isinstance(kind, str):
            raise SeatViewError(f"an event has a type, got {event!r}"[:200])
        if kind not in ("start_game", "end_game", "start_kyoku"):
            self.events.append(self._as_seen(event))
        if self._open is not None:
            if kind in _OUTSIDE_PLAY:  # the window stays open: its options as they were when it opened
                self._offered()
            else:
                self._close(event)
        handler = _HANDLERS.get(kind)
        if handler is not None:
            try:
                handler(self, event)
            except (KeyError, TypeError, ValueError, IndexError) as e:
                what = f"no {e.args[0]!r}" if isinstance(e, KeyError) else str(e)
                shown = json.dumps(event, ensure_ascii=False, default=str)[:200]
                raise SeatViewError(f"a malformed {kind} event ({what}): {shown}") from None
        if kind == "start_kyoku":  # the first event of the hand's new list (_start_hand made it)
            self.events.append(self._as_seen(event))

    def extend(self, events: list[dict[str, Any]]) -> None:
        """Follow several events in order."""
        for e in events:
            self.apply(e)

    def _as_seen(self, e: dict[str, Any]) -> dict[str, Any]:
        return as_seen_by(e, self.seat)

    def _tile(self, name: Any, what: str) -> Tile:
        try:
            return Tile.from_mjai(name)
        except JantakuError:
            raise SeatViewError(f"{what}: {name!r} is not an mjai tile") from None

    def _id_of(self, tile: Tile, avoid: Sequence[int] = ()) -> int:
        """A tile id for ``tile`` (its kind's ids, red or not as the tile is) not among ``avoid``."""
        tiles = self._tiles
        base = 4 * tile.kind
        for i in range(base, base + 4):
            if tiles[i] is tile and i not in avoid:
                return i
        raise SeatViewError(f"no copy of {tile.mjai} is left under this rule set's red fives")

    def _own_id(self, tile: Tile, what: str, other_than: int | None = None) -> int:
        """The id of ``tile`` in the seat's hand (the first one, as the engine picks it)."""
        tiles = self._tiles
        for i in self.own.tiles:
            if tiles[i] is tile and i != other_than:
                return i
        raise SeatViewError(f"{what}: seat {self.seat} does not hold {tile.mjai}")

    def _open_window(self, phase: str, options_of: tuple[Any, ...] | None) -> None:
        """A discard (:data:`RESPONSES`) or a kan (:data:`CHANKAN`) the others may answer until the next event;
        ``options_of`` the rules function giving the seat's own options to answer it and its arguments (``None``:
        not asked), called only when they are read: an agent that never reads its view costs no ron check."""
        self.phase = phase
        self._open = "discard" if phase == RESPONSES else "kan"
        self._answered = False
        self._options = None
        self._options_of = options_of

    def _settle_window(self) -> None:
        """Works out the open window's options now: doing so can make the seat furiten (a winning tile it may not
        take, 000 Art 64), which a reader must see."""
        if self._options_of is not None:
            self._offered()

    def _offered(self) -> list[Action]:
        """The seat's options to answer the open window (worked out once, when first read)."""
        if self._options_of is not None:
            function, *args = self._options_of
            self._options_of = None
            self._options = function(*args)
        return self._options or []

    def _close(self, nxt: dict[str, Any]) -> None:
        """The next event closes the window a discard or a kan opened: the seat passed unless it won on it."""
        window, self._open = self._open, None
        won_it = nxt.get("type") == "hora" and nxt.get("actor") == self.seat
        if not won_it and self._furiten:
            # it could have won and did not: furiten (the engine's resolution, 000 Art 64; 001 5章5条)
            tid = self.last_discard[1] if window == "discard" and self.last_discard else self.kakan_tile
            if tid is not None and (tid >> 2) in self.own.waits() and any(a.kind == RON for a in self._offered()):
                self.own.miss_winning_tile()
        self._options = self._options_of = None
        self._answered = False
        if window == "kan" and nxt.get("type") != "hora":
            self._finish_kan()
        elif window == "discard" and nxt.get("type") not in ("chi", "pon", "daiminkan", "hora"):
            self._discard_settles()

    def _discard_settles(self) -> None:
        """The discard went by unclaimed: the first go-around ends after the fourth seat's first discard."""
        if self.last_discard is None:
            return
        discarder, _ = self.last_discard
        if self.first_go_around and all(self.has_discarded) and discarder == (self.dealer + 3) % 4:
            self.first_go_around = False

    def _break_first_go_around_and_ippatsu(self) -> None:
        self.first_go_around = False
        for st in self.seats:
            st.ippatsu = False

    def _on_start_game(self, e: dict[str, Any]) -> None:
        names = e.get("names")
        if isinstance(names, list):
            self.names = [str(n) for n in names]
        self.scores = [self.rules.starting_points] * 4

    def _on_start_kyoku(self, e: dict[str, Any]) -> None:
        bakaze = e.get("bakaze", "E")
        if bakaze not in _WINDS:
            raise SeatViewError(f"start_kyoku's bakaze {bakaze!r} is not a round wind (E, S, W or N)")
        # the counters an mjai server may leave out default as mjai reads them (no honba, no sticks, the dealer
        # of the hand's number, the scores unchanged)
        number = int(e.get("kyoku", 1))
        honba, sticks = int(e.get("honba") or 0), int(e.get("kyotaku") or 0)
        self._start_hand(_WINDS[bakaze], number, honba, sticks, int(e.get("oya", (number - 1) % 4)))
        if e.get("dora_marker"):
            self._dora.append(self._id_of(self._tile(e["dora_marker"], "start_kyoku")))
        if e.get("scores") is not None:
            self.scores = [int(x) for x in e["scores"]]
        tehais = e["tehais"]
        st = self.own
        for name in tehais[self.seat]:
            st.tiles.append(self._id_of(self._tile(name, "start_kyoku"), st.tiles))
        for i in st.tiles:
            st.counts[i >> 2] += 1
        st.hand_changed()
        self._closed = [len(h) for h in tehais]
        self.phase = ENDED  # until the dealer's first draw

    def _on_tsumo(self, e: dict[str, Any]) -> None:
        actor = e["actor"]
        rinshan = self._replacement_next
        self._replacement_next = False
        if rinshan:
            self.rinshan_taken += 1
        self.tiles_left -= 1
        self.last_discard = None
        self.drawn = None
        if actor == self.seat:
            st = self.own
            if not self._jielu:
                self._waits_before_draw = st.waits()
                self._floor_before_draw = st.shanten13
            tid = self._id_of(self._tile(e["pai"], "tsumo"), st.tiles)
            st.add(tid)
            self.drawn = tid
        else:
            self._closed[actor] += 1
        self.phase = DRAWN
        self.actor = actor
        self.drawn_rinshan = rinshan

    def _on_reach(self, e: dict[str, Any]) -> None:
        self._declaring[e["actor"]] = True

    def _on_dahai(self, e: dict[str, Any]) -> None:
        actor = e["actor"]
        tile = self._tile(e["pai"], "dahai")
        riichi = self._declaring[actor]
        self._declaring[actor] = False
        st = self.seats[actor]
        tsumogiri = bool(e.get("tsumogiri"))
        if riichi:
            st.riichi_pending = True
            if self.first_go_around and not self.has_discarded[actor]:
                st.double_riichi = True
        if actor == self.seat:
            if tsumogiri and self.drawn is not None and self._tiles[self.drawn] is tile:
                tid = self.drawn
            else:
                tid = self._own_id(tile, "dahai", other_than=self.drawn)
            st.remove(tid)
            st.furiten_temp = False
        else:
            tid = self._id_of(tile, self.own.tiles)
            self._closed[actor] -= 1
        if st.ippatsu and not riichi:  # any seat's ippatsu ends with its next discard
            st.ippatsu = False
        st.river.append(RiverTile(tid, tsumogiri, riichi))
        st.discarded_kinds[tid >> 2] = True
        self.has_discarded[actor] = True
        self.last_discard = (actor, tid)
        self.drawn = None
        self._called_kuikae = _NO_KINDS
        self.actor = actor
        self._open_window(RESPONSES, (self._response_options, self.seat, actor, tid) if actor != self.seat else None)

    def _on_reach_accepted(self, e: dict[str, Any]) -> None:
        actor = e["actor"]
        st = self.seats[actor]
        st.riichi_pending = False
        st.riichi = True
        st.ippatsu = self.rules.ippatsu
        self.deposits += 1
        if isinstance(e.get("scores"), list):
            self.scores = list(e["scores"])
        else:
            self.scores[actor] -= 1000

    def _on_call(self, e: dict[str, Any]) -> None:
        actor, target = e["actor"], e["target"]
        kind = e["type"]
        called = self._tile(e["pai"], kind)
        consumed = [self._tile(t, kind) for t in e["consumed"]]
        self._break_first_go_around_and_ippatsu()
        st = self.seats[actor]
        tid = self.last_discard[1] if self.last_discard is not None else self._id_of(called, self.own.tiles)
        if actor == self.seat:
            ids: list[int] = []
            for t in consumed:
                i = next((i for i in st.tiles if self._tiles[i] is t and i not in ids), None)
                if i is None:
                    raise SeatViewError(f"{kind}: seat {self.seat} does not hold {t.mjai}")
                ids.append(i)
            for i in ids:
                st.remove(i)
        else:
            ids = []
            self._closed[actor] -= len(consumed)
        tiles = tuple(sorted((called, *consumed)))
        source = 3 if kind == "chi" else (target - actor) % 4
        meld = Meld(_CALLS[kind], tiles, called, source)
        st.melds.append(meld)
        st.meld_ids.append((tid, *ids))
        st.suppliers.append(target)
        river = self.seats[target].river
        if river:
            river[-1].called_by = actor
        if actor == self.seat:
            self._note_pao(actor, target, meld)
        self.last_discard = None
        self.phase = CALLED
        self.actor = actor
        self.drawn = None
        self.drawn_rinshan = False
        if kind == "daiminkan":
            st.kans += 1
            self.kan_owners.append(actor)
            self._replacement_next = True
        else:
            self._called_kuikae = (
                legal.kuikae_after_call(self.rules, kind, called.kind, tiles) if actor == self.seat else _NO_KINDS
            )

    def _on_ankan(self, e: dict[str, Any]) -> None:
        actor = e["actor"]
        consumed = [self._tile(t, "ankan") for t in e["consumed"]]
        kind = consumed[0].kind
        st = self.seats[actor]
        if actor == self.seat:
            ids = [i for i in st.tiles if i >> 2 == kind]
            for i in ids:
                st.remove(i)
        else:
            ids = [self._id_of(t, self.own.tiles) for t in consumed[:1]]
            self._closed[actor] -= 4
        st.melds.append(Meld(MeldKind.ANKAN, tuple(sorted(consumed))))
        st.meld_ids.append(tuple(ids))
        st.suppliers.append(None)
        self.drawn = None
        self.actor = actor
        self.kakan_tile = ids[0]
        self._kan_is_ankan = True
        if self.rules.chankan_closed_kan == "kokushi" and kind in _YAOCHU:
            # thirteen orphans may rob it (003 4章5条5-6): a window the next event closes
            self._open_window(
                CHANKAN, (self._chankan_options, self.seat, actor, ids[0], True) if actor != self.seat else None
            )
        else:
            self._finish_kan()

    def _on_kakan(self, e: dict[str, Any]) -> None:
        actor = e["actor"]
        added = self._tile(e["pai"], "kakan")
        st = self.seats[actor]
        if actor == self.seat:
            tid = self._own_id(added, "kakan")
            st.remove(tid)
        else:
            tid = self._id_of(added, self.own.tiles)
            self._closed[actor] -= 1
        for j, m in enumerate(st.melds):
            if m.kind is MeldKind.PON and m.tiles[0].kind == added.kind:
                st.melds[j] = Meld(MeldKind.KAKAN, tuple(sorted((*m.tiles, added))), m.called, m.source, added)
                st.meld_ids[j] = (*st.meld_ids[j], tid)
                break
        else:
            raise SeatViewError(f"kakan: seat {actor} has no pon of {added.mjai}")
        self.drawn = None
        self.actor = actor
        self.kakan_tile = tid
        self._kan_is_ankan = False
        self._open_window(
            CHANKAN, (self._chankan_options, self.seat, actor, tid, False) if actor != self.seat else None
        )

    def _finish_kan(self) -> None:
        """The kan stands (nobody robbed it): it counts, breaks the first go-around and ippatsu, and its owner
        draws a replacement tile."""
        owner = self.actor
        self.seats[owner].kans += 1
        self.kan_owners.append(owner)
        self._break_first_go_around_and_ippatsu()
        self.kakan_tile = None
        self._replacement_next = True

    def _on_dora(self, e: dict[str, Any]) -> None:
        self._dora.append(self._id_of(self._tile(e["dora_marker"], "dora")))

    def _on_hora(self, e: dict[str, Any]) -> None:
        actor = e["actor"]
        self.won[actor] = True
        self._take_scores(e)
        if self.kakan_tile is not None and not self._kan_is_ankan and self._jielu:
            self._unrob_kan()
        self._options = self._options_of = None
        self.last_discard = None
        self.drawn = None
        if not (self._jielu and self.rules.jielu_mode == "points"):
            self.phase = ENDED

    def _unrob_kan(self) -> None:
        """A robbed added kan never stands (洁律 plays on): the meld is a pon again, the tile in its owner's river."""
        owner, tid = self.actor, self.kakan_tile
        assert tid is not None
        st = self.seats[owner]
        for j, m in enumerate(st.melds):
            if m.kind is MeldKind.KAKAN and m.tiles[0].kind == tid >> 2:
                ids = tuple(i for i in st.meld_ids[j] if i != tid)
                pon = list(m.tiles)
                pon.remove(self._tiles[tid])
                st.melds[j] = Meld(MeldKind.PON, tuple(sorted(pon)), m.called, m.source)
                st.meld_ids[j] = ids
                break
        st.river.append(RiverTile(tid, False))
        self.kakan_tile = None

    def _on_ryukyoku(self, e: dict[str, Any]) -> None:
        self._take_scores(e)
        self.phase = ENDED

    def _take_scores(self, e: dict[str, Any]) -> None:
        """The scores after a win or a draw: the event's ``scores``, else the ones before plus its ``deltas``."""
        if isinstance(e.get("scores"), list):
            self.scores = list(e["scores"])
        elif isinstance(e.get("deltas"), list):
            self.scores = [s + d for s, d in zip(self.scores, e["deltas"], strict=True)]

    def _on_end_kyoku(self, e: dict[str, Any]) -> None:
        self.phase = ENDED
        self.drawn = None
        self.last_discard = None

    def _on_dead_hand(self, e: dict[str, Any]) -> None:
        self.seats[e["actor"]].dead = True

    # -- comparing -----------------------------------------------------------------------------------------

    def facts(self) -> dict[str, Any]:
        """The view's state as plain data (what :func:`seat_facts` gives from the engine)."""
        self._settle_window()
        return _facts(self, self.seat, self._closed)


_HANDLERS = {
    "start_game": SeatView._on_start_game,
    "start_kyoku": SeatView._on_start_kyoku,
    "tsumo": SeatView._on_tsumo,
    "dahai": SeatView._on_dahai,
    "reach": SeatView._on_reach,
    "reach_accepted": SeatView._on_reach_accepted,
    "chi": SeatView._on_call,
    "pon": SeatView._on_call,
    "daiminkan": SeatView._on_call,
    "ankan": SeatView._on_ankan,
    "kakan": SeatView._on_kakan,
    "dora": SeatView._on_dora,
    "hora": SeatView._on_hora,
    "ryukyoku": SeatView._on_ryukyoku,
    "end_kyoku": SeatView._on_end_kyoku,
    "dead_hand": SeatView._on_dead_hand,
}


PRIVATE_KEYS: dict[str, frozenset[str]] = {"start_game": frozenset({"seed"}), "ryukyoku": frozenset({"silent"})}
"""jantaku extensions no player sees, by event type: the seed fixes every wall of the game; the seats that stayed
silent at a draw though tenpai are known to no other player."""


def as_seen_by(event: dict[str, Any], seat: int) -> dict[str, Any]:
    """``event`` as ``seat`` receives it (the mjai.app convention): another player's draw and dealt tiles
    ``"?"``, ``start_game`` with the seat as its ``id`` and without the seed, an exhaustive draw without the hands
    that stayed silent. An event the seat sees whole is returned as it is (not copied); a changed one is a new
    dict (the input is never changed).

    >>> as_seen_by({"type": "tsumo", "actor": 1, "pai": "5m"}, 0)
    {'type': 'tsumo', 'actor': 1, 'pai': '?'}
    >>> as_seen_by({"type": "dahai", "actor": 1, "pai": "5m", "tsumogiri": True}, 0)["pai"]
    '5m'
    """
    kind = event.get("type")
    if kind == "tsumo":
        if event.get("actor") != seat and event.get("pai") != HIDDEN:
            return {**event, "pai": HIDDEN}
        return event
    if kind == "start_kyoku" and isinstance(event.get("tehais"), list):
        hands = [list(h) if s == seat else [HIDDEN] * len(h) for s, h in enumerate(event["tehais"])]
        return {**event, "tehais": hands}
    private = PRIVATE_KEYS.get(kind) if isinstance(kind, str) else None
    if private is not None and not private.isdisjoint(event):
        event = {k: v for k, v in event.items() if k not in private}
    if kind == "start_game" and event.get("id") != seat:
        event = {**event, "id": seat}
    return event


class SeenEvents(Sequence[dict[str, Any]]):
    """A hand's live event list as one seat sees it (:func:`as_seen_by` applied as each is read): what
    :attr:`~jantaku.bots.base.PlayerView.events` gives a bot at a table, the counterpart of :attr:`SeatView.events`.
    It grows as the hand goes on.

    >>> live = [{"type": "tsumo", "actor": 2, "pai": "E"}]
    >>> seen = SeenEvents(live, 0)
    >>> live.append({"type": "dahai", "actor": 2, "pai": "E", "tsumogiri": True})
    >>> [e["pai"] for e in seen]
    ['?', 'E']
    """

    __slots__ = ("_events", "_seat")

    def __init__(self, events: list[dict[str, Any]], seat: int) -> None:
        self._events = events
        self._seat = seat

    def __len__(self) -> int:
        return len(self._events)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [as_seen_by(e, self._seat) for e in self._events[index]]
        return as_seen_by(self._events[index], self._seat)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        seat = self._seat
        for e in self._events:
            yield as_seen_by(e, seat)


def seat_facts(kyoku: legal.PlayState, seat: int) -> dict[str, Any]:
    """The engine's projection of what ``seat`` knows of the hand ``kyoku`` (the keys of
    :meth:`SeatView.facts`): a view built from that seat's events must give the same."""
    return _facts(kyoku, seat, [len(st.tiles) for st in kyoku.seats])


def _facts(k: Any, seat: int, closed: list[int]) -> dict[str, Any]:
    """The facts one seat knows, read the same way from an engine or a view (both have the engine's names)."""
    tile = k._tiles
    own = k.seats[seat]
    drawn = k.drawn if k.phase == DRAWN and k.actor == seat else None
    return {
        "seat": seat,
        "round_wind": k.round_wind,
        "hand_number": k.kyoku_number,
        "dealer": k.dealer,
        "honba": k.honba,
        "deposits": k.deposits,
        "scores": list(k.scores),
        "tiles_left": k.tiles_left,
        "dora_indicators": [tile[i].mjai for i in k._dora_ids()],
        "hand": sorted(tile[i].mjai for i in own.tiles),
        "drawn": tile[drawn].mjai if drawn is not None else None,
        "closed_counts": [len(own.tiles) if s == seat else closed[s] for s in range(4)],
        "melds": [[str(m) for m in st.melds] for st in k.seats],
        "rivers": [[(tile[r.tile].mjai, r.tsumogiri, r.riichi, r.called_by) for r in st.river] for st in k.seats],
        "riichi": [st.riichi for st in k.seats],
        "won": list(k.won),
        "first_go_around": k.first_go_around,
        "kans": list(k.kan_owners),
        "visible": visible_counts(k.seats, k._dora_ids()),
        "own_flags": (own.riichi, own.double_riichi, own.ippatsu, own.furiten_temp, own.furiten_riichi, own.dead),
        "pao": dict(own.pao),
    }


def visible_counts(seats: Sequence[SeatState], dora_ids: Sequence[int]) -> list[int]:
    """Per kind, the tiles every seat sees outside the closed hands: the rivers' tiles nobody called (a called tile
    is in its meld), the melds' tiles and the dora indicators (tile ids); the same for the engine's seats and for a
    view's."""
    seen = [0] * 34
    for st in seats:
        for r in st.river:
            if r.called_by is None:
                seen[r.tile >> 2] += 1
        for m in st.melds:
            for t in m.tiles:
                seen[t.kind] += 1
    for i in dora_ids:
        seen[i >> 2] += 1
    return seen
