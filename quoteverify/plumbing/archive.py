"""Resource limits on the files quoteverify reads, above all the zip archives (.docx documents and
manuscripts, .xlsx quote tables, reviewed workbooks, .qdpx projects): a small file must not take gigabytes
or minutes. ArchiveLimits carries the whole ``limits`` section of the config to every reader.

Every limit is checked on the zip's central directory, before anything is
unzipped: zipfile never inflates a member beyond the size its directory
declares, so the declared sizes bound what reading can cost. Each refusal is
one line naming the file and the limit, and the config key that raises it.
"""
from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model.config import load_config
from ..model.errors import InputError, option

# Members smaller than this may compress as well as they like: a ratio only betrays a bomb at size.
RATIO_FLOOR = 1 << 20
SHARED_STRINGS = "xl/sharedStrings.xml"


@dataclass(frozen=True)
class ArchiveLimits:
    """The ``limits`` section of the config."""

    max_unzipped_bytes: int
    max_ratio: float
    max_members: int
    max_columns: int
    max_shared_strings_bytes: int
    max_document_chars: int
    max_pdf_ratio: float
    max_quotes: int
    max_quote_chars: int

    @classmethod
    def of(cls, config: Any = None) -> ArchiveLimits:
        """The limits of a Config (its ``limits`` section), or of the default config."""
        if config is None:
            config = load_config()
        section = config.limits
        return cls(**{name: getattr(section, name) for name in cls.__dataclass_fields__})


def _bytes(n: int) -> str:
    return f"{n:,} bytes"


def check_archive(path: Path, data: bytes | Path, limits: ArchiveLimits, *, total: bool = True) -> None:
    """Refuse a zip archive (its bytes, or its file) whose unzipping would exceed ``limits``; a file that
    is not a zip passes, for its reader to explain. ``total=False`` leaves the size in all to the reader
    (a QDA project may carry its recordings)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data) if isinstance(data, bytes) else data) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, NotImplementedError):
        return
    if len(members) > limits.max_members:
        raise InputError(f"{path}: refused: it holds {len(members):,} files, more than the limit of "
                         f"{limits.max_members:,} (limits.max_members in {_in_config()})")
    for member in members:
        if member.filename == SHARED_STRINGS and member.file_size > limits.max_shared_strings_bytes:
            raise InputError(f"{path}: refused: its shared strings would unzip to {_bytes(member.file_size)}, "
                             f"more than the limit of {_bytes(limits.max_shared_strings_bytes)} "
                             f"(limits.max_shared_strings_bytes in {_in_config()})")
    unzipped = sum(m.file_size for m in members)
    if total and unzipped > limits.max_unzipped_bytes:
        raise InputError(f"{path}: refused: it would unzip to {_bytes(unzipped)}, more than the limit of "
                         f"{_bytes(limits.max_unzipped_bytes)} (limits.max_unzipped_bytes in {_in_config()}), "
                         "as zip bombs do")
    for member in members:
        ratio = member.file_size / max(1, member.compress_size)
        if member.file_size > RATIO_FLOOR and ratio > limits.max_ratio:
            raise InputError(f"{path}: refused: {member.filename} would unzip to {ratio:,.0f} times its "
                             f"compressed size, more than the limit of {limits.max_ratio:g} "
                             f"(limits.max_ratio in {_in_config()}), as zip bombs do")


def _in_config() -> str:
    """Where a limit is raised: the --config file on the command line, the config given to Python."""
    return option("--config", "the config")


def is_xml_bomb(exc: BaseException) -> bool:
    """Whether defusedxml refused the XML (entities or a DTD) somewhere in ``exc``'s chain of causes."""
    # defusedxml is needed only for the XML inside workbooks and projects.
    from defusedxml import DefusedXmlException

    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, DefusedXmlException):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def check_columns(path: Path, row: int, cells: int, limits: ArchiveLimits) -> None:
    """Refuse a worksheet row wider than the limit, whatever its ``<dimension>`` claims."""
    if cells > limits.max_columns:
        raise InputError(f"{path}: refused: row {row} has {cells:,} columns, more than the limit of "
                         f"{limits.max_columns:,} (limits.max_columns in {_in_config()})")
