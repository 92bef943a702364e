"""What every irkit command does around its `run`: user errors as one line
and exit 1, bugs as one `internal error` line and exit 2, never a traceback
(unless IRKIT_TRACEBACK is set)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable


class CliError(Exception):
    """A user error the command reports as `<prog>: error: ...` and exit 1."""


def run_command(
    prog: str,
    run: Callable[[list[str]], int],
    argv: list[str],
    already_reported: tuple[type[BaseException], ...] = (),
) -> int:
    """Exit code of `run(argv)`; `already_reported` errors carry their full text."""
    try:
        return run(argv)
    except already_reported as e:
        sys.stderr.write(f"{e}\n")
        return 1
    except CliError as e:
        sys.stderr.write(f"{prog}: error: {e}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except MemoryError:
        sys.stderr.write(f"{prog}: error: out of memory\n")
        return 1
    except Exception as e:  # a bug in irkit itself: say so in one line
        if os.environ.get("IRKIT_TRACEBACK"):
            raise
        sys.stderr.write(f"{prog}: internal error: {type(e).__name__}: {e} (set IRKIT_TRACEBACK=1 for details)\n")
        return 2
