"""A griffe extension for the API reference: docstrings are written for Python's doctest and Sphinx-style roles.

- a doctest block (lines from ``>>>`` to the next blank line) becomes a fenced ``pycon`` code block, so that
  Markdown does not read ``>>>`` as nested quotes;
- a role such as :class:`~jantaku.table.Game` becomes the code span `Game` (the name as written, without the
  role; a leading ``~`` keeps only the last part).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|mod|func|meth|attr|data|exc|obj):`(~?)([^`]+)`")


def _role(m: re.Match[str]) -> str:
    name = m.group(2)
    return f"`{name.rsplit('.', 1)[-1] if m.group(1) else name}`"


def convert(text: str) -> str:
    """A docstring with its doctest blocks fenced and its roles turned into code spans."""
    out: list[str] = []
    in_fence = in_doctest = False
    indent = ""
    for line in text.splitlines():
        stripped = line.strip()
        if in_doctest:
            if stripped:
                out.append(line)
                continue
            out.append(f"{indent}```")
            in_doctest = False
        if stripped.startswith("```"):
            in_fence = not in_fence
        elif not in_fence and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            out.append(line)
            in_doctest = True
            continue
        out.append(line if in_fence else _ROLE.sub(_role, line))
    if in_doctest:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Fence doctest blocks and simplify Sphinx roles in every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = convert(obj.docstring.value)
