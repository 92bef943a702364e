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


# a persistent kernel's shape: a loop over tiles (.L_x_0) around the K loop (.L_x_1), with the epilogue's global
# store in the loop over tiles only, and the branch-to-self nvdisasm puts after EXIT
PERSISTENT = """\
        /*0000*/                   MOV R2, RZ ;
.L_x_0:
        /*0010*/                   MOV R4, RZ ;
.L_x_1:
        /*0020*/                   HGMMA.64x128x16.F32 R24, gdesc[UR4], R24 ;
        /*0030*/                   IADD3 R4, R4, 0x1, RZ ;
        /*0040*/              @P0  BRA `(.L_x_1) ;
        /*0050*/                   F2FP.F16.F32.PACK_AB R6, R25, R24 ;
        /*0060*/                   STG.E [R8.64], R6 ;
        /*0070*/                   IADD3 R2, R2, 0x84, RZ ;
        /*0080*/              @P1  BRA `(.L_x_0) ;
        /*0090*/                   EXIT ;
.L_x_2:
        /*00a0*/                   BRA `(.L_x_2) ;
"""


def test_only_innermost_loops_are_loops():
    """The loop over tiles runs its epilogue once per tile: its code counts as outside loops, the K loop's inside."""
    from irkit.check.binary_metrics import sass_instruction_counts, sass_loop_lines

    lines = PERSISTENT.splitlines()
    inside = sass_loop_lines(lines)
    k_loop = set(range(lines.index(".L_x_1:"), lines.index(".L_x_1:") + 4))
    assert inside == k_loop | {len(lines) - 2, len(lines) - 1}  # and the branch-to-self after EXIT
    counts = sass_instruction_counts(PERSISTENT)
    assert counts["stg_out"] == 1 and "stg_loop" not in counts
    assert counts["mma_loop"] == 1 and counts["other_loop"] == 3  # IADD3, the K loop's BRA, the trailing BRA
    assert counts["other_out"] == 6


def test_a_loop_with_two_branches_back_is_one_loop():
    from irkit.check.binary_metrics import sass_loop_lines

    lines = [".L_x_1:", "  IADD3 R1, R1, 0x1, RZ ;", "  @P0 BRA `(.L_x_1) ;", "  IADD3 R2, R2, 0x1, RZ ;",
             "  @P1 BRA `(.L_x_1) ;", "  EXIT ;"]
    assert sass_loop_lines(lines) == {0, 1, 2, 3, 4}
