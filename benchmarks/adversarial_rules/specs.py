"""One hand-written case: family, expectation, the passage as the source writes it, the quote, the editor's reason."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    family: str
    expect: str          # review (a meaning change) or verified (an honest edit)
    doc: str
    passage: str         # the source text the quote stands for, exactly (an excerpt's whole sentence)
    quote: str
    why: str
    edit: str = ""
    debatable: bool = False
    ctx: str = ""        # source text just before the passage, when the passage alone is not unique


def R(family, doc, passage, quote, why, edit="", debatable=False, ctx=""):
    return Case(family, "review", doc, passage, quote, why, edit, debatable, ctx)


def V(family, doc, passage, quote, why, edit="", debatable=False, ctx=""):
    return Case(family, "verified", doc, passage, quote, why, edit, debatable, ctx)
