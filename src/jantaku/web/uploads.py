"""Uploaded game records, read and written: the jobs behind the replay viewer's upload and export and the
league's record import, run in a heavy-work process (:mod:`jantaku.web.heavy_tasks`).

This module needs the records and rules packages only, not the web application or the league's database: a
heavy-work process imports it as it starts, and its start-up is part of every first heavy request's wait.
"""

from __future__ import annotations

import io
import json
import logging
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jantaku.errors import JantakuError
from jantaku.league.errors import LeagueError
from jantaku.records.errors import RecordError
from jantaku.records.mjai import write_mjai
from jantaku.records.record import GameRecord
from jantaku.records.tenhou6 import write_tenhou6
from jantaku.rules import load_rules

from .errors import BadRequest, cut_message
from .views import record_yaku_names

__all__ = ["export_records", "in_temp", "league_record_names", "read_upload_records", "rules_family", "upload_records"]

log = logging.getLogger("jantaku.web")


def rules_family(rules: str) -> str:
    """A rule set's scoring family by its name (``riichi`` for a rule set this server does not know).

    >>> rules_family("jielu"), rules_family("mleague"), rules_family("no-such-rules")
    ('jielu', 'riichi', 'riichi')
    """
    try:
        return load_rules(rules).family
    except JantakuError:
        return "riichi"


def upload_records(raw: bytes, name: str) -> list[GameRecord]:
    """The games of an uploaded log file (any format :func:`~jantaku.records.load.read_records` knows), with
    ``name`` in place of the temporary file's path; a file that cannot be read, or holds no complete hand,
    raises :class:`BadRequest`."""
    from jantaku.records.load import read_records

    with tempfile.TemporaryDirectory(prefix="jantaku-upload-") as folder:
        path = Path(folder) / "upload"
        path.write_bytes(raw)
        try:
            records = read_records(path)
        except JantakuError as e:
            raise BadRequest(cut_message(str(e).replace(str(path), name))) from None
        except RecursionError:
            raise BadRequest(f"{name}: not a game record jantaku can read (nested too deeply)") from None
        except (ValueError, KeyError, IndexError, TypeError, AttributeError, ArithmeticError) as e:
            raise BadRequest(
                f"{name}: not a game record jantaku can read ({type(e).__name__}: {cut_message(str(e))})"
            ) from None
        except MemoryError:  # the worker's memory cap (jantaku.web.heavy): answered 413 there
            raise
        except Exception as e:  # a reader's bug must not cost the client a 500: logged, refused by name
            log.exception("reading upload %s", name)
            raise BadRequest(f"{name}: not a game record jantaku can read ({type(e).__name__})") from None
    for r in records:
        r.source = r.source.replace(str(path), name)
        r.problems = [p.replace(str(path), name) for p in r.problems]
    if not any(r.hands() for r in records):
        problems = "; ".join(p for r in records for p in r.problems)
        raise BadRequest(f"{name}: holds no complete hand" + (f" ({problems})" if problems else ""))
    return records


def _record_family(r: GameRecord) -> str:
    """An uploaded game's scoring family: 洁律 when its rule set says so or its hands have no dora (no dead
    wall), else riichi."""
    family = rules_family(r.rule_name)
    deals = [e for e in r.events if e.get("type") == "start_kyoku"]
    if family == "riichi" and any("dora_marker" not in e for e in deals):
        family = "jielu"
    return family


def read_upload_records(records: list[GameRecord]) -> list[dict[str, Any]]:
    """The games of an upload as the replay viewer reads them (in a heavy-work process: :mod:`.heavy_tasks`)."""
    out = []
    for r in records:
        family = _record_family(r)
        out.append(
            {
                "source": r.source,
                "rules": r.rule_name,
                "family": family,
                "exports": ["tenhou6", "mjai"] if family == "riichi" else ["mjai"],
                "red_fives": r.red_fives,
                "final": r.final,
                "problems": r.problems,
                "events": r.events,
                "yaku": _record_yaku(r.events, family),
            }
        )
    return out


def _record_yaku(events: list[dict[str, Any]], family: str) -> dict[str, dict[str, str]]:
    """The names (kanji, English, Chinese) of every yaku or fan the record's wins list, under the name the
    record writes (tenhou.net/6 writes Japanese, e.g. 立直, ドラ, 自風 北): the viewer shows them in the
    interface's language."""
    names = {
        str(entry[0])
        for e in events
        if e.get("type") == "hora"
        for entry in (e.get("yaku") or []) + (e.get("fans") or [])
        if isinstance(entry, list | tuple) and entry
    }
    return {name: record_yaku_names(name, family) for name in sorted(names)}


def export_records(records: list[GameRecord], name: str, fmt: str, index: int) -> tuple[str, str]:
    """Game ``index`` of an upload's ``records`` written as ``fmt``: the text and its file name (in a
    heavy-work process)."""
    if index >= len(records):
        raise BadRequest(f"game={index}: {name} holds {len(records)} game(s), numbered from 0")
    record = records[index]
    if not record.hands():
        raise BadRequest(f"{record.source}: holds no complete hand to export")
    if fmt == "tenhou6" and _record_family(record) != "riichi":
        raise BadRequest(f"tenhou.net/6 records hold riichi games only: export this {record.rule_name} game as mjai")
    stem = name.rsplit(".", 1)[0] if "." in name.strip(".") else name
    stem += f"-{index + 1}" if len(records) > 1 else ""
    if fmt == "mjai":
        events = record.events
        end = next((i for i in range(len(events) - 1, -1, -1) if events[i].get("type") == "end_game"), None)
        if record.final is not None and end is not None and "final" not in events[end]:
            # the source's rank points go where jantaku's own records keep them (read back by read_mjai)
            events = [*events[:end], {**events[end], "final": _rank_points(record.final)}, *events[end + 1 :]]
        buf = io.StringIO()
        write_mjai(events, buf)
        return buf.getvalue(), f"{stem}.mjson"
    try:
        doc = write_tenhou6(record, title=record.source)
    except RecordError as e:
        raise BadRequest(f"cannot be written as tenhou.net/6: {e}") from None
    return json.dumps(doc, ensure_ascii=False), f"{stem}.json"


def _rank_points(final: list[float]) -> list[float | int]:
    """Rank points as mjai's ``end_game`` keeps them: whole numbers as integers."""
    return [int(x) if float(x).is_integer() else x for x in final]


def league_record_names(path: Path) -> list[list[str]]:
    """Each game's player names in the record at ``path`` (the league's import asks which to map)."""
    from jantaku.league.importing import record_names

    return record_names(path)


def in_temp(raw: bytes, file: str, fn: Callable[[Path], Any]) -> Any:
    """``fn`` on the upload written to a temporary file; the file's path in a message is its name, and a record
    reader's failure on a file it cannot read is a 400 naming the file, not a 500."""
    with tempfile.TemporaryDirectory(prefix="jantaku-league-") as folder:
        path = Path(folder) / file
        path.write_bytes(raw)
        try:
            return fn(path)
        except JantakuError as e:
            if str(path) not in str(e):
                raise
            raise LeagueError(str(e).replace(str(path), file)) from None
        except RecursionError:
            raise JantakuError(f"{file}: not a game record jantaku can read (nested too deeply)") from None
        except (ValueError, KeyError, IndexError, TypeError, AttributeError, ArithmeticError) as e:
            raise JantakuError(f"{file}: not a game record jantaku can read ({type(e).__name__})") from None
