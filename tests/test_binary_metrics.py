"""binary_metrics' SASS reader, on hand-written nvdisasm text."""


# nvdisasm -c text, cut to what the parser reads: a loop from .L_x_1 to the branch back to it
SASS_LOOP = """
        /*0000*/                   LDL R9, [R1+0x10] ;
        /*0010*/                   IADD3 R2, R9, 0x1, RZ ;
.L_x_1:
        /*0020*/                   LDL R5, [R1+0x4] ;
        /*0030*/                   IMAD R6, R7, R7, RZ ;
        /*0040*/                   FADD R8, R5, R6 ;
        /*0050*/                   LDL.64 R10, [R1+0x8] ;
        /*0060*/                   MOV R12, UR11 ;
        /*0070*/                   STL [R1+0x20], R11 ;
        /*0080*/                   LDL R13, [R1+0x30] ;
        /*0090*/                   MOV R13, RZ ;
        /*00a0*/               @P0 BRA `(.L_x_1) ;
        /*00b0*/                   EXIT ;
"""


def test_loop_reload_exposure_counts_reloads_used_soon():
    from irkit.check.binary_metrics import sass_loop_reload_exposure

    # R5 read 2 instructions later (30 uncovered of 32), R11 of the pair stored 2 later (30; UR11 is another
    # register), R13 overwritten before any read (0), the LDL before the loop (0)
    assert sass_loop_reload_exposure(SASS_LOOP) == 60
    assert sass_loop_reload_exposure(SASS_LOOP, window=2) == 0
    assert sass_loop_reload_exposure(SASS_LOOP.replace("@P0 BRA `(.L_x_1)", "NOP")) == 0  # no loop
