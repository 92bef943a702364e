"""irkit.check.binary_metrics: parsers of what the real compiler produced, on snippets of real output
(Triton 3.1 PTX and ptxas 12.4 for sm_90a, Triton 3.6 AMDGCN for gfx942)."""

from irkit.check import binary_metrics

PTX = """
.version 8.4
.target sm_90a
.address_size 64
	@%p48 ld.global.v2.b32 { %r189, %r190 }, [ %rd119 + 0 ];
	@%p49 ld.global.L1::evict_last.v4.b32 { %r1, %r2, %r3, %r4 }, [ %rd120 + 0 ];
	ld.global.b32 %r5, [ %rd1 + 0 ];
	@%p48 st.global.v2.b32 [ %rd247 + 0 ], { %r445, %r446 };
	@%p6 cp.async.cg.shared.global [ %r31 + 0 ], [ %rd37 + 0 ], 0x10, %r32;
	cp.async.commit_group;
	bar.sync 	0;
	st.shared.v2.f32 [%r7], {%f1, %f2};
	ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r8];
	ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r9];
	// ld.global.v4.b32 in a comment is not an instruction
"""

PTXAS_LOG = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'matmul_addmm_bp_kernel' for 'sm_90a'
ptxas info    : Function properties for matmul_addmm_bp_kernel
    1384 bytes stack frame, 2880 bytes spill stores, 2372 bytes spill loads
ptxas info    : Used 255 registers, 1384 bytes cumulative stack size
"""

AMDGCN = """addmm_kernel:
	global_load_dword v[2:3], v[4:5], off
	global_load_dwordx4 v[6:9], v[10:11], off
	buffer_load_dwordx2 v[12:13], v14, s[0:3], 0 offen
	ds_write_b128 v1, v[2:5]
	ds_read_b64 v[6:7], v8
	s_barrier
	global_store_dword v[0:1], v2, off
amdhsa.kernels:
  - .group_segment_fixed_size: 0
    .name:           addmm_kernel
    .private_segment_fixed_size: 16
    .sgpr_count:     66
    .sgpr_spill_count: 0
    .vgpr_count:     198
    .vgpr_spill_count: 3
"""


def test_ptx_global_accesses_by_width_ignore_hints_and_comments():
    got = binary_metrics.ptx_global_accesses(PTX)
    assert got == {"loads": {"v4.b32": 1, "v2.b32": 1, "b32": 1}, "stores": {"v2.b32": 1}}


def test_ptx_shared_instructions_and_barriers():
    got = binary_metrics.ptx_shared_and_barriers(PTX)
    assert got == {"bar": 1, "cp.async": 1, "ld.shared": 1, "ldmatrix": 1, "st.shared": 1}


def test_ptx_target():
    assert binary_metrics.ptx_target(PTX) == "sm_90a"


def test_ptxas_resources():
    assert binary_metrics.ptxas_resources(PTXAS_LOG) == {"registers": 255, "stack_frame_bytes": 1384,
                                           "spill_store_bytes": 2880, "spill_load_bytes": 2372}
    assert binary_metrics.ptxas_resources(PTXAS_LOG, "other_kernel") is None
    assert binary_metrics.ptxas_resources("ptxas info    : 0 bytes gmem\n") is None


def test_amdgcn_memory_ops_and_resources():
    ops = binary_metrics.amdgcn_memory_ops(AMDGCN)
    assert ops["loads"] == {"buffer_load_dwordx2": 1, "global_load_dword": 1, "global_load_dwordx4": 1}
    assert ops["stores"] == {"global_store_dword": 1}
    assert ops["shared"] == {"ds_read_b64": 1, "ds_write_b128": 1}
    assert ops["barriers"] == {"s_barrier": 1}
    res = binary_metrics.amdgcn_resources(AMDGCN)
    assert res["vgpr_count"] == 198 and res["sgpr_count"] == 66 and res["vgpr_spill_count"] == 3
    assert res["private_segment_fixed_size"] == 16


def test_binary_summary_and_width_text():
    s = binary_metrics.binary_summary({"ptx": PTX, "ttgir": "%1 = ttg.convert_layout %0\n%2 = triton_gpu.convert_layout %1"},
                         PTXAS_LOG, "matmul_addmm_bp_kernel")
    assert s["convert_layout"] == 2 and s["registers"] == 255 and s["spill_store_bytes"] == 2880
    assert binary_metrics.width_summary(s["global_loads"]) == "v4.b32×1 v2.b32×1 b32×1"
    amd = binary_metrics.binary_summary({"amdgcn": AMDGCN})
    assert amd["registers"] == 198 and amd["vgpr_spill_count"] == 3 and amd["scratch_bytes"] == 16


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
    sass_loop_reload_exposure = binary_metrics.sass_loop_reload_exposure
    # R5 read 2 instructions later (30 uncovered of 32), R11 of the pair stored 2 later (30; UR11 is another
    # register), R13 overwritten before any read (0), the LDL before the loop (0)
    assert sass_loop_reload_exposure(SASS_LOOP) == 60
    assert sass_loop_reload_exposure(SASS_LOOP, window=2) == 0
    assert sass_loop_reload_exposure(SASS_LOOP.replace("@P0 BRA `(.L_x_1)", "NOP")) == 0  # no loop


def test_sass_instructions_counted_by_family_in_and_out_of_loops():
    counts = binary_metrics.sass_instruction_counts(SASS_LOOP)
    # in the loop: 3 LDL, 1 STL, and IMAD, FADD, MOV, MOV, BRA as its other work; before it an LDL and an IADD3,
    # after it the EXIT
    assert counts == {"ldl_out": 1, "other_out": 2, "ldl_loop": 3, "other_loop": 5, "stl_loop": 1}
    assert binary_metrics.sass_family("LDSM.16.M88.4") == "lds" and binary_metrics.sass_family("HGMMA.64x128x16") == "mma"
    # one iteration of the schedule: the FADD waits for the reload of R5 and the STL for that of R11 (100 cycles
    # each, `binary_metrics.LATENCY`), and five more instructions issue, one per cycle
    assert binary_metrics.sass_cost_figures(SASS_LOOP) == {"loop_other": 5, "outside_loops": 3, "reload_exposure": 60,
                                                           "loop_cycles": 205.0, "spill_ops_loop": 4,
                                                           "spill_ops_outside": 1}
    flat = binary_metrics.sass_instruction_counts(SASS_LOOP.replace("@P0 BRA `(.L_x_1)", "NOP"))
    assert "other_loop" not in flat and flat["ldl_out"] == 4  # no loop
