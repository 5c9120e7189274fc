"""numbers: number words from num2words, per language."""
from __future__ import annotations


def test_a_language_table_failing_on_one_number_leaves_the_others() -> None:
    # Found by the arbitrary-Unicode property test: num2words's Catalan ordinals raise KeyError for some numbers,
    # which crashed any comparison of a Catalan quote; those numbers are read from digits only.
    from conftest import NO_EMBED

    import quoteverify
    from quoteverify.sources.numbers import words_for

    catalan = words_for("ca")
    assert catalan is not None and catalan.cardinals["tres"] == 3 and catalan.ordinals
    (result,) = quoteverify.verify({"_": "0:BAÀ"}, [":0"], NO_EMBED)
    assert (result.language, result.status) == ("ca", "verified")
