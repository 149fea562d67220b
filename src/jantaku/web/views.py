"""What the web table shows, as JSON: actions, melds, yaku and fan names in three languages, a win's score, a
finished hand's result and a seat's waits."""

from __future__ import annotations

import logging
from typing import Any

from jantaku.errors import JantakuError
from jantaku.jielu import JieluResult
from jantaku.meld import Meld
from jantaku.riichi.yaku import YAKU_BY_NAME
from jantaku.shapes.shanten import shanten, shanten_regular
from jantaku.shapes.waits import wait_kinds
from jantaku.table.actions import Action
from jantaku.table.kyoku import Kyoku
from jantaku.table.playerview import PlayerView
from jantaku.table.seatview import SeatView
from jantaku.tiles import Tile

log = logging.getLogger("jantaku.web")

# -- actions as JSON -----------------------------------------------------------------------------------------


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as a JSON object (tiles in mpsz)."""
    return {
        "type": action.kind,
        "seat": action.seat,
        "tile": action.tile.mpsz if action.tile is not None else None,
        "consumed": [t.mpsz for t in action.consumed],
        "tsumogiri": action.tsumogiri,
    }


def action_from_json(obj: dict[str, Any]) -> Action:
    """The inverse of :func:`action_to_json`.

    >>> a = Action.pon(2, Tile("7z"), (Tile("7z"), Tile("7z")))
    >>> action_from_json(action_to_json(a)) == a
    True
    """
    tile = obj.get("tile")
    return Action(
        obj["type"],
        int(obj["seat"]),
        Tile(tile) if tile is not None else None,
        tuple(Tile(t) for t in obj.get("consumed", ())),
        bool(obj.get("tsumogiri", False)),
    )


def _meld_json(meld: Meld) -> dict[str, Any]:
    return {
        "type": meld.kind.value,
        "tiles": [t.mpsz for t in meld.tiles],
        "called": meld.called.mpsz if meld.called is not None else None,
        "source": meld.source,
        "text": str(meld),
    }


_DORA_NAMES = {
    "dora": ("ドラ", "dora", "宝牌"),
    "aka_dora": ("赤ドラ", "red five", "赤宝牌"),
    "ura_dora": ("裏ドラ", "ura dora", "里宝牌"),
}


JIELU_FAN_ENGLISH = {
    # combinations (同 one suit, one number; 逢 different suits, one number; 连 one suit, steps; 步 different
    # suits, steps)
    "逢顺": "Mixed double chow",
    "同顺": "Pure double chow",
    "三步顺": "Mixed shifted chows",
    "双逢顺": "Two mixed double chows",
    "双同顺": "Two pure double chows",
    "三逢顺": "Mixed triple chow",
    "三连顺": "Pure shifted chows",
    "三同顺": "Pure triple chow",
    "四步顺": "Four alternating shifted chows",
    "四逢顺": "Four alternating equal chows",
    "四连顺": "Four pure shifted chows",
    "四同顺": "Quadruple chow",
    "逢刻": "Mixed double pung",
    "双逢刻": "Two mixed double pungs",
    "三步刻": "Mixed shifted pungs",
    "三逢刻": "Mixed triple pung",
    "三连刻": "Pure shifted pungs",
    "四步刻": "Four alternating shifted pungs",
    "四连刻": "Four pure shifted pungs",
    # suits
    "清二色": "Two suits, no honors",
    "五门齐": "All five kinds",
    "混一色": "Half flush",
    "清一色": "Full flush",
    "字一色": "All honors",
    # numbers (混: with honors, 清: without)
    "清五数": "Five numbers, no honors",
    "混四数": "Four numbers with honors",
    "九数齐": "All nine numbers",
    "清四数": "Four numbers, no honors",
    "混三数": "Three numbers with honors",
    "清三数": "Three numbers, no honors",
    "混二数": "Two numbers with honors",
    "清二数": "Two numbers, no honors",
    "混一数": "One number with honors",
    # honors
    "单箭": "One dragon",
    "双风": "Two winds",
    "双箭": "Two dragons",
    "三风": "Three winds",
    "三元": "Three dragons",
    "四喜": "Four winds",
    # shape
    "平和": "All chows",
    "对对和": "All pungs",
    "一杠": "One kong",
    "二杠": "Two kongs",
    "三杠": "Three kongs",
    "四杠": "Four kongs",
    # incidental
    "自摸和": "Self-drawn",
    "海底和": "Last tile",
    "杠上和": "Win on a kong",
    "天和": "Heavenly hand",
}
"""English names of the 洁律 fans (their own names are Chinese: kanji and Chinese are the name itself)."""


def yaku_names(name: str) -> dict[str, str]:
    """A yaku's (or dora's) names: ``kanji``, ``english`` and ``chinese`` (the name itself where unknown).

    >>> yaku_names("pinfu")["kanji"], yaku_names("ura_dora")["chinese"], yaku_names("三连顺")["english"]
    ('平和', '里宝牌', 'Pure shifted chows')
    >>> yaku_names("no such fan")["english"]
    'no such fan'
    """
    y = YAKU_BY_NAME.get(name)
    if y is not None:
        return {"kanji": y.kanji, "english": y.english, "chinese": y.chinese}
    if name in _DORA_NAMES:
        kanji, english, chinese = _DORA_NAMES[name]
        return {"kanji": kanji, "english": english, "chinese": chinese}
    if name in JIELU_FAN_ENGLISH:
        return {"kanji": name, "english": JIELU_FAN_ENGLISH[name], "chinese": name}
    return {"kanji": name, "english": name.replace("_", " "), "chinese": name}


_WIND_NAMES = {"東": ("East", "东"), "南": ("South", "南"), "西": ("West", "西"), "北": ("North", "北")}


def _japanese_yaku_index() -> dict[str, str]:
    """Japanese yaku names as logs write them (tenhou.net/6's and the kanji of :data:`YAKU_BY_NAME`) ->
    jantaku's names."""
    from jantaku.records.tenhou6 import TENHOU6_YAKU_NAMES

    index = {y.kanji: name for name, y in YAKU_BY_NAME.items()}
    index.update({kanji: name for name, (kanji, _, _) in _DORA_NAMES.items()})
    for name, written in TENHOU6_YAKU_NAMES.items():
        if "{" not in written:
            index.setdefault(written, name)
    index.update({y.english.lower(): name for name, y in YAKU_BY_NAME.items()})
    index.update({english.lower(): name for name, (_, english, _) in _DORA_NAMES.items()})
    return index


def record_yaku_names(name: str, family: str = "riichi") -> dict[str, str]:
    """The names of a yaku as a game record writes it (jantaku's own name, tenhou.net/6's Japanese as in
    ``立直``, ``ドラ``, ``自風 北``, ``役牌:場風牌``, or an English name): ``kanji``, ``english`` and ``chinese``,
    for the replay viewer to show in the interface's language (a name it does not know stays as written).
    Under 洁律 (``family`` ``jielu``) the name is a fan's (``平和`` is then All chows, not riichi's Pinfu).

    >>> names = record_yaku_names
    >>> names("立直")["english"], names("ドラ")["chinese"], names("自風 北")["english"]
    ('Riichi', '宝牌', 'Seat wind (North)')
    >>> names("役牌:場風牌")["english"], names("Riichi")["kanji"], names("謎")["english"]
    ('Round wind', '立直', '謎')
    >>> record_yaku_names("平和")["english"], record_yaku_names("平和", "jielu")["english"]
    ('Pinfu', 'All chows')
    """
    if family == "jielu" or name in YAKU_BY_NAME or name in _DORA_NAMES:
        return yaku_names(name)
    text = name.strip().replace("役牌:", "役牌 ").replace("役牌：", "役牌 ")
    for prefix, english, chinese in (("自風", "Seat wind", "自风"), ("場風", "Round wind", "场风")):
        wind = text.removeprefix(prefix).removeprefix("牌").strip()
        if text.startswith(prefix) and wind in _WIND_NAMES:
            en, zh = _WIND_NAMES[wind]
            return {"kanji": name, "english": f"{english} ({en})", "chinese": f"{chinese} {zh}"}
    text = {"役牌 場風牌": "場風牌", "役牌 自風牌": "自風牌", "役牌 发": "役牌 發"}.get(text, text)
    index = _japanese_yaku_index()
    found = index.get(text) or index.get(text.lower())
    return yaku_names(found) if found is not None else yaku_names(name)


def all_yaku_names() -> dict[str, dict[str, str]]:
    """Every yaku and dora name, and every 洁律 fan, with its kanji, English and Chinese names (for the pages'
    tables)."""
    return {name: yaku_names(name) for name in [*YAKU_BY_NAME, *_DORA_NAMES, *JIELU_FAN_ENGLISH]}


def _yaku_json(name: str, value: int, yakuman: bool) -> dict[str, Any]:
    return {"name": name, "value": value, "unit": "yakuman" if yakuman else "han", **yaku_names(name)}


def _fan_json(name: str, points: int, melds: Any = ()) -> dict[str, Any]:
    return {"name": name, "value": points, "unit": "points", **yaku_names(name), "melds": list(melds)}


def jielu_score_json(sc: JieluResult) -> dict[str, Any]:
    """A 洁律 score as the pages show it: S, the value before halving, the fans with their points and the melds
    each uses, the wildcards (the hand's own tile, ``None`` for an extra one, and what it stands for) and the
    reading.

    >>> from jantaku import Hand
    >>> from jantaku.jielu import score_hand
    >>> out = jielu_score_json(score_hand(Hand.parse("123m456p789s11z344z")))
    >>> out["score"], out["value"], out["wildcards"], out["fans"][0]["english"], out["fans"][0]["melds"]
    (5, 11, [{'tile': '3z', 'stands_for': '1z'}], 'Mixed shifted chows', ['123m', '456p', '789s'])
    """
    return {
        "score": sc.score,
        "value": sc.value,
        "total": sc.total,
        "full": sc.full,
        "fans": [_fan_json(f.name, f.points, f.melds) for f in sc.fans],
        "wildcards": [
            {"tile": w.tile.mpsz if w.tile is not None else None, "stands_for": w.stands_for.mpsz} for w in sc.wildcards
        ],
        "reading": {"melds": list(sc.melds), "pair": sc.pair},
    }


def _win_score_json(sc: Any) -> dict[str, Any]:
    """A win's score for the result panel: riichi (han, fu, yaku) or 洁律 (``score`` S with its ``value``, the
    fans as ``yaku`` with points, and the wildcards; ``points`` is S)."""
    if isinstance(sc, JieluResult):
        shown = jielu_score_json(sc)
        return {
            "family": "jielu",
            "han": None,
            "fu": None,
            "yakuman": 0,
            "yaku": shown.pop("fans"),
            "limit": None,
            "points": sc.score,
            **shown,
        }
    return {
        "family": "riichi",
        "han": None if sc.yakuman else sc.han,
        "fu": None if sc.yakuman else sc.fu,
        "yakuman": sc.yakuman,
        "yaku": [_yaku_json(n, v, bool(sc.yakuman)) for n, v in sc.yaku],
        "limit": sc.limit,
        "points": sc.points,
        "fu_items": [[what, fu] for what, fu in sc.fu_items],
    }


def _sorted_ids(k: Kyoku, ids: Any) -> list[int]:
    return sorted(ids, key=lambda i: k.tile(i).sort_key)


def _win_tiles(k: Kyoku) -> list[str | None]:
    """The winning tile of each ``hora`` event of the hand, in the order of :attr:`HandResult.wins`."""
    out: list[str | None] = []
    for e in k.events:
        if e.get("type") == "hora":
            try:
                out.append(Tile.from_mjai(e["pai"]).mpsz)
            except (JantakuError, KeyError):  # pragma: no cover - the engine writes every hora's tile
                out.append(None)
    return out


def hand_result_json(k: Kyoku, number: int, round_name: str) -> dict[str, Any]:
    """The result panel of a finished hand: winners with their hands, yaku (or 洁律 fans), fu, points and
    payments, or the draw with who was tenpai. Only what the table shows everyone at a hand's end.

    Under 洁律 (``family`` ``jielu``) each win carries S, the fans and the wildcards, its ``order`` and, in the
    points mode, its ``multiplier`` (x3, x2, x1 by order of winning); ``completions`` holds the hand of each
    player who did not win, completed with one extra wildcard (points mode)."""
    res = k.result
    assert res is not None
    jielu = k.rules.family == "jielu"
    hora_tiles = _win_tiles(k)
    wins = []
    for n, w in enumerate(res.wins):
        st = k.seats[w.seat]
        sc = w.score
        conditions = getattr(sc, "conditions", None)
        win_tile = conditions.win.mpsz if conditions is not None and conditions.win is not None else None
        if win_tile is None and n < len(hora_tiles):
            win_tile = hora_tiles[n]
        hand = _sorted_ids(k, st.tiles)
        if win_tile is not None and w.from_seat is None:  # a drawn winning tile apart (a ron's is not in the hand)
            apart = next((i for i in reversed(hand) if k.tile(i).mpsz == win_tile), None)
            hand = [i for i in hand if i != apart]
        entry: dict[str, Any] = {
            "seat": w.seat,
            "from": w.from_seat,
            "pao": w.pao,
            "hand": [k.tile(i).mpsz for i in hand],
            "melds": [_meld_json(m) for m in st.melds],
            "win_tile": win_tile,
            **_win_score_json(sc),
            "payments": list(w.payments),
            "ura_indicators": [k.tile(i).mpsz for i in k.ura_indicators()] if st.riichi else [],
        }
        if jielu:
            entry["order"] = n + 1
            gain = w.payments[w.seat]
            entry["multiplier"] = gain // sc.score if k.rules.jielu_mode == "points" and sc.score else None
        wins.append(entry)
    tenpai_hands = {}
    if res.kind == "exhaustive" and not jielu:
        for s in range(4):
            if res.tenpai[s]:
                st = k.seats[s]
                tenpai_hands[str(s)] = [k.tile(i).mpsz for i in _sorted_ids(k, st.tiles)]
    completions = {}
    for s, c in sorted(res.completions.items()):
        st = k.seats[s]
        completions[str(s)] = {
            "seat": s,
            "hand": [k.tile(i).mpsz for i in _sorted_ids(k, st.tiles)],
            "melds": [_meld_json(m) for m in st.melds],
            **jielu_score_json(c),
        }
    out: dict[str, Any] = {
        "number": number,
        "round": round_name,
        "honba": k.honba,
        "family": k.rules.family,
        "kind": res.kind,
        "reason": res.reason,
        "wins": wins,
        "tenpai": list(res.tenpai),
        "tenpai_hands": tenpai_hands,
        "deltas": list(res.deltas),
        "scores": list(res.scores),
        "dora_indicators": [k.tile(i).mpsz for i in k.dora_indicators()],
    }
    if jielu:
        out["mode"] = k.rules.jielu_mode
        out["completions"] = completions
    return out


def _kind_name(kind: int) -> str:
    return Tile.from_kind(kind).mpsz


def _regular_waits(counts: list[int]) -> list[int]:
    """The kinds that complete 3n+1 closed tiles as melds and a pair (no seven pairs, no thirteen orphans)."""
    out = []
    for w in wait_kinds(counts):
        counts[w] += 1
        if shanten_regular(counts) == -1:
            out.append(w)
        counts[w] -= 1
    return out


def waits_json(view: SeatView | PlayerView) -> dict[str, Any]:
    """The view's seat's shanten and waits, as the play screen shows them on request, read from what the seat
    knows (its :class:`~jantaku.table.seatview.SeatView`): with 3n+1 closed tiles the waits (each with the copies
    this seat cannot see) and whether the seat is furiten; with 3n+2 the same for every discard that leaves the
    hand tenpai.

    Under 洁律 (``jielu`` true) the shanten and waits are those of the regular form (four melds and a pair: the
    variant has no seven pairs or thirteen orphans) without wildcards, and there is no furiten; a hand may win
    whenever some choice of wildcards makes it worth a point, which the offered tsumo and ron actions show."""
    v = view.seat_view if isinstance(view, PlayerView) else view
    jielu = v.rules.family == "jielu"
    shanten_of = shanten_regular if jielu else shanten
    waits_of = _regular_waits if jielu else wait_kinds
    st = v.own
    counts = list(st.counts)
    seen = [c + o for c, o in zip(counts, v.visible_counts(), strict=True)]

    def listed(kinds: list[int]) -> list[dict[str, Any]]:
        return [{"tile": _kind_name(w), "left": max(0, 4 - seen[w])} for w in kinds]

    def option(discard: str | None, kinds: list[int], furiten: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"discard": discard, "waits": listed(kinds)}
        if not jielu:
            out["furiten"] = furiten
        return out

    total = sum(counts)
    options: list[dict[str, Any]] = []
    if total % 3 == 1:
        sh = shanten_of(counts)
        if sh == 0:
            options.append(option(None, waits_of(counts), bool(st.furiten)))
    else:
        best = 8
        for kind in range(34):
            if not counts[kind]:
                continue
            counts[kind] -= 1
            sh = shanten_of(counts)
            best = min(best, sh)
            if sh == 0:
                kinds = waits_of(counts)
                furiten = st.furiten_riichi or any(st.discarded_kinds[w] or w == kind for w in kinds)
                options.append(option(_kind_name(kind), kinds, bool(furiten)))
            counts[kind] += 1
        sh = best
    out: dict[str, Any] = {"shanten": sh, "tenpai": options}
    if jielu:
        out["jielu"] = True
    return out
