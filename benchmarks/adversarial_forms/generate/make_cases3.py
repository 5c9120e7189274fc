#!/usr/bin/env python3
"""Round 3: probes of the weak spots found in round 2. Writes build/en3."""
import re, random
from make_cases import english_builder, swap_rule, write, SEED


def build_en3():
    B = english_builder("en3", SEED + 5)
    sents = B.sents
    M, H = "meaning", "honest"
    B.family_rules("contraction_ambiguous", M, [
        (r"\b(it|he|she|that|there)'s (been|got|gone|had|done|become)\b", lambda m: f"{m.group(1)} is {m.group(2)}",
         "'s + participle -> is (should be has)"),
        (r"\b(it|he|she|that|there|what)'s (going|doing|coming|saying|trying|working|happening|getting)\b",
         lambda m: f"{m.group(1)} has {m.group(2)}", "'s + V-ing -> has (should be is)"),
        (r"\b(I|we|you|they|he|she)'d (like|say|think|want|prefer|love|need|imagine|expect)\b",
         lambda m: f"{m.group(1)} had {m.group(2)}", "'d + bare verb -> had (should be would)"),
        (r"\b(I|we|you|they|he|she)'d (been|done|had|seen|got|gone|already|never)\b",
         lambda m: f"{m.group(1)} would {m.group(2)}", "'d + participle -> would (should be had)"),
    ], 12, per_doc=1)
    B.family_rules("number_format_trick", M, [
        (r"\b(just|wait|for|hang on|in|hold on) a second\b", lambda m: f"{m.group(1)} a 2nd", "time 'a second' -> 'a 2nd'"),
        (r"\b(I|We|we) second\b", lambda m: f"{m.group(1)} 2nd", "verb 'second' -> '2nd'"),
        (r"\b(no|any|every|some) one\b", lambda m: f"{m.group(1)} 1", "'no one' -> 'no 1'"),
        (r"\bone (day|of these days)\b", lambda m: f"1 {m.group(1)}", "'one day' (some day) -> '1 day'", True),
    ], 8, per_doc=1)
    B.family_rules("scare_quotes_variants", M, [
        (r"(\s)(independent|safe|experts?|consultation|support|reform|fair|strategy|progress|investment|quality|"
         r"evidence|solution|plan|help|good|nice|easy|simple|cheap)(?=[\s,.])",
         lambda m: f"{m.group(1)}“{m.group(2)}”", "curly scare quotes"),
        (r"(\s)(independent|safe|experts?|consultation|support|reform|fair|strategy|progress|investment|quality|"
         r"evidence|solution|plan|help|good|nice|easy|simple|cheap)(?=[\s,.])",
         lambda m: f"{m.group(1)}'{m.group(2)}'", "single scare quotes"),
        (r"(\s)(so-called )?(independent|safe|experts?|consultation|reform|fair|strategy|progress|investment)(?=[\s,.])",
         lambda m: f"{m.group(1)}\"{m.group(3)}\"", "double scare quotes"),
    ], 9, per_doc=1)
    B.family_rules("ukus_false_pair", M, [
        swap_rule("check", "cheque"), swap_rule("story", "storey"), swap_rule("draft", "draught"),
        swap_rule("tire", "tyre"), swap_rule("tired", "tyred"), swap_rule("meter", "metre"),
        swap_rule("license", "licence", deb=True), swap_rule("drafts", "draughts"), swap_rule("drafted", "draughted"),
        swap_rule("curb", "kerb"), swap_rule("check", "cheque"), swap_rule("story", "storey"),
        swap_rule("ax", "axe", deb=True), swap_rule("plow", "plough", deb=True),
    ], 10, per_doc=1)
    # verbatim excerpt stopping right before a dash self-correction that changes a number or negation
    pool = list(sents); B.rng.shuffle(pool)
    got = 0
    for stem, s, body in pool:
        if got >= 8:
            break
        m = re.search(r"\b(\w+) (\w+) -- \1 (\w+)", s)
        if not m:
            continue
        b, c = m.group(2).lower(), m.group(3).lower()
        nums = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twenty", "fifty", "hundred"}
        neg = lambda w: w.endswith("n't") or w in ("not", "no", "never")
        if not ((b in nums and c in nums and b != c) or (neg(c) != neg(b))):
            continue
        head = s[: m.end(2)]
        if len(head.split()) < 5:
            continue
        q = head + "."
        if B.add("excerpt_before_correction", M, stem, s, q, f"cut before correction {m.group(2)!r} -> {m.group(3)!r}"):
            got += 1
    return B


if __name__ == "__main__":
    write(build_en3(), "en3")
