"""What every irkit command does around its `run`: user errors as one line
and exit 1, bugs as one `internal error` line and exit 2, never a traceback
(unless IRKIT_TRACEBACK is set)."""

from __future__ import annotations

import argparse
import difflib
import os
import sys
import traceback
from collections.abc import Callable, Iterable

from irkit.outputs import OutputError

INTERNAL_ERROR = 2  # exit status of a bug in irkit (1: the user's input or command line)


class InternalError(Exception):
    """A bug in irkit itself (a pass raised something other than PassFailure on IR the
    verifier accepted): `internal error in pass X at file:line:col; please report`, exit
    INTERNAL_ERROR; `--debug` prints the traceback of its `__cause__`."""


class CliError(Exception):
    """A user error the command reports as `<prog>: error: ...` and exit 1."""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`; did you mean 'X'?` for the choice closest to a mistyped `word`, or "" when none is close."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.7)
    return f"; did you mean '{close[0]}'?" if close else ""


class ArgumentParser(argparse.ArgumentParser):
    """argparse exits with status 2 and its usage text on a bad option; irkit's commands report every
    user error alike: `<prog>: error: ...`, exit 1, and name the option a mistyped flag was meant to be."""

    extra_flags: tuple[str, ...] = ()  # flags the command reads before argparse (irkit-opt's passes)

    def error(self, message: str):  # type: ignore[override]
        hint = ""
        prefix = "unrecognized arguments: "
        if message.startswith(prefix):
            known = [*self._option_string_actions, *self.extra_flags]
            for word in message[len(prefix):].split():
                if word.startswith("-") and (hint := did_you_mean("--" + word.lstrip("-").split("=")[0], known)):
                    break
        raise CliError(f"{message}{hint} (see --help)")


def run_command(
    prog: str,
    run: Callable[[list[str]], int],
    argv: list[str],
    already_reported: tuple[type[BaseException], ...] = (),
    debug_option: bool = True,
) -> int:
    """Exit code of `run(argv)`; `already_reported` errors carry their full text.  `debug_option`: the
    command takes `--debug` (the messages offer it only then; IRKIT_TRACEBACK=1 works for every command)."""
    debug = "--debug" in argv or bool(os.environ.get("IRKIT_TRACEBACK"))
    hint = " (--debug shows the traceback)" if debug_option else " (IRKIT_TRACEBACK=1 shows the traceback)"
    try:
        return run(argv)
    except InternalError as e:  # a pass's own bug: say so, with where it happened
        sys.stderr.write(f"{prog}: {e}" + ("" if debug else hint) + "\n")
        if debug:
            traceback.print_exception(e.__cause__ or e, file=sys.stderr)
        return INTERNAL_ERROR
    except already_reported as e:
        sys.stderr.write(f"{e}\n")
        return 1
    except (CliError, OutputError) as e:  # OutputError: an output path irkit cannot write
        sys.stderr.write(f"{prog}: error: {e}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except MemoryError:
        sys.stderr.write(f"{prog}: error: out of memory\n")
        return 1
    except OSError as e:  # the environment (a full disk, a read-only folder), not irkit: one line, exit 1
        if os.environ.get("IRKIT_TRACEBACK"):
            raise
        where = f" '{os.fsdecode(e.filename)}'" if e.filename is not None else ""
        sys.stderr.write(f"{prog}: error: cannot go on:{where} {e.strerror or e}\n")
        return 1
    except Exception as e:  # a bug in irkit itself: say so in one line
        if os.environ.get("IRKIT_TRACEBACK"):
            raise
        sys.stderr.write(f"{prog}: internal error: {type(e).__name__}: {e}; please report"
                         + ("" if debug else hint) + "\n")
        if debug:
            traceback.print_exc(file=sys.stderr)
        return INTERNAL_ERROR
