"""Rebuild ``src/jantaku/shapes/blocks.xz``, the shipped block tables of the shape functions.

Run it after a change to how :mod:`jantaku.shapes.tables` computes its distance tables;
``tests/test_shape_tables_shipped.py`` fails until the file is rebuilt.
"""

from jantaku.shapes.tables import SHIPPED_TABLES, _compute_blocks, encode_blocks

if __name__ == "__main__":
    SHIPPED_TABLES.write_bytes(encode_blocks(_compute_blocks()))
    print(f"wrote {SHIPPED_TABLES} ({SHIPPED_TABLES.stat().st_size} bytes)")
