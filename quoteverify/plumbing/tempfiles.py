"""Temporary files beside their final place, named so that a later run can tell a dead one.

A run killed with ``kill -9`` cannot remove its temporary files; each name
carries the writer's process id, so the next run removes those whose writer is
gone and leaves alone those of a run still going (several runs may share a
cache or an output folder).
"""
from __future__ import annotations

import os
import re
import secrets
import shutil
import time
from pathlib import Path

# A temporary file older than this is removed even when its process id is in use again by another program.
STALE_SECONDS = 24 * 3600
# Earlier versions named temporary files ".tmp-*" without a process id; no write takes this long.
LEGACY_STALE_SECONDS = 3600

_NAME = re.compile(r"\.qv-(\d+)-[0-9a-f]+")


def temp_name(stem: str = "") -> str:
    """A hidden name unique to this process: ``.qv-<pid>-<random>[.stem]``."""
    return f".qv-{os.getpid()}-{secrets.token_hex(4)}" + (f".{stem}" if stem else "")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, under another user
    return True


def clean_stale(folder: str | Path) -> int:
    """Remove the temporary files and folders left in ``folder`` by runs that are gone; how many."""
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    now = time.time()
    for entry in entries:
        match = _NAME.match(entry.name)
        legacy = entry.name.startswith(".tmp-")
        if not match and not legacy:
            continue
        try:
            age = now - entry.stat(follow_symlinks=False).st_mtime
            if legacy and age < LEGACY_STALE_SECONDS:
                continue
            if match and _alive(int(match.group(1))) and age < STALE_SECONDS:
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            removed += 1
        except OSError:
            continue  # another run removed it first, or the folder is read-only: nothing to do
    return removed
