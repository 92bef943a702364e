"""tools/sass_loop_spills.py, which places ptxas's spill code inside or outside loops for
docs/propagate-mma-results.md (round 10), on SASS written by hand in nvdisasm's form."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# a prologue spill, a main loop (label .L_x_1 and a branch back to it) with one spill store and two reloads
# and a barrier, a forward branch (not a loop), and an epilogue reload
SASS = """\
        /*0000*/                   STL [R1], R4 ;
        /*0010*/                   BRA `(.L_x_0) ;
.L_x_1:
        /*0020*/                   LDL R6, [R1+0x8] ;
        /*0030*/                   STL [R1+0x10], R8 ;
        /*0040*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0050*/                   LDL.64 R10, [R1+0x18] ;
        /*0060*/              @P0  BRA `(.L_x_1) ;
.L_x_0:
        /*0070*/                   LDL R12, [R1] ;
        /*0080*/                   EXIT ;
"""


def _tool():
    spec = importlib.util.spec_from_file_location("sass_loop_spills", ROOT / "tools" / "sass_loop_spills.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_spill_code_is_placed_inside_or_outside_the_loop():
    counts = _tool().counts(SASS)
    assert counts == {"stl_in_loops": 1, "stl_outside": 1, "ldl_in_loops": 2, "ldl_outside": 1,
                      "bar_in_loops": 1, "bar_outside": 0}


def test_a_forward_branch_makes_no_loop():
    from irkit.check.binary_metrics import sass_loop_lines

    lines = SASS.splitlines()
    inside = sass_loop_lines(lines)
    assert min(inside) == lines.index(".L_x_1:") and max(inside) == 7  # the branch back, not the forward one
