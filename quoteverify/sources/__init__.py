"""The sources: documents and quote tables read in, and the text they are made of. File formats (text,
.docx, .pdf, .qdpx), pages and speaker turns, normalization with its map back to the original offsets,
tokens, numbers, the language of each text, and the corpus that holds both sides ready to match. It may
import the model and the plumbing.
"""
