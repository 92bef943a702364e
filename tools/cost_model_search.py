"""Check propagate-mma's cost model against every kernel timed on the H100, and search its weights.

The timings are irkit-check's `profit=always` reports in docs/propagate-mma-results/ (addmm 36 kernels,
attention 16, shapes 24).  The model needs each kernel's TTGIR, which Triton 3.6 compiles for cuda:90 on the
CPU, with the specialisation the GPU run had.  Two steps:

    /path/to/triton36/bin/python tools/cost_model_search.py compile --out /tmp/h100_ttgir
    .venv/bin/python tools/cost_model_search.py search --ttgir /tmp/h100_ttgir
    IRKIT_TRITON_PYTHON=/path/to/triton36/bin/python .venv/bin/python tools/cost_model_search.py compiled \
        --ttgir /tmp/h100_ttgir --json docs/propagate-mma-results/compiled_cpu.json

`search` prints the current model's decision for each kernel next to the measured sign (faster/slower beyond
1% and the 95% interval), the kernels it makes slower or whose gain it misses, and then the same two lists
for a grid of weights, including two terms the model does not have (shared-memory instructions of the
conversion, and counting the mma layout's scalar accesses by the lines a pair of registers touches).
`compiled` runs `propagate-mma{profit=compiled}` on each kernel and says whose module it gives.  `replay`
runs the default (`profit=auto`, the real compiler provided) on each kernel whose H100 run also timed the
default (or only `profit=always`), and prints the decision next to the measurements: the check of a model change before a GPU run.

    IRKIT_TRITON_PYTHON=/path/to/triton36/bin/python .venv/bin/python tools/cost_model_search.py replay \
        --ttgir /tmp/h100_ttgir --json docs/propagate-mma-results/r8_replay_cpu.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import propagate_mma_results as table  # tools/: the results table's kernel names and measured sign

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "propagate-mma-results"
TIMINGS = ("h100_addmm_always.json", "h100_attention_always.json", "h100_shapes_always.json",
           "h100_attention_always_r6.json", "h100_shapes_always_r6.json", "r7_addmm_always.json", "r7_bias_always.json",
           "r8_bias_always.json", "r8_scale_always.json", "r9_colmajor_always.json",
           "r10_swiglu_always.json", "r11_gelu_always.json",
           "r12_batched_always.json", "r13_gated_always.json", "r14_silu_always.json", "r15_linear_always.json",
           "r16_rowsum_always.json", "r17_atclamp_always.json", "r18_btscale_always.json")


def kernel_key(k: dict) -> str:
    """One file name per timed kernel: the results table's kernel, size and tile config."""
    return re.sub(r"[^A-Za-z0-9x.]+", "_", f"{table.group_of(k)} {table.config_of(k)}")


# ---------------------------------------------------------------------------------------------
# compile (under a Triton 3.6 Python)
# ---------------------------------------------------------------------------------------------


def _compile(fn, sig: dict, consts: dict, divisible: list[int], warps: int, stages: int) -> str:
    import triton
    from triton.backends.compiler import GPUTarget

    attrs = {(i,): [["tt.divisibility", 16]] for i in divisible}
    src = triton.compiler.ASTSource(fn, sig, constexprs=consts, attrs=attrs)
    return triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": warps, "num_stages": stages}).asm["ttgir"]


def _divisible(values: list) -> list[int]:
    """What a launch specialises: pointers and integers that are multiples of 16 (and not 1)."""
    return [i for i, v in enumerate(values) if v == "ptr" or (isinstance(v, int) and v != 1 and v % 16 == 0)]


ADDMM_INTS = ("M", "N", "K", "sam", "sak", "sbk", "sbn", "sdm", "sdn", "scm", "scn")
BT_INTS = ("M", "N", "K", "sam", "sak", "sbn", "sbk", "srm", "srn", "scm", "scn")
AT_INTS = ("M", "N", "K", "sak", "sam", "sbk", "sbn", "scm", "scn")
ROWSUM_INTS = ("M", "N", "K", "sam", "sak", "sbk", "sbn", "sdm", "sdn", "scm", "scn", "ssm")
LINEAR_INTS = ("M", "N", "K", "sxm", "sxk", "swn", "swk", "srm", "srn", "sym", "syn")
RESIDUAL_INTS = ("M", "N", "K", "sam", "sak", "sbk", "sbn", "srm", "srn", "scm", "scn")
GATED_INTS = ("M", "N", "K", "sam", "sak", "sbk", "sbn", "srm", "srn", "sgm", "sgn", "scm", "scn")
SIGMOID_INTS = ("M", "N", "K", "sam", "sak", "sbk", "sbn", "sgm", "sgn", "scm", "scn")
ROWWISE_INTS = ("M", "N", "K", "sam", "sak", "sbn", "sbk", "scm", "scn")
DROPOUT_INTS = ("M", "N", "K", "sam", "sak", "sbk", "sbn", "skm", "skn", "srm", "srn", "scm", "scn")
PERSISTENT_INTS = (*RESIDUAL_INTS, "NUM_PROGRAMS")
TMA_INTS = ("M", "N", "K", "srm", "srn")
AUX_INTS = ("M", "N", "K", "sam", "sak", "sbk", "sbn", "szm", "szn", "scm", "scn")
BATCHED_INTS = ("M", "N", "K", "sab", "sam", "sak", "sbb", "sbk", "sbn", "ssb", "sdb", "sdm", "sdn", "scb", "scm", "scn")


def _gemm_signature(pointers: dict[str, str], ints: tuple[str, ...], flags: tuple[str, ...], config: dict,
                    args: list) -> tuple[dict[str, str], dict[str, int], list]:
    """A GEMM program's launch as Triton specialises it: its pointers, its integer arguments (the run's values;
    those equal to 1 become constexprs), and the tile sizes and `flags` of the config as constexprs.
    Returns (signature, constexprs, the argument values for `_divisible`)."""
    sig = dict(pointers) | {n: "i32" for n in ints}
    consts = {n: config[n] for n in ("BLOCK_M", "BLOCK_N", "BLOCK_K", *flags)}
    # a pointer is specialised as 16-byte aligned; a host tensor descriptor is not (Triton's `specialize_impl`)
    values = ["desc" if t.startswith("tensordesc") else "ptr" for t in pointers.values()] + list(args)[:len(ints)]
    consts.update({n: 1 for n, v in zip(ints, values[len(pointers):]) if v == 1})
    return sig, consts, values


@dataclass(frozen=True)
class GemmLaunch:
    """How a GEMM example program launches its kernel: its module and @triton.jit function, its pointer
    arguments ("*OUT": the output's element type; "tensordesc<OUT[BLOCK_M,BLOCK_N]>": a host tensor descriptor of
    that block), its integer arguments and its flag constexprs."""

    module: str  # in examples/gpu/ or bench/
    kernel: str
    pointers: dict[str, str]
    ints: tuple[str, ...]
    flags: tuple[str, ...]
    out: str = "fp16"  # the output's element type without OUT_F32 (and without a D= dtype in the launch name)


def _launch(module: str, pointers: str, ints: tuple[str, ...], flags: tuple[str, ...], out: str = "fp16") -> GemmLaunch:
    """`pointers` as "name:type ..." in the kernel's argument order."""
    return GemmLaunch(module, f"{module}_kernel", dict(p.split(":") for p in pointers.split()), ints, flags, out)


# by the launch name's first word (launch_metadata's name, else the kernel's)
GEMM_LAUNCHES = {launch.kernel: launch for launch in [
    _launch("addmm", "a_ptr:*bf16 b_ptr:*bf16 d_ptr:*OUT c_ptr:*OUT", ADDMM_INTS, ("ADD",), "fp32"),
    GemmLaunch("propagate_mma_shapes", "addmm_shapes", {"a_ptr": "*bf16", "b_ptr": "*bf16", "d_ptr": "*OUT",
               "c_ptr": "*OUT"}, ADDMM_INTS, (), "fp32"),
    _launch("gemm_bias", "a_ptr:*fp16 b_ptr:*fp16 bias_ptr:*fp16 r_ptr:*fp16 c_ptr:*fp16", RESIDUAL_INTS, ("RES",)),
    _launch("gemm_scale", "a_ptr:*bf16 b_ptr:*bf16 rs_ptr:*fp32 cs_ptr:*fp32 bias_ptr:*bf16 c_ptr:*bf16",
            ("M", "N", "K", "sam", "sak", "sbk", "sbn", "scm", "scn"), ("BIAS",)),
    _launch("gemm_swiglu", "x_ptr:*bf16 wg_ptr:*bf16 wu_ptr:*bf16 y_ptr:*bf16",
            ("M", "N", "K", "sxm", "sxk", "swk", "swn", "sym", "syn"), ()),
    _launch("gemm_gelu_residual", "a_ptr:*fp16 b_ptr:*fp16 bias_ptr:*fp16 r_ptr:*OUT c_ptr:*OUT", RESIDUAL_INTS,
            ("OUT_F32",)),
    _launch("gemm_gated_residual", "a_ptr:*fp16 b_ptr:*fp16 gate_ptr:*fp16 r_ptr:*OUT g_ptr:*OUT c_ptr:*OUT",
            GATED_INTS, ("OUT_F32",)),
    _launch("gemm_bt_scale", "a_ptr:*fp16 b_ptr:*fp16 s_ptr:*fp16 r_ptr:*OUT c_ptr:*OUT", BT_INTS, ("OUT_F32",)),
    _launch("gemm_at_clamp", "a_ptr:*bf16 b_ptr:*bf16 r_ptr:*bf16 bias_ptr:*bf16 c_ptr:*OUT", AT_INTS, ("OUT_F32",),
            "bf16"),
    _launch("gemm_rowsum", "a_ptr:*fp16 b_ptr:*fp16 d_ptr:*OUT c_ptr:*OUT s_ptr:*fp32", ROWSUM_INTS, ("OUT_F32",)),
    GemmLaunch("linear_relu2", "linear_relu2_kernel", {"x_ptr": "*bf16", "w_ptr": "*bf16", "b_ptr": "*bf16",
               "r_ptr": "*OUT", "y_ptr": "*OUT"}, LINEAR_INTS, ("OUT_F32", "RES"), "bf16"),
    _launch("gemm_silu_scaled", "a_ptr:*fp16 b_ptr:*fp16 s_ptr:*fp16 t_ptr:*fp16 r_ptr:*OUT c_ptr:*OUT", RESIDUAL_INTS,
            ("OUT_F32",)),
    _launch("gemm_batched_rowscale", "a_ptr:*bf16 b_ptr:*bf16 s_ptr:*fp32 d_ptr:*OUT c_ptr:*OUT", BATCHED_INTS,
            ("OUT_F32",), "bf16"),
    _launch("gemm_colmajor", "a_ptr:*fp16 b_ptr:*fp16 d_ptr:*fp32 bias_ptr:*fp32 c_ptr:*fp32", ADDMM_INTS, ("ADD",)),
    _launch("gemm_sigmoid_gate", "a_ptr:*bf16 b_ptr:*bf16 bias_ptr:*bf16 g_ptr:*OUT c_ptr:*OUT", SIGMOID_INTS,
            ("OUT_F32",), "bf16"),
    _launch("gemm_rowwise_scaled", "a_ptr:*IN b_ptr:*IN sa_ptr:*fp32 sb_ptr:*fp32 bias_ptr:*bf16 c_ptr:*OUT",
            ROWWISE_INTS, ("INT8", "OUT_F32"), "bf16"),
    _launch("gemm_dropout_residual", "a_ptr:*bf16 b_ptr:*bf16 bias_ptr:*bf16 keep_ptr:*u8 r_ptr:*OUT c_ptr:*OUT",
            DROPOUT_INTS, ("OUT_F32",), "bf16"),
    _launch("gemm_persistent_residual", "a_ptr:*fp16 b_ptr:*fp16 bias_ptr:*fp16 r_ptr:*OUT c_ptr:*OUT",
            PERSISTENT_INTS, ("OUT_F32",)),
    _launch("gemm_f16acc_residual", "a_ptr:*fp16 b_ptr:*fp16 bias_ptr:*fp16 r_ptr:*fp16 c_ptr:*fp16", RESIDUAL_INTS,
            ()),
    _launch("gemm_gelu_aux", "a_ptr:*bf16 b_ptr:*bf16 bias_ptr:*fp32 z_ptr:*OUT c_ptr:*OUT", AUX_INTS, ("OUT_F32",),
            "bf16"),
    _launch("gemm_fp8_out", "a_ptr:*fp16 b_ptr:*fp16 bias_ptr:*fp16 scale_ptr:*fp32 c_ptr:*fp8e4nv",
            ("M", "N", "K", "sam", "sak", "sbk", "sbn", "scm", "scn"), ()),
    _launch("gemm_skinny_residual", "a_ptr:*fp16 b_ptr:*fp16 bias_ptr:*fp16 r_ptr:*fp16 c_ptr:*fp16", RESIDUAL_INTS,
            ()),
    _launch("gemm_router_softmax", "a_ptr:*bf16 w_ptr:*bf16 bias_ptr:*fp32 p_ptr:*OUT",
            ("M", "N", "K", "sam", "sak", "swk", "swn", "spm", "spn"), ("OUT_F32",), "bf16"),
    _launch("gemm_accumulate", "a_ptr:*bf16 b_ptr:*bf16 c_ptr:*OUT", ("M", "N", "K", "sam", "sak", "sbk", "sbn", "scm",
            "scn"), ("OUT_F32",), "bf16"),
    _launch("gemm_lora_up", "a_ptr:*bf16 b_ptr:*bf16 base_ptr:*OUT y_ptr:*OUT", RESIDUAL_INTS, ("OUT_F32",), "bf16"),
    _launch("gemm_latent_up", "c_ptr:*fp16 w_ptr:*fp16 r_ptr:*OUT y_ptr:*OUT",
            ("M", "N", "K", "scm", "sck", "swk", "swn", "srm", "srn", "sym", "syn"), ("OUT_F32",)),
    _launch("gemm_patch_embed", "x_ptr:*fp16 w_ptr:*fp16 bias_ptr:*fp16 pos_ptr:*fp16 y_ptr:*OUT",
            ("M", "N", "K", "patches", "sxm", "sxk", "swk", "swn", "spm", "spn", "sym", "syn"), ("OUT_F32",)),
    _launch("gemm_layerscale_residual", "x_ptr:*bf16 w_ptr:*bf16 gamma_ptr:*fp32 r_ptr:*OUT y_ptr:*OUT",
            ("M", "N", "K", "sxm", "sxk", "swk", "swn", "srm", "srn", "sym", "syn"), ("OUT_F32",), "bf16"),
    _launch("gemm_token_scaled_residual", "x_ptr:*fp16 w_ptr:*fp16 s_ptr:*fp32 r_ptr:*OUT y_ptr:*OUT",
            ("M", "N", "K", "sxm", "sxk", "swk", "swn", "srm", "srn", "sym", "syn"), ("OUT_F32",)),
    _launch("gemm_softcap_logits", "x_ptr:*bf16 w_ptr:*bf16 y_ptr:*OUT",
            ("M", "N", "K", "sxm", "sxk", "swk", "swn", "sym", "syn"), ("OUT_F32",), "bf16"),
    _launch("gemm_attn_out_residual", "x_ptr:*fp16 w_ptr:*fp16 bias_ptr:*fp16 r_ptr:*OUT y_ptr:*OUT",
            ("M", "N", "K", "sxm", "sxk", "swk", "swn", "srm", "srn", "sym", "syn"), ("OUT_F32",)),
    _launch("gemm_tanh_residual", "x_ptr:*fp16 w_ptr:*fp16 bias_ptr:*fp32 r_ptr:*OUT y_ptr:*OUT",
            ("M", "N", "K", "sxm", "sxk", "swk", "swn", "srm", "srn", "sym", "syn"), ("OUT_F32",), "bf16"),
    _launch("gemm_mish_residual", "x_ptr:*fp16 w_ptr:*fp16 bias_ptr:*fp32 r_ptr:*OUT y_ptr:*OUT",
            ("M", "N", "K", "sxm", "sxk", "swk", "swn", "srm", "srn", "sym", "syn"), ("OUT_F32",), "bf16"),
    _launch("gemm_gelu_colscale", "x_ptr:*fp16 w_ptr:*fp16 bias_ptr:*fp32 g_ptr:*fp32 r_ptr:*OUT y_ptr:*OUT",
            ("M", "N", "K", "sxm", "sxk", "swk", "swn", "srm", "srn", "sym", "syn"), ("OUT_F32",), "bf16"),
    _launch("gemm_hardswish_residual", "x_ptr:*fp16 w_ptr:*fp16 bias_ptr:*fp32 r_ptr:*OUT y_ptr:*OUT",
            ("M", "N", "K", "sxm", "sxk", "swk", "swn", "srm", "srn", "sym", "syn"), ("OUT_F32",)),
    _launch("gemm_bottleneck_residual",
            "x_ptr:*fp16 w_ptr:*fp16 scale_ptr:*fp32 shift_ptr:*fp32 r_ptr:*OUT y_ptr:*OUT",
            ("M", "N", "K", "sxm", "sxk", "swk", "swn", "srm", "srn", "sym", "syn"), ("OUT_F32",)),
    _launch("gemm_softplus_scaled", "a_ptr:*bf16 b_ptr:*bf16 rb_ptr:*fp32 cs_ptr:*fp32 r_ptr:*OUT c_ptr:*OUT",
            RESIDUAL_INTS, ("OUT_F32",), "bf16"),
    _launch("gemm_tf32_residual", "a_ptr:*fp32 b_ptr:*fp32 bias_ptr:*fp32 r_ptr:*OUT c_ptr:*OUT", RESIDUAL_INTS,
            ("OUT_F32",), "bf16"),
    _launch("gemm_tma_epilogue", "a_desc:tensordesc<fp16[BLOCK_M,BLOCK_K]> b_desc:tensordesc<fp16[BLOCK_K,BLOCK_N]> "
            "c_desc:tensordesc<OUT[BLOCK_M,BLOCK_N]> bias_ptr:*fp16 r_ptr:*OUT", TMA_INTS, ("OUT_F32",)),
]}
ATTENTION_POINTERS = {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16"}
ATTENTION_ARGS = {"sm_scale": "fp32", "Z": "i32", "H": "i32", "N_CTX": "i32", "stride_z": "i32", "stride_h": "i32",
                  "stride_n": "i32"}
DTYPES = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32"}
SOURCES = {"fp8": "fp8e4nv", "int8": "i8"}  # a launch name's `in=` (the GEMM operands' type) as Triton spells it


def _jit_function(module: str, name: str):
    import importlib

    for folder in (str(ROOT / "examples" / "gpu"), str(ROOT / "bench")):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    return getattr(importlib.import_module(module), name)


def _specialised(k: dict):
    """(kernel function, signature, constexprs, argument values) of a timed kernel's launch."""
    c = k["config"]
    name = k["launch_metadata"]["name"] if k.get("launch_metadata") else k["name"]
    args = k["family"][1]
    if name.startswith("attention"):
        consts = {"HEAD_DIM": c["HEAD_DIM"], "BLOCK_M": c["BLOCK_M"], "BLOCK_N": c["BLOCK_N"]}
        values = ["ptr"] * len(ATTENTION_POINTERS) + list(args)[:len(ATTENTION_ARGS)]
        return _jit_function("attention", "attention_fwd"), ATTENTION_POINTERS | ATTENTION_ARGS, consts, values
    launch = GEMM_LAUNCHES[name.split()[0]]
    sig, consts, values = _gemm_signature(pointer_types(launch, name, c), launch.ints, launch.flags, c, args)
    return _jit_function(launch.module, launch.kernel), sig, consts, values


def pointer_types(launch: GemmLaunch, name: str, config: dict) -> dict[str, str]:
    """A GEMM launch's pointer arguments typed for one kernel: OUT from its OUT_F32 flag or the launch name's
    `D=` dtype, IN (the operands) from the name's `in=`, a descriptor's block from the config's tile."""
    dtype = re.search(r"\bD=(\w+)", name)
    out = "fp32" if config.get("OUT_F32") else DTYPES[dtype.group(1)] if dtype else launch.out
    source = re.search(r"\bin=(\w+)", name)
    types = {p: t.replace("OUT", out).replace("IN", SOURCES[source.group(1)] if source else "")
             for p, t in launch.pointers.items()}
    return {p: re.sub(r"BLOCK_[MNK]", lambda m: str(config[m.group(0)]), t) for p, t in types.items()}


def compile_all(out: Path, only: str = "") -> None:
    out.mkdir(parents=True, exist_ok=True)
    for timings in TIMINGS:
        for k in json.loads((DATA / timings).read_text())["kernels"]:
            if only not in timings or (out / f"{kernel_key(k)}.ttgir").exists():
                continue
            c = k["config"]
            fn, sig, consts, values = _specialised(k)
            # every specialised value typed constexpr: Triton 3.6 hashes a compile by the signature's constexprs,
            # so a 1-valued stride left as i32 is applied but not hashed (Y=row and Y=col of gemm_swiglu at the
            # masked size, which differ only in which stride is 1, came back as one cached kernel)
            sig.update({n: "constexpr" for n in consts})
            path = out / f"{kernel_key(k)}.ttgir"
            path.write_text(_compile(fn, sig, consts, _divisible(values), c["num_warps"], c["num_stages"]))
            print(path.name, flush=True)


# ---------------------------------------------------------------------------------------------
# search (under irkit's Python)
# ---------------------------------------------------------------------------------------------


def collect(ttgir: Path) -> tuple[dict, dict]:
    """Per kernel: its measured sign, and the inputs of cost_model.judge for each seed (full plan and, where
    there is one, its loads-only variant), captured from mma_profit.judge_plan."""
    from irkit.analysis import cost_model, mma_profit, mma_slice
    from irkit.dialects.ttg import ConvertLayoutOp
    from irkit.frontend.parser import parse_file

    signs = {kernel_key(k): table.measured_sign(k["timing"]) for f in TIMINGS
             for k in json.loads((DATA / f).read_text())["kernels"] if "timing" in k}
    captured: list = []
    judge = cost_model.judge

    def spy(*a, **kw):
        captured.append((a, kw))
        return judge(*a, **kw)

    inputs = {}
    mma_profit.cost_model.judge = spy
    try:
        for key in signs:
            module = parse_file(str(ttgir / f"{key}.ttgir")).module
            facts = mma_profit.ModuleFacts(module)
            seeds = []
            for op in list(module.walk()):
                candidate = mma_slice.classify_conversion(op, dot_operands=False)[0] if isinstance(op, ConvertLayoutOp) else None
                if candidate is None:
                    continue
                plans = {}
                for loads_only in (False, True):
                    plan = mma_slice.plan_mma_propagation(op, candidate, loads_only=loads_only)
                    if plan.accepted:
                        captured.clear()
                        mma_profit.judge_plan(plan, facts)
                        plans[loads_only] = captured[-1]
                seeds.append(plans)
            inputs[key] = seeds
    finally:
        mma_profit.cost_model.judge = judge
    return signs, inputs


def decide(seeds: list, judge, weights) -> str:
    """What propagate-mma does with a kernel: per seed the full plan, else its loads-only variant, then
    the whole-function rule (mma_profit.completes_rewrite)."""
    from irkit.analysis.mma_profit import completes_rewrite

    words, verdicts = [], []
    for plans in seeds:
        a, kw = plans[False]
        v = judge(*a, **dict(kw, weights=weights))
        verdicts.append(v)
        if v.take:
            words.append("full")
        elif True in plans and judge(*plans[True][0], **dict(plans[True][1], weights=weights)).take:
            words.append("loads-only")
        else:
            words.append("keep")
    taken = sum(v.gain for v, w in zip(verdicts, words) if w != "keep")
    words = ["full" if w == "keep" and completes_rewrite(taken, v) else w for v, w in zip(verdicts, words)]
    return "remove" if all(w == "full" for w in words) else "keep" if all(w == "keep" for w in words) else "partial"


def score(signs: dict, inputs: dict, judge, weights) -> tuple[list[str], list[str]]:
    slower = [k for k in signs if signs[k] == "slower" and decide(inputs[k], judge, weights) != "keep"]
    missed = [k for k in signs if signs[k] == "faster" and decide(inputs[k], judge, weights) != "remove"]
    return slower, missed


def extended_judge(shared_instruction: float, pair_lines: bool):
    """cost_model.judge plus the two terms it lacks."""
    from irkit.analysis import cost_model

    def effective(a):
        # a scalar access in the mma layout touches the lines its register pair shares twice
        if pair_lines and a.vector == 1 and "mma" in a.layout:
            return replace(a, lines_per_instruction=max(1, a.lines_per_instruction // 2))
        return a

    def judge(removed, added, accesses, *args, **kw):
        v = cost_model.judge(removed, added, [(op, effective(b), effective(x)) for op, b, x in accesses], *args, **kw)
        warps = kw.get("num_warps", 4)
        count = lambda cs: sum((c.store_instructions + c.load_instructions) * warps for c in cs if c.needs_shared)  # noqa: E731
        v.gain += shared_instruction * (count(removed) - count(added))
        return v

    return judge


def search(ttgir: Path) -> None:
    from irkit.analysis import cost_model

    signs, inputs = collect(ttgir)
    slower, missed = score(signs, inputs, cost_model.judge, cost_model.DEFAULT_WEIGHTS)
    print(f"current model on {len(signs)} kernels: makes slower {slower or 'none'}; misses the gain of {missed or 'none'}")
    grid = itertools.product((0.2, 0.35, 0.5), (1000, 1500, 2500), (4, 8), (16, 32, 64), (16, 32), (0, 400, 800),
                             (0.0, 0.3, 0.6), (False, True))
    results = []
    for line, sync_round, sync_warps, payload, bits, extra, shared_instruction, pair_lines in grid:
        w = replace(cost_model.DEFAULT_WEIGHTS, line=line, sync_round=sync_round, sync_warps=sync_warps,
                    sync_payload=payload, sync_bits=bits, extra_round=extra)
        results.append(score(signs, inputs, extended_judge(shared_instruction, pair_lines), w))
    safe = [m for s, m in results if not s]
    fewest = min(len(m) for m in safe)
    print(f"{len(results)} settings; {len(safe)} make no kernel slower; the fewest misses among those: {fewest}, "
          f"always including {sorted(set.intersection(*(set(m) for m in safe)))}")


def run_pass(path: Path, profit: str) -> tuple[str, list[str]]:
    """propagate-mma{profit=...} on one TTGIR file: the module it prints and its remarks."""
    from irkit.passes import all_passes
    from xdsl.context import Context

    from irkit import diagnostics
    from irkit.frontend.parser import parse_file
    from irkit.frontend.printer import print_module

    parsed = parse_file(str(path))
    all_passes()["propagate-mma"](profit=profit).apply(Context(allow_unregistered=True), parsed.module)
    return print_module(parsed), [d.message for d in diagnostics.take() if d.severity == "remark"]


def compiled(ttgir: Path, out: Path | None) -> None:
    """propagate-mma{profit=compiled} on every timed kernel (the real Triton from $IRKIT_TRITON_PYTHON): which
    module it gives (the model's, or profit=always's), with its remark, next to the measured sign."""
    def run(key: str, profit: str) -> tuple[str, list[str]]:
        return run_pass(ttgir / f"{key}.ttgir", profit)

    rows = []
    for f in TIMINGS:
        for k in json.loads((DATA / f).read_text())["kernels"]:
            if "timing" not in k:
                continue
            key = kernel_key(k)
            chosen, remarks = run(key, "compiled")
            model, always = run(key, "model")[0], run(key, "always")[0]
            module = "model" if chosen == model else "always" if chosen == always else "other"
            rows.append({"kernel": key, "module": module, "differs_from_model": chosen != model,
                         "sign_always": table.measured_sign(k["timing"]), "remarks": remarks})
            print(f"{key}: {module}{' (= always)' if module == 'model' and model == always else ''}; "
                  f"measured with profit=always: {rows[-1]['sign_always']}", flush=True)
    taken = [r["kernel"] for r in rows if r["differs_from_model"]]
    print(f"{len(rows)} kernels; profit=compiled differs from the model on {len(taken)}: {taken or 'none'}")
    if out:
        out.write_text(json.dumps({"command": "tools/cost_model_search.py compiled", "kernels": rows}, indent=1) + "\n")


def replay(ttgir: Path, only: str, out: Path | None) -> None:
    """The pass as it runs by default (`profit=auto`, with the real compiler of $IRKIT_TRITON_PYTHON provided
    as irkit-opt provides it) on every kernel timed on the H100: what it does
    now (keep, the `always` module, or part of it), next to what the H100 measured for `profit=always` and (where
    timed) for that run's default.  A change of the cost model shows here as a changed decision, kernel by kernel."""
    from irkit.check.compiled_stats import provide_triton

    provide_triton()

    rows = []
    for f in TIMINGS:
        if only not in f:
            continue
        default_file = DATA / f.replace("_always", "_default")
        measured_default = {kernel_key(k): k for k in json.loads(default_file.read_text())["kernels"]} if default_file.exists() else {}
        for k in json.loads((DATA / f).read_text())["kernels"]:
            if "timing" not in k:
                continue
            key = kernel_key(k)
            original = (ttgir / f"{key}.ttgir").read_text()
            chosen, always = run_pass(ttgir / f"{key}.ttgir", "auto")[0], run_pass(ttgir / f"{key}.ttgir", "always")[0]
            then = measured_default.get(key, {})
            decision = "keep" if chosen.count("convert_layout") == original.count("convert_layout") else \
                "always" if chosen == always else "partial"
            row = {"kernel": key, "decision": decision,
                   "converts": [original.count("convert_layout"), chosen.count("convert_layout"), always.count("convert_layout")],
                   "always_ratio": round(k["timing"]["ratio"], 3), "always_sign": table.measured_sign(k["timing"]),
                   "run_default": then.get("status"),
                   "run_default_ratio": round(then["timing"]["ratio"], 3) if "timing" in then else None,
                   "run_default_sign": table.measured_sign(then["timing"]) if "timing" in then else None}
            rows.append(row)
            print(f"{key}: {decision} {row['converts']}; always {row['always_ratio']} ({row['always_sign']}); "
                  f"the run's default: {row['run_default']} {row['run_default_ratio'] or ''}", flush=True)
    if out:
        out.write_text(json.dumps({"command": "tools/cost_model_search.py replay", "kernels": rows}, indent=1) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("compile")
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--only", default="", help="only the timing files whose name contains this")
    sub.add_parser("search").add_argument("--ttgir", type=Path, required=True)
    c = sub.add_parser("compiled")
    c.add_argument("--ttgir", type=Path, required=True)
    c.add_argument("--json", type=Path)
    r = sub.add_parser("replay")
    r.add_argument("--ttgir", type=Path, required=True)
    r.add_argument("--only", default="", help="only the timing files whose name contains this")
    r.add_argument("--json", type=Path)
    args = ap.parse_args()
    if args.what == "compile":
        compile_all(args.out, args.only)
    elif args.what == "replay":
        replay(args.ttgir, args.only, args.json)
    elif args.what == "search":
        search(args.ttgir)
    else:
        compiled(args.ttgir, args.json)


if __name__ == "__main__":
    main()
