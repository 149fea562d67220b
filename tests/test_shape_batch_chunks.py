"""shanten_batch works in chunks of CHUNK rows: the chunk edges change nothing, and errors name the right row."""

import numpy as np
import pytest

from jantaku.errors import HandError
from jantaku.shapes import shanten, shanten_batch, shanten_batch_forms, shanten_forms
from jantaku.shapes.batch import CHUNK


def random_hands(n, seed, tiles=(13, 14, 11, 8, 5, 2)):
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 34), np.int8)
    for i in range(n):
        for k in rng.choice(136, tiles[i % len(tiles)], replace=False) // 4:
            out[i, k] += 1
    return out


def test_batches_across_chunk_edges_equal_the_one_hand_functions():
    hands = random_hands(2 * CHUNK + 7, seed=5)
    got = shanten_batch(hands)
    forms = shanten_batch_forms(hands)
    assert got.shape == (len(hands),) and forms.shape == (len(hands), 3)
    want = [shanten(h.tolist()) for h in hands]
    assert got.tolist() == want
    for i in (0, CHUNK - 1, CHUNK, 2 * CHUNK, len(hands) - 1):
        f = shanten_forms(hands[i].tolist())
        assert forms[i].tolist() == [
            f.regular,
            99 if f.chiitoitsu is None else f.chiitoitsu,
            99 if f.kokushi is None else f.kokushi,
        ]
    # several kinds of input give one answer: int8, int64, a list of lists
    assert shanten_batch(hands.astype(np.int64)).tolist() == want
    assert shanten_batch(np.zeros((0, 34), np.int8)).shape == (0,)


def test_a_bad_row_in_a_later_chunk_is_named():
    hands = random_hands(CHUNK + 100, seed=6, tiles=(14,))
    hands[CHUNK + 42, :] = 0
    hands[CHUNK + 42, :3] = 4  # 12 tiles: 3n
    with pytest.raises(HandError, match=f"row {CHUNK + 42}: a hand has 3n\\+1 or 3n\\+2 closed tiles .* has 12"):
        shanten_batch(hands)
    hands[CHUNK + 42, :3] = (4, 4, 5)
    with pytest.raises(HandError, match=f"row {CHUNK + 42}: every count must be 0-4"):
        shanten_batch(hands)
