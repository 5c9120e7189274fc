"""The terminal a command prints to: its messages through click, a progress bar on stderr, and the one
place where an error becomes a message and an exit status."""
from __future__ import annotations

import os
import shlex
import sys
from functools import partial
from typing import Any

import click

from .commands import Console, Interrupted, Outcome
from .model.errors import COMMAND_LINE, QuoteverifyError
from .model.text import masked

# Exit statuses besides 0 (done) and 1 (--fail-on was hit).
EXIT_BAD_INPUT = 2      # a QuoteverifyError: bad input, a refused output; or an OSError (a full disk)
EXIT_FAULT = 3          # anything else: a fault of quoteverify (or memory run out), to be reported
EXIT_INTERRUPTED = 130  # Ctrl-C
# Exceptions click says itself (usage errors, --help, an abort).
_CLICKS = (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort)


def say(message: str) -> None:
    """A line on stderr, with the password of any URL in it masked."""
    click.echo(masked(message), err=True)


class Group(click.Group):
    """The command group that turns every error into one line and an exit status: a QuoteverifyError (bad input,
    a refused output) or an OSError (a folder that cannot be listed, a full disk) with code 2; a Ctrl-C saying
    truly what was written, with 130; and any other exception, a fault of quoteverify, with code 3 and a line
    asking to report it (the traceback only under --debug)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)  # as defined, verify first: --help lists the main command at the top

    def invoke(self, ctx: click.Context) -> Any:
        # Read before click takes them: the command and its arguments, to name the inputs of a fault.
        given = [*getattr(ctx, "_protected_args", ()), *ctx.args]
        token = COMMAND_LINE.set(True)  # messages name the options (--quote-col), not Python's config keys
        try:
            outcome = super().invoke(ctx)
        except (BrokenPipeError, *_CLICKS):
            raise  # click ends quietly when stdout is closed (quoteverify verify ... | head), and says its own
        except Interrupted as exc:
            say(str(exc))
            sys.exit(EXIT_INTERRUPTED)
        except (QuoteverifyError, OSError) as exc:
            message = str(exc)
            if isinstance(exc, OSError) and exc.filename and exc.strerror:
                message = f"{exc.filename}: {exc.strerror}"
            say("Error: " + " ".join(message.splitlines()))  # one line, whatever the library said
            sys.exit(EXIT_BAD_INPUT)
        except Exception as exc:
            if ctx.params.get("debug"):
                raise
            say(fault_message(exc, given))
            sys.exit(EXIT_FAULT)
        finally:
            COMMAND_LINE.reset(token)
        if isinstance(outcome, Outcome) and outcome.exit_code:
            sys.exit(outcome.exit_code)  # --fail-on was hit
        return outcome


def fault_message(exc: BaseException, given: list[str]) -> str:
    """One line for an exception no rule of quoteverify expected, naming the command and its inputs."""
    command = given[0] if given else ""
    inputs = [arg for arg in given[1:] if not arg.startswith("-") and os.path.exists(arg)]
    on = f" on {', '.join(inputs)}" if inputs else ""
    if isinstance(exc, MemoryError):
        return (f"Error: quoteverify {command} ran out of memory{on}; give it smaller inputs (the limits: section of "
                "--config bounds what one file may cost) or more memory")
    reason = " ".join(str(exc).split())[:200] or "no message"
    return (f"Error: quoteverify {command} stopped on an unexpected fault{on} ({type(exc).__name__}: {reason}); "
            "this is a bug in quoteverify: please report it as an issue, with this line and the command "
            "(quoteverify --debug ... shows the traceback)")


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
    return Console(say=say, echo=partial(click.echo, nl=False),
                   write=sys.stdout.buffer.write, progress=ProgressBar(sys.stderr.isatty() and not quiet))


def command_line() -> str:
    """The command as typed, for a manifest, with the password of any URL in it masked."""
    return shlex.join(["quoteverify", *(masked(arg, argument=True) for arg in sys.argv[1:])])
