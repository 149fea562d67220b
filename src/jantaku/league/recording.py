"""Hand entries of a game played at a physical table, turned into running scores by the engine.

A game's entries are replayed, in order, through a :class:`~jantaku.table.game.Game` of the event's rule
set: a win pays what :func:`jantaku.riichi.points.payments` says (honba, deposits and pao included; a hand
given as tiles is scored by :func:`jantaku.riichi.score_hand`), an exhaustive draw what
:func:`jantaku.table.results.exhaustive_draw_deltas` says, a chombo, a card and a penalty are the game's own
:meth:`~jantaku.table.game.Game.chombo`, :meth:`~jantaku.table.game.Game.card` and
:meth:`~jantaku.table.game.Game.penalty`; after each hand :meth:`~jantaku.table.game.Game.record_result`
moves the dealer, honba and deposits on and ends and settles the game as the rule set says. Nothing here
computes a payment of its own.

Entries are plain dicts (stored as JSON); seats are table positions 0-3 (seat 0 the East seat of the
table; the first dealer is any of them):

- ``{"kind": "win", "wins": [{"winner": 1, "from": 3, "han": 3, "fu": 40}], "riichi": [1]}`` - ``from``
  ``None`` for a tsumo; ``yakuman`` (count) instead of han/fu; ``pao`` the liable seat; or ``hand`` (tiles
  as ``jantaku score`` reads them) with ``win`` (the winning tile), ``dora``/``ura`` indicators and flags
  (``ippatsu``, ``haitei``, ...), which jantaku scores. Several rons on one discard are several wins.
- ``{"kind": "draw", "tenpai": [0, 2], "nagashi": [], "riichi": [0]}`` - an exhaustive draw.
- ``{"kind": "abortive", "reason": "four_riichi", "riichi": [0, 1, 2, 3]}``
- ``{"kind": "chombo", "seat": 2, "deliberate": false, "reason": "..."}``
- ``{"kind": "card", "seat": 2, "color": "yellow", "reason": "...", "earlier_yellows": 0}``
- ``{"kind": "penalty", "seat": 2, "pt": 10, "reason": "..."}``
- ``{"kind": "yame", "stop": true}`` - the all-last dealer's choice where the rule set lets them stop.
- ``{"kind": "time_up"}`` - the game's time ran out: the hand in play (the next hand entered) is the last, and
  the game ends when it ends (000 Art 24(2)), under any rule set (the organiser keeps the clock).
- ``{"kind": "final", "scores": [...], "deposits": 0}`` - quick entry: only the final raw scores.

>>> from jantaku.rules import load_rules
>>> g = replay_entries(load_rules("mleague"), 0, [{"kind": "win", "wins": [{"winner": 1, "from": 0, "han": 3,
...     "fu": 30}], "riichi": [1]}])
>>> g.scores, g.hand_name, g.honba, g.deposits
([21100, 28900, 25000, 25000], 'E2', 0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jantaku.errors import JantakuError
from jantaku.hand import Hand
from jantaku.riichi import ScoreResult, WinConditions, score_hand
from jantaku.riichi.points import basic_points, payments
from jantaku.rules import Ruleset
from jantaku.table.game import Game, GameResult, settle
from jantaku.table.kyoku import IllegalActionError
from jantaku.table.results import HandResult, WinRecord, exhaustive_draw_deltas
from jantaku.tiles import Tile, parse_tiles

from .errors import EntryError
from .validation import (
    check_abortive,
    check_draw,
    check_final,
    check_riichi,
    check_seat,
    check_win_value,
    check_wins,
)

__all__ = ["HAND_KINDS", "KINDS", "ReplayedGame", "replay_entries"]

HAND_KINDS = ("win", "draw", "abortive", "chombo")
"""Entries that end a hand (a chombo replays it)."""
KINDS = (*HAND_KINDS, "card", "penalty", "yame", "time_up", "final")

_WIN_FLAGS = ("ippatsu", "double_riichi", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou")


@dataclass
class ReplayedGame:
    """A game's state after its entries: running scores, the next hand, and the settlement once over."""

    scores: list[int]
    hand_name: str
    round_wind: int
    dealer: int
    honba: int
    deposits: int
    over: bool
    result: GameResult | None
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    """Per entry: the hand it was played in, every seat's change and the scores after it."""
    yame_choice: int | None = None

    def state(self) -> dict[str, Any]:
        """The running state as JSON-ready data."""
        return {
            "scores": list(self.scores),
            "hand": self.hand_name,
            "round_wind": self.round_wind,
            "dealer": self.dealer,
            "honba": self.honba,
            "deposits": self.deposits,
            "over": self.over,
            "yame_choice": self.yame_choice,
        }


def result_data(result: GameResult) -> dict[str, Any]:
    """A settlement as JSON-ready data."""
    return {
        "scores": [int(x) if float(x).is_integer() else x for x in result.scores],
        "ranks": list(result.ranks),
        "final": list(result.final),
        "penalties": list(result.penalties),
        "deposits_to": list(result.deposits_to),
        "cards": [list(c) for c in result.cards],
    }


def replay_entries(rules: Ruleset, first_dealer: int, entries: list[dict[str, Any]]) -> ReplayedGame:
    """Replay a game's entries under ``rules``; an entry the rule set does not allow is an
    :class:`EntryError` naming the entry (its number, from 1) and the rule."""
    if rules.family != "riichi":
        raise EntryError(f"the league recorder keeps riichi games; rule set {rules.name} is {rules.family}")
    check_seat(first_dealer, "first dealer")
    game = Game(rules, seed=0, first_dealer=first_dealer)
    outcomes: list[dict[str, Any]] = []
    final_scores: list[int] | None = None
    final_deposits = 0
    for n, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or entry.get("kind") not in KINDS:
            kind = entry.get("kind") if isinstance(entry, dict) else entry
            raise EntryError(f"entry {n}: unknown kind {kind!r} (one of {', '.join(KINDS)})")
        kind = entry["kind"]
        where = f"entry {n} ({game.round_name}, {game.honba} honba)" if not game.over else f"entry {n}"
        before = list(game.scores)
        hand = game.round_name
        try:
            if kind == "final":
                if n != 1 or (len(entries) > 1 and any(e.get("kind") in HAND_KINDS for e in entries)):
                    raise EntryError("a quick entry of final scores is the game's only result entry")
                final_scores, final_deposits = check_final(rules, entry)
                game.scores = list(final_scores)
                outcomes.append({"hand": None, "scores": list(final_scores)})
                continue
            if final_scores is None and game.over and kind in HAND_KINDS:
                raise EntryError("the game is over: no more hands can be entered")
            if kind in ("win", "draw", "abortive"):
                deltas = _hand(game, rules, kind, entry)
                outcomes.append({"hand": hand, "deltas": deltas, "scores": list(game.scores), "before": before})
            elif kind == "chombo":
                seat = check_seat(entry.get("seat"), "chombo seat")
                game.chombo(seat, str(entry.get("reason") or "chombo"), deliberate=bool(entry.get("deliberate")))
                deltas = [a - b for a, b in zip(game.scores, before, strict=True)]
                outcomes.append({"hand": hand, "deltas": deltas, "scores": list(game.scores), "before": before})
            elif kind == "card":
                seat = check_seat(entry.get("seat"), "card seat")
                earlier = entry.get("earlier_yellows", 0)
                shown = game.card(seat, str(entry.get("color")), str(entry.get("reason", "")), earlier_yellows=earlier)
                outcomes.append({"hand": hand, "card": shown})
            elif kind == "penalty":
                seat = check_seat(entry.get("seat"), "penalty seat")
                game.penalty(seat, entry.get("pt"), str(entry.get("reason", "")))  # type: ignore[arg-type]
                outcomes.append({"hand": hand, "pt": entry.get("pt")})
            elif kind == "time_up":
                if game.over:
                    raise EntryError("the game is over")
                game.time_up()
                outcomes.append({"hand": hand, "time_up": True})
            elif kind == "yame":
                if game.yame_choice is None:
                    raise EntryError("nobody may stop the game now (the rule set's tenpai_yame)")
                from jantaku.table.actions import CONTINUE, STOP, Action

                game.apply(Action(STOP if entry.get("stop") else CONTINUE, game.yame_choice))
                outcomes.append({"hand": hand})
        except EntryError as e:
            raise EntryError(f"{where}: {e}") from None
        except (IllegalActionError, JantakuError) as e:
            raise EntryError(f"{where}: {e}") from None
    result = game.result
    over = game.over
    if final_scores is not None:
        result = settle(rules, final_scores, final_deposits, first_dealer, list(game.penalties))
        result.cards = [list(c) for c in game.cards]
        over = True
    return ReplayedGame(
        scores=list(final_scores if final_scores is not None else game.scores),
        hand_name=game.round_name,
        round_wind=game.round_wind,
        dealer=game.dealer,
        honba=game.honba,
        deposits=final_deposits if final_scores is not None else game.deposits,
        over=over,
        result=result,
        outcomes=outcomes,
        yame_choice=game.yame_choice,
    )


def _seats(entry: dict[str, Any], key: str) -> list[int]:
    value = entry.get(key) or []
    if not isinstance(value, list):
        raise EntryError(f"{key} must be a list of seats, got {value!r}")
    seats = [check_seat(s, key) for s in value]
    if len(set(seats)) != len(seats):
        raise EntryError(f"{key} names a seat twice: {seats}")
    return seats


def _hand(game: Game, rules: Ruleset, kind: str, entry: dict[str, Any]) -> list[int]:
    """End the current hand with a win, a draw or an abortive draw; return each seat's change."""
    riichi = _seats(entry, "riichi")
    check_riichi(rules, game.scores, riichi)
    scores = list(game.scores)
    for s in riichi:
        scores[s] -= 1000  # each riichi posts a stick (000 Art 42; 001 4章8条2)
    deposits = game.deposits + len(riichi)
    if kind == "win":
        wins = check_wins(rules, entry.get("wins"))
        records = []
        total = [0, 0, 0, 0]
        for n, w in enumerate(wins):
            # the first winner from the discarder's right takes the honba and the sticks (as the engine's ron)
            score = _win_score(
                game, rules, w, honba=game.honba if n == 0 else 0, deposits=deposits if n == 0 else 0, riichi=riichi
            )
            records.append(WinRecord(w["winner"], w["from"], score, w.get("pao"), tuple(score.payments)))  # type: ignore[arg-type]
            for s in range(4):
                total[s] += score.payments[s]
        for s in range(4):
            scores[s] += total[s]
        result = HandResult(
            kind="tsumo" if wins[0]["from"] is None else "ron",
            wins=records,
            deltas=total,
            dealer_continues=any(w["winner"] == game.dealer for w in wins),
            deposits_left=0,
            scores=scores,
        )
    elif kind == "draw":
        tenpai_seats = _seats(entry, "tenpai")
        nagashi = _seats(entry, "nagashi")
        check_draw(rules, riichi, tenpai_seats, nagashi)
        tenpai = [s in tenpai_seats for s in range(4)]
        total = exhaustive_draw_deltas(rules, game.dealer, tenpai, nagashi)
        for s in range(4):
            scores[s] += total[s]
        result = HandResult(
            kind="exhaustive",
            reason="nagashi_mangan" if nagashi else None,
            deltas=total,
            tenpai=tenpai,
            dealer_continues=tenpai[game.dealer] or (rules.nagashi_renchan and game.dealer in nagashi),
            deposits_left=deposits,
            scores=scores,
        )
    else:
        reason = check_abortive(rules, entry.get("reason"))
        # a riichi player is tenpai; the others are as entered (003 3章11条1, 3章12条3: under abortive_renchan =
        # tenpai the dealer keeps the deal when tenpai, as after four riichi where the dealer is one of them)
        tenpai_seats = set(_seats(entry, "tenpai")) | set(riichi)
        continues = rules.abortive_renchan == "always" or game.dealer in tenpai_seats
        total = [0, 0, 0, 0]
        result = HandResult(
            kind="abortive", reason=reason, dealer_continues=continues, deposits_left=deposits, scores=scores
        )
    before = list(game.scores)
    game.record_result(result)
    return [a - b for a, b in zip(result.scores, before, strict=True)]


def _win_score(
    game: Game, rules: Ruleset, w: dict[str, Any], *, honba: int, deposits: int, riichi: list[int]
) -> ScoreResult:
    """One winner's score and payments: from the hand's tiles (scored by jantaku) or from han and fu."""
    winner, discarder, pao = w["winner"], w["from"], w.get("pao")
    seat_wind = (winner - game.dealer) % 4
    common = {
        "tsumo": discarder is None,
        "seat_wind": seat_wind,
        "round_wind": game.round_wind % 4,
        "honba": honba,
        "deposits": deposits,
        "winner": winner,
        "discarder": discarder,
        "pao": pao,
    }
    if w.get("hand"):
        try:
            hand = Hand.parse(str(w["hand"]))
            win_tile = Tile(str(w["win"])) if w.get("win") else hand.closed[-1]
            flags = {f: bool(w.get(f)) for f in _WIN_FLAGS if w.get(f)}
            cond = WinConditions(
                win=win_tile,
                riichi=bool(w.get("riichi")) or winner in riichi,
                dora=tuple(parse_tiles(str(w.get("dora") or ""))),
                ura=tuple(parse_tiles(str(w.get("ura") or ""))),
                **flags,
                **common,
            )
            return score_hand(hand, cond, rules)
        except (JantakuError, ValueError) as e:
            raise EntryError(f"seat {winner}'s hand {w['hand']!r}: {e}") from None
    han, fu, yakuman = check_win_value(rules, w, riichi=bool(w.get("riichi")) or winner in riichi)
    cond = WinConditions(win=Tile("1m"), **common)
    basic, limit = basic_points(han, fu, yakuman, rules)
    pao_basic = 0
    if pao is not None:
        pao_basic = basic if rules.pao_scope == "hand" else min(basic, 8000)  # the liable yakuman (000 Art 67)
    deltas, points = payments(basic, cond, rules, pao_basic)
    return ScoreResult(han, fu, [], yakuman, limit, basic, points, deltas, rules=rules.name, conditions=cond)
