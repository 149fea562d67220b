"""The suite's schedule (tests/conftest.py) names modules that exist, and puts them in its order."""

from pathlib import Path

import conftest

ROOT = Path(__file__).resolve().parent.parent


def test_every_heavy_module_exists():
    missing = [m for m in conftest.HEAVY_MODULES if not (ROOT / m).is_file()]
    assert not missing, f"tests/conftest.py HEAVY_MODULES names modules that are gone: {missing}"
    assert len(set(conftest.HEAVY_MODULES)) == len(conftest.HEAVY_MODULES)


class _Item:
    def __init__(self, nodeid: str, first: bool = False) -> None:
        self.nodeid = nodeid
        self.first = first

    def get_closest_marker(self, name: str) -> object:
        return object() if name == "first" and self.first else None


def test_first_then_heavy_longest_first_then_the_rest_in_their_order():
    items = [
        _Item("tests/test_tiles.py::test_a"),
        _Item("tests/test_wheel.py::test_b"),
        _Item("tests/e2e/test_e2e_league.py::test_c"),
        _Item("tests/e2e/test_e2e_serve.py::test_d", first=True),
        _Item("tests/test_tiles.py::test_e"),
    ]
    conftest.pytest_collection_modifyitems(items)
    assert [i.nodeid.rsplit("::", 1)[1] for i in items] == ["test_d", "test_c", "test_b", "test_a", "test_e"]
