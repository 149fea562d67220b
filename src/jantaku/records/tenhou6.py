"""tenhou.net/6 JSON logs into :class:`~jantaku.records.record.GameRecord` objects, and back.

A tenhou.net/6 log is ``{"title", "name", "rule", "log": [kyoku, ...]}``; each kyoku is
``[[round, honba, kyotaku], [scores x4], [dora indicators], [ura indicators], haipai0, draws0, discards0, ...,
haipai3, draws3, discards3, result]`` (see ``FORMATS.md`` section 2 of the real-data folder). The format keeps
each seat's draws and discards as separate lists, so the order of play has to be rebuilt: the hand is replayed
turn by turn from the dealer, a call string in a draw list (``c275226`` chi, ``p252525`` pon, ``m39393939``
open kan) takes the discard it names, and where a call could belong to more than one identical discard the
replay backtracks until every draw, discard and call is used once and the hand ends the way its result says.

Conventions of the events produced (the schema is in :mod:`jantaku.records.record`):

* ``dahai`` of ``60`` is a tsumogiri; ``"rNN"`` is ``reach``, the ``dahai``, and once the discard is not won
  on, ``reach_accepted`` (with ``deltas`` and ``scores``) just before the next draw or call (or the abortive
  draw that follows it).
* Kan dora as Tenhou reveals them: a closed kan's indicator right after the ``ankan``; an open or added kan's
  with the discard of the replacement tile, written as Tenhou's mjlog writes it and as the table engine emits
  it: ``(reach,) dora, dahai`` (so it counts for a win on that discard); a kan declared before that discard
  (a second kan) first reveals the pending indicator: after an ``ankan`` at once, after a ``kakan`` just
  before the replacement ``tsumo`` (it is not revealed when the added kan is robbed, as the logs show).
* ``hora`` carries Tenhou's ``han`` (``None`` for a yakuman), ``fu`` (``None`` when the score text has none:
  mangan and up), ``points`` (the hand's value before honba and sticks), ``limit`` (Tenhou's code: 0 none,
  1 mangan, 2 haneman, 3 baiman, 4 sanbaiman, 5 yakuman), ``yakuman`` (count), ``yaku`` (``[name, han]`` with
  the names as the log writes them, usually Japanese; a yakuman as ``[name, 1]``; zero-han entries such as
  ``Ura Dora(0飜)`` are left out), ``pao`` and ``scores``. A result without score text gives none of these.
* ``ryukyoku`` reasons: 流局/全員聴牌/全員不聴 ``exhaustive`` (with ``tenpais`` when the deltas or the name
  tell them), 流し満貫 ``nagashi_mangan``, 九種九牌 ``nine_terminals`` (with the declaring ``actor``),
  四風連打 ``four_winds``, 四家立直 ``four_riichi``, 四槓散了 ``four_kans``, 三家和了 ``triple_ron``.
* ``end_game`` is emitted when the log is known to be the whole game (a ``sc`` field, Tenhou's final scores
  and points, which also fill :attr:`GameRecord.final`) or the last hand ends the game by Tenhou's rules
  (someone below zero; after the last round unless the dealer continues without being top with 30,000 - a
  dealer's tenpai-yame is a choice, and a log that stops there is taken to end there; in the extra round as
  soon as someone has 30,000). Its scores then include the leftover riichi sticks, given to the top player.

:func:`write_tenhou6` is the inverse: reading what it writes gives the same events and rule flags (``aka``,
``rule.disp`` and Tenhou's ``sc`` carry ``red_fives``, ``hanchan``, ``open_tanyao`` and ``final``). What
tenhou.net/6 does not store, and so does not come back: the order of a call's tiles (``consumed`` is read in
tile order), which copy of a tile was discarded when it is the same tile as the one just drawn (only a
``tsumogiri`` discard is written as 60), the ura indicators of a hand no riichi player wins, zero-han yaku,
``tenpais`` of a nagashi mangan, fields the events do not have in this schema (dice, walls), and the
source's extra fields (``dan``, ``rate``, ``ver``...).

>>> log = {"name": ["A", "B", "C", "D"], "rule": {"disp": "般南喰赤", "aka": 1}, "log": [[
...     [0, 0, 0], [25000, 25000, 25000, 25000], [21], [],
...     [11, 19, 21, 29, 31, 39, 41, 42, 43, 44, 45, 46, 47], [18], [60],
...     [12, 13, 14, 15, 16, 22, 23, 24, 25, 26, 32, 33, 34], [18], [],
...     [12, 13, 14, 15, 16, 22, 23, 24, 25, 26, 32, 33, 34], [], [],
...     [12, 13, 14, 15, 16, 22, 23, 24, 25, 26, 32, 33, 34], [], [],
...     ["九種九牌"]]]}
>>> rec = read_tenhou6(log)[0]
>>> [e["type"] for e in rec.events]
['start_game', 'start_kyoku', 'tsumo', 'dahai', 'tsumo', 'ryukyoku', 'end_kyoku']
>>> rec.events[3], rec.events[5]["reason"]
({'type': 'dahai', 'actor': 0, 'pai': '8m', 'tsumogiri': True}, 'nine_terminals')
>>> write_tenhou6(rec)["log"] == log["log"]
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jantaku import safejson
from jantaku.errors import JantakuError, excerpt
from jantaku.meld import Meld, MeldKind
from jantaku.tiles import Tile

from .errors import RecordError, read_text_file
from .record import GameRecord

__all__ = ["DRAW_NAMES", "DRAW_REASONS", "TENHOU6_YAKU_NAMES", "read_tenhou6", "write_tenhou6"]

DRAW_REASONS: dict[str, str] = {
    "流局": "exhaustive",
    "全員聴牌": "exhaustive",
    "全員不聴": "exhaustive",
    "流し満貫": "nagashi_mangan",
    "九種九牌": "nine_terminals",
    "四風連打": "four_winds",
    "四家立直": "four_riichi",
    "四槓散了": "four_kans",
    "三家和了": "triple_ron",
}
"""tenhou.net/6 draw names -> the ``reason`` of a ``ryukyoku`` event."""

DRAW_NAMES: dict[str, str] = {
    "nagashi_mangan": "流し満貫",
    "nine_terminals": "九種九牌",
    "four_winds": "四風連打",
    "four_riichi": "四家立直",
    "four_kans": "四槓散了",
    "triple_ron": "三家和了",
}
"""``ryukyoku`` reasons -> tenhou.net/6 names (``exhaustive`` is 流局, 全員聴牌 or 全員不聴)."""

TENHOU6_YAKU_NAMES: dict[str, str] = {
    "menzen_tsumo": "門前清自摸和",
    "riichi": "立直",
    "double_riichi": "両立直",
    "ippatsu": "一発",
    "chankan": "槍槓",
    "rinshan_kaihou": "嶺上開花",
    "haitei": "海底摸月",
    "houtei": "河底撈魚",
    "pinfu": "平和",
    "tanyao": "断幺九",
    "iipeikou": "一盃口",
    "yakuhai_seat_wind": "自風 {seat}",
    "yakuhai_round_wind": "場風 {round}",
    "yakuhai_haku": "役牌 白",
    "yakuhai_hatsu": "役牌 發",
    "yakuhai_chun": "役牌 中",
    "chiitoitsu": "七対子",
    "chanta": "混全帯幺九",
    "ittsu": "一気通貫",
    "sanshoku": "三色同順",
    "sanshoku_doukou": "三色同刻",
    "sankantsu": "三槓子",
    "toitoi": "対々和",
    "sanankou": "三暗刻",
    "shousangen": "小三元",
    "honroutou": "混老頭",
    "ryanpeikou": "二盃口",
    "junchan": "純全帯幺九",
    "honitsu": "混一色",
    "chinitsu": "清一色",
    "renhou": "人和",
    "renhou_yakuman": "人和",
    "tenhou": "天和",
    "chiihou": "地和",
    "daisangen": "大三元",
    "suuankou": "四暗刻",
    "suuankou_tanki": "四暗刻単騎",
    "tsuuiisou": "字一色",
    "ryuuiisou": "緑一色",
    "chinroutou": "清老頭",
    "chuuren_poutou": "九蓮宝燈",
    "junsei_chuuren_poutou": "純正九蓮宝燈",
    "kokushi_musou": "国士無双",
    "kokushi_musou_13": "国士無双１３面",
    "daisuushii": "大四喜",
    "shousuushii": "小四喜",
    "suukantsu": "四槓子",
    "dora": "ドラ",
    "ura_dora": "裏ドラ",
    "aka_dora": "赤ドラ",
}
"""jantaku's yaku names -> the names tenhou.net/6 writes (the wind yaku name the seat or round wind)."""

_WIND_KANJI = "東南西北"
_LIMIT_NAMES = ("", "満貫", "跳満", "倍満", "三倍満", "役満")
_LIMIT_CODES = {"満貫": 1, "跳満": 2, "倍満": 3, "三倍満": 4, "役満": 5, "数え役満": 5}
_SCORE_TEXT = re.compile(r"^(?:(\d+)符)?(?:(\d+)飜)?(満貫|跳満|倍満|三倍満|数え役満|役満)?(\d+)(?:-(\d+))?点(∀)?$")
_YAKU_TEXT = re.compile(r"^(.+)\((?:(\d+)飜|(役満))\)$")
_CLOSED_KAN = re.compile(r"^(?:\d\d)*[ka](?:\d\d)+$")
_TENHOU_LOBBY = re.compile(r"^[般上特鳳若銀琥孔]")
# a Mahjong Soul game converted to tenhou.net/6: its ``ref`` is the game's uuid after the date
# (``231014-<uuid>``), its ``rule.disp`` names a room (銅の間東喰赤, 玉の間南喰赤, 王座の間...)
_MAHJONGSOUL_REF = re.compile(r"^\d{6}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_MAHJONGSOUL_ROOM = re.compile(r"^(銅|銀|金|玉|王座)の間")


def is_mahjongsoul(game: dict[str, Any]) -> bool:
    """Whether a tenhou.net/6 log is a converted Mahjong Soul game (by its ``ref`` or its room's name).

    >>> is_mahjongsoul({"ref": "231014-3f6f5904-aae2-4bf4-b36f-26df5bcd6c6d"})
    True
    >>> is_mahjongsoul({"rule": {"disp": "玉の間南喰赤"}}), is_mahjongsoul({"rule": {"disp": "般南喰赤"}})
    (True, False)
    """
    rule = game.get("rule")
    disp = str(rule.get("disp") or "") if isinstance(rule, dict) else ""
    return bool(_MAHJONGSOUL_REF.match(str(game.get("ref") or "")) or _MAHJONGSOUL_ROOM.match(disp))


_MAX_REPLAYS = 20000
_MAX_GAMES = 100_000
_MAX_KYOKU = 100
_TSUMOGIRI = 60


# ---------------------------------------------------------------------------------------------------------
# loading


def _load(source: str | Path | dict | list) -> tuple[list[Any], str]:
    """The game objects of ``source`` and a name for messages."""
    if isinstance(source, dict):
        return [source], "<dict>"
    if isinstance(source, list):
        return list(source), "<list>"
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith(("{", "["))):
        path = Path(source)
        text = read_text_file(path)
        name = str(path)
    elif isinstance(source, str):
        text, name = source, "<text>"
    else:
        raise RecordError(f"a tenhou.net/6 log is a path, JSON text, a dict or a list, not {type(source).__name__}")
    lines = [(n, ln) for n, ln in enumerate(text.splitlines(), 1) if ln.strip()]
    try:
        data = safejson.loads(text)
    except JantakuError as whole:
        if len(lines) < 2 or not _parses(lines[0][1]):
            raise RecordError(f"{name}: not valid JSON ({str(whole).removeprefix('not JSON: ')})") from None
        games = []  # one object per line
        for n, ln in lines:
            try:
                games.append(safejson.loads(ln))
            except JantakuError as e:
                raise RecordError(f"{name}: line {n} is not valid JSON ({str(e).removeprefix('not JSON: ')})") from None
        return games, name
    if isinstance(data, list):
        return data, name
    return [data], name


def _parses(text: str) -> bool:
    try:
        safejson.loads(text)
    except JantakuError:
        return False
    return True


def read_tenhou6(source: str | Path | dict | list, name: str | None = None) -> list[GameRecord]:
    """Read tenhou.net/6 JSON: a file (one object, or one object per line), JSON text, a parsed object or a list.

    Returns one :class:`GameRecord` per JSON object, ``source`` = ``file#index`` (the object's position,
    counting from 0). Raises :class:`~jantaku.records.errors.RecordError` naming the file, the kyoku and what is
    wrong for malformed input (bad JSON, an unknown tile code, a call string that does not fit the play, a
    result that the play does not lead to). ``name`` names the source in messages (default: the path).
    """
    games, found_name = _load(source)
    name = name or found_name
    if len(games) > _MAX_GAMES:
        raise RecordError(f"{name}: {len(games)} games in one file, more than {_MAX_GAMES}")
    records = []
    for i, game in enumerate(games):
        rec = _read_game(game, f"{name}#{i}")
        rec.check()
        records.append(rec)
    return records


def _read_game(game: Any, src: str) -> GameRecord:
    if not isinstance(game, dict):
        raise RecordError(f"{src}: a tenhou.net/6 log is a JSON object, got {type(game).__name__}")
    log = game.get("log")
    if not isinstance(log, list):
        raise RecordError(f"{src}: no 'log' list")
    rule = game.get("rule") or {}
    if not isinstance(rule, dict):
        raise RecordError(f"{src}: 'rule' must be an object")
    names = game.get("name") or ["", "", "", ""]
    if not isinstance(names, list) or len(names) != 4:
        raise RecordError(f"{src}: 'name' must list 4 players")
    disp = str(rule.get("disp") or "")
    rec = GameRecord(source=src, dora_timing_known=False)
    if is_mahjongsoul(game):
        rec.rule_name = "mahjongsoul"
    rec.red_fives = _red_fives(rule, log)
    rec.open_tanyao = "喰" in disp if _TENHOU_LOBBY.match(disp) else True
    rec.hanchan = _hanchan(disp, log)
    sc = game.get("sc")
    final_scores: list[int] | None = None
    if isinstance(sc, list) and len(sc) == 8 and all(_is_number(x) for x in sc):
        rec.final = [float(x) for x in sc[1::2]]
        final_scores = [int(x) for x in sc[0::2]]
    rec.events.append({"type": "start_game", "names": [str(n) for n in names]})
    last: _Kyoku | None = None
    if len(log) > _MAX_KYOKU:
        raise RecordError(f"{src}: {len(log)} hands in one game, more than {_MAX_KYOKU}")
    for k, kyoku in enumerate(log):
        where = f"{src} log[{k}]"
        try:
            last = _Kyoku(kyoku, where, rec.red_fives)
        except JantakuError:
            raise
        except (LookupError, TypeError, ValueError, AttributeError, ArithmeticError) as e:
            # every field is checked before use; this is the last guard, naming the hand all the same
            raise RecordError(f"{where}: malformed hand ({type(e).__name__}: {excerpt(str(e), 100)})") from None
        rec.events.extend(last.events)
        rec.problems.extend(last.problems)
    if last is not None:
        if final_scores is not None:
            rec.events.append({"type": "end_game", "scores": final_scores})
        elif last.game_over(rec.hanchan):
            rec.events.append({"type": "end_game", "scores": last.final_scores()})
    return rec


def _red_fives(rule: dict[str, Any], log: list[Any]) -> bool:
    if "aka" in rule:
        return bool(rule["aka"])
    keys = [k for k in ("aka51", "aka52", "aka53") if k in rule]
    if keys:
        return any(bool(rule[k]) for k in keys)
    return any(code in (51, 52, 53) for code in _codes(log))


def _codes(obj: Any) -> Iterator[int]:
    if isinstance(obj, list):
        for x in obj:
            yield from _codes(x)
    elif isinstance(obj, int):
        yield obj


def _hanchan(disp: str, log: list[Any]) -> bool:
    if "南" in disp or "south" in disp.lower():
        return True
    if "東" in disp or "east" in disp.lower():
        return False
    return any(
        isinstance(k, list) and k and isinstance(k[0], list) and k[0] and _is_int(k[0][0]) and k[0][0] >= 4 for k in log
    )


# ---------------------------------------------------------------------------------------------------------
# one kyoku


class _Dead(Exception):
    """A replay that cannot go on (the message says why); the search tries another way or gives up."""


@dataclass(frozen=True)
class _Discard:
    """One entry of a discard list: a tile (``tsumogiri``: 60), a riichi, a closed/added kan or the 0 filler."""

    tile: Tile | None = None
    tsumogiri: bool = False
    riichi: bool = False
    kan: Meld | None = None
    filler: bool = False


@dataclass(frozen=True)
class _Win:
    who: int
    from_who: int
    deltas: list[int]
    info: list[Any]


def _hand_name(round_no: int, honba: int) -> str:
    return f"{'ESWN'[round_no // 4 % 4]}{round_no % 4 + 1}-{honba}"


class _Kyoku:
    """Reads one kyoku array and replays it into mjai events (``events``)."""

    def __init__(self, kyoku: Any, where: str, red_fives: bool = True) -> None:
        self.where = where
        self.red_fives = red_fives
        if not isinstance(kyoku, list) or len(kyoku) != 17:
            size = len(kyoku) if isinstance(kyoku, list) else type(kyoku).__name__
            raise RecordError(f"{where}: a kyoku is a list of 17 entries, got {size}")
        head = kyoku[0]
        if not (isinstance(head, list) and len(head) == 3 and all(_is_int(x) for x in head)):
            raise RecordError(f"{where}: the first entry must be [round, honba, kyotaku], got {excerpt(head)}")
        self.round_no, self.honba, self.kyotaku = head
        if not 0 <= self.round_no < 16:
            raise RecordError(f"{where}: round {self.round_no} is not 0-15")
        self.where = f"{where} ({_hand_name(self.round_no, self.honba)})"
        self.oya = self.round_no % 4
        scores = kyoku[1]
        if not (isinstance(scores, list) and len(scores) == 4 and all(_is_int(x) for x in scores)):
            raise RecordError(f"{self.where}: the scores must be 4 integers, got {excerpt(scores)}")
        self.start_scores = list(scores)
        self.dora = [self._tile(c, "dora indicators") for c in self._list(kyoku[2], "dora indicators")]
        self.ura = [self._tile(c, "ura indicators") for c in self._list(kyoku[3], "ura indicators")]
        if not self.dora:
            raise RecordError(f"{self.where}: no dora indicator")
        self.haipai: list[list[Tile]] = []
        self.draws: list[list[Tile | Meld]] = []
        self.discards: list[list[_Discard]] = []
        for p in range(4):
            hp = self._list(kyoku[4 + 3 * p], f"seat {p} haipai")
            if len(hp) != 13:
                raise RecordError(f"{self.where}: seat {p} starts with {len(hp)} tiles, not 13")
            self.haipai.append([self._tile(c, f"seat {p} haipai") for c in hp])
            self.draws.append(
                [self._draw(x, p, i) for i, x in enumerate(self._list(kyoku[5 + 3 * p], f"seat {p} draws"))]
            )
            self.discards.append(
                [self._discard(x, p, i) for i, x in enumerate(self._list(kyoku[6 + 3 * p], f"seat {p} discards"))]
            )
        self._read_result(kyoku[16])
        self.problems: list[str] = []
        self._check_supply()
        # filled in by the replay's end
        self.end_scores: list[int] = list(self.start_scores)
        self.sticks_left = self.kyotaku
        self.dealer_continues = False
        self.dealer_renchan_by_play = False
        self.events = self._solve()

    # -- parsing entries -----------------------------------------------------------------------------------

    def _list(self, x: Any, what: str) -> list[Any]:
        if not isinstance(x, list):
            raise RecordError(f"{self.where}: {what} must be a list, got {excerpt(x)}")
        return x

    def _tile(self, code: Any, what: str) -> Tile:
        try:
            return Tile.from_tenhou6(code)
        except JantakuError:
            raise RecordError(
                f"{self.where}: {what}: unknown tile code {excerpt(code)} (expected 11-19, 21-29, 31-39, 41-47, 51-53)"
            ) from None

    def _meld(self, text: str, what: str) -> Meld:
        try:
            return Meld.from_tenhou6(text)
        except JantakuError as e:
            raise RecordError(f"{self.where}: {what}: bad call string {excerpt(text)} ({e})") from None

    def _draw(self, x: Any, p: int, i: int) -> Tile | Meld:
        what = f"seat {p} draw #{i}"
        if isinstance(x, str):
            meld = self._meld(x, what)
            if meld.kind not in (MeldKind.CHI, MeldKind.PON, MeldKind.MINKAN):
                raise RecordError(
                    f"{self.where}: {what}: {excerpt(x)} is a {meld.kind.value}, which belongs in the discards"
                )
            return meld
        return self._tile(x, what)

    def _discard(self, x: Any, p: int, i: int) -> _Discard:
        what = f"seat {p} discard #{i}"
        if isinstance(x, str):
            if x.startswith("r"):
                code: Any = int(x[1:]) if x[1:].isascii() and x[1:].isdigit() else x
                if code == _TSUMOGIRI:
                    return _Discard(tsumogiri=True, riichi=True)
                return _Discard(tile=self._tile(code, what), riichi=True)
            if _CLOSED_KAN.match(x):
                meld = self._meld(x, what)
                return _Discard(kan=meld)
            raise RecordError(
                f"{self.where}: {what}: {excerpt(x)} is neither a riichi discard nor an added or closed kan"
            )
        if x == _TSUMOGIRI:
            return _Discard(tsumogiri=True)
        if x == 0 and not isinstance(x, bool):
            return _Discard(filler=True)
        return _Discard(tile=self._tile(x, what))

    def _read_result(self, result: Any) -> None:
        if not isinstance(result, list) or not result or not isinstance(result[0], str):
            raise RecordError(f"{self.where}: the result must be a list starting with its name, got {excerpt(result)}")
        self.result_name = result[0]
        self.wins: list[_Win] = []
        self.draw_deltas: list[int] | None = None
        if result[0] == "和了":
            if len(result) < 3 or len(result) % 2 != 1:
                raise RecordError(
                    f"{self.where}: a win result is 和了 then pairs of deltas and info: {excerpt(result)}"
                )
            for i in range(1, len(result), 2):
                deltas, info = result[i], result[i + 1]
                self._check_deltas(deltas)
                if not (isinstance(info, list) and len(info) >= 3 and all(_is_int(x) for x in info[:3])):
                    raise RecordError(f"{self.where}: win info must start [who, from, pao], got {excerpt(info)}")
                if not all(0 <= x < 4 for x in info[:3]):
                    raise RecordError(f"{self.where}: win info names a seat outside 0-3: {excerpt(info)}")
                self.wins.append(_Win(info[0], info[1], list(deltas), info))
            if len({w.from_who for w in self.wins}) != 1 or len({w.who for w in self.wins}) != len(self.wins):
                raise RecordError(f"{self.where}: the wins of one hand come from one discarder: {excerpt(result)}")
            if len(self.wins) > 1 and any(w.who == w.from_who for w in self.wins):
                raise RecordError(f"{self.where}: only one player wins by tsumo: {excerpt(result)}")
            return
        if result[0] not in DRAW_REASONS:
            raise RecordError(f"{self.where}: unknown result {excerpt(result[0])}")
        if len(result) > 1:
            self._check_deltas(result[1])
            self.draw_deltas = list(result[1])

    def _check_supply(self) -> None:
        """Note (in ``problems``) a kind seen more than four times, a red five twice, a fourth plain five."""
        seen = [t for h in self.haipai for t in h] + [t for d in self.draws for t in d if isinstance(t, Tile)]
        seen += self.dora + self.ura
        kinds: dict[int, int] = {}
        copies: dict[Tile, int] = {}
        for t in seen:
            kinds[t.kind] = kinds.get(t.kind, 0) + 1
            copies[t] = copies.get(t, 0) + 1
        too_many = [Tile.from_kind(k).mjai for k, n in sorted(kinds.items()) if n > 4]
        too_many += [t.mjai for t, n in copies.items() if n > 1 and t.red]
        if self.red_fives:  # one five of each suit is the red one
            too_many += [t.mjai for t, n in copies.items() if n > 3 and t.kind in (4, 13, 22) and not t.red]
        if too_many:
            self.problems.append(
                f"{self.where}: the hands, draws and indicators hold too many of {', '.join(too_many)}"
            )

    def _check_deltas(self, deltas: Any) -> None:
        if not (isinstance(deltas, list) and len(deltas) == 4 and all(_is_int(x) for x in deltas)):
            raise RecordError(f"{self.where}: deltas must be 4 integers, got {excerpt(deltas)}")

    # -- the search ----------------------------------------------------------------------------------------

    def _solve(self) -> list[dict[str, Any]]:
        """Replay with every choice of call timing until one uses all entries and ends as the result says."""
        choices: list[int] = []
        first: _Dead | None = None
        for _ in range(_MAX_REPLAYS):
            counts: list[int] = []
            try:
                return _Play(self, choices, counts).run()
            except _Dead as e:
                first = first or e
            del choices[len(counts) :]
            while choices and choices[-1] + 1 >= counts[len(choices) - 1]:
                choices.pop()
            if not choices:
                assert first is not None
                raise RecordError(f"{self.where}: {first}")
            choices[-1] += 1
        raise RecordError(f"{self.where}: no order of play fits the log after {_MAX_REPLAYS} tries")

    # -- the end of the game ---------------------------------------------------------------------------------

    def game_over(self, hanchan: bool) -> bool:
        """Whether this hand, by Tenhou's rules, ends the game."""
        scores = self.end_scores
        if min(scores) < 0:
            return True
        last = 7 if hanchan else 3
        if self.round_no < last:
            return False
        top = max(scores)
        if self.round_no > last:
            return top >= 30000 or (self.round_no >= last + 4 and not self.dealer_continues)
        if self.dealer_continues:
            # the dealer stops (agari-yame / tenpai-yame) when top with 30,000; an abortive draw goes on
            first = min(range(4), key=lambda s: (-scores[s], s))
            return self.dealer_renchan_by_play and first == self.oya and scores[self.oya] >= 30000
        return top >= 30000

    def final_scores(self) -> list[int]:
        """The scores after the hand with the riichi sticks left on the table given to the top player."""
        scores = list(self.end_scores)
        first = min(range(4), key=lambda s: (-scores[s], s))
        scores[first] += 1000 * self.sticks_left
        return scores


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    return _is_int(x) or (isinstance(x, float) and abs(x) < 1e12)


class _Play:
    """One replay of a kyoku under one choice of call timings."""

    def __init__(self, ky: _Kyoku, choices: list[int], counts: list[int]) -> None:
        self.ky = ky
        self.choices = choices
        self.counts = counts
        self.hands = [list(h) for h in ky.haipai]
        self.pons: list[dict[int, tuple[Meld, list[str]]]] = [{}, {}, {}, {}]
        self.events: list[dict[str, Any]] = []
        self.scores = list(ky.start_scores)
        self.sticks = ky.kyotaku
        self.sticks_taken = 0
        self.riichi = [False] * 4
        self.reach_pending: int | None = None
        self.dora_next = 1
        self.dora_at_discard = 0
        self.dora_at_tsumo = 0
        self.last_draw: list[Tile | None] = [None] * 4
        self.last_action: tuple[str, int, Tile] | None = None  # ("dahai"|"kakan"|"ankan", seat, tile)

    # -- helpers -------------------------------------------------------------------------------------------

    def emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def remove(self, p: int, tile: Tile, what: str) -> None:
        try:
            self.hands[p].remove(tile)
        except ValueError:
            hand = " ".join(t.mjai for t in sorted(self.hands[p]))
            raise _Dead(f"seat {p} {what} {tile.mjai}, which is not in its hand [{hand}]") from None

    def reveal(self, n: int) -> None:
        for _ in range(n):
            if self.dora_next >= len(self.ky.dora):
                return  # Tenhou did not list it (the hand ended before it was turned)
            self.emit({"type": "dora", "dora_marker": self.ky.dora[self.dora_next].mjai})
            self.dora_next += 1

    def accept_riichi(self) -> None:
        p = self.reach_pending
        if p is None:
            return
        self.reach_pending = None
        self.riichi[p] = True
        self.scores[p] -= 1000
        self.sticks += 1
        deltas = [0, 0, 0, 0]
        deltas[p] = -1000
        self.emit({"type": "reach_accepted", "actor": p, "deltas": deltas, "scores": list(self.scores)})

    # -- the replay ----------------------------------------------------------------------------------------

    def run(self) -> list[dict[str, Any]]:
        ky = self.ky
        self.emit(
            {
                "type": "start_kyoku",
                "bakaze": "ESWN"[ky.round_no // 4 % 4],
                "kyoku": ky.round_no % 4 + 1,
                "honba": ky.honba,
                "kyotaku": ky.kyotaku,
                "oya": ky.oya,
                "dora_marker": ky.dora[0].mjai,
                "scores": list(ky.start_scores),
                "tehais": [[t.mjai for t in h] for h in ky.haipai],
            }
        )
        draws, discards = ky.draws, ky.discards
        di = [0, 0, 0, 0]
        ci = [0, 0, 0, 0]
        p = ky.oya
        need_draw = True
        ended_on_draw = False
        while True:
            if need_draw:
                if di[p] >= len(draws[p]):
                    break  # nobody draws: a ron, a robbed kan or a draw ended the hand
                d = draws[p][di[p]]
                if isinstance(d, Meld):
                    raise _Dead(f"seat {p} should draw, but its next draw entry is the call {d.tenhou6()!r}")
                di[p] += 1
                self.accept_riichi()
                self.reveal(self.dora_at_tsumo)
                self.dora_at_tsumo = 0
                self.hands[p].append(d)
                self.last_draw[p] = d
                self.last_action = None
                self.emit({"type": "tsumo", "actor": p, "pai": d.mjai})
            if ci[p] >= len(discards[p]):
                ended_on_draw = True
                break  # a tsumo or nine terminals after this draw
            x = discards[p][ci[p]]
            ci[p] += 1
            if x.kan is not None:
                self.closed_kan(p, x.kan)
                need_draw = True
                continue
            if x.filler:
                raise _Dead(f"seat {p} has a 0 in its discards where no open kan was made")
            if x.tsumogiri:
                tile = self.last_draw[p]
                if tile is None:
                    raise _Dead(f"seat {p} discards its drawn tile (60) right after a call")
            else:
                assert x.tile is not None
                tile = x.tile
            self.remove(p, tile, "discards")
            if x.riichi:
                if self.riichi[p]:
                    raise _Dead(f"seat {p} declares riichi twice")
                self.emit({"type": "reach", "actor": p})
                self.reach_pending = p
            self.reveal(self.dora_at_discard)
            self.dora_at_discard = 0
            self.emit({"type": "dahai", "actor": p, "pai": tile.mjai, "tsumogiri": x.tsumogiri})
            self.last_draw[p] = None
            self.last_action = ("dahai", p, tile)
            caller = self.choose_call(p, tile, di)
            if caller is None:
                p = (p + 1) % 4
                need_draw = True
                continue
            q, meld = caller
            di[q] += 1
            rest = list(meld.tiles)
            rest.remove(tile)
            for t in rest:
                self.remove(q, t, f"calls {meld.tenhou6()} with")
            self.accept_riichi()
            kind = {MeldKind.CHI: "chi", MeldKind.PON: "pon", MeldKind.MINKAN: "daiminkan"}[meld.kind]
            consumed = [t.mjai for t in rest]
            self.emit({"type": kind, "actor": q, "target": p, "pai": tile.mjai, "consumed": consumed})
            if meld.kind is MeldKind.PON:
                self.pons[q][meld.kind34] = (meld, [t.mjai for t in meld.tiles])
            self.last_action = None
            p = q
            if meld.kind is MeldKind.MINKAN:
                if ci[q] >= len(discards[q]) or not discards[q][ci[q]].filler:
                    raise _Dead(f"seat {q}'s open kan {meld.tenhou6()} is not followed by 0 in its discards")
                ci[q] += 1
                self.dora_at_discard += 1
                need_draw = True
            else:
                need_draw = False
        left = [(s, len(draws[s]) - di[s], len(discards[s]) - ci[s]) for s in range(4)]
        left = [x for x in left if x[1] or x[2]]
        if left:
            text = ", ".join(f"seat {s}: {a} draw(s), {b} discard(s)" for s, a, b in left)
            raise _Dead(f"the play ends with entries left over ({text})")
        self.finish(p, ended_on_draw)
        return self.events

    def choose_call(self, p: int, tile: Tile, di: list[int]) -> tuple[int, Meld] | None:
        """Who takes the discard ``tile`` of seat ``p``: the search's choice among the fitting calls or nobody."""
        found: list[tuple[int, int, int, Meld]] = []
        for step in (1, 2, 3):
            q = (p + step) % 4
            if di[q] >= len(self.ky.draws[q]):
                continue
            nxt = self.ky.draws[q][di[q]]
            if not isinstance(nxt, Meld) or nxt.called is not tile or (q + (nxt.source or 0)) % 4 != p:
                continue
            found.append((0 if nxt.kind is not MeldKind.CHI else 1, step, q, nxt))
        if not found:
            return None
        found.sort(key=lambda f: (f[0], f[1]))
        k = len(self.counts)
        self.counts.append(len(found) + 1)
        if k == len(self.choices):
            self.choices.append(0)
        pick = self.choices[k]
        if pick >= len(found):
            return None
        _, _, q, meld = found[pick]
        return q, meld

    def closed_kan(self, p: int, meld: Meld) -> None:
        """An added or closed kan from seat ``p``'s discard list; the replacement draw follows."""
        if meld.kind is MeldKind.KAKAN:
            assert meld.added is not None
            pon = self.pons[p].pop(meld.kind34, None)
            if pon is None:
                raise _Dead(f"seat {p} adds to a pon of {meld.added.mjai} it does not have ({meld.tenhou6()})")
            self.remove(p, meld.added, "adds")
            self.emit({"type": "kakan", "actor": p, "pai": meld.added.mjai, "consumed": pon[1]})
            self.last_action = ("kakan", p, meld.added)
            # a kan still waiting for its indicator shows it once this one is not robbed
            self.dora_at_tsumo += self.dora_at_discard
            self.dora_at_discard = 1
        else:
            for t in meld.tiles:
                self.remove(p, t, "makes a closed kan with")
            self.emit({"type": "ankan", "actor": p, "consumed": [t.mjai for t in meld.tiles]})
            self.last_action = ("ankan", p, meld.tiles[0])
            self.reveal(self.dora_at_discard + self.dora_at_tsumo + 1)
            self.dora_at_discard = self.dora_at_tsumo = 0
        self.last_draw[p] = None

    # -- the end -------------------------------------------------------------------------------------------

    def finish(self, p: int, ended_on_draw: bool) -> None:
        ky = self.ky
        if ky.wins:
            self.finish_wins(p, ended_on_draw)
        else:
            self.finish_draw(p, ended_on_draw)
        if self.dora_next < len(ky.dora):
            raise _Dead(f"the log lists {len(ky.dora)} dora indicators, the kans reveal {self.dora_next}")
        paid = sum(sum(w.deltas) for w in ky.wins) if ky.wins else sum(ky.draw_deltas or [])
        taken = 1000 * self.sticks_taken
        if paid != taken:
            ky.problems.append(
                f"{ky.where}: the result's deltas add up to {paid}, not the {taken} of the riichi sticks collected"
            )
        ky.end_scores = list(self.scores)
        ky.sticks_left = self.sticks
        self.emit({"type": "end_kyoku"})

    def finish_wins(self, p: int, ended_on_draw: bool) -> None:
        ky = self.ky
        first = ky.wins[0]
        if first.who == first.from_who:
            if not ended_on_draw or p != first.who:
                raise _Dead(f"seat {first.who} wins by tsumo, but the play ends with seat {p} to move")
            tile = self.last_draw[p]
            if tile is None:
                raise _Dead(f"seat {p} wins by tsumo without a draw")
            dealer_won = p == ky.oya
        else:
            if ended_on_draw or self.last_action is None or self.last_action[1] != first.from_who:
                raise _Dead(
                    f"seat {first.who} wins on a tile of seat {first.from_who}, but that is not how the play ends"
                )
            tile = self.last_action[2]
            if self.last_action[0] == "dahai":
                if self.reach_pending is not None and sum(sum(w.deltas) for w in ky.wins) == 1000 * (self.sticks + 1):
                    # Mahjong Soul conversions give the winner the stick of a riichi declaration whose tile was
                    # won on, although it never stood (the game's own final points show it was not paid)
                    first.deltas[first.who] -= 1000
                    ky.problems.append(
                        f"{ky.where}: the winner's deltas counted the riichi stick of the declaration tile won on, "
                        "which never stood; taken out"
                    )
                self.reach_pending = None  # the riichi discard was won on: no stick
            dealer_won = any(w.who == ky.oya for w in ky.wins)
        for w in ky.wins:
            for s in range(4):
                self.scores[s] += w.deltas[s]
            event: dict[str, Any] = {
                "type": "hora",
                "actor": w.who,
                "target": w.from_who,
                "pai": tile.mjai,
                "deltas": list(w.deltas),
                "ura_markers": [t.mjai for t in ky.ura] if self.riichi[w.who] else [],
            }
            event.update(self.score_fields(w))
            event["scores"] = list(self.scores)
            self.emit(event)
        self.sticks_taken = self.sticks
        self.sticks = 0
        ky.dealer_continues = dealer_won
        ky.dealer_renchan_by_play = dealer_won

    def score_fields(self, w: _Win) -> dict[str, Any]:
        """han, fu, points, limit, yakuman, yaku and pao from the win info (none when it has no score text)."""
        info = w.info
        if len(info) < 4:
            return {}
        text = info[3]
        m = _SCORE_TEXT.match(text) if isinstance(text, str) else None
        if not m:
            raise RecordError(f"{self.ky.where}: unreadable score text {excerpt(text)}")
        fu_s, han_s, limit_s, a_s, b_s, all_s = m.groups()
        a = int(a_s)
        tsumo = w.who == w.from_who
        if not tsumo:
            points = a
        elif all_s:
            points = 3 * a
        elif b_s:
            points = 2 * a + int(b_s)
        else:
            points = a
        yaku: list[list[Any]] = []
        yakuman = 0
        han_sum = 0
        for y in info[4:]:
            ym = _YAKU_TEXT.match(y) if isinstance(y, str) else None
            if not ym:
                raise RecordError(
                    f"{self.ky.where}: unreadable yaku {excerpt(y)} (expected 'name(n飜)' or 'name(役満)')"
                )
            name, han_y, is_yakuman = ym.groups()
            if is_yakuman:
                yaku.append([name, 1])
                yakuman += 1
            elif int(han_y):
                yaku.append([name, int(han_y)])
                han_sum += int(han_y)
        pao = info[2] if info[2] != w.who and yakuman else None
        return {
            "han": None if yakuman else int(han_s) if han_s else han_sum,
            "fu": int(fu_s) if fu_s else None,
            "points": points,
            "limit": _LIMIT_CODES.get(limit_s or "", 0),
            "yakuman": yakuman,
            "yaku": yaku,
            "pao": pao,
        }

    def finish_draw(self, p: int, ended_on_draw: bool) -> None:
        ky = self.ky
        name = ky.result_name
        reason = DRAW_REASONS[name]
        if reason == "nine_terminals":
            if not ended_on_draw:
                raise _Dead("nine terminals is declared on a draw, but the play ends after a discard")
        elif ended_on_draw:
            raise _Dead(f"the hand ends with seat {p}'s draw, which fits no {name}")
        if reason == "triple_ron":
            self.reach_pending = None
        self.accept_riichi()
        deltas = ky.draw_deltas or [0, 0, 0, 0]
        for s in range(4):
            self.scores[s] += deltas[s]
        event: dict[str, Any] = {"type": "ryukyoku", "reason": reason, "deltas": list(deltas)}
        if reason == "nine_terminals":
            event["actor"] = p
        if name == "全員聴牌":
            event["tenpais"] = [True] * 4
        elif name == "全員不聴":
            event["tenpais"] = [False] * 4
        elif reason == "exhaustive" and any(deltas):
            event["tenpais"] = [d > 0 for d in deltas]
        event["scores"] = list(self.scores)
        self.emit(event)
        if reason in ("exhaustive", "nagashi_mangan"):
            tenpai = event.get("tenpais")
            ky.dealer_continues = bool(tenpai and tenpai[ky.oya])
            ky.dealer_renchan_by_play = ky.dealer_continues
        else:
            ky.dealer_continues = True
            ky.dealer_renchan_by_play = False


# ---------------------------------------------------------------------------------------------------------
# writing


def write_tenhou6(record: GameRecord, title: str = "", rule_disp: str = "") -> dict[str, Any]:
    """A tenhou.net/6 JSON object (for ``json.dump``) holding the hands of ``record``.

    ``title`` becomes the first title line; ``rule_disp`` the rule label (by default one is made from the
    record: 般, the general lobby, then 南 or 東 for the length, 喰 for open tanyao, 赤 for red fives). A win's
    score text and yaku come from the ``hora`` event's ``han``/``fu``/``points``/``limit``/``yakuman``/``yaku``
    (jantaku's romaji yaku names become Tenhou's, see :data:`TENHOU6_YAKU_NAMES`); a ``hora`` without them is
    written as ``[who, from, pao]``. When the record has an ``end_game`` and :attr:`GameRecord.final`, they are
    written as Tenhou's ``sc``. Raises :class:`~jantaku.records.errors.RecordError` for events that cannot be
    written (an unknown tile, a call that is not a meld).
    """
    start = next((e for e in record.events if e.get("type") == "start_kyoku"), None)
    first_dealer = (start["oya"] - (start["kyoku"] - 1)) % 4 if start else 0
    if first_dealer:
        # tenhou.net/6 seats the first dealer at 0: renumber the seats
        from dataclasses import replace as _replace

        from .record import rotate_seats

        record = _replace(record, events=rotate_seats(record.events, first_dealer))
        if record.final is not None:
            record.final = record.final[first_dealer:] + record.final[:first_dealer]
    names = next((e.get("names") for e in record.events if e.get("type") == "start_game"), None) or [""] * 4
    if not rule_disp:
        rule_disp = "般" + ("南" if record.hanchan else "東") + ("喰" if record.open_tanyao else "")
        rule_disp += "赤" if record.red_fives else ""
    out: dict[str, Any] = {
        "title": [title, ""],
        "name": list(names),
        "rule": {"disp": rule_disp, "aka": 1 if record.red_fives else 0},
        "log": [_write_hand(hand, f"{record.source} hand {n}") for n, hand in enumerate(record.hands())],
    }
    end = next((e for e in record.events if e.get("type") == "end_game"), None)
    if end is not None and record.final is not None and len(record.final) == 4:
        sc: list[float] = []
        for s in range(4):
            sc += [end["scores"][s], _number(record.final[s])]
        out["sc"] = sc
    return out


def _number(x: float) -> float:
    return int(x) if float(x).is_integer() else x


def _code(name: Any, where: str) -> int:
    try:
        return Tile.from_mjai(name).tenhou6
    except JantakuError:
        raise RecordError(f"{where}: not an mjai tile: {excerpt(name)}") from None


def _tiles(names: list[Any], where: str) -> list[Tile]:
    try:
        return [Tile.from_mjai(n) for n in names]
    except JantakuError as e:
        raise RecordError(f"{where}: {e}") from None


def _write_hand(hand: list[dict[str, Any]], where: str) -> list[Any]:
    start = hand[0]
    try:
        round_no = "ESWN".index(start["bakaze"]) * 4 + start["kyoku"] - 1
        oya = start["oya"]
        head = [round_no, start["honba"], start["kyotaku"]]
        scores = list(start["scores"])
        tehais = start["tehais"]
        dora = [_code(start["dora_marker"], where)]
    except (KeyError, ValueError, TypeError) as err:
        raise RecordError(f"{where}: start_kyoku lacks a field or has a bad one ({err})") from None
    where = f"{where} ({_hand_name(round_no, start['honba'])})"
    draws: list[list[Any]] = [[], [], [], []]
    discards: list[list[Any]] = [[], [], [], []]
    riichi = [False] * 4
    pons: list[dict[int, Meld]] = [{}, {}, {}, {}]
    horas: list[dict[str, Any]] = []
    draw: dict[str, Any] | None = None
    for e in hand[1:]:
        t = e.get("type")
        try:
            if t == "tsumo":
                draws[e["actor"]].append(_code(e["pai"], where))
            elif t == "reach":
                riichi[e["actor"]] = True
            elif t == "dahai":
                a = e["actor"]
                code = _TSUMOGIRI if e.get("tsumogiri") else _code(e["pai"], where)
                discards[a].append(f"r{code}" if riichi[a] else code)
                riichi[a] = False
            elif t in ("chi", "pon", "daiminkan"):
                a = e["actor"]
                called = _tiles([e["pai"]], where)[0]
                tiles = tuple(sorted([called, *_tiles(e["consumed"], where)]))
                kind = {"chi": MeldKind.CHI, "pon": MeldKind.PON, "daiminkan": MeldKind.MINKAN}[t]
                meld = Meld(kind, tiles, called, (e["target"] - a) % 4)
                draws[a].append(meld.tenhou6())
                if kind is MeldKind.PON:
                    pons[a][meld.kind34] = meld
                elif kind is MeldKind.MINKAN:
                    discards[a].append(0)
            elif t == "ankan":
                tiles = tuple(sorted(_tiles(e["consumed"], where)))
                discards[e["actor"]].append(Meld(MeldKind.ANKAN, tiles).tenhou6())
            elif t == "kakan":
                a = e["actor"]
                added = _tiles([e["pai"]], where)[0]
                pon = pons[a].pop(added.kind, None)
                if pon is None:
                    raise RecordError(f"{where}: seat {a} makes an added kan of {e['pai']} without a pon of it")
                tiles = tuple(sorted([*pon.tiles, added]))
                discards[a].append(Meld(MeldKind.KAKAN, tiles, pon.called, pon.source, added).tenhou6())
            elif t == "dora":
                dora.append(_code(e["dora_marker"], where))
            elif t == "hora":
                horas.append(e)
            elif t == "ryukyoku":
                draw = e
        except (KeyError, TypeError) as err:
            raise RecordError(f"{where}: {t} event lacks a field or has a bad one ({excerpt(err)})") from None
        except JantakuError as err:
            if isinstance(err, RecordError):
                raise
            raise RecordError(f"{where}: {t} event by seat {e.get('actor')}: {err}") from None
    ura: list[int] = []
    for h in horas:
        if h.get("ura_markers"):
            ura = [_code(x, where) for x in h["ura_markers"]]
            break
    log: list[Any] = [head, scores, dora, ura]
    for p in range(4):
        log += [[_code(x, where) for x in tehais[p]], draws[p], discards[p]]
    if horas:
        result: list[Any] = ["和了"]
        for h in horas:
            result += [list(h["deltas"]), _win_info(h, oya, start["bakaze"], where)]
    elif draw is not None:
        result = _draw_result(draw)
    else:
        raise RecordError(f"{where}: the hand has neither a hora nor a ryukyoku")
    log.append(result)
    return log


def _draw_result(e: dict[str, Any]) -> list[Any]:
    reason = e.get("reason") or "exhaustive"
    deltas = list(e.get("deltas") or [0, 0, 0, 0])
    if reason == "exhaustive":
        tenpais = e.get("tenpais")
        if not any(deltas) and tenpais is not None and len(set(tenpais)) == 1:
            return ["全員聴牌" if tenpais[0] else "全員不聴"]
        return ["流局", deltas] if any(deltas) else ["流局"]
    name = DRAW_NAMES.get(reason)
    if name is None:
        raise RecordError(f"unknown ryukyoku reason {excerpt(reason)}")
    return [name, deltas] if any(deltas) or reason == "nagashi_mangan" else [name]


def _limit(han: int | None, fu: int | None, yakuman: int, points: int, dealer: bool) -> int:
    """Tenhou's limit code of a hand (no kiriage mangan, kazoe yakuman at 13 han).

    Without fu (tenhou.net/6 writes none for a limit hand) a hand below 5 han is a mangan when its points are.
    """
    han = han or 0
    if yakuman or han >= 13:
        return 5
    if han >= 11:
        return 4
    if han >= 8:
        return 3
    if han >= 6:
        return 2
    if han >= 5:
        return 1
    if fu:
        return 1 if fu * 2 ** (han + 2) > 2000 else 0
    return 1 if points >= (12000 if dealer else 8000) else 0


def _win_info(h: dict[str, Any], oya: int, bakaze: str, where: str) -> list[Any]:
    who, from_who = h["actor"], h["target"]
    pao = h.get("pao")
    info: list[Any] = [who, from_who, pao if pao is not None else who]
    points = h.get("points")
    if points is None:
        return info
    yakuman = h.get("yakuman") or 0
    han, fu = h.get("han"), h.get("fu")
    limit = h.get("limit")
    if limit is None:
        limit = _limit(han, fu, yakuman, points, who == oya)
    text = _LIMIT_NAMES[limit] if limit else (f"{fu}符" if fu else "") + f"{han}飜"
    if who != from_who:
        text += f"{points}点"
    elif who == oya:
        text += f"{-(-points // 3)}点∀"
    else:
        # points = 2 a + b with a = ceil100(x), b = ceil100(2x): b is 2a or 2a - 100
        a = points // 4 if points % 400 == 0 else (points + 100) // 4
        text += f"{a}-{points - 2 * a}点"
    info.append(text)
    seat_wind = _WIND_KANJI[(who - oya) % 4]
    round_wind = _WIND_KANJI["ESWN".index(bakaze)]
    for entry in h.get("yaku") or []:
        try:
            name, value = entry
        except (TypeError, ValueError):
            raise RecordError(f"{where}: a yaku is [name, han], got {excerpt(entry)}") from None
        jp = TENHOU6_YAKU_NAMES.get(name, name).format(seat=seat_wind, round=round_wind)
        info.append(f"{jp}(役満)" if yakuman else f"{jp}({value}飜)")
    return info
