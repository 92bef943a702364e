"""What parsing a file gives: the IR, and what printing it back faithfully needs (aliases in file order,
the dialect spelling, the text and each op's position in it)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation

from irkit.frontend.spelling import Spelling


@dataclass
class ParsedModule:
    """A parsed file: the IR plus what printing it back faithfully needs."""

    module: ModuleOp
    spelling: Spelling
    filename: str
    attr_aliases: dict[Attribute, str] = field(default_factory=dict)  # in file order
    type_aliases: dict[Attribute, str] = field(default_factory=dict)
    loc_aliases: dict[Attribute, str] = field(default_factory=dict)
    top_loc_aliases: set[str] = field(default_factory=set)  # defined before the module
    alias_order: list[str] = field(default_factory=list)  # every alias name, in file order
    # every attribute alias by its input name: what a verbatim type body (`!nvws.aref<[... #shared0 ...]>`) names
    alias_values: dict[str, Attribute] = field(default_factory=dict)
    variants: dict[str, str] = field(default_factory=dict)
    text: str = ""
    line_offset: int = 0  # lines before this chunk (with --split-input-file)
    op_positions: dict[Operation, int] = field(default_factory=dict)  # op -> offset of its name

    def op_line(self, op: Operation) -> int | None:
        """The 1-based input line where `op` was written (None for ops passes made)."""
        pos = self.op_positions.get(op)
        if pos is None:
            return None
        # a line-start table built once: counting newlines from the start per op is quadratic
        if self._line_starts is None or self._line_starts_of is not self.text:
            self._line_starts = [m.end() for m in re.finditer("\n", self.text)]
            self._line_starts_of = self.text
        return bisect.bisect_right(self._line_starts, pos) + 1 + self.line_offset
    implicit_module: bool = False
    _line_starts: list[int] | None = field(default=None, repr=False, compare=False)
    _line_starts_of: str | None = field(default=None, repr=False, compare=False)
