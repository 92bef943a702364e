"""Write docs/propagate-mma-results.md from irkit-check's JSON reports of propagate-mma on an H100 and an H200
(docs/propagate-mma-results/*.json): the pass's decision on each kernel next to what the GPU measured, with
the default options (`profit=auto`), `profit=model` or `profit=compiled`, and with `profit=always`, for each
kernel family.

    python3 tools/propagate_mma_results.py

A kernel's measured sign comes from the `profit=always` run: faster when the whole 95% interval of the
after/before time ratio is below 0.99, slower when it is above 1.01, otherwise within noise (either verdict
agrees).  The verdict comes from the run judged: `remove` when the pass changed the kernel
(every conversion, or `partial`), `keep` when it left it unchanged.  Where the two runs compiled the same
kernel (equal registers, spills and instruction counts), the default keeps all of `profit=always`'s gain.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "propagate-mma-results"
OUT = ROOT / "docs" / "propagate-mma-results.md"

# the GPU example programs by the names tools/propagate_mma_gpu_run.sh gives them (its PROGRAM table)
PROGRAMS = {"addmm": "examples/gpu/addmm.py", "attention": "examples/gpu/attention.py",
            "shapes": "bench/propagate_mma_shapes.py", "bias": "examples/gpu/gemm_bias.py",
            "scale": "examples/gpu/gemm_scale.py", "colmajor": "examples/gpu/gemm_colmajor.py",
            "swiglu": "examples/gpu/gemm_swiglu.py", "gelu": "examples/gpu/gemm_gelu_residual.py",
            "batched": "examples/gpu/gemm_batched_rowscale.py", "gated": "examples/gpu/gemm_gated_residual.py",
            "silu": "examples/gpu/gemm_silu_scaled.py", "linear": "examples/gpu/linear_relu2.py",
            "rowsum": "examples/gpu/gemm_rowsum.py", "atclamp": "examples/gpu/gemm_at_clamp.py",
            "btscale": "examples/gpu/gemm_bt_scale.py", "sizes": "bench/propagate_mma_sizes.py",
            "sigmoid": "examples/gpu/gemm_sigmoid_gate.py", "rowwise": "examples/gpu/gemm_rowwise_scaled.py",
            "dropout": "examples/gpu/gemm_dropout_residual.py",
            "persistent": "examples/gpu/gemm_persistent_residual.py", "tma": "examples/gpu/gemm_tma_epilogue.py",
            "tf32": "examples/gpu/gemm_tf32_residual.py", "softplus": "examples/gpu/gemm_softplus_scaled.py",
            "f16acc": "examples/gpu/gemm_f16acc_residual.py", "geluaux": "examples/gpu/gemm_gelu_aux.py",
            "fp8out": "examples/gpu/gemm_fp8_out.py", "skinny": "examples/gpu/gemm_skinny_residual.py",
            "router": "examples/gpu/gemm_router_softmax.py", "accumulate": "examples/gpu/gemm_accumulate.py",
            "lora": "examples/gpu/gemm_lora_up.py", "latent": "examples/gpu/gemm_latent_up.py",
            "patch": "examples/gpu/gemm_patch_embed.py", "latentk": "examples/gpu/gemm_latent_up.py --longer-k",
            "layerscale": "examples/gpu/gemm_layerscale_residual.py",
            "tokenscale": "examples/gpu/gemm_token_scaled_residual.py",
            "softcap": "examples/gpu/gemm_softcap_logits.py",
            "bottleneck": "examples/gpu/gemm_bottleneck_residual.py",
            "attnout": "examples/gpu/gemm_attn_out_residual.py",
            "tanhres": "examples/gpu/gemm_tanh_residual.py", "mishres": "examples/gpu/gemm_mish_residual.py",
            "gelucol": "examples/gpu/gemm_gelu_colscale.py", "hswish": "examples/gpu/gemm_hardswish_residual.py"}
# (program, GPU, JSON of the run judged, JSON of the profit=always run, the commit and terminal output of the
# run, the options judged: "default" for no options (profit=auto), "model" for profit=model, the default until
# 5ff63cf, "compiled" for profit=compiled)
FAMILIES = [
    *[(path, "H200, round 19 (every program with the default of 1d11f18; its decisions registered from the CPU "
       "figures before the run, 681af6b)", f"r19_{key}_default.json", f"r19_{key}_always.json", "681af6b",
       "r19_all.txt", "default") for key, path in PROGRAMS.items()  # round 19: every program, four H200s at once
      if (DATA / f"r19_{key}_always.json").exists()],
    *[(f"examples/gpu/{path}", f"H200, round 45 ({what} again with the default of 0e515a9, the pass as session 19 "
       f"leaves it, with --each-size; profit=always from round {always[1:3]})", f"r45_{key}_default.json", always, "0e515a9", "r45_all.txt",
       "default")
      for key, path, what, always in (
          ("fp8out", "gemm_fp8_out.py", "round 30's program", "r30_fp8out_always.json"),
          ("f16acc", "gemm_f16acc_residual.py", "round 28's program", "r28_f16acc_always.json"),
          ("tf32", "gemm_tf32_residual.py", "round 26's program", "r26_tf32_always.json"))],
    *[(f"examples/gpu/{path}", f"H200, round 49 ({what} again with the default of 8181d56, session 20's, with "
       f"--each-size; its decisions registered from a CPU compile before the run, 788307e; profit=always from round "
       f"{always[1:3]})", f"r49_{key}_default.json", always, "788307e", txt, "default")
      for key, path, what, always, txt in (
          ("latent", "gemm_latent_up.py", "round 35's program", "r35_latent_always.json", "r49_all.txt"),
          ("tokenscale", "gemm_token_scaled_residual.py", "round 40's program", "r40_tokenscale_always.json",
           "r49_all.txt"),
          ("bottleneck", "gemm_bottleneck_residual.py", "round 42's program", "r42_bottleneck_always.json",
           "r49_all.txt"),
          ("rowwise", "gemm_rowwise_scaled.py", "round 23's program", "r23_rowwise_always.json", "r49b_all.txt"),
          ("dropout", "gemm_dropout_residual.py", "round 23's program", "r23_dropout_always.json", "r49b_all.txt"),
          ("linear", "linear_relu2.py", "round 15's program", "r19_linear_always.json", "r49c_all.txt"),
          ("atclamp", "gemm_at_clamp.py", "round 17's program", "r19_atclamp_always.json", "r49c_all.txt"),
          ("geluaux", "gemm_gelu_aux.py", "round 29's program", "r29_geluaux_always.json", "r49c_all.txt"))],
    ("examples/gpu/gemm_hardswish_residual.py", "H200, round 50 (held out: written in session 22, the profit rule "
     "unchanged since 8181d56; a hard-swish residual projection, K = 256 to 3,072, with --each-size; its decisions "
     "registered from a CPU compile before the run, 1f1beee)", "r50_hswish_default.json", "r50_hswish_always.json",
     "1f1beee", "r50_all.txt", "default"),
    ("examples/gpu/gemm_gelu_colscale.py", "H200, round 48 (held out: written after round 47's run, nothing changed "
     "since round 46's registration, 0e1625e; an exact-GELU branch scaled per column, K = 384 and 640, with "
     "--each-size; its decisions registered from a CPU compile before the run, 6645ddf)", "r48_gelucol_default.json",
     "r48_gelucol_always.json", "6645ddf", "r48_all.txt", "default"),
    ("examples/gpu/gemm_mish_residual.py", "H200, round 46 (held out: written after round 45's run, nothing changed "
     "since but the epilogue's spills, ca52a70; a Mish-activated residual branch, K = 256 to 768, with --each-size; its "
     "decisions registered from a CPU compile before the run, 0e1625e)", "r46_mishres_default.json",
     "r46_mishres_always.json", "0e1625e", "r46_all.txt", "default"),
    *[(f"examples/gpu/{path}", f"H200, round 47 ({what} again with the default of 0e1625e, the epilogue's spills, with "
       f"--each-size; profit=always from round {always[1:3]})", f"r47_{key}_default.json", always, "0e1625e",
       "r47_all.txt", "default")
      for key, path, what, always in (
          ("lora", "gemm_lora_up.py", "round 34's program", "r34_lora_always.json"),
          ("layerscale", "gemm_layerscale_residual.py", "round 39's program", "r39_layerscale_always.json"),
          ("tanhres", "gemm_tanh_residual.py", "round 44's program", "r44_tanhres_always.json"))],
    ("examples/gpu/gemm_tanh_residual.py", "H200, round 44 (held out: written after round 43's run, nothing changed "
     "since but the waves, b3655a7; a tanh-activated residual branch, K = 1024, with --each-size; its decisions "
     "registered from a CPU compile before the run, beb8b9d)", "r44_tanhres_default.json", "r44_tanhres_always.json",
     "beb8b9d", "r44_all.txt", "default"),
    ("examples/gpu/gemm_attn_out_residual.py", "H200, round 44 (round 43's program again with the default of b3655a7, "
     "the waves, with --each-size; profit=always from round 43)", "r44_attnout_default.json",
     "r43_attnout_always.json", "beb8b9d", "r44_all.txt", "default"),
    ("examples/gpu/gemm_attn_out_residual.py", "H200, round 43 (held out: written after round 42's run, nothing "
     "changed since but the epilogue-bound check of the IR model's own rewrites, 7e18c35; an attention output "
     "projection into an fp32 residual stream, K = N = 384 to 1024, with --each-size; its decisions registered from a "
     "CPU compile before the run, 7708228)", "r43_attnout_default.json", "r43_attnout_always.json", "7708228",
     "r43_all.txt", "default"),
    ("examples/gpu/gemm_bottleneck_residual.py", "H200, round 43 (round 42's program again with the default of "
     "7e18c35, with --each-size; profit=always from round 42)", "r43_bottleneck_default.json",
     "r42_bottleneck_always.json", "7708228", "r43_all.txt", "default"),
    ("examples/gpu/gemm_bottleneck_residual.py", "H200, round 42 (held out: written after round 41's run, nothing "
     "changed since; a ResNet bottleneck's last 1x1 convolution, K = 256 to 512, with --each-size; its decisions "
     "registered from a CPU compile before the run, 1f68d59)", "r42_bottleneck_default.json",
     "r42_bottleneck_always.json", "1f68d59", "r42_bottleneck_all.txt", "default"),
    ("examples/gpu/gemm_softcap_logits.py", "H200, round 41 (held out: written after round 40's run, nothing changed "
     "since but the stores rule's use on the IR model's own rewrites, 514409d; Gemma 2's logit soft cap, K = 1536 and "
     "1000, with --each-size; its decisions registered from a CPU compile before the run, 69cc90c)",
     "r41_softcap_default.json", "r41_softcap_always.json", "69cc90c", "r41_softcap_all.txt", "default"),
    ("examples/gpu/gemm_token_scaled_residual.py", "H200, round 41 (round 40's program again with the default of "
     "514409d, with --each-size; profit=always from round 40)", "r41_tokenscale_default.json",
     "r40_tokenscale_always.json", "69cc90c", "r41_tokenscale_all.txt", "default"),
    ("examples/gpu/gemm_token_scaled_residual.py", "H200, round 40 (held out: written after round 39's run, nothing "
     "changed since; a per-token scaled GEMM + scaled residual, K = 1024 and 2048, with --each-size; its decisions "
     "registered from a CPU compile before the run, 319f231)", "r40_tokenscale_default.json",
     "r40_tokenscale_always.json", "319f231", "r40_tokenscale_all.txt", "default"),
    ("examples/gpu/gemm_layerscale_residual.py", "H200, round 39 (held out: written after round 38, nothing changed "
     "since but the stores rule of ae00d12; a LayerScale residual branch, K = 768 and 1536, with --each-size; its "
     "decisions registered from a CPU compile before the run, e184664)", "r39_layerscale_default.json",
     "r39_layerscale_always.json", "e184664", "r39_layerscale_all.txt", "default"),
    ("examples/gpu/gemm_latent_up.py --longer-k", "H200, round 39 (round 36's probe again with the default of ae00d12, "
     "the stores rule, with --each-size; profit=always from round 36)", "r39_latentk_default.json",
     "r36_latentk_always.json", "e184664", "r39_latentk_all.txt", "default"),
    ("examples/gpu/gemm_latent_up.py", "H200, round 37 (round 35's program again with the default of 68abb40, the "
     "epilogue-bound rule, with --each-size; profit=always from round 35)", "r37_latent_default.json",
     "r35_latent_always.json", "fd7ef32", "r37_latent_all.txt", "default"),
    ("examples/gpu/gemm_latent_up.py --longer-k", "H200, round 36 (a probe of the epilogue-bound rule of 68abb40: "
     "round 35's compiled kernels at K = 1024 and 2048, with --each-size; its decisions registered from a CPU compile "
     "before the run, 8d306a3)", "r36_latentk_default.json", "r36_latentk_always.json", "8d306a3",
     "r36_latentk_all.txt", "default"),
    ("examples/gpu/gemm_patch_embed.py", "H200, round 36 (held out: written after round 35's run, nothing changed since "
     "but the epilogue-bound rule; a ViT patch embedding, K = 588 to 1536, with --each-size; its decisions registered "
     "from a CPU compile before the run, 8d306a3)", "r36_patch_default.json", "r36_patch_always.json", "8d306a3",
     "r36_patch_all.txt", "default"),
    ("examples/gpu/gemm_latent_up.py", "H200, round 35 (held out: written after round 34's run, nothing changed since "
     "but the short-loop rule of 730e9cf; a latent up-projection, K = 128 and 512, with --each-size; its decisions "
     "registered from a CPU compile before the run, 6e74302)", "r35_latent_default.json", "r35_latent_always.json",
     "6e74302", "r35_all.txt", "default"),
    ("examples/gpu/gemm_lora_up.py", "H200, round 35 (round 34's program again with the default of 730e9cf, which "
     "keeps its 6 SASS-cost takes, as 68abb40 does; profit=always from round 34)", "r35_lora_default.json",
     "r34_lora_always.json", "730e9cf", "r35_lora_all.txt", "default"),
    ("examples/gpu/gemm_lora_up.py", "H200, round 34 (held out: written after round 33's run, nothing changed since; an "
     "epilogue-bound GEMM with K = 16, a kind of kernel not timed before; its decisions registered from a CPU compile "
     "before the run, b315f25)", "r34_lora_default.json", "r34_lora_always.json", "b315f25", "r34_all.txt", "default"),
    ("examples/gpu/gemm_accumulate.py", "H200, round 33 (held out: written after round 32's run, nothing changed since; "
     "an accumulator loaded from memory, a kind of kernel not timed before; its decisions registered from a CPU "
     "compile before the run, b151c5d)", "r33_accumulate_default.json", "r33_accumulate_always.json", "b151c5d",
     "r33_all.txt", "default"),
    ("examples/gpu/gemm_router_softmax.py", "H200, round 32 (held out: written after round 31's run, nothing changed "
     "since; a softmax over each row of the accumulator, a kind of kernel not timed before; its decisions registered "
     "from a CPU compile before the run, a5d2212)", "r32_router_default.json", "r32_router_always.json", "a5d2212",
     "r32_all.txt", "default"),
    ("examples/gpu/gemm_skinny_residual.py", "H200, round 31 (held out: written after round 30's run, and after its "
     "change to the CTA criterion; a decode-shaped GEMM, a kind of kernel not timed before; its decisions registered "
     "from a CPU compile before the run, eb7d403)", "r31_skinny_default.json", "r31_skinny_always.json", "eb7d403",
     "r31_all.txt", "default"),
    ("examples/gpu/gemm_fp8_out.py", "H200, round 30 (held out: written after round 29's run, nothing changed since; an "
     "fp8 output, a kind of kernel not timed before; its decisions registered from a CPU compile before the run, "
     "416aa18)", "r30_fp8out_default.json", "r30_fp8out_always.json", "416aa18", "r30_all.txt", "default"),
    ("examples/gpu/gemm_gelu_aux.py", "H200, round 29 (held out: written after round 28's run, nothing changed since; two "
     "stores of the accumulator, a kind of kernel not timed before; its decisions registered from a CPU compile before "
     "the run, 5a4e4e1)", "r29_geluaux_default.json", "r29_geluaux_always.json", "5a4e4e1", "r29_all.txt", "default"),
    ("examples/gpu/gemm_f16acc_residual.py", "H200, round 28 (held out: written after round 27's run, nothing changed "
     "since; an fp16 accumulator, a kind of kernel not timed before; its decisions registered from a CPU compile before "
     "the run, 0429eab)", "r28_f16acc_default.json", "r28_f16acc_always.json", "0429eab", "r28_all.txt", "default"),
    ("examples/gpu/gemm_softplus_scaled.py", "H200, round 27 (held out: written after the marginal-gain check of "
     "52b74db, nothing changed since; its decisions registered from a CPU compile before the run, c527ae3)",
     "r27_softplus_default.json", "r27_softplus_always.json", "c527ae3", "r27_all.txt", "default"),
    ("examples/gpu/gemm_tf32_residual.py", "H200, round 27 (the marginal-gain check, made after round 26's run of this "
     "program: not held out; the two kernels it undoes named before the run in r27_marginal_replay_cpu.json; "
     "`profit=always` from round 26)", "r27_tf32_default.json", "r26_tf32_always.json", "c527ae3", "r27_all.txt",
     "default"),
    ("examples/gpu/gemm_tf32_residual.py", "H200, round 26 (held out: written in session 15, nothing changed since "
     "round 25; a TF32 GEMM, a kind of kernel not timed before; its decisions registered from a CPU compile before "
     "the run, 4a06ad5)", "r26_tf32_default.json", "r26_tf32_always.json", "4a06ad5", "r26_all.txt", "default"),
    ("examples/gpu/gemm_tma_epilogue.py", "H200, round 26 (held out: written in session 15, nothing changed since "
     "round 25; a TMA-store epilogue, a kind of kernel not timed before; its decisions registered from a CPU compile "
     "before the run, dfa5b20)", "r26_tma_default.json", "r26_tma_always.json", "dfa5b20", "r26_all.txt", "default"),
    ("examples/gpu/gemm_persistent_residual.py", "H200, round 25 (the SASS figures read from innermost loops, the change "
     "round 24 called for; its decisions registered from a CPU compile before the run, 18f750b; `profit=always` from "
     "round 24)", "r25_persistent_default.json", "r24_persistent_always.json", "18f750b", "r25_all.txt", "default"),
    ("examples/gpu/gemm_persistent_residual.py", "H200, round 24 (held out: written after round 23, nothing changed "
     "since; its decisions registered from a CPU compile before the run, 3dd43f2; it found the loop over tiles weighed "
     "as the main loop)", "r24_persistent_default.json", "r24_persistent_always.json", "3dd43f2", "r24_all.txt",
     "default"),
    ("examples/gpu/gemm_rowwise_scaled.py", "H200, round 23 (held out: written in session 14, the default unchanged "
     "since round 22's revert; its decisions registered from a CPU compile before the run, 9ac5785)",
     "r23_rowwise_default.json", "r23_rowwise_always.json", "9ac5785", "r23_all.txt", "default"),
    ("examples/gpu/gemm_dropout_residual.py", "H200, round 23 (held out: written in session 14, the default unchanged "
     "since round 22's revert; its decisions registered from a CPU compile before the run, 9ac5785)",
     "r23_dropout_default.json", "r23_dropout_always.json", "9ac5785", "r23_all.txt", "default"),
    ("examples/gpu/gemm_sigmoid_gate.py", "H200, round 23 (the current default, round 22's loop-schedule rule reverted; "
     "its decisions registered before the run, 9ac5785; `profit=always` from round 22)",
     "r23_sigmoid_default.json", "r22_sigmoid_always.json", "9ac5785", "r23_all.txt", "default"),
    ("examples/gpu/gemm_sigmoid_gate.py", "H200, round 22 (held out: written after round 21's loop-schedule rule, which "
     "this run refuted and which is reverted; its decisions registered from a CPU compile before the run, bd9c833)",
     "r22_sigmoid_default.json", "r22_sigmoid_always.json", "bd9c833", "r22_all.txt", "default"),
    ("examples/gpu/gemm_bt_scale.py", "H200, round 18 (held out: written after round 17's guard, nothing changed since; "
     "its decisions registered from a CPU compile before the run, 5f07f0f)", "r18_btscale_default.json",
     "r18_btscale_always.json", "5f07f0f", "r18_all.txt", "default"),
    ("examples/gpu/gemm_at_clamp.py", "H200, round 17 (held out: written after round 16's run, nothing changed since; its "
     "decisions registered from a CPU compile before the run, 2643ad2)", "r17_atclamp_default.json",
     "r17_atclamp_always.json", "2643ad2", "r17_all.txt", "default"),
    ("examples/gpu/gemm_rowsum.py", "H200, round 16 (held out: written after round 15's run, nothing changed since; its "
     "decisions registered from a CPU compile before the run, 3874ab3)", "r16_rowsum_default.json",
     "r16_rowsum_always.json", "3874ab3", "r16_all.txt", "default"),
    ("examples/gpu/linear_relu2.py", "H200, round 15 (held out: written after round 14's run, nothing changed since; its "
     "decisions registered from a CPU compile before the run, f406132)", "r15_linear_default.json",
     "r15_linear_always.json", "f406132", "r15_all.txt", "default"),
    ("examples/gpu/gemm_silu_scaled.py", "H200, round 14 (held out: written after the SASS cost rule of ab44c84, its "
     "decisions registered from a CPU compile before the run, 2ffd3ac)", "r14_silu_default.json", "r14_silu_always.json",
     "2ffd3ac", "r14_all.txt", "default"),
    ("examples/gpu/gemm_gated_residual.py", "H200, round 13 (held out; its default is the loop-reload rule of f087d65, "
     "which this run refuted and which is reverted: without it the compiler check takes the two masked 256x128x64 "
     "w8 s3 kernels as well, both faster)", "r13_gated_default.json", "r13_gated_always.json", "f640ef0",
     "r13_all.txt", "default"),
    ("examples/gpu/gemm_batched_rowscale.py", "H200, round 12 (held out; the first GPU run of the current model's default on a "
     "program written after it, and on a GPU it was not calibrated on: the device lent that session was an H200)",
     "r12_batched_default.json", "r12_batched_always.json", "bb28fd5", "r12_all.txt", "default"),
    ("examples/gpu/gemm_gelu_residual.py", "H200, round 12 (round 11's held-out program again, with the current "
     "model's default run on the GPU: on the H100 only its CPU replay was)", "r12_gelu_h200_default.json",
     "r12_gelu_h200_always.json", "8157458", "r12_gelu_h200_all.txt", "default"),
    ("examples/gpu/gemm_gelu_residual.py", "H100, round 11 (held out); its default is the scalar-lines rule of 5584d0d, "
     "which this run refuted and which is reverted: the current model's decisions are in `r11_replay_cpu.json`",
     "r11_gelu_default.json", "r11_gelu_always.json", "5584d0d", "r11_all.txt", "default"),
    ("examples/gpu/gemm_swiglu.py", "H100, round 10 (held out); its default is the latency-round model of 316956f, "
     "which this run refuted and which is reverted: the current model keeps all 30 "
     "(`r10_replay_cpu.json`)", "r10_swiglu_default.json", "r10_swiglu_always.json", "9270556", "r10_all.txt",
     "default"),
    ("examples/gpu/gemm_colmajor.py", "H100, round 9 (held out: written after the last change of the model)",
     "r9_colmajor_default.json", "r9_colmajor_always.json", "198860f", "r9_all.txt", "default"),
    ("examples/gpu/gemm_scale.py", "H100, round 9's default against round 8's `profit=always` (the model of a26fe56)",
     "r9_scale_default.json", "r8_scale_always.json", "198860f", "r9_all.txt, r8_all.txt", "default"),
    ("examples/gpu/gemm_bias.py", "H100, round 8 (the model of 89a3c8e, calibrated on round 7's run of this program; "
     "a26fe56 and later make the same decisions)", "r8_bias_default.json", "r8_bias_always.json", "e47fa36",
     "r8_all.txt", "default"),
    ("examples/gpu/addmm.py", "H100, round 7 (89a3c8e and later make the same decisions: "
     "`tools/cost_model_search.py replay`)", "r7_addmm_default.json", "r7_addmm_always.json", "ebd632d",
     "r7_all.txt", "default"),
    ("examples/gpu/gemm_bias.py", "H100, round 7 (the model before 89a3c8e)", "r7_bias_default.json",
     "r7_bias_always.json", "ebd632d", "r7_all.txt", "default"),
    ("examples/gpu/addmm.py", "H100", "h100_addmm_default_r6.json", "h100_addmm_always_r6.json", "5ff63cf",
     "h100_run_addmm_r6.txt", "default"),
    ("examples/gpu/attention.py", "H100", "h100_attention_default_r6.json", "h100_attention_always_r6.json",
     "5ff63cf", "h100_run_attention_r6.txt", "default"),
    ("bench/propagate_mma_shapes.py", "H100", "h100_shapes_default_r6.json", "h100_shapes_always_r6.json",
     "5ff63cf", "h100_run_shapes_r6.txt", "default"),
    ("examples/gpu/addmm.py", "H200 (neither the model nor the compiler's thresholds were fitted there)",
     "h200_addmm_default_r6.json", "h200_addmm_always_r6.json", "5ff63cf", "h200_run_addmm_r6.txt", "default"),
    ("examples/gpu/addmm.py", "H100 with `profit=model` (the IR-only cost model; the default until 5ff63cf)",
     "h100_addmm_model.json", "h100_addmm_always.json", "0df368a", "h100_run.txt", "model"),
    ("examples/gpu/attention.py", "H100 with `profit=model`", "h100_attention_model.json",
     "h100_attention_always.json", "56b039e", "h100_run_attention_shapes.txt", "model"),
    ("bench/propagate_mma_shapes.py", "H100 with `profit=model`", "h100_shapes_model.json", "h100_shapes_always.json",
     "56b039e", "h100_run_attention_shapes.txt, h100_run_shapes_model.txt", "model"),
    ("examples/gpu/addmm.py", "H200 with `profit=model` (the model is not calibrated on it)", "h200_addmm_model.json",
     "h200_addmm_always.json", "ccec005", "h200_run.txt", "model"),
    ("examples/gpu/addmm.py", "H100 with `profit=compiled`", "h100_addmm_compiled_r5.json",
     "h100_addmm_always_r5.json", "be027b8", "h100_run_compiled.txt (the same run's "
     "`profit=model`, then the default: h100_addmm_model_r5.json)", "compiled"),
    ("examples/gpu/addmm.py", "H200 with `profit=compiled` (neither the model nor its thresholds were fitted there)",
     "h200_addmm_compiled_r5.json", "h200_addmm_always_r5.json", "e08564a", "h200_run_compiled.txt (the same "
     "run's `profit=model`: h200_addmm_model_r5.json)", "compiled"),
]

# what each label's options are, in the tables' words
OPTIONS = {"default": "default", "model": "`profit=model`", "compiled": "`profit=compiled`"}


def config_of(k: dict) -> str:
    c = k["config"]
    tile = "x".join(str(c[x]) for x in ("BLOCK_M", "BLOCK_N", "BLOCK_K") if x in c)
    return f"{tile} w{c['num_warps']} s{c['num_stages']}"


def group_of(k: dict) -> str:
    """The kernel and problem size: timings compare within a group."""
    name = k["launch_metadata"]["name"] if k.get("launch_metadata") else k["name"]
    args = k["family"][1]
    size = args[1:4] if name.startswith("attention") else args[:3]  # attention: Z, H, N_CTX after sm_scale
    return f"{name} {'x'.join(str(int(x)) for x in size)}"


OVERRULED = ": moved with every other conversion ("  # the remark of a conversion the compiler's figures took


def _model_numbers(remarks: list[str]) -> list[str]:
    """Each conversion's decision and the model's estimate; `remove (compiler)` where the model kept it and
    the real compiler's registers or spills overruled it (profit=auto or compiled)."""
    out = []
    for r in remarks:
        m = re.search(r"\(model: ([^)]*) cycles/CTA\)", r)
        if m is None:
            continue
        word = "remove" if ": moved " in r else "keep"
        if OVERRULED in r:
            word = "remove (compiler)"
        out.append(f"{word} {m.group(1)}")
    return out



def _model_alone_changes(remarks: list[str]) -> bool:
    """Whether the cost model alone (profit=model) rewrites the kernel: a removal it made itself."""
    return any(": moved " in r and OVERRULED not in r for r in remarks)


def measured_sign(t: dict) -> str:
    if t["ratio_hi"] < 0.99:
        return "faster"
    if t["ratio_lo"] > 1.01:
        return "slower"
    return "noise"


def _rows(model_file: str, always_file: str) -> list[dict]:
    model = {(group_of(k), config_of(k)): k for k in json.loads((DATA / model_file).read_text())["kernels"]}
    rows = []
    for a in json.loads((DATA / always_file).read_text())["kernels"]:
        if "timing" not in a:
            continue
        key = (group_of(a), config_of(a))
        m = model[key]
        changed = m["status"] != "unchanged"
        numbers = _model_numbers(m.get("remarks", []))
        words = {v.split()[0] for v in numbers}
        verdict = ("partial" if words == {"remove", "keep"} else "remove") if changed else "keep"
        same_code = changed and m.get("static", {}).get("after") == a.get("static", {}).get("after") is not None
        sign = measured_sign(a["timing"])
        model_alone = _model_alone_changes(m.get("remarks", []))
        rows.append({
            "model_alone_agrees": sign == "noise" or (sign == "faster") == model_alone,
            "group": key[0], "config": key[1], "numbers": "; ".join(numbers) or "-", "verdict": verdict,
            "always": a["timing"], "sign": sign, "changed": changed, "same_code": same_code,
            "model_ratio": m["timing"]["ratio"] if changed else 1.0,
            "agree": sign == "noise" or (sign == "faster") == changed,
            "tflops": (a["timing"]["before_tflops"], a["timing"]["after_tflops"],
                       m["timing"]["after_tflops"] if changed else a["timing"]["before_tflops"]),
        })
    return rows


def _table(rows: list[dict], label: str) -> list[str]:
    label = OPTIONS[label]
    lines = [
        f"| kernel | config | model per conversion | verdict | always: time ratio [95%] | sign | {label}: time ratio "
        f"| agree | TFLOP/s before / always / {label} |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        t = r["always"]
        mtext = f"{r['model_ratio']:.3f}" if r["changed"] else "1 (unchanged)"
        if r["same_code"]:
            mtext += " (same code)"
        lines.append(
            f"| {r['group']} | {r['config']} | {r['numbers']} | {r['verdict']} | {t['ratio']:.3f} "
            f"[{t['ratio_lo']:.3f}, {t['ratio_hi']:.3f}] | {r['sign']} | {mtext} | "
            f"{'yes' if r['agree'] else '**no**'} | {' / '.join(f'{x:.0f}' for x in r['tflops'])} |"
        )
    return lines


def _by_group(rows: list[dict]) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(r["group"], []).append(r)
    return groups


def _criteria(rows: list[dict], label: str) -> list[str]:
    lines = []
    for group, rs in _by_group(rows).items():
        agree = sum(r["agree"] for r in rs)
        slower = [r["config"] for r in rs if r["changed"] and r["model_ratio"] > 1.01]
        kept = []
        for r in rs:
            if r["sign"] != "faster":
                continue
            ga = 1 / r["always"]["ratio"] - 1
            gm = 1 / r["model_ratio"] - 1
            kept.append(f"{r['config']}: same code (100%; its own run {gm:.1%} of {ga:.1%})" if r["same_code"]
                        else f"{r['config']}: {gm:.1%} of {ga:.1%} ({gm / ga:.0%})")
        options = "the default options" if label == "default" else OPTIONS[label]
        who = {"default": "the default's decision (profit=auto)", "model": "the model's verdict",
               "compiled": "`profit=compiled`'s decision"}[label]
        alone = ""
        if label != "model":
            alone = f" (the cost model alone: {sum(r['model_alone_agrees'] for r in rs)} of {len(rs)})"
        lines.append(
            f"* {group}: {who} agrees with the measured sign on **{agree} of {len(rs)}** kernels{alone}; "
            f"slower than the original by more than 1% with {options}: {', '.join(slower) or 'none'}; "
            f"where `profit=always` is faster, {options} keep: {'; '.join(kept) or '-'}."
        )
    return lines


def _optimum(rows: list[dict], label: str) -> list[str]:
    lines = [f"| kernel | before | profit=always | {label} |", "|---|---|---|---|"]
    for group, rs in _by_group(rows).items():
        b = max(rs, key=lambda r: r["tflops"][0])
        a = max(rs, key=lambda r: r["tflops"][1])
        m = max(rs, key=lambda r: r["tflops"][2])
        best = b["tflops"][0]
        lines.append(f"| {group} | {b['config']}: {best:.0f} | {a['config']}: {a['tflops'][1]:.0f} "
                     f"({a['tflops'][1] / best - 1:+.1%}) | {m['config']}: {m['tflops'][2]:.0f} "
                     f"({m['tflops'][2] / best - 1:+.1%}) |")
    return lines


def main() -> None:
    lines = [
        "# propagate-mma on an H100: its decisions and measurements",
        "",
        "Generated by `tools/propagate_mma_results.py` from irkit-check's reports in `docs/propagate-mma-results/`",
        "(do not edit by hand).  Runs on the lent `nvidia-h100-x1` (NVIDIA H100 80GB HBM3) and `nvidia-h200` (NVIDIA",
        "H200), Triton 3.6.0, PyTorch 2.11, CUDA 13, each program under two or three pipelines, one after the other",
        "on the same machine:",
        "",
        "```sh",
        "irkit-check -p propagate-mma --max-seconds 2 --json h100_X_default_r6.json -- python3 PROGRAM",
        "irkit-check -p 'propagate-mma{profit=always}' --max-seconds 2 --json h100_X_always_r6.json -- python3 PROGRAM",
        "```",
        "",
        "(through `OUT=... WHAT='addmm attention shapes' PIPES='default always' SECS=2 WHEELS=.profit_run bash",
        "tools/propagate_mma_gpu_run.sh`).  The default options are `profit=auto` since 5ff63cf: the IR-only cost",
        "model decides, then, for these CUDA kernels, the real Triton on the same machine compiles the model's",
        "module and `profit=always`'s and takes the second where its registers let more CTAs share an SM where few",
        "did, or it spills far less (docs/passes/propagate-mma.md).  Below the default's tables are the earlier",
        "runs of `profit=model` (the IR-only model, the default until 5ff63cf; the same model at every commit",
        "named) and of `profit=compiled` (what `auto` does where a Triton is at hand).  The tables are of the static",
        "rule: since session 24 the default times its candidates on the GPU under irkit-check's run mode, and that",
        "run (all 41 programs, judged against these `profit=always` runs) is in notes.md, \"Session 24\"",
        "(`tools/measured_profit_eval.py`, `s24_measured_eval.txt`).",
        "*time ratio* is after/before (below 1 is faster), the median of interleaved pairs with its 95% interval;",
        "*sign* is the `profit=always` run's, beyond 1% and its interval.  The model's verdict per conversion is in",
        "estimated cycles per CTA (positive: remove); *remove (compiler)* marks a conversion the model kept and the",
        "compiler's figures took out.  A kept kernel runs the original code (ratio 1).  Where the judged run's",
        "kernel is the one `profit=always` compiles (*same code*: the same registers, spills and instruction",
        "counts), it keeps all of that gain, and its own time ratio is a second measurement of that code (they",
        "differ by up to 2%: the original's own time varies that much between runs).",
        "",
    ]
    for program, gpu, model_file, always_file, commit, txt, label in FAMILIES:
        rows = _rows(model_file, always_file)
        lines += [f"## `{program}` on the {gpu}", "",
                  f"At {commit if ' ' in commit else 'commit ' + commit}: `{model_file}`, `{always_file}`; "
                  f"terminal output: {txt}.", ""]
        lines += _table(rows, label) + ["", "Against the done criteria:", ""] + _criteria(rows, label)
        lines += ["", "Tuned optimum (fastest config of each kernel and size):", ""]
        lines += _optimum(rows, OPTIONS[label]) + [""]
    OUT.write_text("\n".join(lines) + "\n" + (DATA / "notes.md").read_text())


if __name__ == "__main__":
    main()
