"""Register the default's decisions on a held-out GEMM program before its GPU run (docs/propagate-mma-results/notes.md).

A held-out round times a program the profit rule was never chosen on.  Its decisions are committed first, from
this CPU: each kernel is compiled with a real Triton for cuda:90 as the program's launches specialise it
(`cost_model_search`'s launch table), then the pass itself decides, compiler check included.  Two steps, each in
its own Python:

    /path/to/triton36/bin/python tools/heldout_register.py compile rowwise --out /tmp/r23_ttgir
    IRKIT_TRITON_PYTHON=/path/to/triton36/bin/python .venv/bin/python tools/heldout_register.py decide rowwise \\
        --ttgir /tmp/r23_ttgir >> docs/propagate-mma-results/r23_predictions_cpu.txt

`decide` prints one line per kernel in the form `tools/propagate_mma_round.py --predictions` reads:
`PROGRAM KERNEL: rewrite | keep; conversions A -> B; SASS cost C; loop schedule ...; the criterion that decided`
(the figures and criterion from the pass's own remark).
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import cost_model_search as launches  # tools/: the example programs' launch table and a compile as a launch makes it

ROOT = Path(__file__).resolve().parents[1]
SHORT = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32", "float8_e4m3fn": "fp8", "int8": "int8"}


def _report(name: str, ints: list[int], config: tuple, flags: dict) -> dict:
    """A kernel as irkit-check's JSON report names it (what `kernel_key` and `_specialised` read): `ints`, the
    launch's integer arguments in order, M, N and K first."""
    bm, bn, bk, warps, stages = config
    return {"name": name, "launch_metadata": {"name": name}, "family": [None, ints],
            "config": {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "num_warps": warps, "num_stages": stages, **flags}}


def _program(module: str) -> SimpleNamespace:
    """An example program's CONFIGS and SIZES (and PATCHES, LONGER_K, where it has them), read from its source (both
    Pythons read them; irkit's has no Triton to import the program with)."""
    tree = ast.parse((ROOT / "examples" / "gpu" / f"{module}.py").read_text())
    found = {node.targets[0].id: ast.literal_eval(node.value) for node in tree.body
             if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
             and node.targets[0].id in ("CONFIGS", "SIZES", "PATCHES", "LONGER_K")}
    return SimpleNamespace(**found)


def _row_major(matrices_of_n_columns: int) -> Callable[[int, int, int], list[int]]:
    """The integer arguments of a launch on row-major matrices: M, N and K, A's strides (K, 1), then (N, 1) for each
    of the `matrices_of_n_columns` (B, the epilogue's operands and the output, in the kernel's order)."""
    return lambda m, n, k: [m, n, k, k, 1, *[n, 1] * matrices_of_n_columns]


def _output_sweep(module: str, ints: Callable[[int, int, int], list[int]],
                  sizes: list | None = None) -> Iterator[dict]:
    """A program whose SIZES (or `sizes`, in their form) give each size its output dtypes (the OUT_F32 flag) and
    whose kernel is named `<module>_kernel out=<dtype>`; `ints(m, n, k)`: its launch's integer arguments."""
    program = _program(module)
    for (m, n, k), dtypes in sizes or program.SIZES:
        for dtype in dtypes:
            for config in program.CONFIGS:
                yield _report(f"{module}_kernel out={SHORT[dtype]}", ints(m, n, k), config,
                              {"OUT_F32": dtype == "float32"})


def _latent_longer_k() -> Iterator[dict]:
    """examples/gpu/gemm_latent_up.py --longer-k (round 36's probe): its second size's M and N at each of LONGER_K,
    fp16 and fp32 out."""
    program = _program("gemm_latent_up")
    m, n, _ = program.SIZES[1][0]
    yield from _output_sweep("gemm_latent_up", _row_major(3),
                             [((m, n, k), ("float16", "float32")) for k in program.LONGER_K])


def _linear() -> Iterator[dict]:
    """examples/gpu/linear_relu2.py (round 15): row-major X, W stored N x K, R and Y; SIZES give each size its output
    dtypes and whether it adds the residual (RES)."""
    program = _program("linear_relu2")
    for (m, n, k), dtypes, residual in program.SIZES:
        for dtype in dtypes:
            for config in program.CONFIGS:
                yield _report(f"linear_relu2_kernel out={SHORT[dtype]} RES={residual}", [m, n, k, k, 1, k, 1, n, 1, n, 1],
                              config, {"OUT_F32": dtype == "float32", "RES": residual})


def _rowwise() -> Iterator[dict]:
    """examples/gpu/gemm_rowwise_scaled.py (round 23): row-major A and C, B stored N x K; SIZES give each size its
    (operand, output) dtypes."""
    program = _program("gemm_rowwise_scaled")
    for (m, n, k), kinds in program.SIZES:
        for source, out in kinds:
            for config in program.CONFIGS:
                yield _report(f"gemm_rowwise_scaled_kernel in={SHORT[source]} out={SHORT[out]}",
                              [m, n, k, k, 1, k, 1, n, 1], config,
                              {"INT8": source == "int8", "OUT_F32": out == "float32"})


DEVICE_SMS = 132  # the H200's (and the H100 SXM's) SMs, as irkit-check reads them from the device

PROGRAMS: dict[str, Callable[[], Iterator[dict]]] = {
    "linear": _linear,
    # examples/gpu/gemm_at_clamp.py (round 17): A stored K x M (row-major A^T), row-major B and C
    "atclamp": lambda: _output_sweep("gemm_at_clamp", lambda m, n, k: [m, n, k, m, 1, n, 1, n, 1]),
    # examples/gpu/gemm_sigmoid_gate.py (round 22): row-major A, B, G and C
    "sigmoid": lambda: _output_sweep("gemm_sigmoid_gate", _row_major(3)),
    "rowwise": _rowwise,
    # examples/gpu/gemm_dropout_residual.py (round 23): row-major A, B, the byte mask, R and C
    "dropout": lambda: _output_sweep("gemm_dropout_residual", _row_major(4)),
    # examples/gpu/gemm_persistent_residual.py (round 24): row-major A, B, R and C; one program per SM of an H100
    # or H200 (DEVICE_SMS), fewer tiles than that at no size and config it runs
    "persistent": lambda: _output_sweep("gemm_persistent_residual",
                                        lambda m, n, k: [*_row_major(3)(m, n, k), DEVICE_SMS]),
    # examples/gpu/gemm_tma_epilogue.py (round 26): A, B and C host tensor descriptors, a row-major R
    "tma": lambda: _output_sweep("gemm_tma_epilogue", lambda m, n, k: [m, n, k, n, 1]),
    # examples/gpu/gemm_tf32_residual.py (round 26): row-major A, B, R and C
    "tf32": lambda: _output_sweep("gemm_tf32_residual", _row_major(3)),
    # examples/gpu/gemm_softplus_scaled.py (round 27): row-major A, B, R and C
    "softplus": lambda: _output_sweep("gemm_softplus_scaled", _row_major(3)),
    # examples/gpu/gemm_f16acc_residual.py (round 28): row-major A, B, R and C, all fp16
    "f16acc": lambda: _output_sweep("gemm_f16acc_residual", _row_major(3)),
    # examples/gpu/gemm_gelu_aux.py (round 29): row-major A, B, Z and C
    "geluaux": lambda: _output_sweep("gemm_gelu_aux", _row_major(3)),
    # examples/gpu/gemm_fp8_out.py (round 30): row-major A, B and C
    "fp8out": lambda: _output_sweep("gemm_fp8_out", _row_major(2)),
    # examples/gpu/gemm_skinny_residual.py (round 31): row-major A, B, R and C, all fp16
    "skinny": lambda: _output_sweep("gemm_skinny_residual", _row_major(3)),
    # examples/gpu/gemm_router_softmax.py (round 32): row-major A, W and P
    "router": lambda: _output_sweep("gemm_router_softmax", _row_major(2)),
    # examples/gpu/gemm_accumulate.py (round 33): row-major A, B and C
    "accumulate": lambda: _output_sweep("gemm_accumulate", _row_major(2)),
    # examples/gpu/gemm_lora_up.py (round 34): row-major A, B, the base output and Y
    "lora": lambda: _output_sweep("gemm_lora_up", _row_major(3)),
    # examples/gpu/gemm_latent_up.py (round 35): row-major C, W, R and Y
    "latent": lambda: _output_sweep("gemm_latent_up", _row_major(3)),
    # examples/gpu/gemm_latent_up.py --longer-k (round 36's probe of the epilogue-bound rule)
    "latentk": _latent_longer_k,
    # examples/gpu/gemm_layerscale_residual.py (round 39): row-major X, W, R and Y
    "layerscale": lambda: _output_sweep("gemm_layerscale_residual", _row_major(3)),
    # examples/gpu/gemm_token_scaled_residual.py (round 40): row-major X, W, R and Y
    "tokenscale": lambda: _output_sweep("gemm_token_scaled_residual", _row_major(3)),
    # examples/gpu/gemm_softcap_logits.py (round 41): row-major X, W and Y
    "softcap": lambda: _output_sweep("gemm_softcap_logits", _row_major(2)),
    # examples/gpu/gemm_bottleneck_residual.py (round 42): row-major X, W, R and Y
    "bottleneck": lambda: _output_sweep("gemm_bottleneck_residual", _row_major(3)),
    # examples/gpu/gemm_attn_out_residual.py (round 43): row-major X, W, R and Y
    "attnout": lambda: _output_sweep("gemm_attn_out_residual", _row_major(3)),
    # examples/gpu/gemm_tanh_residual.py (round 44): row-major X, W, R and Y
    "tanhres": lambda: _output_sweep("gemm_tanh_residual", _row_major(3)),
    # examples/gpu/gemm_mish_residual.py (round 46): row-major X, W, R and Y
    "mishres": lambda: _output_sweep("gemm_mish_residual", _row_major(3)),
    # examples/gpu/gemm_gelu_colscale.py (round 48): row-major X, W, R and Y
    "gelucol": lambda: _output_sweep("gemm_gelu_colscale", _row_major(3)),
    # examples/gpu/gemm_hardswish_residual.py (round 50): row-major X, W, R and Y
    "hswish": lambda: _output_sweep("gemm_hardswish_residual", _row_major(3)),
    # examples/gpu/gemm_patch_embed.py (round 36): row-major X, W, the position embedding and Y; PATCHES per K
    "patch": lambda: _output_sweep("gemm_patch_embed", lambda m, n, k: [m, n, k, _program("gemm_patch_embed").PATCHES[k],
                                                                         k, 1, n, 1, n, 1, n, 1]),
}


def compile_program(program: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for k in PROGRAMS[program]():
        path = out / f"{launches.kernel_key(k)}.ttgir"
        if path.exists():
            continue
        fn, sig, consts, values = launches._specialised(k)
        sig.update({n: "constexpr" for n in consts})  # as cost_model_search.compile_all, for the same reason
        path.write_text(launches._compile(fn, sig, consts, launches._divisible(values), k["config"]["num_warps"],
                                          k["config"]["num_stages"]))
        print(path.name, flush=True)


def _figures(remark: str) -> str:
    """The SASS cost, the loop schedule and the criterion from a compiler-check remark."""
    parts = []
    for pattern in (r"SASS cost [-+]?[\d,]+", r"loop schedule [\d,]+ -> [\d,]+"):
        m = re.search(pattern, remark)
        if m:
            parts.append(m.group(0))
    start = remark.find("cycles/iteration; ")
    if start >= 0:
        parts.append(_up_to_unopened_paren(remark[start + len("cycles/iteration; "):]))
    return "; ".join(parts)


def _up_to_unopened_paren(text: str) -> str:
    """`text` up to its first ')' that closes nothing opened in it: the criterion ends where the compiled figures'
    parenthesis does, and may hold parentheses of its own ("(loop terms -1)")."""
    depth = 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return text[:i]
    return text


def _scalars(k: dict) -> dict[str, int]:
    """The launch's integer arguments by name, as irkit-check gives them to its rewriter."""
    return dict(zip(launches.GEMM_LAUNCHES[k["name"].split()[0]].ints, k["family"][1], strict=True))


GRID_NOT_PLAIN = {"persistent"}  # programs whose launch is not one CTA per BLOCK_M x BLOCK_N tile


def _launch_ctas(program: str, k: dict) -> int | None:
    """The CTAs of a launch whose grid is one CTA per output tile (cdiv(M, BLOCK_M) x cdiv(N, BLOCK_N)); None for
    the programs that launch otherwise."""
    if program in GRID_NOT_PLAIN:
        return None
    m, n = k["family"][1][:2]
    return -(-m // k["config"]["BLOCK_M"]) * -(-n // k["config"]["BLOCK_N"])


def launch_pipeline(program: str, k: dict, path: Path) -> str:
    """propagate-mma as irkit-check's rewriter runs it on kernel `k` (its TTGIR at `path`): given how many times the
    launch runs the main loop, its CTAs and the device's SMs."""
    from irkit.check.rewrite import launch_trips  # irkit's Python (`compile` runs under Triton's)

    trips = launch_trips(path.read_text(), str(path), _scalars(k))
    ctas = _launch_ctas(program, k)
    facts = [f"main-loop-trips={trips}"] if trips is not None else []
    facts += [f"launch-ctas={ctas}", f"device-sms={DEVICE_SMS}"] if ctas is not None else []
    return f"propagate-mma{{{' '.join(facts)}}}" if facts else "propagate-mma"


def decide(program: str, ttgir: Path) -> None:
    from irkit.check.binary_metrics import convert_layout_count  # irkit's Python (`compile` runs under Triton's)

    for k in PROGRAMS[program]():
        key = launches.kernel_key(k)
        path = ttgir / f"{key}.ttgir"
        pipeline = launch_pipeline(program, k, path)
        run = subprocess.run([sys.executable, "-m", "irkit", "-p", pipeline, "--mlir-print-remarks", str(path)],
                             capture_output=True, text=True)
        if run.returncode:
            raise SystemExit(f"{path}: irkit-opt failed:\n{run.stderr}")
        before, after = convert_layout_count(path.read_text()), convert_layout_count(run.stdout)
        remarks = [line for line in run.stderr.splitlines() if "remark: propagate-mma" in line]
        compiled = [line for line in remarks if "SASS cost" in line]
        model = [m.group(0) for line in remarks for m in [re.search(r"model: [-+][\d,]+ cycles/CTA", line)] if m]
        verdict = "rewrite" if after < before else "keep"
        if compiled:
            figures = _figures(compiled[0])
        elif verdict == "rewrite":  # the guard compiled the IR model's own removal and let it stand, saying nothing
            figures = f"the IR model's own rewrite ({', '.join(model)}), not undone"
        else:
            figures = f"kept by the IR model ({', '.join(model)}); no compiler-check remark"
        print(f"{program} {key}: {verdict}; conversions {before} -> {after}; {figures}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=("compile", "decide"))
    ap.add_argument("program", choices=sorted(PROGRAMS))
    ap.add_argument("--out", type=Path, help="compile: the folder to write each kernel's TTGIR to")
    ap.add_argument("--ttgir", type=Path, help="decide: the folder `compile` wrote")
    args = ap.parse_args(argv)
    if args.step == "compile":
        compile_program(args.program, args.out or ap.error("compile needs --out"))
    else:
        decide(args.program, args.ttgir or ap.error("decide needs --ttgir"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
