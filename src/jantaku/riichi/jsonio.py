"""The JSON form of a scoring request and of its result (``jantaku score --jsonl``).

Input fields: ``hand`` (mpsz, closed tiles including the winning tile), ``melds`` (list; jantaku notation or
tenhou.net/6 call strings), ``win`` (tile), booleans ``tsumo riichi double_riichi ippatsu haitei houtei
rinshan chankan tenhou chiihou renhou``, ``seat_wind`` and ``round_wind`` (E/S/W/N), ``dora`` and ``ura``
(indicator tiles, a list or an mpsz string), ``honba``, ``deposits``, ``winner``, ``discarder``, ``pao``
(seats 0-3), ``rules`` (preset name or TOML path; default ``standard``), and optional rule overrides
``red_fives`` (bool or [m, p, s]) and ``open_tanyao`` (bool), which a Tenhou record's GO type sets.
Unknown fields are an error (a typo must not silently change a score); ``source``, ``id``, ``expected``,
``note``, ``article``, ``quote`` and ``dealer`` are carried along and ignored. A request whose rule set is of the
洁律 family (``"rules": "jielu"``) is scored by :func:`jantaku.jielu.jsonio.score_request`, which also reads
``extra_wildcards``.

>>> req = {"hand": "234m567p456s78999s", "win": "9s", "tsumo": True, "riichi": True, "dora": ["3m"],
...        "seat_wind": "S", "winner": 1, "honba": 1, "rules": "mleague"}
>>> out = score_json(req)
>>> out["han"], out["fu"], out["points"], out["payments"], out["limit"]
(4, 20, 5200, [-2700, 5500, -1400, -1400], None)
>>> print(score_json({"hand": "123m", "win": "1m"})["error"])
a hand has 13 or 14 tiles (each meld counting as 3); '123m' has 3
"""

from __future__ import annotations

from typing import Any

from jantaku.errors import JantakuError
from jantaku.hand import Hand
from jantaku.meld import Meld
from jantaku.rules import Ruleset, load_rules
from jantaku.tiles import Tile, parse_tiles

from .conditions import ConditionError, WinConditions
from .scoring import ScoreResult, score_hand

__all__ = ["request_from_json", "result_to_json", "rules_family", "score_json"]

_FLAGS = ("tsumo", "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou")
_IGNORED = {"source", "id", "expected", "note", "article", "quote", "dealer"}
_KNOWN = {
    "hand",
    "melds",
    "win",
    *_FLAGS,
    "renhou",
    "seat_wind",
    "round_wind",
    "dora",
    "ura",
    "honba",
    "deposits",
    "winner",
    "discarder",
    "pao",
    "rules",
    "red_fives",
    "open_tanyao",
    "extra_wildcards",
}


def _tiles(value: Any, what: str) -> tuple[Tile, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(parse_tiles(value))
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(t for v in value for t in parse_tiles(v))
    raise ConditionError(f"{what} must be a list of tiles or an mpsz string, got {value!r}")


def request_from_json(obj: dict[str, Any]) -> tuple[Hand, WinConditions, Ruleset]:
    """The hand, win conditions and rule set of a JSON scoring request (see the module docs)."""
    if not isinstance(obj, dict):
        raise ConditionError(f"a request is a JSON object, got {type(obj).__name__}")
    unknown = sorted(set(obj) - _KNOWN - _IGNORED)
    if unknown:
        raise ConditionError(f"unknown field {unknown[0]!r}")
    if "hand" not in obj or not isinstance(obj["hand"], str):
        raise ConditionError("the field 'hand' (mpsz text of the closed tiles) is required")
    melds = obj.get("melds") or []
    if isinstance(melds, str):
        melds = melds.split()
    if not isinstance(melds, list) or not all(isinstance(m, str) for m in melds):
        raise ConditionError("'melds' must be a list of meld strings")
    hand = Hand(tuple(parse_tiles(obj["hand"])), tuple(Meld.parse(m) for m in melds))
    rules = load_rules(obj.get("rules") or "standard")
    if rules.family != "riichi":
        raise ConditionError(f"rule set {rules.name!r} is of the {rules.family} family: score_json scores it")
    overrides: dict[str, Any] = {}
    if "red_fives" in obj:
        red = obj["red_fives"]
        overrides["red_fives"] = (1, 1, 1) if red is True else (0, 0, 0) if red is False else red
    if "open_tanyao" in obj:
        overrides["open_tanyao"] = obj["open_tanyao"]
    if overrides:
        rules = rules.replace(**overrides)
    win_text = obj.get("win")
    if not isinstance(win_text, str):
        raise ConditionError("the field 'win' (the winning tile) is required")
    win = Tile(win_text.strip())
    flags = {}
    for name in (*_FLAGS, "renhou"):
        v = obj.get(name, False)
        if not isinstance(v, bool):
            raise ConditionError(f"{name} must be true or false, got {v!r}")
        flags[name] = v
    ints = {}
    for name in ("honba", "deposits"):
        ints[name] = obj.get(name, 0) or 0
    cond = WinConditions(
        win=win,
        seat_wind=obj.get("seat_wind", "E"),
        round_wind=obj.get("round_wind", "E"),
        dora=_tiles(obj.get("dora"), "dora"),
        ura=_tiles(obj.get("ura"), "ura"),
        winner=obj.get("winner", 0) if obj.get("winner") is not None else 0,
        discarder=None if flags["tsumo"] else obj.get("discarder"),
        pao=obj.get("pao"),
        **flags,
        **ints,
    )
    return hand, cond, rules


def result_to_json(result: ScoreResult) -> dict[str, Any]:
    """The JSON form of a score: han, fu, yaku as [name, han], yakuman count, limit, points, payments, ..."""
    return {
        "han": None if result.yakuman else result.han,
        "fu": None if result.yakuman else result.fu,
        "yaku": [[name, han] for name, han in result.yaku],
        "yakuman": result.yakuman,
        "limit": result.limit,
        "basic": result.basic,
        "points": result.points,
        "payments": list(result.payments),
        "fu_items": [[what, fu] for what, fu in result.fu_items],
        "wait": result.reading.wait if result.reading else None,
        "rules": result.rules,
    }


def rules_family(obj: dict[str, Any]) -> str:
    """The scoring family (``riichi`` or ``jielu``) of a request's rule set (default ``standard``)."""
    spec = obj.get("rules") if isinstance(obj, dict) else None
    return load_rules(spec or "standard").family


def score_json(obj: dict[str, Any]) -> dict[str, Any]:
    """Score one JSON request; an invalid or non-winning hand gives ``{"error": "..."}``.

    The rule set's family picks the scorer: riichi here, 洁律 in :mod:`jantaku.jielu.jsonio`.
    """
    try:
        jielu = rules_family(obj) == "jielu"
    except JantakuError:
        jielu = False  # a bad rule set is reported by the riichi path, as before
    if jielu:
        from jantaku.jielu.jsonio import score_request

        return score_request(obj)
    try:
        hand, cond, rules = request_from_json(obj)
        return result_to_json(score_hand(hand, cond, rules))
    except JantakuError as e:
        return {"error": str(e)}
