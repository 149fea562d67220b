"""Review a recorded game: replay it through the table engine and ask a bot at each decision of a player.

Each hand is rebuilt as :mod:`jantaku.records.replay` rebuilds it (the record's wall, or one that deals and
draws what the record shows) and driven with the record's own actions. Before each action of a chosen player
that had a choice (more than one legal action), the bot is shown that player's view and the legal actions,
and its choice and ranking are kept beside what the player did. A hand the engine cannot follow is skipped
and named in :attr:`ReviewReport.skipped`.

>>> from pathlib import Path
>>> from jantaku.records.load import read_records
>>> rec = read_records(sorted(Path("tests/data/records/tenhou-mjlog").rglob("*.mjlog"))[0])[0]
>>> report = review_record(rec, players={0}, bot="efficiency")
>>> 0 <= report.agreement() <= 1 and report.items[0].actor == 0
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, field
from typing import Any

from jantaku.errors import JantakuError
from jantaku.records.record import GameRecord
from jantaku.records.replay import recorded_answers, recorded_call, rules_for_record, wall_from_hand
from jantaku.rules import Ruleset
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
from jantaku.table.kyoku import CHANKAN, DRAWN, ENDED, RESPONSES, Kyoku
from jantaku.table.seatview import SeatView
from jantaku.table.wall import Wall
from jantaku.tiles import Tile

from .base import PlayerView
from .mjai_process import action_to_mjai
from .registry import make_bot
from .strong import Decision

__all__ = [
    "ReviewItem",
    "ReviewLimitError",
    "ReviewReport",
    "action_mjai",
    "board",
    "decision_kind",
    "gap",
    "review_record",
]


class ReviewLimitError(Exception):
    """A review passed its ``deadline`` or ``max_decisions`` (see :func:`review_record`); nothing is returned.

    Not a :class:`~jantaku.errors.JantakuError`: it is no fault of the record, and it stops the whole review
    instead of skipping a hand. :attr:`reason` is ``"time"`` or ``"decisions"``."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass
class ReviewItem:
    """One decision of one player: what the player did, what the bot would do, and the bot's ranking."""

    source: str
    kyoku: str
    honba: int
    actor: int
    decision: str
    actual: dict[str, Any]
    bot: dict[str, Any]
    ranking: list[dict[str, Any]]
    agree: bool
    note: str = ""
    """For the costliest differences: ``deal-in`` (the player's discard dealt in; the bot chose a tile no winner
    waited on), ``missed win`` (the bot would have won, the player did not)."""
    cost: float = 0.0
    """What a noted difference cost: the points the deal-in paid, or the bot's estimate of the missed win's edge."""
    board: dict[str, Any] | None = None
    """The table as the player saw it at the decision (:func:`board`), when the review was asked for boards;
    not part of :meth:`to_json`."""

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "kyoku": self.kyoku,
            "honba": self.honba,
            "actor": self.actor,
            "decision": self.decision,
            "actual": self.actual,
            "bot": self.bot,
            "agree": self.agree,
            "ranking": self.ranking,
            **({"note": self.note, "cost": self.cost} if self.note else {}),
        }


@dataclass
class ReviewReport:
    """Every reviewed decision of one record, and the hands that could not be followed."""

    source: str
    items: list[ReviewItem] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def agreement(self, decision: str | None = None, actor: int | None = None) -> float:
        """Share of decisions (of one kind, of one player) where the bot chose what the player chose."""
        sel = [
            i
            for i in self.items
            if (decision is None or i.decision == decision) and (actor is None or i.actor == actor)
        ]
        return sum(i.agree for i in sel) / len(sel) if sel else 0.0


def action_mjai(action: Action, k: Kyoku | None = None) -> dict[str, Any]:
    """An action in mjai form; a riichi carries its discard (``pai``), a ron and a call their ``target``."""
    out = action_to_mjai(action)
    if action.kind == RIICHI and action.tile is not None:
        out["pai"] = action.tile.mjai
        out["tsumogiri"] = action.tsumogiri
    if action.kind == PASS:
        out["actor"] = action.seat
    if k is not None and action.kind in (RON, CHI, PON, DAIMINKAN) and k.last_discard is not None:
        out["target"] = k.last_discard[0]
    if k is not None and action.kind == RON and k.phase == CHANKAN and k.kakan_tile is not None:
        out["target"] = k.actor
    return out


def decision_kind(legal: list[Action]) -> str:
    """What a choice among ``legal`` is about: ``win``, ``riichi``, ``kan``, ``nine_terminals``, ``call``,
    ``discard`` (or the first other action kind, for a decision this module does not know)."""
    kinds = {a.kind for a in legal}
    if TSUMO in kinds or RON in kinds:
        return "win"
    if PASS in kinds:
        if kinds & {CHI, PON, DAIMINKAN}:
            return "call"
        return next((k for k in kinds if k != PASS), "pass")
    if RIICHI in kinds:
        return "riichi"
    if KYUUSHU in kinds:
        return "nine_terminals"
    if ANKAN in kinds or KAKAN in kinds:
        return "kan"
    if kinds == {DISCARD}:
        return "discard"
    return sorted(kinds - {DISCARD})[0] if kinds - {DISCARD} else "discard"


def _same(a: Action, b: Action) -> bool:
    if a.kind != b.kind:
        return False
    ta = a.tile.mjai if a.tile is not None else None
    tb = b.tile.mjai if b.tile is not None else None
    if a.kind in (DISCARD, RIICHI):
        return ta == tb
    return ta == tb and sorted(t.mjai for t in a.consumed) == sorted(t.mjai for t in b.consumed)


def _find(k: Kyoku, seat: int, kind: str, pai: str | None = None, tsumogiri: bool | None = None) -> Action:
    legal = k.legal_actions(seat)
    match = [a for a in legal if a.kind == kind and (pai is None or (a.tile is not None and a.tile.mjai == pai))]
    exact = [a for a in match if tsumogiri is None or a.tsumogiri == tsumogiri]
    if exact or match:
        return (exact or match)[0]
    raise JantakuError(f"seat {seat} {kind} {pai or ''}: the engine does not offer it")


Ask = Callable[..., None]
"""``ask(k, seat, legal, actual, known=True)``: called before each recorded action; ``known=False`` when the
record cannot tell what the seat chose (its answer was overruled by a higher claim)."""

_CLAIM_RANK = {RON: 3, PON: 2, DAIMINKAN: 2, CHI: 1}


def _answers(k: Kyoku, upcoming: list[dict[str, Any]], target: int, ask: Ask) -> None:
    """Answer an open discard (or a kan that may be robbed) as the record does, asking before each answer.

    A seat the record shows passing may have wanted a claim that a higher one overruled (a chi under another
    seat's pon, a pon under a ron, a second ron under the head bump): its answer is unknown and not reviewed.
    """
    rons, call = recorded_answers(k, upcoming, target)
    taken = 3 if rons else _CLAIM_RANK.get(call["type"], 0) if call is not None else 0
    order = [(target + i) % 4 for i in range(1, 4)]  # the head bump's priority: the discarder's next seat first
    for seat in list(k.to_act()):
        legal = k.legal_actions(seat)
        known = True
        if seat in rons:
            action = _find(k, seat, RON)
        elif call is not None and call["actor"] == seat:
            action = recorded_call(k, call)
        else:
            action = _find(k, seat, PASS)
            could = max((_CLAIM_RANK.get(a.kind, 0) for a in legal), default=0)
            if taken and could and could <= taken:
                # a seat that could only claim as high as what was taken: a lost claim looks like a pass, except a
                # ron where several may win, or ahead of the first winner under the head bump
                known = could == 3 and (k.rules.multiple_ron != "head_bump" or order.index(seat) < order.index(rons[0]))
        ask(k, seat, legal, action, known)
        k.apply(action)


def drive_hand(k: Kyoku, events: list[dict[str, Any]], ask: Ask) -> None:
    """Play a recorded hand's ``events`` (after its ``start_kyoku``) on ``k``, calling ``ask(k, seat, legal,
    actual, known=True)`` before each decision the record shows (a discard, a riichi, a kan, a tsumo, nine
    terminals, each seat's answer to a discard); the review and ``jantaku dataset`` read the decisions so."""
    pending: set[int] = set()
    for pos, e in enumerate(events):
        t = e["type"]
        if t == "tsumo":
            if k.phase != DRAWN or k.actor != e["actor"] or k.drawn is None or k.mjai(k.drawn) != e["pai"]:
                raise JantakuError(f"the record has seat {e['actor']} draw {e['pai']}; the engine does not")
        elif t == "reach":
            pending.add(e["actor"])
        elif t == "dahai":
            seat = e["actor"]
            action = _find(k, seat, RIICHI if seat in pending else DISCARD, e["pai"], e.get("tsumogiri"))
            ask(k, seat, k.legal_actions(seat), action)
            k.apply(action)
            pending.discard(seat)
            if k.phase == RESPONSES:
                _answers(k, events[pos + 1 :], seat, ask)
        elif t in ("ankan", "kakan"):
            seat = e["actor"]
            legal = k.legal_actions(seat)
            if t == "ankan":
                want = sorted(e["consumed"])
                found = (a for a in legal if a.kind == ANKAN and sorted(x.mjai for x in a.consumed) == want)
                action = next(found, None)
                if action is None:
                    raise JantakuError(f"seat {seat} ankan {want}: the engine does not offer it")
            else:
                action = _find(k, seat, KAKAN, e["pai"])
            ask(k, seat, legal, action)
            k.apply(action)
            if k.phase == CHANKAN:
                _answers(k, events[pos + 1 :], seat, ask)
        elif t == "hora" and e["actor"] == e["target"] and k.phase == DRAWN:
            action = _find(k, e["actor"], TSUMO)
            ask(k, e["actor"], k.legal_actions(e["actor"]), action)
            k.apply(action)
        elif t == "ryukyoku" and e.get("reason") == "nine_terminals" and k.phase == DRAWN:
            action = _find(k, k.actor, KYUUSHU)
            ask(k, k.actor, k.legal_actions(k.actor), action)
            k.apply(action)
        elif t == "end_kyoku":
            break
        if k.phase == ENDED:
            break


def hand_kyoku(record: GameRecord, n: int, hand: list[dict[str, Any]], rs: Ruleset) -> Kyoku:
    """Hand ``n`` of ``record`` (its events ``hand``) as the engine's :class:`Kyoku` at its start: the record's
    wall where it has one, else the wall its draws show."""
    start = hand[0]
    wall = (
        Wall(record.walls[n])
        if record.walls and n < len(record.walls)
        else wall_from_hand(hand, record.red_fives, rs.dead_wall)
    )
    return Kyoku(
        rs,
        wall,
        dealer=start["oya"],
        round_wind="ESWN".index(start["bakaze"]),
        honba=start["honba"],
        deposits=start["kyotaku"],
        scores=list(start["scores"]),
        kyoku_number=start["kyoku"],
    )


def review_record(
    record: GameRecord,
    players: Container[int] = (0, 1, 2, 3),
    bot: str = "strong",
    rules: Ruleset | str | None = None,
    seed: int | str | None = None,
    *,
    boards: bool = False,
    deadline: float | None = None,
    clock: Callable[[], float] = time.monotonic,
    max_decisions: int | None = None,
) -> ReviewReport:
    """Replay ``record`` and ask ``bot`` (a bot name) at each decision of the seats in ``players``.

    The bot at seat ``s`` is seeded ``"SEED:s"``, as jantaku's simulations and web tables seed theirs; ``seed``
    ``None`` takes the record's own (the ``seed`` of a jantaku game's ``start_game``), else 0, so a bot
    reviewing a game it played itself makes its own choices again.
    ``boards``: keep the table as the player saw it at each decision (:attr:`ReviewItem.board`).
    ``deadline`` (a time of ``clock``: :func:`time.monotonic` by default, :func:`time.process_time` where the
    cap is on the processor time the review uses, as in a server's worker) and ``max_decisions`` bound the work:
    past either, :class:`ReviewLimitError` is raised (a server's cap on what one request may cost)."""
    rs = rules_for_record(record, rules)
    if seed is None:
        start_game = next((e for e in record.events if e.get("type") == "start_game"), {})
        seed = start_game.get("seed", 0) if isinstance(start_game.get("seed", 0), int | str) else 0
    report = ReviewReport(record.source)
    agents = {s: make_bot(bot, f"{seed}:{s}") for s in range(4) if s in players}
    for n, hand in enumerate(record.hands()):
        start = hand[0]
        name = f"{start['bakaze']}{start['kyoku']}"
        try:
            k = hand_kyoku(record, n, hand, rs)
        except (JantakuError, ValueError, KeyError, IndexError) as e:
            report.skipped.append(f"{name}-{start.get('honba', 0)}: {e}")
            continue
        hand_items: list[ReviewItem] = []
        ask = _Asker(agents, record.source, name, start["honba"], hand_items, boards)
        ask.deadline = deadline
        ask.clock = clock
        ask.budget = None if max_decisions is None else max_decisions - len(report.items)
        try:
            drive_hand(k, hand[1:], ask)
        except ReviewLimitError:
            raise
        except (JantakuError, StopIteration, AssertionError) as e:
            report.skipped.append(f"{name}-{start['honba']}: {e}")
            continue
        _mark_costly(k, hand_items)
        report.items.extend(hand_items)
    return report


class _Asker:
    """Asks the bot at each decision of one hand and keeps what it said."""

    def __init__(
        self, agents: dict[int, Any], source: str, name: str, honba: int, out: list[ReviewItem], boards: bool = False
    ) -> None:
        self.agents = agents
        self.source = source
        self.name = name
        self.honba = honba
        self.out = out
        self.boards = boards
        self.deadline: float | None = None
        self.clock: Callable[[], float] = time.monotonic
        self.budget: int | None = None

    def __call__(self, k: Kyoku, seat: int, legal: list[Action], actual: Action, known: bool = True) -> None:
        if seat not in self.agents:
            return
        if len(legal) < 2 or not known:
            # no choice to review (or the record does not tell the player's); the bot is asked all the same, as at a
            # table, so that a bot drawing on a random generator draws from it as it did when it played (a bot
            # reviewing its own game agrees with itself)
            if legal:
                self.agents[seat].act(k.view(seat), list(legal))
            return
        if self.deadline is not None and self.clock() > self.deadline:
            raise ReviewLimitError("the review ran out of time", "time")
        if self.budget is not None and len(self.out) >= self.budget:
            raise ReviewLimitError("the game has more decisions than a review may ask about", "decisions")
        ranking = _ranking(self.agents[seat], k.view(seat), list(legal))
        choice = ranking[0].action
        self.out.append(
            ReviewItem(
                source=self.source,
                kyoku=self.name,
                honba=self.honba,
                actor=seat,
                decision=decision_kind(legal),
                actual=action_mjai(actual, k),
                bot=action_mjai(choice, k),
                ranking=[_ranked(d, k) for d in ranking],
                agree=_same(choice, actual),
                board=board(k.view(seat)) if self.boards else None,
            )
        )


def board(view: SeatView | PlayerView) -> dict[str, Any]:
    """The table as the view's seat sees it now (read from its :class:`~jantaku.table.seatview.SeatView`, built
    from the events the seat received), tiles in mjai form: the ``dealer``'s seat, its closed ``hand`` (sorted; the
    tile just drawn apart as ``drawn``), every seat's ``river`` (``[tile, flags]``, flags ``r`` the riichi discard,
    ``c`` called away, ``t`` discarded as drawn) and ``melds`` (``{"kind", "tiles"}``), ``riichi`` per seat, the
    ``dora`` indicators, ``scores``, ``tiles_left``, and ``discard`` (``[seat, tile]``) when the decision answers
    one.

    >>> from jantaku.rules import load_rules
    >>> from jantaku.table import Game
    >>> b = board(Game(load_rules("tenhou"), seed=1).view(0))
    >>> len(b["hand"]), b["drawn"], b["rivers"], len(b["dora"])
    (13, None, [[], [], [], []], 1)
    """
    v = view.seat_view if isinstance(view, PlayerView) else view
    seat = v.seat
    me = v.own
    mjai = v._mjai
    drawn = v.drawn if v.phase == DRAWN and v.actor == seat and v.drawn in me.tiles else None
    hand = sorted((v._tiles[i] for i in me.tiles if i != drawn), key=lambda t: (t.kind, t.red))
    rivers = [
        [
            [
                mjai[r.tile],
                ("r" if r.riichi else "") + ("c" if r.called_by is not None else "") + ("t" if r.tsumogiri else ""),
            ]
            for r in st.river
        ]
        for st in v.seats
    ]
    out: dict[str, Any] = {
        "seat": seat,
        "dealer": v.dealer,
        "hand": [t.mjai for t in hand],
        "drawn": mjai[drawn] if drawn is not None else None,
        "rivers": rivers,
        "melds": [[{"kind": m.kind.value, "tiles": [t.mjai for t in m.tiles]} for m in st.melds] for st in v.seats],
        "riichi": [st.riichi for st in v.seats],
        "dora": [mjai[i] for i in v._dora_ids()],
        "scores": list(v.scores),
        "tiles_left": v.tiles_left,
        "discard": None,
    }
    if v.phase in (RESPONSES, CHANKAN) and not v._exhaustive_draw_now():  # not the draw's declarations
        if v.phase == CHANKAN and v.kakan_tile is not None:
            out["discard"] = [v.actor, mjai[v.kakan_tile]]
        elif v.last_discard is not None:
            out["discard"] = [v.last_discard[0], mjai[v.last_discard[1]]]
    return out


def _ranked(d: Decision, k: Kyoku) -> dict[str, object]:
    """One entry of a decision's ranking: the action in mjai form, the bot's estimate in points and, where the bot
    gives one (the ``strong`` bot's own-turn discards), its chance of winning the hand after the action."""
    out: dict[str, object] = {"action": action_mjai(d.action, k), "score": _estimate(d.score)}
    if d.win_chance is not None:
        out["win_chance"] = round(d.win_chance, 3)
    return out


def _estimate(score: float) -> float | None:
    """A score for the JSON output: ``None`` for an action the bot rules out (a call without a yaku)."""
    return None if abs(score) >= 1e8 else round(score, 1)


def _ranking(agent: object, view: PlayerView, legal: list[Action]) -> list[Decision]:
    """The agent's ranking of ``legal`` (a bot without estimates: its choice first, the rest unscored)."""
    rank = getattr(agent, "rank", None)
    if rank is not None:
        return list(rank(view, legal))
    choice = agent.act(view, legal)  # type: ignore[attr-defined]
    return [Decision(choice, 0.0)] + [Decision(a, 0.0) for a in legal if a != choice]


def _mark_costly(k: Kyoku, items: Iterable[ReviewItem]) -> None:
    """Note the differences that cost most: a deal-in the bot would have avoided, a win the player passed.

    A deal-in is noted on the discarder's last reviewed discard when the bot chose another tile that none of
    the winners waits on (by shape: the winner's closed tiles when the hand ended); ``cost`` is what the
    deal-in paid. A missed win is a decision where the bot would have won and the player did not.
    """
    items = list(items)
    last_discard: dict[int, ReviewItem] = {}
    for it in items:
        if it.actual.get("type") in ("dahai", "reach"):
            last_discard[it.actor] = it
        if not it.agree and it.bot.get("type") == "hora":
            it.note = "missed win"
            it.cost = max(it.cost, gap(it))
    result = k.result
    if result is None:
        return
    for w in result.wins:
        if w.from_seat is None or w.from_seat not in last_discard:
            continue
        it = last_discard[w.from_seat]
        pai = it.bot.get("pai")
        if it.agree or it.bot.get("type") not in ("dahai", "reach") or pai is None or pai == it.actual.get("pai"):
            continue
        if any(Tile.from_mjai(pai).kind in _closed_waits(k, x.seat, it.actual.get("pai")) for x in result.wins):
            continue  # the bot's tile would have dealt in too
        it.note = "deal-in"
        it.cost += -w.payments[w.from_seat]


def _closed_waits(k: Kyoku, seat: int, won_on: str | None) -> list[int]:
    """The kinds the winner at ``seat`` waited on, from its closed tiles (without the tile it won on)."""
    counts = list(k.seats[seat].counts)
    if sum(counts) % 3 == 2 and won_on is not None:
        kind = Tile.from_mjai(won_on).kind
        if counts[kind]:
            counts[kind] -= 1
    if sum(counts) % 3 != 1:
        return []
    return wait_kinds(counts)


def gap(it: ReviewItem) -> float:
    """How much better the bot thought its choice than the player's (its own estimate, points; 0 if unknown)."""
    if it.agree or not it.ranking:
        return 0.0
    keys = ("type", "pai", "consumed")
    best = it.ranking[0]["score"]
    actual = next((r["score"] for r in it.ranking if all(r["action"].get(x) == it.actual.get(x) for x in keys)), None)
    if best is None or actual is None:
        return 0.0
    return float(best - actual)
