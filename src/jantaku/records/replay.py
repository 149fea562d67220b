"""Replay a game record through the table engine and compare every hand with what the record says.

For each hand the wall is rebuilt from the record (its full wall when the source has one, as the mjx
records do; otherwise the dealt hands, the draws in order, the replacement tiles, dora and ura indicators
put where :class:`~jantaku.table.wall.Wall` keeps them, the unseen tiles anywhere else). The engine is then
driven with the record's decisions only - discards, riichi, calls, kans, wins, nine terminals, a tenpai
player's silence at a draw (the ``ryukyoku``'s ``tenpais``, where the rule set allows it) - and
everything else is the engine's own doing: whose turn it is, which calls are possible, kan dora timing,
riichi sticks, the end of the hand, the payments, the next hand's dealer, honba and deposits, and the
final scores. Each difference is reported as a :class:`Mismatch`; after one the replay re-synchronises
with the record at the next hand and goes on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from jantaku.errors import JantakuError
from jantaku.jielu import JieluResult
from jantaku.rules import Ruleset, load_rules, rules_with_changes
from jantaku.table.actions import (
    ANKAN,
    CONTINUE,
    DISCARD,
    KAKAN,
    KYUUSHU,
    NOTEN,
    PASS,
    RIICHI,
    RON,
    STOP,
    TENPAI,
    TSUMO,
    Action,
)
from jantaku.table.game import Game, half_up_thousands, settle, tenhou_thousands
from jantaku.table.kyoku import CHANKAN, DECLARE, DRAWN, ENDED, RESPONSES, Kyoku
from jantaku.table.wall import LIVE_START, Wall, hand_positions
from jantaku.tiles import RED_IDS136

from .errors import RecordError
from .record import GameRecord

__all__ = [
    "Mismatch",
    "ReplayReport",
    "Settlement",
    "infer_settlement",
    "replay_record",
    "rules_for_record",
    "wall_from_hand",
]

_HONORS = {"E": 27, "S": 28, "W": 29, "N": 30, "P": 31, "F": 32, "C": 33}
_COMPARED = ("tsumo", "dahai", "chi", "pon", "daiminkan", "ankan", "kakan", "dora", "reach", "reach_accepted")


@dataclass(frozen=True)
class Mismatch:
    """One difference between the record and the engine."""

    source: str
    hand: str
    what: str
    expected: Any
    got: Any

    def __str__(self) -> str:
        return f"{self.source} {self.hand}: {self.what}: expected {self.expected!r}, got {self.got!r}"


@dataclass
class ReplayReport:
    """The outcome of replaying one record."""

    source: str
    hands: int = 0
    matched: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    dora_timing_known: bool = True
    unverifiable: int = 0
    """Hands the record itself shows to be inconsistent (reported in ``notes``)."""
    notes: list[str] = field(default_factory=list)
    """What the record itself lacks (a truncated last hand, ...): reported, not counted as differences."""
    skipped: list[str] = field(default_factory=list)
    """What the record holds that the replay did not check (no hand at all, a hand cut off or dropped by the
    reader): a check that checked less than the file holds is not a pass."""
    settlement: str | None = None
    """The final settlement read back from the record's own final points (see :func:`infer_settlement`)."""
    final_checked: bool = False
    """The record's final points were compared with the engine's (a difference is in ``mismatches``)."""

    @property
    def complete(self) -> bool:
        """Every hand of the record was replayed and verified (none skipped, none unverifiable)."""
        return self.hands > 0 and not self.skipped and self.unverifiable == 0


_ROUNDING_NAMES = {
    "none": "none (exact, to 0.1)",
    "tenhou": "tenhou (to thousands, five down six up)",
    "half_up": "half_up (to thousands, half up)",
}


@dataclass(frozen=True)
class Settlement:
    """How a game's final points were computed: the zero line, the rank points (uma with any oka to first)
    and the rounding (a :class:`~jantaku.rules.Ruleset`'s ``return_points``, ``rank_points`` and
    ``final_rounding``)."""

    return_points: int
    rank_points: tuple[int, int, int, int]
    rounding: str
    starting_points: int | None = None
    """The record's own starting points, where they are not the rule set's (a club that starts at 30,000)."""

    def changes(self) -> dict[str, Any]:
        """The rule parameters this settlement sets."""
        out: dict[str, Any] = {
            "return_points": self.return_points,
            "rank_points": list(self.rank_points),
            "final_rounding": self.rounding,
        }
        if self.starting_points is not None:
            out["starting_points"] = self.starting_points
        return out

    def __str__(self) -> str:
        uma = "/".join(f"{p // 1000:+d}" for p in self.rank_points)
        start = f"start {self.starting_points:,}, " if self.starting_points is not None else ""
        return f"{start}return {self.return_points:,}, rank points {uma}, rounding {_ROUNDING_NAMES[self.rounding]}"


def _to_thousands(rounding: str, diff: int) -> float:
    if rounding == "tenhou":
        return float(tenhou_thousands(diff))
    if rounding == "half_up":
        return float(half_up_thousands(diff))
    return diff / 1000


def infer_settlement(
    scores: list[int], final: list[float], first_dealer: int, rules: Ruleset, start: int | None = None
) -> Settlement | None:
    """The settlement that turns a record's final scores into its final points, or ``None`` if none does.

    ``start``: the points every player had at the record's first hand, where the record shows them (a club
    that starts at 30,000 has 120,000 on the table, not the rule set's 100,000): the oka follows from it, and a
    start other than the rule set's is named in the result.

    Tried in order: the rule set's own rounding, then Tenhou's five-down/six-up, half up and none; the rule
    set's zero line, then the starting points (no oka) and 30,000. For each, the rank points are read back
    from the players below first (first place too when nothing is rounded); they must be whole thousands,
    never rise with the place, and add up to the oka (4 x (zero line - starting points)); those that give all
    four final points exactly (as :func:`~jantaku.table.game.settle` computes them) fit. Of several, the rule
    set's own settlement wins, then uma in multiples of 5 and symmetric (Tenhou's 10-20 and 5-10, Mahjong
    Soul's 5-15), then the order above: a rounding can hide an odd uma (+41/+10/-10/-21 under five-down
    six-up fits a game that was settled +40/+10/-10/-20 half up).

    Without rounding, a zero line and rank points that differ by the same amount give the same final points;
    the rule set's own zero line is then the one named.

    >>> from jantaku.rules import load_rules
    >>> str(infer_settlement([38200, 29700, 22900, 9200], [48.2, 9.7, -17.1, -40.8], 0, load_rules("tenhou")))
    'return 30,000, rank points +40/+10/-10/-20, rounding none (exact, to 0.1)'
    >>> str(infer_settlement([38600, 29400, 22500, 9500], [48.0, 9.0, -17.0, -40.0], 0, load_rules("tenhou")))
    'return 30,000, rank points +40/+10/-10/-20, rounding tenhou (to thousands, five down six up)'
    >>> str(infer_settlement([43600, 31000, 15000, 10400], [33.6, 11.0, -15.0, -29.6], 0, load_rules("mahjongsoul")))
    'return 25,000, rank points +15/+5/-5/-15, rounding none (exact, to 0.1)'
    >>> infer_settlement([43600, 31000, 15000, 10400], [33.6, 11.0, -15.0, -29.7], 0, load_rules("tenhou")) is None
    True
    >>> str(infer_settlement([52000, 31000, 24000, 13000], [37.0, 6.0, -11.0, -32.0], 0, load_rules("tenhou"), 30000))
    'start 30,000, return 30,000, rank points +15/+5/-5/-15, rounding tenhou (to thousands, five down six up)'
    """
    if len(scores) != 4 or len(final) != 4:
        return None
    want = [round(float(x), 1) for x in final]
    order = sorted(range(4), key=lambda s: (-scores[s], (s - first_dealer) % 4))
    roundings = [rules.final_rounding, *(r for r in ("tenhou", "half_up", "none") if r != rules.final_rounding)]
    begin = rules.starting_points if start is None else start
    own_start = None if begin == rules.starting_points else begin
    fits: list[Settlement] = []
    for rounding in roundings:
        for ret in dict.fromkeys((rules.return_points, begin, 30000)):
            oka = 4 * (ret - begin)
            rank = [0, 0, 0, 0]
            for place, s in enumerate(order):
                rank[place] = round((want[s] - _to_thousands(rounding, scores[s] - ret)) * 1000)
            if rounding != "none":
                rank[0] = oka - sum(rank[1:])
            if any(r % 1000 for r in rank) or sum(rank) != oka or rank != sorted(rank, reverse=True):
                continue
            candidate = Settlement(ret, (rank[0], rank[1], rank[2], rank[3]), rounding, own_start)
            got = settle(rules.replace(**candidate.changes()), list(scores), 0, first_dealer).final
            if [round(x, 1) for x in got] == want:
                fits.append(candidate)
    if not fits:
        return None

    def plausible(c: Settlement) -> tuple[bool, bool, bool]:
        begin = rules.starting_points if c.starting_points is None else c.starting_points
        uma = [c.rank_points[0] - 4 * (c.return_points - begin), *c.rank_points[1:]]
        return (
            c.rank_points == rules.rank_points and c.return_points == rules.return_points,
            all(u % 5000 == 0 for u in uma),
            uma[0] == -uma[3] and uma[1] == -uma[2],
        )

    # several may fit (a rounding that hides an odd uma): the rule set's own, then round and symmetric umas
    return max(fits, key=lambda c: (plausible(c), -fits.index(c)))


def _kind(name: str) -> int:
    if name in _HONORS:
        return _HONORS[name]
    return (int(name[0]) - 1) + 9 * "mps".index(name[1])


class _Ids:
    """Hands out distinct 136-ids for mjai tile names (a red five gets the red id)."""

    def __init__(self, red_fives: bool) -> None:
        self.red = red_fives
        self.used: set[int] = set()

    def take(self, name: str) -> int:
        kind = _kind(name)
        if self.red and name.endswith("r"):
            i = RED_IDS136[kind // 9]
            if i in self.used:
                raise RecordError(f"the red {name[:2]} appears twice")
            self.used.add(i)
            return i
        for i in range(kind * 4, kind * 4 + 4):
            if i in self.used or (self.red and i in RED_IDS136):
                continue
            self.used.add(i)
            return i
        raise RecordError(f"a fifth {name} in one hand")


def wall_from_hand(events: list[dict[str, Any]], red_fives: bool, dead_wall: bool = True) -> Wall:
    """A wall in dealing order that deals and draws exactly what the hand's events show.

    ``dead_wall`` False (洁律: no dead wall, no dora) puts a kan's replacement tiles at the wall's tail, where
    the engine draws them from (index 135, then 134, ...)."""
    start = events[0]
    ids = _Ids(red_fives)
    dealer = start["oya"]
    tiles: list[int | None] = [None] * 136
    hands = [[ids.take(t) for t in start["tehais"][s]] for s in range(4)]
    for seat, positions in enumerate(hand_positions(dealer)):
        for pos, tid in zip(positions, hands[seat], strict=True):
            tiles[pos] = tid
    live = LIVE_START
    rinshan = 0
    after_kan = False
    dora_k = 0
    if dead_wall:
        tiles[130] = ids.take(start["dora_marker"])
    ura_given: list[str] = []
    for e in events[1:]:
        t = e["type"]
        if t == "tsumo":
            i = ids.take(e["pai"])
            if after_kan:
                tiles[(134, 135, 132, 133)[rinshan] if dead_wall else 135 - rinshan] = i
                rinshan += 1
            else:
                tiles[live] = i
                live += 1
            after_kan = False
        elif t in ("ankan", "kakan", "daiminkan"):
            after_kan = True
        elif t == "dora":
            dora_k += 1
            tiles[130 - 2 * dora_k] = ids.take(e["dora_marker"])
        elif t == "hora" and e.get("ura_markers") and not ura_given:
            ura_given = list(e["ura_markers"])
    for k, name in enumerate(ura_given):
        tiles[131 - 2 * k] = ids.take(name)
    rest = iter(i for i in range(136) if i not in ids.used)
    filled = [t if t is not None else next(rest) for t in tiles]
    return Wall(filled, tuple(start.get("dice", (1, 1))))  # type: ignore[arg-type]


def record_rules(record: GameRecord) -> Ruleset:
    """The rule set a record names, with the ``rule_changes`` its ``start_game`` carries (jantaku's records of a
    table under a rule file: the changes from the preset it names, or all its parameters when it names none)."""
    start = next((e for e in record.events if e.get("type") == "start_game"), None)
    changes = start.get("rule_changes") if start is not None else None
    if isinstance(changes, dict) and changes:
        return rules_with_changes(record.rule_name, changes)
    return load_rules(record.rule_name)


def rules_for_record(record: GameRecord, rules: Ruleset | str | None = None) -> Ruleset:
    """The rule set to replay a record under: the given one (default: the record's, :func:`record_rules`) with
    the record's own red fives, open tanyao and length."""
    base = load_rules(rules) if rules else record_rules(record)
    changes: dict[str, Any] = {
        "red_fives": [1, 1, 1] if record.red_fives else [0, 0, 0],
        "open_tanyao": record.open_tanyao,
        "rounds": 2 if record.hanchan else 1,
    }
    if record.rank_points is not None:
        changes["rank_points"] = list(record.rank_points)
    return base.replace(**changes)


def replay_record(record: GameRecord, rules: Ruleset | str | None = None) -> ReplayReport:
    """Replay every hand of ``record``; the report counts hands and lists mismatches."""
    rs = rules_for_record(record, rules)
    report = ReplayReport(record.source, dora_timing_known=record.dora_timing_known)
    report.notes.extend(record.problems)
    hands = record.hands()
    report.skipped.extend(_skipped(record, hands))
    if not hands:
        return report
    end = next((e for e in record.events if e["type"] == "end_game"), None)
    first = hands[0][0]
    first_dealer = (first["oya"] - (first["kyoku"] - 1)) % 4  # a record may start in the middle of a game
    # 洁律 keeps raw points (no zero line, rank points or rounding to infer): its final points are compared as
    # the engine settles them
    if record.final is not None and end is not None and rs.family == "riichi":
        # read back from the record's own numbers, the rule set's settlement preferred (not a reader's guess)
        own = load_rules(rules) if rules else record_rules(record)
        # penalties (chombo, cards: jantaku's own records state them at the end) come off after the settlement
        pen = end.get("penalties")
        if not (isinstance(pen, list) and len(pen) == 4 and all(isinstance(x, int | float) for x in pen)):
            pen = [0.0] * 4
        before_pen = [round(f + p, 1) for f, p in zip(record.final, pen, strict=True)]
        begin = first.get("scores")
        start = begin[0] if isinstance(begin, list) and len(set(begin)) == 1 and first.get("honba") == 0 else None
        found = infer_settlement(
            list(end["scores"]), before_pen, first_dealer, rs.replace(rank_points=own.rank_points), start
        )
        if found is None:
            report.mismatches.append(
                Mismatch(
                    record.source,
                    "end",
                    "settlement",
                    f"a settlement (zero line, rank points, rounding) giving the record's final points {record.final}"
                    f" from its final scores {end['scores']}",
                    "none fits",
                )
            )
        else:
            rs = rs.replace(**found.changes())
            report.settlement = str(found)
    walls: list[Wall] = []
    wall_errors: dict[int, str] = {}
    for n, h in enumerate(hands):
        if record.walls and n < len(record.walls):
            walls.append(Wall(record.walls[n]))
        else:
            try:
                walls.append(wall_from_hand(h, record.red_fives, rs.dead_wall))
            except RecordError as e:
                walls.append(Wall(list(range(136))))
                wall_errors[n] = str(e)
    names = next((e["names"] for e in record.events if e["type"] == "start_game"), None)

    def wall_for(i: int) -> Wall:
        # past the record's last hand (the engine plays on where the record ended) any wall will do
        return walls[i] if i < len(walls) else Wall.from_seed(f"{record.source}:{i}")

    game = Game(rs, seed=0, names=names, first_dealer=first_dealer, walls=wall_for)
    game.resync(**_start_state(hands[0][0], 0))
    for e in record.events:
        # the referee's cards and penalties (jantaku's own events) take rank points off the final score
        if e["type"] in ("card", "penalty") and isinstance(e.get("actor"), int) and 0 <= e["actor"] <= 3:
            pt = e.get("pt", 0)
            if isinstance(pt, int | float) and not isinstance(pt, bool):
                game.penalties[e["actor"]] += float(pt)
    for n, hand in enumerate(hands):
        report.hands += 1
        start = hand[0]
        name = _hand_name(start)
        before = len(report.mismatches)
        if n in wall_errors:
            report.mismatches.append(Mismatch(record.source, name, "wall", "a readable hand", wall_errors[n]))
        if start.get("resync"):
            # the record dropped a broken hand before this one (reported in notes): start again from here
            game.resync(**_start_state(start, n))
        elif game.over or game.hand_index != n:
            report.mismatches.append(Mismatch(record.source, name, "game", "the game goes on", "it had ended"))
            game.resync(**_start_state(start, n))
        else:
            got = game.kyoku.events[0]
            for key in ("bakaze", "kyoku", "honba", "kyotaku", "oya", "scores"):
                if got[key] != start[key]:
                    report.mismatches.append(Mismatch(record.source, name, f"start {key}", start[key], got[key]))
            if len(report.mismatches) > before:
                game.resync(**_start_state(start, n))
        try:
            _drive(game, hand, report, name, n + 1 == len(hands))
        except (JantakuError, StopIteration, AssertionError) as e:
            report.mismatches.append(Mismatch(record.source, name, "replay stopped", "the record's actions", str(e)))
        flagged = [p for p in record.problems if f"({name})" in p]
        if len(report.mismatches) > before and flagged:
            # the reader found this hand inconsistent in itself: its differences prove nothing about the engine
            report.notes.extend(f"unverifiable, {m}" for m in report.mismatches[before:])
            del report.mismatches[before:]
            report.unverifiable += 1
        elif len(report.mismatches) == before:
            report.matched += 1
        if n + 1 < len(hands) and game.kyoku.phase != ENDED and not game.over and game.hand_index != n + 1:
            game.resync(**_start_state(hands[n + 1][0], n + 1))
    if end is None and len(hands) >= 2 and not game.over and not report.skipped:
        # a game record (more than one hand) that stops while the game goes on: its end was cut off
        report.skipped.append(
            f"{record.source}: the record stops after {_hand_name(hands[-1][0])} while the game goes on (no end of "
            "game): the game's end and its final settlement were not checked"
        )
    if end is not None and len(report.mismatches) == 0:
        if not game.over:
            report.mismatches.append(Mismatch(record.source, "end", "game over", True, False))
        elif game.result is not None:
            if game.result.scores != end["scores"]:
                report.mismatches.append(
                    Mismatch(record.source, "end", "final scores", end["scores"], game.result.scores)
                )
            if record.final is not None:
                report.final_checked = True
                if [round(x, 1) for x in game.result.final] != [round(x, 1) for x in record.final]:
                    report.mismatches.append(
                        Mismatch(record.source, "end", "final points", record.final, game.result.final)
                    )
    return report


def _skipped(record: GameRecord, hands: list[list[dict[str, Any]]]) -> list[str]:
    """What the record holds that a replay of ``hands`` does not check. A record that is one unfinished hand
    and nothing else (an mjx position, recorded in the middle of a hand by design) is a position, not a cut
    game: it counts as nothing checked, not as something skipped."""
    out = [p for p in record.problems if "truncated" in p or "skipped" in p]
    starts = sum(1 for e in record.events if e["type"] == "start_kyoku")
    if not hands and not (starts == 1 and not out):
        out.append(f"{record.source}: no complete hand to check")
    if hands and starts > len(hands) and not any("truncated" in p for p in out):
        out.append(f"{record.source}: {starts - len(hands)} hand(s) cut off before their end (truncated)")
    dropped = [_hand_name(h[0]) for h in hands if h[0].get("resync")]
    if dropped and not any("skipped" in p for p in out):
        out.extend(f"{record.source}: a hand before {name} was dropped by the reader" for name in dropped)
    return out


def _hand_name(start: dict[str, Any]) -> str:
    return f"{start['bakaze']}{start['kyoku']}-{start['honba']}"


def _start_state(start: dict[str, Any], index: int) -> dict[str, Any]:
    return {
        "round_wind": "ESWN".index(start["bakaze"]),
        "dealer": start["oya"],
        "honba": start["honba"],
        "deposits": start["kyotaku"],
        "scores": list(start["scores"]),
        "hand_index": index,
    }


def _find(k: Kyoku, seat: int, kind: str, pai: str | None = None, tsumogiri: bool | None = None) -> Action:
    legal = k.legal_actions(seat)
    for a in legal:
        if a.kind != kind:
            continue
        if pai is not None and (a.tile is None or a.tile.mjai != pai):
            continue
        if tsumogiri is not None and a.tsumogiri != tsumogiri:
            continue
        return a
    if tsumogiri is not None:
        return _find(k, seat, kind, pai, None)
    offered = ", ".join(repr(a) for a in legal) or "nothing"
    raise RecordError(f"seat {seat} {kind} {pai or ''}: the engine does not allow it (it offers {offered})")


def recorded_call(k: Kyoku, e: dict[str, Any]) -> Action:
    """The engine's legal action that is the record's call event ``e`` (same kind, tile and consumed tiles)."""
    want = sorted(e["consumed"])
    for a in k.legal_actions(e["actor"]):
        same_tile = a.kind == e["type"] and a.tile is not None and a.tile.mjai == e["pai"]
        if same_tile and sorted(t.mjai for t in a.consumed) == want:
            return a
    raise RecordError(f"seat {e['actor']} {e['type']} {e['pai']} with {want}: the engine does not offer it")


def recorded_answers(k: Kyoku, upcoming: list[dict[str, Any]], target: int) -> tuple[list[int], dict[str, Any] | None]:
    """How the record answered ``target``'s open discard (or a kan that may be robbed): the seats that won on
    it, and the call event that took it (``None`` if none); every other seat that may answer passed."""
    rons: list[int] = []
    call = None
    for e in upcoming:
        if e["type"] in ("reach_accepted", "dora"):
            continue
        if e["type"] == "hora" and e["target"] == target and e["actor"] != target:
            rons.append(e["actor"])
            continue
        if e["type"] in ("chi", "pon", "daiminkan") and e.get("target") == target and not rons:
            call = e
        if e["type"] == "ryukyoku" and e.get("reason") == "triple_ron":
            # the record keeps only the abortive draw: every seat that could ron did
            rons = [s for s in k.to_act() if any(a.kind == RON for a in k.legal_actions(s))]
        break
    return rons, call


def _answer(k: Kyoku, upcoming: list[dict[str, Any]], target: int) -> dict[str, Any] | None:
    """Answer an open discard (or a kan that may be robbed) as the record does: rons, a call, or passes."""
    rons, call = recorded_answers(k, upcoming, target)
    for seat in list(k.to_act()):
        if seat in rons:
            k_action = _find(k, seat, RON)
        elif call is not None and call["actor"] == seat:
            k_action = recorded_call(k, call)
        else:
            k_action = _find(k, seat, PASS)
        k.apply(k_action)
    # k.wins, not the result's: under 洁律's points mode a win leaves the hand going on
    missing = [s for s in rons if not any(w.seat == s for w in k.wins)]
    if rons and missing and k.phase != ENDED:
        raise RecordError(f"seat {missing[0]} won on this tile in the record, but the engine did not let it ron")
    if call is not None and k.phase == RESPONSES:
        raise RecordError(f"the record's {call['type']} by seat {call['actor']} was not possible")
    return call


def _drive(game: Game, hand: list[dict[str, Any]], report: ReplayReport, name: str, hand_is_last: bool) -> None:
    k = game.kyoku
    events = hand[1:]
    pending_reach: set[int] = set()
    consumed: dict[str, Any] | None = None
    pos = 0
    while pos < len(events):
        e = events[pos]
        t = e["type"]
        upcoming = events[pos + 1 :]
        if t == "tsumo":
            if k.phase != DRAWN or k.actor != e["actor"] or k.drawn is None or k.mjai(k.drawn) != e["pai"]:
                got = f"seat {k.actor} drew {k.mjai(k.drawn) if k.drawn is not None else 'nothing'} ({k.phase})"
                raise RecordError(f"draw: the record has seat {e['actor']} draw {e['pai']}, the engine: {got}")
        elif t == "reach":
            pending_reach.add(e["actor"])
        elif t == "dahai":
            seat = e["actor"]
            kind = RIICHI if seat in pending_reach else DISCARD
            k.apply(_find(k, seat, kind, e["pai"], e.get("tsumogiri")))
            pending_reach.discard(seat)
            if k.phase == RESPONSES:
                consumed = _answer(k, upcoming, seat)
        elif t in ("ankan", "kakan"):
            seat = e["actor"]
            pai = e["pai"] if t == "kakan" else None
            if t == "ankan":
                action = next(
                    (
                        a
                        for a in k.legal_actions(seat)
                        if a.kind == ANKAN and sorted(x.mjai for x in a.consumed) == sorted(e["consumed"])
                    ),
                    None,
                )
                if action is None:
                    raise RecordError(f"seat {seat} ankan {e['consumed']}: the engine does not offer it")
            else:
                action = _find(k, seat, KAKAN, pai)
            k.apply(action)
            if k.phase == CHANKAN:
                _answer(k, upcoming, seat)
        elif t in ("chi", "pon", "daiminkan") and e is consumed:
            consumed = None
        elif t in ("chi", "pon", "daiminkan"):
            raise RecordError(f"the record's {t} by seat {e['actor']} came when the engine offered no call")
        elif t == "hora":
            if e["actor"] == e["target"] and k.phase == DRAWN:
                k.apply(_find(k, e["actor"], TSUMO))
        elif t == "ryukyoku" and e.get("reason") == "nine_terminals" and k.phase == DRAWN:
            k.apply(_find(k, k.actor, KYUUSHU))
        elif t == "ryukyoku" and e.get("reason") == "chombo" and isinstance(e.get("actor"), int):
            # the referee stopped the hand (jantaku's own records): the same chombo, then the hand is played again
            game.chombo(e["actor"], str(e.get("detail", "chombo")), deliberate=bool(e.get("deliberate")))
            got = next(x for x in reversed(game.events) if x["type"] == "ryukyoku")
            if _filtered(hand) != _filtered(k.events):
                report.mismatches.append(
                    Mismatch(report.source, name, "events before the chombo", "the record's", "others")
                )
            for key in ("deltas", "scores"):
                if e.get(key) is not None and e[key] != got[key]:
                    report.mismatches.append(Mismatch(report.source, name, f"chombo {key}", e[key], got[key]))
            return
        elif t == "ryukyoku" and k.phase == DECLARE:
            # the tenpai seats that could stay silent: the record's shown hands (tenpais) and silent seats
            shown = e.get("tenpais")
            for seat in list(k.to_act()):
                silent = seat in (e.get("silent") or ()) or (isinstance(shown, list) and not shown[seat])
                k.apply(_find(k, seat, NOTEN if silent else TENPAI))
        elif t == "end_kyoku":
            break
        pos += 1
    if k.phase != ENDED:
        raise RecordError(f"the record's hand ended but the engine's is still in phase {k.phase}")
    if game.kyoku is k and not game.over:
        game._hand_over(k.result)
        if game.yame_choice is not None:
            # the dealer's choice: the record tells whether the game went on
            stop = hand_is_last
            game.apply(Action(STOP if stop else CONTINUE, game.yame_choice))
    settled = game.result.scores if game.over and game.result is not None else None
    _compare_hand(k, hand, report, name, settled)


def _filtered(events: Iterable[dict[str, Any]], with_dora: bool = True) -> list[tuple[Any, ...]]:
    out = []
    for e in events:
        if e["type"] in _COMPARED and (with_dora or e["type"] != "dora"):
            out.append((e["type"], e.get("actor"), e.get("pai") or e.get("dora_marker")))
    return out


def _compare_hand(
    k: Kyoku, hand: list[dict[str, Any]], report: ReplayReport, name: str, settled: list[int] | None = None
) -> None:
    src = report.source
    mism = report.mismatches
    # where the record does not say when a kan indicator turned, compare the indicators, not their places
    timing = report.dora_timing_known
    want = _filtered(hand, timing)
    got = _filtered(k.events, timing)
    if not timing:
        want_dora = [e["dora_marker"] for e in hand if e["type"] == "dora"]
        got_dora = [e["dora_marker"] for e in k.events if e["type"] == "dora"]
        if want_dora != got_dora:
            mism.append(Mismatch(src, name, "kan dora indicators", want_dora, got_dora))
    if want != got:
        for i, (w, g) in enumerate(zip(want, got, strict=False)):
            if w != g:
                mism.append(Mismatch(src, name, f"event {i}", w, g))
                break
        else:
            mism.append(Mismatch(src, name, "number of events", len(want), len(got)))
    res = k.result
    assert res is not None
    horas = [e for e in hand if e["type"] == "hora"]
    draw = next((e for e in hand if e["type"] == "ryukyoku"), None)
    if horas:
        if not res.wins:  # (a 洁律 hand whose wall ran out after a win is 'exhaustive' with its wins)
            mism.append(Mismatch(src, name, "result", "a win", f"{res.kind} {res.reason or ''}".strip()))
            return
        wins = {w.seat: w for w in res.wins}
        for h in horas:
            w = wins.get(h["actor"])
            if w is None:
                mism.append(Mismatch(src, name, "winner", h["actor"], sorted(wins)))
                continue
            sc = w.score
            checks: list[tuple[str, Any, Any]]
            if isinstance(sc, JieluResult):  # 洁律: the win's S and what it changed for each seat
                checks = [("deltas", h["deltas"], list(w.payments))]
                if "score" in h:
                    checks.append(("score", h["score"], sc.score))
            else:
                checks = [("deltas", h["deltas"], list(sc.payments))]
            if "points" in h:
                checks.append(("points", h["points"], sc.points))
            if h.get("yakuman"):
                checks.append(("yakuman", h["yakuman"], sc.yakuman))
            elif h.get("han") is not None:
                checks.append(("han", h["han"], sc.han))
                if h.get("fu"):
                    checks.append(("fu", h["fu"], sc.fu))
            if (w.from_seat if w.from_seat is not None else w.seat) != h["target"]:
                checks.append(("from", h["target"], w.from_seat))
            for what, exp, got_v in checks:
                if exp != got_v:
                    mism.append(Mismatch(src, name, f"seat {h['actor']} {what}", exp, got_v))
    elif draw is not None:
        reason = draw.get("reason", "exhaustive")
        got_reason = res.reason or "exhaustive"
        if res.kind in ("ron", "tsumo") or reason != got_reason:
            mism.append(Mismatch(src, name, "draw", reason, f"{res.kind} {res.reason or ''}".strip()))
        if draw.get("deltas") is not None and draw["deltas"] != res.deltas:
            mism.append(Mismatch(src, name, "draw deltas", draw["deltas"], res.deltas))
        if draw.get("tenpais") is not None and reason == "exhaustive" and draw["tenpais"] != res.tenpai:
            mism.append(Mismatch(src, name, "tenpai", draw["tenpais"], res.tenpai))
    # the hand's last result event: under 洁律's points mode the non-winners' completions (a ryukyoku) follow the wins
    last = next((e for e in reversed(hand) if e["type"] in ("hora", "ryukyoku")), None)
    # the game's last hand may be recorded with the leftover riichi sticks already paid to first place
    if last is not None and last.get("scores") is not None and last["scores"] not in (res.scores, settled):
        mism.append(Mismatch(src, name, "scores after the hand", last["scores"], res.scores))
