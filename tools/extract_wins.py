"""Extract every win recorded in the real Tenhou logs into a golden corpus for the scorer.

Reads the Tenhou mjlog XML games (``tenhou-mjlog/*/*.mjlog``, gzipped or plain) and the tenhou.net/6 JSON
logs (``tenhou6-json/*/*.json``, one object per file or one per line) under the realdata folder, replays
each hand far enough to know the winner's closed tiles and melds, and writes one JSON object per win to
``tests/data/wins/tenhou_wins.jsonl``: the input fields of ``jantaku score --jsonl`` plus ``expected``
(Tenhou's own han, fu, points, limit, yaku and per-seat deltas).

Usage::

    python tools/extract_wins.py [--realdata /work/shared/realdata] [--out tests/data/wins/tenhou_wins.jsonl]

Records are sorted by source file (path under realdata) and then by their order in the file; the
``source`` locator counts from 0: ``X.mjlog#kyoku3/agari1`` is the second win of the fourth hand of the
file, ``X.json#line5/kyoku0/agari0`` the first win of the first hand of the sixth JSON object of a file
holding several.

Every win is checked: the hand (closed tiles + melds) builds a :class:`jantaku.Hand` of 14 tiles (3 per
meld), holds the winning tile, with the dora and ura indicators needs no fifth copy; the deltas sum to 1000
per riichi stick collected; the winner gains points + 300 per honba + the sticks. For mjlog, the replayed
closed hand, melds and dora indicators must equal the ones Tenhou wrote in the AGARI tag, every call's
tile must be the last discard of the seat the meld code names, and the situational yaku (riichi, ippatsu,
haitei, ...) must agree with the ones derived from the play; for tenhou.net/6 the whole hand is replayed
in turn order (so every draw, discard and call string is used exactly once, and the situational yaku are
checked the same way). Every closed part must be a complete hand (shanten -1). The tenhou.net/6 twins of
the mjx-houou games are compared with the mjlog originals field by field.

A win that cannot be reconstructed or fails a check is left out of the corpus and listed in the summary
with the reason; the script exits with status 1 only if a twin disagrees with its original.

Conventions of the corpus (what the data showed):

* ``honba`` and ``deposits`` are what this winner collects. In a double ron Tenhou pays both the honba and
  all riichi sticks to the first winner in turn order from the discarder only; the other winner gets
  ``honba`` 0 and ``deposits`` 0 (its AGARI still shows the honba counter, but its deltas hold no honba).
* ``expected.han`` is the total han with dora; ``null`` for a yakuman hand, whose ``expected.yakuman``
  counts the yakuman (each listed as ``[id, 13]``); a kazoe yakuman keeps its han, ``yakuman`` 0 and
  ``limit`` 5. ``limit`` is Tenhou's code (1 mangan, 2 haneman, 3 baiman, 4 sanbaiman, 5 yakuman), ``null``
  below mangan. ``fu`` is ``null`` when tenhou.net/6 does not write it (mangan and up).
* Zero-han entries (mjlog writes ``[53, 0]`` for a riichi win without ura dora) are left out of ``yaku``.
* A yakuman's yaku list has no riichi, ippatsu, haitei, ...: for those hands the flags come from the play.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from jantaku.errors import JantakuError
from jantaku.hand import Hand, check_tile_supply
from jantaku.meld import Meld, MeldKind
from jantaku.records.tenhou_meld import MjlogMeld, decode_mjlog_meld
from jantaku.shapes.shanten import shanten
from jantaku.tiles import Tile, format_tiles

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REALDATA = Path("/work/shared/realdata")
DEFAULT_OUT = ROOT / "tests" / "data" / "wins" / "tenhou_wins.jsonl"

WINDS = "ESWN"
LIVE_WALL_DRAWS = 70  # 136 - 52 dealt - 14 dead wall; each kan's replacement draw shortens the live wall by one

# situational yaku (Tenhou ids) -> input flag
Y_TSUMO, Y_RIICHI, Y_IPPATSU, Y_CHANKAN, Y_RINSHAN, Y_HAITEI, Y_HOUTEI = 0, 1, 2, 3, 4, 5, 6
Y_DOUBLE_RIICHI, Y_TENHOU, Y_CHIIHOU = 21, 37, 38
FLAG_YAKU = {
    "ippatsu": Y_IPPATSU,
    "chankan": Y_CHANKAN,
    "rinshan": Y_RINSHAN,
    "haitei": Y_HAITEI,
    "houtei": Y_HOUTEI,
    "double_riichi": Y_DOUBLE_RIICHI,
    "tenhou": Y_TENHOU,
    "chiihou": Y_CHIIHOU,
}

# Tenhou's yaku names as tenhou.net/6 writes them (and a few variants) -> mjlog yaku id
YAKU_IDS = {
    "門前清自摸和": 0,
    "立直": 1,
    "一発": 2,
    "槍槓": 3,
    "嶺上開花": 4,
    "海底摸月": 5,
    "河底撈魚": 6,
    "平和": 7,
    "断幺九": 8,
    "一盃口": 9,
    "自風 東": 10,
    "自風 南": 11,
    "自風 西": 12,
    "自風 北": 13,
    "場風 東": 14,
    "場風 南": 15,
    "場風 西": 16,
    "場風 北": 17,
    "役牌 白": 18,
    "役牌 發": 19,
    "役牌 中": 20,
    "両立直": 21,
    "七対子": 22,
    "混全帯幺九": 23,
    "一気通貫": 24,
    "三色同順": 25,
    "三色同刻": 26,
    "三槓子": 27,
    "対々和": 28,
    "三暗刻": 29,
    "小三元": 30,
    "混老頭": 31,
    "二盃口": 32,
    "純全帯幺九": 33,
    "混一色": 34,
    "清一色": 35,
    "人和": 36,
    "天和": 37,
    "地和": 38,
    "大三元": 39,
    "四暗刻": 40,
    "四暗刻単騎": 41,
    "字一色": 42,
    "緑一色": 43,
    "清老頭": 44,
    "九蓮宝燈": 45,
    "純正九蓮宝燈": 46,
    "国士無双": 47,
    "国士無双１３面": 48,
    "国士無双13面": 48,
    "大四喜": 49,
    "小四喜": 50,
    "四槓子": 51,
    "ドラ": 52,
    "裏ドラ": 53,
    "赤ドラ": 54,
    # English names (tenhou.net/6 logs converted from Mahjong Soul use some)
    "Riichi": 1,
    "Dora": 52,
    "Ura Dora": 53,
    "Red Five": 54,
}
LIMIT_CODES = {"満貫": 1, "跳満": 2, "倍満": 3, "三倍満": 4, "役満": 5, "数え役満": 5}
_T6_SCORE = re.compile(r"^(?:(\d+)符)?(?:(\d+)飜)?(満貫|跳満|倍満|三倍満|数え役満|役満)?(\d+)(?:-(\d+))?点(∀)?$")
_T6_YAKU = re.compile(r"^(.+)\((\d+)飜\)$|^(.+)\(役満\)$")
_TENHOU_LOBBY = re.compile(r"^[般上特鳳]")


class SkipRecord(Exception):
    """A win that cannot be turned into a corpus record (the reason is the message)."""


def mpsz(tiles: list[Tile]) -> str:
    return format_tiles(sorted(tiles))


# ---------------------------------------------------------------------------------------------------------
# situational flags from the order of play (shared by both formats)


class PlayFlags:
    """Follows draws, discards, riichi and calls of one hand to derive the situational yaku of a win."""

    def __init__(self, dealer: int) -> None:
        self.dealer = dealer
        self.draws_total = 0
        self.any_call = False
        self.discards = [0, 0, 0, 0]
        self.draws = [0, 0, 0, 0]
        self.riichi = [False] * 4
        self.double = [False] * 4
        self.riichi_pending = [False] * 4
        self.ippatsu_live = [False] * 4
        self.ippatsu_before_kan = [False] * 4
        self.pending_rinshan = [False] * 4
        self.last_draw_rinshan = [False] * 4
        self.first_draw_clean = [False] * 4
        self.last_event: tuple[str, int] = ("start", -1)

    def draw(self, p: int) -> None:
        self.draws_total += 1
        self.draws[p] += 1
        self.last_draw_rinshan[p] = self.pending_rinshan[p]
        self.pending_rinshan[p] = False
        self.first_draw_clean[p] = self.draws[p] == 1 and not self.any_call
        self.last_event = ("draw", p)

    def declare_riichi(self, p: int) -> None:
        self.riichi[p] = True
        self.riichi_pending[p] = True
        self.double[p] = self.discards[p] == 0 and not self.any_call

    def discard(self, p: int) -> None:
        if self.riichi_pending[p]:
            self.riichi_pending[p] = False
            self.ippatsu_live[p] = True
        else:
            self.ippatsu_live[p] = False
        self.discards[p] += 1
        self.last_event = ("discard", p)

    def call(self, p: int, kind: MeldKind) -> None:
        self.any_call = True
        # a kan robbed by chankan never happened: the robber keeps ippatsu
        self.ippatsu_before_kan = list(self.ippatsu_live)
        self.ippatsu_live = [False] * 4
        if kind.is_kan:
            self.pending_rinshan[p] = True
        self.last_event = (kind.value, p)

    def flags(self, winner: int, tsumo: bool) -> dict[str, bool]:
        rinshan = tsumo and self.last_draw_rinshan[winner]
        chankan = not tsumo and self.last_event[0] in ("kakan", "ankan")
        first = tsumo and self.first_draw_clean[winner] and self.discards[winner] == 0
        return {
            "riichi": self.riichi[winner],
            "double_riichi": self.double[winner],
            "ippatsu": self.ippatsu_before_kan[winner] if chankan else self.ippatsu_live[winner],
            "haitei": tsumo and not rinshan and self.draws_total == LIVE_WALL_DRAWS,
            "houtei": not tsumo and not chankan and self.draws_total == LIVE_WALL_DRAWS,
            "rinshan": rinshan,
            "chankan": chankan,
            "tenhou": first and winner == self.dealer,
            "chiihou": first and winner != self.dealer,
        }


# ---------------------------------------------------------------------------------------------------------
# the record


@dataclass
class Win:
    """Everything known about one win, in both formats, before it becomes a JSON line."""

    source: str
    red_fives: bool
    open_tanyao: bool
    round_no: int
    honba: int
    dealer: int
    winner: int
    from_who: int
    pao: int | None
    closed: list[Tile]
    melds: list[Meld]
    win_tile: Tile
    dora: list[Tile]
    ura: list[Tile]
    yaku: list[tuple[int, int]]
    yakuman: int
    fu: int | None
    points: int
    limit: int | None
    deltas: list[int]
    deposits: int
    play_flags: dict[str, bool]
    hand_key: tuple[int, int]
    """(round number, honba counter) of the hand, to pair the twin records of one game."""
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def tsumo(self) -> bool:
        return self.winner == self.from_who

    def flags(self) -> dict[str, bool]:
        """The situational flags: from the yaku list for ordinary hands, from the play for yakuman.

        A yakuman's yaku list holds only yakuman (Tenhou drops riichi and the rest), so its flags come from
        the order of play (tenhou and chiihou are yakuman and listed). For every other hand the yaku list
        is authoritative and the play-derived flags must agree with it.
        """
        ids = {y for y, _ in self.yaku}
        if self.yakuman:
            out = dict(self.play_flags)
            out["tenhou"] = Y_TENHOU in ids
            out["chiihou"] = Y_CHIIHOU in ids
            return out
        out = {name: yid in ids for name, yid in FLAG_YAKU.items()}
        out["riichi"] = Y_RIICHI in ids or Y_DOUBLE_RIICHI in ids
        return out

    def to_json(self) -> dict[str, object]:
        flags = self.flags()
        han = None if self.yakuman else sum(h for _, h in self.yaku)
        return {
            "source": self.source,
            "hand": mpsz(self.closed),
            "melds": [str(m) for m in self.melds],
            "win": self.win_tile.mpsz,
            "tsumo": self.tsumo,
            "riichi": flags["riichi"],
            "double_riichi": flags["double_riichi"],
            "ippatsu": flags["ippatsu"],
            "haitei": flags["haitei"],
            "houtei": flags["houtei"],
            "rinshan": flags["rinshan"],
            "chankan": flags["chankan"],
            "tenhou": flags["tenhou"],
            "chiihou": flags["chiihou"],
            "seat_wind": WINDS[(self.winner - self.dealer) % 4],
            "round_wind": WINDS[self.round_no // 4],
            "dora": [t.mpsz for t in self.dora],
            "ura": [t.mpsz for t in self.ura],
            "honba": self.honba,
            "deposits": self.deposits,
            "winner": self.winner,
            "discarder": None if self.tsumo else self.from_who,
            "dealer": self.dealer,
            "pao": self.pao,
            "red_fives": self.red_fives,
            "open_tanyao": self.open_tanyao,
            "rules": "tenhou",
            "expected": {
                "han": han,
                "yakuman": self.yakuman,
                "fu": self.fu,
                "points": self.points,
                "limit": self.limit,
                "yaku": [list(y) for y in self.yaku if y[1] > 0],
                "deltas": self.deltas,
            },
        }

    def check(self) -> list[str]:
        """Internal consistency; returns the problems found (also those noted while reading)."""
        out = list(self.problems)
        try:
            hand = Hand(tuple(self.closed), tuple(self.melds))
        except JantakuError as e:
            return [*out, f"hand does not build: {e}"]
        if len(self.closed) + 3 * len(self.melds) != 14 or hand.tile_count != 14:
            out.append(f"closed + 3 per meld is {hand.tile_count}, not 14")
        if shanten(format_tiles(self.closed)) != -1:
            out.append(f"the closed tiles {mpsz(self.closed)} are not a complete hand")
        if self.win_tile not in self.closed:
            out.append(f"winning tile {self.win_tile} not in the closed hand {mpsz(self.closed)}")
        try:
            check_tile_supply([*hand.all_tiles(), *self.dora, *self.ura], "the hand and the indicators")
        except JantakuError as e:
            out.append(str(e))
        if not self.red_fives and any(t.red for t in hand.all_tiles()):
            out.append("a red five in a game without red fives")
        if len(self.deltas) != 4:
            out.append(f"deltas has {len(self.deltas)} seats")
        if sum(self.deltas) != 1000 * self.deposits:
            out.append(f"deltas sum to {sum(self.deltas)}, not 1000 x {self.deposits} deposits")
        gain = self.points + 300 * self.honba + 1000 * self.deposits
        if self.deltas[self.winner] != gain:
            out.append(f"winner gains {self.deltas[self.winner]}, expected points+honba+sticks = {gain}")
        if not self.tsumo and self.pao is None:
            payers = [s for s in range(4) if self.deltas[s] < 0]
            if payers != [self.from_who]:
                out.append(f"ron paid by seats {payers}, not the discarder {self.from_who}")
        if self.yakuman == 0 and self.limit != 5 and not self.yaku:
            out.append("no yaku")
        if not self.yakuman:
            play = {k: v for k, v in self.play_flags.items()}
            listed = self.flags()
            diff = sorted(k for k in listed if listed[k] != play[k])
            if diff:
                out.append(
                    "situational yaku differ from the play: "
                    + ", ".join(f"{k} yaku={listed[k]} play={play[k]}" for k in diff)
                )
        elif (
            self.flags()["tenhou"] != self.play_flags["tenhou"] or self.flags()["chiihou"] != self.play_flags["chiihou"]
        ):
            out.append("tenhou/chiihou yakuman differ from the play")
        return out


# ---------------------------------------------------------------------------------------------------------
# Tenhou mjlog XML


_DRAW_TAG = re.compile(r"^([TUVW])(\d+)$")
_DISCARD_TAG = re.compile(r"^([DEFG])(\d+)$")


def _ints(text: str | None) -> list[int]:
    if not text:
        return []
    return [int(x) for x in text.split(",")]


def read_mjlog(path: Path, rel: str) -> tuple[list[Win], list[str]]:
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    root = ET.fromstring(data)
    wins: list[Win] = []
    skipped: list[str] = []
    red_fives = open_tanyao = True
    kyoku = -1
    state: _MjlogHand | None = None
    agari_no = 0
    for el in root:
        tag = el.tag
        if tag == "GO":
            gtype = int(el.get("type", "0"))
            if gtype & 16:
                raise SkipRecord(f"3-player game (GO type {gtype})")
            red_fives = not gtype & 2
            open_tanyao = not gtype & 4
        elif tag == "INIT":
            kyoku += 1
            agari_no = 0
            state = _MjlogHand(el, red_fives)
        elif state is None:
            continue
        elif m := _DRAW_TAG.match(tag):
            state.draw("TUVW".index(m.group(1)), int(m.group(2)))
        elif m := _DISCARD_TAG.match(tag):
            state.discard("DEFG".index(m.group(1)), int(m.group(2)))
        elif tag == "N":
            state.call(int(el.get("who", "-1")), int(el.get("m", "-1")))
        elif tag == "REACH":
            state.reach(int(el.get("who", "-1")), int(el.get("step", "0")))
        elif tag == "DORA":
            state.dora.append(int(el.get("hai", "-1")))
        elif tag == "AGARI":
            loc = f"{rel}#kyoku{kyoku}/agari{agari_no}"
            agari_no += 1
            try:
                wins.append(state.agari(el, loc, open_tanyao))
            except (SkipRecord, JantakuError) as e:
                skipped.append(f"{loc}: {e}")
    return wins, skipped


class _MjlogHand:
    """Replays one mjlog hand with 136-ids, checking every step against the record."""

    def __init__(self, init: ET.Element, red_fives: bool) -> None:
        seed = _ints(init.get("seed"))
        self.round_no, self.honba, self.kyotaku = seed[0], seed[1], seed[2]
        self.dora = [seed[5]]
        self.oya = int(init.get("oya", "0"))
        self.red_fives = red_fives
        self.hands = [set(_ints(init.get(f"hai{p}"))) for p in range(4)]
        self.melds: list[list[tuple[int, MjlogMeld]]] = [[] for _ in range(4)]
        self.last_draw = [-1] * 4
        self.last_discard: tuple[int, int] = (-1, -1)
        self.last_kan: tuple[int, MjlogMeld] | None = None
        self.accepted_riichi = 0
        self.flags = PlayFlags(self.oya)
        self.errors: list[str] = []
        self.first_winner_done = False
        self.prev_winner_distance = 0
        for p, h in enumerate(self.hands):
            if len(h) != 13:
                self.errors.append(f"seat {p} dealt {len(h)} tiles")

    def draw(self, p: int, tile: int) -> None:
        if tile in self.hands[p]:
            self.errors.append(f"seat {p} draws {tile} twice")
        self.hands[p].add(tile)
        self.last_draw[p] = tile
        self.last_kan = None
        self.flags.draw(p)

    def discard(self, p: int, tile: int) -> None:
        if tile not in self.hands[p]:
            self.errors.append(f"seat {p} discards {tile}, not in hand")
        self.hands[p].discard(tile)
        self.last_discard = (p, tile)
        self.flags.discard(p)

    def reach(self, p: int, step: int) -> None:
        if step == 1:
            self.flags.declare_riichi(p)
        elif step == 2:
            self.accepted_riichi += 1

    def call(self, p: int, code: int) -> None:
        dm = decode_mjlog_meld(code, self.red_fives)
        kind = dm.meld.kind
        hand = self.hands[p]
        if kind in (MeldKind.CHI, MeldKind.PON, MeldKind.MINKAN):
            src_seat, src_tile = self.last_discard
            if dm.called_id != src_tile or (p + (dm.meld.source or 0)) % 4 != src_seat:
                self.errors.append(
                    f"call {code} by seat {p}: code says tile {dm.called_id} from seat "
                    f"{(p + (dm.meld.source or 0)) % 4}, last discard was {src_tile} by seat {src_seat}"
                )
            used = [i for i in dm.ids136 if i != dm.called_id]
        elif kind is MeldKind.KAKAN:
            pons = [
                i
                for i, (_, pm) in enumerate(self.melds[p])
                if pm.meld.kind is MeldKind.PON and set(pm.ids136) <= set(dm.ids136)
            ]
            if len(pons) != 1:
                self.errors.append(f"added kan {code} by seat {p} has no pon to add to")
            else:
                _, pon = self.melds[p][pons[0]]
                if pon.called_id != dm.called_id or pon.meld.source != dm.meld.source:
                    self.errors.append(f"added kan {code} disagrees with its pon {pon.meld} about the called tile")
                self.melds[p][pons[0]] = (code, dm)  # the kan takes the pon's place
            used = [dm.added_id] if dm.added_id is not None else []
        else:  # ankan
            used = list(dm.ids136)
        for i in used:
            if i not in hand:
                self.errors.append(f"call {code} ({dm.meld}) by seat {p} uses {i}, not in hand")
            hand.discard(i)
        if kind is not MeldKind.KAKAN:
            self.melds[p].append((code, dm))
        self.last_kan = (p, dm) if kind in (MeldKind.KAKAN, MeldKind.ANKAN) else None
        self.flags.call(p, kind)

    def agari(self, el: ET.Element, loc: str, open_tanyao: bool) -> Win:
        who = int(el.get("who", "-1"))
        from_who = int(el.get("fromWho", "-1"))
        tsumo = who == from_who
        problems = list(self.errors)
        machi = int(el.get("machi", "-1"))
        hai = _ints(el.get("hai"))
        replayed = set(self.hands[who])
        if tsumo:
            if machi != self.last_draw[who]:
                problems.append(f"tsumo tile {machi} is not the last draw {self.last_draw[who]}")
        elif self.last_kan is not None and self.last_kan[0] == from_who:
            added = self.last_kan[1].added_id
            if added is not None and machi != added:
                problems.append(f"chankan tile {machi} is not the added tile {added}")
            replayed.add(machi)
        else:
            if self.last_discard != (from_who, machi):
                problems.append(f"ron tile {machi} from {from_who} is not the last discard {self.last_discard}")
            replayed.add(machi)
        if sorted(replayed) != sorted(hai):
            problems.append(f"AGARI hai {sorted(hai)} differs from the replayed hand {sorted(replayed)}")
        m_codes = _ints(el.get("m"))
        if Counter(m_codes) != Counter(code for code, _ in self.melds[who]):
            problems.append(f"AGARI m {m_codes} differs from the replayed melds {[c for c, _ in self.melds[who]]}")
        dora_hai = _ints(el.get("doraHai"))
        if dora_hai != self.dora:
            problems.append(f"AGARI doraHai {dora_hai} differs from the revealed indicators {self.dora}")
        ura_hai = _ints(el.get("doraHaiUra"))
        ba = _ints(el.get("ba"))
        honba, sticks = ba[0], ba[1]
        if honba != self.honba:
            problems.append(f"AGARI honba {honba} differs from INIT {self.honba}")
        table = self.kyotaku + self.accepted_riichi
        # a double ron: the first winner in turn order (written first) takes the sticks and the honba
        deposits = 0 if self.first_winner_done else table
        honba_paid = 0 if self.first_winner_done else honba
        if sticks != (table if not self.first_winner_done else 0):
            problems.append(f"AGARI sticks {sticks} differ from INIT kyotaku + riichi = {table}")
        distance = (who - from_who) % 4
        if self.first_winner_done and distance <= self.prev_winner_distance:
            problems.append("the winners of a double ron are not written in turn order from the discarder")
        self.prev_winner_distance = distance
        self.first_winner_done = True
        ten = _ints(el.get("ten"))
        fu, points, limit = ten[0], ten[1], ten[2]
        yaku_raw = _ints(el.get("yaku"))
        yakuman_raw = _ints(el.get("yakuman"))
        yaku = [(yaku_raw[i], yaku_raw[i + 1]) for i in range(0, len(yaku_raw), 2)]
        yaku += [(y, 13) for y in yakuman_raw]
        sc = _ints(el.get("sc"))
        deltas = [100 * sc[2 * s + 1] for s in range(4)]
        pao = el.get("paoWho")
        rf = self.red_fives
        return Win(
            source=loc,
            red_fives=rf,
            open_tanyao=open_tanyao,
            round_no=self.round_no,
            honba=honba_paid,
            dealer=self.oya,
            winner=who,
            from_who=from_who,
            pao=int(pao) if pao is not None else None,
            closed=[Tile.from_id136(i, rf) for i in hai],
            melds=[dm.meld for _, dm in self.melds[who]],
            win_tile=Tile.from_id136(machi, rf),
            dora=[Tile.from_id136(i, rf) for i in dora_hai],
            ura=[Tile.from_id136(i, rf) for i in ura_hai],
            yaku=yaku,
            yakuman=len(yakuman_raw),
            fu=fu,
            points=points,
            limit=limit or None,
            deltas=deltas,
            deposits=deposits,
            play_flags=self.flags.flags(who, tsumo),
            hand_key=(self.round_no, self.honba),
            problems=problems,
        )


# ---------------------------------------------------------------------------------------------------------
# tenhou.net/6 JSON


def read_tenhou6(path: Path, rel: str) -> tuple[list[Win], list[str]]:
    text = path.read_text(encoding="utf-8")
    try:
        games = [json.loads(text)]
        multi = False
    except json.JSONDecodeError:  # one JSON object per line
        games = [json.loads(ln) for ln in text.splitlines() if ln.strip()]
        multi = True
    wins: list[Win] = []
    skipped: list[str] = []
    for line_no, game in enumerate(games):
        rule = game.get("rule", {})
        red_fives = bool(rule.get("aka", 0) or rule.get("aka51", 0) or rule.get("aka52", 0) or rule.get("aka53", 0))
        disp = rule.get("disp", "")
        open_tanyao = "喰" in disp if _TENHOU_LOBBY.match(disp) else True
        for k, kyoku in enumerate(game["log"]):
            prefix = f"{rel}#line{line_no}/kyoku{k}" if multi else f"{rel}#kyoku{k}"
            result = kyoku[16]
            if result[0] != "和了":
                continue
            first = result[2]
            try:
                replay = _T6Hand(kyoku, red_fives, first[0], first[1])
            except (SkipRecord, JantakuError) as e:
                n = (len(result) - 1) // 2
                skipped.extend(f"{prefix}/agari{a}: cannot replay the hand: {e}" for a in range(n))
                continue
            winners = [result[i + 1][0] for i in range(1, len(result) - 1, 2)]
            for a, i in enumerate(range(1, len(result) - 1, 2)):
                loc = f"{prefix}/agari{a}"
                try:
                    wins.append(replay.win(result[i], result[i + 1], winners, loc, open_tanyao, red_fives))
                except (SkipRecord, JantakuError) as e:
                    skipped.append(f"{loc}: {e}")
    return wins, skipped


class _T6Hand:
    """Replays one tenhou.net/6 hand in turn order, consuming every draw, discard and call string.

    The format does not say when a call string in a draw list happens: the replay lets the seat named by
    the call take the first matching discard, and backtracks (calling a later matching discard instead)
    when that leads to a dead end: a seat that should draw finds a call, a tile not in hand, entries left
    over, or an end that is not the recorded win.
    """

    MAX_REPLAYS = 4096

    def __init__(self, kyoku: list, red_fives: bool, who: int, from_who: int) -> None:
        self.round_no, self.honba, self.kyotaku = kyoku[0]
        self.dealer = self.round_no % 4
        self.dora = [Tile.from_tenhou6(c) for c in kyoku[2]]
        self.ura_all = [Tile.from_tenhou6(c) for c in kyoku[3]]
        self.red_fives = red_fives
        self.haipai = [kyoku[4 + 3 * p] for p in range(4)]
        self.draw_lists = [kyoku[5 + 3 * p] for p in range(4)]
        self.discard_lists = [kyoku[6 + 3 * p] for p in range(4)]
        self.deferred_calls = 0
        self._solve(who, from_who)

    def _reset(self) -> None:
        self.hands = [[Tile.from_tenhou6(c) for c in self.haipai[p]] for p in range(4)]
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.flags = PlayFlags(self.dealer)
        self.riichi_discards = 0
        self.last_action: tuple[str, int, Tile] | None = None  # ("discard"|"kakan"|"ankan", seat, tile)
        self.last_draw: list[Tile | None] = [None] * 4
        self.last_discard_riichi = False
        self.last_seat = -1
        self._opportunities = 0

    def _solve(self, who: int, from_who: int) -> None:
        choices: list[bool] = []  # for each call opportunity met so far: take it (True) or let it pass
        first_error: SkipRecord | None = None
        for _ in range(self.MAX_REPLAYS):
            self._reset()
            try:
                self._play(choices)
                self._check_end(who, from_who)
                self.deferred_calls = choices.count(False)
                return
            except SkipRecord as e:
                first_error = first_error or e
            while choices and not choices[-1]:
                choices.pop()
            if not choices:
                assert first_error is not None
                raise first_error
            choices[-1] = False
        raise SkipRecord(f"no consistent replay found in {self.MAX_REPLAYS} tries")

    def _check_end(self, who: int, from_who: int) -> None:
        if who == from_who:
            if self.last_action is not None or self.last_seat != who:
                raise SkipRecord(f"seat {who} won by tsumo, but the replay ends with {self.last_action}")
        elif self.last_action is None or self.last_action[1] != from_who:
            raise SkipRecord(f"seat {who} won by ron from seat {from_who}, but the replay ends with {self.last_action}")

    def _remove(self, p: int, tile: Tile, what: str) -> None:
        try:
            self.hands[p].remove(tile)
        except ValueError:
            raise SkipRecord(f"seat {p} {what} {tile}, not in hand {mpsz(self.hands[p])}") from None

    def _play(self, choices: list[bool]) -> None:
        di = [0, 0, 0, 0]
        ci = [0, 0, 0, 0]
        draws, discards = self.draw_lists, self.discard_lists
        p = self.dealer
        need_draw = True
        while True:
            if need_draw:
                if di[p] >= len(draws[p]):
                    break  # the hand ended on the previous discard (ron) or kan (chankan)
                d = draws[p][di[p]]
                if not isinstance(d, int):
                    raise SkipRecord(f"seat {p} should draw but its next draw entry is the call {d!r}")
                di[p] += 1
                tile = Tile.from_tenhou6(d)
                self.hands[p].append(tile)
                self.last_draw[p] = tile
                self.last_action = None
                self.flags.draw(p)
            if ci[p] >= len(discards[p]):
                break  # tsumo (the hand ended after this draw)
            x = discards[p][ci[p]]
            ci[p] += 1
            if isinstance(x, str) and ("k" in x or "a" in x):
                self._closed_call(p, x)
                need_draw = True
                continue
            riichi = isinstance(x, str) and x.startswith("r")
            code = int(x[1:]) if isinstance(x, str) and riichi else x
            if not isinstance(code, int) or code == 0:
                raise SkipRecord(f"seat {p}: unexpected discard entry {x!r}")
            if riichi:
                self.flags.declare_riichi(p)
                self.riichi_discards += 1
            tile = self.last_draw[p] if code == 60 else Tile.from_tenhou6(code)
            if tile is None:
                raise SkipRecord(f"seat {p} discards its drawn tile (60) without having drawn")
            self._remove(p, tile, "discards")
            self.flags.discard(p)
            self.last_action = ("discard", p, tile)
            self.last_discard_riichi = riichi
            self.last_draw[p] = None
            caller = None
            for q, meld in self._find_calls(p, tile, di):
                k = self._opportunities
                self._opportunities += 1
                if k == len(choices):
                    choices.append(True)
                if choices[k]:
                    caller = (q, meld)
                    break
            if caller is None:
                p = (p + 1) % 4
                need_draw = True
                continue
            q, meld = caller
            di[q] += 1
            rest = list(meld.tiles)
            rest.remove(tile)
            for t in rest:
                self._remove(q, t, f"calls {meld} with")
            self.melds[q].append(meld)
            self.flags.call(q, meld.kind)
            self.last_action = None
            p = q
            if meld.kind is MeldKind.MINKAN:
                if ci[q] >= len(discards[q]) or discards[q][ci[q]] != 0:
                    raise SkipRecord(f"seat {q}: open kan {meld} not followed by the 0 discard entry")
                ci[q] += 1
                need_draw = True
            else:
                need_draw = False
        left = [(s, len(draws[s]) - di[s], len(discards[s]) - ci[s]) for s in range(4)]
        left = [x for x in left if x[1] or x[2]]
        if left:
            raise SkipRecord(f"replay ended with entries left over (seat, draws, discards): {left}")
        self.last_seat = p

    def _closed_call(self, p: int, text: str) -> None:
        """An added kan or closed kan written in seat ``p``'s discard list."""
        meld = Meld.from_tenhou6(text)
        if meld.kind is MeldKind.KAKAN:
            assert meld.added is not None
            self._remove(p, meld.added, "adds")
            pons = [i for i, pm in enumerate(self.melds[p]) if pm.kind is MeldKind.PON and pm.kind34 == meld.kind34]
            if len(pons) != 1:
                raise SkipRecord(f"added kan {text!r} by seat {p} has no pon to add to")
            pon = self.melds[p][pons[0]]
            if pon.called != meld.called or pon.source != meld.source:
                raise SkipRecord(f"added kan {text!r} disagrees with the pon {pon}")
            self.melds[p][pons[0]] = meld
            self.last_action = ("kakan", p, meld.added)
        else:
            for t in meld.tiles:
                self._remove(p, t, "makes a closed kan with")
            self.melds[p].append(meld)
            self.last_action = ("ankan", p, meld.tiles[0])
        self.flags.call(p, meld.kind)

    def _find_calls(self, p: int, tile: Tile, di: list[int]) -> list[tuple[int, Meld]]:
        """Who may call the discard ``tile`` of seat ``p`` now: pons and open kans first, then a chi."""
        found: list[tuple[int, int, Meld]] = []
        for step in (1, 2, 3):
            q = (p + step) % 4
            if di[q] >= len(self.draw_lists[q]):
                continue
            nxt = self.draw_lists[q][di[q]]
            if not isinstance(nxt, str):
                continue
            meld = Meld.from_tenhou6(nxt)
            if meld.called is not tile or (q + (meld.source or 0)) % 4 != p:
                continue
            found.append((0 if meld.kind is not MeldKind.CHI else 1, step, meld))
        found.sort(key=lambda f: (f[0], f[1]))
        return [((p + step) % 4, meld) for _, step, meld in found]

    def win(
        self, deltas: list[int], info: list, winners: list[int], loc: str, open_tanyao: bool, red_fives: bool
    ) -> Win:
        if len(info) < 4:
            raise SkipRecord(f"the result {info!r} has no score text or yaku (only who/from/pao)")
        who, from_who, pao = info[0], info[1], info[2]
        tsumo = who == from_who
        problems: list[str] = []
        closed = list(self.hands[who])
        if tsumo:
            if self.last_action is not None or self.last_seat != who:
                problems.append("tsumo but the replay did not end on the winner's draw")
            win_tile = self.last_draw[who]
            if win_tile is None:
                raise SkipRecord("tsumo without a last draw")
        else:
            if self.last_action is None or self.last_action[1] != from_who:
                raise SkipRecord(f"ron from seat {from_who}, but the replay ended with {self.last_action}")
            win_tile = self.last_action[2]
            closed.append(win_tile)
        m = _T6_SCORE.match(info[3])
        if not m:
            raise SkipRecord(f"unreadable score text {info[3]!r}")
        fu_s, han_s, limit_s, a_s, b_s, all_s = m.groups()
        a = int(a_s)
        if tsumo:
            points = 3 * a if all_s else (2 * a + int(b_s) if b_s else a)
            if not all_s and not b_s:
                problems.append(f"tsumo score text {info[3]!r} has neither a-b nor ∀")
        else:
            points = a
            if b_s or all_s:
                problems.append(f"ron score text {info[3]!r} looks like a tsumo")
        yaku: list[tuple[int, int]] = []
        yakuman = 0
        for text in info[4:]:
            ym = _T6_YAKU.match(text)
            if not ym:
                raise SkipRecord(f"unreadable yaku {text!r}")
            name = ym.group(1) or ym.group(3)
            if name not in YAKU_IDS:
                raise SkipRecord(f"unknown yaku name {name!r}")
            if ym.group(3):
                yaku.append((YAKU_IDS[name], 13))
                yakuman += 1
            else:
                yaku.append((YAKU_IDS[name], int(ym.group(2))))
        han_sum = sum(h for _, h in yaku)
        if han_s is not None and not yakuman and int(han_s) != han_sum:
            problems.append(f"score text says {han_s} han, the yaku add up to {han_sum}")
        # a riichi declared with the discard that is ronned is not accepted: no stick
        table = self.kyotaku + self.riichi_discards - (1 if not tsumo and self.last_discard_riichi else 0)
        # a double ron: the sticks go to the first winner in turn order from the discarder
        first = min(winners, key=lambda s: (s - from_who) % 4)
        deposits = table if who == first else 0
        honba = self.honba if who == first else 0
        riichi = self.flags.riichi[who]
        ura = list(self.ura_all) if riichi else []
        return Win(
            source=loc,
            red_fives=red_fives,
            open_tanyao=open_tanyao,
            round_no=self.round_no,
            honba=honba,
            dealer=self.dealer,
            winner=who,
            from_who=from_who,
            pao=pao if pao != who else None,
            closed=closed,
            melds=list(self.melds[who]),
            win_tile=win_tile,
            dora=list(self.dora),
            ura=ura,
            yaku=yaku,
            yakuman=yakuman,
            fu=int(fu_s) if fu_s else None,
            points=points,
            limit=LIMIT_CODES[limit_s] if limit_s else None,
            deltas=list(deltas),
            deposits=deposits,
            play_flags=self.flags.flags(who, tsumo),
            hand_key=(self.round_no, self.honba),
            problems=problems,
            notes=[f"replayed with {self.deferred_calls} call(s) let pass at a first matching discard"]
            if self.deferred_calls
            else [],
        )


# ---------------------------------------------------------------------------------------------------------
# twins: the tenhou.net/6 copies of the mjx-houou games must say the same as the mjlog originals

_COMPARED = (
    "hand",
    "melds",
    "win",
    "tsumo",
    "riichi",
    "double_riichi",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "tenhou",
    "chiihou",
    "seat_wind",
    "round_wind",
    "dora",
    "ura",
    "honba",
    "deposits",
    "discarder",
    "dealer",
    "pao",
    "red_fives",
    "open_tanyao",
)


def compare_twins(wins: list[tuple[Win, dict]]) -> tuple[int, list[str]]:
    def key(w: Win) -> tuple:
        return (Path(w.source.split("#")[0]).stem, w.hand_key, w.winner)

    originals = {key(w): rec for w, rec in wins if w.source.startswith("tenhou-mjlog/mjx-houou/")}
    problems: list[str] = []
    matched = 0
    for w, rec in wins:
        if not w.source.startswith("tenhou6-json/mjx-twins/"):
            continue
        orig = originals.get(key(w))
        if orig is None:
            problems.append(f"{rec['source']}: no mjlog original found")
            continue
        matched += 1
        diffs = [f for f in _COMPARED if rec[f] != orig[f]]
        e1, e2 = rec["expected"], orig["expected"]
        diffs += [f"expected.{f}" for f in ("han", "yakuman", "points", "limit", "yaku", "deltas") if e1[f] != e2[f]]
        if e1["fu"] is not None and e1["fu"] != e2["fu"]:  # tenhou.net/6 gives no fu for mangan and up
            diffs.append("expected.fu")
        if diffs:
            problems.append(f"{rec['source']} vs {orig['source']}: differ in {', '.join(diffs)}")
    return matched, problems


# ---------------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--realdata", type=Path, default=DEFAULT_REALDATA, help="the realdata folder")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the JSON lines file to write")
    args = ap.parse_args(argv)
    base: Path = args.realdata

    files = sorted(
        [*base.glob("tenhou-mjlog/*/*.mjlog"), *base.glob("tenhou-mjlog/*/*.xml"), *base.glob("tenhou6-json/*/*.json")],
        key=lambda f: f.relative_to(base).as_posix(),
    )
    kept: list[tuple[Win, dict]] = []
    left_out: list[str] = []
    notes: list[str] = []
    found: Counter[str] = Counter()
    written: Counter[str] = Counter()
    files_per_folder: Counter[str] = Counter()
    for f in files:
        rel = f.relative_to(base).as_posix()
        folder = rel.rsplit("/", 1)[0]
        files_per_folder[folder] += 1
        try:
            wins, skipped = read_mjlog(f, rel) if rel.startswith("tenhou-mjlog/") else read_tenhou6(f, rel)
        except (SkipRecord, JantakuError, ET.ParseError, json.JSONDecodeError) as e:
            left_out.append(f"{rel}: whole file: {e}")
            continue
        found[folder] += len(wins) + len(skipped)
        left_out.extend(skipped)
        for w in wins:
            problems = w.check()
            notes.extend(f"{w.source}: {n}" for n in w.notes)
            if problems:
                left_out.append(f"{w.source}: failed checks: " + "; ".join(problems))
                continue
            kept.append((w, w.to_json()))
            written[folder] += 1

    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8", newline="\n") as fh:
        for _, rec in kept:
            fh.write(json.dumps(rec, ensure_ascii=False, separators=(", ", ": ")) + "\n")

    matched, twin_problems = compare_twins(kept)

    print(f"wrote {len(kept)} wins to {args.out}")
    for folder in sorted(files_per_folder):
        print(
            f"  {folder:28s} {files_per_folder[folder]:3d} files {found[folder]:5d} wins found "
            f"{written[folder]:5d} written"
        )
    print(
        f"  {'total':28s} {sum(files_per_folder.values()):3d} files {sum(found.values()):5d} wins found "
        f"{len(kept):5d} written"
    )
    kinds: Counter[str] = Counter()
    for _, rec in kept:
        e = rec["expected"]
        kinds["ron" if rec["discarder"] is not None else "tsumo"] += 1
        kinds["yakuman" if e["yakuman"] else "mangan and up" if e["limit"] else "below mangan"] += 1
        kinds["open"] += any(not m.endswith("*") for m in rec["melds"])
        for flag in (
            "riichi",
            "double_riichi",
            "ippatsu",
            "haitei",
            "houtei",
            "rinshan",
            "chankan",
            "tenhou",
            "chiihou",
        ):
            kinds[flag] += rec[flag]
        kinds["pao"] += rec["pao"] is not None
        kinds["no red fives"] += not rec["red_fives"]
        kinds["fu unknown"] += e["fu"] is None
    print("  of which: " + ", ".join(f"{k} {v}" for k, v in kinds.items()))
    print(f"twins: {matched} mjx-twins wins compared with their mjlog originals, {len(twin_problems)} differ")
    for p in twin_problems:
        print(f"  TWIN {p}")
    print(f"notes: {len(notes)}")
    for n in notes:
        print(f"  {n}")
    print(f"could not reconstruct (left out): {len(left_out)}")
    for p in left_out:
        print(f"  {p}")
    return 1 if twin_problems else 0


if __name__ == "__main__":
    sys.exit(main())
