"""Check the held-out adversarial set: offsets, undo, ids, CSV, and that each genuine edit is the permitted one.

    python3 benchmarks/adversarial_extra/validate.py                 (both parts)
    python3 benchmarks/adversarial_extra/validate.py SETDIR DOCSDIR   (one part)

Checks, for every case: the fields are there; ids are unique; the family is known and `expect` matches it;
`source_doc` is a document of the folder and the offsets lie inside it; undoing the edits (right to left)
turns the quote back into text[source_start:source_end] exactly; the CSV has the same rows in the same order.
Meaning-change quotes differ from their passage (an excerpt, a verbatim cut, differs from its whole sentence);
cross-speaker passages cross a speaker label. Genuine quotes are checked for the one permitted difference.
"""
import csv
import json
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BENCH = os.path.join(ROOT, "..", "shared", "bench")
PARTS = [(HERE, os.path.join(BENCH, "scale", "docs")),
         (os.path.join(HERE, "multilingual"), os.path.join(BENCH, "multilingual", "docs"))]
FIELDS = ["quote_id", "quote", "document", "family", "expect", "debatable", "rationale", "edit", "source_doc",
          "source_start", "source_end", "undo"]
MEANING = {"ellipsis_content", "excerpt_turned", "bracket_content", "word_rare", "speech_act", "turns"}
GENUINE = {"genuine_fillers", "genuine_false_start", "genuine_aside", "genuine_whole_sentences", "genuine_isation",
           "genuine_verbatim_excerpt"}
ELLIPSIS = re.compile(r"^ ?(?:\.\.\.|…|\[…\]|\[\.\.\.\]|\(…\)|\(\.\.\.\)) ?$")
FILLERS = {"en": ["um", "uh", "er", "erm", "you know", "i mean", "like", "sort of"],
           "de": ["äh", "ähm", "also", "ja", "na ja", "sozusagen", "gewissermaßen", "eben", "halt", "mal"],
           "es": ["eh", "este", "pues", "pues bien", "bueno", "o sea", "vamos", "digamos", "mire", "fíjese"],
           "fr": ["euh", "ben", "bon", "enfin", "disons", "voilà", "quoi", "eh bien", "en fait"],
           "nl": ["eh", "uh", "nou", "hè", "zeg maar", "eigenlijk", "even", "gewoon", "toch", "dus"],
           "pt": ["é", "né", "ahn", "hã", "tipo", "assim", "então", "e aí", "olha", "quer dizer", "digamos", "bom"]}
POINTING_BACK = {"this", "that", "it", "these", "those", "he", "she", "they", "dies", "das", "es", "esto", "eso",
                 "ello", "cela", "ça", "ce", "dit", "dat", "het", "isso", "isto", "ele", "ela"}
NEGATIONS = {"not", "no", "never", "n't", "nicht", "kein", "keine", "nie", "no", "nunca", "ne", "pas", "jamais",
             "niet", "geen", "nooit", "não", "nem"}

errors = []


def err(cid, msg):
    errors.append(f"{cid}: {msg}")


def words(s):
    return re.findall(r"[\w%£$€]+(?:['’][\w]+)*", s.replace("’", "'").lower())


def undo(q, ops):
    for qs, qe, src in sorted(ops, key=lambda o: -o[0]):
        q = q[:qs] + src + q[qe:]
    return q


def one_edit(c):
    """(kept quote text of the edit, source text it replaces), or None when undo is not one operation."""
    if len(c["undo"]) != 1:
        return None
    qs, qe, src = c["undo"][0]
    return c["quote"][qs:qe], src


def scripts(word):
    return {unicodedata.name(ch, "?").split(" ")[0] for ch in word if ch.isalpha()}


def check_meaning(c, passage):
    cid, fam, q = c["quote_id"], c["family"], c["quote"]
    if q == passage:
        err(cid, "meaning-change quote equals its passage")
    if fam == "excerpt_turned" and q not in passage:
        err(cid, "an excerpt must be a verbatim part of its passage")
    if fam == "turns" and not re.search(r"\n\s*\n", passage):
        err(cid, "a turns passage must cross a speaker label")
    if fam == "speech_act":
        pair = one_edit(c)
        if not pair or {pair[0], pair[1]} != {"?", "."}:
            err(cid, "a speech-act edit swaps '?' and '.'")


def check_genuine(c, passage, lang):
    cid, fam, q = c["quote_id"], c["family"], c["quote"]
    pair = one_edit(c)
    if pair is None:
        err(cid, "a genuine case has exactly one edit")
        return
    new, old = pair
    if fam == "genuine_verbatim_excerpt":
        n = len(q.split())
        if new or q not in passage or not 6 <= n <= 15:
            err(cid, f"verbatim excerpt must be a 6-15 word cut of its passage ({n} words)")
        rest = words(old)
        if set(rest) & NEGATIONS:
            err(cid, f"the cut-away rest holds a negation: {old!r}")
    elif fam == "genuine_fillers":
        removed = " ".join(words(old))
        if words(new) and words(new) != words(old)[-len(words(new)):]:
            err(cid, f"filler edit changes more than a filler and a capital: {old!r} -> {new!r}")
        kept_case = [w for w in words(old) if w not in words(new)] if words(new) else words(old)
        if " ".join(kept_case) not in FILLERS[lang] and removed not in FILLERS[lang]:
            err(cid, f"removed words are not a filler of {lang}: {old!r}")
    elif fam == "genuine_false_start":
        follow = passage[passage.find(old) + len(old):] if old in passage else ""
        ow = words(old)
        fw = words(follow)
        stutter = len(ow) == 1 and fw and fw[0].startswith(ow[0]) and len(ow[0]) <= 3
        restart = ow and fw[:1] == ow[:1]
        if new or not (stutter or restart or ("--" in old or "—" in old)):
            err(cid, f"not a false start, repeat or stutter: {old!r}")
    elif fam == "genuine_aside":
        body = old.strip(" ,—–-()")
        delimited = re.match(r"^\s*(, .+,|—.+—|\(.+\)| -- .+ --)\s*$", old)
        if not ELLIPSIS.match(new) or not delimited:
            err(cid, f"aside must be delimited by commas, dashes or brackets and replaced by an ellipsis: {old!r}")
        if set(words(body)) & NEGATIONS or re.search(r"\d", body):
            err(cid, f"aside holds a negation or a number: {old!r}")
    elif fam == "genuine_whole_sentences":
        if not ELLIPSIS.match(" " + new.strip() + " "):
            err(cid, "whole sentences must be replaced by an ellipsis")
        before = passage[:passage.find(old)] if old in passage else ""
        after = passage[passage.find(old) + len(old):] if old in passage else ""
        if not re.search(r"[.!?]['\")»]?\s*$", before) or not re.search(r"[.!?]['\")»]?\s*$", old.strip()):
            err(cid, "the ellipsis must cover whole sentences")
        if re.search(r"\n\s*\n", old):
            err(cid, "the hidden sentences cross a turn")
        first = words(after)[:1]
        if first and first[0] in POINTING_BACK:
            err(cid, f"the kept sentence opens by pointing back: {after[:30]!r}")
    elif fam == "genuine_isation":
        a, b = old.lower(), new.lower()
        if len(a) != len(b) or sum(x != y for x, y in zip(a, b)) != 1 or \
                {x for x, y in zip(a, b) if x != y} | {y for x, y in zip(a, b) if x != y} != {"s", "z"} or \
                not re.search(r"i[sz](e|ed|es|ing|er|ers|ation|ations|ational)$", a):
            err(cid, f"not an -ise/-ize or -isation/-ization variant: {old!r} -> {new!r}")
    if fam != "genuine_verbatim_excerpt" and len(scripts(q) - {"LATIN", "?"}) > 0:
        err(cid, "a genuine quote uses a non-Latin letter")


def check_part(setdir, docsdir):
    docs = {}
    for name in os.listdir(docsdir):
        if name.endswith(".txt"):
            with open(os.path.join(docsdir, name), encoding="utf-8", newline="") as fh:
                docs[name[:-4]] = fh.read()
    with open(os.path.join(setdir, "cases.jsonl"), encoding="utf-8") as fh:
        cases = [json.loads(line) for line in fh if line.strip()]
    ids = [c.get("quote_id") for c in cases]
    if len(ids) != len(set(ids)):
        err(setdir, "duplicate quote_id")
    spans = {}
    for c in cases:
        cid = c.get("quote_id", "?")
        missing = [k for k in FIELDS if k not in c]
        if missing:
            err(cid, f"missing fields {missing}")
            continue
        fam = c["family"]
        if fam not in MEANING | GENUINE:
            err(cid, f"unknown family {fam}")
            continue
        if c["expect"] != ("review" if fam in MEANING else "verified"):
            err(cid, f"expect {c['expect']} for family {fam}")
        if not isinstance(c["debatable"], bool) or not c["rationale"] or not c["edit"]:
            err(cid, "debatable / rationale / edit malformed")
        if c["document"] != c["source_doc"] or c["source_doc"] not in docs:
            err(cid, "document / source_doc not a document of the folder")
            continue
        text = docs[c["source_doc"]]
        a, b = c["source_start"], c["source_end"]
        if not (isinstance(a, int) and isinstance(b, int) and 0 <= a < b <= len(text)):
            err(cid, "offsets out of range")
            continue
        passage = text[a:b]
        if undo(c["quote"], c["undo"]) != passage:
            err(cid, "quote with its edits undone != text[source_start:source_end]")
            continue
        if text.count(passage) != 1:
            err(cid, "passage is not unique in its document")
        for s, e, other in spans.get(c["source_doc"], []):
            if a < e and s < b:
                err(cid, f"passage overlaps {other}")
        spans.setdefault(c["source_doc"], []).append((a, b, cid))
        if fam in MEANING:
            check_meaning(c, passage)
        else:
            check_genuine(c, passage, c.get("language", "en"))
    with open(os.path.join(setdir, "quotes.csv"), encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    if not rows or list(rows[0].keys()) != ["quote_id", "quote", "document"]:
        err(setdir, "quotes.csv header must be quote_id,quote,document")
    if [r["quote_id"] for r in rows] != ids:
        err(setdir, "quotes.csv ids or their order differ from cases.jsonl")
    for r, c in zip(rows, cases):
        if r["quote"] != c["quote"] or r["document"] != c["document"]:
            err(r["quote_id"], "quotes.csv row differs from cases.jsonl")
    print(f"{setdir}: {len(cases)} cases, {len(rows)} CSV rows")


def main(argv):
    parts = [(argv[1], argv[2])] if len(argv) > 2 else PARTS
    for setdir, docsdir in parts:
        if os.path.exists(os.path.join(setdir, "cases.jsonl")):
            check_part(setdir, docsdir)
    print(f"{len(errors)} problems")
    for e in errors[:80]:
        print("  ", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
