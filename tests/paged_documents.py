"""Paged documents for the tests: texts laid out as a PDF reader extracts them, and real PDFs drawn with
running headers, footers, raised footnote markers and footnotes at the foot of a page.

Each builder knows which lines it set as furniture, so a test compares what quoteverify.sources.pages finds with
exactly that.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

# An oral history told in the first person (written for these tests), long enough for a dozen pages.
STORY = (
    "I was born on the old Henley place in the spring of the flood year, and my mother said the river came "
    "right up to the kitchen step. We lived in two rooms behind the smokehouse, my mother and my two brothers "
    "and me, and my father worked the lower fields until the fever took him. After that my mother took in "
    "washing for the families in town, and we children carried the baskets on our heads along the levee road. "
    "The plantation had a bell that rang before daylight, and you could hear it clear across the bottoms. "
    "Nobody owned a clock in our quarter, so the bell was the only time we knew. When I was nine the overseer "
    "put me to chopping cotton with the grown folks, and I remember my hands bled the first week. My brother "
    "Samuel was the quick one; he could read a little because a preacher taught him from the almanac. He "
    "never told the overseer, because reading was a thing you kept to yourself in those days. In the winter "
    "we gathered pecans and sold them at the crossroads store for flour and coffee. The storekeeper kept a "
    "book with every family's debts, and my mother said that book was heavier than any sack of cotton. One "
    "year the crop failed and the whole quarter owed more at Christmas than they had owed in March. That was "
    "the year my uncle went north on the train with nothing but a cardboard suitcase and a letter. He wrote "
    "back from Chicago that the work was hard but the pay came every Saturday in cash money. My mother read "
    "that letter so many times the paper went soft as cloth. We did not follow him, because she would not "
    "leave my father's grave untended. Sundays we walked four miles to the church at Pine Bluff, and the "
    "singing lasted longer than the sermon. The old people sang songs they said came from before freedom, "
    "and they would not write them down. I learned them by heart sitting on the back bench with my brothers. "
    "When the school opened in the church house I went for three winters and learned to figure and to sign "
    "my name. The teacher was a young woman from Little Rock who boarded with the deacon's family. She told "
    "us that a person who could read a contract could not be cheated so easily, and I never forgot it. Years "
    "later I read every paper before I put my name to it, and more than once that saved us our land. My "
    "husband and I bought forty acres in the hills the year our second child was born. It was poor ground, "
    "full of rocks, but it was ours, and nobody rang a bell for us in the morning. We raised corn and hogs "
    "and a little cotton, and we paid off the note in eleven years. I still have the deed in a tin box under "
    "the bed, and I take it out sometimes just to look at the signatures. My children all went to school in "
    "town, and two of them finished high school, which was more than anybody in my family had done before. "
    "People ask me whether the old days were hard, and I tell them hard is not the word for it. The work was "
    "hard, but the worst of it was never knowing whether the fruit of your labor would be yours at the end."
)
WORDS_PER_LINE = 68  # characters a body line holds


def body_lines(repeat: int = 3) -> list[str]:
    """The story wrapped into lines of a page's width, told ``repeat`` times (for more pages)."""
    return textwrap.wrap(" ".join([STORY] * repeat), WORDS_PER_LINE)


@dataclass
class LaidOut:
    """A text laid out in pages as a PDF reader extracts it, and the lines the layout added."""

    text: str
    furniture: list[str] = field(default_factory=list)   # header, footer and page-number lines, in order
    pages: list[list[str]] = field(default_factory=list)  # the body lines of each page


def laid_out(lines: list[str], *, per_page: int, header=None, footer=None, separator: str = "\n",
             first: int = 1) -> LaidOut:
    """``lines`` in pages of ``per_page`` lines; ``header(n)``/``footer(n)`` give the lines set above or
    below the body of the page printed ``n`` (None: nothing), ``separator`` joins pages ("\\f" for form
    feeds)."""
    out = LaidOut("")
    page_texts = []
    for k in range(0, len(lines), per_page):
        n = first + k // per_page
        top = header(n) if header else []
        bottom = footer(n) if footer else []
        body = lines[k:k + per_page]
        out.furniture += top + bottom
        out.pages.append(body)
        page_texts.append("\n".join(top + body + bottom))
    out.text = separator.join(page_texts)
    return out


# ------------------------------------------------------------------------------------------------ PDFs

@dataclass(frozen=True)
class Drawn:
    """Text drawn at (x, y) in one text object: parts of (size, rise, text) set one after the other."""

    x: float
    y: float
    parts: tuple[tuple[float, float, str], ...]


def line(x: float, y: float, text: str, size: float = 11) -> Drawn:
    return Drawn(x, y, ((size, 0, text),))


def _escaped(text: str) -> bytes:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("cp1252")


def pdf(pages: list[list[Drawn]], *, first_label: int | None = None, width: int = 612) -> bytes:
    """A PDF of Helvetica text drawn where ``pages`` say; ``first_label``: page labels from that number."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    pages_id = len(objects) + 1 + 2 * len(pages)
    kids = []
    for drawn in pages:
        stream = b""
        for item in drawn:
            stream += b"BT %g %g Td " % (item.x, item.y)
            for size, rise, text in item.parts:
                stream += b"/F1 %g Tf %g Ts (%s) Tj " % (size, rise, _escaped(text))
            stream += b"ET\n"
        content = add(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %d 792] /Contents %d 0 R "
                        b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (pages_id, width, content, font)))
    add(b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), len(kids)))
    labels = b"" if first_label is None else b" /PageLabels << /Nums [0 << /S /D /St %d >>] >>" % first_label
    catalog = add(b"<< /Type /Catalog /Pages %d 0 R%s >>" % (pages_id, labels))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, xref)
    return bytes(out)


def book_page(body: list[str], *, number: int, title: str, notes: list[str] = (), marked: dict | None = None
              ) -> list[Drawn]:
    """A book's page: the running head (number left on even pages, right on odd ones, 9 pt), the body
    (11 pt, 14 pt apart), footnotes at the foot (8 pt) and no footer. ``marked`` puts a raised 7 pt digit
    after the word ending at a character of a body line: {(line index, end): "2"}."""
    head = [line(72, 760, f"{number}", 9), line(250, 760, title, 9)] if number % 2 == 0 else \
        [line(250, 760, title, 9), line(530, 760, f"{number}", 9)]
    drawn = list(head)
    for k, text in enumerate(body):
        cuts = sorted((end, digit) for (at, end), digit in (marked or {}).items() if at == k)
        parts, pos = [], 0
        for end, digit in cuts:
            parts += [(11, 0, text[pos:end]), (7, 4, digit)]
            pos = end
        parts.append((11, 0, text[pos:]))
        drawn.append(Drawn(72, 720 - 14 * k, tuple(p for p in parts if p[2])))
    for k, note in enumerate(notes):
        drawn.append(line(72, 70 - 10 * k, note, 8))
    return drawn
