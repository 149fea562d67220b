"""All 40,000 reference hands (mjx, MIT) give exactly the recorded regular, kokushi and chiitoitsu shanten."""

from pathlib import Path

import numpy as np
import pytest

from jantaku import shanten, shanten_batch, shanten_batch_forms, shanten_forms

DATA = Path(__file__).parent / "data" / "shanten"
FILES = sorted(DATA.glob("p_*.txt"))


def _load(path):
    rows = np.loadtxt(path, dtype=np.int64)
    counts = np.zeros((len(rows), 34), np.int8)
    for j in range(14):
        np.add.at(counts, (np.arange(len(rows)), rows[:, j]), 1)
    return counts, rows[:, 14], rows[:, 15], rows[:, 16]


def test_all_four_files_are_there():
    assert [p.name for p in FILES] == ["p_hon_10000.txt", "p_koku_10000.txt", "p_normal_10000.txt", "p_tin_10000.txt"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_one_hand_api_matches_every_recorded_hand(path):
    counts, regular, kokushi, chiitoi = _load(path)
    assert len(counts) == 10_000
    mismatches = []
    for i, row in enumerate(counts.tolist()):
        s = shanten_forms(row)
        expected = (int(regular[i]), int(chiitoi[i]), int(kokushi[i]))
        if (s.regular, s.chiitoitsu, s.kokushi) != expected or shanten(row) != min(expected):
            mismatches.append((i, row, s, expected))
    assert not mismatches, mismatches[:3]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_batch_api_matches_every_recorded_hand(path):
    counts, regular, kokushi, chiitoi = _load(path)
    forms = shanten_batch_forms(counts)
    np.testing.assert_array_equal(forms[:, 0], regular)
    np.testing.assert_array_equal(forms[:, 1], chiitoi)
    np.testing.assert_array_equal(forms[:, 2], kokushi)
    np.testing.assert_array_equal(shanten_batch(counts), np.minimum(regular, np.minimum(kokushi, chiitoi)))
