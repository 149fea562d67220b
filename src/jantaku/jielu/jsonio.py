"""The JSON form of a 洁律 scoring request and result (``jantaku score --rules jielu --jsonl``).

The request has the fields of a riichi request (:mod:`jantaku.riichi.jsonio`), read the same way, plus
``extra_wildcards`` (a whole number, default 0: the wildcard a non-winner receives at the end of a hand; such a
hand has 13 tiles and no winning tile or circumstances). ``win`` is optional here. The circumstances that 洁律
scores: ``tsumo`` (自摸和), ``haitei``/``houtei`` (海底和), ``rinshan``/``chankan`` (杠上和), ``tenhou``/``chiihou``
(天和). Riichi-only fields (riichi, ippatsu, dora, honba, ...) must keep their default values, and the riichi rule
overrides ``red_fives`` and ``open_tanyao`` are errors.

The result: ``score`` (S after the 32/24 rule and the halving, with the rule set's cap on wildcards; 0, with
``error`` saying why, when no reading reaches 1 point; a win below the rule set's ``jielu_min_score`` keeps its S
and has an ``error`` too), ``fans`` as [name, points, melds used], ``wildcards`` (``count`` and ``each`` as [the
hand's own tile or "extra", the tile it stands for]), the reading (``melds``, ``pair``), ``value`` before halving,
``total``, ``mode``, and in the original mode ``payments`` (each seat's change; pao needs per-fan input, see
:func:`jantaku.jielu.original_payments`).

>>> out = score_request({"hand": "123m456p789s11z344z", "win": "4z", "rules": "jielu"})
>>> out["score"], out["fans"][0], out["wildcards"]
(5, ['三步顺', 3, ['123m', '456p', '789s']], {'count': 1, 'each': [['3z', '1z']]})
>>> score_request({"hand": "123m456p789s1134z", "extra_wildcards": 1, "rules": "jielu"})["wildcards"]
{'count': 2, 'each': [['3z', '1z'], ['extra', '4z']]}
>>> print(score_request({"hand": "19m19p19s11234567z", "rules": "jielu"})["error"])
no reading of this hand is worth 1 point: it cannot win
>>> from jantaku.jielu.fantable import default_fan_table, with_win_rule     # a rule file's jielu_min_score = 8
>>> needs_8 = with_win_rule(default_fan_table(), min_score=8)
>>> print(result_to_json(score_hand(Hand.parse("123m456p789s11z344z"), table=needs_8))["error"])
its best reading is worth 5 points, below the 8 a win needs under these rules: it cannot win
>>> score_request({"hand": "123m456p789s11z344z", "riichi": True, "rules": "jielu"})
{'error': '洁律 has no riichi (and no double riichi or ippatsu)'}
"""

from __future__ import annotations

from typing import Any, NamedTuple

from jantaku.errors import JantakuError, excerpt
from jantaku.hand import Hand
from jantaku.riichi.conditions import WinConditions
from jantaku.riichi.jsonio import (
    _FLAGS,
    check_request,
    clip_message,
    hand_fields,
    int_field,
    rules_field,
    win_tile,
    wind_field,
)
from jantaku.rules import Ruleset

from .errors import JieluError
from .fantable import table_for_rules
from .payments import original_payments
from .scoring import JieluResult, score_hand

__all__ = ["JieluRequest", "request_from_json", "result_to_json", "score_request"]


class JieluRequest(NamedTuple):
    """A parsed request: the hand, its win conditions (``None`` for a non-winner's hand), extra wildcards, rules."""

    hand: Hand
    conditions: WinConditions | None
    extra_wildcards: int
    rules: Ruleset


_RIICHI_ONLY_TRUE = ("riichi", "double_riichi", "ippatsu", "renhou")


def request_from_json(obj: dict[str, Any]) -> JieluRequest:
    """The hand, conditions, extra wildcards and rule set of a JSON request whose rules are a 洁律 rule set.

    Fields are checked as a riichi request's are (types and :data:`jantaku.riichi.jsonio.RANGES`).
    """
    check_request(obj, JieluError)
    rules = rules_field(obj, "jielu", JieluError)
    if rules.family != "jielu":
        raise JieluError(f"rule set {rules.name!r} is not a 洁律 rule set")
    for key in ("red_fives", "open_tanyao"):
        if key in obj:
            raise JieluError(f"{key} is a riichi rule override; 洁律 has no such parameter")
    hand = hand_fields(obj, JieluError)
    extra = int_field(obj, "extra_wildcards", 0, JieluError)
    assert extra is not None
    flags: dict[str, bool] = {}
    for name in (*_FLAGS, "renhou"):
        v = obj.get(name, False)
        if not isinstance(v, bool):
            raise JieluError(f"{name} must be true or false, got {excerpt(v)}")
        flags[name] = v
    for name in _RIICHI_ONLY_TRUE:
        if flags[name]:
            raise JieluError(
                "洁律 has no riichi (and no double riichi or ippatsu)" if name != "renhou" else "洁律 has no renhou"
            )
    for name in ("dora", "ura"):
        if obj.get(name):
            raise JieluError("洁律 has no dora")
    for name in ("honba", "deposits"):
        if int_field(obj, name, 0, JieluError):
            raise JieluError("洁律 has no honba or riichi sticks")
    if obj.get("pao") is not None:
        raise JieluError(
            "洁律's pao is per fan (the liable seat and the related melds of each): use "
            "jantaku.jielu.original_payments with PaoClaim"
        )
    win_text = obj.get("win")
    if extra:
        if win_text is not None or any(flags.values()):
            raise JieluError(
                "a hand completed with extra wildcards did not win: it has no winning tile or circumstances"
            )
        return JieluRequest(hand, None, extra, rules)
    if win_text is None:
        if not hand.closed:
            raise JieluError("the hand has no closed tiles")
        win = hand.closed[-1]
    else:
        win = win_tile(win_text, JieluError)
    winner = int_field(obj, "winner", 0, JieluError)
    discarder = int_field(obj, "discarder", None, JieluError)
    cond = WinConditions(
        win=win,
        seat_wind=wind_field(obj, "seat_wind", JieluError),
        round_wind=wind_field(obj, "round_wind", JieluError),
        winner=0 if winner is None else winner,
        discarder=None if flags["tsumo"] else discarder,
        **{k: v for k, v in flags.items() if k not in _RIICHI_ONLY_TRUE},
    )
    return JieluRequest(hand, cond, 0, rules)


def result_to_json(result: JieluResult, request: JieluRequest | None = None) -> dict[str, Any]:
    """The JSON form of a result (see the module docs)."""
    out: dict[str, Any] = {
        "score": result.score,
        "value": result.value,
        "total": result.total,
        "fans": [[f.name, f.points, list(f.melds)] for f in result.fans],
        "wildcards": {
            "count": len(result.wildcards),
            "each": [[w.tile.mpsz if w.tile is not None else "extra", w.stands_for.mpsz] for w in result.wildcards],
        },
        "melds": list(result.melds),
        "pair": result.pair,
    }
    if request is not None:
        out["mode"] = request.rules.jielu_mode
        out["rules"] = request.rules.name
        if request.rules.jielu_mode == "original" and request.conditions is not None and result.is_win:
            out["payments"] = [int(p) for p in original_payments(request.conditions.winner, result.score)]
    if not result.is_win:
        out["error"] = f"{result.shortfall}: it cannot win"
    return out


def score_request(obj: dict[str, Any]) -> dict[str, Any]:
    """Score one JSON request under a 洁律 rule set; bad input gives ``{"error": "..."}``."""
    try:
        req = request_from_json(obj)
        table = table_for_rules(req.rules)
        result = score_hand(req.hand, req.conditions, extra_wildcards=req.extra_wildcards, table=table)
        return result_to_json(result, req)
    except JantakuError as e:
        return {"error": clip_message(str(e))}
