"""Shared fixtures: a tiny interview corpus and a deterministic fake embedder."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np
import pytest

# Four short sources in the shapes the tool meets: interview transcripts with
# speaker labels, line wraps inside sentences, fillers, "--" restarts and stage
# directions; one with Windows line endings; one meeting excerpt in the style of
# the AMI corpus.
TINY_CORPUS: dict[str, str] = {
    "interview-01": (
        "Interviewer: How did the first year go?\n"
        "Maria: Honestly, um, it was harder than we expected. We lost 15 volunteers in the first\n"
        "month, and the remote clinic had to close twice.\n"
        "Interviewer: Why did it close?\n"
        "Maria: The committee did not approve the budget until March. I think -- I think we were\n"
        "naive about the paperwork. (laughs) But the nurses never gave up, they came in every weekend.\n"
        "Interviewer: What would you change?\n"
        "Maria: We should have asked Dr. Okafor for help much earlier. She knew everyone at the ministry.\n"
        "I don't think we would have waited that long.\n"
    ),
    "interview-02": (
        "Interviewer: Tell me about the training programme.\n"
        "James: The training was useful, but it was far too short. Three days is not enough to learn "
        "a new system.\n"
        "Interviewer: Did the managers support you?\n"
        "James: Not really. They said they would send extra staff, and they never did. We ended up "
        "covering night shifts ourselves for about six weeks.\n"
        "Interviewer: And the patients?\n"
        "James: The patients noticed, of course. Some of them stopped coming to the evening sessions "
        "altogether. I asked Peter about it on Monday and he said the money had run out.\n"
    ),
    "interview-03": (
        "Interviewer: What do you remember about the flood?\r\n"
        "Aisha: The water came up so fast. By noon the whole ground floor was gone, and we carried the\r\n"
        "children upstairs one by one.\r\n"
        "Interviewer: Who helped you?\r\n"
        "Aisha: Our neighbours did. The council sent a boat, but it arrived two days later, when everything\r\n"
        "was already over.\r\n"
    ),
    "meeting-01": (
        "Project Manager: Okay, well we have some expertise from uh different pieces of the of the company.\n"
        "\n"
        "User Interface: (laughs)\n"
        "\n"
        "Project Manager: That's good. Um well I said uh we're working on a project and the aim for the "
        "project is to to create a -- to design a new remote control which uh has to be original, trendy "
        "and of course, user friendly. (laughs) And uh I hope we have the expertise to create such a "
        "project -- such a product.\n"
    ),
}

NO_EMBED: dict = {"embed": {"enabled": False}}

_WORD = re.compile(r"\w+")


class FakeEmbedder:
    """A deterministic stand-in for the sentence model: a hashed bag of words.

    Words are case-folded, mapped through ``synonyms`` (so a test can say which
    rewordings mean the same) and hashed with blake2b into ``dim`` buckets;
    every row is a unit vector. ``calls`` counts texts encoded, for cache tests.
    """

    name = "fake-bag-of-words"

    def __init__(self, dim: int = 512, synonyms: Mapping[str, str] | None = None):
        self.dim = dim
        self.synonyms = dict(synonyms or {})
        self.calls = 0

    def _bucket(self, word: str) -> int:
        digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
        return int.from_bytes(digest, "little") % self.dim

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += len(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.casefold()):
                out[row, self._bucket(self.synonyms.get(word, word))] += 1.0
            norm = float(np.linalg.norm(out[row]))
            if norm == 0.0:
                out[row, 0] = 1.0  # still a unit vector: texts without words are all alike
            else:
                out[row] /= norm
        return out


@pytest.fixture(autouse=True)
def _private_cache_and_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI caches and records runs under XDG folders: keep the tests' out of the user's home."""
    home = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))


@pytest.fixture
def fake_embedder() -> FakeEmbedder:
    return FakeEmbedder()


@pytest.fixture
def tiny_corpus() -> dict[str, str]:
    """Document id -> original text, as given to quoteverify.verify()."""
    return dict(TINY_CORPUS)


@pytest.fixture
def corpus_dir(tmp_path: Path) -> Path:
    """The tiny corpus as a folder of .txt files, line endings written as they are."""
    folder = tmp_path / "transcripts"
    folder.mkdir()
    for doc_id, text in TINY_CORPUS.items():
        with open(folder / f"{doc_id}.txt", "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    return folder


def span_of(text: str, passage: str) -> tuple[int, int]:
    """(start, end) of the one occurrence of ``passage`` in ``text``."""
    start = text.find(passage)
    assert start >= 0, f"test data: {passage!r} is not in the text"
    assert text.find(passage, start + 1) < 0, f"test data: {passage!r} occurs twice"
    return start, start + len(passage)


@pytest.fixture
def locate():
    """locate(doc_id, passage) -> (start, end) of the passage in the tiny corpus."""
    return lambda doc_id, passage: span_of(TINY_CORPUS[doc_id], passage)
