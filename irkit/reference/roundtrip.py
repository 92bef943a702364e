"""Modules through a reference and back, as irkit text (bridge.py says how names survive the trip)."""

from __future__ import annotations

from irkit.frontend.printer import print_module
from irkit.reference.bridge import intel_spelling_for, respell_attribute_names, restore, tagged_text


def through_reference(ref, passes: list[str], parsed: list, spelling, debuginfo: bool = False,
                      mlir_value_names: bool = False, unreadable: set[int] | None = None) -> list[tuple[str | None, str | None]]:
    """(printed result, None) or (None, why it failed) for each parsed module, run through `ref`'s `passes`.
    `spelling`: what the reference reads (None: each module's own).  `unreadable` collects the indices of
    the modules that Triton could not read."""
    from irkit.cli.opt import InputText
    from irkit.cli.report import ReportFailed, parse

    intel_legacy = intel_spelling_for(ref.version) if ref.version else False
    sent = [tagged_text(p, spelling or p.spelling, intel_legacy) for p in parsed]
    outcomes = ref.run(passes, [text for text, _ in sent])
    out: list[tuple[str | None, str | None]] = []
    for i, (p, (_, inputs), outcome) in enumerate(zip(parsed, sent, outcomes)):
        if outcome.unreadable and unreadable is not None:
            unreadable.add(i)
        if outcome.text is None:
            out.append((None, f"the reference pass failed: {_first_lines(outcome.error)}"))
            continue
        try:
            back = parse(InputText(outcome.text, "<reference output>"))
        except ReportFailed as e:
            out.append((None, f"irkit cannot read the reference's output: {str(e).splitlines()[0]}"))
            continue
        restore(back, inputs, p.spelling)
        text = print_module(back, debuginfo=debuginfo, mlir_value_names=mlir_value_names)
        out.append((respell_attribute_names(text, p.spelling) if spelling and spelling is not p.spelling else text, None))
    return out


def _first_lines(text: str | None, n: int = 3) -> str:
    lines = [line for line in (text or "").splitlines() if line.strip()]
    return "\n".join(lines[:n]) or "no reason given"
