#!/usr/bin/env python3
"""Round 2: subtler families that imitate a benign class. Writes build/en2 and build/ml2."""
import re
import random
from make_cases import (Builder, english_builder, load, sentences, swap_rule, keep_case, write, EN_DIR, DEV_DIR, ML_DIR, ELL, SEED)


def sub_rule(rx, repl, label, deb=False):
    return (rx, repl, label, deb)


def build_en2():
    B = english_builder("en2", SEED + 2)
    sents = B.sents
    M, H = "meaning", "honest"

    # non-word misspelling that reads as the opposite / another value
    B.family_rules("misspelled_antonym", M, [
        swap_rule("likely", "unlikly"), swap_rule("possible", "imposible"), swap_rule("necessary", "unneccessary"),
        swap_rule("agree", "dissagree"), swap_rule("relevant", "irrelevent"), swap_rule("appropriate", "inapropriate"),
        swap_rule("fortunately", "unfortunatly"), swap_rule("responsible", "iresponsible"),
        swap_rule("acceptable", "unaceptable"), swap_rule("do", "dont"), swap_rule("is", "isnt"),
        swap_rule("did", "didnt"), swap_rule("was", "wasnt"), swap_rule("does", "doesnt"),
        swap_rule("fourteen", "fourty"), swap_rule("fifteen", "fifity"), swap_rule("nineteen", "ninty"),
        swap_rule("can", "cant"), swap_rule("will", "wont"),
    ], 19, per_doc=1)

    # UK/US spelling pairs that are different words in the context
    B.family_rules("ukus_false_pair", M, [
        swap_rule("check", "cheque"), swap_rule("story", "storey"), swap_rule("draft", "draught"),
        swap_rule("curb", "kerb"), swap_rule("tire", "tyre"), swap_rule("meter", "metre"), swap_rule("our", "or"),
        swap_rule("cheque", "check", deb=True), swap_rule("practice", "practise", deb=True),
        swap_rule("program", "programme", deb=True), swap_rule("dependent", "dependant", deb=True),
        swap_rule("inquiry", "enquiry", deb=True), swap_rule("stories", "storeys"), swap_rule("checks", "cheques"),
        swap_rule("checked", "chequed"),
    ], 14, per_doc=1)

    # contraction expanded to the wrong full form
    B.family_rules("contraction_wrong_expansion", M, [
        swap_rule("won't", "would not"), swap_rule("can't", "could not"), swap_rule("don't", "did not"),
        swap_rule("isn't", "was not"), swap_rule("doesn't", "did not"), swap_rule("it's", "it was"),
        swap_rule("that's", "that was"), swap_rule("we'll", "we would"), swap_rule("I'll", "I would"),
        swap_rule("they'll", "they would"), swap_rule("we've", "we had"), swap_rule("I've", "I had"),
        (r"(?<![\w'])(he's|she's) (going|doing|coming|saying|trying|working)\b",
         lambda m: m.group(1)[:-2] + " has " + m.group(2), "he's V-ing -> he has V-ing", False),
        (r"\b(Canada|government|minister|Minister|Government|country|province|committee|company)'s (?=[a-z])",
         lambda m: m.group(1) + " is ", "possessive 's -> is", False),
    ], 14, per_doc=1)

    # filler look-alikes: a word that is NOT a filler here
    B.family_rules("filler_lookalike", M, [
        (r"\b(not|n't) really\b", lambda m: m.group(1), "'really' after negation removed"),
        (r"(?<=\w) like (?=(?:two|three|four|five|six|ten|twenty|fifty|a hundred|\d))", lambda m: " ",
         "approximating 'like' before a number removed", True),
        (r"\b(works?|went|going|goes|done|do|did|fits?) well\b", lambda m: m.group(1), "adverb 'well' removed"),
        (r"(?<=\w) just (?=(?:one|two|three|four|five|a few|\d))", lambda m: " ", "'just' (=only) before a number removed"),
        (r"(?<=\w) (?:kind of|sort of) (?=(?:expensive|difficult|hard|important|strange|weird|worried|sad|wrong|agree|disagree))",
         lambda m: " ", "hedge 'kind of/sort of' removed", True),
        (r"\bI mean (it|that)\b", lambda m: "", "'I mean it' (verb) removed"),
        (r"\b(what|What) I mean is\b", lambda m: m.group(1) + " is", "'I mean' inside 'what I mean is' removed"),
    ], 12, per_doc=1)

    # false start "A B -- A C": keep the abandoned B, drop the correction
    pool = list(sents)
    B.rng.shuffle(pool)
    WORD = re.compile(r"^[A-Za-z']{2,}$")
    stop_same = set()
    got = hon = 0
    for stem, s, body in pool:
        if got >= 12 and hon >= 6:
            break
        m = re.search(r"\b(\w+) ([\w']+) -- \1 ([\w']+)\b", s)
        if not m:
            continue
        b, c = m.group(2).lower(), m.group(3).lower()
        if not (WORD.match(b) and WORD.match(c)) or b == c or c.startswith(b) and c != b + "n't" or b.startswith(c):
            continue
        if b in ("you", "i", "we", "the", "a", "uh", "um") or c in ("know", "uh", "um", "mean"):
            continue
        if got < 12:
            q = s[: m.start()] + m.group(1) + " " + m.group(2) + s[m.end():]
            if B.add("false_start_keeps_abandoned", M, stem, s, q, f"kept {m.group(2)!r}, dropped correction {m.group(3)!r}"):
                got += 1
                continue
        if hon < 6:
            q = s[: m.start()] + m.group(1) + " " + m.group(3) + s[m.end():]
            if B.add("honest_false_start", H, stem, s, q, f"dropped abandoned {m.group(2)!r}, kept {m.group(3)!r}"):
                hon += 1

    # scare quotes around a content word
    def scare(m):
        return f"{m.group(1)}\"{m.group(2)}\""
    B.family_rules("scare_quotes", M, [
        (r"(\s)(independent|safe|plan|experts?|consultation|support|reform|transparent|successful|fair|help|strategy|"
         r"progress|investment|priority|quality|research|evidence|design|solution)(?=[\s,.])", scare,
         "scare quotes added around a word"),
    ], 10, per_doc=1)

    # apostrophe moved: singular possessive -> plural possessive and back
    B.family_rules("apostrophe_possessive", M, [
        (r"\b(member|student|child|teacher|minister|farmer|worker|school|parent|senior|veteran|family|user|"
         r"customer|company|province|government|business|designer|person)'s\b",
         lambda m: (m.group(1)[:-1] + "ies'" if m.group(1).endswith("y") else m.group(1) + "s'"),
         "singular possessive -> plural possessive"),
        (r"\b(members|students|teachers|farmers|workers|schools|parents|seniors|veterans|users|customers|"
         r"Canadians|businesses)'(?=\s)", lambda m: m.group(1)[:-1] + "'s", "plural possessive -> singular possessive"),
    ], 10, per_doc=1)

    # wrong speaker label prefixed
    pool = list(sents)
    B.rng.shuffle(pool)
    got = hon = 0
    for stem, s, body in pool:
        if got >= 8 and hon >= 5:
            break
        text = B.docs[stem]
        i = text.find(s)
        ls = text.rfind("\n", 0, i) + 1
        m = re.match(r"^([^:\n]{2,60}):\s", text[ls:])
        if not m or not text[ls + m.end():].startswith(s):
            continue  # only sentences that open a turn
        spk = m.group(1)
        others = sorted(set(re.findall(r"(?m)^([^:\n]{2,60}):\s", text)) - {spk})
        if not others:
            continue
        if got < 8:
            other = B.rng.choice(others)
            if B.add("wrong_speaker_label", M, stem, s, f"{other}: {s}", f"label {other!r} (true {spk!r})"):
                got += 1
                continue
        if hon < 5:
            if B.add("honest_speaker_label", H, stem, s, f"{spk}: {s}", f"correct label {spk!r}"):
                hon += 1

    # number formatting tricks
    B.family_rules("number_format_trick", M, [
        (r"\ba second\b", lambda m: "a 2nd", "'a second' (time) -> 'a 2nd'"),
        (r"\$(\d+)million\b", lambda m: f"${m.group(1)},000", "$Nmillion -> $N,000"),
        (r"\b(\d+)\.(\d)\s?(million|billion|per cent|percent)\b", lambda m: f"{m.group(1)}{m.group(2)} {m.group(3)}",
         "decimal point dropped"),
        (r"\b(\d+) billion\b", lambda m: f"{m.group(1)}m", "N billion -> Nm"),
        (r"\b(\d+) million\b", lambda m: f"{m.group(1)}bn", "N million -> Nbn"),
        (r"\b(\d{1,3}),(\d{3})\b", lambda m: f"{m.group(1)}.{m.group(2)}", "1,000 -> 1.000 (reads as decimal)", True),
        (r"\b(\d+) per cent\b", lambda m: f"{m.group(1)} percentage points", "per cent -> percentage points"),
        (r"\bseventeen\b", lambda m: "70", "seventeen -> 70"),
        (r"\bsixty\b", lambda m: "16", "sixty -> 16"),
    ], 12, per_doc=1)
    B.family_rules("honest_number_format", H, [
        (r"\b(\d+) per cent\b", lambda m: f"{m.group(1)}%", "per cent -> %"),
        (r"\btwenty[ -]five\b", lambda m: "25", "twenty five -> 25"),
        (r"\ba hundred\b", lambda m: "100", "a hundred -> 100"),
        (r"\b(\d+) million\b", lambda m: f"{m.group(1)},000,000", "N million -> N,000,000"),
        (r"\bfirst\b", lambda m: "1st", "first -> 1st"),
        (r"\beleven\b", lambda m: "11", "eleven -> 11"),
    ], 6, per_doc=1)

    # sentence drop of a short negating answer inside one turn
    cand = []
    for stem, text in B.docs.items():
        for line in text.split("\n"):
            m = re.match(r"^[^:]{1,120}:\s", line)
            body = line[m.end():] if m else line
            ss = re.split(r"(?<=[.?!])\s+", body)
            for i in range(len(ss) - 2):
                a, b, c = ss[i], ss[i + 1], ss[i + 2]
                if re.fullmatch(r"(No|Not really|Not yet|Never|I disagree|That's not true|That is not true|"
                                r"I don't think so|Not at all|No, no)[.!]", b) and 5 <= len(a.split()) <= 30 \
                        and 5 <= len(c.split()) <= 30:
                    src = f"{a} {b} {c}"
                    if text.count(src) == 1:
                        cand.append((stem, a, b, c, src))
    B.rng.shuffle(cand)
    got = 0
    for stem, a, b, c, src in cand:
        if got >= 8:
            break
        if B.add("sentence_drop_negation", M, stem, src, f"{a} … {c}", f"dropped sentence {b!r}", debatable=True):
            got += 1

    # case change making another word / name
    B.family_rules("case_word", M, [
        swap_rule("liberal", "Liberal"), swap_rule("conservative", "Conservative"), swap_rule("labour", "Labour"),
        swap_rule("may", "May", deb=True), swap_rule("bill", "Bill", deb=True), swap_rule("march", "March"),
        swap_rule("polish", "Polish"), swap_rule("will", "Will", deb=True), swap_rule("Liberal", "liberal"),
        swap_rule("Conservative", "conservative"), swap_rule("Labour", "labour"),
    ], 8, per_doc=1)
    return B


def build_ml2():
    docs = load(ML_DIR)
    sents = sentences(docs)
    B = Builder(docs, sents, "ml2")
    B.rng = random.Random(SEED + 3)
    M, H = "meaning", "honest"
    de = [t for t in sents if t[0].startswith("de")]
    B.family_rules("umlaut_translit_wrong", M, [
        swap_rule("wurde", "wuerde"), swap_rule("hatte", "haette"), swap_rule("konnte", "koennte"),
        swap_rule("musste", "muesste"), swap_rule("schon", "schoen"), swap_rule("fordern", "foerdern"),
        swap_rule("wurden", "wuerden"), swap_rule("hatten", "haetten"), swap_rule("war", "waere"),
        swap_rule("zahlen", "zaehlen"), swap_rule("Mutter", "Muetter"), swap_rule("Bruder", "Brueder"),
        swap_rule("wäre", "ware"), swap_rule("würde", "wurde"),
    ], 8, per_doc=3, pool=de)
    B.family_rules("honest_umlaut_translit", H, [
        swap_rule("würde", "wuerde"), swap_rule("für", "fuer"), swap_rule("über", "ueber"), swap_rule("müssen", "muessen"),
        swap_rule("können", "koennen"), swap_rule("Schüler", "Schueler"), swap_rule("größer", "groesser"),
    ], 5, per_doc=3, pool=de)
    # scare quotes / number format in other languages
    B.family_rules("scare_quotes", M, [
        (r"(\s)(Reform|reforma|réforme|hervorming|reforma|plan|Plan|transparencia|transparence|Transparenz|"
         r"solidariedade|solidarité|Solidarität|ayuda|aide|Hilfe|hulp|ajuda|acuerdo|accord|akkoord|acordo)(?=[\s,.])",
         lambda m: f"{m.group(1)}«{m.group(2)}»", "scare quotes added"),
    ], 6, per_doc=2)
    # decimal comma / thousands separators
    B.family_rules("number_format_trick", M, [
        (r"\b(\d{1,3})\.(\d{3})\b", lambda m: f"{m.group(1)},{m.group(2)}", "1.000 -> 1,000 (continental thousands)", True),
        (r"\b(\d+),(\d)\b", lambda m: f"{m.group(1)}.{m.group(2)}", "2,5 -> 2.5", True),
        (r"\b(\d+) (millones|millions|Millionen|miljoen|milhões)\b",
         lambda m: f"{m.group(1)} " + {"millones": "mil", "millions": "milliards", "Millionen": "Milliarden",
                                       "miljoen": "miljard", "milhões": "bilhões"}[m.group(2)], "million -> billion/thousand"),
        (r"\b(\d+),(\d)\b", lambda m: f"{m.group(1)}{m.group(2)}", "decimal comma dropped"),
    ], 8, per_doc=2)
    return B


if __name__ == "__main__":
    write(build_en2(), "en2")
    write(build_ml2(), "ml2")
