"""The 洁律 fan table: :mod:`jantaku.rules.fantable` (a rule set's data, kept with the rules), under its older
name."""

from jantaku.rules.fantable import (
    FAMILIES,
    NO_WILDCARD_CAP,
    CombinationSpec,
    FanTable,
    FanTableError,
    default_fan_table,
    fan_table_from_mapping,
    load_fan_table,
    table_for_rules,
    with_points,
    with_win_rule,
)

__all__ = [
    "FAMILIES",
    "NO_WILDCARD_CAP",
    "CombinationSpec",
    "FanTable",
    "FanTableError",
    "default_fan_table",
    "fan_table_from_mapping",
    "load_fan_table",
    "table_for_rules",
    "with_points",
    "with_win_rule",
]
