"""The web table (``jantaku serve``): live play with bots and people, stored games, records and scoring.

- :mod:`jantaku.web.storage`: the :class:`~jantaku.web.storage.GameStore` interface and its SQLite store;
- :mod:`jantaku.web.tables`: live tables, seat tokens, each seat's view and its actions;
- :mod:`jantaku.web.app`: the Starlette application (JSON API, websockets, the front end);
- :mod:`jantaku.web.svg`: the tiles drawn as SVG.
"""

from jantaku.extras import require

for _module in ("starlette", "uvicorn", "websockets"):  # named here: any part of the web table says what to install
    require(_module, "web", "the web table")
