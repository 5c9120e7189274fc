"""All outputs of a run as one transaction: each written to a temporary file in its own folder,
all renamed into place only when every one is complete.

Without a transaction, ``write_atomic`` renames each file as soon as it is
written. Inside ``with output_transaction():`` it stages the file instead; the
renames happen when the block ends without an exception, and an exception or
an interruption (Ctrl-C) removes every staged file, so that no earlier output
is replaced by a run that did not finish.
"""
from __future__ import annotations

import contextvars
import errno
import gc
import os
import shutil
import signal
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..model.errors import OutputError
from .guard import check_output_path
from .tempfiles import temp_name

_current: contextvars.ContextVar[OutputTransaction | None] = contextvars.ContextVar("outputs", default=None)


class OutputTransaction:
    """Temporary files waiting to be renamed to their outputs."""

    def __init__(self) -> None:
        self.staged: list[tuple[Path, Path]] = []
        self.replaced: list[Path] = []
        self.interrupted = False
        self.backups: dict[Path, Path] = {}  # output -> where its old file is kept when it is replaced

    def stage(self, tmp: Path, final: Path) -> None:
        self.staged.append((tmp, final))

    def keep(self, final: Path, backup: Path) -> None:
        """Keep the file now at ``final`` as ``backup`` when the transaction replaces it (a reviewer's
        decisions are never simply written over)."""
        self.backups[Path(final)] = Path(backup)

    def abort(self) -> None:
        for tmp, _ in self.staged:
            tmp.unlink(missing_ok=True)
        self.staged = []

    def commit(self) -> None:
        """Rename every staged file into place; Ctrl-C waits until the last is done."""
        with _sigint_deferred(self):
            for n, (tmp, final) in enumerate(self.staged):
                try:
                    if final in self.backups and final.exists():
                        _link_or_copy(final, self.backups[final])
                    os.replace(tmp, final)
                except OSError as exc:
                    for left, _ in self.staged[n:]:
                        left.unlink(missing_ok=True)
                    done = ", ".join(map(str, self.replaced)) or "none"
                    raise OutputError(f"{final}: cannot be written ({exc.strerror or exc}); outputs already "
                                      f"replaced: {done}") from None
                self.replaced.append(final)
        self.staged = []


def _link_or_copy(path: Path, backup: Path) -> None:
    """``path``'s file under the new name ``backup`` too (a hard link, else a copy); never over a file."""
    try:
        os.link(path, backup)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links
        with open(path, "rb") as source, open(backup, "xb") as copy:
            shutil.copyfileobj(source, copy)
        shutil.copystat(path, backup)


@contextmanager
def _sigint_deferred(transaction: OutputTransaction) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def note(signum, frame) -> None:
        transaction.interrupted = True

    previous = signal.signal(signal.SIGINT, note)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def output_transaction() -> Iterator[OutputTransaction]:
    """Stage every write_atomic() inside the block; rename all at its end, or none."""
    transaction = OutputTransaction()
    token = _current.set(transaction)
    try:
        yield transaction
        transaction.commit()
    except BaseException:
        transaction.abort()
        raise
    finally:
        _current.reset(token)


@contextmanager
def _spill_in(folder: Path) -> Iterator[None]:
    """Send libraries' temporary files (openpyxl's worksheets) to a private folder beside the output:
    $TMPDIR may be small or full, and a kill there would leave them behind for good."""
    spill = folder / temp_name("spill")
    spill.mkdir()
    previous = tempfile.tempdir
    tempfile.tempdir = str(spill)
    try:
        yield
    finally:
        tempfile.tempdir = previous
        shutil.rmtree(spill, ignore_errors=True)


def _write_errors() -> tuple[type[BaseException], ...]:
    """What a failed write raises: OSError, or lxml's own error when it serialises to a full disk."""
    try:
        # lxml is there only when openpyxl or python-docx brought it.
        from lxml.etree import LxmlError
    except ImportError:
        return (OSError,)
    return (OSError, LxmlError)


def _lxml_reason(exc: BaseException) -> str:
    """lxml names an I/O failure by its errno ("IO_EFBIG"): say it as the OS does ("File too large")."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    code = getattr(errno, text.removeprefix("IO_"), None) if text.startswith("IO_E") else None
    return os.strerror(code) if isinstance(code, int) else text


def _drop_quietly(exc: BaseException) -> None:
    """Free what the failed writer left open now, without its noise: a zip archive that openpyxl did not
    close tries to finish itself when collected, fails on the same full disk, and Python prints that
    failure as a traceback at exit."""
    hook = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: None
    try:
        traceback.clear_frames(exc.__traceback__)
        gc.collect()
    finally:
        sys.unraisablehook = hook


class _Interrupts:
    """Notes a Ctrl-C that arrives while a library writes a file: lxml and openpyxl may swallow the
    KeyboardInterrupt or turn it into an error of their own, and either must still end as an interruption."""

    def __init__(self) -> None:
        self.seen = False

    def __enter__(self) -> _Interrupts:
        self._previous = None
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._note)
        return self

    def _note(self, signum, frame) -> None:
        self.seen = True
        raise KeyboardInterrupt

    def __exit__(self, *exc) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


def write_atomic(path: Path, write: Callable[[Path], None]) -> None:
    """Write through a temporary file in the same folder, renamed into place at the end (or at the end
    of the enclosing output_transaction()).

    An interrupted or failed write leaves no partial file, and a file already at
    ``path`` as it was; a finished one replaces it.
    """
    path = Path(path)
    tmp = path.parent / temp_name(f"{path.name}.part")
    try:
        # os.open rather than mkstemp: the file gets the usual permissions (0666 less the umask), not 0600.
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        with _Interrupts() as interrupts:
            try:
                with _spill_in(path.parent):
                    write(tmp)
            except BaseException as exc:
                if interrupts.seen:
                    _drop_quietly(exc)
                    raise KeyboardInterrupt from None
                raise
        if interrupts.seen:
            raise KeyboardInterrupt
        transaction = _current.get()
        if transaction is not None:
            transaction.stage(tmp, path)
        else:
            os.replace(tmp, path)
    except _write_errors() as exc:
        _drop_quietly(exc)
        tmp.unlink(missing_ok=True)
        reason = getattr(exc, "strerror", None) or _lxml_reason(exc)
        raise OutputError(f"{path}: cannot be written ({reason}); "
                          f"check the free space and permissions of {path.parent}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_output(path: str | Path, write: Callable[[Path], None]) -> None:
    """check_output_path, then write_atomic: the way every output file of quoteverify is written."""
    check_output_path(path)
    write_atomic(Path(path), write)


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write rendered ``data`` to ``path`` as write_output does: the whole file or none."""

    def write(tmp: Path) -> None:
        tmp.write_bytes(data)

    write_output(path, write)
