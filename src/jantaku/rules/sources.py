"""The rule documents behind the presets, and how a parameter's ``source`` text names them.

Every :class:`~jantaku.rules.Ruleset` parameter carries a short ``source`` text citing where its meaning and
its values come from. It names the documents by a three-digit code followed by an article, as the documents
number them (``"001 6章2条3"`` is M-League's chapter 6, article 2, clause 3), and ``decision`` where the
documents are silent or disagree and the project chose a value (the reasons are in the documentation's
"Rule documents and decisions" page). :func:`describe_source` turns such a text into words a reader knows:

>>> describe_source("001 6章2条3; 002 3.4; μ: decision")
'M-League 2023 6章2条3; online rules 3.4; μ: project decision'
>>> DOCUMENTS["000"].title
'Japan Mahjong Federation (日本麻将联盟 / 麻将连合, μ) official rules, 2021'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DECISION", "DOCUMENTS", "RuleDocument", "describe_source", "source_codes"]


@dataclass(frozen=True)
class RuleDocument:
    """One rule document: its code in ``source`` texts, short and full names, who wrote it and when."""

    code: str
    short: str
    title: str
    organisation: str
    date: str
    presets: tuple[str, ...]
    note: str


DOCUMENTS: dict[str, RuleDocument] = {
    d.code: d
    for d in (
        RuleDocument(
            "000",
            "μ 2021",
            "Japan Mahjong Federation (日本麻将联盟 / 麻将连合, μ) official rules, 2021",
            "Japan Mahjong Federation (μ)",
            "2021 (last revision)",
            ("mu",),
            "The most austere of the professional rule sets: no red fives, no ippatsu, no ura or kan dora. "
            "Articles are numbered Art 1, Art 2, ...; read in its Chinese translation (麻将连合公式规则（μ规）).",
        ),
        RuleDocument(
            "001",
            "M-League 2023",
            "M-League official rules, 2023-08-11",
            "M-League",
            "2023-08-11",
            ("mleague",),
            "The professional team league's rules; cited as chapter and article (6章2条3: chapter 6, "
            "article 2, clause 3); read in its Chinese translation (M-League竞技规则（M规）).",
        ),
        RuleDocument(
            "002",
            "online rules",
            "General online rules (Tenhou / Mahjong Soul style), simplified edition (日本麻雀規則·簡版)",
            "the online rooms' common rules, as summarised by the document's author",
            "undated",
            ("standard", "tenhou", "mahjongsoul"),
            "The rules most online play follows; cited by section (3.3: chapter 3, section 3).",
        ),
        RuleDocument(
            "003",
            "眉笔",
            "眉笔 league rules and notes (眉笔联赛规则及相关说明)",
            "眉笔联赛, a community league",
            "undated",
            ("meibi",),
            "Modelled on M-League's rules; its chapter 1 (the tiles) is missing from the document.",
        ),
        RuleDocument(
            "004",
            "洁律",
            "洁律麻将 rules",
            "the variant's author",
            "undated",
            ("jielu", "jielu_original"),
            "An additive-scoring variant with wildcards and several winners per hand; the fans' definitions "
            "survive but their point table does not (the values jantaku uses are a proposal).",
        ),
    )
}
"""The rule documents by code, as ``source`` texts cite them."""

DECISION = "decision"
"""The word a ``source`` text uses for a value the project chose where the documents are silent."""

_CODE = re.compile(r"(?<![\w-])(?<!\d[,.])(00\d)(?![\w-])")
"""A document code: three digits standing alone, not the thousands of a number (``30,000``, ``64,000``)."""


def source_codes(source: str) -> list[str]:
    """The document codes a ``source`` text cites, in order (unknown codes included, for checking).

    >>> source_codes("000 Art 65; 001 5章1条3; 002 3.3; 003 decision")
    ['000', '001', '002', '003']
    >>> source_codes("Tenhou (30,000 or more); 64,000 + 900; 1.000")
    []
    """
    return _CODE.findall(source)


def describe_source(source: str) -> str:
    """A ``source`` text with each document code replaced by the document's short name."""

    def name(m: re.Match[str]) -> str:
        doc = DOCUMENTS.get(m.group(1))
        return doc.short if doc else m.group(1)

    text = _CODE.sub(name, source)
    return re.sub(r"\bdecision\b", "project decision", text)
