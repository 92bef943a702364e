"""A module on its way to a C++ pass and back.

There: printed by irkit in the spelling of the reference Triton (triton_gpu.* for 3.1, ttg.* after), every
op's location replaced by a tag `loc("irkit-ref":N:0)`, N its index in a walk.  C++ passes give the ops they
create the location of the op they replace, and keep the ops they leave alone with theirs, so the tag says
where each op of the result comes from.

Back: the result is parsed by irkit; each input op's value names go to the op of the result that took its
place (same tag, same result types; of the same kind if there is one, else the last such op); its location
comes back too.  The rest (values the C++ pass made) are numbered as MLIR numbers them.  So the output reads
as irkit-opt's would, and a lit file written for the prototype can check it.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc, UnknownLoc
from xdsl.ir import Attribute, Operation

from irkit.frontend.construct import file_line_col
from irkit.frontend.printer import print_module
from irkit.frontend.spelling import Spelling
from irkit.names import copy_name

TAG_FILE = "irkit-ref"


def spelling_for(version: str) -> Spelling:
    parts = tuple(int(x) for x in version.split(".")[:2] if x.isdigit())
    return Spelling.LEGACY if parts and parts < (3, 2) else Spelling.CURRENT


def intel_spelling_for(version: str) -> bool:
    """Intel's dialect is `triton_intel_gpu.*` up to Triton 3.3 (triton-xpu 3.3 with `ttg.*` beside it)."""
    parts = tuple(int(x) for x in re.findall(r"\d+", version)[:2])
    return bool(parts) and parts < (3, 4)


def tagged_text(parsed, spelling: Spelling, intel_legacy: bool = False) -> tuple[str, list[tuple[Operation, Attribute]]]:
    """The module as the reference reads it; the input ops in walk order with their own locations (the
    module is left as it was)."""
    ops = list(parsed.module.walk())
    saved = [(op, op.location) for op in ops]
    try:
        for i, op in enumerate(ops):
            op.location = file_line_col(TAG_FILE, i, 0)
        text = respell_attribute_names(print_module(parsed, debuginfo=True, spelling=spelling), spelling)
        return (re.sub(r"(?<![\w.])ttig\.", "triton_intel_gpu.", text) if intel_legacy else text), saved
    finally:
        for op, loc in saved:
            op.location = loc


def respell_attribute_names(text: str, spelling: Spelling) -> str:
    """Module attributes (`"ttg.num-warps"`) in `spelling`: the printer spells ops and attributes of the
    dialects, not the names of discardable attributes, which Triton 3.1 reads as `triton_gpu.*`."""
    if spelling is Spelling.LEGACY:
        return text.replace('"ttg.', '"triton_gpu.')
    return text.replace('"triton_gpu.', '"ttg.')


def _tag(loc: Attribute) -> int | None:
    if isinstance(loc, FileLineColLoc):
        return loc.line.data if loc.filename.data == TAG_FILE else None
    if isinstance(loc, NameLoc):
        return _tag(loc.child_loc)
    if isinstance(loc, CallSiteLoc):
        return _tag(loc.callee)
    if isinstance(loc, FusedLoc):
        for child in loc.locations:
            found = _tag(child)
            if found is not None:
                return found
    return None


def _types(op: Operation) -> list:
    return [r.type for r in op.results]


def _copy_prefix(sources, targets) -> None:
    """Names from `sources` to `targets`, position by position while the types agree."""
    for source, target in zip(sources, targets):
        if source.type != target.type:
            break
        copy_name(source, target)


def restore(out_parsed, inputs: list[tuple[Operation, Attribute]], spelling: Spelling) -> None:
    """Give the reference's result the input's value names, locations and spelling (in place)."""
    by_tag: dict[int, list[Operation]] = {}
    out_ops = list(out_parsed.module.walk())
    for op in out_ops:
        for r in op.results:
            r.name_hint = None
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    arg.name_hint = None
        tag = _tag(op.location)
        if tag is not None and 0 <= tag < len(inputs):
            by_tag.setdefault(tag, []).append(op)
            op.location = inputs[tag][1]
        else:
            op.location = UnknownLoc()
    for tag, ops in by_tag.items():
        original = inputs[tag][0]
        same = [op for op in ops if _types(op) == _types(original)]
        kind = [op for op in same if op.name == original.name]
        # an op rebuilt with other result types (an scf.for that carries offsets instead of a pointer)
        # keeps the names of its leading results and block arguments whose types did not change
        rebuilt = [op for op in ops if op.name == original.name and len(op.regions) == len(original.regions)]
        heir = (kind or same or rebuilt or [None])[-1]
        if heir is None:
            continue
        _copy_prefix(original.results, heir.results)
        for r_mine, r_theirs in zip(heir.regions, original.regions):
            for b_mine, b_theirs in zip(r_mine.blocks, r_theirs.blocks):
                _copy_prefix(b_theirs.args, b_mine.args)
    out_parsed.spelling = spelling
