"""Shared printing for the benchmark scripts: a plain text table and the ratio verdicts against targets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> None:
    """Print ``rows`` under ``header`` in aligned columns (the columns in ``right`` right-aligned)."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip())
    print("  ".join("-" * w for w in widths))
    for r in rows:
        cells = [r[i].rjust(widths[i]) if i in right else r[i].ljust(widths[i]) for i in range(len(r))]
        print("  ".join(cells).rstrip())
    print()


def judge_ratios(
    targets: Sequence[tuple[str, str, str, float]],
    rates: dict[str, float],
    missing: Sequence[str] = (),
    digits: int = 2,
) -> list[dict[str, Any]]:
    """Print and return each (label, numerator row, denominator row, target) ratio with PASS/MISS.

    A target of 0 means no target: the ratio is shown for information.
    """
    out: list[dict[str, Any]] = []
    label_w = max(len(t[0]) for t in targets)
    for label, num, den, floor in targets:
        entry: dict[str, Any] = {"ratio": label, "target": floor or None}
        if den not in rates or num not in rates:
            why = "not installed" if den in missing or num in missing else "not timed"
            entry.update(value=None, verdict=f"n/a ({why})")
        else:
            value = rates[num] / rates[den]
            verdict = "(no target)" if not floor else ("PASS" if value >= floor else "MISS")
            if floor:
                verdict += f" (target >= {floor:.3g}x)"
            entry.update(value=round(value, digits + 1), verdict=verdict)
        shown = "-" if entry["value"] is None else f"{entry['value']:.{digits}f}x"
        print(f"{label:<{label_w}}  {shown:>8}  {entry['verdict']}")
        out.append(entry)
    print()
    return out
