"""The rule set: one frozen object holding every parameter a game or a score depends on.

Each field is documented once, here, with its default and the rule document and article it comes from: the
code before an article names the document (000 μ 2021, 001 M-League 2023-08-11, 002 the general online rules,
003 眉笔 league, 004 洁律麻将; see :mod:`jantaku.rules.sources`) and ``decision`` marks a value the project
chose where the documents are silent. Presets are TOML files that set some of these fields (the
``presets`` folder beside this module); a field a preset does not set keeps the default below, which is the general
online rule set's value (002).

>>> from jantaku.rules import load_rules
>>> r = load_rules("mleague")
>>> r.kiriage, r.starting_points, r.rank_points, r.multiple_ron
(True, 25000, (50000, 10000, -10000, -30000), 'head_bump')
>>> r.replace(kiriage=False).kiriage
False
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, get_args, get_origin, get_type_hints

from jantaku.errors import JantakuError

__all__ = ["PARAMETER_CHOICES", "RulesError", "Ruleset"]


class RulesError(JantakuError):
    """A rule set that cannot be loaded: unknown preset, unknown key, bad value."""


def _p(default: Any, doc: str, source: str, choices: tuple[str, ...] | None = None) -> Any:
    meta = {"doc": doc, "source": source}
    if choices is not None:
        meta["choices"] = choices
    return field(default=default, metadata=meta)


ABORTIVE_DRAWS = ("nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron")
PAO_YAKU = ("daisangen", "daisuushii", "suukantsu")
DOUBLE_YAKUMAN_PATTERNS = ("kokushi_musou_13", "suuankou_tanki", "junsei_chuuren_poutou", "daisuushii")


@dataclass(frozen=True)
class Ruleset:
    """Every parameter of a rule set. Build with :func:`jantaku.rules.load_rules`; change with :meth:`replace`."""

    coerce: ClassVar[Callable[[str, Any], Any] | None] = None
    """The value checker :meth:`replace` uses (set by :mod:`jantaku.rules.loader`)."""

    # -- identity -----------------------------------------------------------------------------------------
    name: str = _p("custom", "Short name of the rule set (a preset's name, or the user's).", "-")
    title: str = _p("custom rule set", "One-line description shown by `jantaku rules`.", "-")
    family: str = _p(
        "riichi",
        "Which scoring family: riichi (yaku, fu, han) or jielu (additive fans).",
        "decision",
        ("riichi", "jielu"),
    )

    # -- the game -----------------------------------------------------------------------------------------
    rounds: int = _p(2, "Prevailing winds played: 1 East only, 2 East+South.", "000 Art 23-24; 001 1章1条; 002 1.2")
    starting_points: int = _p(25000, "Each player's points at the start.", "001 6章1条; 002 3.4; 003 6章1条")
    return_points: int = _p(30000, "The zero line for final scores (genten).", "001 6章2条; 002 3.4; 003 6章2条")
    rank_points: tuple[int, int, int, int] = _p(
        (40000, 10000, -10000, -20000),
        "Points added by final rank, 1st to 4th, including the oka to first.",
        "001 6章2条3; 002 3.4; 003 6章2条3; μ: decision",
    )
    tie_break: str = _p(
        "seat_order",
        "Equal final points: split the rank points equally, or rank by seat order from the first dealer.",
        "001 6章2条6; 003 6章2条6; 000 silent (decision)",
        ("split", "seat_order"),
    )
    final_rounding: str = _p(
        "none",
        "Final scores: `none` exact (to 0.1, as points move in hundreds: newer Tenhou games print 48.2, -35.3; "
        "Mahjong Soul's 43,600 -> +33.6); `tenhou` Tenhou's five-down/six-up: every player but first has the "
        "distance from `return_points` rounded to whole thousands (500 and less dropped, 600 and more rounded "
        "up, on its magnitude) before rank points, first place getting minus the others' sum; `half_up` the "
        "same with 500 rounded up (+1,500 gives +2, -1,500 gives -2), as some older Tenhou games settle.",
        "Tenhou (its logs' owari values, older games half up, newer ones exact); Mahjong Soul (exact); "
        "the documents are silent",
        ("none", "tenhou", "half_up"),
    )
    tie_split_unit: int = _p(
        5000,
        "With tie_break = split: shares of tied players' rank points that do not divide evenly are multiples of "
        "this many points, the remainder going to the seats nearest the first dealer (leftover riichi sticks: "
        "multiples of 100).",
        "001 6章2条6 (its example splits 50pt three ways as 20/15/15 and one stick as 400/300/300)",
    )
    leftover_deposits: str = _p(
        "first",
        "Riichi sticks still on the table when the game ends: to nobody, to first place, or to first place only "
        "when first is decided (else split among those tied for first).",
        "001 6章2条5; 003 6章2条5-6; 000 Art 43",
        ("nobody", "first", "first_if_decided"),
    )
    bust: bool = _p(True, "A player's points below zero end the game.", "002 1.2; 001 (play on): decision")
    bust_at_zero: bool = _p(
        True,
        "With `bust`: exactly 0 points ends the game too (0 or below); False: only below 0.",
        "002 1.2 擊飛: 有人點數在0點以下時 (以下 includes 0); 003 3章2条4 小于0; Tenhou: below 0",
    )
    west_round: bool = _p(
        True, "If nobody reaches `west_round_target` after the last hand, play on into West.", "002 1.2; 003 6章2条7"
    )
    west_round_target: int = _p(30000, "Points that end the extra round at once (sudden death).", "002; 003 6章2条7")
    west_round_strict: bool = _p(
        False,
        "The west round is entered unless someone is strictly over `west_round_target`, and ends only when "
        "someone is strictly over it (exactly the target plays on); False: at the target or more (Tenhou).",
        "003 6章2条7 没有选手超过35000点 ... 直到有选手超过35000点时比赛结束; 002 1.2 有人在原點以上時; Tenhou",
    )
    west_last_draw_ends: bool = _p(
        False,
        "A draw (exhaustive or abortive) in the west round's last hand (West 4) ends the game, even with the "
        "dealer keeping the deal; False: the dealer's renchan plays West 4 again.",
        "003 6章2条7 如果西4局流局后仍没有选手达到35000点，则比赛直接结束; 002 and Tenhou: silent (decision: the "
        "dealer keeps the deal)",
    )
    agari_yame: bool = _p(
        True,
        "All-last: the game ends when the dealer wins or is tenpai while first with at least `return_points`.",
        "002 (Tenhou); 000/001/003: no (decision)",
    )
    tenpai_yame: str = _p(
        "never",
        "All-last, the dealer tenpai at an exhaustive draw while first with at least `return_points`: the game "
        "goes on, ends, or the dealer chooses (Tenhou asks: its logs show both).",
        "real Tenhou logs; 000/001/003: no stop",
        ("never", "auto", "choice"),
    )
    abortive_yame: bool = _p(
        False,
        "All-last, an abortive draw (which the dealer repeats) while the dealer is first with `return_points`: "
        "the game ends, as after a win with `agari_yame`.",
        "002 1.2 莊家連莊時超過原點且成為首位時 (途中流局: 莊家連莊); Tenhou: the game goes on",
    )
    yame_strict: bool = _p(
        True,
        "The all-last dealer's stop (agari_yame, tenpai_yame, abortive_yame) needs strictly more than "
        "`return_points`; False: `return_points` or more (Tenhou).",
        "002 1.2 超過原點; Tenhou (30,000 or more)",
    )
    dealer_repeats: bool = _p(
        True,
        "The dealer deals again after winning or being tenpai at a draw (renchan); False: the deal always passes "
        "on, so a game of `rounds` = 1 is four hands, each player dealing once.",
        "002 1.2; 004 (decision: a game is 4 hands)",
    )
    final_unit: int = _p(
        1000,
        "Points per unit of the final score: final = (points - return_points + rank points) / final_unit "
        "(1000: the usual rank points 'pt'; 1: raw points, as 洁律 keeps them).",
        "001 6章2条; decision",
    )
    time_limit_minutes: float = _p(
        0.0, "End the game after the hand in which this much time has passed (0: no limit).", "000 Art 24(2)"
    )
    time_limit_hands: int = _p(
        0, "End the game after the hand in which this many hands have been played (0: no limit).", "000 Art 24(2)"
    )

    # -- tiles and dora -----------------------------------------------------------------------------------
    red_fives: tuple[int, int, int] = _p((1, 1, 1), "Red fives per suit (m, p, s): 0 or 1.", "001 1章2条2; 002 1.1")
    kan_dora: bool = _p(True, "Each kan reveals a new dora indicator.", "000 Art 16 (none); 001 2章6条; 003 2章6条2")
    kan_dora_timing: str = _p(
        "closed_now_open_after_discard",
        "When a kan's new indicator turns: at once for every kan, or at once for a closed kan and after the "
        "replacement tile's discard for an open or added kan (Tenhou).",
        "001 2章6条; 002 (Tenhou): decision",
        ("immediate", "closed_now_open_after_discard"),
    )
    ura_dora: bool = _p(True, "A riichi winner reveals ura dora (under every indicator, kan ones too).", "001 2章6条3")
    ippatsu: bool = _p(True, "Ippatsu is a yaku (1 han, never the only yaku).", "001 9章1条3; 002 2.1; 000: none")
    max_kans: int = _p(
        4,
        "Kans allowed in one hand over all players (4: a fifth is never allowed; 16: no limit).",
        "000 Art 29; 004 (no dead wall, no limit)",
    )

    # -- scoring --------------------------------------------------------------------------------------------
    min_han: int = _p(1, "Han from yaku (dora excluded) needed to win.", "000 Art 62; 001 1章3条")
    open_tanyao: bool = _p(True, "Tanyao counts in an open hand (kuitan).", "000 Art 51(2); decision")
    kiriage: bool = _p(False, "4 han 30 fu and 3 han 60 fu are rounded up to mangan.", "001 6章4条2; 003 6章6条")
    kazoe_yakuman: bool = _p(
        True, "13 han or more without a yakuman scores a yakuman (else sanbaiman).", "002 3.2; 003 6章6条2; 001 6章6条2"
    )
    yakuman_stacking: bool = _p(
        True, "Several yakuman in one hand add up (double, triple); else they count as one.", "000 Art 54; 001 6章6条"
    )
    double_yakuman: frozenset[str] = _p(
        frozenset(),
        "Yakuman patterns scored as double yakuman.",
        "decision (all presets: none)",
        DOUBLE_YAKUMAN_PATTERNS,
    )
    double_wind_pair_fu: int = _p(
        4, "Fu for a pair of the seat wind that is also the round wind.", "002 3.1; 001 6章3条"
    )
    renhou: str = _p(
        "none",
        "Winning by ron before one's first draw: not a yaku, a mangan, or a yakuman.",
        "none of the documents has it (decision)",
        ("none", "mangan", "yakuman"),
    )
    ryuuiisou_needs_hatsu: bool = _p(False, "All-green needs the green dragon.", "001 9章5条6; 003 9章5条6")
    honba_points: int = _p(300, "Points per honba stick on a win (100 per payer on tsumo).", "002 3.3; 001 3章13条")
    payment_rounding: int = _p(100, "Payments round up to this.", "002 3.3 (000 Art 58 'tens' is a slip: decision)")
    pao: frozenset[str] = _p(
        frozenset({"daisangen", "daisuushii"}),
        "Yakuman for which the player who fed the completing meld is liable.",
        "000 Art 67; 001 8章1条; 002 3.3; 003 8章1条",
        PAO_YAKU,
    )
    pao_shown_sets: bool = _p(
        True,
        "Pao needs the other sets shown before the feeding call (called, or declared as closed kans); False: "
        "any call that completes the sets makes its feeder liable, sets still concealed in the hand included.",
        "001 8章1条1 出现暗杠或副露的两种三元牌的情况下; 003 8章1条1 已暗槓以及副露的三元牌达到两种时; 000 Art 67 and "
        "002 3.3 do not say shown (decision: shown, as a feeder can only be held to what the table shows)",
    )
    pao_honba: str = _p(
        "liable",
        "Who pays the honba of a ron with pao: the liable player, the discarder, or `shared`: the two payers "
        "halve it (on tsumo the liable player, the only payer, pays it all).",
        "001 8章1条2; 003 8章1条2; Tenhou: the liable player (real log 2010060416gm-0061-0000-2d91fbe3); 002 3.3 "
        "本場清算…由支付者均攤: shared by the payers",
        ("liable", "discarder", "shared"),
    )
    pao_scope: str = _p(
        "yakuman",
        "What pao covers when the liable yakuman comes with other yakuman: `yakuman` only the liable "
        "yakuman's value (tsumo: the liable player pays it alone, the rest is shared as a normal tsumo; ron: "
        "liable player and discarder halve it, the discarder pays the rest), or `hand` the whole hand (tsumo: "
        "the liable player pays everything, honba included; ron: liable player and discarder halve the whole "
        "hand).",
        "001 8章1条 (the liable yakuman); Tenhou: the whole hand (a real game: daisangen by pao plus "
        "tsuuiisou, tsumo, 3 honba: the liable player paid 64,000 + 900, the others nothing); Mahjong Soul: "
        "the liable yakuman only",
        ("yakuman", "hand"),
    )

    # -- the table ------------------------------------------------------------------------------------------
    multiple_ron: str = _p(
        "double",
        "Several rons on one discard: only the first from the discarder wins (head bump), two may win "
        "(three abort the hand if `triple_ron` is an abortive draw), or all win.",
        "000 Art 65; 001 5章1条3; 002 3.3; 003 decision",
        ("head_bump", "double", "all"),
    )
    abortive_draws: frozenset[str] = _p(
        frozenset(ABORTIVE_DRAWS),
        "Abortive draws in play (nine terminals is the player's choice).",
        "002 1.2 途中流局; 000 Art 19 (a hand ends by a win or the exhaustive draw only: none); 001 3章11条1 "
        "(任何情况下都没有途中流局: none); 003 3章2条3 (四家立直、四风连打、四杠散了、九种九牌)",
        ABORTIVE_DRAWS,
    )
    nagashi_mangan: bool = _p(True, "Nagashi mangan at an exhaustive draw, paid as a mangan tsumo.", "002 1.2")
    nagashi_renchan: bool = _p(
        False,
        "Nagashi mangan is treated like tenpai for the dealer's repeat (else only real tenpai counts: a noten "
        "dealer who makes nagashi passes the deal, and the honba counter goes up as at any draw).",
        "002 1.2 流局滿貫 then 流程: 莊家聽牌時連莊…莊家不聽牌時輪莊; 003 3章11条4 '流局满贯不影响连庄结算'; Tenhou "
        "(a real game: a noten dealer's nagashi passed the deal)",
    )
    abortive_renchan: str = _p(
        "always",
        "After an abortive draw the dealer always deals again, or only when tenpai (a dealer who declared nine "
        "terminals holds 14 tiles and is not tenpai).",
        "002 1.5 途中流局: 莊家連莊; 003 3章11条1 (abortive draws are 流局) and 3章12条3 "
        "流局时听牌是连庄，其余状态都是轮庄",
        ("always", "tenpai"),
    )
    noten_payment: int = _p(
        3000, "Points the noten players pay the tenpai players at an exhaustive draw.", "000 Art 71"
    )
    formal_tenpai: bool = _p(True, "A tenpai hand with no yaku counts as tenpai at a draw.", "decision")
    tenpai_silence: str = _p(
        "none",
        "At an exhaustive draw, which tenpai players may stay silent (declare noten, pay as noten; a dealer "
        "does so to pass the deal): nobody (every tenpai hand shows), anyone not in riichi, or only a naked "
        "single wait (one closed tile left). A riichi hand always shows.",
        "000 Art 22(2), 71; 001 3章11条3 (裸单骑可以宣告未听); 003 3章11条3; 002 1.5 (不聽 is a state: none); "
        "Tenhou shows every tenpai hand (its logs: 470 tenpai hands at 270 exhaustive draws, none silent)",
        ("none", "anyone", "naked_single_wait"),
    )
    karaten_is_noten: bool = _p(
        False, "A wait whose every tile is in the player's own hand and melds is not tenpai.", "003 (decision)"
    )
    honba_on_dealer_win: bool = _p(True, "The honba counter grows when the dealer wins.", "002 3.3; 001 3章13条")
    honba_on_draw: bool = _p(True, "The honba counter grows at every draw (exhaustive or abortive).", "002 3.3")
    kuikae: str = _p(
        "forbidden",
        "Discarding, right after a call, a tile that the call's tiles could have taken the same way.",
        "001 7章2条2(3); 003 7章2条2(3) (食替, with 4章3条-4条 on calls); 000 (allowed)",
        ("allowed", "forbidden"),
    )
    chankan_closed_kan: str = _p(
        "kokushi",
        "Robbing a closed kan: never, or only for thirteen orphans.",
        "002; 000/001 never (decision)",
        ("never", "kokushi"),
    )
    kan_after_riichi: str = _p(
        "closed_unchanged",
        "Kan after riichi: none at all, or a closed kan that changes neither the waits nor the decomposition "
        "(closed_unchanged), and besides not the number of yaku: no third or fourth kan of the player, "
        "which would add sankantsu or suukantsu (closed_same_yaku).",
        "001 4章8条8, 4章5条2 (也不可以增减手役的数量); 003 4章5条2 (不考虑役的增减); 000 Art 36-41",
        ("none", "closed_unchanged", "closed_same_yaku"),
    )
    riichi_min_wall: int = _p(
        4, "Tiles that must remain in the live wall for a riichi declaration.", "002 (Tenhou); 000: 1 (decision)"
    )
    riichi_min_points: int = _p(1000, "Points a player needs to declare riichi.", "002 (Tenhou); 000 (none)")
    seating: str = _p(
        "standard",
        "How seats and the first dealer are drawn.",
        "000 Art 8-10; 001 3章1条; 002 1.2; 003 3章1条",
        ("mu", "mleague", "standard", "meibi"),
    )
    chombo_penalty: int = _p(
        8000,
        "Chombo: points paid (a mangan-sized sum, split like a mangan tsumo) or 0 when `chombo_pt` applies instead.",
        "002; 000 Art 68; 001 7章",
    )
    chombo_pt: float = _p(0.0, "Chombo: rank points deducted from the final score (μ/M-League: 20).", "000 Art 68")
    chombo_adds_honba: bool = _p(
        True,
        "The replayed hand after a chombo counts one more honba.",
        "003 7章4条6 (本场棒不增加); 001 7章4条6 此局均重新进行 with 3章13条1 (only 连庄或平局 add one)",
    )
    deliberate_chombo_factor: int = _p(
        1, "A chombo the referee rules deliberate costs this many times the penalty.", "001 7章4条3; 003 7章4条3"
    )
    cards: bool = _p(False, "The referee shows yellow and red cards.", "001 7章5条; 003 7章5条; 000, 002: none")
    yellows_per_red: int = _p(
        2, "With `cards`: this many yellow cards in one day make a red card.", "001 7章5条3; 003 7章5条3"
    )
    red_card_pt: float = _p(
        20.0,
        "With `cards`: rank points a red card deducts from the final score (as a chombo).",
        "001 7章5条4 (和错和处罚方式相同（从个人总分中扣除20pt）); 003 7章5条4",
    )

    # -- the table without riichi's machinery (洁律) ------------------------------------------------------------
    dead_wall: bool = _p(
        True,
        "A dead wall of 14 tiles holds the dora indicators and the kan replacement tiles. False: no dead wall, "
        "no dora, every tile is drawn, and a kan's replacement comes from the wall's tail.",
        "002 1.1; 004 不设置王牌",
    )
    furiten: bool = _p(True, "Furiten rules apply (discard, temporary, riichi).", "000 Art 64; 004 无振听 (none)")
    riichi: bool = _p(True, "Riichi may be declared.", "000 Art 33; 004 (no riichi)")
    last_discard_calls: bool = _p(
        False,
        "The last discard may be called, and a kan may be declared on the last tile (its replacement, if the wall "
        "is empty, never comes and the hand ends).",
        "002 (no calls on the last discard); 004 海底牌可副露开杠",
    )
    kan_after_call: bool = _p(
        False, "Right after a chi or pon the caller may declare a kan before discarding.", "004 吃碰后可开杠"
    )

    # -- jielu (洁律) -----------------------------------------------------------------------------------------
    jielu_mode: str = _p(
        "points",
        "洁律 payment mode: 积分制 (up to three winners, x3/x2/x1) or the original (one winner, 3x(S-4)).",
        "004; decision",
        ("points", "original"),
    )
    jielu_fans: tuple[tuple[str, int], ...] = _p(
        (),
        "洁律 fan values replacing the shipped proposal's: a `[jielu_fans]` table of fan name = points (1-1000) "
        "in a rule file; empty: the shipped table (the project's proposal, as the document's table did not "
        "survive).",
        "004 番种表 (values lost); decision",
    )
    jielu_max_wildcards: int = _p(
        14,
        "洁律: the most wildcards a win may use (0-14; 14, the default: no cap, as the document sets none). A "
        "rule-maker's option, not in the document: with a cap, a hand may win only if some choice of at most "
        "that many wildcards reaches `jielu_min_score`, and it is scored on the best such choice. The wildcard "
        "a non-winner receives at the end of a hand counts against the cap, but is never taken away (a cap of 0 "
        "still lets it complete the hand): a completed hand holds no more wildcards than a win may.",
        "004 和牌时可将任意张未固定的手牌视为万能牌 (any number of tiles) and 未和牌时补充一张万能牌; the cap is a "
        "rule-maker's option (decision)",
    )
    jielu_min_score: int = _p(
        1,
        "洁律: the least score S (after the wildcards' halving) a win needs (1-32; 1, the default, is the "
        "document's). A rule-maker's option above 1, not in the document: a hand worth less may not win. A "
        "non-winner's hand completed at the end of a hand is not a win and is paid whatever it scores.",
        "004 1分起和 (1); a higher minimum is a rule-maker's option (decision)",
    )

    def replace(self, **changes: Any) -> Ruleset:
        """A copy with some parameters changed (values are validated like a preset's, by the loader's
        :func:`~jantaku.rules.loader.coerce_value`, which :mod:`jantaku.rules` hands to this class as it loads:
        the loader reads this class's fields, so this module cannot import it)."""
        coerce = Ruleset.coerce
        if coerce is None:  # pragma: no cover - jantaku.rules is always imported before this module
            raise RulesError("jantaku.rules.loader is not loaded")
        checked = {k: coerce(k, v) for k, v in changes.items()}
        return dataclasses.replace(self, **checked)

    @classmethod
    def parameters(cls) -> list[dataclasses.Field[Any]]:
        """The documented parameters, in declaration order."""
        return list(dataclasses.fields(cls))

    @property
    def red_five_count(self) -> int:
        return sum(self.red_fives)


def _choices() -> dict[str, tuple[str, ...]]:
    return {f.name: f.metadata["choices"] for f in dataclasses.fields(Ruleset) if "choices" in f.metadata}


PARAMETER_CHOICES = _choices()
"""Allowed values of each text or set parameter that has a fixed list."""

_HINTS = get_type_hints(Ruleset)


def field_type(name: str) -> Any:
    """The annotated type of a parameter."""
    return _HINTS[name]


def is_set_type(tp: Any) -> bool:
    return get_origin(tp) is frozenset


def is_tuple_type(tp: Any) -> bool:
    return get_origin(tp) is tuple


def tuple_arity(tp: Any) -> int:
    return len(get_args(tp))
