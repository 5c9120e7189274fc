"""The search: where a quote stands in the sources. Windows of each document, the BM25 index over them,
the word-for-word places of a quote, and the alignment that finds the span a quote was taken from. It
may import the sources, the plumbing and the model.
"""
