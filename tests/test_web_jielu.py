"""The web table under 洁律 (``jielu``): a whole game through the API with a person and bots, the result panel's
fans, S, wildcards, payments and completions, the seats that won and left, the final table (raw points), the
export (mjai only), the calculator, and the original payment mode."""

import dataclasses
import itertools
import re

import pytest
from starlette.testclient import TestClient

from jantaku.bots import make_bot
from jantaku.jielu import JieluResult
from jantaku.records.mjai import read_mjai
from jantaku.rules import load_rules
from jantaku.shapes.shanten import shanten_regular
from jantaku.table import Game
from jantaku.tiles import Tile, counts34
from jantaku.web.app import create_app
from jantaku.web.storage import SqliteStore
from jantaku.web.tables import hand_result_json, waits_json
from seats import claim_all


@pytest.fixture
def client(tmp_path):
    n = itertools.count()
    with TestClient(create_app(SqliteStore(tmp_path / "games.sqlite3"), seed_source=lambda: f"jielu-{next(n)}")) as c:
        yield c


def _create(client, seats):
    r = client.post("/api/tables", json={"rules": "jielu", "seats": seats})
    assert r.status_code == 201, r.text
    return claim_all(client, r.json())  # each invited person opens their link


def _choose(view) -> int:
    """A person's choice: win when the rules let them, pass on calls, otherwise discard the drawn tile."""
    kinds = [a["type"] for a in view["actions"]]
    for kind in ("tsumo", "ron", "none"):
        if kind in kinds:
            return kinds.index(kind)
    discards = [a for a in view["actions"] if a["type"] == "dahai"]
    drawn = [a for a in discards if a["tsumogiri"]]
    return (drawn or discards or view["actions"])[0]["index"]


def _check_win(w, mode):
    assert w["family"] == "jielu" and w["han"] is None and w["fu"] is None
    assert w["points"] == w["score"] >= 1 and w["value"] >= w["score"]
    assert w["yaku"], "a win lists its fans"
    for fan in w["yaku"]:
        assert fan["unit"] == "points" and fan["value"] > 0 and isinstance(fan["melds"], list)
        assert fan["kanji"] == fan["chinese"] == fan["name"] and fan["english"]
    # the value before halving is the fans' sum (after the 32/24 rule), halved once per wildcard
    total = sum(f["value"] for f in w["yaku"])
    assert w["total"] == total and w["value"] == (32 if w["full"] else min(total, 24))
    assert w["score"] == w["value"] >> len(w["wildcards"])
    for wc in w["wildcards"]:
        assert Tile(wc["stands_for"]) and (wc["tile"] is None or Tile(wc["tile"]))
    assert len(w["reading"]["melds"]) == 4 and w["reading"]["pair"]
    assert Tile(w["win_tile"])
    closed = len(w["hand"]) + 3 * len(w["melds"]) + (1 if w["from"] is None else 0)
    assert closed in (13, 14)  # kongs aside: the hand with the winning tile apart
    gain = w["payments"][w["seat"]]
    if mode == "points":
        assert w["multiplier"] == (3, 2, 1)[w["order"] - 1] and gain == w["multiplier"] * w["score"]
        assert sum(w["payments"]) == gain
    else:
        assert w["multiplier"] is None and sum(w["payments"]) == 0


def test_a_jielu_game_played_through_the_api_to_the_end(client):
    data = _create(client, ["human", "efficiency", "efficiency", "efficiency"])
    tid, tok = data["id"], data["seats"][0]["token"]
    view = client.get(f"/api/tables/{tid}/view", params={"token": tok}).json()
    assert view["family"] == "jielu" and view["mode"] == "points" and view["round"]["dora_indicators"] == []
    assert view["waits"]["jielu"] is True
    results, seen_play_on = [], False
    for _ in range(2000):
        if view["over"]:
            break
        if any(p["won"] for p in view["players"]) and view["round"]["phase"] != "ended":
            # winners leave the hand and the others play on; a winner's hand and S are public
            seen_play_on = True
            won = {p["seat"] for p in view["players"] if p["won"]}
            assert {w["seat"] for w in view["wins"]} == won
            for w in view["wins"]:
                assert w["score"] >= 1 and w["payments"][w["seat"]] > 0 and Tile(w["win_tile"])
            assert all(not view["players"][s]["has_drawn"] for s in won)
        if view["hand_results"] > len(results):
            results.append(view["last_result"])
        assert view["actions"], "the bots stopped with nothing for the person to do"
        r = client.post(f"/api/tables/{tid}/act", json={"token": tok, "step": view["step"], "index": _choose(view)})
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["over"]
    if view["hand_results"] > len(results):
        results.append(view["last_result"])
    assert len(results) == 4 and seen_play_on
    scores = [0, 0, 0, 0]
    for r in results:
        assert r["family"] == "jielu" and r["mode"] == "points" and r["dora_indicators"] == []
        assert r["reason"] in ("three_winners", "wall_empty")
        assert len(r["wins"]) == 3 or r["reason"] == "wall_empty"
        winners = {w["seat"] for w in r["wins"]}
        for n, w in enumerate(r["wins"], 1):
            assert w["order"] == n
            _check_win(w, "points")
        # every player who did not win has its hand completed with one extra wildcard, scored 1x
        assert set(r["completions"]) == {str(s) for s in range(4) if s not in winners}
        deltas = [0, 0, 0, 0]
        for w in r["wins"]:
            deltas = [d + p for d, p in zip(deltas, w["payments"], strict=True)]
        for s, c in r["completions"].items():
            assert c["seat"] == int(s) and c["score"] >= 0 and len(c["hand"]) + 3 * len(c["melds"]) >= 13
            if c["score"]:
                assert any(wc["tile"] is None for wc in c["wildcards"])  # the extra wildcard
            deltas[int(s)] += c["score"]
        assert r["deltas"] == deltas
        scores = [a + d for a, d in zip(scores, deltas, strict=True)]
        assert r["scores"] == scores
    # final scores are the raw points
    assert view["final"]["scores"] == scores and view["final"]["final"] == [float(x) for x in scores]
    game = client.get(f"/api/games/{tid}").json()
    assert game["rules"] == "jielu" and game["family"] == "jielu" and game["summary"]["final"] == scores
    hora = [e for e in game["events"] if e["type"] == "hora"]
    assert hora and all("fans" in e and "score" in e and "han" not in e for e in hora)
    assert sum(1 for e in game["events"] if e["type"] == "ryukyoku" and "completions" in e) == 4


def test_a_table_of_bots_plays_a_whole_jielu_game_and_exports_as_mjai_only(client):
    data = _create(client, ["efficiency", "random", "efficiency", "random"])
    assert data["over"]
    gid = data["id"]
    header = next(g for g in client.get("/api/games").json()["games"] if g["id"] == gid)
    assert header["family"] == "jielu" and header["exports"] == ["mjai"]
    assert header["summary"]["final"] == [float(x) for x in header["summary"]["scores"]]
    r = client.get(f"/api/games/{gid}/export", params={"format": "tenhou6"})
    assert r.status_code == 400 and "riichi games only" in r.json()["error"] and "mjai" in r.json()["error"]
    r = client.get(f"/api/games/{gid}/export", params={"format": "mjai"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    import json

    record = read_mjai([json.loads(line) for line in r.text.splitlines() if line.strip()])
    assert len(record.hands()) == 4
    # a riichi game still offers both
    riichi = client.post("/api/tables", json={"rules": "mleague", "seats": ["random"] * 4}).json()
    header = next(g for g in client.get("/api/games").json()["games"] if g["id"] == riichi["id"])
    assert header["family"] == "riichi" and header["exports"] == ["tenhou6", "mjai"]
    assert client.get(f"/api/games/{riichi['id']}/export", params={"format": "tenhou6"}).status_code == 200


def test_the_calculator_scores_jielu_beside_a_riichi_preset(client):
    meta = client.get("/api/presets").json()
    assert "jielu" in meta["presets"] and "jielu" in meta["scoring"] and meta["jielu"] == ["jielu", "jielu_original"]
    hand = {"hand": "123m456p789s11z344z", "win": "4z"}
    r = client.post("/api/score", json={**hand, "rules": "jielu"})
    assert r.status_code == 200
    out = r.json()
    assert out["score"] == 5 and out["value"] == 11 and out["mode"] == "points"
    assert out["fans"][0] == ["三步顺", 3, ["123m", "456p", "789s"]]
    assert out["wildcards"] == {"count": 1, "each": [["3z", "1z"]]}
    r = client.post("/api/score", json={**hand, "rules": "mleague"})  # not a complete hand under riichi
    assert r.status_code == 400 and r.json()["error"]
    both = {"hand": "123m456m789m123p11z", "win": "1z", "tsumo": True}
    assert client.post("/api/score", json={**both, "rules": "jielu"}).json()["score"] == 14
    assert client.post("/api/score", json={**both, "rules": "mleague"}).json()["points"] > 0
    extra = client.post("/api/score", json={"hand": "123m456p789s1134z", "extra_wildcards": 1, "rules": "jielu"})
    assert extra.json()["wildcards"]["each"] == [["3z", "1z"], ["extra", "4z"]]
    for bad in ({**hand, "riichi": True}, {**hand, "dora": "1m"}, {"hand": "19m19p19s11234567z"}):
        r = client.post("/api/score", json={**bad, "rules": "jielu"})
        assert r.status_code == 400 and r.json()["error"], bad
    names = client.get("/api/yaku").json()["yaku"]
    assert names["三步顺"] == {"kanji": "三步顺", "english": "Mixed shifted chows", "chinese": "三步顺"}


def _bot_game(rules, seed):
    game = Game(rules, seed=seed)
    bots = [make_bot("efficiency", seed=f"{seed}:{s}") for s in range(4)]
    return game, bots


def test_waits_under_jielu_are_the_regular_form_without_furiten():
    game, bots = _bot_game(load_rules("jielu"), "waits")
    checked = tenpai_seen = 0
    while not game.over and checked < 400:
        k = game.kyoku
        seat = game.to_act()[0]
        w = waits_json(game.view(seat))
        assert w["jielu"] is True
        counts = counts34([k.tile(i) for i in k.seats[seat].tiles])
        if sum(counts) % 3 == 1:
            assert w["shanten"] == shanten_regular(counts)
        else:  # the best shanten after a discard
            after = []
            for kind in (kind for kind in range(34) if counts[kind]):
                counts[kind] -= 1
                after.append(shanten_regular(counts))
                counts[kind] += 1
            assert w["shanten"] == min(after)
        for option in w["tenpai"]:  # every wait completes four melds and a pair (no seven pairs)
            assert "furiten" not in option
            rest = list(counts)
            if option["discard"] is not None:
                rest[Tile(option["discard"]).kind] -= 1
            for x in option["waits"]:
                rest[Tile(x["tile"]).kind] += 1
                assert shanten_regular(rest) == -1
                rest[Tile(x["tile"]).kind] -= 1
                tenpai_seen += 1
        checked += 1
        game.apply(bots[seat].act(k.view(seat), game.legal_actions(seat)))
    assert tenpai_seen


def test_the_original_mode_result_panel():
    """The original mode (原版: one winner, 3x(S-4), pao): no completions, no multiplier, payments that sum to 0."""
    rules = dataclasses.replace(load_rules("jielu"), jielu_mode="original")
    game, bots = _bot_game(rules, "original")
    shown = []
    while not game.over:
        k = game.kyoku
        round_name = game.round_name
        seat = game.to_act()[0]
        game.apply(bots[seat].act(k.view(seat), game.legal_actions(seat)))
        if k.result is not None and (not shown or shown[-1][0] is not k):
            shown.append((k, hand_result_json(k, len(shown) + 1, round_name)))
    assert len(shown) == 4
    for k, r in shown:
        assert r["mode"] == "original" and r["completions"] == {} and len(r["wins"]) <= 1
        for w in r["wins"]:
            _check_win(w, "original")
            assert isinstance(k.result.wins[0].score, JieluResult)
            assert r["deltas"] == w["payments"]


def test_the_interface_text_has_every_key_in_english_and_chinese(client):
    text = client.get("/static/i18n.js").text
    en, zh = text.split("\n  en: {", 1)[1].split("\n  zh: {", 1)
    zh = zh.split("\n};", 1)[0]
    key = re.compile(r'(?:^|[{,]\s*)"?([\w]+)"?: ', re.M)
    assert set(key.findall(en)) == set(key.findall(zh))
    for name in ("wonBadge", "scoreS", "wildcards", "completions", "three_winners", "wall_empty", "pointsMode"):
        assert f"{name}:" in en and f"{name}:" in zh


def test_an_exported_jielu_game_uploads_to_the_replay_viewer(client):
    gid = _create(client, ["efficiency"] * 4)["id"]
    body = client.get(f"/api/games/{gid}/export", params={"format": "mjai"}).content
    r = client.post("/api/replay", params={"name": "jielu.mjson"}, content=body)
    assert r.status_code == 200
    (game,) = r.json()["games"]
    assert game["rules"] == "jielu" and not game["problems"]
    assert game["events"] == client.get(f"/api/games/{gid}").json()["events"]


def test_a_jielu_table_is_restored_after_a_restart(tmp_path):
    from jantaku.web.tables import TableManager

    path = tmp_path / "games.sqlite3"
    first = TableManager(SqliteStore(path))
    table = first.create("jielu", ["human", "efficiency", "efficiency", "efficiency"], seed="restart")
    token = table.seats[0].token
    while not table.hand_results:  # past the first hand's end, winners and completions included
        view = table.view(0)
        first.act(table.id, token, view["step"], _choose(view))
    before = table.view(0)
    first.store.close()
    restored = TableManager(SqliteStore(path)).get(table.id)
    assert restored.view(0) == before and before["last_result"]["family"] == "jielu"
