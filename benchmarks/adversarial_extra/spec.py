"""One hand-written case of the extra adversarial set (``Spec``) and how its template reads: the passage, the
quote and the edit between them. Apart from make_cases.py so that the spec files and the miner import it
without importing the builder that imports them."""
from __future__ import annotations

import random
import re
import zlib
from dataclasses import dataclass

SEED = 27_2718
MARK = re.compile(r"⟦([^|⟧]*)\|([^⟧]*)⟧")
ELLIPSES = [("…", 4), ("...", 4), ("[…]", 1), ("[...]", 1)]
EXCERPT_FAMILIES = {"excerpt_turned", "genuine_verbatim_excerpt"}


@dataclass(frozen=True)
class Spec:
    """One hand-written case: the family, the document, the template and the editor's reason."""
    family: str
    doc: str
    template: str
    why: str
    debatable: bool = False
    edit: str = ""
    language: str = ""


def ellipsis_for(template):
    """The written form of the ellipsis for this case, drawn from a generator seeded by the template."""
    rng = random.Random(SEED + zlib.crc32(template.encode("utf-8")))
    forms, weights = zip(*ELLIPSES)
    return rng.choices(forms, weights=weights)[0]


def split_template(spec):
    """(passage, quote, undo) for a spec; undo is [[quote_start, quote_end, source_text]]."""
    marks = list(MARK.finditer(spec.template))
    if len(marks) != 1:
        raise SystemExit(f"{spec.doc}: template needs exactly one ⟦old|new⟧ marker: {spec.template!r}")
    m = marks[0]
    old, new = m.group(1), m.group(2)
    if "…" in new:
        new = new.replace("…", ellipsis_for(spec.template))
    head, tail = spec.template[:m.start()], spec.template[m.end():]
    if spec.family in EXCERPT_FAMILIES and (new or (head and tail)):
        raise SystemExit(f"{spec.doc}: an excerpt is a cut ⟦old|⟧ at one end: {spec.template!r}")
    passage, quote = head + old + tail, head + new + tail
    return passage, quote, [[len(head), len(head) + len(new), old]]
