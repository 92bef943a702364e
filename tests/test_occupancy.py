"""Occupancy from the compiler's registers and shared memory (irkit/analysis/occupancy.py), against NVIDIA's
occupancy rules, with the H100 kernels propagate-mma{profit=compiled} was measured on."""

import pytest

from irkit.analysis.occupancy import Occupancy, ctas_per_sm, occupancy_pays, sm_limits

H100 = sm_limits("cuda:90")


@pytest.mark.parametrize(
    "registers, warps, shared, ctas, by",
    [
        (176, 4, 49152, 2, "registers"),  # plain GEMM 128x128x32 w4 s3 as compiled (ptxas: 176)
        (168, 4, 49152, 3, "registers"),  # the same with its store conversion removed
        (170, 4, 49152, 2, "registers"),  # given in blocks of 8: 170 takes 176
        (110, 4, 36864, 4, "registers"),  # 64x128x32 w4 s3
        (96, 4, 36864, 5, "registers"),
        (208, 4, 131072, 1, "shared memory"),  # 128x128x64 w4 s4: 128 KiB + 1 KiB reserved, twice is too much
        (255, 8, 98304, 1, "registers"),
        (24, 4, 0, 16, "warps"),  # 64 warps per SM
        (16, 1, 0, 32, "CTAs"),
    ],
)
def test_ctas_per_sm_on_an_h100(registers, warps, shared, ctas, by):
    occ = ctas_per_sm(H100, registers, warps, shared)
    assert (occ.ctas, occ.limited_by) == (ctas, by)
    assert occ.warps == ctas * warps


def test_a_warp_scheduler_holds_whole_warps():
    # 4 x 16384 registers; 128 registers per thread = 4096 per warp: 4 warps per scheduler, 16 per SM
    assert ctas_per_sm(H100, 128, 4, 0).ctas == 4
    # 129 -> 136 registers: 4352 per warp, 3 per scheduler (13,056 of 16,384), 12 warps: 3 CTAs
    assert ctas_per_sm(H100, 129, 4, 0).ctas == 3


def test_targets_without_figures():
    assert sm_limits("hip:gfx942") is None
    assert sm_limits("xpu") is None
    assert sm_limits("cuda:75") is None
    assert sm_limits(None) is None
    assert sm_limits("cuda:x") is None
    assert sm_limits("cuda:80").shared_bytes == 167936


def test_more_ctas_pay_only_where_few_warps_were_resident():
    two, three = Occupancy(2, 8, "registers"), Occupancy(3, 12, "registers")
    four, five = Occupancy(4, 16, "registers"), Occupancy(5, 20, "registers")
    assert occupancy_pays(two, three, 49152)  # 128x128x32 w4 s3: measured 4.6% faster
    assert not occupancy_pays(four, five, 36864)  # 64x128x32 w4 s3: measured 1.4% slower
    assert not occupancy_pays(two, two, 49152)
    assert not occupancy_pays(three, two, 49152)
    assert occupancy_pays(Occupancy(1, 8, "registers"), Occupancy(2, 16, "registers"), 98304)


def test_more_ctas_pay_only_where_little_shared_memory_was_held():
    """The same 2 -> 3 CTAs of 128x128x32 w4 tiles: at 3 stages (48 KB a CTA) the third CTA gained 8-15% in three
    programs; at 4 stages (64 KB) it gained none of them anything, and two rewrites it took ran 8.6% and 16.6%
    slower (rounds 28 and 30)."""
    two, three = Occupancy(2, 8, "registers"), Occupancy(3, 12, "registers")
    assert occupancy_pays(two, three, 49152)
    assert not occupancy_pays(two, three, 65536)
    assert occupancy_pays(two, three, 8192)  # 64x64x32 w4 s4 at a masked size: 0.695-0.832
    # one CTA to two: 128x128x32 w8 s4 (64 KB) and 128x128x64 w8 s3 (96 KB) ran 0.78-0.84
    assert occupancy_pays(Occupancy(1, 8, "registers"), Occupancy(2, 16, "registers"), 65536)


def test_far_fewer_spills_pay():
    from irkit.analysis.occupancy import spills_pay

    assert spills_pay(2434, 1302)  # masked 256x128x64 w8 s3 add-matrix: 7% faster without the conversions
    assert spills_pay(1460, 720)  # masked 128x128x64 w4 s4: 13% faster
    assert not spills_pay(580, 260)  # masked 128x256x64 w8 s3: 6% slower
    assert not spills_pay(2756, 2616)  # 256x256x64 w8 s3 at 4096^3: noise
    assert not spills_pay(0, 0)


def test_removal_pays_in_one_way_and_is_worse_in_none():
    from irkit.analysis.occupancy import CompiledKernel, removal_pays

    take, figures = removal_pays(CompiledKernel(176, 0, 49152), CompiledKernel(168, 0, 49152), H100, 4)
    assert take
    assert figures == ("compiled with it 176 registers/thread, 2 CTA(s)/SM (8 warps, by registers); without it 168 "
                       "registers/thread, 3 CTA(s)/SM (12 warps, by registers); spills 0 -> 0 B; occupancy and spills "
                       "decide: more CTAs on an SM that held 8 or fewer warps and 96 KB or less of shared memory")
    spills_more = removal_pays(CompiledKernel(176, 0, 49152), CompiledKernel(168, 8, 49152), H100, 4)
    assert spills_more == (False, spills_more[1])
    assert spills_more[1].endswith("more CTAs on an SM that held 8 or fewer warps and 96 KB or less of shared memory, "
                                   "but with more spills")
    assert removal_pays(CompiledKernel(255, 2434, 131072), CompiledKernel(255, 1302, 49152), H100, 8)[0]
    assert not removal_pays(CompiledKernel(255, 580, 131072), CompiledKernel(255, 260, 49152), H100, 8)[0]
    # far fewer spills, but a CTA less per SM: not taken
    fewer_ctas = removal_pays(CompiledKernel(120, 2000, 0), CompiledKernel(136, 0, 0), H100, 4)
    assert not fewer_ctas[0]
    assert fewer_ctas[1].endswith("decide: spills fall by 512 B or more, but with fewer CTAs")


def test_more_ctas_take_only_where_the_launch_runs_in_fewer_waves():
    """Round 43's 64x128x32 w4 s4 (figures of a CPU compile, Triton 3.6): 173 -> 138 registers, 2 -> 3 CTAs per SM.
    On the H200's 132 SMs, 512 CTAs take 2 waves either way (it ran 11.0% slower), 594 take 3 -> 2 (7.4% faster)."""
    from irkit.analysis.occupancy import CompiledKernel, LaunchGrid, removal_pays

    kept = CompiledKernel(173, 0, 49152, 0, 0, 77, 918, spill_ops_loop=0, spill_ops_outside=0)
    removed = CompiledKernel(138, 0, 49152, 0, 0, 77, 638, spill_ops_loop=0, spill_ops_outside=0)
    assert LaunchGrid(512, 132).waves(2) == LaunchGrid(512, 132).waves(3) == 2
    assert (LaunchGrid(594, 132).waves(2), LaunchGrid(594, 132).waves(3)) == (3, 2)
    take, figures = removal_pays(kept, removed, H100, 4, 16, grid=LaunchGrid(512, 132))
    assert not take and figures.endswith(
        "more CTAs on an SM that held 8 or fewer warps and 96 KB or less of shared memory, but the launch's 512 CTAs "
        "run in 2 waves on 132 SMs either way, and spills fall by less than 512 B")
    assert removal_pays(kept, removed, H100, 4, 24, grid=LaunchGrid(594, 132))[0]
    assert removal_pays(kept, removed, H100, 4, 16)[0]  # the launch not known: as before
    # one wave either way: a CTA more shares the SMs for nothing
    assert not removal_pays(kept, removed, H100, 4, 16, grid=LaunchGrid(64, 132))[0]
    # far fewer spills still pay where the waves stay
    spilled = CompiledKernel(173, 2000, 49152), CompiledKernel(138, 0, 49152)
    assert removal_pays(*spilled, H100, 4, grid=LaunchGrid(512, 132))[0]


def test_spills_gone_and_registers_freed_is_not_enough():
    """Measured on the H100 (docs/propagate-mma-results/h100_addmm_always_r6.json): add-matrix 128x256x32 w8 s4
    at 4096^3 with every conversion removed, 255 -> 225 registers and 64 -> 0 B of spill stores, 1.9% slower;
    256x128x32 w8 s4, 255 -> 223 and 24 -> 0 B, 22% faster.  The compiler's figures cannot tell them apart, so the
    default takes neither by spills (the second is taken by the model)."""
    from irkit.analysis.occupancy import CompiledKernel, removal_pays

    slower, _ = removal_pays(CompiledKernel(255, 64, 98304), CompiledKernel(225, 0, 98304), H100, 8)
    faster, _ = removal_pays(CompiledKernel(255, 24, 98304), CompiledKernel(223, 0, 98304), H100, 8)
    assert not slower and not faster


def test_sass_cost_decides_where_it_moves_far():
    """Kernels timed on the H100 and the H200 (docs/propagate-mma-results.md), with their figures from a CPU compile
    (docs/propagate-mma-results/r14_features_cpu.json): registers, spill bytes, shared memory, then the SASS
    figures: uncovered spill reloads in loops, other instructions in loops, instructions outside loops."""
    from irkit.analysis.occupancy import CompiledKernel, removal_pays, sass_cost_change

    # gelu fp32 256x128x64 w8 s3 at 2900x3310x1400: spills fall 3584 -> 1494 B, which alone would take it, but
    # the loop's reloads move next to their uses (+642): 3.1% slower on the H100, 3.6% on the H200
    gelu = CompiledKernel(255, 3584, 131072, 0, 1621, 873, 6652), CompiledKernel(255, 1494, 49152, 0, 2263, 857, 4208)
    assert sass_cost_change(*gelu) == 642 - 16 + 0.1 * (4208 - 6652)
    take, figures = removal_pays(*gelu, H100, 8)
    assert not take
    assert figures.endswith("; spills 3584 -> 1494 B; SASS cost +382 (loop instructions 873 -> 857, uncovered spill "
                            "reloads in loops 1621 -> 2263, instructions outside loops 6652 -> 4208); the SASS cost "
                            "rises by 300 or more")
    # gated fp16 256x128x64 w8 s3 at 2200x2900x1800: reloads exposed as much (+837), but 247 fewer loop
    # instructions: the cost rises less than the veto, the spills decide; 13% faster
    gated = CompiledKernel(255, 5252, 65536, 0, 1738, 1115, 7567), CompiledKernel(255, 1644, 49152, 0, 2575, 868, 3746)
    assert 0 < sass_cost_change(*gated) < 300 and removal_pays(*gated, H100, 8)[0]
    assert removal_pays(*gated, H100, 8)[1].endswith("; the SASS cost moves less than -150/+300, so occupancy and "
                                                     "spills decide: spills fall by 512 B or more")
    # swiglu Y=row 128x64x64 w4 s3 at 3000x2730x1000: spills fall only 202 B, the SASS cost by 2,028: 31% faster
    swiglu = CompiledKernel(255, 1968, 24576, 0, 4794, 898, 2538), CompiledKernel(255, 1766, 24576, 0, 3388, 866, 1948)
    assert removal_pays(*swiglu, H100, 4) == (True, removal_pays(*swiglu, H100, 4)[1])
    assert removal_pays(*swiglu, H100, 4)[1].endswith("; the SASS cost falls by 150 or more")
    # swiglu Y=row 128x128x32 w8 s3: 90 fewer loop instructions (-136 in all), yet 8.4% slower: under the take
    # threshold, and its spills (60 -> 48 B) do not pay
    near = CompiledKernel(255, 60, 32768, 0, 30, 428, 1925), CompiledKernel(255, 48, 16384, 0, 26, 338, 1506)
    assert -150 < sass_cost_change(*near) < 0 and not removal_pays(*near, H100, 8)[0]
    assert removal_pays(*near, H100, 8)[1].endswith("decide: neither more CTAs on an SM that held 8 or fewer warps "
                                                    "and 96 KB or less of shared memory nor spills 512 B fewer")
    # a cost that falls far is still not taken where it spills more
    spills_more = CompiledKernel(255, 0, 16384, 0, 0, 545, 1649), CompiledKernel(255, 12, 16384, 0, 0, 416, 1186)
    assert not removal_pays(*spills_more, H100, 4)[0]
    assert removal_pays(*spills_more, H100, 4)[1].endswith("the SASS cost falls by 150 or more, but with more spills")
    # both worse at once: a CTA fewer and more spills
    both = CompiledKernel(120, 0, 0, 0, 0, 545, 1649), CompiledKernel(136, 12, 0, 0, 0, 416, 1186)
    assert removal_pays(*both, H100, 4)[1].endswith("falls by 150 or more, but with fewer CTAs and more spills")


def test_an_epilogue_bound_launch_takes_nothing_on_the_compilers_figures_but_its_spills():
    """Round 34 (docs/propagate-mma-results/notes.md, H200): gemm_lora_up.py, K = 16, its main loop run once.  The
    figures of its four slower takes (from their remarks): the SASS cost fell 177-196, all of it outside loops, and
    two of them spilled 576 and 520 B less.  They ran 1.50, 1.32, 1.14 and 1.07.  In such a launch only the
    epilogue's own spills may take a rewrite (round 46): the third, the only one whose spills fall by 512 B or
    more, is kept by its stores (`stores_outweigh_spills`)."""
    from irkit.analysis.occupancy import CompiledKernel, epilogue_bound, removal_pays

    takes = [
        (CompiledKernel(255, 424, 8192, 0, 0, 80, 3978), CompiledKernel(255, 80, 8192, 0, 0, 84, 2110), 4),
        (CompiledKernel(255, 432, 8192, 0, 0, 72, 3964), CompiledKernel(255, 124, 8192, 0, 0, 72, 2196), 8),
        (CompiledKernel(255, 656, 8192, 0, 0, 93, 4101), CompiledKernel(255, 80, 8192, 0, 0, 97, 2129), 8),
        (CompiledKernel(255, 568, 8192, 0, 0, 82, 3744), CompiledKernel(255, 84, 8192, 0, 0, 84, 1870), 4),
    ]
    for kept, removed, warps in takes:
        assert removal_pays(kept, removed, H100, warps)[0]  # the launch not known: the SASS cost takes it
        take, figures = removal_pays(kept, removed, H100, warps, loop_trips=1)
        epilogue = (f"; the main loop runs once at this launch: {kept.loop_other} loop instructions against "
                    f"{kept.outside_loops:,} outside loops, so the kernel is its epilogue, which these figures do not "
                    "weigh")
        if kept.spill_bytes - removed.spill_bytes < 512:
            assert not take and figures.endswith(f"{epilogue}, and they take nothing but the epilogue's spills, "
                                                 "which fall by less than 512 B")
        else:  # the third: with no stores added, its spills take it
            assert take and figures.endswith(f"{epilogue}, but its spills, the epilogue's own traffic, fall by "
                                             "512 B or more")
        # as many loop instructions as outside, or more: the loop's figures decide again
        trips = -(-kept.outside_loops // kept.loop_other)
        assert epilogue_bound(kept, trips - 1) and epilogue_bound(kept, trips) is (trips * kept.loop_other == kept.outside_loops)
        assert removal_pays(kept, removed, H100, warps, loop_trips=trips + 1)[0]
    # the third with its real stores (6,144 sector requests per CTA, the IR model's figure; its executed spill
    # operations as the compiled bf16 256x128x16 w8 s2 kernel has them): they outweigh the spills it saves
    lora_kept = CompiledKernel(255, 656, 65536, 0, 0, 93, 4101, 708.0, 0, 232)
    lora_removed = CompiledKernel(255, 80, 20480, 0, 0, 97, 2129, 693.0, 0, 32)
    take, figures = removal_pays(lora_kept, lora_removed, H100, 8, loop_trips=1, store_sectors_added=6144)
    assert not take and figures.endswith("its spills fall by 512 B or more, but with a fall that rests on the "
                                         "instructions outside loops (loop terms +4), and its stores add 768 sector "
                                         "requests per warp against 200 executed spill loads and stores saved (fewer "
                                         "than 0.35 per sector)")
    # round 35 (gemm_latent_up.py, K = 512): fp16 128x256x32 w8 s3 at 16 trips, 118 x 16 = 1,888 loop instructions
    # against 3,668 outside: the SASS cost fell 161, all outside loops, spills 234 B, and it ran 15.8% slower
    latent = CompiledKernel(255, 288, 40960, 0, 0, 118, 3668), CompiledKernel(255, 54, 40960, 0, 0, 117, 2069)
    assert removal_pays(*latent, H100, 8)[0] and not removal_pays(*latent, H100, 8, loop_trips=16)[0]
    # without SASS (AMD, or no disassembler) nothing tells: the other figures decide as before
    assert not epilogue_bound(CompiledKernel(255, 656, 8192), 1)
    assert not epilogue_bound(takes[0][0], None)


def test_an_epilogue_bound_launch_takes_the_epilogues_spills():
    """Round 44's tanh residual (examples/gpu/gemm_tanh_residual.py, fp32 out, 3000 x 1000 x 1024, H200): 128x128x32
    w4 s4 runs its main loop 32 times, 32 x 122 = 3,904 loop instructions against 6,012 outside, and spills 1,784 B
    per thread in its epilogue.  Left alone by "take nothing", it ran 32.6% faster with its conversions removed
    (spills 92 B).  Its figures, as the compiler made them; the stores its plan adds: 2,048 sector requests per
    CTA."""
    from irkit.analysis.occupancy import CompiledKernel, LaunchGrid, removal_pays

    kept = CompiledKernel(255, 1784, 65536, 0, 0, 122, 6012, 798.0, 0, 634)
    removed = CompiledKernel(255, 92, 40960, 0, 0, 122, 3604, 798.0, 0, 46)
    take, figures = removal_pays(kept, removed, H100, 4, loop_trips=32, store_sectors_added=2048,
                                 grid=LaunchGrid(192, 132))
    assert take and figures.endswith("; the main loop runs 32 times at this launch: 3,904 loop instructions against "
                                     "6,012 outside loops, so the kernel is its epilogue, which these figures do not "
                                     "weigh, but its spills, the epilogue's own traffic, fall by 512 B or more")
    # fewer CTAs, a SASS cost risen by the veto, or spills that fall by less: nothing
    fewer_ctas = CompiledKernel(255, 92, 160 * 1024, 0, 0, 122, 3604, 798.0, 0, 46)
    assert removal_pays(kept, fewer_ctas, H100, 4, loop_trips=32)[1].endswith(
        "its spills fall by 512 B or more, but with fewer CTAs")
    vetoed = CompiledKernel(255, 92, 40960, 0, 0, 122 + 600, 3604, 798.0, 0, 46)  # SASS cost +359
    assert removal_pays(kept, vetoed, H100, 4, loop_trips=32)[1].endswith(
        "its spills fall by 512 B or more, but with a SASS cost risen by 300 or more")
    fewer = CompiledKernel(255, 1784 - 511, 40960, 0, 0, 122, 3604, 798.0, 0, 46)
    assert not removal_pays(kept, fewer, H100, 4, loop_trips=32)[0]


def test_sass_cost_needs_both_kernels_sass():
    from irkit.analysis.occupancy import CompiledKernel, removal_pays, sass_cost_change, sass_cost_decides

    assert sass_cost_change(CompiledKernel(176, 0, 49152), CompiledKernel(168, 0, 49152, 0, 0, 10, 10)) is None
    assert sass_cost_decides(None) is None
    assert sass_cost_decides(-150) is True and sass_cost_decides(-149) is None
    assert sass_cost_decides(300) is False and sass_cost_decides(299) is None
    # without SASS (AMD, or no disassembler) the figures name no SASS cost, and occupancy and spills decide
    figures = removal_pays(CompiledKernel(176, 0, 49152), CompiledKernel(168, 0, 49152), H100, 4)[1]
    assert "SASS" not in figures and "; spills 0 -> 0 B; occupancy and spills decide: " in figures


def test_the_models_own_rewrite_is_undone_where_it_compiles_worse():
    """Round 17 (docs/propagate-mma-results.md): the IR model alone removed the conversion of gemm_at_clamp's fp32
    masked 128x128x64 w8 s3 kernel; ptxas spilled 48 -> 136 B and it ran 10.9% slower.  gemm_silu_scaled's kernel
    of the same shape spilled 136 -> 0 B and ran 23% faster."""
    from irkit.analysis.occupancy import CompiledKernel, removal_is_worse

    at_clamp = CompiledKernel(255, 48, 65536, 0, 0, 574, 1276), CompiledKernel(255, 136, 32768, 0, 24, 544, 874)
    worse, figures = removal_is_worse(*at_clamp, H100, 8)
    assert worse and "spills 48 -> 136 B" in figures and figures.endswith("; more spills")
    silu = CompiledKernel(255, 136, 65536, 0, 15, 628, 2962), CompiledKernel(255, 0, 32768, 0, 0, 451, 2039)
    assert removal_is_worse(*silu, H100, 8)[0] is False
    assert removal_is_worse(*silu, H100, 8)[1].endswith("; no fewer CTAs per SM, no more spills")
    # a CTA fewer, or a SASS cost risen past the veto, is worse too
    fewer_ctas, figures = removal_is_worse(CompiledKernel(120, 0, 0), CompiledKernel(136, 0, 0), H100, 4)
    assert fewer_ctas and figures.endswith("; fewer CTAs per SM")
    gelu = CompiledKernel(255, 3584, 131072, 0, 1621, 873, 6652), CompiledKernel(255, 1494, 49152, 0, 2263, 857, 4208)
    dearer, figures = removal_is_worse(*gelu, H100, 8)
    assert dearer and figures.endswith("; the SASS cost rises by 300 or more")


def test_the_loop_schedule_is_reported_and_decides_nothing():
    """Rounds 21-22 (docs/propagate-mma-results/notes.md): recorded kernels with their figures from a CPU compile
    (r14_features_cpu.json; the loop schedule, binary_metrics.sass_loop_cycles, from r21_schedule_cpu.json):
    registers, spill bytes, shared memory, SGPRs, uncovered reloads, loop instructions, instructions outside loops,
    cycles of one loop iteration.  A rule taking a shorter schedule in 4-warp kernels at 250+ registers was chosen
    on 418 timings and refuted by round 22's held-out gemm_sigmoid_gate.py: its aligned 128x128x64 w4 s3 kernel
    (figures from its remark) ran 6.1% slower on the H200 without its conversions.  The rule is gone; the figure
    stays in the remark."""
    from irkit.analysis.occupancy import CompiledKernel, removal_pays, sass_cost_change, sass_cost_decides

    # gemm_silu_scaled's masked 64x128x64 w4 s4, fp16 out: 12% faster without its conversions, and kept
    silu = CompiledKernel(255, 60, 24576, 0, 0, 554, 2760, 1861.0), CompiledKernel(255, 0, 24576, 0, 0, 529, 2097, 1775.0)
    take, figures = removal_pays(*silu, H100, 4)
    assert sass_cost_decides(sass_cost_change(*silu)) is None and not take
    assert "; loop schedule 1,861 -> 1,775 cycles/iteration; the SASS cost moves less than -150/+300, so occupancy " \
           "and spills decide: neither" in figures
    # the refuting kernel: a shorter schedule, 255 -> 232 registers, spills 32 -> 0 B; 6.1% slower
    sigmoid = CompiledKernel(255, 32, 0, 0, 0, 167, 3092, 373.0), CompiledKernel(232, 0, 0, 0, 0, 145, 2930, 348.0)
    assert sass_cost_decides(sass_cost_change(*sigmoid)) is None
    assert not removal_pays(*sigmoid, H100, 4)[0]


def test_an_epilogue_take_pays_for_its_stores_with_the_spill_traffic_it_saves():
    """Round 36's longer-K probe (gemm_latent_up.py, K = 1024; figures from the run's remarks and the SASS of the
    same compiles, docs/propagate-mma-results/notes.md round 39): the SASS cost fell by 160-215, all of it outside
    loops, in both; the stores in the accumulator's layout add 6,144 sector requests per CTA in both; fp16
    128x256x32 w8 s3 saved 52 executed spill operations per warp and ran 9.5% slower, 256x128x64 w8 s3 saved 372
    (six reloads in its loop, 16 trips) and ran 12.5% faster."""
    from irkit.analysis.occupancy import CompiledKernel, removal_pays, spill_ops_executed, stores_outweigh_spills

    loser = (CompiledKernel(255, 288, 40960, 0, 0, 118, 3668, spill_ops_loop=0, spill_ops_outside=80),
             CompiledKernel(255, 54, 40960, 0, 0, 117, 2069, spill_ops_loop=0, spill_ops_outside=28))
    winner = (CompiledKernel(255, 784, 147456, 0, 27, 290, 4158, spill_ops_loop=6, spill_ops_outside=308),
              CompiledKernel(255, 64, 147456, 0, 0, 294, 2256, spill_ops_loop=0, spill_ops_outside=32))
    assert spill_ops_executed(winner[0], 16) == 6 * 16 + 308 and spill_ops_executed(winner[0], None) == 6 * 10 + 308
    assert removal_pays(*loser, H100, 8, loop_trips=32)[0]  # without the stores' figure: taken, as round 36 did
    take, figures = removal_pays(*loser, H100, 8, loop_trips=32, store_sectors_added=6144)
    assert not take and figures.endswith(
        "; the SASS cost falls by 150 or more, but that fall rests on the instructions outside loops (loop terms -1), "
        "and its stores add 768 sector requests per warp against 52 executed spill loads and stores saved (fewer "
        "than 0.35 per sector), so they take nothing")
    assert removal_pays(*winner, H100, 8, loop_trips=16, store_sectors_added=6144)[0]
    # the loser's stores at the line: 52 / 0.35 = 148.6 sector requests per warp
    assert stores_outweigh_spills(*loser, 148 * 8, 8, 32) is None
    assert stores_outweigh_spills(*loser, 149 * 8, 8, 32) is not None
    # a fall the loop carries is not the epilogue's: round 29's gemm_persistent_residual 128x64x64 w4 s4 (loop
    # instructions 890 -> 758, uncovered reloads 1,949 -> 1,282), 35% faster with its spills all but unchanged
    loop_borne = (CompiledKernel(255, 1000, 65536, 0, 1949, 890, 2616, spill_ops_loop=372, spill_ops_outside=222),
                  CompiledKernel(255, 1000, 65536, 0, 1282, 758, 1897, spill_ops_loop=375, spill_ops_outside=158))
    assert stores_outweigh_spills(*loop_borne, 1536, 4, 23) is None
    # stores that save sectors, or no SASS spill figures: nothing to weigh
    assert stores_outweigh_spills(*loser, 0, 8, 32) is None and stores_outweigh_spills(*loser, -512, 8, 32) is None
    bare = CompiledKernel(255, 288, 40960, 0, 0, 118, 3668), CompiledKernel(255, 54, 40960, 0, 0, 117, 2069)
    assert stores_outweigh_spills(*bare, 6144, 8, 32) is None
