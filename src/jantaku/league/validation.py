"""Checks of a hand entry against the rule set, each message citing the rule document's article.

A recorder at a physical table takes the organiser's word for what happened, so it checks what can be
checked without the tiles: a han and fu that no hand can have, a riichi a player could not declare, more
winners on one discard than the rule set lets win, an abortive draw or a nagashi mangan the rule set does
not have, a quick entry whose points do not add up.

>>> from jantaku.rules import load_rules
>>> check_win_value(load_rules("mleague"), {"han": 1, "fu": 20, "from": 2})
Traceback (most recent call last):
...
jantaku.league.errors.EntryError: 1 han 20 fu by ron cannot exist: 20 fu is a closed pinfu hand's tsumo \
only, a ron has at least 30 fu, or 25 for seven pairs (M-League 2023 6章3条3-5, 9章1条5; μ 2021 Art 56(6)-(7))
"""

from __future__ import annotations

from typing import Any

from jantaku.rules import Ruleset
from jantaku.rules.sources import describe_source

from .errors import EntryError

__all__ = [
    "check_abortive",
    "check_draw",
    "check_final",
    "check_riichi",
    "check_seat",
    "check_win_value",
    "check_wins",
]

_FU_SOURCE = "001 6章3条3-5, 9章1条5; 000 Art 56(6)-(7)"
_SEVEN_PAIRS = "001 9章2条12; 000 Art 51(12)"


def _cite(source: str) -> str:
    return f"({describe_source(source)})"


def check_seat(value: object, what: str = "seat") -> int:
    """A table seat 0-3."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise EntryError(f"{what} must be a seat 0-3, got {value!r}")
    return value


def _count(value: object, what: str, lo: int = 0, hi: int = 10**6) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise EntryError(f"{what} must be a whole number {lo}-{hi}, got {value!r}")
    return value


def check_win_value(rules: Ruleset, w: dict[str, Any], *, riichi: bool = False) -> tuple[int, int, int]:
    """The han, fu and yakuman count of a win entered by value (``riichi``: the winner had declared riichi);
    raises :class:`EntryError` for a value no hand can have under ``rules``.

    >>> from jantaku.rules import load_rules
    >>> check_win_value(load_rules("meibi"), {"han": 1, "fu": 110, "from": None})
    Traceback (most recent call last):
    ...
    jantaku.league.errors.EntryError: 1 han 110 fu by tsumo cannot exist: a 1-han hand won by tsumo has at most \
100 fu (the payment tables leave 1 han 110 fu tsumo empty) (眉笔 6章4条2)
    >>> check_win_value(load_rules("mleague"), {"han": 1, "fu": 40, "from": None}, riichi=True)
    Traceback (most recent call last):
    ...
    jantaku.league.errors.EntryError: a riichi winner's 1 han 40 fu by tsumo cannot exist: riichi and menzen \
tsumo make 2 han at least (M-League 2023 9章1条1-2)
    """
    tsumo = w.get("from") is None
    yakuman = _count(w.get("yakuman", 0) or 0, "yakuman", 0, 6)
    if yakuman:
        if yakuman > 1 and not rules.yakuman_stacking:
            raise EntryError(f"several yakuman count as one under {rules.name} {_cite('000 Art 54')}: enter yakuman 1")
        if w.get("pao") is not None and not rules.pao:
            raise EntryError(f"rule set {rules.name} has no pao (liability) for any yakuman")
        return 0, 0, yakuman
    if w.get("pao") is not None:
        raise EntryError(
            f"pao (liability) applies only to a yakuman ({', '.join(sorted(rules.pao)) or 'none here'}) "
            f"{_cite('000 Art 67; 001 8章1条')}"
        )
    han = _count(w.get("han"), "han", 1, 100)
    if han < rules.min_han:
        raise EntryError(f"a win needs {rules.min_han} han {_cite('000 Art 62; 001 1章3条')}")
    if han >= 5:
        fu = w.get("fu") or 30
        fu = _count(fu, "fu", 20, 110)
        return han, fu, 0
    fu = _count(w.get("fu"), "fu", 20, 110)
    how = "tsumo" if tsumo else "ron"
    if fu != 25 and fu % 10:
        raise EntryError(
            f"{fu} fu cannot exist: fu are rounded up to tens, seven pairs' 25 aside {_cite('001 6章3条4')}"
        )
    if fu == 20 and not tsumo:
        raise EntryError(
            f"{han} han 20 fu by ron cannot exist: 20 fu is a closed pinfu hand's tsumo only, a ron has at "
            f"least 30 fu, or 25 for seven pairs {_cite(_FU_SOURCE)}"
        )
    if fu == 20 and han < 2:
        raise EntryError(
            f"1 han 20 fu by tsumo cannot exist: a 20 fu tsumo is pinfu with menzen tsumo, 2 han at least "
            f"{_cite(_FU_SOURCE)}"
        )
    if fu == 25 and han < (3 if tsumo else 2):
        raise EntryError(
            f"{han} han 25 fu by {how} cannot exist: 25 fu is seven pairs, itself 2 han"
            f"{' and 3 with menzen tsumo' if tsumo else ''} {_cite(_SEVEN_PAIRS)}"
        )
    if tsumo and han == 1 and fu > 100:
        # 1 han by tsumo (menzen tsumo alone, or one yaku of an open hand): at most two concealed pungs or kans
        # (a third is sanankou), three kans are sankantsu: 20 + 2 + 2x32 + 2x4 + 4 + 2 = 100 fu at most
        raise EntryError(
            f"1 han {fu} fu by tsumo cannot exist: a 1-han hand won by tsumo has at most 100 fu (the payment "
            f"tables leave 1 han 110 fu tsumo empty) {_cite('003 6章4条2')}"
        )
    if riichi:
        # a riichi hand is closed: riichi, menzen tsumo on a tsumo, pinfu at 20 fu, seven pairs (2) at 25 fu
        least = 1 + tsumo + (fu == 20) + 2 * (fu == 25)
        if han < least:
            parts = ["riichi"] + ["menzen tsumo"] * tsumo + ["pinfu"] * (fu == 20) + ["seven pairs (2)"] * (fu == 25)
            raise EntryError(
                f"a riichi winner's {han} han {fu} fu by {how} cannot exist: {' and '.join(parts)} make {least} han "
                f"at least {_cite('001 9章1条1-2' + ('; ' + _SEVEN_PAIRS if fu == 25 else ''))}"
            )
    return han, fu, 0


def check_wins(rules: Ruleset, wins: object) -> list[dict[str, Any]]:
    """The winners of one hand, in the order the engine pays them (from the discarder's right); raises
    :class:`EntryError` for more winners than the rule set lets win on one discard."""
    if not isinstance(wins, list) or not wins or not all(isinstance(w, dict) for w in wins):
        raise EntryError("a win entry lists its winners: wins = [{winner, from, han, fu}, ...]")
    out = []
    for w in wins:
        w = dict(w)
        w["winner"] = check_seat(w.get("winner"), "winner")
        if w.get("from") is not None:
            w["from"] = check_seat(w["from"], "from (the discarder)")
            if w["from"] == w["winner"]:
                raise EntryError(f"seat {w['winner']} cannot win on their own discard (a tsumo has from = None)")
        else:
            w["from"] = None
        if w.get("pao") is not None:
            w["pao"] = check_seat(w["pao"], "pao")
            if w["pao"] == w["winner"]:
                raise EntryError("the winner cannot be liable (pao) for their own hand")
        out.append(w)
    winners = [w["winner"] for w in out]
    if len(set(winners)) != len(winners):
        raise EntryError(f"a seat wins twice in one hand: {winners}")
    if len(out) == 1:
        return out
    if any(w["from"] is None for w in out):
        raise EntryError("a tsumo has one winner; several winners are rons on one discard")
    froms = {w["from"] for w in out}
    if len(froms) != 1:
        raise EntryError(f"several winners must all win on the same discard, got discarders {sorted(froms)}")
    discarder = out[0]["from"]
    if rules.multiple_ron == "head_bump":
        nearest = min(winners, key=lambda s: (s - discarder) % 4)
        raise EntryError(
            f"one winner only under {rules.name}: head bump gives the win to seat {nearest}, the first from the "
            f"discarder's right {_cite('000 Art 65; 001 5章1条3')}"
        )
    if rules.multiple_ron == "double" and len(out) == 3:
        if "triple_ron" in rules.abortive_draws:
            raise EntryError(
                f"three rons on one discard abort the hand under {rules.name}: enter an abortive draw "
                f"triple_ron {_cite('002 1.2')}"
            )
        raise EntryError(f"at most two winners on one discard under {rules.name} {_cite('002 3.3')}")
    return sorted(out, key=lambda w: (w["winner"] - discarder) % 4)


def check_riichi(rules: Ruleset, scores: list[int], riichi: list[int]) -> None:
    """Riichi declarations: allowed at all, and with the points the rule set asks for."""
    if riichi and not rules.riichi:
        raise EntryError(f"rule set {rules.name} has no riichi {_cite('004')}")
    for s in riichi:
        if rules.riichi_min_points and scores[s] < rules.riichi_min_points:
            raise EntryError(
                f"seat {s} has {scores[s]} points and cannot declare riichi: {rules.name} asks for "
                f"{rules.riichi_min_points} {_cite('002')}, as the stick is paid at once {_cite('000 Art 42')}"
            )


def check_draw(rules: Ruleset, riichi: list[int], tenpai: list[int], nagashi: list[int]) -> None:
    """An exhaustive draw: riichi players are tenpai (else it is a chombo), nagashi mangan only where it
    exists."""
    for s in riichi:
        if s not in tenpai:
            raise EntryError(
                f"seat {s} declared riichi and is not tenpai at the draw: that is a chombo, enter it as one "
                f"{_cite('000 Art 68(4); 001 7章4条')}"
            )
    if nagashi and not rules.nagashi_mangan:
        raise EntryError(f"rule set {rules.name} has no nagashi mangan {_cite('000 Art 51-52; 001 9章')}")


def _abortive_source(rules: Ruleset) -> str:
    """The article of ``rules``' own document that lists its abortive draws (a refusal cites its own rule set)."""
    from jantaku.rules.ruleset import Ruleset as _Ruleset

    source = _Ruleset.__dataclass_fields__["abortive_draws"].metadata["source"]
    from jantaku.rules.sources import DOCUMENTS

    document = next((d.code for d in DOCUMENTS.values() if rules.name in d.presets), "002")
    own = [part.strip() for part in source.split(";") if part.strip().startswith(document)]
    return own[0] if own else f"{document} (the abortive draws)"


def check_abortive(rules: Ruleset, reason: object) -> str:
    """An abortive draw the rule set has."""
    if not rules.abortive_draws:
        raise EntryError(f"rule set {rules.name} has no abortive draws {_cite(_abortive_source(rules))}")
    if reason not in rules.abortive_draws:
        raise EntryError(
            f"abortive draw {reason!r} is not in {rules.name}'s rules "
            f"(it has {', '.join(sorted(rules.abortive_draws))}) {_cite(_abortive_source(rules))}"
        )
    return str(reason)


def check_final(rules: Ruleset, entry: dict[str, Any]) -> tuple[list[int], int]:
    """A quick entry's final raw scores and leftover riichi sticks: four scores in the rule set's units that,
    with the sticks, add up to the points the game started with."""
    scores = entry.get("scores")
    if not isinstance(scores, list) or len(scores) != 4:
        raise EntryError(f"a quick entry has four final scores, got {scores!r}")
    for s in scores:
        _count(s, "a final score", -(10**6), 10**6)
    deposits = _count(entry.get("deposits", 0) or 0, "leftover deposits", 0, 100)
    total = sum(scores) + 1000 * deposits
    if total != 4 * rules.starting_points:
        raise EntryError(
            f"the final scores {scores} and {deposits} leftover riichi stick(s) add up to {total}, not "
            f"{4 * rules.starting_points} (4 x {rules.starting_points} at the start "
            f"{_cite('001 6章1条; 003 6章1条')})"
        )
    if rules.payment_rounding and any(s % rules.payment_rounding for s in scores):
        raise EntryError(f"final scores move in units of {rules.payment_rounding}: {scores}")
    return list(scores), deposits
