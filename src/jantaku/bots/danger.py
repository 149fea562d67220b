"""How dangerous each tile is to discard, from what a seat can see.

For each opponent that threatens (a riichi, or an open hand far enough along), :func:`threats` estimates the
chance it is tenpai and what a deal-in would cost; :func:`tile_danger` estimates, for each of the 34 kinds,
the chance that kind is its winning tile *if* it is tenpai, by the wait shapes still possible:

- genbutsu: a kind in its river, or passed by everyone since its riichi, cannot ron (furiten);
- ryanmen waits on each side, ruled out by suji (the kind three away is genbutsu) or by kabe / no-chance
  (every copy of a shape tile is visible) and weakened by one-chance (one copy left);
- kanchan and penchan waits, and shanpon / tanki waits, scaled by the copies still unseen (an honour with
  three copies seen is safe);
- open hands: a one-suit hand makes its suit dangerous and the others safe; an all-simples hand makes
  terminals and honours safe.

The numbers are jantaku's own rough calibration, of the order of the published deal-in rates against a
riichi (a live middle tile about one in eight, a suji terminal about one in fifty).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from .value import YAOCHU, dora_kinds, win_points

if TYPE_CHECKING:
    from jantaku.tiles import Tile

    from .base import PlayerView

__all__ = ["Threat", "threats", "tile_danger"]

_SIDE = 0.045
_KANCHAN = 0.012
_PENCHAN = 0.012
_SHANPON = 0.008
_TANKI = 0.004


class Threat(NamedTuple):
    """One opponent: ``tenpai`` the chance it is tenpai, ``cost`` the points a deal-in would cost,
    ``danger`` the 34 per-kind chances a kind is its winning tile (if tenpai)."""

    seat: int
    tenpai: float
    cost: float
    danger: list[float]


def _post_riichi_passed(view: PlayerView) -> dict[int, set[int]]:
    """Per riichi seat, the kinds anyone discarded after its riichi (from the public event log)."""
    from jantaku.tiles import Tile

    out: dict[int, set[int]] = {}
    for e in view.events:
        t = e["type"]
        if t == "reach":
            out[e["actor"]] = set()
        elif t == "dahai" and out:
            kind = Tile.from_mjai(e["pai"]).kind
            for seat, passed in out.items():
                if seat != e["actor"]:
                    passed.add(kind)
    return out


def tile_danger(safe: Sequence[bool], unseen: Sequence[int]) -> list[float]:
    """Per kind, the chance it wins for a tenpai opponent whose furiten kinds are ``safe``; ``unseen`` is the
    copies of each kind the seat asking cannot see (4 minus own hand minus everything visible)."""
    out = [0.0] * 34
    for k in range(34):
        if safe[k]:
            continue
        left = unseen[k]
        # shanpon needs two unseen copies besides the one discarded, tanki one
        d = _SHANPON * max(0, left - 1) + _TANKI * left
        if k < 27:
            n = k % 9
            base = k - n
            # ryanmen below: shape (n-2, n-1), also waiting on n-3
            if n >= 3 and not safe[k - 3]:
                a, b = unseen[k - 2], unseen[k - 1]
                if a and b:
                    d += _SIDE * (0.4 if min(a, b) == 1 else 1.0)
            if n <= 5 and not safe[k + 3]:
                a, b = unseen[k + 1], unseen[k + 2]
                if a and b:
                    d += _SIDE * (0.4 if min(a, b) == 1 else 1.0)
            if 1 <= n <= 7 and unseen[k - 1] and unseen[k + 1]:
                d += _KANCHAN
            if n == 2 and unseen[base] and unseen[base + 1]:
                d += _PENCHAN
            if n == 6 and unseen[base + 7] and unseen[base + 8]:
                d += _PENCHAN
        out[k] = d
    return out


def _deal_in_cost(view: PlayerView, seat: int, riichi: bool, dora: list[int]) -> float:
    """Points a deal-in to ``seat`` would roughly cost: a riichi about 3.3 han (dora, ura and tsumo-less ron
    averaged in), an open hand 2 han plus the dora and value honours its melds show, a closed hand 2.5."""
    dealer = (seat - view.seat + view.seat_wind) % 4 == 0
    melds = view.melds(seat)
    if riichi:
        han = 3.3
    elif melds:
        han = 2.0
        for m in melds:
            han += sum(dora[t.kind] + t.red for t in m.tiles)
            if m.kind.value != "chi" and m.kind34 >= 31:
                han += 0.3
    else:
        han = 2.5
    return win_points(han, dealer, view.rules)


def threats(view: PlayerView, unseen: Sequence[int]) -> list[Threat]:
    """Every opponent that may be tenpai, with its cost and per-kind danger (empty when nobody threatens)."""
    out: list[Threat] = []
    passed = _post_riichi_passed(view)
    dora = dora_kinds(view.dora_indicators)
    for o in range(4):
        if o == view.seat:
            continue
        river = view.river(o)
        melds = view.melds(o)
        riichi = view.riichi(o)
        turn = len(river)
        if riichi:
            p = 1.0
        elif melds:
            p = _open_tenpai(len(melds), turn, river)
        elif turn >= 12:
            p = 0.1 + (turn - 12) * 0.04
        else:
            continue
        if p < 0.08:
            continue
        safe = [False] * 34
        for t in river:
            safe[t.kind] = True
        for kind in passed.get(o, ()):
            safe[kind] = True
        danger = tile_danger(safe, unseen)
        if melds and not riichi:
            _shape_by_melds(danger, melds)
        out.append(Threat(o, p, _deal_in_cost(view, o, riichi, dora), danger))
    return out


def _open_tenpai(n: int, turn: int, river: Sequence[Tile]) -> float:
    """The chance an open hand of ``n`` calls is tenpai after ``turn`` discards: two calls are about one in
    three, three calls more likely than not, growing with the turn; a late discard of a middle tile (2-8) from
    a called hand (it was holding it and now lets it go) makes it likelier still."""
    p = (0.0, 0.12, 0.32, 0.62, 0.95)[min(n, 4)] + min(0.25, max(0, turn - 5) * 0.03)
    tail = [t for t in river[-2:] if t.kind < 27 and 1 <= t.kind % 9 <= 7]
    if n >= 2 and turn >= 6 and tail:
        p += 0.08
    return min(p, 0.95)


def _shape_by_melds(danger: list[float], melds: Sequence) -> None:  # type: ignore[type-arg]
    """An open hand's melds narrow its waits: one suit (with honours), or all simples."""
    kinds = [t.kind for m in melds for t in m.tiles]
    suits = {k // 9 for k in kinds if k < 27}
    if len(suits) == 1 and len(melds) >= 2:
        s = next(iter(suits))
        for k in range(27):
            danger[k] *= 1.8 if k // 9 == s else 0.25
    if all(k not in YAOCHU for k in kinds):
        for k in YAOCHU:
            danger[k] *= 0.3
