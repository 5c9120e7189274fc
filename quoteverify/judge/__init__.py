"""The judge: what a quote's differences from its span mean. The labelled differences, the verdict
contract's rules for each benign kind, the tests of what a quote leaves out, the semantic similarity of
the embedding model, and the classification into status, match type, confidence and reasons. It may
import the search, the sources, the plumbing and the model; it never runs a stage itself.
"""
