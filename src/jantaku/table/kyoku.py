"""One hand (kyoku) as a state machine: ``legal_actions(seat)`` and ``apply(action)``.

The engine enforces every rule the rule set names: draws from the live wall and replacement tiles from the
dead wall, calls and their priority (win > pon/kan > chi), riichi and its conditions, ippatsu, furiten of
the three kinds, kuikae, kan limits and kan dora timing, no calls on the last discard and no kan after it,
abortive draws, the exhaustive draw with tenpai payments or nagashi mangan, several rons on one discard,
and pao. Every change is recorded as an mjai event in :attr:`Kyoku.events`.

洁律 (``family = "jielu"``) runs in the same machine, through the rule set's switches: no dead wall (every tile
is drawn, replacements from the wall's tail, no dora), no riichi, no furiten, calls on the last discard, a kan on
the last tile or right after a chi or pon; a win is legal when some choice of wildcards makes the hand worth a
point (:func:`jantaku.jielu.can_win`), not by its waits; under the points mode winners leave the hand and the
others play on until three have won or nobody can draw.

Phases: after a draw the drawing seat acts (:data:`DRAWN`); after a chi or pon the caller must discard
(:data:`CALLED`); after a discard every seat that can ron or call answers (:data:`RESPONSES`: each of them
applies one of its legal actions, a pass included); after an added kan (or a closed kan a thirteen-orphans
hand may rob) the seats that can rob it answer (:data:`CHANKAN`); at an exhaustive draw the tenpai seats that
the rule set lets stay silent (``tenpai_silence``) declare ``tenpai`` or ``noten`` (:data:`DECLARE`: asked
together, none seeing another's answer before the draw's ``ryukyoku`` event). Seats without a choice are
never asked.

>>> from jantaku.rules import load_rules
>>> k = Kyoku(load_rules("tenhou"), Wall.from_seed(7))
>>> k.phase, k.to_act()
('drawn', [0])
>>> a = k.legal_actions(0)[0]
>>> k.apply(a); k.events[-1]["type"]
'dahai'
"""

from __future__ import annotations

import copy
from bisect import insort
from typing import Any

from jantaku.errors import JantakuError
from jantaku.meld import Meld, MeldKind
from jantaku.rules import Ruleset
from jantaku.shapes.shanten import BLOCK_OF_KIND, BLOCK_WEIGHT
from jantaku.tiles import Tile

from . import legal
from .actions import (
    ANKAN,
    CHI,
    DAIMINKAN,
    DISCARD,
    KAKAN,
    KYUUSHU,
    NOTEN,
    PASS,
    PON,
    RIICHI,
    RON,
    TENPAI,
    TSUMO,
    Action,
)
from .endings import HandEndings
from .jielu_wins import JieluWins, jielu_table_for
from .legal import (
    _NO_KINDS,
    _YAOCHU,
    CALLED,
    CHANKAN,
    DECLARE,
    DRAWN,
    ENDED,
    RESPONSES,
    holds_run_partners,
)
from .playerview import PlayerView, TableFeed
from .public_codes import PublicCodes
from .results import HandResult, WinRecord
from .seat import RiverTile, SeatState
from .tileids import tile_tables
from .wall import LIVE_START, Wall

__all__ = [
    "CALLED",
    "CHANKAN",
    "DECLARE",
    "DRAWN",
    "ENDED",
    "RESPONSES",
    "IllegalActionError",
    "Kyoku",
]

_WIND_MJAI = ("E", "S", "W", "N")
_RINSHAN_TAKEN = tuple(frozenset((134, 135, 132, 133)[:n]) for n in range(5))


class IllegalActionError(JantakuError):
    """An action the rules do not allow now; the message names the rule. The state is left unchanged."""


class Kyoku(HandEndings, JieluWins, legal.PlayRules):
    """One hand from the deal to its result. See the module docs.

    Args:
        rules: the rule set.
        wall: the 136 tiles in dealing order.
        dealer: the dealer's seat.
        round_wind: 0 East, 1 South, 2 West, 3 North.
        honba, deposits: counter and riichi sticks on the table at the start.
        scores: every seat's points at the start.
        kyoku_number: 1-4 within the round (for records; default ``dealer + 1``).
    """

    def __init__(
        self,
        rules: Ruleset,
        wall: Wall,
        *,
        dealer: int = 0,
        round_wind: int = 0,
        honba: int = 0,
        deposits: int = 0,
        scores: list[int] | None = None,
        kyoku_number: int | None = None,
    ) -> None:
        self.rules = rules
        self.wall = wall
        self.dealer = dealer
        self.round_wind = round_wind
        self.honba = honba
        self.deposits = deposits
        self.start_deposits = deposits
        self.scores = list(scores) if scores is not None else [rules.starting_points] * 4
        self.start_scores = list(self.scores)
        self.kyoku_number = kyoku_number if kyoku_number is not None else dealer + 1
        self._red = rules.red_fives
        self._tiles, self._mjai, self._keys = tile_tables(self._red)
        self.seats = [SeatState() for _ in range(4)]
        self.public = PublicCodes()
        """Every seat's river and melds as integers, for encoders (:mod:`jantaku.table.public_codes`)."""
        self.live_next = LIVE_START
        self.rinshan_taken = 0
        self._dead_wall = rules.dead_wall
        self._wall_end = 122 if rules.dead_wall else 136
        self.dora_revealed = 1 if rules.dead_wall else 0
        self._jielu = rules.family == "jielu"
        self._furiten = rules.furiten
        self._play_on = self._jielu and rules.jielu_mode == "points"
        self._fan_table = jielu_table_for(rules) if self._jielu else None
        self.won = [False] * 4
        """Seats that have won this hand (under 洁律's points mode they leave it and the others play on)."""
        self.wins: list[WinRecord] = []
        self.pending_dora = 0
        self.kan_owners: list[int] = []
        self.first_go_around = True
        self.has_discarded = [False] * 4
        self.first_winds: list[int] = []
        self.phase = DRAWN
        self.actor = dealer
        self.drawn: int | None = None
        self.drawn_rinshan = False
        self.last_discard: tuple[int, int] | None = None
        self.kakan_tile: int | None = None
        self.kakan_is_ankan = False
        self.options: dict[int, list[Action]] = {}
        self.answers: dict[int, Action] = {}
        self.result: HandResult | None = None
        self.events: list[dict[str, Any]] = []
        self._feed: TableFeed | None = None
        """The seats' views' side of the hand (:meth:`view`), made when a view is first asked for."""
        self._answers: list[list[tuple[int, Action]]] = [[], [], [], []]
        """Per seat, its answers to discards, kans and the draw's declarations, each after how many of the hand's
        events it was given (what the seat's view learns of its own passes)."""
        self._called_kuikae: frozenset[int] = frozenset()
        self._legal_cache: tuple[int, int, list[Action]] | None = None
        self._draw_tenpai: list[bool] = []
        self._step = 0
        self._floor_before_draw = -1
        aborts = rules.abortive_draws
        self._abort_four_riichi = "four_riichi" in aborts
        self._abort_four_winds = "four_winds" in aborts
        self._abort_four_kans = "four_kans" in aborts
        self._deal()

    # -- helpers -------------------------------------------------------------------------------------------

    def tile(self, tile_id: int) -> Tile:
        """The :class:`~jantaku.tiles.Tile` of a tile id under this hand's red-five setting."""
        return self._tiles[tile_id]

    def mjai(self, tile_id: int) -> str:
        return self._mjai[tile_id]

    @property
    def live_end(self) -> int:
        """One past the last live-wall index (the dead wall keeps 14 tiles; without one, replacement tiles come
        from the wall's tail)."""
        return self._wall_end - self.rinshan_taken

    @property
    def tiles_left(self) -> int:
        """Tiles left to draw from the live wall."""
        return self.live_end - self.live_next

    def dora_indicators(self) -> list[int]:
        return [self.wall.tiles[self.wall.dora_indicator_index(k)] for k in range(self.dora_revealed)]

    def ura_indicators(self) -> list[int]:
        return [self.wall.tiles[self.wall.ura_indicator_index(k)] for k in range(self.dora_revealed)]

    def seat_wind(self, seat: int) -> int:
        return (seat - self.dealer) % 4

    def to_act(self) -> list[int]:
        """Seats whose decision the hand is waiting for (empty once it has ended)."""
        if self.phase in (DRAWN, CALLED):
            return [self.actor]
        if self.phase in (RESPONSES, CHANKAN, DECLARE):
            return [s for s in sorted(self.options) if s not in self.answers]
        return []

    def copy(self) -> Kyoku:
        """An independent copy (for search and what-if analysis)."""
        new = copy.copy(self)
        new.seats = [s.copy() for s in self.seats]
        new.public = self.public.copy()
        new.scores = list(self.scores)
        new.kan_owners = list(self.kan_owners)
        new.has_discarded = list(self.has_discarded)
        new.first_winds = list(self.first_winds)
        new.won = list(self.won)
        new.wins = list(self.wins)
        new.options = {k: list(v) for k, v in self.options.items()}
        new.answers = dict(self.answers)
        new.events = list(self.events)
        new._feed = None
        new._answers = [list(a) for a in self._answers]
        new._legal_cache = None
        return new

    def _emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` knows of this hand, for its agent: a :class:`~jantaku.table.playerview.PlayerView` built
        from the events as the seat received them (the same object for the whole hand). It is brought up to date
        each time it is asked for here, and once the hand is over in a :class:`~jantaku.table.game.Game` (a view
        kept past its hand holds the whole hand). Raises :class:`IllegalActionError` for a seat that is not 0-3."""
        feed = self._feed
        if feed is not None and type(seat) is int and 0 <= seat <= 3:  # a bool is no seat
            if len(feed.public) != len(self.events):
                feed.publish(self.events)
            view = feed.views[seat]
            if view is not None:
                return view
        if type(seat) is not int or not 0 <= seat <= 3:
            raise IllegalActionError(f"seat must be 0-3, got {seat!r}")
        if feed is None:
            feed = self._feed = TableFeed(self._answers)
        feed.publish(self.events)
        view = feed.views[seat]
        if view is None:
            view = feed.views[seat] = PlayerView(seat, self.rules, feed.public, feed.own[seat], feed.answers[seat])
        return view

    def publish_events(self) -> None:
        """Publish the hand's new events to its seats' views (:meth:`view`); nothing to do before one is asked
        for. The table publishes lazily, so a game whose agents never read a view pays nothing for them."""
        if self._feed is not None:
            self._feed.publish(self.events)

    # -- what a seat may do: the rules code (legal.PlayRules) reads these names, which a seat's view has too ----

    _seat_wind = seat_wind
    _dora_ids = dora_indicators
    _ura_ids = ura_indicators

    # -- the deal ------------------------------------------------------------------------------------------

    def _deal(self) -> None:
        hands = self.wall.haipai(self.dealer)
        keys = self._keys
        for seat, ids in enumerate(hands):
            st = self.seats[seat]  # SeatState.add for each tile, at once
            st.tiles.extend(ids)
            counts = st.counts
            codes = st._codes
            key_counts = st.key_counts
            for i in ids:
                k = i >> 2
                counts[k] += 1
                codes[BLOCK_OF_KIND[k]] += BLOCK_WEIGHT[k]
                key_counts[keys[i]] += 1
            st.key_table = keys
            st.keys = sorted({keys[i] for i in ids})
            st._waits = None
            st.shanten_floor = -1
        start: dict[str, Any] = {
            "type": "start_kyoku",
            "bakaze": _WIND_MJAI[self.round_wind],
            "kyoku": self.kyoku_number,
            "honba": self.honba,
            "kyotaku": self.deposits,
            "oya": self.dealer,
        }
        if self._dead_wall:  # without a dead wall there is no dora (004 不设置王牌)
            start["dora_marker"] = self.mjai(self.dora_indicators()[0])
        start["scores"] = list(self.scores)
        mjai = self._mjai
        start["tehais"] = [[mjai[i] for i in hands[s]] for s in range(4)]
        self._emit(start)
        self._draw(self.dealer)

    def _draw(self, seat: int, rinshan: bool = False) -> None:
        if rinshan:
            if self._dead_wall:
                tile = self.wall.tiles[self.wall.rinshan_index(self.rinshan_taken)]
            else:
                tile = self.wall.tiles[self.live_end - 1]  # the wall's tail
            self.rinshan_taken += 1
        else:
            tile = self.wall.tiles[self.live_next]
            self.live_next += 1
        st = self.seats[seat]
        if not self._jielu:
            waits = st._waits
            self._waits_before_draw = st.waits() if waits is None else waits
            self._floor_before_draw = st.shanten13  # exact, or a lower bound (see SeatState.shanten_floor)
        st.tiles.append(tile)  # st.add(tile), inlined (every draw)
        k = tile >> 2
        st.counts[k] += 1
        st._waits = None
        st.shanten_floor = -1
        st._codes[BLOCK_OF_KIND[k]] += BLOCK_WEIGHT[k]
        key = self._keys[tile]
        kc = st.key_counts
        kc[key] += 1
        if kc[key] == 1:
            insort(st.keys, key)
        self.phase = DRAWN
        self.actor = seat
        self.drawn = tile
        self.drawn_rinshan = rinshan
        self._legal_cache = None
        self.events.append({"type": "tsumo", "actor": seat, "pai": self._mjai[tile]})

    # -- legal actions -------------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not asked to act)."""
        if self.phase in (RESPONSES, CHANKAN, DECLARE):
            if seat in self.options and seat not in self.answers:
                return self.options[seat]
            return []
        if self.phase not in (DRAWN, CALLED) or seat != self.actor:
            return []
        cache = self._legal_cache
        if cache is not None and cache[0] == self._step and cache[1] == seat:
            return cache[2]
        actions = self._own_turn_actions(seat)
        self._legal_cache = (self._step, seat, actions)
        return actions

    # -- scoring a win -------------------------------------------------------------------------------------

    # -- applying actions ----------------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply one seat's action. Raises :class:`IllegalActionError` (state unchanged) if it is not legal."""
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {action!r}")
        cache = self._legal_cache  # legal_actions' own cache, looked up here first (the common case)
        if cache is not None and cache[0] == self._step and cache[1] == action.seat:
            legal = cache[2]
        else:
            legal = self.legal_actions(action.seat)
        for a in legal:  # an action the engine offered is usually the very object: look for it first
            if a is action:
                break
        else:
            if action not in legal:  # compares tiles through Tile's rich comparison: slower
                raise IllegalActionError(self._why_illegal(action, legal))
        self._step += 1
        self._legal_cache = None
        kind = action.kind
        if self.phase in (RESPONSES, CHANKAN, DECLARE):
            self.answers[action.seat] = action
            self._answers[action.seat].append((len(self.events), action))
            if len(self.answers) == len(self.options):
                if self.phase == DECLARE:
                    silent = [s for s, a in self.answers.items() if a.kind == NOTEN]
                    self._settle_exhaustive_draw(self._draw_tenpai, silent)
                elif self.phase == CHANKAN:
                    self._resolve_chankan()
                else:
                    self._resolve_responses()
            return
        if kind in (DISCARD, RIICHI):
            self._discard(action)
        elif kind == TSUMO:
            self._tsumo(action.seat)
        elif kind == ANKAN:
            self._ankan(action)
        elif kind == KAKAN:
            self._kakan(action)
        elif kind == KYUUSHU:
            self._abort("nine_terminals", actor=action.seat)
        else:  # pragma: no cover - legal_actions offers nothing else
            raise IllegalActionError(f"unexpected action {action!r}")

    def _why_illegal(self, action: Action, legal: list[Action]) -> str:
        seat = action.seat
        if self.phase == ENDED:
            return "the hand has ended"
        if not 0 <= seat <= 3:
            return f"seat must be 0-3, got {seat}"
        waiting = self.to_act()
        if seat not in waiting:
            who = ", ".join(str(s) for s in waiting)
            return f"seat {seat} is not asked to act now (waiting for seat {who}, phase {self.phase})"
        kind = action.kind
        same_kind = [a for a in legal if a.kind == kind]
        st = self.seats[seat]
        if kind in (DISCARD, RIICHI) and action.tile is not None:
            if not any(self._tiles[i] == action.tile for i in st.tiles):
                return f"seat {seat} has no {action.tile} to discard"
            if self.phase == CALLED and action.tile.kind in self._called_kuikae:
                return f"kuikae: {action.tile} may not be discarded right after this call (rule set {self.rules.name})"
            if st.riichi and kind == DISCARD:
                return "after riichi the drawn tile must be discarded"
            if action.tsumogiri and (self.drawn is None or self._tiles[self.drawn] != action.tile):
                return f"{action.tile} is not the tile just drawn (tsumogiri)"
        if kind == RIICHI:
            if not self.rules.riichi:
                return f"rule set {self.rules.name} has no riichi"
            if st.riichi:
                return "riichi has already been declared"
            if not st.is_closed:
                return "riichi needs a closed hand"
            if self.scores[seat] < self.rules.riichi_min_points:
                return f"riichi needs {self.rules.riichi_min_points} points"
            if self.tiles_left < self.rules.riichi_min_wall:
                return f"riichi needs {self.rules.riichi_min_wall} tiles left in the wall"
            return f"riichi needs a tenpai hand after discarding {action.tile}"
        if kind == TSUMO:
            if self._jielu:
                return "no choice of wildcards makes this hand worth 1 point (tsumo is not possible)"
            return "the hand is not complete with a yaku (tsumo is not possible)"
        if kind == RON:
            if self._jielu:
                return f"seat {seat} cannot ron here: no choice of wildcards makes the hand worth 1 point"
            return f"seat {seat} cannot ron here (not a winning tile, furiten, or no yaku)"
        if kind in (CHI, PON, DAIMINKAN):
            if st.riichi:
                return "a player in riichi cannot call"
            if self.tiles_left == 0 and not self.rules.last_discard_calls:
                return "no calls on the last discard"
            if kind == CHI and self.last_discard and self._next_active(self.last_discard[0]) != seat:
                return "chi only from the player to the left"
            if same_kind:
                return f"{kind} is possible only as {', '.join(repr(a) for a in same_kind)}"
            return f"seat {seat} cannot {kind} this tile"
        if kind in (ANKAN, KAKAN):
            if self.tiles_left == 0 and not self.rules.last_discard_calls:
                return "no kan after the last tile"
            if len(self.kan_owners) >= self.rules.max_kans:
                return f"no more than {self.rules.max_kans} kans in a hand"
            if st.riichi and self.rules.kan_after_riichi == "closed_same_yaku":
                return (
                    "after riichi only a closed kan that keeps the waits, the hand's reading and the number of yaku "
                    f"(no third kan: sankantsu; rule set {self.rules.name})"
                )
            if st.riichi:
                return "after riichi only a closed kan that keeps the waits and the hand's reading"
            return f"seat {seat} cannot {kind} with these tiles"
        if kind == KYUUSHU:
            return "nine terminals: only on the first uninterrupted turn with nine different terminals/honors"
        if kind == PASS:
            return "there is nothing to pass on now"
        if kind in (TENPAI, NOTEN):
            return "tenpai or noten is declared only at an exhaustive draw, by a tenpai seat that may stay silent"
        return f"{action!r} is not legal now"

    def _discard(self, action: Action) -> None:
        seat = action.seat
        st = self.seats[seat]
        tile_obj = action.tile
        assert tile_obj is not None
        if action.tsumogiri:
            tid = self.drawn
        else:
            tiles = self._tiles
            drawn = self.drawn
            tid = None
            for i in st.tiles:
                if tiles[i] is tile_obj and i != drawn:
                    tid = i
                    break
        assert tid is not None
        riichi = action.kind == RIICHI
        if riichi:
            self._emit({"type": "reach", "actor": seat})
            st.riichi_pending = True
            if self.first_go_around and not self.has_discarded[seat]:
                st.double_riichi = True
        k = tid >> 2
        st.tiles.remove(tid)  # st.remove(tid), inlined (every discard)
        st.counts[k] -= 1
        st._codes[BLOCK_OF_KIND[k]] -= BLOCK_WEIGHT[k]
        key = self._keys[tid]
        kc = st.key_counts
        kc[key] -= 1
        if not kc[key]:
            st.keys.remove(key)
        if self.phase == DRAWN and not self._jielu:
            if k == self.drawn >> 2:  # type: ignore[operator]
                # the hand is the one before the draw again (tsumogiri, or the same kind): so are its waits
                st._waits = self._waits_before_draw
                st.shanten13 = self._floor_before_draw
                st.shanten_floor = -1
            else:
                # the hand before the draw with one tile exchanged: shanten counts exchanges, so it is one lower
                # at most; most discards of a far hand then skip the wait computation (SeatState.waits)
                st._waits = None
                st.shanten_floor = self._floor_before_draw - 1
        else:
            st._waits = None
            st.shanten_floor = -1
        st.river.append(RiverTile(tid, action.tsumogiri, riichi))
        self.public.discard(seat, k | action.tsumogiri << 6 | riichi << 7 | tile_obj.red << 9)  # discard_code
        st.discarded_kinds[k] = True
        st.furiten_temp = False
        if st.ippatsu and not riichi:
            st.ippatsu = False
        self.has_discarded[seat] = True
        if self.first_go_around and len(self.first_winds) < 4:
            self.first_winds.append(k)
        if self.pending_dora:
            # an open or added kan's indicator turns with the replacement tile's discard (Tenhou logs it first)
            self._reveal_pending_dora()
        self.events.append({"type": "dahai", "actor": seat, "pai": self._mjai[tid], "tsumogiri": action.tsumogiri})
        self.last_discard = (seat, tid)
        self.drawn = None
        self._called_kuikae = _NO_KINDS
        self._open_responses(seat, tid)

    def _reveal_dora(self) -> None:
        self.dora_revealed += 1
        self._emit({"type": "dora", "dora_marker": self.mjai(self.dora_indicators()[-1])})

    def _reveal_pending_dora(self) -> None:
        while self.pending_dora:
            self.pending_dora -= 1
            self._reveal_dora()

    def _open_responses(self, discarder: int, tid: int) -> None:
        options: dict[int, list[Action]] = {}
        kind = tid >> 2
        seats = self.seats
        regular = not self._jielu
        for off in (1, 2, 3):
            seat = (discarder + off) % 4
            if regular:
                # legal.response_options' own first tests, saving the call (the usual case): the seat holds fewer
                # than two of the tile, its known waits miss it or it is not tenpai, and it holds no two tiles that
                # make a run with it (legal.holds_run_partners) or is not the next seat
                st = seats[seat]
                c = st.counts
                waits = st._waits
                if (
                    c[kind] < 2
                    and (kind not in waits if waits is not None else st.shanten_floor >= 1)
                    and (off > 1 or kind >= 27 or not holds_run_partners(c, kind))
                ):
                    continue
            acts = self._response_options(seat, discarder, tid)
            if acts:
                options[seat] = acts
        self.options = options
        self.answers = {}
        if options:
            self.phase = RESPONSES
        else:
            self._after_discard_settles()

    def _next_active(self, seat: int) -> int:
        """The next seat in turn order that is still playing (winners leave under 洁律's points mode)."""
        nxt = (seat + 1) % 4
        while self.won[nxt]:
            nxt = (nxt + 1) % 4
        return nxt

    def _resolve_responses(self) -> None:
        assert self.last_discard is not None
        discarder, tid = self.last_discard
        answers = self.answers
        order = [(discarder + off) % 4 for off in (1, 2, 3)]
        rons = [s for s in order if answers.get(s) is not None and answers[s].kind == RON]
        self._mark_missed(order, rons, tid >> 2)
        self.options = {}
        self.answers = {}
        if rons:
            self._ron(rons, discarder, tid, chankan=False)
            return
        call = next((answers[s] for s in order if answers.get(s) and answers[s].kind in (PON, DAIMINKAN)), None)
        if call is None:
            call = next((answers[s] for s in order if answers.get(s) and answers[s].kind == CHI), None)
        if call is None:
            self._after_discard_settles()
            return
        self._accept_pending_riichi(discarder)
        self._call(call, discarder, tid)

    def _mark_missed(self, order: list[int], rons: list[int], kind: int) -> None:
        """Every seat that could have won on this tile and did not is furiten (000 Art 64; 001 5章5条)."""
        if not self._furiten:
            return
        for s in order:
            st = self.seats[s]
            if s not in rons and kind in st.waits():
                st.miss_winning_tile()

    def _accept_pending_riichi(self, seat: int) -> bool:
        st = self.seats[seat]
        if not st.riichi_pending:
            return False
        st.riichi_pending = False
        st.riichi = True
        st.ippatsu = self.rules.ippatsu
        self.scores[seat] -= 1000
        self.deposits += 1
        deltas = [0, 0, 0, 0]
        deltas[seat] = -1000
        self._emit({"type": "reach_accepted", "actor": seat, "deltas": deltas, "scores": list(self.scores)})
        return True

    def _after_discard_settles(self) -> None:
        """The discard was not claimed: accept a riichi, check abortive draws, then the next draw or the end."""
        assert self.last_discard is not None
        discarder, _ = self.last_discard
        if self.seats[discarder].riichi_pending:
            self._accept_pending_riichi(discarder)
            if self._abort_four_riichi and sum(s.riichi for s in self.seats) == 4:
                self._abort("four_riichi")
                return
        if self.first_go_around:
            winds = self.first_winds
            if (
                self._abort_four_winds
                and len(winds) == 4
                and all(self.has_discarded)
                and winds[0] in (27, 28, 29, 30)
                and winds[0] == winds[1] == winds[2] == winds[3]
            ):
                self._abort("four_winds")
                return
            if all(self.has_discarded) and discarder == (self.dealer + 3) % 4:
                self.first_go_around = False
        owners = self.kan_owners
        if self._abort_four_kans and len(owners) == 4 and len(set(owners)) > 1:
            # the fourth kan's replacement discard has passed without a win
            self._abort("four_kans")
            return
        if self.live_next >= self._wall_end - self.rinshan_taken:  # self.live_end, inlined (every discard)
            if self._jielu:
                self._jielu_end("wall_empty")
            else:
                self._exhaustive_draw()
            return
        nxt = (discarder + 1) % 4
        self._draw(self._next_active(discarder) if self.won[nxt] else nxt)

    def _break_first_go_around_and_ippatsu(self) -> None:
        self.first_go_around = False
        for st in self.seats:
            st.ippatsu = False

    def _call(self, action: Action, discarder: int, tid: int) -> None:
        seat = action.seat
        st = self.seats[seat]
        self._break_first_go_around_and_ippatsu()
        consumed_ids: list[int] = []
        for t in action.consumed:
            i = next(i for i in st.tiles if self._tiles[i] is t and i not in consumed_ids)
            consumed_ids.append(i)
        for i in consumed_ids:
            st.remove(i)
        # 1 right, 2 across, 3 left; when winners have left (洁律), a chi's discarder is the previous player still
        # in the hand, whoever sits to the left
        source = 3 if action.kind == CHI else (discarder - seat) % 4
        called = self._tiles[tid]
        tiles = tuple(sorted((called, *action.consumed)))
        kind_map = {CHI: MeldKind.CHI, PON: MeldKind.PON, DAIMINKAN: MeldKind.MINKAN}
        meld = Meld(kind_map[action.kind], tiles, called, source)
        st.melds.append(meld)
        st.meld_ids.append((tid, *consumed_ids))
        st.suppliers.append(discarder)
        self.seats[discarder].river[-1].called_by = seat
        self.public.mark_called(discarder)
        self.public.set_melds(seat, st.melds)
        self._emit(
            {
                "type": action.kind,
                "actor": seat,
                "target": discarder,
                "pai": self.mjai(tid),
                "consumed": [self.mjai(i) for i in consumed_ids],
            }
        )
        self._note_pao(seat, discarder, meld)
        self.last_discard = None
        if action.kind == DAIMINKAN:
            st.kans += 1
            self.kan_owners.append(seat)
            self._kan_dora(open_kan=True)
            self._replacement_draw(seat)
            return
        self._called_kuikae = legal.kuikae_after_call(self.rules, action.kind, tid >> 2, tiles)
        self.phase = CALLED
        self.actor = seat
        self.drawn = None
        self.drawn_rinshan = False

    def _kan_dora(self, open_kan: bool) -> None:
        if not self.rules.kan_dora:
            return
        if self.rules.kan_dora_timing == "immediate" or not open_kan:
            self._reveal_pending_dora()
            self._reveal_dora()
        else:
            self.pending_dora += 1

    def _ankan(self, action: Action) -> None:
        seat = action.seat
        st = self.seats[seat]
        kind = action.consumed[0].kind
        ids = [i for i in st.tiles if i >> 2 == kind]
        for i in ids:
            st.remove(i)
        meld = Meld(MeldKind.ANKAN, tuple(sorted(action.consumed)))
        st.melds.append(meld)
        st.meld_ids.append(tuple(ids))
        st.suppliers.append(None)
        self.public.set_melds(seat, st.melds)
        self._emit({"type": "ankan", "actor": seat, "consumed": [self.mjai(i) for i in ids]})
        self.drawn = None
        # thirteen orphans may rob a closed kan where the rule set allows it; a robbed kan never stood, so it
        # counts, breaks ippatsu and turns its indicator only once nobody robs it (003 4章5条5-6)
        if self.rules.chankan_closed_kan == "kokushi" and kind in _YAOCHU:
            self._open_chankan(seat, ids[0], kokushi_only=True)
        else:
            self._finish_ankan(seat)

    def _finish_ankan(self, seat: int) -> None:
        self.seats[seat].kans += 1
        self.kan_owners.append(seat)
        self._break_first_go_around_and_ippatsu()
        self._kan_dora(open_kan=False)
        self._replacement_draw(seat)

    def _replacement_draw(self, seat: int) -> None:
        """A kan's replacement tile; without a dead wall the wall may be empty (a kan on the last tile, 004
        海底牌可副露开杠): then nobody can draw and the hand ends."""
        if not self._dead_wall and self.tiles_left == 0:
            self.drawn = None
            if self._jielu:
                self._jielu_end("wall_empty")
            else:
                self._exhaustive_draw()
            return
        self._draw(seat, rinshan=True)

    def _kakan(self, action: Action) -> None:
        seat = action.seat
        st = self.seats[seat]
        added = action.tile
        assert added is not None
        tid = next(i for i in st.tiles if self._tiles[i] is added)
        idx = next(j for j, m in enumerate(st.melds) if m.kind is MeldKind.PON and m.kind34 == tid >> 2)
        pon = st.melds[idx]
        st.remove(tid)
        st.melds[idx] = Meld(MeldKind.KAKAN, tuple(sorted((*pon.tiles, added))), pon.called, pon.source, added)
        st.meld_ids[idx] = (*st.meld_ids[idx], tid)
        self.public.set_melds(seat, st.melds)
        self._emit(
            {
                "type": "kakan",
                "actor": seat,
                "pai": self.mjai(tid),
                "consumed": [self.mjai(i) for i in st.meld_ids[idx][:3]],
            }
        )
        self.drawn = None
        self._open_chankan(seat, tid, kokushi_only=False)

    def _open_chankan(self, seat: int, tid: int, kokushi_only: bool) -> None:
        options: dict[int, list[Action]] = {}
        for off in (1, 2, 3):
            other = (seat + off) % 4
            acts = self._chankan_options(other, seat, tid, kokushi_only)
            if acts:
                options[other] = acts
        self.kakan_tile = tid
        self.kakan_is_ankan = kokushi_only
        self.actor = seat
        if options:
            self.options = options
            self.answers = {}
            self.phase = CHANKAN
            return
        self._finish_kan(seat)

    def _finish_kan(self, seat: int) -> None:
        st = self.seats[seat]
        self.kakan_tile = None
        if self.kakan_is_ankan:
            self._finish_ankan(seat)
            return
        st.kans += 1
        self.kan_owners.append(seat)
        self._break_first_go_around_and_ippatsu()
        # an earlier open kan's indicator still waiting turns once this kan stands (Tenhou's logs: kakan, dora,
        # rinshan draw; a robbed kakan turns none)
        self._reveal_pending_dora()
        self._kan_dora(open_kan=True)
        self._replacement_draw(seat)

    def _resolve_chankan(self) -> None:
        seat = self.actor
        tid = self.kakan_tile
        assert tid is not None
        order = [(seat + off) % 4 for off in (1, 2, 3)]
        rons = [s for s in order if self.answers.get(s) is not None and self.answers[s].kind == RON]
        # a closed kan only thirteen orphans may rob: a seat that could not rob it has missed nothing
        could_rob = [s for s in order if s in self.options] if self.kakan_is_ankan else order
        self._mark_missed(could_rob, rons, tid >> 2)
        self.options = {}
        self.answers = {}
        if rons:
            self._ron(rons, seat, tid, chankan=True)
        else:
            self._finish_kan(seat)

    # -- the referee -----------------------------------------------------------------------------------------

    def declare_dead_hand(self, seat: int, reason: str = "") -> None:
        """Rule ``seat``'s hand dead as a referee would (停和, 000 Art 70; 和了放弃, 003 7章2条; 001 7章2条):
        until the hand ends it may not call, kan, declare riichi or win, and it counts as noten at a draw
        (000 Art 72). A pending decision of that seat on a discard becomes a pass."""
        if self.phase == ENDED:
            raise IllegalActionError("the hand has ended")
        if not 0 <= seat <= 3:
            raise IllegalActionError(f"seat must be 0-3, got {seat}")
        st = self.seats[seat]
        if st.dead:
            return
        st.dead = True
        self._legal_cache = None
        self._step += 1
        self._emit({"type": "dead_hand", "actor": seat, "reason": reason})
        if self.phase in (RESPONSES, CHANKAN) and seat in self.options and seat not in self.answers:
            self.apply(Action(PASS, seat))
        elif self.phase == DECLARE and seat in self.options and seat not in self.answers:
            self.apply(Action(NOTEN, seat))  # 000 Art 72: a dead hand counts as noten

    # -- invariants ----------------------------------------------------------------------------------------

    def tiles_counted(self) -> bool:
        """The cheap form of :meth:`tiles_accounted`: hands, melds, rivers and the walls hold 136 tiles."""
        n = (14 if self._dead_wall else 0) + self.live_end - self.live_next  # a dead wall always holds 14
        for st in self.seats:
            n += len(st.tiles) + len(st.river)
            for ids in st.meld_ids:
                n += len(ids)
            for r in st.river:
                if r.called_by is not None:
                    n -= 1
        return n == 136

    def public_codes_agree(self) -> bool:
        """:attr:`public` says what the seats' rivers and melds say."""
        fresh = PublicCodes.of(self.seats, self._tiles)
        return fresh.codes == self.public.codes and fresh.lengths == self.public.lengths

    def tiles_accounted(self) -> bool:
        """Every one of the 136 tiles is in exactly one place: a hand, a meld, a river, the wall or dead wall."""
        wall = self.wall.tiles
        seen = wall[self.live_next : self.live_end]
        for st in self.seats:
            seen += st.tiles
            for ids in st.meld_ids:
                seen += ids
            seen += [r.tile for r in st.river if r.called_by is None]
        if self._dead_wall:
            taken = _RINSHAN_TAKEN[self.rinshan_taken]
            seen += [wall[i] for i in range(self.live_end, 136) if i not in taken]
        return len(seen) == 136 and len(set(seen)) == 136
