"""`irkit-sweep --against REFERENCE`: each kernel's prototype result beside the C++ pass's, one verdict per row.

Runs after the sweep, in the sweep's own process: the prototype's pipeline is rerun per kernel (irkit-opt's
driver, as the sweep's rows were made), the reference runs all kernels in one Triton process, and the two are
compared (compare.py).  With a Triton reference the prototype's result also goes through that Triton with no
pass, so both sides have been read and printed by the same compiler before irkit prints them for comparison.
A kernel that differs gets a unified diff file in the diffs folder.
"""

from __future__ import annotations

import hashlib
import re
import shlex
from collections import Counter
from pathlib import Path

from irkit.reference.compare import canonical_lines, compare
from irkit.reference.runner import Reference

COLUMNS = ("reference", "reference_same", "reference_difference", "reference_first", "reference_diff")


def parse_against(against: str, pythons: list[str]) -> tuple[list[Reference], list[str]]:
    """A C++ pipeline by name (run in the given Pythons' Triton, else $IRKIT_TRITON_PYTHON..., else this
    one), or a command (has a blank or a '/': run as `COMMAND FILE`, the result on stdout)."""
    import sys

    from irkit.reference.passes import upstream_pipeline
    from irkit.reference.runner import python_references, pythons_from_environment

    if re.search(r"\s|/", against):
        shlex.split(against)
        return [Reference(command=against)], []
    names = [p.name for p in upstream_pipeline(against)]
    refs = python_references(pythons or pythons_from_environment() or [sys.executable])
    return refs, names


def _diff_name(row: dict) -> str:
    stem = re.sub(r"[^\w.-]+", "_", Path(row["path"]).name)[:60]
    return f"{stem}-{hashlib.sha256(row['key'].encode()).hexdigest()[:8]}.diff"


def _reference_for(refs: list[Reference], version: str | None) -> Reference:
    """The given Triton of the kernel's version (major.minor), else the first given."""
    from irkit.reference.runner import major_minor

    for ref in refs:
        if version and ref.version and major_minor(ref.version) == major_minor(version):
            return ref
    return refs[0]


def compare_rows(rows: list[dict], spec: str | None, against: str, pythons: list[str], diffs: str,
                 normalise: str = "") -> None:
    """Fill the reference_* columns of every ok row (in place).  `normalise`: C++ passes of the reference
    Triton (e.g. 'canonicalize,cse') run on both results before they are compared."""
    from irkit.cli.opt import InputText
    from irkit.frontend.spelling import Spelling
    from irkit.reference.bridge import spelling_for
    from irkit.reference.roundtrip import through_reference
    from irkit.sweep.inputs import KernelTask
    from irkit.sweep.kernel import KernelFailed, _parse, _read, _run_pipeline, pipeline_for

    refs, names = parse_against(against, pythons)
    tidy = [p.strip() for p in normalise.split(",") if p.strip()]
    if tidy and not refs[0].python:
        from irkit.cli.entry import CliError

        raise CliError("--against-normalise needs a Triton reference (a pass name), not a command")
    groups: dict = {}
    for row in rows:
        row["reference"] = against
        if row["status"] != "ok":
            continue
        try:
            chunk = _read(KernelTask(row["path"], row["section"] or ""))
            parsed = _parse(chunk)
            ours = _parse(InputText(_run_pipeline(chunk, pipeline_for(spec), []), chunk.name)) if spec else parsed
        except KernelFailed as e:
            row["reference_difference"], row["reference_first"] = "prototype-error", e.message
            continue
        groups.setdefault(_reference_for(refs, row["triton_version"]), []).append((row, parsed, ours))
    compared = []
    for ref, todo in groups.items():
        spelling = spelling_for(ref.version) if ref.version else None
        results = through_reference(ref, names + tidy, [p for _, p, _ in todo], spelling)
        # the prototype's result read and printed by the same Triton (no pass), so that what its printer does
        # to a type (3.3 drops a memdesc's allocation shape) is on both sides
        printed = through_reference(ref, tidy, [o for _, _, o in todo], spelling) if ref.python else []
        for k, (text, error) in enumerate(printed):
            if error is None:
                todo[k] = (todo[k][0], todo[k][1], _parse(InputText(text, "<prototype, printed by the reference>")))
        compared.extend(zip(todo, results))
    Path(diffs).mkdir(parents=True, exist_ok=True)
    for (row, _, ours), (text, error) in compared:
        if error is not None:
            row["reference_same"] = False
            row["reference_difference"], row["reference_first"] = "reference-error", error.splitlines()[0][:300]
            continue
        try:
            theirs = _parse(InputText(text, "<reference>"))
        except KernelFailed as e:
            row["reference_same"] = False
            row["reference_difference"], row["reference_first"] = "reference-error", e.message
            continue
        theirs.spelling = Spelling.CURRENT
        ours.spelling = Spelling.CURRENT
        result = compare(canonical_lines(ours), canonical_lines(theirs))
        row["reference_same"] = result.same
        if not result.same:
            path = Path(diffs) / _diff_name(row)
            path.write_text(f"--- {row['path']}: prototype '{spec}' vs reference '{against}'\n" + result.diff)
            row.update(reference_difference=result.kind, reference_first=result.first, reference_diff=str(path))


def render(rows: list[dict], against: str) -> str:
    compared = [r for r in rows if r.get("reference_same") is not None]
    same = sum(1 for r in compared if r["reference_same"])
    kinds = Counter(r["reference_difference"] for r in rows if r.get("reference_difference"))
    lines = [f"against {against}: {same} of {len(compared)} kernel(s) the same"
             + (f"; {len(rows) - len(compared)} not compared" if len(rows) > len(compared) else "")]
    for kind, n in kinds.most_common():
        lines.append(f"  {kind}: {n}")
    for r in rows:
        if r.get("reference_difference"):
            lines.append(f"  {r['path']}: {r['reference_difference']}: {r['reference_first']}")
            if r.get("reference_diff"):
                lines.append(f"    diff: {r['reference_diff']}")
    return "\n".join(lines) + "\n"


def summary(rows: list[dict]) -> dict:
    compared = [r for r in rows if r.get("reference_same") is not None]
    return {"compared": len(compared), "same": sum(1 for r in compared if r["reference_same"]),
            "kinds": dict(Counter(r["reference_difference"] for r in rows if r.get("reference_difference")))}
