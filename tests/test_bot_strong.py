"""The ``strong`` bot: only legal actions under every preset, folds against a riichi, takes wins, falls back.

Its strength and speed are measured by benchmarks/bench_bot.py, never asserted here.
"""

import dataclasses
from collections import Counter
from types import SimpleNamespace

import pytest

from jantaku.bots import make_bot, strong
from jantaku.bots.danger import tile_danger
from jantaku.bots.simple import EfficiencyBot
from jantaku.bots.strong import StrongBot, _jielu_potential, _jielu_take_win, _jielu_win_score
from jantaku.meld import Meld
from jantaku.rules import load_rules
from jantaku.sim.harness import check_game
from jantaku.sim.runner import play_game
from jantaku.table import Game
from jantaku.table.actions import DISCARD, NOTEN, PASS, PON, RON, TENPAI, TSUMO, Action
from jantaku.tiles import Tile, counts34, parse_tiles

RIICHI_PRESETS = ["tenhou", "standard", "mu", "mleague", "meibi", "mahjongsoul"]


def _east_only(preset):
    """The preset played East-only (a quarter of the hands: the tests stay quick; the rules are the same)."""
    rules = load_rules(preset)
    return rules if rules.family == "jielu" else dataclasses.replace(rules, rounds=1)


@pytest.mark.parametrize("preset", [*RIICHI_PRESETS, "jielu", "jielu_original"])
def test_only_legal_actions_under_every_preset(preset):
    # the harness applies every action through the engine (an illegal one raises) and replays the game from
    # its seed (the bot is deterministic given its seed)
    report = check_game(_east_only(preset), 3, bots=("strong", "efficiency", "strong", "random"), sample_every=80)
    assert report.hands >= 4


def test_four_strong_bots_win_riichi_call_and_replay_the_same():
    rules = _east_only("tenhou")
    kinds = Counter()
    for seed in (7, 8):
        a = play_game(rules, seed, ["strong"] * 4)
        assert a.over and sorted(a.result.ranks) == [1, 2, 3, 4]
        kinds.update(e["type"] for e in a.events)
    assert play_game(rules, 8, ["strong"] * 4).events == a.events  # deterministic given the seed
    # real play, not a table of folders: hands are won, riichi is declared and discards are called
    assert kinds["hora"] >= 3 and kinds["reach_accepted"] >= 2 and kinds["pon"] + kinds["chi"] >= 2


class View:
    """A constructed view: own hand, rivers, riichi flags; everything else plain."""

    def __init__(
        self, hand, rivers=None, riichi=(), rules="tenhou", tiles_left=50, seat=0, dora="1z", scores=None, hand_no=1
    ):
        self.seat = seat
        self._hand = parse_tiles(hand)
        self._rivers = {s: parse_tiles(r) for s, r in (rivers or {}).items()}
        self._riichi = set(riichi)
        self._rules = load_rules(rules)
        self._left = tiles_left
        self._dora = parse_tiles(dora)
        self._scores = scores or [25000] * 4
        self.hand_number = hand_no
        self.round_wind = 0 if hand_no == 1 else 1  # East 1, or South N
        self.honba, self.deposits, self.events = 0, 0, []

    def offered_win(self, action):
        return None

    hand = property(lambda self: list(self._hand))
    counts = property(lambda self: counts34(self._hand))
    dora_indicators = property(lambda self: list(self._dora))
    scores = property(lambda self: list(self._scores))
    tiles_left = property(lambda self: self._left)
    seat_wind = property(lambda self: (self.seat - 3) % 4)  # seat 3 deals
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
        for t in self._dora:
            seen[t.kind] += 1
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


# Two-shanten hands with some shape (and no great value) against a riichi at 40 tiles left, each with a
# genbutsu among its tiles: pushing means many more dangerous discards before the hand could win, so they fold.
TWO_SHANTEN = [
    ("2m1m7p5m3s7p3z5m4s2z5s4s2z8s", "6m1p9s8s4m3s6s8p6m6p"),
    ("1s4z4z1s1p7z7s3s1p8p2s8s9m6s", "7p8s7s3m3z2m4s1m4p3m"),
    ("3s8m3p2p3m8m7z4s4p1s5s4s7p5s", "7m6s1m7p9p9s8s5m9m3z"),
]


# One-shanten hands of little value (riichi and perhaps a dora at best) against a riichi at 40 tiles left, each
# holding a genbutsu: a riichi ends the hand early (the chance per draw that the hand ends before this seat's next
# step grows by 0.15 per opponent likely tenpai, calibrated on 68,000 decisions of duplicate play), so the hand's
# chance of winning first is small and it folds. With 0.06 per threat (the earlier guess) each of them pushes.
ONE_SHANTEN = [
    ("9m6p9m7m8m3s2s4p8m8p7s8s1s8p", "6m4m7s4z5s5z6m1p5m4m"),
    ("5m8m7m5m8s7p6m2z7p7s1z3s6s1s", "7s7s7m8s3m6s7m7m1m2m"),
    ("6s5p6s6p7m5s2z8p7p4s1z9p6m7p", "4z2s4p5z5m2m9p4p7z8p"),
]


@pytest.mark.parametrize(("hand", "river"), TWO_SHANTEN + ONE_SHANTEN)
def test_folds_a_hand_of_little_value_against_a_riichi(hand, river):
    view = View(hand, {1: river}, riichi={1}, tiles_left=40)
    action = StrongBot(0).act(view, _discards(view))
    assert action.tile.kind in {t.kind for t in parse_tiles(river)}  # a genbutsu against seat 1


def test_a_riichi_lowers_the_chance_of_winning_each_discard_gives():
    # the same one-shanten hand and the same river, with and without the riichi: a riichi ends hands sooner, so
    # every discard's chance of winning is lower facing it (the hazard per likely-tenpai opponent)
    hand, river = ONE_SHANTEN[0]
    quiet = View(hand, {1: river}, tiles_left=40)
    facing = View(hand, {1: river}, riichi={1}, tiles_left=40)
    before = {d.action.tile.mjai: d.win_chance for d in StrongBot(0).rank(quiet, _discards(quiet))}
    after = {d.action.tile.mjai: d.win_chance for d in StrongBot(0).rank(facing, _discards(facing))}
    assert before.keys() == after.keys()
    assert all(0 <= after[t] < before[t] <= 1 for t in before if before[t] > 0)
    assert max(before.values()) > 0.1  # a one-shanten hand at 40 tiles left wins fairly often when nobody threatens
    assert max(after.values()) < 0.6 * max(before.values())


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


@pytest.mark.parametrize("preset", ["mu", "mleague", "meibi"])
def test_declares_tenpai_at_a_draw_where_silence_is_allowed(preset):
    # rule sets where a tenpai hand may stay silent at an exhaustive draw (μ 000 Art 22(2); M-League rules 2023,
    # 3章11条3): the bot shows it (noten payments come its way) unless silence ends the game in first place
    assert load_rules(preset).tenpai_silence != "none"
    view = View("123m456p789s11s23m", rules=preset)
    legal = [Action(TENPAI, 0), Action(NOTEN, 0)]
    assert StrongBot(0).act(view, legal).kind == TENPAI
    ranking = StrongBot(0).rank(view, list(reversed(legal)))
    assert ranking[0].action.kind == TENPAI and len(ranking) == 2
    # the all-last dealer, first (above the west round target where there is one): silence passes the deal and
    # ends the game
    dealer = View("123m456p789s11s23m", rules=preset, seat=3, scores=[20000, 25000, 15000, 40000], hand_no=4)
    assert StrongBot(0).act(dealer, legal).kind == NOTEN


class MeldView(View):
    """A constructed view where seat 1 shows the melds ``melds1`` and the seat asked (seat 0) the melds ``own``."""

    def __init__(self, hand, melds1=(), rules=None, own=(), **kw):
        super().__init__(hand, **kw)
        self._melds1 = [Meld.parse(m) for m in melds1]
        self._own = [Meld.parse(m) for m in own]
        if rules is not None:
            self._rules = rules

    def melds(self, seat=None):
        if seat in (None, self.seat):
            return list(self._own)
        return list(self._melds1) if seat == 1 else []

    def visible_counts(self):
        seen = super().visible_counts()
        for m in self._melds1 + self._own:
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


def test_calls_the_third_dragon_pung_that_makes_daisangen():
    # two dragon pungs shown and a pair of the third: the pon of the third dragon makes daisangen, a yakuman
    # whose feeder is liable where the rule set has pao (General online rules 3.3); the bot takes it, though
    # the hand is already tenpai on a two-sided wait (3p-6p) and the pon leaves a single wait
    view = MeldView("123m45p77z", own=["555z+", "666z+"])
    legal = [Action.pon(0, Tile("7z"), (Tile("7z"), Tile("7z"))), Action.passing(0)]
    assert StrongBot(0).act(view, legal).kind == PON
    # a pair of a guest wind instead: a pon would only trade the two-sided wait for a single one
    view = MeldView("123m45p44z", own=["555z+", "666z+"])
    legal = [Action.pon(0, Tile("4z"), (Tile("4z"), Tile("4z"))), Action.passing(0)]
    assert StrongBot(0).act(view, legal).kind == PASS


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


# Tenpai on 7p (kanchan) after discarding the 7s just drawn, a live middle tile against the riichi; 8p is
# genbutsu but breaks the tenpai (so are 2m, 3m and 4m). All simples, a red five and two 5p as dora (indicator
# 4p): mangan with riichi.
MANGAN = "234m567m234s50p68p7s"
RIICHI_RIVER = {1: "19m1s9p2z3z8p2m3m4m"}


def test_pushes_a_mangan_tenpai_against_a_riichi():
    view = View(MANGAN, RIICHI_RIVER, riichi={1}, tiles_left=40, dora="4p")
    assert StrongBot(0).act(view, _discards(view)).tile.mjai == "7s"


def test_the_same_shape_without_value_folds():
    # no dora, no red five, and 1m/9m break the all simples: the tenpai is worth riichi and little more, the 7s
    # is live and the bot keeps the genbutsu line instead
    view = View("123m789m234s55p68p7s", RIICHI_RIVER, riichi={1}, tiles_left=20, dora="1z")
    assert StrongBot(0).act(view, _discards(view)).tile.mjai == "8p"


@pytest.mark.parametrize("tiles_left", [4, 8])
def test_keeps_a_cheap_tenpai_at_the_end_of_the_wall_for_the_draw_payment(tiles_left, monkeypatch):
    # the hand the test above folds at 20 tiles left: with one or two draws left the hand's tenpai is paid at the
    # exhaustive draw (000 Art 71, 3,000 points from the noten players), and only a discard or two stand between
    # it and that payment, so the bot keeps the tenpai; priced without the payment it folds there too
    view = View("123m789m234s55p68p7s", RIICHI_RIVER, riichi={1}, tiles_left=tiles_left, dora="1z")
    assert StrongBot(0).act(view, _discards(view)).tile.mjai == "7s"
    monkeypatch.setattr(strong, "TENPAI_SHARE", 0.0)
    assert StrongBot(0).act(view, _discards(view)).tile.mjai == "8p"


def test_at_one_shanten_the_hand_heads_for_the_tenpai_that_pays(monkeypatch):
    # a pair of each dragon beside 35p 999p 567s: drawing a dragon makes a shanpon tenpai on the other two (two
    # dragon sets and a dragon pair: shousangen, at least haneman), so the bot gives up 3p or 5p; counting only how
    # many draws make tenpai, and valuing the hand as it stands, it broke a dragon pair
    view = View("35999p567s556677z", tiles_left=50)
    assert StrongBot(0).act(view, _discards(view)).tile.mjai in ("3p", "5p")
    monkeypatch.setattr(strong, "TENPAI_PLAN", False)
    assert StrongBot(0).act(view, _discards(view)).tile.mjai in ("P", "F", "C")  # mjai names of the dragons


@pytest.mark.parametrize("call_plan", [True, False])
def test_a_call_at_one_shanten_is_weighed_by_the_tenpai_it_heads_for(call_plan, monkeypatch):
    # 23m 456m 789p 55s 6s 77z, and 7z is discarded: passing (a closed one-shanten) and the pon's discards are valued
    # by the tenpai they head for, as on the bot's own turn (CALL_PLAN); the pon makes a tenpai with a yaku (1-4m,
    # discarding 6s), so the bot pons either way
    hands: list[int] = []
    real = StrongBot._tenpai_plan

    def spy(self, counts, *args):
        hands.append(sum(counts))
        return real(self, counts, *args)

    monkeypatch.setattr(StrongBot, "_tenpai_plan", spy)
    monkeypatch.setattr(strong, "CALL_PLAN", call_plan)
    view = View("23m456m789p55s6s77z", {3: "7z"}, tiles_left=50)
    chun = Tile("7z")
    legal = [Action.passing(0), Action.pon(0, chun, tuple(t for t in view.hand if t.kind == chun.kind))]
    assert StrongBot(0).act(view, legal).kind == PON
    if call_plan:
        assert 13 in hands and 10 in hands  # passing (13 closed tiles) and the pon's one-shanten discards (10)
    else:
        assert not hands


def test_the_draw_payment_follows_the_rule_set(monkeypatch):
    # a rule set without noten payments gives the tenpai nothing to win at the draw: the bot folds
    no_payment = dataclasses.replace(load_rules("tenhou"), noten_payment=0)
    view = View("123m789m234s55p68p7s", RIICHI_RIVER, riichi={1}, tiles_left=4, dora="1z")
    monkeypatch.setattr(view, "_rules", no_payment)
    assert StrongBot(0).act(view, _discards(view)).tile.mjai == "8p"


def test_at_all_last_the_leader_folds_what_it_pushes_in_east_1():
    # South 4, seat 0 first by 3,000 over the riichi player: a deal-in costs first place (the uma and oka, 30,000
    # in final points under tenhou) and the mangan only keeps it; the same hand pushes in East 1 (above)
    scores = [31000, 28000, 21000, 20000]
    view = View(MANGAN, RIICHI_RIVER, riichi={1}, tiles_left=40, dora="4p", scores=scores, hand_no=4)
    assert StrongBot(0).act(view, _discards(view)).tile.mjai == "8p"


def test_jielu_wins_are_weighed_by_the_payment_mode():
    # 004 原版计分方式: the winner receives 3x(S-4), so below 4 points a win pays the others; 积分制: every win gains
    original = SimpleNamespace(rules=load_rules("jielu_original"))
    points = SimpleNamespace(rules=load_rules("jielu"))
    assert [_jielu_take_win(original, s) for s in (1, 4, 5, 12)] == [False, False, True, True]
    assert all(_jielu_take_win(points, s) for s in (1, 4, 5))


def test_jielu_original_mode_declines_the_cheap_wins_it_is_offered():
    rules = load_rules("jielu_original")
    offered = Counter()
    for seed in range(2):
        game = Game(rules, seed)
        agents = [StrongBot(seed)] + [EfficiencyBot(seed) for _ in range(3)]
        while not game.over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            view = game.view(seat)
            action = agents[seat].act(view, legal)
            win = next((a for a in legal if a.kind in (TSUMO, RON)), None)
            if seat == 0 and win is not None:
                score = _jielu_win_score(view, win)
                took = action.kind in (TSUMO, RON)
                assert took == (score > 4), (score, action)
                offered[took] += 1
            game.apply(action)
    assert offered[False] >= 1  # a cheap win was on offer and declined


def test_jielu_discards_keep_the_fans_in_sight():
    # one suit with honours (混一色) is worth more in sight than the same shape spread over the suits
    one_suit = counts34(parse_tiles("1235789m11z22z"))
    spread = counts34(parse_tiles("123m5789p11z22z"))
    assert _jielu_potential(one_suit, []) > 2 * _jielu_potential(spread, [])


def _bench_bot_hands():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_bot_hands.py"
    spec = importlib.util.spec_from_file_location("bench_bot_hands", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_hand_dealt_again_from_its_start_is_played_as_in_the_game():
    # benchmarks/bench_bot_hands.py pairs single hands: each is dealt again from the state at its start (the same
    # wall) with two settings of the bot's constants. The game's first hand comes out as in the game (its bots are
    # as new as the replay's), and a hand played twice with the same constants comes out the same both times, or
    # the pairing would measure noise
    bench = _bench_bot_hands()
    starts, gained = bench.hand_starts("tenhou", 7, 2)
    assert len(starts) >= 8 and any(gained)
    again = [bench.play_hand("tenhou", 7, start, 2, {}) for start in starts]
    assert again[0] == gained[0]
    assert again == [bench.play_hand("tenhou", 7, start, 2, {}) for start in starts]
    assert sum(a == g for a, g in zip(again, gained, strict=True)) >= len(starts) // 2
    changed = [bench.play_hand("tenhou", 7, start, 2, {"TENPAI_SHARE": 0.0, "DEFENCE": 0.5}) for start in starts]
    assert strong.TENPAI_SHARE == 0.85 and strong.DEFENCE == 1.3  # the constants are set back after each hand
    assert changed != again  # a bot that hardly defends plays some hand differently


def test_the_hand_benchmark_names_a_constant_the_bot_does_not_have():
    bench = _bench_bot_hands()
    with pytest.raises(SystemExit, match="NO_SUCH"):
        bench.main(["--a", '{"NO_SUCH": 1}', "--seeds", "1"])
