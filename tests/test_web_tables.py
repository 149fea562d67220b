"""Live tables: seat views that never leak, actions by index with a step, bots, storage and restoring."""

import json

import pytest

from jantaku.table.actions import Action
from jantaku.tiles import Tile
from jantaku.web.storage import SqliteStore
from jantaku.web.tables import BadRequest, Conflict, Forbidden, NotFound, TableManager, action_to_json
from seats import create_claimed

HUMAN_FIRST = ["human", "random", "random", "random"]


@pytest.fixture
def manager():
    return TableManager(SqliteStore(":memory:"))


def _play_first_action_until(table, seat, hands):
    """Always choose the first legal action for ``seat`` until ``hands`` hands have ended (or the game)."""
    while len(table.hand_results) < hands and not table.over:
        view = table.view(seat)
        assert view["actions"], "the bots stopped with nothing for the person to do"
        table.act(seat, view["step"], 0)


def test_a_view_shows_only_the_own_hand(manager):
    table = create_claimed(manager, "tenhou", ["human", "human", "random", "random"], seed="view")
    v0, v1 = table.view(0), table.view(1)
    assert len(v0["hand"]) == 13 and v0["drawn"] is not None  # the dealer (seat 0 here) has drawn
    assert v0["hand"] == sorted(v0["hand"], key=lambda t: Tile(t).sort_key)
    assert len(v1["hand"]) == 13 and v1["drawn"] is None
    own1 = table.game.kyoku.seats[1].tiles
    text0 = json.dumps(v0)
    assert "seed" not in text0 and table.seed not in text0
    for p in v0["players"]:
        assert set(p) >= {"score", "river", "melds", "hand_count", "riichi", "wind"}
        assert "hand" not in p and "tiles" not in p
    assert v0["players"][1]["hand_count"] == len(own1)
    assert v1["actions"] == [] and v0["actions"]
    assert all(a["seat"] == 0 for a in v0["actions"])


def test_stale_and_illegal_actions_change_nothing(manager):
    table = create_claimed(manager, "mleague", HUMAN_FIRST, seed="stale")
    before = table.view(0)
    with pytest.raises(Conflict, match="stale"):
        table.act(0, before["step"] + 1, 0)
    with pytest.raises(BadRequest, match="no legal action number 99"):
        table.act(0, before["step"], 99)
    with pytest.raises(BadRequest, match="riichi needs"):  # an explicit illegal action names the rule
        table.apply_action(0, before["step"], Action.riichi(0, Tile(before["hand"][0])))
    with pytest.raises(Forbidden):
        table.apply_action(0, before["step"], Action.discard(1, Tile(before["hand"][0])))
    assert table.view(0) == before
    table.act(0, before["step"], 0)
    with pytest.raises(Conflict):  # the same submission again (a second tab)
        table.act(0, before["step"], 0)


def test_a_person_plays_a_whole_hand_by_first_actions(manager):
    table = create_claimed(manager, "tenhou", HUMAN_FIRST, seed="hand")
    _play_first_action_until(table, 0, 1)
    result = table.view(0)["last_result"]
    assert result["number"] == 1 and result["round"] == "E1"
    assert result["kind"] in ("ron", "tsumo", "exhaustive", "abortive")
    assert sum(result["deltas"]) >= -4000  # riichi sticks may stay on the table
    for w in result["wins"]:
        assert w["yaku"] and w["points"] > 0 and len(w["payments"]) == 4


def test_a_bot_game_is_played_and_stored(manager):
    table = create_claimed(manager, "mleague", ["random"] * 4, seed="bots")
    assert table.over and table.view(0)["final"]["ranks"]
    stored = manager.store.get_game(table.id)
    assert stored.status == "finished" and stored.events[-1]["type"] == "end_game"
    assert stored.summary["final"] == table.game.result.final
    assert manager.store.get_table(table.id) is None


def test_tokens_and_ids(manager):
    table = create_claimed(manager, "mu", ["human", "human", "random", "random"])
    assert table.seat_of(table.seats[1].token) == 1
    for bad in (None, "", "nope", table.seats[0].token + "x"):
        with pytest.raises(Forbidden):
            table.seat_of(bad)
    with pytest.raises(NotFound):
        manager.get("no-such-table")
    with pytest.raises(BadRequest, match="unknown rule set"):
        create_claimed(manager, "nope", HUMAN_FIRST)
    with pytest.raises(BadRequest, match="neither"):
        create_claimed(manager, "mu", ["human", "mjai:rm -rf /", "random", "random"])
    with pytest.raises(BadRequest, match="four"):
        create_claimed(manager, "mu", ["human"])


def test_a_table_is_restored_after_a_restart(tmp_path):
    path = tmp_path / "games.sqlite3"
    first = TableManager(SqliteStore(path))
    table = create_claimed(first, "standard", HUMAN_FIRST, seed="restart")
    token = table.seats[0].token
    for _ in range(5):
        view = table.view(0)
        first.act(table.id, token, view["step"], 0)
    before = table.view(0)
    first.store.close()
    second = TableManager(SqliteStore(path))
    restored = second.get(table.id)
    assert restored.view(0) == before
    second.act(table.id, token, before["step"], 0)
    assert restored.view(0)["step"] > before["step"]


def test_action_json_round_trip():
    from jantaku.web.tables import action_from_json

    a = Action("chi", 1, Tile("0p"), (Tile("4p"), Tile("6p")))
    assert action_from_json(action_to_json(a)) == a


def test_an_additive_fan_result_is_shown_without_han_or_fu():
    """A jielu win (fans with points instead of yaku with han) gives the result panel's shape too."""
    from jantaku import Hand
    from jantaku.jielu import score_hand
    from jantaku.web.tables import _win_score_json

    shown = _win_score_json(score_hand(Hand.parse("123m456m789m123p11z"), tsumo=True))
    assert shown["han"] is None and shown["fu"] is None and shown["points"] == shown["score"] == 14
    assert shown["family"] == "jielu" and shown["wildcards"] == [] and shown["value"] == 14
    assert [f["name"] for f in shown["yaku"]] == ["三连顺", "九数齐", "平和", "自摸和"]
    assert all(f["unit"] == "points" and f["value"] > 0 for f in shown["yaku"])


def test_waits_with_a_drawn_tile_list_each_discard_that_keeps_tenpai(manager):
    table = create_claimed(manager, "tenhou", HUMAN_FIRST, seed="waits")
    for _ in range(200):
        view = table.view(0)
        waits = view["waits"]
        if view["drawn"] and waits["tenpai"]:
            break
        table.act(0, view["step"], len(view["actions"]) - 1)
    else:
        pytest.fail("never tenpai with a drawn tile")
    from jantaku.shapes.waits import waits as waits_of

    hand = view["hand"] + [view["drawn"]]
    for option in waits["tenpai"]:
        rest = list(hand)
        rest.remove(next(t for t in rest if Tile(t).kind == Tile(option["discard"]).kind))
        assert [w["tile"] for w in option["waits"]] == waits_of("".join(rest))
