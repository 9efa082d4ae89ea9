"""The course's `ucb.py` as the strategy sandbox offers it to a student's `hog.py`.

The course's helpers run a file's `@main` function from the command line, print traced calls and open an
interactive prompt; a strategy being checked does none of that, so here each one is inert: `@main` and
`@trace` hand the function back unchanged (the file's `run` is never called), `log`, `log_current_line`
and `interact` do nothing. Standard library only: the sandbox loads this very file as `ucb`.
"""

from collections.abc import Callable

Function = Callable[..., object]  # (no typing import: every sandboxed run loads this module)


def main(fn: Function) -> Function:
    """The course's `@main`: it would call `fn` when the file is run as a program, which a check never is."""
    return fn


def trace(fn: Function) -> Function:
    """The course's `@trace`: `fn` itself, tracing to nowhere."""
    return fn


def log(message: object) -> None:
    """The course's `log`: prints nowhere."""


def log_current_line() -> None:
    """The course's `log_current_line`: prints nowhere."""


def interact(msg: object = None) -> None:
    """The course's `interact`: no prompt opens (nobody is at a keyboard), the file goes on."""


__all__ = ["interact", "log", "log_current_line", "main", "trace"]
