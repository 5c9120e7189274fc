"""Speaker labels as transcripts print them, and the lines that only look like them.

A turn starts at a line that opens with a speaker label or a timecode:

- ``Name:``, ``I:``/``R:``, ``Interviewer:``, ``SPEAKER 1:``, ``P3 (nurse):``, ``Mr. NORTH:``,
  ``Lead Inquiry:``, ``J.R.:``, a name with credentials after a comma (``Dr. Jane Roe, Psy.D:``,
  ``Name, PhD:``), a role in brackets, once nested (``The Chair (Hon. Anthony Rota (Nipissing, Lib.)):``),
  or two (``Sir Keir Starmer (Holborn and St Pancras) (Lab):``),
  or the name and a tab (a row of a Word table, speaker and words in two columns);
- ``Name (00:31):`` or ``Name [00:01:11]:``, the timestamp after the name;
- ``[00:01:11] Name:`` or ``00:01:11:00 Name:``, the timestamp before it;
- ``Name  00:31`` alone on its line (Otter's export), the words on the lines after;
- the record style of parliaments and courts: a line (or an indented paragraph) opening with a title and
  a surname in capitals, or "The" and an office in capitals, ended by a point (``Mr. SPECTER.``,
  ``The PRESIDING OFFICER.``, ``The SPEAKER pro tempore.``); and ``Q.``/``A.`` in a deposition (a
  document that has both);
- a timecode alone at the start of a line (``[00:05:00]``, ``00:01:11:00``): a new
  timestamp, the same speaker. Without brackets a timecode needs hours
  (``h:mm:ss``), so that "10:30 we met" in running text is not one.

A label is a name, not the head of a sentence: with words after it on its line, every word of
the name is capitalised, a particle ("de", "van", "of") or a role ("Unidentified speaker",
"Member of the public"); a heading word ("Note:", "Example:", "Date:") is never a speaker. A
label alone on its line (the words on the next) may be any short phrase that is no sentence
("Plusieurs députés du groupe UMP:"). ``unread`` finds the lines shaped like labels that are
none of these ("Speaker #1:", "**Alice**:"), for the run's summary to name.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

TIME = r"\d{1,2}:\d{2}(?::\d{2})?(?:[.,:]\d{1,3})?"
# A speaker name: a capital letter, then up to 40 word characters, points,
# apostrophes, hyphens and spaces ("Dr. Okafor", "SPEAKER 1", "P3").
_NAME = r"[A-ZÀ-ÖØ-Þ][\w.'\- ]{0,40}?"
# A role in brackets, perhaps with one bracket inside: "(nurse)", "(Hon. Anthony Rota (Nipissing, Lib.))".
_ROLE = r"\((?:[^()\n:]|\([^()\n:]{0,60}\)){1,80}\)"


def _label(tag: str) -> str:
    """A name (perhaps with credentials, perhaps a role in brackets), perhaps its timestamp in brackets, and a
    colon at the end of the line or before a space, or a tab before the words (a table's columns)."""
    return (rf"(?P<name{tag}>{_NAME}(?P<cred{tag}>,[^:\n]{{1,50}}?)?(?:[ \t]*{_ROLE}){{0,2}})"
            rf"(?:[ \t]*[(\[](?P<time{tag}>{TIME})[)\]])?(?P<sep{tag}>[ \t]*:(?=[ \t\r\n]|$)|\t+(?=\S))")


_TITLES = (r"(?:Mr|Mrs|Ms|Miss|Mx|Dr|Sen|Senator|Rep|Representative|Madam|Madame|Chairman|Chairwoman|Secretary|"
           r"Ambassador|Governor|Gov|Judge|Justice|Professor|Prof|General|Gen|Admiral|Hon|Sir|Dame|Lord|Lady)")
_CAPS_WORD = r"(?:Mc|Mac|De|Di|Du|La|Le|O')?[A-Z][A-Z'\-]+"
_OFFICES = (r"(?:PRESIDING OFFICER|ACTING PRESIDENT|VICE PRESIDENT|PRESIDENT|DEPUTY SPEAKER|ACTING SPEAKER|SPEAKER|"
            r"ACTING CHAIRMAN|ACTING CHAIRWOMAN|ACTING CHAIR|CHAIRMAN|CHAIRWOMAN|CHAIRPERSON|CHAIR|CLERK|COURT|"
            r"WITNESS|INTERPRETER|MAJORITY LEADER|MINORITY LEADER)")
# The record style: "Mr. SPECTER.", "Mr. SMITH of Oregon.", "The PRESIDING OFFICER (Mr. KAINE).", "Q.", "A.".
_RECORD_BODY = (
    rf"(?:(?P<name4>(?:{_TITLES}\.?[ \t]+{_CAPS_WORD}(?:[ \t]+{_CAPS_WORD})?"
    rf"(?:[ \t]+of[ \t]+[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)?)?|The[ \t]+{_OFFICES}(?:[ \t]+pro[ \t]+tempore)?)"
    rf"(?:[ \t]*{_ROLE})?)|(?P<qa>[QA]))\.(?:[ \t]+(?=\S)|(?=[ \t]*(?:\r\n?|\n|$)))")
_RECORD = re.compile(r"[ \t]*" + _RECORD_BODY)

_BODY = (
    rf"[ \t]*(?:(?P<lead>[\[(]{TIME}[\])]|{TIME})(?:[ \t]+(?:[-\u2013\u2014][ \t]+)?{_label('1')}|(?=[ \t\r\n]|$))"
    rf"|{_label('2')}"
    rf"|{_RECORD_BODY}"
    rf"|(?P<name3>{_NAME})[ \t]+(?P<time3>{TIME})[ \t]*(?=[\r\n]|$))")
# A label opens a line: after a LF, a CRLF or a lone CR (old Mac files).
LINE = re.compile(r"(?:\r\n?|\n)" + _BODY)
FIRST_LINE = re.compile(_BODY, re.MULTILINE)

# Lowercase words a name may hold: particles of names, and the words of roles ("Unidentified speaker").
_PARTICLES = frozenset("""de da das del della der den di do dos du des la le les van von ten ter het zu y e of the
and for bin ibn al el""".split())
_ROLE_WORDS = frozenset("""speaker speakers member members participant participants voice voices audience male
female man woman men women interviewer interviewee moderator facilitator host guest caller public floor officer
clerk witness counsel chair chairman chairwoman reporter narrator translator interpreter questioner student
students teacher parent nurse doctor patient unidentified unknown other several multiple group panel panelist
staff respondent child mother father representative minister pro tempore heer mevrouw voorzitter""".split())
# Words that head a line of prose or notes, never a speaker's name.
_HEADINGS = frozenset("""note notes nb n.b ps p.s example examples e.g i.e eg ie summary source sources update
updated warning caution tip important reminder disclaimer edit edited transcript transcription title subject re
date time location place venue present attendees absent agenda topic topics keywords abstract conclusion
conclusions introduction background chapter section step figure fig table see cf url email e-mail tel phone fax
address action actions decision decisions outcome outcomes result results goal goals objective objectives purpose
method methods status definition context total price cost duration recording transcribed translated
translation""".split())
# Words that make a phrase a sentence: a label alone on its line may hold none of them.
_SENTENCE_WORDS = frozenset("""is are was were am be been has have had do does did will would can could should
shall may might must i we you he she they it this these those here there my our your his her their""".split())


@dataclass(frozen=True)
class Label:
    """The speaker label or timecode opening a line; '' for what it does not give."""

    speaker: str
    timestamp: str
    end: int  # where the words after it start


def _after_comma(found: str | None, *, alone: bool) -> bool:
    """Whether what follows a name's comma describes the speaker: credentials ("PhD", "Psy.D", "MD, MPH",
    "Jr."), or, in a label alone on its line, a role ("ministre de l'éducation nationale"); not words ("I")."""
    if not found:
        return True
    words = re.findall(r"[\w.]+", found)
    if alone:
        return 0 < len(words) <= 6 and not any(w.casefold() in _SENTENCE_WORDS for w in words)
    return all(sum(ch.isupper() for ch in w) >= 2 or ("." in w and w[:1].isupper()) for w in words)


def _name_words(name: str) -> list[str]:
    """The words of a name, without what is in brackets, credentials after a comma, and markup."""
    name = re.sub(r"\([^()]*(?:\([^()]*\)[^()]*)*\)", " ", name).split(",")[0]
    return [w.strip("*_#[]>\"'") for w in name.split() if w.strip("*_#[]>\"'")]


def _name_like(word: str) -> bool:
    """A word a name may hold: capitalised, a number, a particle, a role's word, or an elided particle with the
    name it is part of ("d'Entremont")."""
    lower = word.casefold()
    return (word[:1].isupper() or word[:1].isdigit() or lower in _PARTICLES or lower in _ROLE_WORDS
            or re.match(r"[a-z]'\w", word) is not None)


def reads_as_name(name: str, *, alone: bool) -> bool:
    """Whether a label's name is a name and not the head of a sentence or a heading ("Note"). ``alone``: the
    label is alone on its line, the words on the lines after."""
    words = _name_words(name)
    if not words or " ".join(w.casefold().rstrip(".") for w in words) in _HEADINGS:
        return False
    if alone:
        return len(words) <= 8 and not any(w.casefold() in _SENTENCE_WORDS for w in words)
    return len(words) <= 6 and all(map(_name_like, words))


def _alone(text: str, end: int) -> bool:
    """Whether only spaces follow ``end`` on its line."""
    stop = text.find("\n", end)
    return not text[end:stop if stop >= 0 else len(text)].strip()


@lru_cache(maxsize=4096)
def _is_label(name: str, after_comma: str | None, *, alone: bool) -> bool:
    """Whether a name (and what follows its comma) make a label: with words after it on its line
    (``alone`` False) a name and credentials; alone on its line, any phrase that is no sentence. Cached:
    a transcript's labels are a few names said over and over."""
    if alone:
        return _after_comma(after_comma, alone=True) and reads_as_name(name, alone=True)
    return _after_comma(after_comma, alone=False) and reads_as_name(name, alone=False)


def parse(m: re.Match[str], text: str) -> tuple[str, str, bool, int] | None:
    """(speaker, timestamp, whether it is a deposition's Q. or A., where the words start) of a LINE or
    FIRST_LINE match in ``text``, or None when it is no turn start (an unbracketed "10:30", a heading, the
    head of a sentence). A tuple, not a Label: this runs once per turn of every located document."""
    lead, name1, cred1, time1, sep1, name2, cred2, time2, sep2, name4, qa, name3, time3 = m.groups()
    name, after_comma, separator = (name2, cred2, sep2) if name2 else (name1, cred1, sep1)
    if name:
        if _is_label(name, after_comma, alone=False) or (
                (":" not in separator or _alone(text, m.end()))  # a tab: a table's row, the words beside
                and _is_label(name, after_comma, alone=True)):
            return name.strip(), time1 or time2 or (lead.strip("[]()") if lead else ""), False, m.end()
        if lead:
            return None
        # Not a name and a colon: perhaps the record style ("Mr. SPECTER. Thank you: ...").
        line = m.start() + (text.startswith("\r\n", m.start()) + 1 if text[m.start()] in "\r\n" else 0)
        record = _RECORD.match(text, line)
        if record is None:
            return None
        m, name4, qa = record, record.group("name4"), record.group("qa")
    if name4 or qa:
        return (name4 or qa).strip(), "", bool(qa), m.end()
    if name3:
        return name3.strip(), time3, False, m.end()
    if lead and (lead[0] in "[(" or lead.count(":") >= 2):
        return "", lead.strip("[]()"), False, m.end()
    return None


def label_of(line: str) -> Label | None:
    """The label or timecode opening ``line``, if it has one (a Q. or A. only within a deposition: see
    quoteverify.sources.turns)."""
    m = FIRST_LINE.match(line)
    found = parse(m, line) if m else None
    return Label(found[0], found[1], found[3]) if found and not found[2] else None


def quote_label(quote: str) -> Label | None:
    """The speaker's label a quote opens with, as a transcript writes it ("P1: We get a phone call ..."), with
    words after it; None when it opens with none (a timecode is no speaker's label)."""
    label = label_of(quote)
    return label if label is not None and label.speaker and quote[label.end:].strip() else None


# A line shaped like a label: perhaps markup, a capitalised phrase of up to 60 characters, a colon.
_SHAPED = re.compile(r"(?:\r\n?|\n)[ \t]*(?P<label>[*_#>\[]*[A-ZÀ-ÖØ-Þ][^\n\r:]{0,60}?[*_\]]*[ \t]*:)(?=[ \t\r\n]|$)")


def unread(text: str, starts: set[int]) -> list[tuple[int, str]]:
    """The lines of ``text`` shaped like a speaker label that no turn starts at (``starts``), and that are no
    heading and no sentence: (offset of the line, the label as written), in order."""
    found = []
    for m in _SHAPED.finditer("\n" + text):  # the first line opens after a newline too
        line = m.start() + (m.group().startswith("\r\n"))  # in text: where the line starts
        if line in starts:
            continue
        label = m["label"].rstrip(": \t")
        if reads_as_name(label, alone=True) and all(map(_name_like, _name_words(label))):
            found.append((line, m["label"].strip()))
    return found
