"""Optional observation planes, chosen by name, appended after the base planes of :mod:`jantaku.env.encoding`.

The base observation holds what the seat sees; these planes hold what a player works out from it - how far the
hand is from winning, what it waits on, where the other seats cannot win. A learner that gets them need not learn
to compute them. Every one is computed from what the seat knows (the same from the engine and from the seat's own
view: the tests compare them at every decision of whole games), every value lies in ``[0, 1]``, and they follow
the base planes in the order the names are given (``extra_planes=("shanten", "safe")``: the shanten plane at
``OBS_PLANES``, the three safe-tile planes after it).

"Unseen" copies of a kind are those the seat cannot see: four, less its own closed tiles, every river's tiles
still lying there, every meld's tiles and the dora indicators.

============  ======  ===========================================================================================
name          planes  layout (columns are the 34 kinds unless said)
============  ======  ===========================================================================================
shanten       1       one-hot of the closed hand's shanten (the best of the regular form, seven pairs and
                      thirteen orphans): column ``shanten + 1`` (0: complete, 1: tenpai, ..., 8: seven or more)
ukeire        1       a hand of 3n+1 closed tiles: the kinds that lower its shanten, each valued at its unseen
                      copies / 4; a hand of 3n+2 (the seat's turn): the discards that keep the lowest shanten,
                      each valued at the unseen copies of the kinds that would then lower it / 80 (at most 1)
waits         1       3n+1: the kinds that complete the hand (tenpai waits), valued at unseen copies / 4 (0 if
                      not tenpai); 3n+2: 1 at each discard that leaves the hand tenpai
furiten       1       scalar row: column 0 is 1 when the seat cannot ron now (a wait among its discards, a win
                      passed since its last discard or after its riichi; never under a rule set without furiten)
riichi_turn   1       scalar row, per relative seat ``r`` (0 me, 1 right, 2 across, 3 left): column ``r`` the
                      river slot of the seat's riichi declaration + 1, / 30 (0 without riichi); column ``4 + r``
                      the tiles the seat has discarded since, / 30
safe          3       per other seat (relative 1, 2, 3): kinds it cannot ron now as far as the seat can tell: its
                      own discards (furiten) and, while it is in riichi, every tile discarded after its
                      declaration (a riichi hand may not pass a win and ron later); empty under a rule set
                      without furiten (洁律)
============  ======  ===========================================================================================

>>> from jantaku.rules import load_rules
>>> from jantaku.table import Game
>>> game = Game(load_rules("tenhou"), seed=1)
>>> extra = extra_planes(game, 0, ("shanten", "waits"))
>>> extra.shape, int(extra[0].sum())
((2, 34), 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from jantaku.errors import JantakuError
from jantaku.shapes.shanten import shanten, shanten_after_each
from jantaku.table.seatview import visible_counts
from jantaku.tiles import Tile

if TYPE_CHECKING:
    from jantaku.table import Game
    from jantaku.table.seatview import SeatView

__all__ = ["EXTRA_PLANES", "check_names", "extra_planes", "plane_count"]

EXTRA_PLANES: dict[str, int] = {
    "shanten": 1,
    "ukeire": 1,
    "waits": 1,
    "furiten": 1,
    "riichi_turn": 1,
    "safe": 3,
}
"""The optional planes by name, and how many planes each adds (the module's table says what they hold)."""


def check_names(names: Sequence[str] | None) -> tuple[str, ...]:
    """The names as a tuple, or a :class:`JantakuError` naming an unknown or repeated one."""
    if names is None:
        return ()
    if isinstance(names, str):
        names = (names,)
    out = tuple(names)
    for n in out:
        if n not in EXTRA_PLANES:
            known = ", ".join(EXTRA_PLANES)
            raise JantakuError(f"no observation plane {str(n)[:40]!r}: the optional planes are {known}")
    if len(set(out)) != len(out):
        raise JantakuError(f"an optional plane is named twice: {', '.join(out)}")
    return out


def plane_count(names: Sequence[str]) -> int:
    """How many planes ``names`` add."""
    return sum(EXTRA_PLANES[n] for n in names)


def _unseen(k: Any, seat: int) -> list[int]:
    """Per kind, the copies ``seat`` cannot see (see the module)."""
    own = k.seats[seat].counts
    return [max(0, 4 - a - b) for a, b in zip(own, visible_counts(k.seats, k._dora_ids()), strict=True)]


def _furiten(k: Any, seat: int, game: Game) -> bool:
    if not game.rules.furiten:
        return False
    own = getattr(k, "own", None)
    if own is not None:  # a seat's view: its own reckoning of the passes it made
        return bool(k.furiten)
    st = k.seats[seat]
    return len(st.tiles) % 3 == 1 and st.furiten


def _safe(k: Any, seat: int, out: np.ndarray) -> None:
    """Rows 0-2 of ``out``: the kinds relative seats 1-3 cannot ron (see the module; the caller leaves them empty
    under a rule set without furiten, where nothing is safe that way)."""
    declared = [-1, -1, -1, -1]  # per seat, the number of discards (by anyone) made before its declaration
    discards: list[int] = []
    for s, st in enumerate(k.seats):
        for rt in st.river:
            out_row = (s - seat) % 4
            if out_row:
                out[out_row - 1, rt.tile >> 2] = 1.0
    for e in k.events:
        kind = e["type"]
        if kind == "reach":
            declared[e["actor"]] = len(discards)
        elif kind == "dahai":
            discards.append(Tile.from_mjai(e["pai"]).kind)
    for s in range(4):
        r = (s - seat) % 4
        if r and declared[s] >= 0 and k.seats[s].riichi:
            # the declaration's own discard is the seat's (already safe); every later discard passed it
            for kd in discards[declared[s] + 1 :]:
                out[r - 1, kd] = 1.0


def extra_planes(game: Game, seat: int, names: Sequence[str], *, view: SeatView | None = None) -> np.ndarray:
    """The optional planes ``names`` of ``seat``'s observation of ``game`` now, ``(planes, 34)`` ``float32``: read
    from the engine, or from the seat's ``view`` (the same values)."""
    names = check_names(names)
    out = np.zeros((plane_count(names), 34), np.float32)
    if not names:
        return out
    k: Any = game.kyoku if view is None else view
    st = k.seats[seat]
    counts = list(st.counts)
    n = sum(counts)
    row = 0
    cache: dict[str, Any] = {}

    def unseen() -> list[int]:
        if "unseen" not in cache:
            cache["unseen"] = _unseen(k, seat)
        return cache["unseen"]  # type: ignore[no-any-return]

    for name in names:
        plane = out[row]
        if name == "shanten":
            if n % 3 in (1, 2):
                plane[min(shanten(counts) + 1, 8)] = 1.0
        elif name in ("ukeire", "waits") and n % 3 == 1:
            base = shanten(counts)
            if name == "ukeire" or base == 0:
                left = unseen()
                for kd, after in enumerate(shanten_after_each(counts, 1)):
                    if after is not None and after < base:
                        plane[kd] = left[kd] / 4
        elif name in ("ukeire", "waits") and n % 3 == 2:
            after_discard = shanten_after_each(counts, -1)
            best = min(s for s in after_discard if s is not None)
            for kd, s in enumerate(after_discard):
                if s is None:
                    continue
                if name == "waits":
                    if s == 0:
                        plane[kd] = 1.0
                elif s == best:
                    counts[kd] -= 1
                    left = unseen()
                    accepted = sum(
                        left[j] for j, a in enumerate(shanten_after_each(counts, 1)) if a is not None and a < s
                    )
                    counts[kd] += 1
                    plane[kd] = min(1.0, accepted / 80)
        elif name == "furiten":
            plane[0] = float(_furiten(k, seat, game))
        elif name == "riichi_turn":
            for r in range(4):
                river = k.seats[(seat + r) % 4].river
                for j, rt in enumerate(river):
                    if rt.riichi:
                        plane[r] = min(1.0, (j + 1) / 30)
                        plane[4 + r] = min(1.0, (len(river) - j - 1) / 30)
                        break
        elif name == "safe" and game.rules.furiten:
            _safe(k, seat, out[row : row + 3])
        row += EXTRA_PLANES[name]
    return out
