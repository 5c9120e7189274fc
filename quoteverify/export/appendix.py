"""A methods paragraph and a table of quotes for a paper's appendix, in Markdown or LaTeX.

Every number in the text comes from the run: settings from its manifest,
counts from its results. The results must be the JSONL written by the run the
manifest describes (checked by sha256), so settings and counts cannot come
from two different runs.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..model.errors import InputError, OutputError
from ..model.rows import results_file_bytes, results_from_jsonl
from ..model.text import plural, utf8
from ..model.types import MATCH_TYPES, Findings, QuoteResult, count_by_decision
from ..plumbing.guard import marked
from ..plumbing.manifest import Manifest, Summary, summarize
from ..plumbing.transaction import write_bytes_atomic

APPENDIX_FORMATS = {".md": "markdown", ".markdown": "markdown", ".tex": "latex"}
TABLE_HEADER = ("Quote", "Document", "Location", "Status", "Match type")


@dataclass(frozen=True)
class _Style:
    """How one output format spells text, code, a heading and a table."""

    escape: Callable[[str], str]
    code: Callable[[str], str]
    heading: Callable[[str], str]
    table: Callable[[Sequence[str], Sequence[Sequence[str]]], str]
    preamble: str = ""


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text)


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~])")


def markdown_escape(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", _one_line(text))


def _markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(map(markdown_escape, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(markdown_escape, row)) + " |" for row in rows]
    return "\n".join(lines)


_LATEX = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#", "_": r"\_",
    "%": r"\%", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}", "<": r"\textless{}",
    ">": r"\textgreater{}", "|": r"\textbar{}", "≥": r"$\geq$", "—": "---", "–": "--", "…": r"\ldots{}",
}


def latex_escape(text: str) -> str:
    """Text safe anywhere in a LaTeX paragraph or table cell: specials escaped, control characters gone."""
    return "".join(_LATEX.get(c, c) for c in _one_line(text) if c.isprintable())


def _latex_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    def line(cells: Sequence[str]) -> str:
        return " & ".join(map(latex_escape, cells)) + r" \\"

    return "\n".join([r"\begin{longtable}{@{}" + "l" * len(header) + "@{}}", r"\toprule", line(header),
                      r"\midrule", r"\endhead", *map(line, rows), r"\bottomrule", r"\end{longtable}"])


# Each starts with the mark of quoteverify's outputs, in a comment: an appendix saved among the transcripts is
# never read as one (quoteverify.plumbing.guard).
_STYLES = {
    "markdown": _Style(escape=markdown_escape, code=lambda s: f"`{s}`", heading=lambda s: f"## {markdown_escape(s)}",
                       table=_markdown_table, preamble=f"<!-- {marked('appendix')} -->"),
    "latex": _Style(escape=latex_escape, code=lambda s: r"\texttt{" + latex_escape(s) + "}",
                    heading=lambda s: r"\subsection*{" + latex_escape(s) + "}", table=_latex_table,
                    preamble=f"% {marked('appendix')}. Needs \\usepackage{{booktabs,longtable}} in the preamble."),
}


def _num(value: float) -> str:
    return f"{value:g}"


def _share(n: int, total: int) -> str:
    verb = "was" if n == 1 else "were"
    return f"{n} ({n / total:.1%}) {verb}"


def _method(manifest: Manifest) -> list[str]:
    """The methods, a paragraph a subject: what was read and how it was searched, the verdict contract (its
    parts), meaning, languages."""
    config = manifest.config
    window, index, align, verdict = config["window"], config["index"], config["align"], config["verdict"]
    backend = " ".join(filter(None, (index["backend"], manifest.environment["packages"].get(index["backend"]))))
    text = (
        f"Quotes were checked against their sources with quoteverify {manifest.tool_version} "
        f"(Python {manifest.environment['python']}). Before matching, the text of the "
        f"{plural(len(manifest.documents), 'source document')} and of every quote was normalized "
        "(Unicode NFKC, case folding, typographic quotation marks and dashes unified, whitespace and line "
        "breaks collapsed); every location reported is a character span of the original file.")
    search = (
        f"The documents were split into {plural(manifest.windows, 'overlapping window')} of {window['size']} "
        f"word tokens, each sharing {window['overlap']:.0%} of its words with the next, and the windows were "
        f"indexed with BM25 ({backend}, k1 = {_num(index['k1'])}, b = {_num(index['b'])}). "
        "A quote whose words occur verbatim after normalization was located directly, fragment by fragment "
        "where an ellipsis marks an omission (fragments in source order, at most "
        f"{align['max_gap_words']} source words per omission); any other quote was aligned word by word "
        f"against the {index['top_k']} best-scoring BM25 regions, in at most {align['max_pieces']} pieces, "
        "so that splices and reorderings show as separate pieces. Quotes that could not be located were classed "
        "unverified.")
    return [text, search, *_contract(verdict), _embedding(manifest).strip(), _languages(manifest).strip()]


def _contract(verdict: dict) -> list[str]:
    """The verdict contract as the run applied it, a paragraph a part: the benign differences and their tests,
    what a quote may leave out, cut sentences, light edits, what sent a quote to review and the severities."""
    benign = (
        "Each difference between a quote and its source passage was named, and counted as benign only when a "
        "positive test showed it to be: normalization (quotation marks, dashes, spacing, line breaks, a word "
        "hyphenated at a line end) and punctuation that does not turn a question into a statement or back nor "
        "put quotation marks around words the source says plainly (scare quotes); a "
        "change of case, except one that makes another word (a name or acronym for a common word) inside a "
        "sentence of a quote and source written in mixed case; a timecode or the same speaker's label inside "
        "the quoted words; a British or American spelling of the same word, unless the quote's spelling names "
        "only one sense of the source's word (cheque for check); the same number in another form "
        "(digits or words, a percent sign or the word, a currency sign or its name, an abbreviated million or "
        "billion, an ordinal, a time of day) where the word is a number there (not 'no 1' for 'no one').")
    brackets = (
        "Of editorial brackets, [sic] counted as benign, and a bracket that changes only case, that inserts only "
        "function words, that glosses the pronoun it follows with words the speaker has just said (after the "
        "speaker's own pronoun: with the name on the speaker's label), that puts a pronoun for a name or noun "
        "phrase, that shifts the speaker's pronoun to the third person where no other person is named before "
        "it in the turn, or that puts a noun phrase for a third-person or demonstrative pronoun (not a "
        "determiner) naming only what the speaker said in that sentence or the one before (at most "
        f"{verdict['bracket_context_words']} words).")
    omitted = (
        "What a quote leaves out counted as benign only when a test "
        "showed it empty of content: under an ellipsis, whole sentences of one speaker's turn (of one "
        "paragraph, where the transcript has no speaker labels) after which the kept sentence does not open "
        "with a word that points back into them (this, that, it) or with an answer to them (yes, no); fillers, "
        "also phrases such as 'you know' "
        "where the transcript sets them off by punctuation, stutters, repeats, and false starts broken off and "
        f"begun again (of up to {verdict['false_start_words']} words); or an aside set off by parentheses, "
        "dashes, or commas after a relative pronoun or discourse marker, holding no negation, number, name, "
        "quantifier, limiter, hedge, condition, contrast, correction or reporting frame; never across a change "
        f"of speaker and for at most {verdict['max_elided_words']} source words.")
    cut = (
        "The rest of a sentence cut by an ellipsis at a quote's start or end counted as benign only when it held "
        "no word of those classes; "
        f"a quote of {verdict['excerpt_min_words']} words or more that starts or ends inside a sentence "
        "without an ellipsis was sent to review when the rest of that sentence turns it (a contrast, "
        "condition, correction or attribution within as many words as the quote has, at most "
        f"{verdict['turning_reach_words']}, after it; a negation in the clause it cuts or opening a clause after "
        "it; in German and Dutch, a separable verb's particle alone after it; a hedge, limiter or quantifier "
        "that is all the rest of the sentence on either side; a negation, "
        "attribution, frame of belief or condition just before it), or when the speaker broke off where it "
        "ends and began again.")
    return [benign, brackets, omitted, cut, _edits(verdict), *_review_and_severity(verdict)]


def _edits(verdict: dict) -> str:
    """Light edits (or that they were sent to review), the word classes, and when a quote counted as located."""
    if verdict["edited_is_verified"]:
        edits = ("As light edits, fillers and stutters left out without an ellipsis, contractions spelt "
                 "out (an ambiguous one, 'd or 's, unless the verb after it contradicts the reading: had before "
                 "a plain verb, would before a past participle, has before an -ing form, is before been, had or "
                 "got) or made, and slips of the keyboard: a spelling one edit "
                 "from the source word (two in words of seven letters or more) that keeps its first letter, is "
                 "written in one script and is no word of the language at any frequency (below Zipf frequency "
                 f"{_num(verdict['word_min_zipf'])} in the wordfreq word list), never in a name, number or "
                 "negation nor dropping a letter of a negating prefix (uable for unable), in at most "
                 f"{verdict['edited_max_changes']:.0%} of the words, counted as benign.")
    else:
        edits = ("Quotes with disfluencies left out, slips of the keyboard or contractions changed were sent "
                 "to review.")
    edits += (" The word classes come from a word list per language shipped with quoteverify; in a language "
             "without one, no slip, bracket that replaces words, or ellipsis inside a sentence counted as benign. "
             f"A quote counted as located when at least {verdict['min_coverage']:.0%} of its words aligned with "
             "a source passage.")
    return edits


def _review_and_severity(verdict: dict) -> list[str]:
    """What sent a quote to review, the severities, and which of several places was reported."""
    review = (
        "Any other difference — a changed number, negation or name, a splice, a reordering, any other changed "
        f"word — or a fuzzy match ratio below {_num(verdict['min_match_ratio'])} sent a located quote to review, "
        "as did a match in another document than the one named for the quote (misattribution).")
    severity = (
        "Every quote in review was given a severity: high where a claim was altered or inverted (a changed "
        "number, negation or name, a word exchanged, a bracket standing for other words than the source's, a "
        "splice, a reordering, "
        "a misattribution, an ellipsis that joins two speakers' words or hides a negation or number); medium "
        "where content was left out or put in (an omission no test showed empty, words dropped or added, a "
        "bracket or scare quotes that add content, a slip into another real word, a form that may read "
        "otherwise than the source's: a contraction spelt out against its verb, digits for a word that is no "
        "number there, a spelling that names one sense of the word); low where the difference is cosmetic or "
        "uncertain (a question made a statement, a case change that makes another word, a hyphen, a letter of "
        "another script, only an intensifier left out, too many slips).")
    places = (
        "Where a quote stood in several places, the one reported was, in this order of precedence, in a turn of "
        "the speaker named for it, in the document named for it, or elsewhere (the first of equally good ones); "
        "another speaker was reported only when no place was in a turn of the speaker named, and another "
        "document only when the document named held none.")
    return [review, severity, places]


def _embedding(manifest: Manifest) -> str:
    """What the methods paragraph says of sentence embeddings: when and how the cosine was measured."""
    verdict = manifest.config["verdict"]
    embedding = manifest.embedding
    text = ""
    if embedding.enabled:
        weights = (f" (weights file {embedding.weights_file}, SHA-256 {embedding.weights_sha256[:16]}…)"
                   if embedding.weights_sha256 else "")
        text += (
            "Where a verdict or its confidence could depend on meaning (a located quote with at least "
            f"{verdict['cosine_min_word_changes']} changed words and no changed number, negation or name, or with a "
            f"fuzzy match ratio below {_num(verdict['min_match_ratio'])}, or a quote with too few aligned words "
            "whose closest "
            f"passage shares at least {verdict['paraphrase_min_coverage']:.0%} of its words), the semantic "
            "similarity of the quote and its source passage was measured as the cosine similarity of "
            f"{embedding.model} sentence embeddings{weights}; a quote with too few aligned words was still "
            "reported as a paraphrase for review when that cosine reached at least "
            f"{_num(verdict['paraphrase_cosine'])}. A high cosine alone never located or verified a quote. ")
    else:
        text += ("Sentence embeddings were not used in this run: the verdicts rest on lexical evidence alone "
                 "and no cosine similarities were computed. ")
    return text


def _languages(manifest: Manifest) -> str:
    settings = manifest.config.get("language")
    if not manifest.languages or settings is None:
        return ""  # a manifest from before languages were recorded
    if settings["code"] == "auto":
        text = (f"The language of each document was detected with lingua from {settings['sample_chars']} "
                "characters in its middle, and that of each quote not found word for word, of at least "
                f"{settings['min_quote_words']} words, that the detector was at least {settings['min_confidence']:.0%} "
                "sure of, from the quote itself; any other quote was taken to be in its document's language. ")
    else:
        text = f"Every document and quote was taken to be in the language {settings['code']}, as set for the run. "
    counts = [f"{plural(v['documents'], 'document')} and {plural(v['quotes'], 'quote')} in {code}"
              for code, v in manifest.languages.items()]
    text += "Languages: " + "; ".join(counts) + ". "
    with_lexicon = [code for code, v in manifest.languages.items() if v["lexicon"] and v["quotes"]]
    without = [code for code, v in manifest.languages.items() if not v["lexicon"] and v["quotes"]]
    if with_lexicon:
        text += ("The word classes the verdict rests on (negations, quantifiers, limiters, hedges and modals, "
                 "conditions, reporting frames, fillers) came from quoteverify's lexicons for "
                 f"{', '.join(with_lexicon)}. ")
    if without:
        text += (f"Quotes in {', '.join(without)} had no lexicon and were checked conservatively: no elision, "
                 "editorial bracket or slip counted as benign for them. ")
    if manifest.embedding.enabled:
        trained = ", ".join(manifest.config["embed"].get("languages", ["en"]))
        text += (f"The embedding model's cosine was used to judge meaning only for quotes in {trained}, the "
                 "languages it was trained for. ")
    return text


def _results(summary: Summary, manifest: Manifest, manifest_name: str, style: _Style) -> str:
    total = summary.quotes
    if total == 0:
        text = "The quote table held no quotes. "
    else:
        status = summary.status
        rated = [f"{n} of {s} severity" for s, n in summary.severity.items() if n]
        severities = f" ({', '.join(rated[:-1]) + ' and ' if len(rated) > 1 else ''}{rated[-1]})" if rated else ""
        text = (f"Of the {plural(total, 'quote')}, {_share(status['verified'], total)} verified, "
                f"{_share(status['review'], total)} flagged for review{severities} and "
                f"{_share(status['unverified'], total)} unverified, that is, not located in the sources. ")
        found = [f"{summary.match_type[m]} {m}" for m in MATCH_TYPES if summary.match_type[m]]
        text += "By match type: " + (", ".join(found[:-1]) + " and " if len(found) > 1 else "") + found[-1] + ". "
        several = summary.several_places
        their = "its" if several == 1 else "their"
        text += (f"{plural(several, 'quote')} stood as well in more than one place of {their} document; the table "
                 "gives the place reported and how many there are. " if several else
                 "Every located quote stood in one place of its document. ")
    if manifest.embedding.enabled:
        if summary.cosine_quotes:
            text += (f"The mean cosine similarity over the {plural(summary.cosine_quotes, 'quote')} that "
                     f"{'has' if summary.cosine_quotes == 1 else 'have'} one was {summary.cosine_mean:.3f}. ")
        else:
            text += "No verdict depended on meaning, so no cosine similarity was computed. "
    text += (f"The run's manifest ({manifest_name}) records the full configuration, the package versions and "
             "the SHA-256 of the quote table and of each source document; ")
    return (style.escape(text) + style.code(f"quoteverify rerun {manifest_name}")
            + style.escape(" repeats the check and reports any input changed since."))


def _decisions(results: list[QuoteResult]) -> str:
    """What the reviewer decided, counted from the decisions the results hold."""
    asked = [r for r in results if r.status != "verified"]
    counts = count_by_decision(results)
    decided = sum(counts.values())
    if not decided:
        if not asked:
            return ""
        return (f"No reviewer's decision on the {plural(len(asked), 'quote')} in review or unverified is recorded "
                "with these results.")
    fixed = counts["fix quote"] + counts["fix source"]
    how = ", ".join(filter(None, (f"{counts['fix quote']} by correcting the quote" if counts["fix quote"] else "",
                                  f"{counts['fix source']} by correcting the source" if counts["fix source"] else "")))
    undecided = sum(not r.decision for r in asked)
    text = (f"A reviewer decided {plural(decided, 'quote')}: accepted {counts['accept']}, rejected "
            f"{counts['reject']} and fixed {fixed}{f' ({how})' if how else ''}. ")
    text += (f"Of the {plural(len(asked), 'quote')} in review or unverified, {undecided} "
             f"{'was' if undecided == 1 else 'were'} left undecided." if undecided else
             "Every quote in review or unverified was decided." if asked else "")
    return text.strip()


def _paging(results: list[QuoteResult]) -> str:
    """How pages and page furniture were read, when a quote was found in a paged source."""
    if not any(r.page for r in results):
        return ""
    return (" Where a source is paged (a PDF's pages, form feeds, page markers such as [[Page S5563]], or "
            "running headers and footers whose page numbers rise from page to page at regular distances), each "
            "location gives its page: the number printed on it where one was found (a running header's or "
            "footer's number that the pages around it confirm, a page marker, or the PDF's page labels), else "
            "its position in the file. Page furniture was found by where it stands and how it recurs, not by "
            "its wording, and left out of matching: lines at the top or bottom of a page that carry its number "
            "or recur at the edges of many pages, page markers, footnote text at the foot of a page (set "
            "smaller than the page's text, or opening with the number of a marker on that page) and footnote "
            "markers glued to a word (a superscript whose note is on the page, or a digit the PDF sets smaller "
            "than its line). A quote running across furniture without it counted as verbatim, the page break "
            "named among its differences; a line of the source left out at a page break, a word changed across "
            "it, or furniture's words carried into a quote remained differences. Words divided by a hyphen at a "
            "line end were joined, unless the source writes the word with a hyphen elsewhere or both halves "
            "are words of it.")


def _lined(results: list[QuoteResult], manifest: Manifest) -> str:
    """How line-numbered transcripts were read, when a quote was found in one."""
    if not any(r.cite for r in results):
        return ""
    lined = manifest.layouts.get("lined", 0)
    which = f" ({lined} of the {plural(len(manifest.documents), 'source')})" if lined else ""
    return (f" Line-numbered transcripts{which} were read by their layout: the number opening each line, the page "
            "numbers, the reporter's headers and footers, a cover of appearances, indexes and certificates were "
            "left out of matching, never read as words of the text, so a quote running across a line or a page "
            "counted as verbatim and a number or footer carried into a quote remained a difference. Speakers "
            "were read from the labels of the record: a Q. is the examining counsel's that the last BY line "
            "names, an A. the witness's that the cover, a heading or the swearing names. Each quote found in one "
            "is located by the page and line of its first and last word (18:21-19:3).")


def _location(result: QuoteResult) -> str:
    line = f"line {result.line}" if result.line is not None else ""
    several = f"1 of {result.occurrences} places" if result.occurrences > 1 else ""
    if result.cite:  # a line-numbered transcript, cited by page and line as its readers cite it
        return ", ".join(filter(None, (f"{result.cite} (page:line)", result.timestamp, several)))
    return ", ".join(filter(None, (cited_page(result), line, result.timestamp, several))) or "—"


def cited_page(result: QuoteResult) -> str:
    """ "p. 45", "pp. 45–46" as a reader cites a printed page; a page counted in the file says so."""
    if not result.page:
        return ""
    if result.page_kind == "position":
        return f"page {result.page} of the file"
    return f"{'pp' if '–' in result.page else 'p'}. {result.page}"


def _row(result: QuoteResult) -> tuple[str, ...]:
    return (result.quote_id, result.document or "not found", _location(result), result.status, result.match_type)


def render_appendix(results: list[QuoteResult], manifest: Manifest, *, style: str = "markdown",
                    manifest_name: str = "run.json", findings: Findings | None = None) -> str:
    """The appendix text: a heading, the methods paragraph, the results paragraph and the table of quotes.

    ``style`` is ``markdown`` or ``latex``; ``manifest_name`` is how the text refers to the manifest file;
    ``findings`` (quoteverify.app.support.summarize_findings) add a section when the quotes cite any.
    """
    s = _STYLES[style]
    caption = ("One row per quote, in the order of the quote table. The location is the page (where the source "
               "is paged), the line, and the timestamp where the transcript has one, at which the matched passage "
               "begins, and how many places of the document hold the quote as well where there are several.")
    if any(r.cite for r in results):
        caption += " In a line-numbered transcript, the location is the page:line of the first and last word."
    methods = [*_method(manifest), _paging(results).strip(), _lined(results, manifest).strip()]
    blocks = [s.preamble, s.heading("Quote verification"), *map(s.escape, filter(None, methods)),
              _results(summarize(results), manifest, manifest_name, s), s.escape(_decisions(results)),
              s.escape(caption), s.table(TABLE_HEADER, [_row(r) for r in results]), _findings(findings, s)]
    return "\n\n".join(b for b in blocks if b) + "\n"


FINDINGS_HEADER = ("Finding", "Quotes", "Verified", "Review", "Unverified", "Confidence", "Adjusted")


def _findings(summary: Findings | None, style: _Style) -> str:
    """The Findings section, or "" when no quote cites a finding."""
    if summary is None or not summary.findings:
        return ""
    rows = [(f.finding, str(f.n_quotes), str(f.verified), str(f.review), str(f.unverified),
             f"{f.finding_confidence:g}", f"{f.adjusted_confidence:g}") for f in summary.findings]
    return "\n\n".join([style.heading("Findings"), style.escape(summary.adjustment),
                         style.table(FINDINGS_HEADER, rows)])


def read_results(path: str | Path, *, manifest: Manifest) -> list[QuoteResult]:
    """The results of the run ``manifest`` describes, read from the JSONL that run wrote."""
    path = Path(path)
    data = results_file_bytes(path, "the appendix")
    if hashlib.sha256(data).hexdigest() != manifest.results_sha256:
        raise InputError(f"{path}: these are not the results of the run the manifest describes (their sha256 "
                         "differs from its results_sha256); give the results and the manifest of the same run")
    return results_from_jsonl(path, data)


def write_appendix(path: str | Path, results: list[QuoteResult], manifest: Manifest, *,
                   manifest_name: str = "run.json", findings: Findings | None = None) -> None:
    """Write the appendix as Markdown (.md) or LaTeX (.tex), by the extension of ``path``."""
    path = Path(path)
    style = APPENDIX_FORMATS.get(path.suffix.lower())
    if style is None:
        raise OutputError(f"{path}: unknown appendix format '{path.suffix}'; use {', '.join(APPENDIX_FORMATS)}")
    write_bytes_atomic(path, utf8(render_appendix(results, manifest, style=style, manifest_name=manifest_name,
                                                  findings=findings)))
