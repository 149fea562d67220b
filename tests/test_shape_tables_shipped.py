"""The shipped block tables (src/jantaku/shapes/blocks.xz) equal a fresh computation, and a broken file is
never used: the tables are then computed."""

import lzma

import numpy as np
import pytest

from jantaku.shapes import tables as T


def test_shipped_file_equals_a_fresh_computation():
    shipped = T.decode_blocks(T.SHIPPED_TABLES.read_bytes())
    fresh = T._compute_blocks()
    for got, want in zip(shipped, fresh, strict=True):
        assert got.shape == want.shape
        assert np.array_equal(got, want)


def test_loaded_and_computed_table_sets_agree():
    a, b = T.TableSet(), T.TableSet(compute=True)
    for name in ("suit_local", "honor_local", "mp_np", "mps_np", "final_np"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.distances(bytes([1, 1, 1] + [0] * 31)) == b.distances(bytes([1, 1, 1] + [0] * 31))


@pytest.mark.parametrize("data", [b"", b"not lzma", lzma.compress(b"a valid lzma stream, not a table file")])
def test_unreadable_file_is_refused(data):
    with pytest.raises((ValueError, lzma.LZMAError)):
        T.decode_blocks(data)


def test_missing_file_falls_back_to_computing(tmp_path, monkeypatch):
    monkeypatch.setattr(T, "SHIPPED_TABLES", tmp_path / "missing.xz")
    assert T._read_shipped() is None
    broken = tmp_path / "broken.xz"
    broken.write_bytes(b"\xfd7zXZ garbage")
    monkeypatch.setattr(T, "SHIPPED_TABLES", broken)
    assert T._read_shipped() is None


@pytest.mark.parametrize(("n_pos", "runs"), [(9, True), (7, False)])
def test_the_block_distance_table_read_from_the_shipped_rows_is_the_computed_one(n_pos, runs, monkeypatch):
    read = T.block_distance_table.__wrapped__(n_pos)
    assert read.dtype == np.uint8 and np.array_equal(read, T.distance_table(n_pos, runs))
    monkeypatch.setattr(T, "SHIPPED_TABLES", T.SHIPPED_TABLES.with_name("missing.xz"))  # then it is computed
    assert np.array_equal(T.block_distance_table.__wrapped__(n_pos), read)
    with pytest.raises(ValueError, match=r"9 \(suit\) or 7"):
        T.block_distance_table.__wrapped__(8)
