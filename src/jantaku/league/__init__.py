"""A league and tournament recorder: games played at physical tables, entered hand by hand (or by final
scores, or imported from an online record), checked and settled by the event's rule set with jantaku's own
engine, kept in SQLite or PostgreSQL, with seating, standings, an audit log and CSV/JSON export.

See the guide's "Leagues and tournaments" page and ``jantaku league --help``.
"""

from jantaku.extras import require_installed

# named here, so that any part of the recorder says what to install (checked, not imported: reading a record
# for an import needs neither)
require_installed(("sqlalchemy", "alembic"), "league", "the league recorder")
