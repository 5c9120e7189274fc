"""Transcript turns: speaker labels and timecodes, lookups by offset, speakers compared, turns crossed."""
from __future__ import annotations

import pytest
from conftest import NO_EMBED, span_of

import quoteverify
from quoteverify.sources.turns import Label, Turns, label_of, same_speaker, speaker_key


@pytest.mark.parametrize(("line", "label"), [
    ("Maria: It was hard.", Label("Maria", "", 6)),
    ("I: How did it go?", Label("I", "", 2)),
    ("R: Badly.", Label("R", "", 2)),
    ("Interviewer: Why?", Label("Interviewer", "", 12)),
    ("SPEAKER 1: So.", Label("SPEAKER 1", "", 10)),
    ("Dr. Okafor: Yes.", Label("Dr. Okafor", "", 11)),
    ("Maria (00:31): It was hard.", Label("Maria", "00:31", 14)),
    ("P3 [00:04:12]: Yes.", Label("P3", "00:04:12", 14)),
    ("P3 (nurse): Yes.", Label("P3 (nurse)", "", 11)),
    ("P3 (nurse) (00:04:12): Yes.", Label("P3 (nurse)", "00:04:12", 22)),
    ("[00:01:11] Maria: It was hard.", Label("Maria", "00:01:11", 17)),
    ("(00:01:11) Maria: It was hard.", Label("Maria", "00:01:11", 17)),
    ("00:01:11:00 SPEAKER 2: Right.", Label("SPEAKER 2", "00:01:11:00", 22)),
    ("00:01:11.500 - Maria: Right.", Label("Maria", "00:01:11.500", 21)),
    ("Geoffrey Litt (00:00):", Label("Geoffrey Litt", "00:00", 22)),
    ("Speaker 1  0:03", Label("Speaker 1", "0:03", 15)),
    ("00:01:11:00", Label("", "00:01:11:00", 11)),
    ("[00:05:00] and then we left.", Label("", "00:05:00", 10)),
    ("  Maria: indented", Label("Maria", "", 8)),
    ("Maria\tIt was hard.", Label("Maria", "", 6)),
    ("00:01:11\tMaria\tIt was hard.", Label("Maria", "00:01:11", 15)),
    # Names as transcripts print them: credentials after a comma, initials, titles, capitals, roles.
    ("Dr. Jane Roe, Psy.D: Yes.", Label("Dr. Jane Roe, Psy.D", "", 20)),
    ("Jane Roe, PhD: Yes.", Label("Jane Roe, PhD", "", 14)),
    ("Jane Roe, MD, MPH: Yes.", Label("Jane Roe, MD, MPH", "", 18)),
    ("J.R.: Yes.", Label("J.R.", "", 5)),
    ("Mr. NORTH: Yes, sir.", Label("Mr. NORTH", "", 10)),
    ("Lead Inquiry: Thank you.", Label("Lead Inquiry", "", 13)),
    ("Unidentified speaker: Hello?", Label("Unidentified speaker", "", 21)),
    ("Member of the public: Shame!", Label("Member of the public", "", 21)),
    ("Mr. Chris d'Entremont (West Nova, CPC): Thanks.", Label("Mr. Chris d'Entremont (West Nova, CPC)", "", 39)),
    ("The Chair (Hon. Anthony Rota (Nipissing, Lib.)): Order.",
     Label("The Chair (Hon. Anthony Rota (Nipissing, Lib.))", "", 48)),
    ("Sir Keir Starmer (Holborn and St Pancras) (Lab): Thank you.",
     Label("Sir Keir Starmer (Holborn and St Pancras) (Lab)", "", 48)),
    # Alone on its line, the words on the next: a role after the comma, lower-case words.
    ("Vincent Peillon, ministre de l'éducation nationale:",
     Label("Vincent Peillon, ministre de l'éducation nationale", "", 51)),
    ("Plusieurs députés du groupe UMP:", Label("Plusieurs députés du groupe UMP", "", 32)),
    # The record style of parliaments and courts.
    ("Mr. SPECTER. Mr. President, I rise.", Label("Mr. SPECTER", "", 13)),
    ("   The PRESIDING OFFICER. The clerk will call the roll.", Label("The PRESIDING OFFICER", "", 26)),
    ("The SPEAKER pro tempore. The gentleman is recognized.", Label("The SPEAKER pro tempore", "", 25)),
    ("Mr. SMITH of Oregon. I yield.", Label("Mr. SMITH of Oregon", "", 21)),
    ("The PRESIDING OFFICER (Mr. KAINE). Without objection.", Label("The PRESIDING OFFICER (Mr. KAINE)", "", 35)),
    ("Mr. McCONNELL. Madam President, I ask.", Label("Mr. McCONNELL", "", 15)),
    ("Mr. VAN HOLLEN. Thank you.", Label("Mr. VAN HOLLEN", "", 16)),
])
def test_label_styles(line: str, label: Label) -> None:
    assert label_of(line) == label


@pytest.mark.parametrize("line", [
    "10:30 we met at the station.",   # a time in running text: no brackets, no hours
    "maria: lower case is not a label",
    "Maria:no space after the colon",
    "",
    # Prose and headings: the head of a sentence, a heading word, a name in running text.
    "Note: the meeting moved to Tuesday.",
    "Example: the budget of 2019.",
    "Date: 12 May",
    "The answer is simple: we wait.",
    "Well, I think: yes.",
    "Yes, I: no.",                    # "I" is no credential
    "Mr. Smith said.",
    "Mr. SMITH said so.",
    "The FBI. It was late.",
    "Q3 results.",
    "Q3 results: up 4%.",
    "A. Smith wrote the report.",
    "Q. Did you see him?",            # a deposition's Q. and A. only where a document has both
    "Je pose la question : quand M. Hollande a-t-il raison ?",
    "Um exemplo concreto: a gente tem o horário nobre.",
    # Shaped like labels, but not read (the run's summary names them).
    "Speaker #1: hello",
    "**Alice**: hello",
])
def test_not_labels(line: str) -> None:
    assert label_of(line) is None


TRANSCRIPT = (
    "Project notes, read before the interview.\n"
    "[00:00:05] I: How did the first year go?\n"
    "R: It was harder than we expected.\n"
    "We lost 15 volunteers.\n"
    "00:02:10:00\n"
    "And the clinic closed twice.\n"
    "Maria (00:03:00): I agree with that.\n"
)


def test_turns_by_offset() -> None:
    turns = Turns(TRANSCRIPT)
    at = lambda passage: turns.at(span_of(TRANSCRIPT, passage)[0])  # noqa: E731
    assert at("Project notes") is None
    first = at("How did")
    assert (first.speaker, first.timestamp) == ("I", "00:00:05")
    assert (first.start, first.body) == (TRANSCRIPT.index("[00:00:05]"), TRANSCRIPT.index(" How did"))
    # A label without a timestamp keeps the latest one; a timecode line keeps the speaker.
    assert (at("harder").speaker, at("harder").timestamp) == ("R", "00:00:05")
    assert (at("15 volunteers").speaker, at("15 volunteers").timestamp) == ("R", "00:00:05")
    assert (at("clinic closed").speaker, at("clinic closed").timestamp) == ("R", "00:02:10:00")
    assert (at("I agree").speaker, at("I agree").timestamp) == ("Maria", "00:03:00")
    assert len(turns) == 4


def test_first_line_label_and_crlf() -> None:
    text = "Maria: One.\r\nInterviewer: Two?\r\nMaria: Three."
    turns = Turns(text)
    assert [turns.at(text.index(w)).speaker for w in ("One", "Two", "Three")] == ["Maria", "Interviewer", "Maria"]
    assert turns.at(text.index("Two")).start == text.index("Interviewer")


def test_speakers_a_span_runs_across() -> None:
    turns = Turns(TRANSCRIPT)
    span = lambda a, b: (span_of(TRANSCRIPT, a)[0], span_of(TRANSCRIPT, b)[1])  # noqa: E731
    assert turns.speakers([span("harder", "closed twice")]) == ("R",)  # a timecode in mid-turn is no new turn
    assert turns.speakers([span("closed twice", "I agree")]) == ("R", "Maria")
    assert turns.speakers([span("first year", "I agree")]) == ("I", "R", "Maria")
    assert turns.speakers([span("Project notes", "How did")]) == ("I",)  # text before the first label: nobody
    assert turns.speakers([span("harder", "harder"), span("I agree", "I agree")]) == ("R", "Maria")
    # A span ending where the next turn starts stays in its own.
    end = TRANSCRIPT.index("Maria (")
    assert turns.speakers([(TRANSCRIPT.index("And the"), end)]) == ("R",)


def test_cues_are_the_turns_when_given() -> None:
    cues = (quoteverify.model.types.Turn(0, "Maria", "00:00:01.000", 0), quoteverify.model.types.Turn(6, "", "00:00:02.000", 6))
    turns = Turns("Hello\nthere\n", cues=cues)
    assert turns.at(7) == cues[1]
    assert turns.speakers([(0, 11)]) == ("Maria",)


@pytest.mark.parametrize(("claimed", "found", "same"), [
    ("P3", "P3", True),
    ("p3", "P3", True),
    ("P 3", "P3", True),
    ("P3 (00:04:12)", "P3", True),
    ("P3, nurse", "P3", True),
    ("P3; emphasis added", "P3", True),
    ("Interviewee 7, nurse", "Interviewee 7", True),
    ("Participant 3", "P3", True),
    ("P3", "P3 (nurse)", True),
    ("Dr Okafor", "Dr. Okafor", True),
    ("MARIA", "Maria", True),
    ("P3", "P4", False),
    ("Maria", "Maria Lopez", False),
    ("Speaker 1", "SPEAKER 1", True),
    # A name without its title names the titled name; two titles must agree.
    ("Specter", "Mr. SPECTER", True),
    ("Senator Specter", "Mr. SPECTER", False),
    ("Mr. Smith", "Mrs. Smith", False),
    ("Chair", "The Chair (Hon. Anthony Rota (Nipissing, Lib.))", True),
    ("Jane Roe", "Dr. Jane Roe, Psy.D", True),
    ("Jane Roe", "Jane Roe, PhD", True),
    # A name in the label's brackets: the holder of an office.
    ("Boris Johnson", "The Prime Minister (Boris Johnson)", True),
    ("Anthony Rota", "The Chair (Hon. Anthony Rota (Nipissing, Lib.))", True),
    ("Theresa May", "The Prime Minister (Boris Johnson)", False),
])
def test_speakers_compare_sensibly(claimed: str, found: str, same: bool) -> None:
    assert same_speaker(claimed, found) is same


def test_speaker_key() -> None:
    assert [speaker_key(s) for s in ("Participant 12", "Respondent 4", "Interviewer (JS)", "Int.", "P3 00:01:02",
                                     "The Chair (Hon. Anthony Rota (Nipissing, Lib.))", "Jane Roe, PhD")] \
        == ["p12", "r4", "interviewer", "int", "p3", "thechair", "janeroe"]


# ------------------------------------------------------------ through verify: speakers, interviewers, crossings

def _verify(text: str, quotes: list[dict]) -> list:
    return quoteverify.verify({"int-1": text}, quotes, NO_EMBED)


@pytest.mark.parametrize(("text", "speaker", "timestamp"), [
    ("Interviewer: How was it?\nP3: We lost fifteen volunteers in the first month.\n", "P3", ""),
    ("I: How was it?\nR: We lost fifteen volunteers in the first month.\n", "R", ""),
    ("INTERVIEWER: How was it?\nSPEAKER 1: We lost fifteen volunteers in the first month.\n", "SPEAKER 1", ""),
    ("Interviewer (00:00:10): How was it?\nP3 (00:04:12): We lost fifteen volunteers in the first month.\n",
     "P3", "00:04:12"),
    ("[00:00:10] Interviewer: How was it?\n[00:04:12] P3: We lost fifteen volunteers in the first month.\n",
     "P3", "00:04:12"),
    ("00:00:10:00 Interviewer: How was it?\n00:04:12:05 P3: We lost fifteen volunteers in the first month.\n",
     "P3", "00:04:12:05"),
    ("Interviewer  0:10\nHow was it?\n\nP3  4:12\nWe lost fifteen volunteers in the first month.\n", "P3", "4:12"),
])
def test_every_label_style_gives_speaker_timestamp_and_checks(text: str, speaker: str, timestamp: str) -> None:
    quote = "We lost fifteen volunteers in the first month."
    right, wrong, interviewer = _verify(text, [{"quote": quote, "speaker": "p3" if speaker == "P3" else speaker},
                                               {"quote": quote, "speaker": "P7"},
                                               {"quote": "How was it?"}])
    start, end = span_of(text, quote)
    assert (right.status, right.speaker, right.timestamp, right.start, right.end) == (
        "verified", speaker, timestamp, start, end)
    assert right.line == text.count("\n", 0, start) + 1
    assert (wrong.status, wrong.match_type, wrong.reasons) == (
        "review", "misattributed", [f"said by {speaker}, not by claimed P7"])
    assert interviewer.status == "review"
    assert interviewer.reasons[0].startswith("from the interviewer's turn (")


CONVERSATION = ("Maria: We lost fifteen volunteers.\n"
                "Interviewer: Why?\n"
                "Maria: The budget never came.\n"
                "James: The nurses stayed anyway.\n")


def test_a_quote_running_into_the_interviewers_turn_needs_review() -> None:
    (result,) = _verify(CONVERSATION, ["We lost fifteen volunteers. Interviewer: Why?"])
    assert (result.status, result.match_type, result.speaker) == ("review", "misattributed", "Maria")
    assert result.reasons == ["runs across 2 speaker turns (Maria, Interviewer)"]


def test_a_quote_running_across_participants_is_reported() -> None:
    quote = "The budget never came. James: The nurses stayed anyway."
    plain, claimed = _verify(CONVERSATION, [quote, {"quote": quote, "speaker": "Maria"}])
    # Said, by the two speakers named: verified, with the reason for the reader.
    assert (plain.status, plain.reasons) == ("verified", ["runs across 2 speaker turns (Maria, James)"])
    # Claimed for one of them: someone else's words are in it.
    assert (claimed.status, claimed.match_type, claimed.reasons) == (
        "review", "misattributed", ["runs across 2 speaker turns (Maria, James)"])


def test_an_ellipsis_over_the_interviewers_question_needs_review() -> None:
    # The kept words are Maria's, but the question left out between them may be what they answer.
    (result,) = _verify(CONVERSATION, [{"quote": "We lost fifteen volunteers ... The budget never came.",
                                        "speaker": "Maria"}])
    assert (result.status, result.match_type) == ("review", "elided")
    assert result.reasons == ["the ellipsis runs over Interviewer's words between Maria's"]


# ------------------------------------------------------------ the record style, depositions, credentials

RECORD = ("    Mr. SPECTER. Mr. President, I rise to speak on the nomination. The nominee took an oath.\n"
          "    The PRESIDING OFFICER. The Senator from Pennsylvania is recognized. The Senate stands adjourned.\n"
          "    Mr. LEAHY. Mr. President, I agree with my friend.\n")


def test_the_congressional_records_paragraphs_are_turns() -> None:
    turns = Turns(RECORD)
    assert [turns.at(RECORD.index(w)).speaker for w in ("I rise", "Senator from", "I agree")] == [
        "Mr. SPECTER", "The PRESIDING OFFICER", "Mr. LEAHY"]
    assert turns.at(RECORD.index("I rise")).body == RECORD.index("Mr. President")


def test_an_ellipsis_joining_the_presiding_officer_to_a_senator_is_not_verified() -> None:
    joined, own, claimed = _verify(RECORD, [
        "I rise to speak on the nomination ... The Senate stands adjourned.",
        "I rise to speak on the nomination. ... The nominee took an oath.",
        {"quote": "The nominee took an oath.", "speaker": "Specter"}])
    assert (joined.status, joined.match_type) == ("review", "elided")
    assert joined.reasons == ["the ellipsis joins Mr. SPECTER's words to The PRESIDING OFFICER's",
                              "runs across 2 speaker turns (Mr. SPECTER, The PRESIDING OFFICER)"]
    assert (own.status, own.speaker) == ("verified", "Mr. SPECTER")
    assert (claimed.status, claimed.speaker, claimed.speaker_occurrences) == ("verified", "Mr. SPECTER", 1)


DEPOSITION = ("Q. Did you see the defendant that night?\n"
              "A. Yes. I saw him at the bar.\n"
              "Q. What time was it?\n"
              "A. About ten.\n")


def test_a_depositions_questions_and_answers_are_turns() -> None:
    turns = Turns(DEPOSITION)
    assert [turns.at(DEPOSITION.index(w)).speaker for w in ("Did you", "I saw", "What time", "About")] == [
        "Q", "A", "Q", "A"]
    answer, question = _verify(DEPOSITION, ["I saw him at the bar.", "Did you see the defendant that night?"])
    assert (answer.status, answer.speaker) == ("verified", "A")
    assert (question.status, question.reasons) == ("review", ["from the interviewer's turn (Q), not a participant's"])
    # Without questions, "A." opens no turn: an outline, a list.
    assert len(Turns("A. Smith wrote the report.\nB. Jones read it.\n")) == 0


def test_a_speaker_with_credentials_is_no_longer_the_speaker_before() -> None:
    text = ("Interviewer: How did it start?\n"
            "Dr. Jane Roe, Psy.D: The clinic opened in March.\n"
            "Interviewer: And then?\n"
            "Dr. Jane Roe, Psy.D: The money ran out.\n")
    right, plain = _verify(text, [{"quote": "The money ran out.", "speaker": "Jane Roe"}, "The clinic opened in March."])
    assert (right.status, right.speaker, right.speaker_occurrences) == ("verified", "Dr. Jane Roe, Psy.D", 1)
    assert (plain.status, plain.speaker) == ("verified", "Dr. Jane Roe, Psy.D")


def test_prose_is_not_read_as_turns() -> None:
    text = ("Note: the meeting moved to Tuesday.\n"
            "The answer is simple: we wait.\n"
            "Mr. Smith said.\n"
            "We met at\n"
            "10:30 and left.\n"
            "Q3 results.\n")
    assert len(Turns(text)) == 0


# ------------------------------------------------------------ what the run's summary says of labels

def _warnings(documents: dict[str, str], quotes: list) -> list[str]:
    return quoteverify.run(documents, quotes, NO_EMBED).warnings


def test_lines_shaped_like_labels_that_were_not_read_are_named() -> None:
    text = ("Maria: We lost fifteen volunteers.\n"
            "Speaker #1: Why?\n"
            "Maria: The budget never came.\n"
            "**Alice**: Nobody told us.\n"
            "Note: the tape ends here.\n")
    assert _warnings({"int-1": text}, ["The budget never came."]) == [
        "int-1: 2 speaker turns read, but 2 lines shaped like speaker labels were not (line 2 'Speaker #1:', "
        "line 4 '**Alice**:'); their words count as the turn before them"]
    # A document no quote is found in or claimed for is not looked at.
    assert _warnings({"int-1": text, "int-2": "Maria: Hello there, everyone."}, ["Hello there, everyone."]) == []


def test_a_document_without_labels_is_named_when_a_speaker_is_claimed_there() -> None:
    text = "We lost fifteen volunteers. The budget never came."
    assert _warnings({"int-1": text}, [{"quote": "The budget never came.", "speaker": "Maria"}]) == [
        "int-1: no speaker labels read, so the speaker claimed for 1 quote there cannot be checked "
        "(the labels read: docs/places.md)"]
    assert _warnings({"int-1": text}, ["The budget never came."]) == []  # prose, and no speaker claimed


def test_the_label_warning_goes_to_stderr(tmp_path) -> None:
    from click.testing import CliRunner

    from quoteverify.cli import main

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "int-1.txt").write_text("Maria: We lost fifteen volunteers.\nSpeaker #1: Why?\n"
                                                 "Maria: The budget never came.\n", encoding="utf-8")
    (tmp_path / "quotes.csv").write_text("quote_id,quote,speaker\nq1,The budget never came.,Maria\n",
                                         encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(tmp_path / "docs"), str(tmp_path / "quotes.csv"), "--no-embed",
                                       "--no-cache"])
    assert result.exit_code == 0, result.output
    assert ("Warning: int-1: 2 speaker turns read, but 1 line shaped like a speaker label was not "
            "(line 2 'Speaker #1:'); their words count as the turn before them") in result.stderr.splitlines()
