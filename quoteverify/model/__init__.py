"""The model: the words every floor speaks. The named results that flow between the stages (``types``),
the errors that reach the user, the typed settings (``config``), the word classes of each language
(``lexicon``), the decoders that turn a user's bytes into text and records, a result as one flat row
(``rows``), and the wording of text shown to people. The ground floor: it imports nothing of quoteverify
outside itself, and every other floor may import it.
"""
