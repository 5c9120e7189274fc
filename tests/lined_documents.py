"""Line-numbered transcripts written for the tests (tests/test_lined.py), laid out in several reporters' styles:
where each spoken word lands (its offsets, page and line) is kept, so a test knows every quote's place and
citation without reading the layout back."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Style:
    """How a reporter lays out a transcript."""

    lines: int = 25                 # numbered lines a page
    width: int = 60                 # characters of words a line holds
    number_width: int = 2           # the line number, right-aligned in this many characters
    left: bool = False              # ... or left-aligned
    gap: str = "   "                # between the number and the line's words
    opening: int = 10               # how far in a turn's label stands
    qa_opening: int = 5             # ... and a Q. or an A.
    folio: str = "head"             # where the page number stands: above the page ("head") or below ("foot")
    folio_format: str = "{n}"       # "Page {n}"
    folio_column: int = 60          # right-aligned to this column
    footer: tuple[str, ...] = ()    # the reporter's lines at the foot of every page
    blank: bool = True              # a blank line between pages
    first_page: int = 1


SUPREME_COURT = Style(footer=("Alderson Reporting Company", "Official - Subject to Final Review"))
# Another reporter: 28 lines, numbers left-aligned, "Page N" at the foot under the company's line, no blank line.
DEPOSITION = Style(lines=28, width=56, left=True, gap="  ", opening=8, qa_opening=3, folio="foot",
                   folio_format="Page {n}", folio_column=56, footer=("MIDWEST COURT REPORTERS, INC. (555) 010-2288",),
                   blank=False)
HEARING = Style(lines=25, width=58, number_width=3, gap="  ", opening=6, footer=("HEARING TRANSCRIPT",),
                folio_column=58)


@dataclass(frozen=True)
class Turn:
    """One piece of a transcript: a speaker's turn (``label`` "MR. SMITH:", "Q.", "A."), or the reporter's text:
    a heading, a ``BY`` line or the swearing of a witness (set in from the text), a cover line (as written), a
    blank line, or the start of a new page."""

    label: str
    text: str = ""
    kind: str = "turn"  # turn | heading | cover | blank | page


def page(*_: str) -> Turn:
    return Turn("", kind="page")


def blank() -> Turn:
    return Turn("", kind="blank")


def cover(*lines: str) -> list[Turn]:
    return [Turn("", line, "cover") if line else blank() for line in lines]


def heading(text: str) -> Turn:
    return Turn("", text, "heading")


@dataclass(frozen=True)
class Word:
    start: int
    end: int
    page: int
    line: int
    turn: int


@dataclass
class Transcript:
    """A transcript as written: its text and every spoken word's place."""

    text: str
    words: list[Word] = field(default_factory=list)

    def of_turn(self, turn: int) -> list[int]:
        """The indices (into ``words``) of a turn's words."""
        return [k for k, w in enumerate(self.words) if w.turn == turn]

    def quote(self, first: int, last: int) -> str:
        """The words first..last (inclusive) as a quote prints them: one space between words."""
        return " ".join(self.text[w.start:w.end] for w in self.words[first:last + 1])

    def span(self, first: int, last: int) -> tuple[int, int]:
        return self.words[first].start, self.words[last].end

    def cite(self, first: int, last: int) -> str:
        a, b = self.words[first], self.words[last]
        if (a.page, a.line) == (b.page, b.line):
            return f"{a.page}:{a.line}"
        return f"{a.page}:{a.line}-{b.line}" if a.page == b.page else f"{a.page}:{a.line}-{b.page}:{b.line}"


Piece = tuple[str, int]  # a word and the turn it is spoken in (-1: the reporter's)


def _logical(turns: list[Turn], style: Style) -> list[tuple[str, list[Piece]]]:
    """The transcript's lines before they are numbered: (what stands before the words, the words)."""
    lines: list[tuple[str, list[Piece]]] = []
    for k, turn in enumerate(turns):
        if turn.kind == "page":
            while len(lines) % style.lines:
                lines.append(("", []))
        elif turn.kind == "blank":
            lines.append(("", []))
        elif turn.kind == "cover":
            lines.append((" " * 5 + turn.text, []))
        elif turn.kind == "heading":
            lines += _wrap(" " * (style.opening + 4), [(w, -1) for w in turn.text.split()], style.width, keep=True)
        else:
            at = style.qa_opening if turn.label in ("Q.", "A.") else style.opening
            lines += _wrap(" " * at + turn.label, [(w, k) for w in turn.text.split()], style.width, keep=False)
    while len(lines) % style.lines:
        lines.append(("", []))
    return lines


def _wrap(lead: str, pieces: list[Piece], width: int, *, keep: bool) -> list[tuple[str, list[Piece]]]:
    """Words wrapped greedily; ``lead`` opens the first line (and every line when ``keep``)."""
    lines: list[tuple[str, list[Piece]]] = []
    current: list[Piece] = []
    used = len(lead)
    for word, turn in pieces:
        if current and used + 1 + len(word) > width:
            lines.append((lead if keep or not lines else "", current))
            current, used = [], len(lead) if keep else 0
        used += len(word) + (1 if current or used else 0)
        current.append((word, turn))
    lines.append((lead if keep or not lines else "", current))
    return lines


def render(turns: list[Turn], style: Style) -> Transcript:
    """The transcript of ``turns`` laid out in ``style``."""
    lines = _logical(turns, style)
    parts: list[str] = []
    out = Transcript("")
    pos = 0

    def emit(text: str) -> None:
        nonlocal pos
        parts.append(text)
        pos += len(text)

    for p in range(len(lines) // style.lines):
        number = style.first_page + p
        folio = style.folio_format.format(n=number).rjust(style.folio_column) + "\n"
        if style.folio == "head":
            emit(folio)
        for k in range(style.lines):
            lead, pieces = lines[p * style.lines + k]
            digits = str(k + 1)
            emit(digits.ljust(style.number_width) if style.left else digits.rjust(style.number_width))
            if lead.strip() or pieces:
                emit(style.gap + lead)
                for n, (word, turn) in enumerate(pieces):
                    if n or lead.strip():
                        emit(" ")
                    if turn >= 0:
                        out.words.append(Word(pos, pos + len(word), number, k + 1, turn))
                    emit(word)
            emit("\n")
        for line in style.footer:
            emit(line.center(style.folio_column).rstrip() + "\n")
        if style.folio == "foot":
            emit(folio)
        if style.blank:
            emit("\n")
    out.text = "".join(parts)
    return out


# ----------------------------------------------------------------------------------------- the documents

ARGUMENT = [
    *cover("IN THE SUPREME COURT OF THE UNITED STATES", "- - - - - - - - - - - - - - - - - x",
           "HARBOR TOWNSHIP, ET AL.,           :", "             Petitioners,       :",
           "        v.                          :  No. 21-476", "NORTHFIELD WATER COMPANY,          :",
           "             Respondent.        :", "- - - - - - - - - - - - - - - - - x", "",
           "Washington, D.C.", "Tuesday, March 3, 2026", "",
           "The above-entitled matter came on for oral argument", "before the Supreme Court of the United States",
           "at 10:04 a.m.", "", "APPEARANCES:", "ELLEN MARSH, ESQ., Boston, Massachusetts; on behalf",
           "  of the Petitioners.", "DAVID OKAFOR, ESQ., Chicago, Illinois; on behalf of", "  the Respondent."),
    page(),
    *cover("C O N T E N T S", "ORAL ARGUMENT OF                                PAGE", "ELLEN MARSH, ESQ.",
           "On behalf of the Petitioners                       3", "ORAL ARGUMENT OF", "DAVID OKAFOR, ESQ.",
           "On behalf of the Respondent                        4", "REBUTTAL ARGUMENT OF", "ELLEN MARSH, ESQ.",
           "On behalf of the Petitioners                       7"),
    page(),
    heading("P R O C E E D I N G S"),
    Turn("", "(10:04 a.m.)", "cover"),
    Turn("CHIEF JUSTICE ROBERTS:", "We will hear argument first this morning in Case 21-476, Harbor Township "
         "versus Northfield Water Company. Ms. Marsh."),
    Turn("MS. MARSH:", "Mr. Chief Justice, and may it please the Court: The township asks for one thing in this "
         "case, the right to read its own water meters. The company installed the meters in 1994 under a franchise "
         "that ran for twenty years. When the franchise lapsed, the company kept the meters in the ground and kept "
         "billing the residents at the old rate. The court of appeals held that the township could do nothing about "
         "it until a state commission acted, and that holding is wrong for three reasons."),
    Turn("JUSTICE ALITO:", "Before you give us the three reasons, counsel, who owns the pipes that run under "
         "Main Street today?"),
    Turn("MS. MARSH:", "The township owns the pipes, Justice Alito. The deed from 1994 says so in its second "
         "paragraph, and the company has never disputed it in any filing."),
    Turn("JUSTICE ALITO:", "So the dispute is only about the meters themselves."),
    Turn("MS. MARSH:", "Only about the meters and the data they record. The first reason is the plain text of "
         "the statute, which gives every municipality the power to inspect equipment attached to its own mains. "
         "The second reason is the history of the franchise, which the company drafted itself. The third reason "
         "is practical: a resident who wants to check a bill today has nowhere to turn."),
    Turn("JUSTICE KAGAN:", "Ms. Marsh, suppose the commission had already opened a proceeding on the same meters. "
         "Would the township still be able to come to federal court first?"),
    Turn("MS. MARSH:", "It would, Justice Kagan, because the commission has no power over the municipal mains "
         "and could not order the relief the township seeks. I would like to reserve the balance of my time."),
    Turn("CHIEF JUSTICE ROBERTS:", "Thank you, counsel. Mr. Okafor."),
    heading("ORAL ARGUMENT OF DAVID OKAFOR, ESQ."),
    heading("ON BEHALF OF THE RESPONDENT"),
    Turn("MR. OKAFOR:", "Mr. Chief Justice, and may it please the Court: The company has served the township "
         "faithfully for thirty years. The meters belong to the company, the readings belong to the company, and "
         "the statute my friend relies on speaks of equipment, not of data. If the township wanted the readings, "
         "it could have bought the meters when the franchise lapsed. It chose to wait, and now it asks this Court "
         "to give it for free what the franchise priced at four million dollars."),
    Turn("JUSTICE KAGAN:", "Counsel, the franchise lapsed in 2014. What stopped the company from taking the "
         "meters out of the ground the next morning?"),
    Turn("MR. OKAFOR:", "Nothing stopped it, Justice Kagan, and the company would have been within its rights to "
         "remove them. It left them in place as a courtesy to the residents, who would otherwise have had no "
         "water service at all during the winter months."),
    Turn("CHIEF JUSTICE ROBERTS:", "A courtesy that the company continued to bill for."),
    Turn("MR. OKAFOR:", "At the rate the franchise set, Mr. Chief Justice, which the commission approved again "
         "in 2016. The residents paid the same price for the same water."),
    Turn("JUSTICE SOTOMAYOR:", "Then tell me why the company refused to let the township's engineer look at the "
         "meters in the spring of 2019. The record says the engineer waited at the gate for two days."),
    Turn("MR. OKAFOR:", "The engineer arrived without notice, Justice Sotomayor, and the company's safety rules "
         "require forty-eight hours of notice before anyone enters a pumping station."),
    Turn("CHIEF JUSTICE ROBERTS:", "Thank you, counsel. Ms. Marsh, you have four minutes remaining."),
    heading("REBUTTAL ARGUMENT OF ELLEN MARSH, ESQ."),
    heading("ON BEHALF OF THE PETITIONERS"),
    Turn("MS. MARSH:", "Three points in rebuttal. The deed gives the township the pipes, and a meter is bolted to "
         "a pipe. The company never gave forty-eight hours of notice to anyone before 2019, and its own manual "
         "says so on page nine. And the residents were never asked whether they wanted the courtesy my friend "
         "describes. We ask the Court to reverse."),
    Turn("CHIEF JUSTICE ROBERTS:", "Thank you, counsel. The case is submitted."),
    Turn("", "(Whereupon, at 11:02 a.m., the case in the above-entitled matter was submitted.)", "cover"),
    page(),
    *cover("A", "able 4:12 5:3 6:20", "above-entitled 1:12 8:4", "according 3:9 5:17", "act 3:22 4:1",
           "acted 3:23", "afternoon 6:5 6:9", "agree 4:3 5:21 7:2", "ahead 2:7 3:11"),
]

DEPOSITION_TURNS = [
    *cover("UNITED STATES DISTRICT COURT", "DISTRICT OF MINNESOTA", "", "CARLA BENTON,", "        Plaintiff,",
           "   vs.                          Case No. 0:24-cv-01187", "LAKESIDE FREIGHT LLC,", "        Defendant.",
           "", "", "VIDEOTAPED DEPOSITION OF RAYMOND T. KOWALSKI", "", "Minneapolis, Minnesota",
           "Thursday, May 14, 2026", "", "Reported by: Joan Feld, RPR"),
    page(),
    *cover("APPEARANCES:", "", "On behalf of the Plaintiff:", "   PETER LUND, ESQ.", "   Lund & Moreau",
           "", "On behalf of the Defendant:", "   SUSAN ABARA, ESQ.", "   Abara Legal Group", "",
           "ALSO PRESENT: Tom Rice, videographer"),
    page(),
    *cover("I N D E X", "", "WITNESS: RAYMOND T. KOWALSKI", "", "EXAMINATION BY                     PAGE",
           "   MR. LUND                             4", "   MS. ABARA                            6", "",
           "EXHIBITS", "   Exhibit 1  Dispatch log             5"),
    page(),
    heading("RAYMOND T. KOWALSKI, having been first duly sworn, was examined and testified as follows:"),
    heading("EXAMINATION"),
    heading("BY MR. LUND:"),
    Turn("Q.", "Good morning. Would you state your full name for the record?"),
    Turn("A.", "Raymond Thomas Kowalski."),
    Turn("Q.", "Mr. Kowalski, where were you employed in March of 2023?"),
    Turn("A.", "I was the night dispatcher at the Lakeside yard in Duluth. I had held that job for about six "
         "years by then, and before that I drove a route out of the same yard."),
    Turn("Q.", "What did the night dispatcher do on a typical shift?"),
    Turn("A.", "I assigned the trailers to the drivers, I checked the logbooks when they came back, and I wrote "
         "down every delay in the dispatch log. If a truck came back late, the log was supposed to say why."),
    Turn("Q.", "Did anyone ever tell you to leave a delay out of the log?"),
    Turn("MS. ABARA:", "Objection. Form."),
    Turn("THE WITNESS:", "I can answer that. The yard manager told me twice to write weather instead of "
         "brakes, and I wrote weather because I wanted to keep my job."),
    heading("BY MR. LUND:"),
    Turn("Q.", "Who was the yard manager at the time?"),
    Turn("A.", "Gary Whitfield. He ran the yard from 2019 until the spring of 2024, when he moved to the office "
         "in Fargo."),
    Turn("Q.", "I am handing you what has been marked as Exhibit 1. Do you recognize this document?"),
    Turn("A.", "That is the dispatch log for the week of March 6. The handwriting on the second page is mine, "
         "and the entry for truck forty-one says weather, but the truck came back with the brakes smoking."),
    Turn("MR. LUND:", "Thank you. I have nothing further at this time."),
    heading("EXAMINATION"),
    heading("BY MS. ABARA:"),
    Turn("Q.", "Mr. Kowalski, you never reported the yard manager to anyone at the company, did you?"),
    Turn("A.", "I told the safety coordinator about the brakes in April, but I did not put it in writing."),
    Turn("Q.", "And the safety coordinator inspected truck forty-one the next week?"),
    Turn("A.", "She did, and she took it out of service for nine days."),
    Turn("MS. ABARA:", "That is all I have."),
    Turn("THE VIDEOGRAPHER:", "We are off the record at 3:05 p.m."),
    Turn("", "(Whereupon, the deposition concluded at 3:05 p.m.)", "cover"),
    page(),
    heading("CERTIFICATE OF REPORTER"),
    *cover("I, Joan Feld, Registered Professional Reporter, do", "hereby certify that the witness was duly sworn",
           "and that the foregoing is a true record of the", "testimony given.", "",
           "Dated this 20th day of May, 2026."),
]

HEARING_TURNS = [
    *cover("HEARING BEFORE THE SUBCOMMITTEE ON RURAL BROADBAND", "COMMITTEE ON COMMERCE", "", "April 22, 2026",
           "", "TESTIMONY OF DR. ALICE GREEN", "Director, Prairie Network Cooperative", "",
           "MEMBERS PRESENT:", "   Chairman Harold White", "   Senator Dana Price", "   Senator Luis Ortega"),
    page(),
    Turn("CHAIRMAN WHITE:", "Good morning. The subcommittee will come to order. We meet today to hear how the "
         "grant program has worked in the counties it was meant to reach."),
    Turn("THE CHAIRMAN:", "Dr. Green, thank you for making the trip from Nebraska. Please begin whenever you are "
         "ready."),
    Turn("THE WITNESS:", "Thank you, Mr. Chairman. Our cooperative connected eleven hundred farms in the first "
         "two years of the program. The cost per farm came in below the estimate, and the speeds we measured at "
         "the kitchen table were twice what the application promised. The hardest part was the paperwork, which "
         "took a full-time employee for most of a year."),
    Turn("SENATOR PRICE:", "Dr. Green, how many of those farms had no connection at all before the grant?"),
    Turn("THE WITNESS:", "About seven hundred of them, Senator. The rest had a satellite service that dropped "
         "out whenever it rained."),
    Turn("THE CHAIRMAN:", "The paperwork concerns me more than anything else you have said. Senator Ortega."),
    Turn("SENATOR ORTEGA:", "Thank you, Mr. Chairman. Dr. Green, would the cooperative apply again if the "
         "program were renewed next year?"),
    Turn("THE WITNESS:", "We would apply again tomorrow, Senator, if the forms were shorter."),
    Turn("THE CHAIRMAN:", "Then we will see that they are shorter. The hearing is adjourned."),
]


def drawn_pages(transcript: Transcript, style: Style) -> list[list[tuple[float, float, str]]]:
    """The transcript's pages as a PDF draws them, (x, y, text) by line: the page number at the top right, each
    line number in the margin and its words beside it (a label set further in), the reporter's footer centred
    at the foot. A PDF reader's text keeps none of the indents."""
    pages: list[list[tuple[float, float, str]]] = []
    for raw in transcript.text.split("\n"):
        words = raw.strip()
        if not words:
            continue
        if words in style.footer:
            pages[-1].append((200.0, 60.0 - 14 * style.footer.index(words), words))
        elif raw.startswith(" " * 20):  # the page number, set to the right
            pages.append([(520.0, 760.0, words)])
        else:
            number, rest = raw[:style.number_width].strip(), raw[style.number_width:]
            y = 730.0 - 26 * (int(number) - 1)
            pages[-1].append((40.0, y, number))
            if rest.strip():
                pages[-1].append((70.0 + 6 * (len(rest) - len(rest.lstrip()) - len(style.gap)), y, rest.strip()))
    return pages
