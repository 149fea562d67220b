"""Tables played deep into a hand on the server, for the layout tests and the screenshots: long rivers, open
melds, and the person at seat 0 asked to decide (a call offered, where the game gives one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jantaku.web.tables import LiveTable, TableManager

CALLS = ("chi", "pon", "daiminkan")
PERSON_AND_BOTS = ["human", "efficiency", "efficiency", "efficiency"]


def _choose(view: dict[str, Any], call: bool) -> int:
    """Seat 0's move: a call when ``call`` and one is offered, else a pass, else the drawn tile (never a win)."""
    kinds = [a["type"] for a in view["actions"]]
    if call:
        for k in CALLS:
            if k in kinds:
                return kinds.index(k)
    if "none" in kinds:
        return kinds.index("none")
    for a in view["actions"]:
        if a["type"] == "dahai" and a["tsumogiri"]:
            return a["index"]
    return kinds.index("dahai") if "dahai" in kinds else len(kinds) - 1


def deep_riichi(view: dict[str, Any], river: int = 12) -> bool:
    """Seat 0 has called a meld, its river holds ``river`` tiles (every river at least ``river`` - 2) and it is
    offered a call now."""
    me = view["players"][0]
    deep = min(len(p["river"]) for p in view["players"]) >= river - 2 and len(me["river"]) >= river
    return deep and bool(me["melds"]) and any(a["type"] in CALLS for a in view["actions"])


def deep_jielu(view: dict[str, Any]) -> bool:
    """洁律 (points mode): another seat has won (its hand open on the board) and seat 0, still playing, must
    decide with a few tiles in every river."""
    others_won = any(p["won"] for p in view["players"][1:])
    return others_won and bool(view["actions"]) and min(len(p["river"]) for p in view["players"]) >= 2


def deep_table(
    manager: TableManager,
    rules: str,
    seeds: list[str],
    want: Callable[[dict[str, Any]], bool] = deep_riichi,
    seats: list[str] | None = None,
) -> LiveTable:
    """The table of the first of ``seeds`` whose first hand reaches a state ``want`` accepts (seen from seat 0,
    a person who calls whatever it is offered until it has a meld, then passes and discards its drawn tile,
    never winning)."""
    for seed in seeds:
        table = manager.create(rules, seats or PERSON_AND_BOTS, seed=seed)
        token = table.seats[0].token
        while not table.over and not table.hand_results:
            view = table.view(0)
            if want(view):
                return table
            manager.act(table.id, token, view["step"], _choose(view, call=not view["players"][0]["melds"]))
    raise AssertionError(f"no seed of {seeds[0]}..{seeds[-1]} plays a hand into the state wanted")
