"""The README's Python examples run as doctests."""

import doctest
from pathlib import Path

README = Path(__file__).parents[1] / "README.md"


def test_readme_examples():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 6
    assert result.failed == 0
