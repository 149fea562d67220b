"""Open any supported game record by looking at it: Tenhou mjlog, tenhou.net/6 JSON, mjx JSON lines, mjai."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from jantaku import safejson
from jantaku.errors import JantakuError
from jantaku.safejson import decode_utf8

from .errors import RecordError, gunzip, read_bytes_file
from .record import GameRecord

__all__ = ["iter_record_files", "read_records"]

_SUFFIXES = (".mjlog", ".xml", ".json", ".jsonl", ".mjson", ".gz")


def iter_record_files(paths: list[str]) -> Iterator[Path]:
    """The record files named, folders searched recursively, in a stable order."""
    for p in paths:
        path = Path(p)
        if "\0" in str(p):
            raise RecordError(f"no such file or folder: {p!r}")
        try:
            is_dir, exists = path.is_dir(), path.exists()
        except OSError as e:  # a name too long for the file system, ...
            raise RecordError(f"cannot open {p[:200]}: {e.strerror or e}") from None
        if is_dir:
            yield from sorted(q for q in path.rglob("*") if q.is_file() and q.name.endswith(_SUFFIXES))
        elif exists:
            yield path
        else:
            raise RecordError(f"no such file or folder: {p}")


def read_records(path: Path) -> list[GameRecord]:
    """Read one file of any supported format (decided by its content, not only its name).

    The file may be gzipped (what it inflates to is limited, :data:`~jantaku.records.errors.MAX_RECORD_BYTES`).
    Every record returned has passed :meth:`GameRecord.check`, so a replay gets only events it can take: a file
    jantaku cannot read is a :class:`RecordError` naming the file and the line, event or hand.
    """
    path = Path(path)
    name = str(path)
    raw = read_bytes_file(path)
    if raw[:2] == b"\x1f\x8b":
        raw = gunzip(raw, name)
    head = raw[:4096].lstrip()
    if head.startswith(b"<"):
        from .mjlog import read_mjlog

        records = read_mjlog(raw, name=name)
    else:
        records = _read_json_records(raw, name)
    for rec in records:
        rec.check()
    return records


def _read_json_records(raw: bytes, name: str) -> list[GameRecord]:
    try:
        text = decode_utf8(raw)
    except JantakuError as e:
        raise RecordError(f"{name}: {e}") from None
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        obj = safejson.loads(first)
    except JantakuError:
        try:
            obj = safejson.loads(text)
        except JantakuError as e:
            raise RecordError(f"{name}: neither mjlog XML nor JSON ({e})") from None
    if isinstance(obj, dict) and "hiddenState" in obj:
        from .mjx import read_mjx

        return read_mjx(text, name=name)
    if isinstance(obj, dict) and "log" in obj:
        from .tenhou6 import read_tenhou6

        return read_tenhou6(text, name=name)
    if isinstance(obj, dict) and "type" in obj:
        from .mjai import read_mjai

        return [read_mjai(text, name=name, strict=True)]
    raise RecordError(f"{name}: not a game record jantaku knows (mjlog, tenhou.net/6, mjx, mjai)")
