"""Documents in: files or folders of ``.txt``/``.md`` (doc id = file stem), ``.vtt``, ``.srt``, ``.docx``,
``.pdf``, or the sources of a REFI-QDA project. Plain text is decoded as UTF-8 with line endings kept, so
offsets are offsets into ``open(path, encoding="utf-8", newline="").read()``; UTF-16 (with a BOM) and
Windows-1252 are decoded too, with a warning for the latter. Subtitles, ``.docx`` and ``.pdf`` are read
through quoteverify.sources.formats, and offsets are into the text extracted there.
"""
from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..model.decoders import decode_text
from ..model.errors import InputError
from ..model.types import Document
from ..plumbing.archive import ArchiveLimits
from ..plumbing.guard import own_output
from .formats import BINARY_SUFFIXES, PROJECT_SUFFIX, QUOTE_SUFFIXES, extract
from .formats import SUFFIXES as DOCUMENT_SUFFIXES
from .qdpx import read_qdpx


@dataclass(frozen=True)
class LoadedDocuments:
    documents: tuple[Document, ...]
    warnings: tuple[str, ...] = ()


# Documents as run(), verify() and verify_frame() take them: folder or file paths, Document objects, a mapping of
# document id to text, or what load_documents read already.
DocumentsGiven = str | Path | Iterable[str | Path] | Iterable[Document] | Mapping[str, str] | LoadedDocuments


def read_documents(documents: DocumentsGiven, limits: ArchiveLimits) -> LoadedDocuments:
    """The documents however they were given, read (files) or taken as they are, sorted by id."""
    if isinstance(documents, LoadedDocuments):
        return documents
    if isinstance(documents, Mapping):
        # surrogatepass: text decoded with surrogateescape still gets a hash
        docs = tuple(Document(str(k), "", str(v), sha256_bytes(str(v).encode("utf-8", "surrogatepass")))
                     for k, v in sorted(documents.items()))
        return LoadedDocuments(docs)
    if isinstance(documents, (str, Path)):
        documents = [documents]
    items = list(documents)
    given = [d for d in items if isinstance(d, Document)]
    if given and len(given) == len(items):
        return LoadedDocuments(tuple(sorted(given, key=lambda d: d.doc_id)))
    paths = [d for d in items if isinstance(d, (str, Path))]
    if len(paths) != len(items):
        raise InputError("documents: give paths of files and folders, or Document objects, not a mix of them "
                         "or anything else")
    return load_documents(paths, limits=limits)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# Files in a documents folder that are not read and not worth a warning: quote tables kept beside the
# transcripts, and projects.
_QUIET_SUFFIXES = QUOTE_SUFFIXES + (".json", ".yaml", ".yml", ".qdpx")


SKIPPED_SHOWN = 10


def _document_files(paths: Iterable[str | Path], warnings: list[str] | None = None) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            # "~$name.docx" is the lock file Word keeps beside a document it has open; hidden files and
            # folders (".git", macOS's "._name.txt" resource forks) are no one's documents either.
            candidates = sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("~$")
                                and not any(part.startswith(".") for part in p.relative_to(path).parts))
            found = [p for p in candidates if p.suffix.lower() in DOCUMENT_SUFFIXES]
            # A transcript saved as .rtf or .odt would otherwise be missing from the search without a word.
            # (A file without an extension, a README or LICENSE, is no one's transcript.)
            skipped = [p.relative_to(path).as_posix() for p in candidates
                       if p.suffix and p.suffix.lower() not in DOCUMENT_SUFFIXES + _QUIET_SUFFIXES]
            if skipped and warnings is not None:
                more = f" and {len(skipped) - SKIPPED_SHOWN} more" if len(skipped) > SKIPPED_SHOWN else ""
                warnings.append(f"{path}: {len(skipped)} file(s) not read, as quoteverify reads only "
                                f"{', '.join(DOCUMENT_SUFFIXES)}: {', '.join(skipped[:SKIPPED_SHOWN])}{more}; "
                                "save them as .docx or .txt to check quotes against them")
            if not found:
                raise InputError(f"{path}: no {'/'.join(DOCUMENT_SUFFIXES)} documents in this folder")
            files.extend(found)
        elif path.is_file():
            if path.suffix.lower() not in DOCUMENT_SUFFIXES + (PROJECT_SUFFIX,):
                raise InputError(f"{path}: unsupported document type '{path.suffix}'; "
                                 f"use {', '.join(DOCUMENT_SUFFIXES + (PROJECT_SUFFIX,))}")
            files.append(path)
        else:
            raise InputError(not_a_file(path, "a document file or a folder of them"))
    return files


def not_a_file(path: Path, wanted: str) -> str:
    """Why ``path``, which is neither a regular file nor a folder, cannot be read."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        if os.path.islink(path):
            if exc.errno == errno.ELOOP:
                return f"{path}: is a symbolic link that loops ({exc.strerror}); give {wanted}"
            return f"{path}: is a symbolic link to {os.readlink(path)}, which does not exist; give {wanted}"
        if exc.errno == errno.ENOENT:
            return f"{path}: no such file or folder"
        return f"{path}: cannot be read ({exc.strerror}); give {wanted}"
    kind = ("a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
    return f"{path}: is {kind}, not a file that can be read; give {wanted}"


def load_documents(paths: Iterable[str | Path], *, limits: ArchiveLimits | None = None) -> LoadedDocuments:
    """Read documents from files and folders; ids are file stems and must be unique. ``limits``: what
    one document may cost to read (default: the config's)."""
    limits = limits or ArchiveLimits.of()
    warnings: list[str] = []
    documents: list[Document] = []
    seen: dict[str, Path] = {}
    files = _document_files(paths, warnings)
    if not files:
        raise InputError(f"no documents given; give files or folders of {', '.join(DOCUMENT_SUFFIXES)} documents")
    for path in files:
        if path.suffix.lower() == PROJECT_SUFFIX:
            project = read_qdpx(path, limits=limits)
            warnings.extend(project.warnings)
            read: tuple[Document, ...] = project.documents
        else:
            document = _document(path, limits, warnings)
            read = (document,) if document is not None else ()
        for document in read:
            if document.doc_id in seen:
                what = "source" if path.suffix.lower() == PROJECT_SUFFIX else "document id"
                raise InputError(f"{path}: {what} '{document.doc_id}' is also the id of {seen[document.doc_id]}; "
                                 "rename one of them (ids are file names without the extension)")
            seen[document.doc_id] = path
            documents.append(document)
    if not documents:
        raise InputError("no usable documents: every document given is empty")
    documents.sort(key=lambda d: d.doc_id)
    return LoadedDocuments(tuple(documents), tuple(warnings))


def _document(path: Path, limits: ArchiveLimits, warnings: list[str]) -> Document | None:
    """One document file as a Document; None, with a warning, when it is empty or an output of quoteverify."""
    try:
        size = path.stat().st_size
        # A character takes a byte at least and four at most: no need to read what cannot fit.
        if size > 4 * limits.max_document_chars:
            refuse_too_long(path, limits)
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror}); check its permissions") from None
    if path.suffix.lower() in BINARY_SUFFIXES:
        extracted, encoding = extract(path, data, limits=limits), path.suffix.lower().lstrip(".")
    else:
        text, encoding = decode_text(path, data, warnings)
        if len(text) > limits.max_document_chars:
            refuse_too_long(path, limits)
        if (kind := own_output(text)) is not None:
            warnings.append(f"{path}: written by quoteverify (its {kind}), not a source document; left out of "
                            "the documents (keep outputs outside the documents folder)")
            return None
        extracted = extract(path, text)
    warnings.extend(extracted.warnings)
    if not extracted.text.strip():
        warnings.append(f"{path}: empty document, skipped")
        return None
    if len(extracted.text) > limits.max_document_chars:
        refuse_too_long(path, limits)
    return Document(path.stem, str(path), extracted.text, sha256_bytes(data), encoding, extracted.cues,
                    layout=extracted.layout)


def refuse_too_long(path: Path, limits: ArchiveLimits) -> None:
    raise InputError(f"{path}: refused: its text runs past {limits.max_document_chars:,} characters "
                     "(limits.max_document_chars in --config); split it, or raise the limit")
