"""Issue 33: one seat's view, built from what that seat saw (jantaku.table.seatview.SeatView).

Over seeded games of every preset and 洁律 in both payment modes (random, efficiency and strong bots; 120 games in
CI, five times as many with JANTAKU_THOROUGH=1), four views follow the game from the events each seat receives
(another's draws and dealt tiles hidden, as an mjai server sends them). At every decision of the hand the deciding
seat's view must equal the engine's projection for that seat (:func:`seat_facts`: hand, drawn tile, melds,
rivers with riichi and called tiles, riichi, scores, sticks, tiles left, dora, the first go-around, kans, its own
riichi, ippatsu, furiten and dead-hand flags, its pao liabilities) and offer exactly the engine's legal actions:
kans after riichi, furiten, chankan, kuikae, pao, the exhaustive draw's declarations and 洁律's legal-win check
included, since both come from the same rules code (jantaku.table.legal). The view the table itself hands the
seat's agent (``game.view(seat)``, a PlayerView fed from the table's published events) must give the same.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from budget import tries
from jantaku.bots.registry import make_bot
from jantaku.records.mjai import player_view_event
from jantaku.rules import load_rules
from jantaku.table.game import Game
from jantaku.table.kyoku import Kyoku
from jantaku.table.seatview import SeatView, SeatViewError, seat_facts
from jantaku.table.wall import Wall

PRESETS = ["tenhou", "standard", "mu", "mleague", "meibi", "mahjongsoul", "jielu", "jielu_original"]
GAMES = tries(15)
"""Games per preset: 120 in all."""
R, E, S = "random", "efficiency", "strong"
LINEUPS = ((E, R, E, R), (E, E, E, E), (R, R, R, R), (E, R, E, S), (E, E, R, E), (S, E, E, E))
"""A cycle of line-ups: wins, riichi, calls and kans need the efficiency and strong bots; draws and odd calls the
random ones."""


def _play_with_views(preset: str, seed: int) -> Counter:
    """One game with a view per seat fed the seat's events; every decision of a hand checked. Counts what was
    checked (decisions by phase, and the kinds of actions offered)."""
    rules = load_rules(preset)
    if seed % 4:  # three games in four East only (cheaper), the fourth at the rule set's length
        rules = rules.replace(rounds=1)
    bots = LINEUPS[seed % len(LINEUPS)]
    game = Game(rules, seed, names=list(bots))
    agents = [make_bot(name, f"{seed}:{s}") for s, name in enumerate(bots)]
    views = [SeatView(s, rules) for s in range(4)]
    whole = seed % 2 == 0  # half the games feed one view unmasked events: it must hide them itself
    fed = 0
    seen: Counter = Counter()
    while not game.over:
        events = game.events
        for e in events[fed:]:
            for s, view in enumerate(views):
                view.apply(e if whole and s == 0 else player_view_event(e, s))
        fed = len(events)
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        k = game.kyoku
        if k.result is None:  # a decision of the hand (not the game's own: stop or go on after the last hand)
            view = views[seat]
            mine, theirs = view.facts(), seat_facts(k, seat)
            assert mine == theirs, f"{preset} game {seed}, seat {seat} in {k.phase}: " + str(
                {key: (mine[key], theirs[key]) for key in mine if mine[key] != theirs[key]}
            )
            offered = view.legal_actions()
            assert offered == legal, f"{preset} game {seed}, seat {seat} in {k.phase}: {offered} != {legal}"
            seen[k.phase] += 1
            seen.update(a.kind for a in legal)
            handed = k.view(seat)  # the view the table hands the seat's agent: the same facts and actions
            assert handed.facts() == theirs, f"{preset} game {seed}, seat {seat} in {k.phase}"
            assert handed.legal_actions() == legal, f"{preset} game {seed}, seat {seat} in {k.phase}"
            if seen["checked"] % 7 == 0:  # what a bot reads, through the handed view's own reading API
                assert _as_bot_reads(view) == _as_bot_reads(handed), f"{preset} game {seed}"
            seen["checked"] += 1
        action = agents[seat].act(k.view(seat), legal)
        views[seat].answered(action)
        game.apply(action)
    for s, view in enumerate(views):
        hidden = [e for e in view.events if e["type"] == "tsumo" and e["actor"] != s]
        assert all(e["pai"] == "?" for e in hidden)  # another's draws are never kept
    return seen


def _as_bot_reads(view: Any) -> dict[str, Any]:
    """The attributes a bot reads of its view (jantaku.bots.base.PlayerView's), as plain data."""
    return {
        "hand": sorted(t.mjai for t in view.hand),
        "counts": view.counts,
        "melds": [[str(m) for m in view.melds(s)] for s in range(4)],
        "rivers": [[t.mjai for t in view.river(s)] for s in range(4)],
        "riichi": [view.riichi(s) for s in range(4)],
        "dora": [t.mjai for t in view.dora_indicators],
        "scores": view.scores,
        "tiles_left": view.tiles_left,
        "winds": (view.seat_wind, view.round_wind, view.hand_number),
        "rules": view.rules.name,
        "visible": view.visible_counts(),
        "counters": (view.honba, view.deposits),
        "events": list(view.events),
    }


@pytest.mark.parametrize("preset", PRESETS)
def test_a_view_built_from_the_seats_events_is_the_engines_view_at_every_decision(preset):
    seen: Counter = Counter()
    for seed in range(GAMES):
        seen += _play_with_views(preset, seed)
    # the games reached what a view must follow: wins, calls, kans and the rule set's own decisions
    assert seen["ron"] and seen["tsumo"] and seen["pon"] and seen["chi"], seen
    assert seen["ankan"] + seen["kakan"] + seen["daiminkan"], seen
    assert seen["responses"] > 6 * GAMES and seen["drawn"] > 20 * GAMES, seen
    if load_rules(preset).riichi:
        assert seen["reach"], seen


@pytest.mark.parametrize("handed", [False, True], ids=["seat-view", "handed-by-the-table"])
def test_a_view_holds_no_way_to_another_seats_closed_tiles(handed):
    """Everything reachable from a view through its attributes (instance data, containers, the objects in them;
    not functions, classes or modules) holds no engine, no wall, no other seat's closed tiles and no event that
    shows another seat's draw or dealt tiles: a SeatView fed the seat's events, and the PlayerView the table hands
    an agent (which reads the table's published events)."""
    rules = load_rules("mleague")
    game = Game(rules, 5, names=["efficiency"] * 4)
    agents = [make_bot("efficiency", f"5:{s}") for s in range(4)]
    for _ in range(60):
        seat = game.to_act()[0]
        game.apply(agents[seat].act(game.view(seat), game.legal_actions(seat)))
    if handed:
        root: Any = game.view(0)
        view = root.seat_view  # brought up to date
    else:
        root = view = SeatView(0, rules)
        view.extend([player_view_event(e, 0) for e in game.events])
    k = game.kyoku
    secret = {id(k), id(k.wall), id(k.wall.tiles), id(game)} | {id(k.seats[s].tiles) for s in (1, 2, 3)}
    found: list[str] = []
    seen: set[int] = set()
    todo: list[tuple[str, Any]] = [("view", root)]
    while todo:
        path, obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type) or (callable(obj) and not hasattr(obj, "__dict__")):
            continue
        seen.add(id(obj))
        if id(obj) in secret or isinstance(obj, Kyoku | Game | Wall) or _shows_another_seats_tiles(obj, 0):
            found.append(path)
            continue
        if isinstance(obj, dict):
            todo += [(f"{path}[{key!r}]", v) for key, v in obj.items()]
        elif isinstance(obj, list | tuple | set | frozenset):
            todo += [(f"{path}[{i}]", v) for i, v in enumerate(obj)]
        else:
            for name in getattr(obj, "__dict__", {}):
                todo.append((f"{path}.{name}", getattr(obj, name)))
            for cls in type(obj).__mro__:
                for name in getattr(cls, "__slots__", ()):
                    if hasattr(obj, name):
                        todo.append((f"{path}.{name}", getattr(obj, name)))
    assert not found, found
    assert len(seen) > 100  # the walk did go through the view's state
    assert all(not view.seats[s].tiles for s in (1, 2, 3))
    assert view.closed_count(1) == len(k.seats[1].tiles)  # it knows how many, not which
    assert sorted(view.counts) == sorted(k.seats[0].counts)
    assert view.facts() == seat_facts(k, 0)


def _shows_another_seats_tiles(obj: Any, seat: int) -> bool:
    """An mjai event (a dict) that shows another seat's draw or dealt tiles."""
    if not isinstance(obj, dict):
        return False
    if obj.get("type") == "tsumo":
        return obj.get("actor") != seat and obj.get("pai") != "?"
    if obj.get("type") == "start_kyoku":
        return any(t != "?" for s, h in enumerate(obj.get("tehais", [])) if s != seat for t in h)
    return False


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"type": "dahai", "actor": 0, "pai": "9s", "tsumogiri": False}, "does not hold 9s"),
        ({"type": "dahai", "actor": 0, "pai": "10m", "tsumogiri": False}, "not an mjai tile"),
        ({"type": "dahai", "actor": 0}, "malformed"),
        ({"type": 3}, "has a type"),
        ({"type": "kakan", "actor": 1, "pai": "1m", "consumed": ["1m", "1m", "1m"]}, "no pon of 1m"),
    ],
)
def test_an_event_the_view_cannot_follow_is_named(event, message):
    view = SeatView(0, load_rules("tenhou"))
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "1s", "E", "E", "C", "N"]
    view.apply(
        {
            "type": "start_kyoku",
            "bakaze": "E",
            "kyoku": 1,
            "honba": 0,
            "kyotaku": 0,
            "oya": 0,
            "dora_marker": "1s",
            "scores": [25000] * 4,
            "tehais": [hand] + [["?"] * 13] * 3,
        }
    )
    with pytest.raises(SeatViewError, match=message):
        view.apply(event)


def test_a_view_needs_a_seat_and_rules():
    with pytest.raises(SeatViewError, match="a seat is 0-3"):
        SeatView(4, load_rules("tenhou"))
    with pytest.raises(SeatViewError, match="must be a Ruleset"):
        SeatView(0, "tenhou")  # type: ignore[arg-type]


def test_the_engines_projection_reads_only_what_the_seat_knows():
    """seat_facts of two hands that differ only in another seat's closed tiles are the same."""
    rules = load_rules("tenhou")
    one = Kyoku(rules, Wall.from_seed(3))
    other = Kyoku(rules, Wall.from_seed(3))
    a, b = other.seats[2].tiles[0], other.seats[2].tiles[1]
    other.seats[2].tiles[0], other.seats[2].tiles[1] = b, a  # reordered: the same tiles
    other.seats[2].tiles[:] = sorted(other.seats[2].tiles, reverse=True)
    assert seat_facts(one, 0) == seat_facts(other, 0)
    facts: dict[str, Any] = seat_facts(one, 0)
    assert facts["closed_counts"] == [14, 13, 13, 13] and len(facts["hand"]) == 14
