"""A process that holds a table another process moved reads the stored table and applies only the moves made
since (:func:`jantaku.web.live.catch_up`), instead of replaying the whole game at every move: what it then shows
every seat and a spectator is what a table rebuilt from the store shows, at every change of a whole game (a
person on a timer, three bots at a pace, call windows, held hands, a link reissued)."""

from __future__ import annotations

from jantaku.web.live import catch_up, rebuild_table
from jantaku.web.storage import SqliteStore
from jantaku.web.tables import SPECTATOR, TableManager, TableOptions
from seats import create_claimed


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _views(table) -> list:
    seats = [table.view(s) for s in range(4)]
    return [*seats, table.spectator_view(), [table.seen_key(s) for s in (0, 1, 2, 3, SPECTATOR)], table.timing()]


def _choose(v: dict) -> int:
    acts = v["actions"]
    # take a call or a win now and then, so that windows, calls and wins are caught up too
    for a in acts:
        if a["type"] in ("tsumo", "ron", "pon", "chi", "reach"):
            return a["index"]
    for a in reversed(acts):
        if a["type"] == "dahai" and a["tsumogiri"]:
            return a["index"]
    return acts[-1]["index"]


def test_a_table_moved_elsewhere_is_caught_up_as_a_rebuild_would_show_it(tmp_path):
    clock = Clock()
    path = str(tmp_path / "games.db")
    mover = TableManager(SqliteStore(path), clock=clock)
    reader = TableManager(SqliteStore(path), clock=clock)
    options = TableOptions(pace=200, result_seconds=5, timer="5+10", length="east")
    t = create_claimed(mover, "tenhou", ["human", "efficiency", "efficiency", "efficiency"], seed="catch-1",
                       options=options)  # fmt: skip
    held = reader.get(t.id)
    game = held.game
    checked = caught = 0
    reissued = False
    while not t.over and clock.now < 1000 + 3600:
        before = t.step, t.version
        v = t.view(0)
        if v["actions"] and clock.now % 3 < 0.02:
            mover.act(t.id, t.seats[0].token, v["step"], _choose(v))
        elif v["hold"] is not None and not v["hold"]["ready"]:
            mover.ready(t.id, t.seats[0].token)
        else:
            clock.now = round(clock.now + 0.01, 6)
            mover.run_due()
        if not reissued and len(t.hand_results) == 1:
            mover.reissue(t.id, t.seats[0].token, 0)  # the person takes a new link
            reissued = True
        if (t.step, t.version) == before:
            continue
        held = reader.get(t.id)  # reads the store again: the mover's change
        stored = reader.store.get_table(t.id) or reader.store.get_finished_table(t.id)
        rebuilt = rebuild_table(stored, clock, None, clock)
        assert held.actions == t.actions
        assert _views(held) == _views(rebuilt), f"step {t.step}"
        checked += 1
        caught += held.game is game  # the same game object, moved on (not a replay from the start)
    assert t.over and len(t.hand_results) >= 4
    assert checked > 100 and caught == checked, (checked, caught)


def test_a_table_that_does_not_extend_the_one_held_is_not_caught_up(tmp_path):
    clock = Clock()
    path = str(tmp_path / "games.db")
    m = TableManager(SqliteStore(path), clock=clock)
    a = create_claimed(m, "tenhou", ["human", "efficiency", "efficiency", "efficiency"], seed="catch-2")
    b = create_claimed(m, "tenhou", ["human", "efficiency", "efficiency", "efficiency"], seed="catch-3")
    while a.step < 10:
        v = a.view(0)
        m.act(a.id, a.seats[0].token, v["step"], _choose(v))
    stored_b = m.store.get_table(b.id)
    steps = a.step
    assert not catch_up(a, stored_b) and a.step == steps  # another table's: nothing changed
    stored_a = m.store.get_table(a.id)
    cut = type(stored_a)(**{**stored_a.__dict__, "actions": stored_a.actions[:-1]})
    assert not catch_up(a, cut) and a.step == steps  # fewer actions than held
    other = type(stored_a)(**{**stored_a.__dict__, "options": {**stored_a.options, "length": "east"}})
    assert not catch_up(a, other) and a.step == steps  # other options


def test_stored_options_of_the_wrong_kind_fall_back_to_the_defaults():
    """A stored table's options are read back whatever a row holds: a value of the wrong kind (a dict or a list
    where a name is stored) falls back to the default instead of raising from inside the lookup."""
    assert TableOptions.from_json({"timer": {"a": 1}, "length": ["east"], "pace": "x"}) == TableOptions()
    assert TableOptions.from_json({"timer": "5+10", "length": "east"}) == TableOptions(timer="5+10", length="east")
