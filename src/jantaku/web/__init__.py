"""The web table (``jantaku serve``): live play with bots and people, stored games, records and scoring.

- :mod:`jantaku.web.gamestore` and :mod:`jantaku.web.storage`: the
  :class:`~jantaku.web.gamestore.GameStore` interface and its store, SQLite or PostgreSQL;
- :mod:`jantaku.web.tables`: live tables, seat tokens, each seat's view and its actions;
- :mod:`jantaku.web.app`: the Starlette application (JSON API, websockets, the front end);
- :mod:`jantaku.web.svg`: the tiles drawn as SVG.
"""

from jantaku.extras import require_installed

# named here: any part of the web table says what to install (checked, not imported: a heavy-work process needs
# none of them)
require_installed(("starlette", "uvicorn", "websockets"), "web", "the web table")
