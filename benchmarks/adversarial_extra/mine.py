"""Seeded miners for the genuine families whose selection is mechanical; every pick was then read by hand.

A miner lists every candidate that meets its rule, shuffles the list with a generator seeded by SEED and the
family name, drops the candidates a reader rejected (REJECT in the spec files, with the reason), and keeps the
first N, at most one per document. Each candidate comes back as a template for spec.Spec.
"""
import random
import re
import zlib

from spec import SEED

ABBREV = {"mr", "mrs", "ms", "dr", "hon", "st", "no", "nr", "art", "abs", "sr", "sra", "srs", "prof", "m", "mme",
          "mm", "dhr", "mw", "drs", "ir", "blz", "bzw", "z", "u", "v", "vgl", "ca", "etc", "e", "i", "p", "s",
          "sen", "dep", "excmo", "excma", "sres", "arts", "núm", "n", "pág", "dª", "d", "a", "dra", "jr", "vs"}
BOUNDARY = re.compile(r"[.?!…]['\"”»)]?\s+(?=[\"“«¿¡(]?[^\W\d_])")
FILLER_TOKENS = re.compile(r"\b(um|uh|erm|er|hmm|mm|mm-hmm|eh|äh|ähm|euh|hã|ahn)\b", re.I)


def turns(text):
    """(label, body_start, body_end) for each turn: 'Label: body' blocks, or a 'Label:' line over its block."""
    pos = 0
    for block in re.split(r"(\n[ \t]*\n)", text):
        if block.strip() and not block.startswith("\n"):
            m = re.match(r"([^\n:]{1,160}):(?:[ \t]+|\n)", block)
            if m:
                yield m.group(1), pos + m.end(), pos + len(block)
        pos += len(block)


def sentences(text, start, end):
    """Sentence spans inside one turn body, never across a line break (a line is a paragraph)."""
    out = []
    for line in re.finditer(r"[^\n]+", text[start:end]):
        s0 = start + line.start()
        body = line.group(0)
        cuts = [0]
        for m in BOUNDARY.finditer(body):
            prev = re.search(r"(\w+)[.?!…]['\"”»)]?\s+$", body[:m.end()])
            if prev and prev.group(1).lower() in ABBREV and body[m.start()] == ".":
                continue
            cuts.append(m.end())
        cuts.append(len(body))
        for a, b in zip(cuts, cuts[1:]):
            seg = body[a:b].rstrip()
            if seg:
                out.append((s0 + a, s0 + a + len(seg)))
    return out


def taken(specs, docs):
    """(document, start, end) of the passages the specs so far use, so that a miner keeps clear of them."""
    from spec import split_template
    spans = []
    for spec in specs:
        passage = split_template(spec)[0]
        start = docs[spec.doc].find(passage)
        spans.append((spec.doc, start, start + len(passage)))
    return spans


def clear_of(avoid, doc, start, end):
    return not any(d == doc and start < e and s < end for d, s, e in avoid)


def clean(s):
    return "--" not in s and "(" not in s and not FILLER_TOKENS.search(s) and "|" not in s and "⟦" not in s


def nwords(s):
    return len(s.split())


def pick(family, cands, n, reject, per_doc=1, stable=False):
    """Seeded order, rejected candidates dropped, at most per_doc per document, first n kept.

    A rejection is (document, prefix): it drops the candidates of that document ("*": of any) whose key starts
    with prefix.
    """
    if stable:  # each candidate's place depends on itself only, so a rejection moves no other candidate
        cands = sorted(cands, key=lambda c: zlib.crc32(f"{SEED}:{family}:{c[0]}:{c[1]}".encode("utf-8")))
    else:
        rng = random.Random(f"{SEED}:{family}")
        cands = sorted(cands)
        rng.shuffle(cands)
    seen, out, spans = {}, [], []
    for doc, key, template, why, start, end in cands:
        if any(d in (doc, "*") and key.startswith(prefix) for d, prefix in reject) or seen.get(doc, 0) >= per_doc:
            continue
        if not clear_of(spans, doc, start, end):
            continue
        spans.append((doc, start, end))
        seen[doc] = seen.get(doc, 0) + 1
        out.append((doc, template, why))
        if len(out) == n:
            break
    return out


def whole_sentences(docs, *, n, reject, opener_stop, min_words=6, max_words=30, per_doc=1,
                    name="whole_sentences", avoid=(), stable=False):
    """Sentence A, one or two whole sentences hidden by an ellipsis, sentence B, all in one paragraph of a turn.

    B may not open with a word in opener_stop (pointing back, or a connective that would tie it to A).
    """
    cands = []
    for doc, text in docs.items():
        for _label, a, b in turns(text):
            sents = sentences(text, a, b)
            for i in range(len(sents) - 2):
                for k in (1, 2):
                    if i + k + 1 >= len(sents):
                        continue
                    (a0, a1), (b0, b1) = sents[i], sents[i + k + 1]
                    hid0, hid1 = sents[i + 1][0], sents[i + k][1]
                    sa, sb, hidden = text[a0:a1], text[b0:b1], text[hid0:hid1]
                    if "\n" in text[a0:b1] or text[a1:hid0] != " " or text[hid1:b0] != " " or \
                            not clear_of(avoid, doc, a0, b1):
                        continue
                    if not (min_words <= nwords(sa) <= max_words and min_words <= nwords(sb) <= max_words):
                        continue
                    if nwords(hidden) > 45 or not all(clean(x) for x in (sa, sb, hidden)):
                        continue
                    if stable and ")" in text[a0:b1]:
                        continue
                    if sa[-1] not in ".!" or sb[-1] not in ".!?":
                        continue
                    first = re.split(r"['’]", re.sub(r"^[\"“«¿¡]", "", sb).split()[0].strip(",").lower())[0]
                    if first in opener_stop:
                        continue
                    template = f"{sa} ⟦{hidden}|…⟧ {sb}"
                    why = (f"the ellipsis hides {k} whole sentence{'s' if k > 1 else ''} of the same turn; "
                           f"the kept sentence opens with {sb.split()[0]!r}, which does not point back")
                    cands.append((doc, sa, template, why, a0, b1))
    return pick(name, cands, n, reject, per_doc, stable)


ISE_STEMS = ("organ recogn real normal categor minim emphas summar priorit maxim optim custom criminal polar "
             "character standard apolog special general anonym central stabil util final mobil modern visual "
             "critic familiar jeopard subsid ideal global digit personal rational random local equal symbol "
             "memor formal initial author capital legal channel synchron racial marginal hospital").split()
ISE = re.compile(r"\b((?:re|de|un)?(?:" + "|".join(ISE_STEMS) + r")i)([sz])(e|es|ed|ing|er|ers|ation|ations)\b")


def isation(docs, *, n, reject, avoid=()):
    """One -ise/-ize (-isation/-ization) word respelled the other way, in a clean sentence of 8-30 words."""
    cands = []
    for doc, text in docs.items():
        for _label, a, b in turns(text):
            for s0, s1 in sentences(text, a, b):
                s = text[s0:s1]
                hits = list(ISE.finditer(s))
                if len(hits) != 1 or not 8 <= nwords(s) <= 30 or not clean(s) or not clear_of(avoid, doc, s0, s1):
                    continue
                m = hits[0]
                word = m.group(0)
                if word[0].isupper() and m.start() > 0:
                    continue  # part of a name (an Organisation's title keeps its own spelling)
                other = m.group(1) + ("z" if m.group(2) == "s" else "s") + m.group(3)
                template = f"{s[:m.start()]}⟦{word}|{other}⟧{s[m.end():]}"
                why = f"'{word}' spelled '{other}': the same word in the other spelling convention"
                cands.append((doc, s, template, why, s0, s1))
    return pick("isation", cands, n, reject)


TURNING = set("but however although though unless if except not n't never no nothing nobody none only sorry "
              "correction mean rather actually said says say claim claims think believe apparently allegedly "
              "reportedly whether until without instead yet still whereas while perhaps maybe probably "
              "cannot can't won't don't didn't isn't wasn't aren't weren't".split())
CONJUNCT = re.compile(r",? and (?=(?:we|they|I|he|she|it|you|the|there|that|this|our|their)\b)")


def verbatim_excerpts(docs, *, n, reject, avoid=()):
    """The first conjunct of 'X and Y' (6-15 words) when Y only adds more of the same: no turn word in Y."""
    cands = []
    for doc, text in docs.items():
        for _label, a, b in turns(text):
            for s0, s1 in sentences(text, a, b):
                s = text[s0:s1]
                if not clean(s) or not 12 <= nwords(s) <= 45 or not clear_of(avoid, doc, s0, s1):
                    continue
                m = CONJUNCT.search(s)
                if not m:
                    continue
                head, rest = s[:m.start()], s[m.start():]
                hw = set(re.findall(r"[a-z']+", head.lower()))
                rw = set(re.findall(r"[a-z']+", rest.lower()))
                if not 6 <= nwords(head) <= 15 or hw & TURNING or rw & TURNING or "," in head:
                    continue
                if head.split()[0].lower() in {"if", "when", "because", "as", "since", "so", "and", "but", "or"}:
                    continue
                template = f"{head}⟦{rest}|⟧"
                why = (f"the excerpt stops where the sentence goes on with {rest.strip(' ,')!r}, which adds more of "
                       f"the same and neither qualifies nor turns the kept clause")
                cands.append((doc, s, template, why, s0, s1))
    return pick("verbatim_excerpts", cands, n, reject)
