"""Rule sets as data: :class:`Ruleset`, the presets and user rule files.

>>> from jantaku.rules import load_rules, preset_names
>>> preset_names()
['jielu', 'jielu_original', 'mahjongsoul', 'meibi', 'mleague', 'mu', 'standard', 'tenhou']
"""

from .loader import (
    diff_rules,
    load_rules,
    preset_names,
    rule_changes,
    rules_as_mapping,
    rules_from_mapping,
    rules_with_changes,
)
from .ruleset import RulesError, Ruleset

__all__ = [
    "RulesError",
    "Ruleset",
    "diff_rules",
    "load_rules",
    "preset_names",
    "rule_changes",
    "rules_as_mapping",
    "rules_from_mapping",
    "rules_with_changes",
]
