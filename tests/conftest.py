"""Shared fixtures: a tiny interview corpus and a deterministic fake embedder."""
from __future__ import annotations

import faulthandler
import glob
import hashlib
import multiprocessing
import os
import re
import signal
import sys
import threading
import time
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


# --- every test bounded, and no child process left behind -------------------------------------------------
#
# A test that hangs (a child process that never answers, a lock never released) must not hold up the suite
# for the 90 minutes CI allows: after TEST_SECONDS (from its setup to its teardown) the test's child processes
# are killed, every thread's stack is printed, and the test fails; if it still has not ended STOP_SECONDS
# later, the stacks are printed again and the whole run stops (exit code 1) instead of waiting for ever.
# The slowest tests take some 60 s on a loaded 2-core machine (185 s under a load of 9); a test marked slow
# (a 100 MB document) has SLOW_SECONDS.
TEST_SECONDS = 300
SLOW_SECONDS = 900
STOP_SECONDS = 60
# Child processes that outlive a test by design: the model process a Python session keeps for all its runs
# (quoteverify.judge.embed._ModelProcess), and multiprocessing's own helpers, started once for the session
# (its resource tracker, and the fork server a local Dask cluster starts its workers from).
LASTING = ("quoteverify-model",)
LASTING_COMMANDS = (b"from multiprocessing.resource_tracker import main", b"from multiprocessing.forkserver import main")


def _children() -> set[int]:
    """This process's child processes (Linux: from /proc; elsewhere those multiprocessing started)."""
    found = glob.glob(f"/proc/{os.getpid()}/task/*/children")
    if not found:
        return {p.pid for p in multiprocessing.active_children() if p.pid is not None}
    pids: set[int] = set()
    for path in found:
        try:
            with open(path, encoding="ascii") as handle:
                pids.update(int(pid) for pid in handle.read().split())
        except OSError:  # the thread has ended
            continue
    return pids


def _lasting(pids: set[int]) -> set[int]:
    """Those of ``pids`` that are LASTING (by name) or LASTING_COMMANDS (by command line)."""
    named = {p.pid for p in multiprocessing.active_children() if p.name in LASTING}
    return {pid for pid in pids if pid in named or any(c in _command(pid) for c in LASTING_COMMANDS)}


def _command(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ")
    except OSError:
        return b""


def _describe(pid: int) -> str:
    command = _command(pid).decode(errors="replace").strip()
    return f"{pid} ({command[:120] or 'ended'})"


def _reap(pids: set[int]) -> None:
    """Kill the processes ``pids`` (children of this one) and wait for each, so none is left running or a zombie."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 10
    for pid in pids:
        while time.monotonic() < deadline:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # reaped already (by multiprocessing or subprocess)
                break
            if done:
                break
            time.sleep(0.01)
    multiprocessing.active_children()  # multiprocessing forgets the processes that ended


# The test running: its id -> the child processes there were at its start, and the seconds it may take.
_running: dict[str, tuple[set[int], int]] = {}


def _overran(signum, frame) -> None:
    """SIGALRM, TEST_SECONDS into a test: print the stacks, kill the child processes it started, fail it."""
    (nodeid, (started, seconds)), = _running.items()
    print(f"\n{nodeid}: ran over {seconds} s; the stacks of its threads:", file=sys.__stderr__)
    faulthandler.dump_traceback(file=sys.__stderr__)
    left = _children() - started
    left -= _lasting(left)
    _reap(left)
    pytest.fail(f"ran over {seconds} s (TEST_SECONDS or SLOW_SECONDS in tests/conftest.py); its child processes "
                f"{', '.join(map(str, sorted(left))) or '(none)'} were killed", pytrace=False)


def _stop_the_run(item, seconds: int) -> None:
    """STOP_SECONDS after a test overran and would not fail: print why and the stacks on the terminal, kill
    every child process, and end the run (exit code 1). The last resort, when even this thread cannot run
    (the interpreter held for ever), is faulthandler's, 30 s later."""
    capture = item.config.pluginmanager.getplugin("capturemanager")
    if capture is not None:
        capture.suspend_global_capture(item)
    print(f"\n{item.nodeid}: ran over {seconds + STOP_SECONDS} s and would not stop; the run is stopped. "
          "The stacks of its threads:", file=sys.stderr, flush=True)
    faulthandler.dump_traceback(file=sys.stderr)
    _reap(_children())
    os._exit(1)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Bound each test (TEST_SECONDS, or SLOW_SECONDS for one marked slow, then STOP_SECONDS more) from its setup
    to its teardown."""
    seconds = SLOW_SECONDS if item.get_closest_marker("slow") else TEST_SECONDS
    _running.clear()
    _running[item.nodeid] = (_children(), seconds)
    previous = signal.signal(signal.SIGALRM, _overran)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    stop = threading.Timer(seconds + STOP_SECONDS, _stop_the_run, (item, seconds))
    stop.daemon = True
    stop.start()
    faulthandler.dump_traceback_later(seconds + STOP_SECONDS + 30, exit=True)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        stop.cancel()
        faulthandler.cancel_dump_traceback_later()
        _running.clear()


@pytest.fixture(autouse=True)
def _no_child_left_behind():
    """A test ends with the child processes it started ended and reaped (but the lasting ones, LASTING); any it
    left is killed, and the test fails naming it."""
    before = _children()
    yield
    left = _children() - before
    left -= _lasting(left)
    if not left:
        return
    deadline = time.monotonic() + 2  # one that is ending by itself
    while left and time.monotonic() < deadline:
        multiprocessing.active_children()
        for pid in list(left):
            try:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    left.discard(pid)
            except ChildProcessError:
                left.discard(pid)
        time.sleep(0.05)
    if left:
        named = ", ".join(_describe(pid) for pid in sorted(left))
        _reap(left)
        pytest.fail(f"left child processes running: {named} (killed now); end them in the test or its fixture",
                    pytrace=False)
