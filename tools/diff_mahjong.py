"""Differential check of jantaku's riichi scoring (``tenhou`` preset) against the PyPI package ``mahjong``.

Random WINNING hands are built constructively, seeded, and scored by both libraries; every disagreement in
han, fu, points or the per-seat split is listed with the hand and both results, and grouped by cause.

Run it from the repository root, in the benchmark's own environment (``mahjong`` is not a project
dependency; see ``benchmarks/README.md``)::

    .venv-bench/bin/python tools/diff_mahjong.py                         # 100000 hands, seed 0
    .venv-bench/bin/python tools/diff_mahjong.py --hands 20000 --seed 7 --json diff.json
    .venv-bench/bin/python tools/diff_mahjong.py --family chanta --show 0  # one yaku family only

How the hands are made (:func:`make_deal`): winds are drawn first, then a yaku family (``random`` for a fully
random complete hand, or one of pinfu, tanyao, iipeikou, ryanpeikou, chiitoitsu, ittsu, sanshoku, doukou,
toitoi, sanankou, sankantsu, chanta, junchan, honroutou, honitsu, chinitsu, yakuhai, shousangen and the
yakuman kinds), which fixes some blocks and draws the rest from the pools the family allows. Blocks of a
hand that may be open are called (chi; pon, open kan or added kan) at random, pungs become closed kans at
random, the winning tile is one of the closed tiles, and every tile gets a physical 136-id (red fives are
ids 16, 52 and 88). Then the circumstances, only where they can happen together: riichi (sometimes double)
on closed hands, ippatsu after riichi (never with rinshan: the winner's own kan ends the ippatsu turn),
tsumo or ron, haitei (tsumo, not rinshan), houtei (ron), rinshan (tsumo with a kan), chankan (ron on a
tile of which the winner holds no other copy: the robbed kan holds the other three), tenhou and chiihou
(a closed hand without melds), dora indicators (one plus one per kan, with a few kans by other players) and
as many ura indicators after riichi, drawn from the tiles not in the hand; honba, riichi sticks, seats.

How it is scored: jantaku ``score_hand(Hand, WinConditions, "tenhou")``; mahjong
``HandCalculator.estimate_hand_value`` with the tiles of the whole hand (melds included), the melds,
indicators and a ``HandConfig`` whose ``OptionalRules`` mirror Tenhou (:data:`MAHJONG_OPTIONS`): open
tanyao on, red fives on, no double yakuman (13-sided kokushi, suuankou tanki, junsei chuuren and daisuushii
are single yakuman on Tenhou), kazoe yakuman at 13 han, no kiriage, 30 fu for an open pinfu-shaped ron, no
tsumo fu for pinfu, renhou off and no local yakuman. mahjong gives 4 fu for a pair of the seat wind that is
also the round wind (``DOUBLE_VALUED_PAIR``, because the wind appears twice in its valued-tile list), which
is Tenhou's 4 fu, so nothing needs adjusting there.

What is compared: han, fu, points (the winner's gain before honba and riichi sticks) and every seat's
payment, plus the yaku lists (mapped to jantaku's names) to explain a difference. A hand that one side
rejects and the other scores is a disagreement; a hand both reject (no yaku) is counted apart. Skipped,
because mahjong cannot express them: pao (mahjong has no liability payments; no hand here has a liable
player), and for yakuman hands the han and fu (jantaku reports han 0 and fu 0, mahjong 13 han per yakuman
and the fu of the reading), where the yakuman themselves and the payments are compared instead.

The same deals feed ``benchmarks/bench_scoring.py`` (it loads this file with importlib).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

# ------------------------------------------------------------------------------------------------ tile sets

ALL_KINDS = tuple(range(34))
SUITED = tuple(range(27))
HONORS = tuple(range(27, 34))
WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
TERMINALS = (0, 8, 9, 17, 18, 26)
YAOCHU = (*TERMINALS, *HONORS)
SIMPLES = tuple(k for k in SUITED if 1 <= k % 9 <= 7)
RUN_STARTS = tuple(s * 9 + n for s in range(3) for n in range(7))
SIMPLE_RUNS = tuple(k for k in RUN_STARTS if 1 <= k % 9 <= 5)
TERMINAL_RUNS = tuple(k for k in RUN_STARTS if k % 9 in (0, 6))
GREEN = (19, 20, 21, 23, 25, 32)
RED_IDS = (16, 52, 88)
RED_KINDS = (4, 13, 22)

FAMILY_WEIGHTS: tuple[tuple[str, float], ...] = (
    ("random", 30.0),
    ("pinfu", 5.0),
    ("tanyao", 5.0),
    ("iipeikou", 3.0),
    ("ryanpeikou", 2.0),
    ("chiitoitsu", 4.0),
    ("ittsu", 3.0),
    ("sanshoku", 3.0),
    ("doukou", 2.0),
    ("toitoi", 3.0),
    ("sanankou", 3.0),
    ("sankantsu", 2.0),
    ("chanta", 3.0),
    ("junchan", 3.0),
    ("honroutou", 2.0),
    ("honitsu", 4.0),
    ("chinitsu", 4.0),
    ("yakuhai", 5.0),
    ("shousangen", 2.0),
    ("daisangen", 1.0),
    ("suuankou", 1.0),
    ("kokushi", 1.0),
    ("tsuuiisou", 0.7),
    ("ryuuiisou", 0.7),
    ("chinroutou", 0.5),
    ("shousuushii", 0.7),
    ("daisuushii", 0.5),
    ("chuuren", 0.7),
    ("suukantsu", 0.5),
    ("tenhou_chiihou", 0.5),
)
"""The target yaku families and how often each is drawn (``random``: a fully random complete hand)."""

FAMILIES = tuple(name for name, _ in FAMILY_WEIGHTS)


# ----------------------------------------------------------------------------------------------- the deals


@dataclass(frozen=True)
class MeldSpec:
    """A declared meld by physical tiles: ``kind`` is chi, pon, minkan, kakan or ankan."""

    kind: str
    ids: tuple[int, ...]
    called: int | None = None
    source: int | None = None
    added: int | None = None


@dataclass
class Deal:
    """One winning hand and its circumstances, in library-neutral form (136-ids: kind * 4 + copy)."""

    family: str
    closed: list[int]
    """Closed tiles, the winning tile included."""
    melds: list[MeldSpec]
    win: int
    tsumo: bool = False
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    seat_wind: int = 0
    round_wind: int = 0
    dora: list[int] = field(default_factory=list)
    ura: list[int] = field(default_factory=list)
    honba: int = 0
    deposits: int = 0
    winner: int = 0
    discarder: int | None = None

    def all_ids(self) -> list[int]:
        return [*self.closed, *(i for m in self.melds for i in m.ids)]

    def flags(self) -> list[str]:
        names = ("tsumo", "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan")
        out = [n for n in (*names, "tenhou", "chiihou") if getattr(self, n)]
        if not self.tsumo:
            out.insert(0, "ron")
        return out


class _Retry(Exception):
    """The drawn blocks do not fit (a fifth copy, a kan that cannot be made): draw again."""


@dataclass
class Shape:
    """A complete hand by kinds, before calls, kans and physical tiles are decided."""

    form: str = "regular"
    """regular (four blocks and a pair), or counts (seven pairs, thirteen orphans, nine gates)."""
    blocks: list[tuple[str, int]] = field(default_factory=list)
    """("run", first kind) or ("pung", kind)."""
    pair: int = -1
    counts: list[int] | None = None
    """The 34 counts of a non-regular form (all closed)."""
    closed_only: bool = False
    keep_closed: frozenset[int] = frozenset()
    """Indices of blocks that must stay concealed (they may become closed kans)."""
    force_kan: frozenset[int] = frozenset()
    open_rate: float = 0.45
    win_hint: str = ""


def _fits(blocks: Sequence[tuple[str, int]], pair: int) -> bool:
    c = [0] * 34
    for shape, k in blocks:
        if shape == "run":
            c[k] += 1
            c[k + 1] += 1
            c[k + 2] += 1
        else:
            c[k] += 3
    if pair >= 0:
        c[pair] += 2
    return max(c) <= 4


def _draw_blocks(
    rng: Random,
    fixed: Sequence[tuple[str, int]],
    runs: Sequence[int],
    pungs: Sequence[int],
    run_rate: float,
    pairs: Sequence[int],
    pair: int | None = None,
) -> tuple[list[tuple[str, int]], int]:
    """``fixed`` blocks plus random ones up to four, and a pair; retried until no kind has a fifth copy."""
    for _ in range(200):
        blocks = list(fixed)
        while len(blocks) < 4:
            if runs and (not pungs or rng.random() < run_rate):
                blocks.append(("run", rng.choice(runs)))
            else:
                blocks.append(("pung", rng.choice(pungs)))
        p = pair if pair is not None else rng.choice(pairs)
        if _fits(blocks, p):
            return blocks, p
    raise _Retry


def _suit_kinds(s: int) -> tuple[int, ...]:
    return tuple(range(s * 9, s * 9 + 9))


def _suit_runs(s: int) -> tuple[int, ...]:
    return tuple(range(s * 9, s * 9 + 7))


def _seven_pairs(rng: Random, pool: Sequence[int]) -> Shape:
    counts = [0] * 34
    for k in rng.sample(list(pool), 7):
        counts[k] = 2
    return Shape(form="counts", counts=counts, closed_only=True)


def _shape_for(family: str, rng: Random, seat: int, rnd: int) -> Shape:
    """The blocks of a hand aimed at ``family`` (see the module docs)."""
    yakuhai = (*DRAGONS, 27 + seat, 27 + rnd)
    if family == "tenhou_chiihou":
        # a first-draw win: any closed shape, so that tenhou/chiihou also stacks with hand yakuman
        base = rng.choice(("random", "random", "random", "chiitoitsu", "kokushi", "chuuren", "suuankou", "tsuuiisou"))
        shape = _shape_for(base, rng, seat, rnd)
        shape.closed_only = True
        return shape
    if family == "random":
        b, p = _draw_blocks(rng, [], RUN_STARTS, ALL_KINDS, 0.55, ALL_KINDS)
        return Shape(blocks=b, pair=p)
    if family == "pinfu":
        b, p = _draw_blocks(rng, [], RUN_STARTS, (), 1.0, [k for k in ALL_KINDS if k not in yakuhai])
        return Shape(blocks=b, pair=p, closed_only=True, win_hint="ryanmen")
    if family == "tanyao":
        b, p = _draw_blocks(rng, [], SIMPLE_RUNS, SIMPLES, 0.6, SIMPLES)
        return Shape(blocks=b, pair=p)
    if family == "iipeikou":
        r = rng.choice(RUN_STARTS)
        b, p = _draw_blocks(rng, [("run", r), ("run", r)], RUN_STARTS, ALL_KINDS, 0.6, ALL_KINDS)
        return Shape(blocks=b, pair=p, closed_only=True)
    if family == "ryanpeikou":
        a, c = rng.choice(RUN_STARTS), rng.choice(RUN_STARTS)
        b, p = _draw_blocks(rng, [("run", a), ("run", a), ("run", c), ("run", c)], (), (), 0, ALL_KINDS)
        return Shape(blocks=b, pair=p, closed_only=True)
    if family == "chiitoitsu":
        pools = (ALL_KINDS, ALL_KINDS, ALL_KINDS, SIMPLES, YAOCHU)
        s = rng.randrange(3)
        pools = (*pools, _suit_kinds(s), (*_suit_kinds(s), *HONORS))
        return _seven_pairs(rng, rng.choice(pools))
    if family == "ittsu":
        s = rng.randrange(3)
        fixed = [("run", s * 9), ("run", s * 9 + 3), ("run", s * 9 + 6)]
        b, p = _draw_blocks(rng, fixed, RUN_STARTS, ALL_KINDS, 0.5, ALL_KINDS)
        return Shape(blocks=b, pair=p)
    if family == "sanshoku":
        n = rng.randrange(7)
        b, p = _draw_blocks(rng, [("run", n), ("run", n + 9), ("run", n + 18)], RUN_STARTS, ALL_KINDS, 0.5, ALL_KINDS)
        return Shape(blocks=b, pair=p)
    if family == "doukou":
        n = rng.randrange(9)
        fixed = [("pung", n), ("pung", n + 9), ("pung", n + 18)]
        b, p = _draw_blocks(rng, fixed, RUN_STARTS, ALL_KINDS, 0.5, ALL_KINDS)
        return Shape(blocks=b, pair=p)
    if family == "toitoi":
        b, p = _draw_blocks(rng, [], (), ALL_KINDS, 0, ALL_KINDS)
        return Shape(blocks=b, pair=p, open_rate=0.7)
    if family == "sanankou":
        fixed = [("pung", k) for k in rng.sample(ALL_KINDS, 3)]
        b, p = _draw_blocks(rng, fixed, RUN_STARTS, ALL_KINDS, 0.6, ALL_KINDS)
        return Shape(blocks=b, pair=p, keep_closed=frozenset((0, 1, 2)), win_hint="not_kept")
    if family == "sankantsu":
        fixed = [("pung", k) for k in rng.sample(ALL_KINDS, 3)]
        b, p = _draw_blocks(rng, fixed, RUN_STARTS, ALL_KINDS, 0.5, ALL_KINDS)
        return Shape(blocks=b, pair=p, force_kan=frozenset((0, 1, 2)))
    if family == "chanta":
        b, p = _draw_blocks(rng, [("run", rng.choice(TERMINAL_RUNS))], TERMINAL_RUNS, YAOCHU, 0.5, YAOCHU)
        if not any(k >= 27 for s, k in b if s == "pung") and p < 27:
            raise _Retry
        return Shape(blocks=b, pair=p)
    if family == "junchan":
        b, p = _draw_blocks(rng, [("run", rng.choice(TERMINAL_RUNS))], TERMINAL_RUNS, TERMINALS, 0.6, TERMINALS)
        return Shape(blocks=b, pair=p)
    if family == "honroutou":
        if rng.random() < 0.15:
            return _seven_pairs(rng, YAOCHU)
        b, p = _draw_blocks(rng, [], (), YAOCHU, 0, YAOCHU)
        kinds = [k for _, k in b] + [p]
        if not any(k >= 27 for k in kinds) or all(k >= 27 for k in kinds):
            raise _Retry
        return Shape(blocks=b, pair=p)
    if family in ("honitsu", "chinitsu"):
        s = rng.randrange(3)
        kinds = _suit_kinds(s) if family == "chinitsu" else (*_suit_kinds(s), *HONORS)
        b, p = _draw_blocks(rng, [], _suit_runs(s), kinds, 0.6, kinds)
        if family == "honitsu" and p < 27 and not any(k >= 27 for sh, k in b if sh == "pung"):
            raise _Retry
        return Shape(blocks=b, pair=p)
    if family == "yakuhai":
        b, p = _draw_blocks(rng, [("pung", rng.choice(yakuhai))], RUN_STARTS, ALL_KINDS, 0.6, ALL_KINDS)
        return Shape(blocks=b, pair=p)
    if family == "shousangen":
        d = list(DRAGONS)
        rng.shuffle(d)
        b, p = _draw_blocks(rng, [("pung", d[0]), ("pung", d[1])], RUN_STARTS, ALL_KINDS, 0.6, (), pair=d[2])
        return Shape(blocks=b, pair=p)
    if family == "daisangen":
        b, p = _draw_blocks(rng, [("pung", d) for d in DRAGONS], RUN_STARTS, ALL_KINDS, 0.5, ALL_KINDS)
        return Shape(blocks=b, pair=p)
    if family == "suuankou":
        b, p = _draw_blocks(rng, [], (), ALL_KINDS, 0, ALL_KINDS)
        return Shape(blocks=b, pair=p, closed_only=True, win_hint="suuankou")
    if family == "kokushi":
        counts = [0] * 34
        for k in YAOCHU:
            counts[k] = 1
        counts[rng.choice(YAOCHU)] = 2
        return Shape(form="counts", counts=counts, closed_only=True)
    if family == "tsuuiisou":
        if rng.random() < 0.3:
            return _seven_pairs(rng, HONORS)
        b, p = _draw_blocks(rng, [], (), HONORS, 0, HONORS)
        return Shape(blocks=b, pair=p)
    if family == "ryuuiisou":
        b, p = _draw_blocks(rng, [], (19,), GREEN, 0.3, GREEN)
        return Shape(blocks=b, pair=p)
    if family == "chinroutou":
        b, p = _draw_blocks(rng, [], (), TERMINALS, 0, TERMINALS)
        return Shape(blocks=b, pair=p)
    if family in ("shousuushii", "daisuushii"):
        w = list(WINDS)
        rng.shuffle(w)
        if family == "daisuushii":
            b, p = _draw_blocks(rng, [("pung", k) for k in w], (), (), 0, ALL_KINDS)
        else:
            b, p = _draw_blocks(rng, [("pung", k) for k in w[:3]], RUN_STARTS, ALL_KINDS, 0.5, (), pair=w[3])
        return Shape(blocks=b, pair=p)
    if family == "chuuren":
        s = rng.randrange(3)
        counts = [0] * 34
        for i, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)):
            counts[s * 9 + i] = n
        counts[s * 9 + rng.randrange(9)] += 1
        return Shape(form="counts", counts=counts, closed_only=True)
    if family == "suukantsu":
        b, p = _draw_blocks(rng, [], (), ALL_KINDS, 0, ALL_KINDS)
        return Shape(blocks=b, pair=p, force_kan=frozenset(range(4)))
    raise ValueError(f"unknown family {family!r}")


class _Ids:
    """Hands out physical 136-ids kind by kind, red fives sometimes preferred."""

    def __init__(self, rng: Random, need: Sequence[int]) -> None:
        self.pool: dict[int, list[int]] = {}
        for k, n in enumerate(need):
            if not n:
                continue
            copies = [k * 4 + c for c in range(4)]
            rng.shuffle(copies)
            if k in RED_KINDS and rng.random() < 0.5:
                copies.remove(k * 4)
                copies.insert(0, k * 4)
            chosen = copies[:n]
            rng.shuffle(chosen)
            self.pool[k] = chosen

    def take(self, kind: int, n: int = 1) -> list[int]:
        out = self.pool[kind][:n]
        del self.pool[kind][:n]
        return out


def _realize_regular(rng: Random, shape: Shape, no_melds: bool) -> tuple[list[int], list[tuple[str, int]]]:
    """Closed kinds (with multiplicity) and melds (kind name, first kind) of a regular shape."""
    total = [0] * 34
    for s, k in shape.blocks:
        if s == "run":
            for d in range(3):
                total[k + d] += 1
        else:
            total[k] += 3
    total[shape.pair] += 2
    opened: set[int] = set()
    if not shape.closed_only and not no_melds and rng.random() < shape.open_rate:
        eligible = [i for i in range(4) if i not in shape.keep_closed]
        opened = {i for i in eligible if rng.random() < 0.5}
        if not opened and eligible:
            opened.add(rng.choice(eligible))
    closed: list[int] = [shape.pair, shape.pair]
    melds: list[tuple[str, int]] = []
    for i, (s, k) in enumerate(shape.blocks):
        if s == "run":
            if i in opened:
                melds.append(("chi", k))
            else:
                closed.extend((k, k + 1, k + 2))
            continue
        can_kan = total[k] == 3 and not no_melds
        kan = i in shape.force_kan or (can_kan and rng.random() < 0.12)
        if kan and not can_kan:
            raise _Retry
        if i in opened:
            melds.append((rng.choice(("minkan", "kakan")) if kan else "pon", k))
        elif kan:
            melds.append(("ankan", k))
        else:
            closed.extend((k, k, k))
    return closed, melds


def _pick_win(rng: Random, shape: Shape, closed_kinds: list[int], tsumo: bool) -> int:
    """The winning tile's kind, among the closed tiles, steered by the family's hint."""
    if shape.win_hint == "ryanmen":
        options = []
        for s, k in shape.blocks:
            if s == "run":
                if k % 9 != 6:
                    options.append(k)
                if k % 9 != 0:
                    options.append(k + 2)
        if options:
            return rng.choice(options)
    if shape.win_hint == "not_kept" and not tsumo:
        kept = {shape.blocks[i][1] for i in shape.keep_closed}
        options = [k for k in closed_kinds if k not in kept]
        if options:
            return rng.choice(options)
    if shape.win_hint == "suuankou" and not tsumo:
        return shape.pair
    return rng.choice(closed_kinds)


def make_deal(rng: Random, family: str | None = None) -> Deal:
    """One random winning hand with legal circumstances (see the module docs)."""
    while True:
        try:
            return _make_deal(rng, family)
        except _Retry:
            continue


def _make_deal(rng: Random, family: str | None) -> Deal:
    if family is None:
        family = rng.choices(FAMILIES, weights=[w for _, w in FAMILY_WEIGHTS])[0]
    seat = rng.randrange(4)
    rnd = rng.choice((0, 0, 0, 1, 1, 1, 2))
    shape = _shape_for(family, rng, seat, rnd)
    first_turn = family == "tenhou_chiihou"
    if shape.form == "counts":
        assert shape.counts is not None
        closed_kinds = [k for k, n in enumerate(shape.counts) for _ in range(n)]
        meld_kinds: list[tuple[str, int]] = []
    else:
        closed_kinds, meld_kinds = _realize_regular(rng, shape, first_turn)
    is_closed = all(m == "ankan" for m, _ in meld_kinds)
    kans = sum(1 for m, _ in meld_kinds if m in ("minkan", "kakan", "ankan"))

    tsumo = first_turn or rng.random() < (0.6 if shape.win_hint == "suuankou" else 0.5)
    win_kind = _pick_win(rng, shape, closed_kinds, tsumo)

    need = [0] * 34
    for k in closed_kinds:
        need[k] += 1
    for m, k in meld_kinds:
        if m == "chi":
            for d in range(3):
                need[k + d] += 1
        else:
            need[k] += 4 if m in ("minkan", "kakan", "ankan") else 3
    ids = _Ids(rng, need)
    melds: list[MeldSpec] = []
    for m, k in meld_kinds:
        if m == "chi":
            tiles = [ids.take(k + d)[0] for d in range(3)]
            melds.append(MeldSpec("chi", tuple(sorted(tiles)), rng.choice(tiles), 3))
        elif m == "ankan":
            melds.append(MeldSpec("ankan", tuple(sorted(ids.take(k, 4)))))
        else:
            tiles = ids.take(k, 4 if m != "pon" else 3)
            called, added = tiles[0], (tiles[1] if m == "kakan" else None)
            melds.append(MeldSpec(m, tuple(sorted(tiles)), called, rng.randint(1, 3), added))
    closed = sorted(i for k in sorted(set(closed_kinds)) for i in ids.take(k, closed_kinds.count(k)))
    win = rng.choice([i for i in closed if i // 4 == win_kind])

    d = Deal(family, closed, melds, win, tsumo=tsumo, seat_wind=seat, round_wind=rnd)
    if first_turn:
        d.tenhou, d.chiihou = seat == 0, seat != 0
    else:
        if is_closed and rng.random() < 0.5:
            d.riichi = True
            d.double_riichi = rng.random() < 0.08
        d.rinshan = tsumo and kans > 0 and rng.random() < 0.3
        d.ippatsu = d.riichi and not d.rinshan and rng.random() < 0.25
        d.haitei = tsumo and not d.rinshan and rng.random() < 0.05
        d.houtei = not tsumo and rng.random() < 0.05
        total_win_kind = sum(1 for i in d.all_ids() if i // 4 == win_kind)
        d.chankan = not tsumo and not d.houtei and total_win_kind == 1 and rng.random() < 0.15

    used = set(d.all_ids())
    if d.chankan:
        used.update(win_kind * 4 + c for c in range(4))  # the robbed kan holds the other three copies
    pool = [i for i in range(136) if i not in used]
    rng.shuffle(pool)
    others = rng.choices(range(5 - kans), weights=[12, 4, 2, 1, 1][: 5 - kans])[0]
    n_ind = 1 + kans + others
    d.dora = pool[:n_ind]
    if d.riichi:
        d.ura = pool[n_ind : 2 * n_ind]
    d.honba = rng.choice((0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 5))
    d.deposits = rng.choice((0, 0, 0, 0, 1, 1, 2, 3)) + (1 if d.riichi else 0)
    d.winner = rng.randrange(4)
    if not tsumo:
        d.discarder = (d.winner + rng.randint(1, 3)) % 4
    return d


def make_deals(n: int, seed: int, family: str | None = None) -> list[Deal]:
    """``n`` deals from ``Random(seed)``."""
    rng = Random(seed)
    return [make_deal(rng, family) for _ in range(n)]


# ------------------------------------------------------------------------------------- jantaku's input form


def _tile_text(i: int) -> str:
    k = i // 4
    if i in RED_IDS:
        return f"0{'mps'[k // 9]}"
    return f"{k % 9 + 1}{'mpsz'[k // 9]}"


def _tiles_text(ids: Sequence[int]) -> str:
    """mpsz text, red fives as 0, grouped by suit."""
    out = []
    for s, suit in enumerate("mpsz"):
        digits = "".join(_tile_text(i)[0] for i in sorted(ids) if i // 36 == s)
        if digits:
            out.append(digits + suit)
    return "".join(out)


def meld_text(m: MeldSpec) -> str:
    """The meld in jantaku's notation (called tile first, then ``+``/``^``/``*`` and the source)."""
    if m.kind == "ankan":
        return _tiles_text(m.ids) + "*"
    assert m.called is not None
    rest = list(m.ids)
    rest.remove(m.called)
    if m.kind == "kakan":
        assert m.added is not None
        rest.remove(m.added)
        order = [m.called, *rest, m.added]
    else:
        order = [m.called, *rest]
    suit = "mpsz"[m.ids[0] // 36]
    marker = "^" if m.kind == "kakan" else "+"
    return "".join(_tile_text(i)[0] for i in order) + suit + marker + str(m.source)


def hand_text(d: Deal) -> str:
    """The whole hand in jantaku's text notation."""
    return " ".join([_tiles_text(d.closed), *(meld_text(m) for m in d.melds)])


def to_jantaku(d: Deal) -> tuple[Any, Any]:
    """A ``jantaku.Hand`` and ``WinConditions`` for the deal."""
    from jantaku import Hand, Tile
    from jantaku.meld import Meld, MeldKind
    from jantaku.riichi import WinConditions

    t = Tile.from_id136
    kinds = {
        "chi": MeldKind.CHI,
        "pon": MeldKind.PON,
        "minkan": MeldKind.MINKAN,
        "kakan": MeldKind.KAKAN,
        "ankan": MeldKind.ANKAN,
    }
    melds = []
    for m in d.melds:
        tiles = tuple(sorted(t(i) for i in m.ids))
        if m.kind == "ankan":
            melds.append(Meld(MeldKind.ANKAN, tiles))
        else:
            assert m.called is not None
            added = t(m.added) if m.added is not None else None
            melds.append(Meld(kinds[m.kind], tiles, t(m.called), m.source, added))
    hand = Hand(tuple(t(i) for i in d.closed), tuple(melds))
    cond = WinConditions(
        win=t(d.win),
        tsumo=d.tsumo,
        riichi=d.riichi or d.double_riichi,
        double_riichi=d.double_riichi,
        ippatsu=d.ippatsu,
        haitei=d.haitei,
        houtei=d.houtei,
        rinshan=d.rinshan,
        chankan=d.chankan,
        tenhou=d.tenhou,
        chiihou=d.chiihou,
        seat_wind=d.seat_wind,
        round_wind=d.round_wind,
        dora=tuple(t(i) for i in d.dora),
        ura=tuple(t(i) for i in d.ura),
        honba=d.honba,
        deposits=d.deposits,
        winner=d.winner,
        discarder=d.discarder,
    )
    return hand, cond


def to_json_request(d: Deal) -> dict[str, Any]:
    """The deal as a ``jantaku.scoring_requests.score_json`` request under the ``tenhou`` preset."""
    req: dict[str, Any] = {
        "hand": _tiles_text(d.closed),
        "melds": [meld_text(m) for m in d.melds],
        "win": _tile_text(d.win),
        "seat_wind": "ESWN"[d.seat_wind],
        "round_wind": "ESWN"[d.round_wind],
        "dora": [_tile_text(i) for i in d.dora],
        "ura": [_tile_text(i) for i in d.ura],
        "honba": d.honba,
        "deposits": d.deposits,
        "winner": d.winner,
        "rules": "tenhou",
    }
    for name in ("tsumo", "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan"):
        if getattr(d, name):
            req[name] = True
    for name in ("tenhou", "chiihou"):
        if getattr(d, name):
            req[name] = True
    if d.discarder is not None:
        req["discarder"] = d.discarder
    return req


# ------------------------------------------------------------------------------------- mahjong's input form


def mahjong_options() -> Any:
    """``OptionalRules`` that mirror Tenhou's rules (see the module docs)."""
    from mahjong.hand_calculating.hand_config import HandConstants, OptionalRules

    return OptionalRules(
        has_open_tanyao=True,
        has_aka_dora=True,
        has_double_yakuman=False,
        kazoe_limit=HandConstants.KAZOE_LIMITED,
        kiriage=False,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=False,
        has_daisharin=False,
        has_daisharin_other_suits=False,
        has_sashikomi_yakuman=False,
        limit_to_sextuple_yakuman=True,
        paarenchan_needs_yaku=True,
        has_daichisei=False,
        is_three_player=False,
    )


MahjongArgs = tuple[list[int], int, list[Any], list[int], Any, list[int]]
"""(tiles, win_tile, melds, dora_indicators, config, ura_dora_indicators)."""


def to_mahjong(d: Deal, options: Any) -> MahjongArgs:
    """The arguments of ``HandCalculator.estimate_hand_value`` for the deal."""
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld

    types = {"chi": Meld.CHI, "pon": Meld.PON, "minkan": Meld.KAN, "kakan": Meld.SHOUMINKAN, "ankan": Meld.KAN}
    melds = [
        Meld(meld_type=types[m.kind], tiles=list(m.ids), opened=m.kind != "ankan", called_tile=m.called)
        for m in d.melds
    ]
    config = HandConfig(
        is_tsumo=d.tsumo,
        is_riichi=d.riichi and not d.double_riichi,
        is_daburu_riichi=d.double_riichi,
        is_ippatsu=d.ippatsu,
        is_rinshan=d.rinshan,
        is_chankan=d.chankan,
        is_haitei=d.haitei,
        is_houtei=d.houtei,
        is_tenhou=d.tenhou,
        is_chiihou=d.chiihou,
        player_wind=27 + d.seat_wind,
        round_wind=27 + d.round_wind,
        kyoutaku_number=d.deposits,
        tsumi_number=d.honba,
        options=options,
    )
    return sorted(d.all_ids()), d.win, melds, list(d.dora), config, list(d.ura)


# ------------------------------------------------------------------------------------------------- scoring

MAHJONG_YAKU_NAMES = {
    "Tsumo": "menzen_tsumo",
    "Riichi": "riichi",
    "DaburuRiichi": "double_riichi",
    "Ippatsu": "ippatsu",
    "Chankan": "chankan",
    "Rinshan": "rinshan_kaihou",
    "Haitei": "haitei",
    "Houtei": "houtei",
    "Pinfu": "pinfu",
    "Tanyao": "tanyao",
    "Iipeiko": "iipeikou",
    "Haku": "yakuhai_haku",
    "Hatsu": "yakuhai_hatsu",
    "Chun": "yakuhai_chun",
    "SeatWindEast": "yakuhai_seat_wind",
    "SeatWindSouth": "yakuhai_seat_wind",
    "SeatWindWest": "yakuhai_seat_wind",
    "SeatWindNorth": "yakuhai_seat_wind",
    "RoundWindEast": "yakuhai_round_wind",
    "RoundWindSouth": "yakuhai_round_wind",
    "RoundWindWest": "yakuhai_round_wind",
    "RoundWindNorth": "yakuhai_round_wind",
    "Sanshoku": "sanshoku",
    "Ittsu": "ittsu",
    "Chantai": "chanta",
    "Honroto": "honroutou",
    "Toitoi": "toitoi",
    "Sanankou": "sanankou",
    "SanKantsu": "sankantsu",
    "SanshokuDoukou": "sanshoku_doukou",
    "Chiitoitsu": "chiitoitsu",
    "Shosangen": "shousangen",
    "Honitsu": "honitsu",
    "Junchan": "junchan",
    "Ryanpeikou": "ryanpeikou",
    "Chinitsu": "chinitsu",
    "KokushiMusou": "kokushi_musou",
    "DaburuKokushiMusou": "kokushi_musou_13",
    "ChuurenPoutou": "chuuren_poutou",
    "DaburuChuurenPoutou": "junsei_chuuren_poutou",
    "Suuankou": "suuankou",
    "SuuankouTanki": "suuankou_tanki",
    "Daisangen": "daisangen",
    "Shousuushii": "shousuushii",
    "DaiSuushii": "daisuushii",
    "Ryuuiisou": "ryuuiisou",
    "Suukantsu": "suukantsu",
    "Tsuuiisou": "tsuuiisou",
    "Chinroutou": "chinroutou",
    "Tenhou": "tenhou",
    "Chiihou": "chiihou",
    "Dora": "dora",
    "AkaDora": "aka_dora",
    "UraDora": "ura_dora",
}
"""mahjong's yaku classes by jantaku's names for them."""


@dataclass
class Outcome:
    """One library's verdict on a deal, in a common form."""

    error: str | None = None
    han: int = 0
    fu: int = 0
    yakuman: int = 0
    yaku: tuple[tuple[str, int], ...] = ()
    points: int = 0
    payments: tuple[int, ...] = ()
    level: str = ""
    fu_items: tuple[tuple[str, int], ...] = ()

    def as_json(self) -> dict[str, Any]:
        if self.error:
            return {"error": self.error}
        return {
            "han": self.han,
            "fu": self.fu,
            "yakuman": self.yakuman,
            "yaku": [list(y) for y in self.yaku],
            "points": self.points,
            "payments": list(self.payments),
            "level": self.level,
            "fu_items": [list(f) for f in self.fu_items],
        }

    def brief(self) -> str:
        if self.error:
            return f"rejects: {self.error}"
        yaku = " ".join(f"{n}{'*' if self.yakuman else ''}{v}" for n, v in self.yaku)
        head = f"{self.yakuman}x yakuman" if self.yakuman else f"{self.han} han {self.fu} fu"
        fu = " ".join(f"{w}:{f}" for w, f in self.fu_items)
        return f"{head} = {self.points} {list(self.payments)} [{yaku}] fu({fu})"


def _jantaku_fu_items(items: Sequence[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for what, fu in items:
        if what in ("base", "closed ron", "seven pairs"):
            out.append(("base", fu))
        elif what.endswith("wait"):
            out.append(("wait", fu))
        elif what.startswith("pair"):
            out.append(("pair", fu))
        elif what == "open pinfu-shaped ron":
            out.append(("open pinfu", fu))
        elif what == "tsumo":
            out.append(("tsumo", fu))
        else:
            out.append(("pung/kan", fu))
    return _merge(out)


def _mahjong_fu_items(details: Sequence[dict[str, Any]]) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for d in details:
        reason, fu = d["reason"], d["fu"]
        if reason == "base":
            out.append(("base", fu))
        elif reason in ("penchan", "kanchan", "pair_wait"):
            out.append(("wait", fu))
        elif reason in ("valued_pair", "double_valued_pair"):
            out.append(("pair", fu))
        elif reason == "hand_without_fu":
            out.append(("open pinfu", fu))
        elif reason == "tsumo":
            out.append(("tsumo", fu))
        else:
            out.append(("pung/kan", fu))
    return _merge(out)


def _merge(items: list[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """Items summed by name (base 20 + closed ron 10 = base 30), sorted; pung fu kept one by one."""
    total: dict[str, int] = defaultdict(int)
    pungs: list[int] = []
    for name, fu in items:
        if name == "pung/kan":
            pungs.append(fu)
        else:
            total[name] += fu
    return tuple(sorted([*total.items(), *(("pung/kan", f) for f in sorted(pungs))]))


def score_jantaku(hand: Any, cond: Any, rules: Any) -> Outcome:
    from jantaku.errors import JantakuError
    from jantaku.riichi import score_hand

    try:
        r = score_hand(hand, cond, rules)
    except JantakuError as e:
        return Outcome(error=f"{type(e).__name__}: {e}")
    fu_items = () if r.yakuman else _jantaku_fu_items(r.fu_items)
    return Outcome(
        han=r.han,
        fu=r.fu if not r.yakuman else 0,
        yakuman=r.yakuman,
        yaku=tuple(sorted(r.yaku)),
        points=r.points,
        payments=tuple(r.payments),
        level=r.limit or "",
        fu_items=fu_items,
    )


def score_mahjong(d: Deal, args: MahjongArgs) -> Outcome:
    from mahjong.hand_calculating.hand import HandCalculator

    tiles, win, melds, dora, config, ura = args
    res = HandCalculator.estimate_hand_value(tiles, win, melds, dora, config, ura_dora_indicators=ura)
    if res.error:
        return Outcome(error=str(res.error))
    open_hand = any(m.opened for m in melds)
    yakuman = 0
    yaku: list[tuple[str, int]] = []
    for y in res.yaku:
        name = MAHJONG_YAKU_NAMES.get(type(y).__name__, type(y).__name__)
        han = y.han_open if open_hand and y.han_open else y.han_closed
        if y.is_yakuman:
            yakuman += han // 13
        yaku.append((name, han // 13 if y.is_yakuman else han))
    cost = res.cost
    main, add = cost["main"], cost["additional"]
    deltas = [0, 0, 0, 0]
    if d.tsumo:
        dealer = (d.winner - d.seat_wind) % 4
        for s in range(4):
            if s == d.winner:
                continue
            if d.seat_wind == 0 or s == dealer:
                deltas[s] = -(main + cost["main_bonus"])
            else:
                deltas[s] = -(add + cost["additional_bonus"])
        points = main + 2 * add
    else:
        assert d.discarder is not None
        deltas[d.discarder] = -(main + cost["main_bonus"])
        points = main
    deltas[d.winner] = cost["total"]
    return Outcome(
        han=0 if yakuman else res.han,
        fu=0 if yakuman else res.fu,
        yakuman=yakuman,
        yaku=tuple(sorted(yaku)),
        points=points,
        payments=tuple(deltas),
        level=cost["yaku_level"],
        fu_items=() if yakuman else _mahjong_fu_items(res.fu_details or []),
    )


# --------------------------------------------------------------------------------------------- comparison

_BONUS = ("dora", "aka_dora", "ura_dora")


def _short_error(e: str) -> str:
    return e.split(":", 1)[0] if e else e


def _yaku_names(o: Outcome) -> str:
    names = [n for n, _ in o.yaku if n not in _BONUS]
    return ", ".join(names) if names else "-"


def classify(j: Outcome, m: Outcome) -> str | None:
    """The cause of a disagreement, as a category label; ``None`` when the two agree."""
    if j.error and m.error:
        if _short_error(j.error) == "NoYakuError" and m.error == "no_yaku":
            return None
        return f"both reject, for different reasons: jantaku {_short_error(j.error)}, mahjong {m.error}"
    if j.error:
        return f"jantaku rejects ({_short_error(j.error)}), mahjong scores [{_yaku_names(m)}]"
    if m.error:
        return f"mahjong rejects ({m.error}), jantaku scores [{_yaku_names(j)}]"
    same_score = (j.han, j.fu, j.yakuman, j.points, j.payments) == (m.han, m.fu, m.yakuman, m.points, m.payments)
    if same_score and j.yaku == m.yaku:
        return None
    if j.yaku != m.yaku:
        prefix = "same score, yaku lists differ" if same_score else "yaku differ"
        jc, mc = Counter(j.yaku), Counter(m.yaku)
        only_j = sorted((jc - mc).elements())
        only_m = sorted((mc - jc).elements())
        jn = {n for n, _ in only_j}
        mn = {n for n, _ in only_m}
        same_names = jn == mn
        if same_names:
            return f"{prefix}, han per yaku: " + ", ".join(
                f"{n} jantaku {dict(only_j)[n]} vs mahjong {dict(only_m)[n]}" for n in sorted(jn)
            )
        a = ", ".join(f"{n} {v}" for n, v in only_j) or "-"
        b = ", ".join(f"{n} {v}" for n, v in only_m) or "-"
        return f"{prefix}: jantaku only [{a}]; mahjong only [{b}]"
    if j.fu != m.fu or j.han != m.han:
        jc, mc = Counter(j.fu_items), Counter(m.fu_items)
        a = ", ".join(f"{n} {v}" for n, v in sorted((jc - mc).elements())) or "-"
        b = ", ".join(f"{n} {v}" for n, v in sorted((mc - jc).elements())) or "-"
        effect = "points differ" if j.points != m.points else "same points"
        return f"fu differ ({effect}): jantaku [{a}] vs mahjong [{b}]"
    if j.yakuman != m.yakuman:
        return f"yakuman count differs: jantaku {j.yakuman}x vs mahjong {m.yakuman}x"
    if j.points != m.points:
        return f"points differ with equal han/fu: jantaku {j.level or 'no limit'} vs mahjong {m.level or 'no limit'}"
    return "payment split differs"


@dataclass
class Report:
    """Everything the run found."""

    checked: int = 0
    agree_scored: int = 0
    agree_rejected: int = 0
    families: Counter[str] = field(default_factory=Counter)
    coverage: Counter[str] = field(default_factory=Counter)
    """What the agreeing scored hands exercised: yaku, circumstances, melds, limits."""
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    by_category: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))


def run(deals: Sequence[Deal], progress: Callable[[int], None] | None = None, rules: Any = "tenhou") -> Report:
    """Score every deal with both libraries and collect the findings (``rules``: jantaku's rule set)."""
    from jantaku.rules import load_rules

    rules = load_rules(rules)
    options = mahjong_options()
    rep = Report()
    for n, d in enumerate(deals):
        hand, cond = to_jantaku(d)
        j = score_jantaku(hand, cond, rules)
        m = score_mahjong(d, to_mahjong(d, options))
        rep.checked += 1
        rep.families[d.family] += 1
        cat = classify(j, m)
        if cat is None:
            if j.error:
                rep.agree_rejected += 1
            else:
                rep.agree_scored += 1
                _cover(rep.coverage, d, j)
        else:
            rep.by_category[cat].append(len(rep.disagreements))
            rep.disagreements.append(
                {
                    "index": n,
                    "category": cat,
                    "family": d.family,
                    "hand": hand_text(d),
                    "win": _tile_text(d.win),
                    "flags": d.flags(),
                    "seat_wind": "ESWN"[d.seat_wind],
                    "round_wind": "ESWN"[d.round_wind],
                    "dora": [_tile_text(i) for i in d.dora],
                    "ura": [_tile_text(i) for i in d.ura],
                    "honba": d.honba,
                    "deposits": d.deposits,
                    "winner": d.winner,
                    "discarder": d.discarder,
                    "jantaku": j.as_json(),
                    "mahjong": m.as_json(),
                    "jantaku_brief": j.brief(),
                    "mahjong_brief": m.brief(),
                    "request": to_json_request(d),
                }
            )
        if progress is not None and (n + 1) % 10000 == 0:
            progress(n + 1)
    return rep


def _cover(cov: Counter[str], d: Deal, j: Outcome) -> None:
    for name, _ in j.yaku:
        cov["yaku " + name] += 1
    for f in d.flags():
        cov["flag " + f] += 1
    for m in d.melds:
        cov["meld " + m.kind] += 1
    cov["limit " + (j.level or ("none" if not j.yakuman else "yakuman"))] += 1
    if j.yakuman > 1:
        cov["other stacked yakuman"] += 1
    if any(i in RED_IDS for i in d.all_ids()):
        cov["other red five in hand"] += 1
    if ("pair", 4) in j.fu_items:
        cov["other double-wind pair (4 fu)"] += 1
    if d.honba:
        cov["other honba"] += 1
    if any(m.kind != "ankan" for m in d.melds):
        cov["other open hand"] += 1
    else:
        cov["other closed hand"] += 1
    cov["other seat " + "ESWN"[d.seat_wind]] += 1
    cov["other round " + "ESWN"[d.round_wind]] += 1


def _print_coverage(cov: Counter[str]) -> None:
    print("coverage (agreeing scored hands):")
    for group in ("yaku", "flag", "meld", "limit", "other"):
        items = sorted((k.split(" ", 1)[1], n) for k, n in cov.items() if k.startswith(group + " "))
        line = ", ".join(f"{k} {n}" for k, n in items)
        print(f"  {group}: {line}")


def _describe(x: dict[str, Any]) -> str:
    flags = ",".join(x["flags"])
    dora = "".join(x["dora"])
    ura = "".join(x["ura"])
    where = f"seat {x['seat_wind']} round {x['round_wind']} winner {x['winner']}"
    if x["discarder"] is not None:
        where += f" from {x['discarder']}"
    extra = f" honba {x['honba']}" if x["honba"] else ""
    extra += f" sticks {x['deposits']}" if x["deposits"] else ""
    return (
        f"#{x['index']} {x['hand']}  win {x['win']} {flags}; {where}; dora ind {dora}"
        + (f" ura ind {ura}" if ura else "")
        + extra
        + f"  [{x['family']}]\n        jantaku: {x['jantaku_brief']}\n        mahjong: {x['mahjong_brief']}"
    )


def print_report(rep: Report, show: int, elapsed: float) -> None:
    total_dis = len(rep.disagreements)
    print(f"hands checked: {rep.checked} ({elapsed:.1f} s)")
    print(f"agreements: {rep.agree_scored + rep.agree_rejected}")
    print(f"  both scored, same han/fu/points/payments: {rep.agree_scored}")
    print(f"  both reject (no yaku): {rep.agree_rejected}")
    print(f"disagreements: {total_dis}")
    cats = sorted(rep.by_category.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    for cat, idx in cats:
        print(f"  {len(idx):>6}  {cat}")
    print()
    print("families drawn: " + ", ".join(f"{f} {n}" for f, n in sorted(rep.families.items())))
    _print_coverage(rep.coverage)
    print(
        "not compared (mahjong cannot express it): pao (no liable player in these hands); "
        "han and fu of yakuman hands (the yakuman and the payments are compared)"
    )
    if show and cats:
        print()
        for cat, idx in cats:
            limit = len(idx) if show < 0 else show
            print(f"== {cat} ({len(idx)} hands{'' if limit >= len(idx) else f', first {limit}'})")
            for i in idx[:limit]:
                print("    " + _describe(rep.disagreements[i]))


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    p.add_argument("--hands", type=int, default=100000, help="number of random winning hands (default 100000)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--family", choices=FAMILIES, help="only hands aimed at this yaku family")
    p.add_argument("--show", type=int, default=-1, help="disagreements printed per category (default -1: all)")
    p.add_argument("--json", metavar="PATH", help="write every disagreement (and the summary) as JSON to PATH")
    args = p.parse_args(argv)
    if args.hands < 1:
        p.error("--hands must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        import mahjong  # noqa: F401
    except ImportError as exc:
        print(f"mahjong: not installed ({exc}); nothing to compare against")
        return 2
    from importlib import metadata

    versions = {name: metadata.version(name) for name in ("jantaku", "mahjong")}
    print(
        f"diff_mahjong: {args.hands} random winning hands, seed {args.seed}; "
        f"jantaku {versions['jantaku']} (tenhou preset) vs mahjong {versions['mahjong']}"
    )
    t0 = time.perf_counter()
    deals = make_deals(args.hands, args.seed, args.family)

    def progress(n: int) -> None:
        print(f"  ... {n} hands", file=sys.stderr)

    rep = run(deals, progress)
    elapsed = time.perf_counter() - t0
    print_report(rep, args.show, elapsed)
    if args.json:
        doc = {
            "hands": rep.checked,
            "seed": args.seed,
            "family": args.family,
            "versions": versions,
            "agreements_scored": rep.agree_scored,
            "agreements_rejected": rep.agree_rejected,
            "categories": {cat: len(idx) for cat, idx in rep.by_category.items()},
            "families": dict(rep.families),
            "coverage": dict(sorted(rep.coverage.items())),
            "disagreements": rep.disagreements,
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1, ensure_ascii=False)
            fh.write("\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
