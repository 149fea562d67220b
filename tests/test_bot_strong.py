"""The ``strong`` bot: only legal actions under every preset, folds against a riichi, takes wins, falls back.

Its strength and speed are measured by benchmarks/bench_bot.py, never asserted here.
"""

import dataclasses

import pytest

from jantaku.bots import make_bot
from jantaku.bots.danger import tile_danger
from jantaku.bots.simple import EfficiencyBot
from jantaku.bots.strong import StrongBot
from jantaku.meld import Meld
from jantaku.rules import load_rules
from jantaku.sim.runner import play_game
from jantaku.table.actions import DISCARD, NOTEN, PASS, RON, TENPAI, TSUMO, Action
from jantaku.table.harness import check_game
from jantaku.tiles import Tile, counts34, parse_tiles

RIICHI_PRESETS = ["tenhou", "standard", "mu", "mleague", "meibi"]


@pytest.mark.parametrize("preset", [*RIICHI_PRESETS, "jielu", "jielu_original"])
def test_only_legal_actions_under_every_preset(preset):
    # the harness applies every action through the engine (an illegal one raises) and replays the game from
    # its seed (the bot is deterministic given its seed)
    rules = load_rules(preset)
    for seed in range(2):
        report = check_game(rules, seed, bots=("strong", "efficiency", "strong", "random"), sample_every=80)
        assert report.hands > 0


def test_four_strong_bots_play_a_whole_game_twice_the_same():
    rules = load_rules("tenhou")
    a = play_game(rules, 7, ["strong"] * 4)
    b = play_game(rules, 7, ["strong"] * 4)
    assert a.over and a.events == b.events
    assert sorted(a.result.ranks) == [1, 2, 3, 4]


class View:
    """A constructed view: own hand, rivers, riichi flags; everything else plain."""

    def __init__(self, hand, rivers=None, riichi=(), rules="tenhou", tiles_left=50, seat=0):
        self.seat = seat
        self._hand = parse_tiles(hand)
        self._rivers = {s: parse_tiles(r) for s, r in (rivers or {}).items()}
        self._riichi = set(riichi)
        self._rules = load_rules(rules)
        self._left = tiles_left

    hand = property(lambda self: list(self._hand))
    counts = property(lambda self: counts34(self._hand))
    dora_indicators = property(lambda self: [Tile("1z")])
    scores = property(lambda self: [25000] * 4)
    tiles_left = property(lambda self: self._left)
    seat_wind = property(lambda self: 1)
    round_wind = property(lambda self: 0)
    rules = property(lambda self: self._rules)

    def melds(self, seat=None):
        return []

    def river(self, seat):
        return list(self._rivers.get(seat, []))

    def riichi(self, seat):
        return seat in self._riichi

    def visible_counts(self):
        seen = [0] * 34
        for tiles in self._rivers.values():
            for t in tiles:
                seen[t.kind] += 1
        seen[27] += 1  # the dora indicator
        return seen


def _discards(view):
    kinds = {}
    for t in view.hand:
        kinds.setdefault(t.mjai, t)
    return [Action.discard(view.seat, t) for t in kinds.values()]


# A poor hand (four-shanten, no yaku in sight): its only discard the riichi player has shown is 8p, a middle
# tile the hand would keep for speed; everything else is live (4m, 5s, 7m among the most dangerous).
POOR = "467m3478p259s1567z"
RIVER = {1: "19m1s9p2z3z8p"}


def test_folds_a_poor_hand_against_a_riichi():
    view = View(POOR, RIVER, riichi={1}, tiles_left=40)
    action = StrongBot(0).act(view, _discards(view))
    assert action.kind == DISCARD and action.tile.mjai == "8p"  # genbutsu against seat 1


def test_without_the_riichi_the_same_hand_plays_for_speed():
    view = View(POOR, RIVER, tiles_left=40)
    action = StrongBot(0).act(view, _discards(view))
    assert action.tile.mjai != "8p"  # 8p is part of the 78p shape; an isolated tile goes first


def test_takes_a_win_when_offered():
    view = View("123m456p789s1122z1z")
    legal = [*_discards(view), Action(TSUMO, 0, Tile("1z"))]
    assert StrongBot(0).act(view, legal).kind == TSUMO
    view = View("123m456p789s1122z", RIVER, riichi={1})
    legal = [Action(RON, 0, Tile("2z")), Action.passing(0)]
    assert StrongBot(0).act(view, legal).kind == RON


def test_an_unknown_decision_falls_back_to_a_legal_action():
    # a decision kind the bot does not know (e.g. one added to the engine later) never breaks it
    view = View(POOR)
    legal = [Action("someday", 0), Action("another", 0)]
    assert StrongBot(0).act(view, legal) in legal


def test_declares_tenpai_at_a_draw_as_the_efficiency_bot_does():
    # the engine's tenpai declaration (000 Art 22(2)): shown unless silence ends the game in first place; the
    # full game situations are in test_seed_sentences (declare_tenpai), here the strong bot must ask it
    view = View("123m456p789s11s23m")
    legal = [Action(TENPAI, 0), Action(NOTEN, 0)]
    assert StrongBot(0).act(view, legal).kind == TENPAI
    ranking = StrongBot(0).rank(view, list(reversed(legal)))
    assert ranking[0].action.kind == TENPAI and len(ranking) == 2


class MeldView(View):
    """A constructed view where seat 1 shows melds."""

    def __init__(self, hand, melds1, rules=None, **kw):
        super().__init__(hand, **kw)
        self._melds1 = [Meld.parse(m) for m in melds1]
        if rules is not None:
            self._rules = rules

    def melds(self, seat=None):
        return list(self._melds1) if seat == 1 else []

    def visible_counts(self):
        seen = super().visible_counts()
        for m in self._melds1:
            for t in m.tiles:
                seen[t.kind] += 1
        return seen


# Discarding the lone red dragon makes this hand tenpai (1m-4m); seat 1 shows pungs of white and green.
PAO_HAND = "123m456p789s11s23m7z"


def test_does_not_feed_the_third_dragon_where_the_rule_set_has_pao():
    # General online rules 3.3 / M-League rules 2023, 8章1条: who feeds the third dragon pung pays the yakuman
    view = MeldView(PAO_HAND, ["555z+", "666z+"])
    assert StrongBot(0).act(view, _discards(view)).tile.kind != Tile("7z").kind
    # with one dragon pung shown, or without pao in the rule set, the hand goes tenpai
    view = MeldView(PAO_HAND, ["555z+", "111p+"])
    assert StrongBot(0).act(view, _discards(view)).tile.kind == Tile("7z").kind
    no_pao = dataclasses.replace(load_rules("tenhou"), pao=frozenset())
    view = MeldView(PAO_HAND, ["555z+", "666z+"], rules=no_pao)
    assert StrongBot(0).act(view, _discards(view)).tile.kind == Tile("7z").kind


def test_does_not_feed_the_fourth_wind_where_the_rule_set_has_pao():
    view = MeldView("123m456p789s11s23m4z", ["111z+", "222z+", "333z+"])
    assert StrongBot(0).act(view, _discards(view)).tile.kind != Tile("4z").kind


def test_rank_lists_every_legal_action_once():
    view = View(POOR, RIVER, riichi={1})
    legal = _discards(view)
    ranking = StrongBot(0).rank(view, legal)
    assert sorted(map(repr, (d.action for d in ranking))) == sorted(map(repr, legal))
    assert ranking[0].score >= max(d.score for d in ranking[1:])


def test_passes_a_call_that_leaves_no_yaku():
    # 1m and 9m in hand, no value honour: a chi of 3p cannot keep all simples or make a yaku
    view = View("19m1245p678s2349s")
    legal = [Action.chi(0, Tile("3p"), (Tile("1p"), Tile("2p"))), Action.chi(0, Tile("3p"), (Tile("2p"), Tile("4p")))]
    legal.append(Action.passing(0))
    assert StrongBot(0).act(view, legal).kind == PASS


def test_danger_follows_genbutsu_suji_and_no_chance():
    unseen = [4] * 34
    safe = [False] * 34
    safe[Tile("4m").kind] = True  # 4m in the river: 1m and 7m are suji
    d = tile_danger(safe, unseen)
    assert d[Tile("4m").kind] == 0
    assert d[Tile("1m").kind] < d[Tile("2m").kind]
    assert d[Tile("7m").kind] < d[Tile("5p").kind]
    no_chance = list(unseen)
    no_chance[Tile("8s").kind] = 0  # every 8s visible: 9s cannot be waited on with 78s (nor 7s with 89s)
    assert tile_danger([False] * 34, no_chance)[Tile("9s").kind] < d[Tile("9p").kind]
    honours = list(unseen)
    honours[Tile("1z").kind] = 0
    assert tile_danger([False] * 34, honours)[Tile("1z").kind] == 0


def test_make_bot_knows_strong():
    assert isinstance(make_bot("strong", "1:0"), StrongBot)


def test_the_efficiency_bot_falls_back_when_no_discard_is_offered():
    # before: min() of an empty list when the legal actions held no discard, pass or win
    view = View("1111m456p789s11s23m")
    ankan = Action("ankan", 0, Tile("1m"), tuple(parse_tiles("1111m")))
    assert EfficiencyBot(0).act(view, [ankan]) == ankan
    unknown = [Action("someday", 0), Action("another", 0)]
    assert EfficiencyBot(0).act(view, unknown) == unknown[0]
    with pytest.raises(ValueError, match="no legal action"):
        EfficiencyBot(0).act(view, [])
