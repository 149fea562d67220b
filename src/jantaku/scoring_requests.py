"""One JSON scoring request of either family (``jantaku score --jsonl``, ``POST /api/score``): the request's rule
set picks the scorer, riichi (:mod:`jantaku.riichi.jsonio`) or 洁律 (:mod:`jantaku.jielu.jsonio`). This module
sits above both, so neither scoring family imports the other.

>>> score_json({"hand": "234m567p456s78999s", "win": "9s", "tsumo": True, "rules": "mleague"})["han"]
2
>>> score_json({"hand": "123m456m789m123p11z", "win": "1z", "tsumo": True, "rules": "jielu"})["score"]
14
"""

from __future__ import annotations

from typing import Any

from jantaku.errors import JantakuError
from jantaku.jielu.jsonio import score_request as score_jielu
from jantaku.riichi.jsonio import rules_family, score_riichi

__all__ = ["score_json"]


def score_json(obj: dict[str, Any]) -> dict[str, Any]:
    """Score one JSON request (see :mod:`jantaku.riichi.jsonio` for its fields); an invalid or non-winning hand
    gives ``{"error": "..."}``."""
    try:
        jielu = rules_family(obj) == "jielu"
    except JantakuError:
        jielu = False  # a bad rule set is reported by the riichi path
    return score_jielu(obj) if jielu else score_riichi(obj)
