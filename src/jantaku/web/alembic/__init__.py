"""The web table's Alembic scripts (:mod:`jantaku.web.store_migrations` runs them): ``env.py`` and ``versions/``.

A package, unlike the league recorder's folder, so that its ``env.py`` is collected as its own module beside the
league's; a revision's file is named after its id (``web0001_initial.py``) for the same reason.
"""
