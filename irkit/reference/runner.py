"""Where a C++ pass runs: a Python that has Triton (driver.py, run in it), a triton-opt, or any command.

A `Reference` runs a list of C++ passes over many module texts at once (one process for a Triton Python,
so Triton is imported once) and gives back, for each, the printed module or the reason it failed.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from irkit.cli.entry import CliError

DRIVER = Path(__file__).with_name("driver.py")
TIMEOUT_S = 600.0


class MissingPass(CliError):
    """The reference Triton has no such C++ pass (another given one may have)."""


@dataclass(frozen=True)
class Outcome:
    text: str | None  # the module the C++ pass printed (with locations)
    error: str | None = None
    unreadable: bool = False  # this Triton could not read the module (ops or layouts it does not have)


@dataclass(frozen=True)
class Reference:
    """One of: `python` (has Triton), `triton_opt` (a triton-opt binary), `command` (run as
    `COMMAND FILE`, prints the module on stdout)."""

    python: str | None = None
    triton_opt: str | None = None
    command: str | None = None
    version: str = ""  # the Triton version, where known ("3.9.0")

    @property
    def label(self) -> str:
        return self.command or self.triton_opt or f"triton {self.version} ({self.python})"

    def run(self, passes: list[str], texts: list[str]) -> list[Outcome]:
        if self.python:
            return _run_python(self.python, passes, texts)
        if self.triton_opt:
            return [_run_command([self.triton_opt, *(f"--{p}" for p in passes), "--mlir-print-debuginfo"], t) for t in texts]
        return [_run_command(shlex.split(self.command), t) for t in texts]


def _run_python(python: str, passes: list[str], texts: list[str]) -> list[Outcome]:
    request = json.dumps({"passes": passes, "modules": texts})
    try:
        p = subprocess.run([python, str(DRIVER)], input=request, capture_output=True, text=True, timeout=TIMEOUT_S,
                           env={**os.environ, "TRITON_DEFAULT_FP_FUSION": "1"})
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CliError(f"the reference Triton ({python}) did not run: {e}") from None
    try:
        answer = json.loads(p.stdout)
    except ValueError:
        last = (p.stderr.strip().splitlines() or [f"exit status {p.returncode}"])[-1]
        raise CliError(f"the reference Triton ({python}) failed: {last}") from None
    if "missing" in answer:
        raise MissingPass(f"Triton {answer['version']} ({python}) has no C++ pass '{answer['missing']}'")
    return [Outcome(r.get("text"), r.get("error"), bool(r.get("unreadable"))) for r in answer["results"]]


def _run_command(argv: list[str], text: str) -> Outcome:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "input.mlir")
        Path(path).write_text(text)
        try:
            p = subprocess.run([*argv, path], capture_output=True, text=True, timeout=TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise CliError(f"the reference command '{shlex.join(argv)}' did not run: {e}") from None
    if p.returncode != 0:
        return Outcome(None, p.stderr.strip() or f"exit status {p.returncode}")
    return Outcome(p.stdout)


def triton_version(python: str) -> str:
    from irkit.check.static import installed_triton_version

    return installed_triton_version(python)


def major_minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


def pythons_from_environment() -> list[str]:
    """$IRKIT_TRITON_PYTHON, then the entries of $IRKIT_TRITON_PYTHONS ("3.9.0=/path/python:...")."""
    out = []
    if os.environ.get("IRKIT_TRITON_PYTHON"):
        out.append(os.environ["IRKIT_TRITON_PYTHON"])
    for entry in filter(None, os.environ.get("IRKIT_TRITON_PYTHONS", "").split(":")):
        out.append(entry.partition("=")[2].strip() or entry.strip())
    return out


def python_references(pythons: list[str]) -> list[Reference]:
    refs = []
    for python in pythons:
        if not os.access(python, os.X_OK):
            raise CliError(f"'{python}': not an executable Python")
        refs.append(Reference(python=python, version=triton_version(python)))
    return refs


def choose(refs: list[Reference], version: str | None, legacy_spelling: bool) -> list[Reference]:
    """The references for a module, best first: the Triton a `version=` option names; else, for a module in
    Triton 3.1's spelling (triton_gpu.*), a Triton before 3.2 if one is given, then the others in order
    (the next is tried where one lacks the pass)."""
    if not refs:
        raise CliError("no reference: give --triton-python PYTHON or --triton-opt PATH (or set IRKIT_TRITON_PYTHON)")
    if version:
        for ref in refs:
            if ref.version and major_minor(ref.version) == major_minor(version):
                return [ref]
        have = ", ".join(r.version for r in refs if r.version) or "none"
        raise CliError(f"the pass asks for Triton {version}'s rules; no reference Triton {version} was given (have: {have})")
    def old(ref: Reference) -> bool:
        return bool(ref.version) and tuple(int(x) for x in major_minor(ref.version).split(".")) < (3, 2)

    return sorted(refs, key=lambda r: not old(r)) if legacy_spelling else list(refs)
