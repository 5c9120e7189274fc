"""What a reviewer needs to read the results: the statuses, severities, colours and the four decisions.

One text, shown three times: the workbook's first sheet (``Guide``), the review page's *Guide* panel and
the README's section "Statuses, severities and decisions" (tests/test_docs.py checks that the README holds
these very sentences), so that the three never drift apart.
"""
from __future__ import annotations

from ..model.types import DECISIONS, SEVERITIES, STATUSES

STATUS_MEANING = {
    "verified": "Found in the source, and every difference is shown to be harmless (case, quotation marks, an "
                "'um' left out, a benign [bracket] or ellipsis). Needs no decision.",
    "review": "Found, but it differs in a way a person must judge: a changed number, negation or name, "
              "rewording, passages spliced or reordered, something left out or put in that no test showed "
              "empty, or another document or speaker than the one claimed. The reasons say what differs.",
    "unverified": "No passage in the sources aligns with it. The suggestion names the closest passage, if any.",
}

SEVERITY_MEANING = {
    "high": "The likeliest changes of meaning by p_change: most often a number, negation or name changed, a word "
            "exchanged, passages spliced or reordered, another document or speaker. Look at these first.",
    "medium": "Likely changes: most often content left out or put in: words an ellipsis leaves out, a cut sentence "
              "whose rest may turn the quote, words, a bracket or scare quotes added, a slip into another real word, "
              "a form that may read otherwise ('I had like' for I'd like, 'no 1' for no one).",
    "low": "The least likely: most often cosmetic or uncertain: a question made a statement, a case change, a "
           "hyphen, only small words left out.",
}
SEVERITY_NOTE = "Only quotes in review have a severity and a p_change: how likely a strict editor would call the " \
                "quote a change of meaning, 0 to 1, from what differs (fitted on labelled sets; the severity is " \
                "p_change cut at confidence.change_high and change_medium). Rows and cards come worst first: " \
                "unverified, then review by p_change, then verified; the reasons that raise p_change most come first."

# (what is coloured, colour, meaning): the workbook's and the page's colours, in words.
COLOURS = (
    ("status", "green", "verified"),
    ("status", "pale green", "verified, claim not checked: the document the quote table names for it is none of "
                             "the sources (or no speaker label tells its speaker), so where it comes from was not "
                             "checked; the reasons say so"),
    ("status", "yellow", "review"),
    ("status", "red", "unverified"),
    ("severity", "red", "high"),
    ("severity", "orange", "medium"),
    ("severity", "grey", "low"),
    ("differing words", "bold red", "a number, negation or name changed"),
    ("differing words", "bold orange", "other wording, an elision, the order"),
    ("differing words", "blue", "harmless: normalization, punctuation, editorial brackets, disfluency"),
)

# What each decision means for a quote of each status: the reviewer's verdict on the quote as printed.
DECISION_MEANING = {
    "accept": {
        "review": "The difference is fair (an acceptable edit, the right speaker after all): the quote stands "
                  "as printed.",
        "unverified": "You found the passage yourself, in a source not checked here: the quote stands as printed.",
        "verified": "Optional: the check already agrees.",
    },
    "reject": {
        "review": "The difference changes what was said: take the quote out of the paper, or replace it.",
        "unverified": "It is in none of the sources: take it out of the paper.",
        "verified": "It is in the source but should not be used (context, consent): take it out.",
    },
    "fix quote": {
        "review": "The source is right: correct the quote, its speaker or its document to match the source "
                  "passage shown.",
        "unverified": "Another passage was meant (see the suggestion): correct the quote to it.",
        "verified": "A harmless edit you still want undone: print the source's exact words.",
    },
    "fix source": {
        "review": "The quote is right and the transcript is wrong or out of date: correct the transcript (or "
                  "the quote table's document or speaker), then run again.",
        "unverified": "The passage is missing from the sources given: add or correct the transcript, then run "
                      "again.",
        "verified": "The transcript has a mistake the quote put right: correct the transcript.",
    },
}
DECISION_NOTE = ("Decide every quote in review or unverified; verified quotes need no decision. Write why in "
                 "the note. quoteverify review counts what is decided, and the next verify run carries each "
                 "decision over while the quote and its source passage are unchanged.")

DECISION_STATUSES = ("review", "unverified", "verified")  # the columns of the decisions table, most work first



def markdown() -> str:
    """The guide as Markdown tables: the text of the README's section (a test compares them)."""
    lines = ["| status | meaning |", "|---|---|"]
    lines += [f"| `{s}` | {STATUS_MEANING[s]} |" for s in STATUSES]
    lines += ["", "| severity | meaning |", "|---|---|"]
    lines += [f"| `{s}` | {SEVERITY_MEANING[s]} |" for s in SEVERITIES]
    lines += ["", SEVERITY_NOTE, "", "| colour | of | means |", "|---|---|---|"]
    lines += [f"| {colour} | {what} | {meaning} |" for what, colour, meaning in COLOURS]
    lines += ["", "| decision | for a quote in `review` | `unverified` | `verified` |", "|---|---|---|---|"]
    lines += [f"| `{d}` | " + " | ".join(DECISION_MEANING[d][s] for s in DECISION_STATUSES) + " |"
              for d in DECISIONS]
    lines += ["", DECISION_NOTE]
    return "\n".join(lines) + "\n"
