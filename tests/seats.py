"""Tests' helper for the web table's seats: take every open seat of a new table as its invited person would."""

from typing import Any


def claim_all(client: Any, created: dict[str, Any]) -> dict[str, Any]:
    """Open each human seat's invitation of the table ``created`` (the answer to ``POST /api/tables``), as the
    person it was sent to would, and put the seat's token into ``created`` (returned, changed in place)."""
    for entry in created["seats"]:
        if entry["kind"] == "human" and not entry["claimed"]:
            r = client.post(f"/api/tables/{created['id']}/claim", json={"invite": entry["invite"]})
            assert r.status_code == 200, r.text
            entry.update(r.json(), claimed=True)
    return created


def create_claimed(manager: Any, *args: Any, **kwargs: Any) -> Any:
    """``manager.create(...)`` (a :class:`~jantaku.web.tables.TableManager`), then every open seat claimed as its
    invited person would (:meth:`~jantaku.web.tables.TableManager.claim`): each human seat then has its token."""
    table = manager.create(*args, **kwargs)
    for info in list(table.seats):
        if info.kind == "human" and not info.claimed:
            manager.claim(table.id, info.invite)
    return table
