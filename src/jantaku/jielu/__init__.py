"""洁律麻将 (jielu): additive fans, wildcards, several winners - the scoring half.

The 洁律麻将 rules document defines the fans; its point table did not survive, so the values in ``fans.toml``
are this project's proposal (the reasons: docs/rules/sources.md). Modules, one job each:

- :mod:`~jantaku.jielu.fantable`: the fan table file (points, combination definitions, the 32/24 rule);
- :mod:`~jantaku.jielu.melds`: compact meld codes and content masks;
- :mod:`~jantaku.jielu.combos`: the generic combination-fan matcher and the exact best assignment;
- :mod:`~jantaku.jielu.wholehand`: suit, number, honor, shape and incidental fans;
- :mod:`~jantaku.jielu.evaluate`: the value of one reading (steps 1-2);
- :mod:`~jantaku.jielu.bounds` and :mod:`~jantaku.jielu.search`: the optimiser over readings and wildcards;
- :mod:`~jantaku.jielu.wincheck`: the legal-win check, compiled (numba), which a table asks on every discard;
- :mod:`~jantaku.jielu.conditions`: the circumstances of a win (riichi's ``WinConditions``, checked);
- :mod:`~jantaku.jielu.scoring`: :func:`score_hand`, the result and its explanation, :func:`can_win`,
  :func:`can_win_counts`;
- :mod:`~jantaku.jielu.payments`: the two payment modes (积分制 and the original) and pao;
- :mod:`~jantaku.jielu.jsonio`: the JSON request and result (``jantaku score --rules jielu --jsonl``).

>>> from jantaku import Hand
>>> r = score_hand(Hand.parse("123m456m789m123p11z"), tsumo=True)
>>> r.score, [f.name for f in r.fans]
(14, ['三连顺', '九数齐', '平和', '自摸和'])
"""

from .errors import FanTableError, JieluError, WildcardError
from .fantable import CombinationSpec, FanTable, default_fan_table, load_fan_table
from .payments import PaoClaim, original_payments, points_mode_scores, ron_order
from .scoring import FanScore, JieluResult, Wildcard, best_value, can_win, can_win_counts, score_hand

__all__ = [
    "CombinationSpec",
    "FanScore",
    "FanTable",
    "FanTableError",
    "JieluError",
    "JieluResult",
    "PaoClaim",
    "Wildcard",
    "WildcardError",
    "best_value",
    "can_win",
    "can_win_counts",
    "default_fan_table",
    "load_fan_table",
    "original_payments",
    "points_mode_scores",
    "ron_order",
    "score_hand",
]
