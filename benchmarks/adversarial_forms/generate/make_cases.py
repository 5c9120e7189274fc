#!/usr/bin/env python3
"""Build adversarial quote cases (new families) for quoteverify.

Writes build/en/quotes.csv, build/en/cases.jsonl, build/ml/quotes.csv, build/ml/cases.jsonl.
Each case: quote_id, quote, document, family, kind (meaning|honest), debatable, edit, source (passage).
Deterministic (seeded).
"""
import csv
import json
import os
import random
import re
from pathlib import Path

SEED = 20240611
HERE = Path(__file__).resolve().parent
BENCH = HERE.parents[3] / "shared" / "bench"  # ../shared/bench beside the repository
EN_DIR = BENCH / "scale" / "docs"
DEV_DIR = BENCH / "dev" / "docs"
ML_DIR = BENCH / "multilingual" / "docs"
OUT = HERE / "build"

SENT_SPLIT = re.compile(r"(?<=[.?!])\s+(?=[\"'“A-ZÀ-Ý¿¡0-9])")
ELL = ["…", "...", "[…]", "[...]"]


def load(dirpath, exclude=()):
    docs = {}
    for p in sorted(dirpath.glob("*.txt")):
        if p.stem in exclude:
            continue
        with open(p, encoding="utf-8", newline="") as f:
            docs[p.stem] = f.read()
    return docs


def sentences(docs, lo=8, hi=40):
    """(doc, sentence, turn_text) of 8-40 words, unique in the doc."""
    out = []
    for stem, text in docs.items():
        for line in text.split("\n"):
            body = line
            m = re.match(r"^[^:]{1,120}:\s", line)
            if m:
                body = line[m.end():]
            for s in SENT_SPLIT.split(body):
                s = s.strip()
                n = len(s.split())
                if lo <= n <= hi and text.count(s) == 1:
                    out.append((stem, s, body))
    return out


def wsub(pattern, repl, s, flags=0):
    """Replace the first whole-word match; return new string and the match, or (None, None)."""
    m = re.search(pattern, s, flags)
    if not m:
        return None, None
    r = repl(m) if callable(repl) else m.expand(repl)
    return s[: m.start()] + r + s[m.end():], m


def keep_case(src, new):
    if src[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


class Builder:
    def __init__(self, docs, sents, prefix):
        self.docs = docs
        self.sents = sents
        self.prefix = prefix
        self.cases = []
        self.used = set()
        self.rng = random.Random(SEED)
        self.alltext = "\n".join(docs.values())

    def add(self, family, kind, stem, src, quote, edit, debatable=False, note=""):
        if quote == src and family not in ("excerpt_frame",):
            return False
        if family != "excerpt_frame" and quote in self.alltext:
            return False
        if (stem, src) in self.used:
            return False
        self.used.add((stem, src))
        n = sum(1 for c in self.cases if c["family"] == family) + 1
        self.cases.append(dict(quote_id=f"{self.prefix}-{family}-{n:02d}", quote=quote, document=stem,
                               family=family, kind=kind, debatable=debatable, edit=edit, source=src, note=note))
        return True

    def family_rules(self, family, kind, rules, n, per_doc=1, debatable=False, pool=None):
        """rules: list of (regex, replacement-or-callable, label[, debatable]). Rotate through rules."""
        pool = list(pool if pool is not None else self.sents)
        self.rng.shuffle(pool)
        got = 0
        perdoc = {}
        ri = 0
        # index candidates per rule
        dead = set()
        while got < n and len(dead) < len(rules):
            k = ri % len(rules)
            ri += 1
            if k in dead:
                continue
            rule = rules[k]
            found = False
            rx, repl, label = rule[0], rule[1], rule[2]
            deb = rule[3] if len(rule) > 3 else debatable
            for stem, s, body in pool:
                if perdoc.get(stem, 0) >= per_doc or (stem, s) in self.used:
                    continue
                q, m = wsub(rx, repl, s)
                if q is None:
                    continue
                if self.add(family, kind, stem, s, q, f"{label}: {m.group(0)!r}", deb):
                    perdoc[stem] = perdoc.get(stem, 0) + 1
                    got += 1
                    found = True
                    break
            if not found:
                dead.add(k)
        return got


def swap_rule(a, b, label=None, deb=False):
    return (rf"(?<![\w'’-])({a})(?![\w'’-])", lambda m, b=b: keep_case(m.group(0), b), label or f"{a}->{b}", deb)


def ell_rule(word, label=None, deb=False, rng=[0]):
    """drop `word` (regex) between two words with an ellipsis."""
    def repl(m):
        rng[0] += 1
        return f" {ELL[rng[0] % 4]} "
    return (rf"(?<=\w)\s+(?:{word})\s+(?=\w)", repl, label or f"ellipsis drops {word}", deb)


def english_builder(prefix, seed=SEED):
    """A Builder over the scale meetings that are not dev documents, its random numbers seeded with ``seed``."""
    dev = {p.stem for p in DEV_DIR.glob("*.txt")}
    docs = load(EN_DIR, exclude=dev)
    B = Builder(docs, sentences(docs), prefix)
    B.rng = random.Random(seed)
    return B


def build_en():
    B = english_builder("en")
    sents = B.sents
    M, H = "meaning", "honest"

    B.family_rules("modal_swap", M, [
        swap_rule("should", "must"), swap_rule("must", "should"), swap_rule("might", "will"),
        swap_rule("could", "will"), swap_rule("would", "will"), swap_rule("will", "might"),
        swap_rule("can", "should"), swap_rule("may", "must"), swap_rule("should", "could"),
        swap_rule("must", "might"), swap_rule("could", "should"), swap_rule("will", "would"),
    ], 12)

    B.family_rules("quantifier_swap", M, [
        swap_rule("some", "all"), swap_rule("all", "some"), swap_rule("many", "few"),
        swap_rule("few", "many"), swap_rule("most", "all"), swap_rule("always", "never"),
        swap_rule("never", "always"), swap_rule("often", "sometimes"), swap_rule("sometimes", "always"),
        swap_rule("everyone", "someone"), swap_rule("nothing", "something"), swap_rule("everybody", "nobody"),
        swap_rule("none", "some"), swap_rule("every", "some"),
    ], 14)

    B.family_rules("tense_swap", M, [
        swap_rule("is", "was"), swap_rule("was", "is"), swap_rule("have", "had"), swap_rule("has", "had"),
        swap_rule("will", "would"), swap_rule("are", "were"), swap_rule("were", "are"), swap_rule("did", "do"),
        swap_rule("had", "have"), swap_rule("went", "go"),
    ], 12)

    B.family_rules("pronoun_swap", M, [
        swap_rule("I", "we"), swap_rule("we", "I"), swap_rule("you", "they"), swap_rule("they", "you"),
        swap_rule("he", "she"), swap_rule("she", "he"), swap_rule("my", "our"), swap_rule("our", "my"),
        swap_rule("your", "their"), swap_rule("his", "her"), swap_rule("them", "us"), swap_rule("us", "them"),
    ], 12)

    B.family_rules("comparative_swap", M, [
        swap_rule("more", "less"), swap_rule("less", "more"), swap_rule("better", "worse"),
        swap_rule("worse", "better"), swap_rule("higher", "lower"), swap_rule("lower", "higher"),
        swap_rule("bigger", "smaller"), swap_rule("smaller", "bigger"), swap_rule("easier", "harder"),
        swap_rule("cheaper", "dearer"), swap_rule("best", "worst"), swap_rule("increase", "decrease"),
    ], 12)

    B.family_rules("antonym_prefix", M, [
        swap_rule("likely", "unlikely"), swap_rule("unlikely", "likely"), swap_rule("necessary", "unnecessary"),
        swap_rule("agree", "disagree"), swap_rule("comfortable", "uncomfortable"), swap_rule("usual", "unusual"),
        swap_rule("clear", "unclear"), swap_rule("fortunately", "unfortunately"), swap_rule("correct", "incorrect"),
        swap_rule("appropriate", "inappropriate"), swap_rule("sufficient", "insufficient"),
        swap_rule("consistent", "inconsistent"), swap_rule("unfortunately", "fortunately"),
        swap_rule("advantage", "disadvantage"), swap_rule("effective", "ineffective"),
    ], 12)

    B.family_rules("number_word", M, [
        swap_rule("one", "two"), swap_rule("two", "three"), swap_rule("three", "two"), swap_rule("first", "second"),
        swap_rule("second", "first"), swap_rule("half", "double"), swap_rule("four", "five"),
        swap_rule("ten", "20"), swap_rule("twelve", "20"), swap_rule("fifteen", "50"),
        swap_rule("fifty", "15"), swap_rule("twenty", "12"), swap_rule("a hundred", "1000"),
        swap_rule("once", "twice"), swap_rule("million", "thousand"),
    ], 14)

    B.family_rules("date_time", M, [
        swap_rule("Monday", "Tuesday"), swap_rule("Friday", "Thursday"), swap_rule("yesterday", "today"),
        swap_rule("tomorrow", "today"), swap_rule("last year", "next year"), swap_rule("next week", "last week"),
        swap_rule("morning", "afternoon"), swap_rule("January", "June"), swap_rule("March", "May"),
        swap_rule("2019", "2018"), swap_rule("2020", "2021"), swap_rule("September", "December"),
        swap_rule("last week", "this week"), swap_rule("April", "August"),
    ], 10)

    B.family_rules("contraction_trick", M, [
        swap_rule("can't", "can"), swap_rule("won't", "want"), swap_rule("I'll", "ill"), swap_rule("he'd", "he"),
        swap_rule("don't", "do"), swap_rule("isn't", "is"), swap_rule("wasn't", "was"), swap_rule("didn't", "did"),
        swap_rule("we're", "were"), swap_rule("it's", "its", deb=True), swap_rule("we'll", "well"),
        swap_rule("she'll", "shell"), swap_rule("we'd", "wed"), swap_rule("couldn't", "could"),
        swap_rule("shouldn't", "should"), swap_rule("aren't", "are"), swap_rule("haven't", "have"),
        swap_rule("you're", "your", deb=True), swap_rule("they're", "there", deb=True),
    ], 19, per_doc=1)

    B.family_rules("join_split_new", M, [
        swap_rule("every day", "everyday"), swap_rule("maybe", "may be", deb=True), swap_rule("may be", "maybe"),
        swap_rule("someone", "some one", deb=True), swap_rule("anyone", "any one"),
        swap_rule("all together", "altogether"), swap_rule("altogether", "all together"),
        swap_rule("already", "all ready"), swap_rule("anyway", "any way"), swap_rule("resign", "re-sign"),
        swap_rule("recover", "re-cover"), swap_rule("reform", "re-form"), swap_rule("any more", "anymore", deb=True),
        swap_rule("sometimes", "some times"), swap_rule("nobody", "no body"), swap_rule("everyone", "every one"),
        swap_rule("into", "in to"), swap_rule("cannot", "can not", deb=True), swap_rule("a lot", "allot"),
        swap_rule("whatever", "what ever", deb=True),
    ], 14)

    # punctuation that changes meaning
    B.family_rules("punct_meaning", M, [
        (r"^No, (?=\w)", "No ", "drop comma after initial No", True),
        (r"(?<=\w), not (?=\w)", " not ", "drop comma before 'not'", True),
        (r"(?<=\w)\?$", ".", "question mark -> period"),
        (r"^Yes, (?=\w)", "Yes ", "drop comma after initial Yes", True),
        (r"(?<=\w)\. No,? ", " no ", "merge 'No.' across sentence"),
        (r"(?<=\w), (?=but )", " ", "drop comma before but", True),
    ], 8)

    B.family_rules("ellipsis_shortword", M, [
        ell_rule("not"), ell_rule("only"), ell_rule("never"), ell_rule("no"), ell_rule("unless"),
        ell_rule("if"), ell_rule("before"), ell_rule("after"), ell_rule("almost"), ell_rule("just", deb=True),
        ell_rule("nearly"), ell_rule("hardly"), ell_rule("too"), ell_rule("less than"), ell_rule("more than"),
        ell_rule("no longer"), ell_rule("without"), ell_rule("least"),
    ], 18)

    # ellipsis of the "n't"
    def drop_nt(m):
        return m.group(1) + "…"
    B.family_rules("ellipsis_contraction", M, [
        (r"\b(do|does|did|is|was|are|were|could|should|would|have|has)n't\b", drop_nt, "n't -> …"),
        (r"\b(ca)n't\b", lambda m: "can…", "can't -> can…"),
        (r"\b(wo)n't\b", lambda m: "will …", "won't -> will …"),
    ], 8)

    # dash aside with qualifier dropped by ellipsis
    qual = r"(?:not|n't|only|except|unless|maybe|probably|at least|no|never|perhaps|if|but|some|half|\d|one|two|three)"
    B.family_rules("dash_aside_qualifier", M, [
        (rf"\s+--\s+(?=[^-]*\b{qual}\b)[^-]{{3,60}}?\s+--\s+", lambda m: " … ", "dash-aside with qualifier -> …"),
        (rf"\s+—\s*(?=[^—]*\b{qual}\b)[^—]{{3,60}}?\s*—\s+", lambda m: " … ", "em-dash aside with qualifier -> …"),
        (rf",\s+(?=[^,]*\b(?:not|n't|only|except|unless|never)\b)[^,]{{3,40}}?,\s+", lambda m: " … ",
         "comma-aside with negation/restriction -> …"),
    ], 10)

    # [sic] hiding a changed word
    def sic(a, b):
        return (rf"(?<![\w'’-])({a})(?![\w'’-])", lambda m, b=b: keep_case(m.group(0), b) + " [sic]",
                f"{a}->{b} [sic]")
    B.family_rules("sic_hides_change", M, [
        sic("can", "can't"), sic("will", "won't"), sic("more", "less"), sic("should", "shouldn't"),
        sic("always", "never"), sic("good", "bad"), sic("likely", "unlikely"), sic("two", "ten"),
        sic("agree", "disagree"), sic("is", "isn't"),
    ], 10)

    # evaluative / content bracket replacing a plain word (not a referent)
    B.family_rules("bracket_replaces_word", M, [
        (r"(?<![\w'])(some)(?![\w'])", lambda m: "[most]", "some -> [most]"),
        (r"(?<![\w'])(good)(?![\w'])", lambda m: "[excellent]", "good -> [excellent]"),
        (r"(?<![\w'])(it)(?![\w'])", lambda m: "[the plan]", "it -> [the plan] (generic referent, unchecked)", True),
        (r"(?<![\w'])(problem)(?![\w'])", lambda m: "[crisis]", "problem -> [crisis]"),
        (r"(?<![\w'])(might)(?![\w'])", lambda m: "[will]", "might -> [will]"),
        (r"(?<![\w'])(a few)(?![\w'])", lambda m: "[many]", "a few -> [many]"),
    ], 8)

    # verbatim excerpts cut after a negating frame or before ", but"
    pool = list(sents)
    B.rng.shuffle(pool)
    frames = [r"I don't think (?:that )?", r"I'm not sure (?:that |if |whether )?", r"I doubt (?:that |whether )?",
              r"I wouldn't say (?:that )?", r"I don't believe (?:that )?", r"it's not true that ",
              r"I don't know (?:if |whether )", r"nobody (?:thinks|believes|says) (?:that )?"]
    got = 0
    fi = 0
    for _ in range(40):
        if got >= 8:
            break
        fr = frames[fi % len(frames)]
        fi += 1
        for stem, s, body in pool:
            m = re.search(fr, s, re.I)
            if not m:
                continue
            rest = s[m.end():]
            if len(rest.split()) < 6:
                continue
            if B.add("excerpt_frame", M, stem, s, rest[:1].upper() + rest[1:] if False else rest, f"cut after {m.group(0)!r}"):
                got += 1
                break
    for stem, s, body in pool:
        if got >= 14:
            break
        m = re.search(r", but ", s)
        if not m:
            continue
        head = s[: m.start()]
        if len(head.split()) < 6 or (stem, s) in B.used:
            continue
        if re.search(r"\b(not|n't|no|never)\b", s[m.end():]) or True:
            if B.add("excerpt_frame", M, stem, s, head, "cut before ', but'"):
                got += 1

    # ---------------- honest edits ----------------
    B.family_rules("honest_filler", H, [
        (r"(?<=\w),? (?:um|uh|Um|Uh),? (?=\w)", lambda m: " ", "um/uh removed"),
        (r"^(?:Um|Uh),? (?=\w)", lambda m: "", "leading um/uh removed"),
        (r"(?<=\w), you know, (?=\w)", lambda m: " ", "', you know,' removed"),
    ], 8, per_doc=1)
    B.family_rules("honest_case", H, [
        (r"^([A-Z])(?=[a-z])", lambda m: m.group(1).lower(), "initial capital lowered"),
        (r"(?<= )(i)(?= )", lambda m: "I", "i -> I"),
    ], 5)
    B.family_rules("honest_curly", H, [
        (r"(\w)'(\w)", lambda m: m.group(1) + "’" + m.group(2), "apostrophe -> curly"),
    ], 5)
    B.family_rules("honest_aside", H, [
        (r",\s+(?:of course|as I said|as you know|obviously|in fact|I have to say|as I mentioned|you know),\s+",
         lambda m: " … ", "comma aside -> …"),
    ], 6)
    B.family_rules("honest_contraction", H, [
        swap_rule("it's", "it is"), swap_rule("don't", "do not"), swap_rule("we're", "we are"),
        swap_rule("that's", "that is"), swap_rule("can't", "cannot"), swap_rule("I'm", "I am"),
    ], 5)
    B.family_rules("honest_number", H, [
        swap_rule("two", "2"), swap_rule("three", "3"), swap_rule("twenty", "20"), swap_rule("ten", "10"),
        swap_rule("fifty", "50"), swap_rule("four", "4"),
    ], 5)
    return B


def build_ml():
    docs = load(ML_DIR)
    sents = sentences(docs)
    B = Builder(docs, sents, "ml")
    M, H = "meaning", "honest"
    by = {}
    for t in sents:
        by.setdefault(t[0][:2], []).append(t)

    def fam(lang, family, kind, rules, n, per_doc=2):
        return B.family_rules(family, kind, rules, n, per_doc=per_doc, pool=by[lang])

    # diacritic swaps that make another word
    fam("es", "diacritic_swap", M, [swap_rule("está", "esta"), swap_rule("sí", "si"), swap_rule("más", "mas"),
                                      swap_rule("él", "el"), swap_rule("sé", "se"), swap_rule("qué", "que", deb=True),
                                      swap_rule("está", "esta"), swap_rule("tú", "tu"),
                                      swap_rule("aún", "aun", deb=True), swap_rule("éste", "este", deb=True),
                                      swap_rule("habló", "hablo"), swap_rule("votó", "voto"), swap_rule("pasó", "paso"),
                                      swap_rule("llegó", "llego"), swap_rule("esté", "este")], 8, per_doc=3)
    fam("fr", "diacritic_swap", M, [swap_rule("où", "ou"), swap_rule("à", "a"), swap_rule("là", "la"),
                                      swap_rule("sûr", "sur"), swap_rule("dû", "du"), swap_rule("été", "ete"),
                                      swap_rule("a", "à"), swap_rule("ou", "où"), swap_rule("décidé", "décide"),
                                      swap_rule("côté", "coté", deb=True)], 7, per_doc=3)
    fam("pt", "diacritic_swap", M, [swap_rule("é", "e"), swap_rule("está", "esta"), swap_rule("nós", "nos"),
                                      swap_rule("pôde", "pode"), swap_rule("até", "ate"), swap_rule("também", "tambem", deb=True),
                                      swap_rule("três", "tres", deb=True), swap_rule("só", "so", deb=True),
                                      swap_rule("à", "a")], 7, per_doc=3)
    fam("de", "diacritic_swap", M, [swap_rule("würde", "wurde"), swap_rule("hätte", "hatte"),
                                      swap_rule("würden", "wurden"), swap_rule("hätten", "hatten"),
                                      swap_rule("schön", "schon"), swap_rule("schon", "schön"),
                                      swap_rule("fördern", "fordern"), swap_rule("zählen", "zahlen"),
                                      swap_rule("müsste", "musste"), swap_rule("könnte", "konnte"),
                                      swap_rule("wäre", "war")], 7, per_doc=3)
    fam("nl", "diacritic_swap", M, [swap_rule("één", "een"), swap_rule("vóór", "voor"), swap_rule("dóór", "door"),
                                      swap_rule("hé", "he", deb=True), swap_rule("wél", "wel"),
                                      swap_rule("níet", "niet")], 4, per_doc=3)

    # negation dropped via ellipsis
    fam("de", "ml_negation_ellipsis", M, [ell_rule("nicht"), ell_rule("kein"), ell_rule("keine"), ell_rule("keinen"),
                                           ell_rule("nie"), ell_rule("niemals"), ell_rule("nicht mehr")], 5)
    fam("nl", "ml_negation_ellipsis", M, [ell_rule("niet"), ell_rule("geen"), ell_rule("nooit"),
                                           ell_rule("niet meer")], 5)
    fam("es", "ml_negation_ellipsis", M, [ell_rule("no"), ell_rule("nunca"), ell_rule("tampoco")], 4)
    fam("pt", "ml_negation_ellipsis", M, [ell_rule("não"), ell_rule("nunca")], 4)
    fam("fr", "ml_negation_ellipsis", M, [ell_rule("pas"), ell_rule("jamais"), ell_rule("plus", deb=True),
                                           (r"\b[Nn]e\s+(\w+)\s+pas\b", lambda m: "… " + m.group(1) + " …",
                                            "ne X pas -> … X …"),
                                           (r"\b[Nn]'(\w+)\s+pas\b", lambda m: "… " + m.group(1) + " …",
                                            "n'X pas -> … X …")], 5)

    # word swaps
    fam("de", "ml_word_swap", M, [swap_rule("muss", "kann"), swap_rule("alle", "einige"), swap_rule("mehr", "weniger"),
                                   swap_rule("immer", "nie"), swap_rule("wir", "Sie"), swap_rule("ist", "war")], 4)
    fam("es", "ml_word_swap", M, [swap_rule("todos", "algunos"), swap_rule("debe", "puede"),
                                   swap_rule("siempre", "nunca"), swap_rule("más", "menos"), swap_rule("es", "era")], 4)
    fam("fr", "ml_word_swap", M, [swap_rule("tous", "certains"), swap_rule("doit", "peut"), swap_rule("plus", "moins"),
                                   swap_rule("toujours", "jamais"), swap_rule("nous", "vous")], 3)
    fam("nl", "ml_word_swap", M, [swap_rule("moet", "kan"), swap_rule("alle", "sommige"), swap_rule("meer", "minder"),
                                   swap_rule("altijd", "nooit"), swap_rule("wij", "zij")], 3)
    fam("pt", "ml_word_swap", M, [swap_rule("todos", "alguns"), swap_rule("deve", "pode"), swap_rule("mais", "menos"),
                                   swap_rule("sempre", "nunca")], 3)

    # honest: case change, curly apostrophe
    for lang in ("de", "es", "fr", "nl", "pt"):
        fam(lang, "honest_case", H, [(r"^([A-ZÀ-Ý])(?=[a-zà-ÿ])", lambda m: m.group(1).lower(), "initial capital lowered")], 1)
    for lang in ("fr", "nl"):
        fam(lang, "honest_curly", H, [(r"(\w)'(\w)", lambda m: m.group(1) + "’" + m.group(2), "apostrophe -> curly")], 2)
    return B


def write(B, sub):
    d = OUT / sub
    d.mkdir(parents=True, exist_ok=True)
    with open(d / "quotes.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["quote_id", "quote", "document"])
        for c in B.cases:
            w.writerow([c["quote_id"], c["quote"], c["document"]])
    with open(d / "cases.jsonl", "w", encoding="utf-8") as f:
        for c in B.cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    from collections import Counter
    print(sub, len(B.cases), Counter((c["family"], c["kind"]) for c in B.cases))


if __name__ == "__main__":
    write(build_en(), "en")
    write(build_ml(), "ml")
