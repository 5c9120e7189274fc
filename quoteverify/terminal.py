"""The terminal a command prints to: its messages through click, and a progress bar on stderr."""
from __future__ import annotations

import shlex
import sys
from functools import partial
from typing import Any

import click

from .commands import Console


class ProgressBar:
    """A progress bar on stderr, shown only when stderr is a terminal.

    It is told how many quotes are done, not that one more is: parallel workers
    report in batches, and the quotes settled by the exact fast path all at once."""

    def __init__(self, enabled: bool, file=None):
        self.enabled = enabled
        self.file = file
        self.bar: Any = None  # a click progress bar, once there are enough quotes to show one

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total < 20:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label="verifying", file=self.file or sys.stderr)
            self.bar.__enter__()
        if done > self.bar.pos:
            self.bar.update(done - self.bar.pos)
        if done >= total:
            self.bar.__exit__(None, None, None)
            self.enabled = False


def console(*, quiet: bool = False) -> Console:
    """Messages to stderr, output to stdout, and a progress bar unless ``quiet`` or stderr is no terminal."""
    return Console(say=partial(click.echo, err=True), echo=partial(click.echo, nl=False),
                   write=sys.stdout.buffer.write, progress=ProgressBar(sys.stderr.isatty() and not quiet))


def command_line() -> str:
    """The command as typed, for a manifest."""
    return shlex.join(["quoteverify", *sys.argv[1:]])
