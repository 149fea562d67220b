"""Errors raised while reading game records, and reading a record file's bytes safely.

>>> from jantaku.errors import JantakuError
>>> issubclass(RecordError, JantakuError), issubclass(RecordError, ValueError)
(True, True)
>>> gunzip(bytes([0x1F, 0x8B, 8, 0]) + b" not really gzip", "x.mjlog.gz")
Traceback (most recent call last):
...
jantaku.records.errors.RecordError: x.mjlog.gz: broken gzip data (invalid code lengths set)
"""

from __future__ import annotations

import zlib
from pathlib import Path

from jantaku.errors import JantakuError

__all__ = ["MAX_RECORD_BYTES", "RecordError", "gunzip", "read_bytes_file", "read_text_file"]

MAX_RECORD_BYTES = 64 << 20
"""Largest record read, in bytes, and the most a gzipped record may inflate to (a whole game is under 1 MB)."""


class RecordError(JantakuError):
    """A game record (or one field of it) that cannot be read: a malformed code, an unsupported feature."""


def read_bytes_file(path: Path, limit: int = MAX_RECORD_BYTES) -> bytes:
    """A record file's bytes; an unreadable file (missing, a folder, no permission) or one larger than
    ``limit`` bytes is a :class:`RecordError` naming it."""
    try:
        with Path(path).open("rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror or e}") from None
    except ValueError as e:  # a NUL byte in the name
        raise RecordError(f"cannot read {path!r}: {e}") from None
    if len(data) > limit:
        raise RecordError(f"{path}: larger than {limit} bytes, more than a game record")
    return data


def gunzip(data: bytes, name: str, limit: int = MAX_RECORD_BYTES) -> bytes:
    """The inflated content of gzip ``data``; broken or cut data, or more than ``limit`` bytes inflated (a
    "gzip bomb"), is a :class:`RecordError` naming ``name``."""
    out = bytearray()
    rest = data
    try:
        while rest:
            d = zlib.decompressobj(wbits=31)
            out += d.decompress(rest, limit + 1 - len(out))
            if len(out) > limit or d.unconsumed_tail:
                raise RecordError(f"{name}: gzip data inflating to more than {limit} bytes: not a game record")
            if not d.eof:
                raise RecordError(f"{name}: broken gzip data (the file is cut short)")
            rest = d.unused_data.lstrip(b"\0")  # several gzip members follow each other
    except zlib.error as e:
        msg = str(e).removeprefix("Error -3 while decompressing data: ")
        raise RecordError(f"{name}: broken gzip data ({msg})") from None
    return bytes(out)


def read_text_file(path: Path) -> str:
    """A record file's UTF-8 text (gzipped or not); an unreadable or non-UTF-8 file is a :class:`RecordError`
    naming it."""
    data = read_bytes_file(path)
    if data[:2] == b"\x1f\x8b":
        data = gunzip(data, str(path))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError(f"{path}: not UTF-8 text (byte 0x{data[e.start]:02x} at position {e.start})") from None
