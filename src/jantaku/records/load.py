"""Open any supported game record by looking at it: Tenhou mjlog, tenhou.net/6 JSON, mjx JSON lines, mjai."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

from .errors import RecordError
from .record import GameRecord

__all__ = ["iter_record_files", "read_records"]

_SUFFIXES = (".mjlog", ".xml", ".json", ".jsonl", ".mjson", ".gz")


def iter_record_files(paths: list[str]) -> Iterator[Path]:
    """The record files named, folders searched recursively, in a stable order."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            yield from sorted(q for q in path.rglob("*") if q.is_file() and q.name.endswith(_SUFFIXES))
        elif path.exists():
            yield path
        else:
            raise RecordError(f"no such file or folder: {p}")


def read_records(path: Path) -> list[GameRecord]:
    """Read one file of any supported format (decided by its content, not only its name)."""
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as e:
            raise RecordError(f"{path}: broken gzip data ({e})") from None
    head = raw[:4096].lstrip()
    if head.startswith(b"<"):
        from .mjlog import read_mjlog

        return read_mjlog(raw, name=str(path))
    text = raw.decode("utf-8", errors="replace")
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        obj = json.loads(first)
    except json.JSONDecodeError:
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"{path}: neither mjlog XML nor JSON ({e.msg} at line {e.lineno})") from None
    if isinstance(obj, dict) and "hiddenState" in obj:
        from .mjx import read_mjx

        return read_mjx(path)
    if isinstance(obj, dict) and "log" in obj:
        try:
            from .tenhou6 import read_tenhou6
        except ImportError as e:  # pragma: no cover - the module ships with jantaku
            raise RecordError(f"{path}: tenhou.net/6 support is missing ({e})") from None
        return read_tenhou6(path)
    if isinstance(obj, dict) and "type" in obj:
        try:
            from .mjai import read_mjai
        except ImportError as e:  # pragma: no cover
            raise RecordError(f"{path}: mjai support is missing ({e})") from None
        rec = read_mjai(path)
        return rec if isinstance(rec, list) else [rec]
    raise RecordError(f"{path}: not a game record jantaku knows (mjlog, tenhou.net/6, mjx, mjai)")
