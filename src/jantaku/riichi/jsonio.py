"""The JSON form of a scoring request and of its result (``jantaku score --jsonl``).

Input fields: ``hand`` (mpsz, closed tiles including the winning tile), ``melds`` (list; jantaku notation or
tenhou.net/6 call strings), ``win`` (tile), booleans ``tsumo riichi double_riichi ippatsu haitei houtei
rinshan chankan tenhou chiihou renhou``, ``seat_wind`` and ``round_wind`` (E/S/W/N), ``dora`` and ``ura``
(indicator tiles, a list or an mpsz string; at most 5 each), ``honba`` and ``deposits`` (whole numbers 0-99),
``winner``, ``discarder``, ``pao`` (seats 0-3), ``rules`` (preset name or TOML path; default ``standard``), and
optional rule overrides ``red_fives`` (bool or [m, p, s] of 0/1) and ``open_tanyao`` (bool), which a Tenhou
record's GO type sets. Each field must have its type (``"honba": "1"``, ``"round_wind": 1`` or
``"dora": 3`` are errors, not guesses) and range (:data:`RANGES`), and the hand with its indicators holds no
fifth copy of a tile. Unknown fields are an error (a typo must not silently change a score); ``source``,
``id``, ``expected``, ``note``, ``article``, ``quote`` and ``dealer`` are carried along and ignored. A request
whose rule set is of the 洁律 family (``"rules": "jielu"``) is scored by
:func:`jantaku.jielu.jsonio.score_request`, which also reads ``extra_wildcards``;
:func:`jantaku.scoring_requests.score_json` picks the family.

>>> req = {"hand": "234m567p456s78999s", "win": "9s", "tsumo": True, "riichi": True, "dora": ["3m"],
...        "seat_wind": "S", "winner": 1, "honba": 1, "rules": "mleague"}
>>> out = score_riichi(req)
>>> out["han"], out["fu"], out["points"], out["payments"], out["limit"]
(4, 20, 5200, [-2700, 5500, -1400, -1400], None)
>>> print(score_riichi({"hand": "123m", "win": "1m"})["error"])
a hand has 13 or 14 tiles (each meld counting as 3); '123m' has 3
"""

from __future__ import annotations

from typing import Any

from jantaku.errors import JantakuError, excerpt
from jantaku.hand import Hand, check_tile_supply
from jantaku.meld import Meld
from jantaku.rules import Ruleset, load_rules
from jantaku.tiles import Tile, parse_tiles

from .conditions import ConditionError, WinConditions
from .scoring import ScoreResult, score_hand

__all__ = [
    "RANGES",
    "check_request",
    "clip_message",
    "hand_fields",
    "int_field",
    "request_from_json",
    "result_to_json",
    "rules_family",
    "rules_field",
    "score_riichi",
    "win_tile",
    "wind_field",
]

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


RANGES: dict[str, tuple[int, int]] = {
    "honba": (0, 99),
    "deposits": (0, 99),
    "winner": (0, 3),
    "discarder": (0, 3),
    "pao": (0, 3),
    "extra_wildcards": (0, 1),
}
"""The range of each whole-number field (inclusive). ``honba`` and ``deposits`` (riichi sticks) stop at 99, far
above any real table; ``extra_wildcards`` is 0 or 1 (a 13-tile hand plus one wildcard)."""
MAX_INDICATORS = 5
"""Most dora (and ura dora) indicators a hand can have: the first plus one per kan."""
MAX_RULES_TEXT = 1024
"""Longest ``rules`` value (a preset name or a TOML file's path) read."""


def _tiles(value: Any, what: str, error: type[JantakuError] = ConditionError) -> tuple[Tile, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        tiles = tuple(parse_tiles(value))
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        tiles = tuple(t for v in value for t in parse_tiles(v))
    else:
        raise error(f"{what} must be a list of tiles or an mpsz string, got {excerpt(value)}")
    if len(tiles) > MAX_INDICATORS:
        raise error(f"{what}: {len(tiles)} indicators; a hand has at most {MAX_INDICATORS} (one plus one per kan)")
    return tiles


def int_field(obj: dict[str, Any], name: str, default: int | None, error: type[JantakuError]) -> int | None:
    """The whole-number field ``name`` of a request, checked against :data:`RANGES`; missing or null gives
    ``default``. A bool, a float, a string, a list, or a number out of range is an ``error`` naming the field.

    >>> int_field({"honba": 2}, "honba", 0, ConditionError), int_field({}, "pao", None, ConditionError)
    (2, None)
    >>> int_field({"honba": 10**21}, "honba", 0, ConditionError)
    Traceback (most recent call last):
    ...
    jantaku.riichi.conditions.ConditionError: honba must be a whole number 0-99, got 1000000000000000000000
    """
    v = obj.get(name)
    if v is None:
        return default
    lo, hi = RANGES[name]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise error(f"{name} must be a whole number {lo}-{hi}, got {excerpt(v)}")
    return v


def wind_field(obj: dict[str, Any], name: str, error: type[JantakuError]) -> str:
    """The wind field ``name`` (``seat_wind``/``round_wind``): one of ``E S W N`` (default ``E``)."""
    v = obj.get(name)
    if v is None:
        return "E"
    if not isinstance(v, str) or v.strip().upper() not in ("E", "S", "W", "N", "1Z", "2Z", "3Z", "4Z"):
        raise error(f"{name} must be E, S, W or N, got {excerpt(v)}")
    return v.strip().upper()


def rules_field(obj: dict[str, Any], default: str, error: type[JantakuError]) -> Ruleset:
    """The rule set a request names in ``rules`` (a preset name or a TOML path; ``default`` when missing)."""
    spec = obj.get("rules")
    if spec is None or spec == "":
        spec = default
    if not isinstance(spec, str) or len(spec) > MAX_RULES_TEXT:
        raise error(f"rules must be a preset name or a TOML file's path, got {excerpt(spec)}")
    return load_rules(spec)


def hand_fields(obj: dict[str, Any], error: type[JantakuError]) -> Hand:
    """The hand of a request: ``hand`` (closed tiles, mpsz) and ``melds`` (a list of meld strings, or one string)."""
    if not isinstance(obj.get("hand"), str):
        raise error("the field 'hand' (mpsz text of the closed tiles) is required")
    melds = obj.get("melds")
    if melds is None:
        melds = []
    if isinstance(melds, str):
        melds = melds.split()
    if not isinstance(melds, list) or not all(isinstance(m, str) for m in melds):
        raise error(f"'melds' must be a list of meld strings, got {excerpt(melds)}")
    if len(melds) > 4:
        raise error(f"'melds' lists {len(melds)} melds; a hand has at most four")
    return Hand(tuple(parse_tiles(obj["hand"])), tuple(Meld.parse(m) for m in melds))


def win_tile(value: Any, error: type[JantakuError]) -> Tile:
    """The winning tile of a request (``win``), one mpsz tile such as ``"5p"``."""
    if not isinstance(value, str):
        raise error(f"'win' must be one tile such as '5p', got {excerpt(value)}")
    tiles = parse_tiles(value)
    if len(tiles) != 1:
        raise error(f"'win' must be one tile such as '5p', got {excerpt(value)}")
    return tiles[0]


def check_request(obj: Any, error: type[JantakuError]) -> dict[str, Any]:
    """``obj`` if it is a JSON object without unknown fields, else an ``error`` naming the first problem."""
    if not isinstance(obj, dict):
        raise error(f"a request is a JSON object, got {type(obj).__name__}")
    unknown = sorted(str(k) for k in set(obj) - _KNOWN - _IGNORED)
    if unknown:
        raise error(f"unknown field {excerpt(unknown[0])}")
    return obj


def request_from_json(obj: dict[str, Any]) -> tuple[Hand, WinConditions, Ruleset]:
    """The hand, win conditions and rule set of a JSON scoring request (see the module docs).

    Every field is checked for its type and range (:data:`RANGES`); the hand, the winning tile and the
    indicators together hold no fifth copy of a tile and no second red five of a suit.
    """
    check_request(obj, ConditionError)
    hand = hand_fields(obj, ConditionError)
    rules = rules_field(obj, "standard", ConditionError)
    if rules.family != "riichi":
        raise ConditionError(
            f"rule set {rules.name!r} is of the {rules.family} family: jantaku.scoring_requests.score_json scores it"
        )
    if obj.get("extra_wildcards"):
        raise ConditionError("extra_wildcards is a 洁律 field (use a 洁律 rule set)")
    overrides: dict[str, Any] = {}
    if "red_fives" in obj:
        red = obj["red_fives"]
        if red is True or red is False:
            overrides["red_fives"] = (1, 1, 1) if red else (0, 0, 0)
        elif isinstance(red, list) and len(red) == 3 and all(x in (0, 1) and not isinstance(x, bool) for x in red):
            overrides["red_fives"] = tuple(red)
        else:
            raise ConditionError(f"red_fives must be true, false or three of 0/1 ([m, p, s]), got {excerpt(red)}")
    if "open_tanyao" in obj:
        if not isinstance(obj["open_tanyao"], bool):
            raise ConditionError(f"open_tanyao must be true or false, got {excerpt(obj['open_tanyao'])}")
        overrides["open_tanyao"] = obj["open_tanyao"]
    if overrides:
        rules = rules.replace(**overrides)
    if obj.get("win") is None:
        raise ConditionError("the field 'win' (the winning tile) is required")
    win = win_tile(obj["win"], ConditionError)
    flags = {}
    for name in (*_FLAGS, "renhou"):
        v = obj.get(name, False)
        if not isinstance(v, bool):
            raise ConditionError(f"{name} must be true or false, got {excerpt(v)}")
        flags[name] = v
    dora = _tiles(obj.get("dora"), "dora")
    ura = _tiles(obj.get("ura"), "ura")
    check_tile_supply([*hand.all_tiles(), *dora, *ura], "the hand and its dora and ura indicators")
    discarder = int_field(obj, "discarder", None, ConditionError)
    cond = WinConditions(
        win=win,
        seat_wind=wind_field(obj, "seat_wind", ConditionError),
        round_wind=wind_field(obj, "round_wind", ConditionError),
        dora=dora,
        ura=ura,
        winner=int_field(obj, "winner", 0, ConditionError),
        discarder=None if flags["tsumo"] else discarder,
        pao=int_field(obj, "pao", None, ConditionError),
        honba=int_field(obj, "honba", 0, ConditionError),
        deposits=int_field(obj, "deposits", 0, ConditionError),
        **flags,
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
    if not isinstance(obj, dict):
        return "riichi"
    return rules_field(obj, "standard", ConditionError).family


def score_riichi(obj: dict[str, Any]) -> dict[str, Any]:
    """Score one JSON request under a riichi rule set; an invalid or non-winning hand, or a 洁律 rule set, gives
    ``{"error": "..."}``. :func:`jantaku.scoring_requests.score_json` takes either family."""
    try:
        if rules_family(obj) == "jielu":
            return {"error": "a 洁律 rule set: score it with jantaku.scoring_requests.score_json"}
    except JantakuError:
        pass  # a bad rule set is reported below
    try:
        hand, cond, rules = request_from_json(obj)
        return result_to_json(score_hand(hand, cond, rules))
    except JantakuError as e:
        return {"error": clip_message(str(e))}


MAX_MESSAGE = 300
"""Longest error message a JSON answer carries (the messages quote only parts of the input already)."""


def clip_message(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` cut to ``limit`` characters (a last guard so that no answer repeats a huge input).

    >>> clip_message("x" * 400)[-20:]
    'xxxxx... (400 chars)'
    """
    return text if len(text) <= limit else f"{text[: limit - 20]}... ({len(text)} chars)"
