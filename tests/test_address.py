"""An ellipsis over a form of address (", Mr. Chair,", ", Herr Abgeordneter Jarolim,") leaves out nothing the
kept words say: verified, the address named. Anything else between the same commas is content: review."""
from __future__ import annotations

import pytest

import quoteverify

NO_EMBED = {"embed": {"enabled": False}}


def check(source: str, quote: str):
    return quoteverify.verify({"d": source}, [quote], NO_EMBED)[0]


@pytest.mark.parametrize(("source", "quote"), [
    ("Smith: I think, Mr. Chair, that the minister is wrong about the budget for this year.",
     "I think … that the minister is wrong about the budget for this year."),
    ("Lee: We know, Madam Speaker, that the new plan for the hospital was late again this spring.",
     "We know … that the new plan for the hospital was late again this spring."),
    ("Jones: Sollten Sie es lächerlich finden, Herr Abgeordneter Jarolim, dass ich Schülergruppen begrüße, "
     "dann tut es mir leid.",
     "Sollten Sie es lächerlich finden, … dass ich Schülergruppen begrüße, dann tut es mir leid."),
    ("Pérez: Le digo, señor ministro, que la reforma educativa llega tarde y sin presupuesto para las escuelas.",
     "Le digo … que la reforma educativa llega tarde y sin presupuesto para las escuelas."),
    ("Dupont: Je vous le dis, monsieur le député, la réforme arrive trop tard pour les familles de ce pays.",
     "Je vous le dis … la réforme arrive trop tard pour les familles de ce pays."),
], ids=["en-chair", "en-madam-speaker", "de-abgeordneter", "es-ministro", "fr-depute"])
def test_an_ellipsis_over_an_address_is_verified(source: str, quote: str) -> None:
    result = check(source, quote)
    assert (result.status, result.match_type) == ("verified", "elided"), result.reasons
    (elision,) = [d for d in result.differences if d.kind == "elision"]
    assert result.reasons == [f"ellipsis leaves out a form of address: {elision.source_text.strip()!r}"]


@pytest.mark.parametrize(("source", "quote"), [
    # An item of a list of names is content, though it looks like an address.
    ("Kim: We invited Mr. Smith, Mr. Jones, Dr. Brown and Ms. Lee to the hearing on the new hospital.",
     "We invited Mr. Smith, … Dr. Brown and Ms. Lee to the hearing on the new hospital."),
    # Words that are no address between the same commas.
    ("Ray: I think, Mr. Chair, not the minister, that the budget for this year is wrong.",
     "I think … that the budget for this year is wrong."),
    ("Ann: The report, the minister said, was finished in May and sent to the council at once.",
     "The report … was finished in May and sent to the council at once."),
    # An address word that is not at the head of the stretch: an apposition that says something.
    ("Bo: The money, which the minister promised, never reached the clinic in the north of the county.",
     "The money … never reached the clinic in the north of the county."),
], ids=["list-of-names", "address-and-more", "reporting", "relative-with-negation-after"])
def test_what_is_no_address_is_not_left_out_as_one(source: str, quote: str) -> None:
    result = check(source, quote)
    assert "address" not in " ".join(result.reasons), result.reasons
    if result.status == "verified":  # only the aside test may show it empty, never the address test
        assert any("aside" in r for r in result.reasons), result.reasons
