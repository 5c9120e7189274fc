#!/usr/bin/env python3
"""Round 4: grammatical wrong expansions of ambiguous contractions ('d = had/would). Writes build/en4."""
from make_cases import english_builder, write, SEED
B = english_builder("en4", SEED + 7)
B.family_rules("contraction_ambiguous_grammatical", "meaning", [
    (r"\b(I|we|you|they|he|she)'d (come|become|run|put|set|cut|read|let|hit|quit|spent|been|had|done|got|seen|gone)\b",
     lambda m: f"{m.group(1)} {'would' if m.group(2) in ('come','become','run','put','set','cut','read','let','hit','quit') else 'would have'} {m.group(2)}",
     "'d -> would/would have (source: had)"),
    (r"\b(I|we|you|they|he|she)'d (have|be|go|do|make|get|need|want|say|think|like)\b",
     lambda m: f"{m.group(1)} had {m.group(2)}", "'d -> had (source: would)"),
], 8)
write(B, "en4")
