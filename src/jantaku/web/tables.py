"""The web server's live tables, under one name (the parts live in their own modules):

- :mod:`jantaku.web.options`: a table's options, the bots, paces, timers, lengths, ``jantaku serve``'s defaults;
- :mod:`jantaku.web.errors`: the server's errors and their HTTP statuses;
- :mod:`jantaku.web.views`: actions, names, scores, results and waits as JSON;
- :mod:`jantaku.web.live`: one live table (:class:`LiveTable`): seats, moves, the pace, views, listeners;
- :mod:`jantaku.web.manager`: the server's tables (:class:`TableManager`) and their clock.
"""

from __future__ import annotations

from .errors import BadRequest, Conflict, Forbidden, NotFound, TooManyRequests, Unavailable, WebError
from .live import Commit, LiveTable, SeatInfo, _Hold, _Listener, _Shadow, _short, play_bots_only, rebuild_table  # noqa: F401
from .manager import TableManager
from .options import (  # noqa: F401
    _ANNOUNCED,
    _ANSWER_PHASES,
    _EARLY,
    _PUBLIC_PHASES,
    _SPECTATOR_KEYS,
    _WINDOW_KINDS,
    _WINDS,
    AUTO_KEYS,
    BOT_GAMES_DAYS,
    BOTS,
    CLOCK_IDLE,
    LENGTHS,
    MAX_PACE_MS,
    PACES,
    RESULT_SECONDS_MAX,
    SERVE_DEFAULTS,
    SPECTATOR,
    TABLE_FAMILIES,
    TIMERS,
    UNWATCHED_SECONDS,
    WAITING,
    TableOptions,
    _is_int,
    _no_auto,
    playable_presets,
    table_rules,
)
from .views import (  # noqa: F401
    _DORA_NAMES,
    _WIND_NAMES,
    JIELU_FAN_ENGLISH,
    _fan_json,
    _japanese_yaku_index,
    _kind_name,
    _meld_json,
    _regular_waits,
    _sorted_ids,
    _win_score_json,
    _win_tiles,
    _yaku_json,
    action_from_json,
    action_to_json,
    all_yaku_names,
    hand_result_json,
    jielu_score_json,
    record_yaku_names,
    waits_json,
    yaku_names,
)

__all__ = [
    "BOTS",
    "LENGTHS",
    "PACES",
    "SERVE_DEFAULTS",
    "TIMERS",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "LiveTable",
    "NotFound",
    "TableManager",
    "TableOptions",
    "TooManyRequests",
    "Unavailable",
    "WebError",
    "action_from_json",
    "action_to_json",
    "playable_presets",
    "table_rules",
]
