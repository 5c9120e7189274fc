"""Quotes that once came out wrong: each changes the meaning (never verified) or is harmless (verified)."""
from __future__ import annotations

from pathlib import Path

import pytest

import quoteverify

NO_EMBED = {"embed": {"enabled": False}}


def check(source: str, quote: str):
    return quoteverify.verify({"d": source}, [quote], NO_EMBED)[0]


@pytest.mark.parametrize(("source", "quote", "kind"), [
    # A bracket may stand for source words, but not hide a negation or a number.
    ("The manager always agreed to the plan at the meeting.", "[The director] never agreed to the plan at the meeting.",
     "negation"),
    ("I never liked the plan that they made for us.", "I [always] liked the plan that they made for us.", "negation"),
    ("The board would not approve the budget this year.", "The board [would] approve the budget this year.",
     "negation"),
    # Antonyms, pronouns and names are other words, not typos.
    ("I was very happy with the service at the clinic.", "I was very unhappy with the service at the clinic.",
     "word"),
    ("Prices decreased a lot over the last two years.", "Prices increased a lot over the last two years.", "word"),
    ("He said the nurses were tired every night.", "She said the nurses were tired every night.", "word"),
    ("Mary told me the nurses were tired every night.", "Mark told me the nurses were tired every night.", "word"),
    # An aside in brackets is something the speaker said.
    ("Last year everyone (except the doctors) got a raise from the hospital board.",
     "Last year everyone got a raise from the hospital board.", "word"),
    # Signs belong to their numbers.
    ("In winter it was -5 degrees outside the building.", "In winter it was 5 degrees outside the building.",
     "number"),
    ("They spent $5 million on the new building.", "They spent €5 million on the new building.", "number"),
    ("Only 5% of the staff came to the meeting.", "Only 5 of the staff came to the meeting.", "number"),
])
def test_meaning_changes_are_never_verified(source: str, quote: str, kind: str) -> None:
    result = check(source, quote)
    assert result.status == "review"
    assert kind in {d.kind for d in result.differences}


@pytest.mark.parametrize(("source", "quote", "kind"), [
    ("Well (laughs) we got a raise from the hospital board.", "Well we got a raise from the hospital board.",
     "disfluency"),
    ("They aimed to finish the new wing before the winter.", "They aimde to finish the new wing before the winter.",
     "typo"),
    ("The minister isn't answering the question today.", "T[he Minister] isn't answering the question today.",
     "editorial"),
    # A dash beside a number word is no sign of a number.
    ("And I had one other -- one other aspect of this to raise.", "And I had one other \u2014 one other aspect of "
     "this to raise.", "disfluency"),
])
def test_harmless_edits_are_verified(source: str, quote: str, kind: str) -> None:
    result = check(source, quote)
    assert result.status == "verified"
    assert kind in {d.kind for d in result.differences}


def test_fragments_never_chain_into_the_next_document() -> None:
    docs = {"a": "Anna: we talked for a while and then we went to the park together.",
            "b": "Ben: and then we ate lunch by the river, which was lovely."}
    for quote in ("we went to the park together ... we ate lunch by the river",
                  "we went to the park together [and] we ate lunch by the river"):
        result = quoteverify.verify(docs, [quote], NO_EMBED)[0]
        assert (result.status, result.match_type) == ("review", "spliced")


def test_cache_is_keyed_by_the_extracted_text(tmp_path: Path) -> None:
    """A .vtt and a byte-identical .txt copy have different texts: neither may reuse the other's entry."""
    vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Anna>We went to the park together.\n\n" \
          "00:00:05.000 --> 00:00:08.000\n<v Anna>Then we ate lunch by the river.\n"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "talk.vtt").write_text(vtt, encoding="utf-8")
    (tmp_path / "b" / "talk.txt").write_text(vtt, encoding="utf-8")
    quote = ["Then we ate lunch by the river."]
    cache = tmp_path / "cache"
    for folder in ("a", "b"):
        cold = quoteverify.verify(tmp_path / folder, quote, NO_EMBED)[0]
        warm = quoteverify.verify(tmp_path / folder, quote, NO_EMBED, cache_dir=cache)[0]
        assert (warm.status, warm.start, warm.end, warm.matched_text) == \
            (cold.status, cold.start, cold.end, cold.matched_text)
        assert warm.status == "verified"


@pytest.mark.parametrize(("quote", "status", "reasons"), [
    # The repeat left out whole: what the speaker said, once.
    ("We watched the old bridge fall into the river that night, and nobody could stop it.", "verified",
     ["disfluency: quote has nothing, source has 'the old bridge'"]),
    # Part of the repeat left out: "the old bridge the bridge" was never said in that order.
    ("We watched the old bridge the bridge fall into the river that night, and nobody could stop it.", "review",
     ["the quote leaves out 'old'"]),
])
def test_a_repeat_is_left_out_only_whole(quote: str, status: str, reasons: list[str]) -> None:
    result = check("We watched the old bridge the old bridge fall into the river that night, and nobody could "
                   "stop it.", quote)
    assert (result.status, result.reasons) == (status, reasons)
