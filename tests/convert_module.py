"""A module holding one `ttg.convert_layout`, for the tests that measure one convert's scratch against a real
Triton (tests/test_warp_shuffles.py, tests/test_triton34_converts.py)."""

from __future__ import annotations


def convert_module(src: str, dst: str, tensor: str, target: str = "cuda:90") -> str:
    """`%x : tensor<tensor, src>` converted to `dst` in a function of its own (4 warps of 32 lanes)."""
    return f"""#src = {src}
#dst = {dst}
module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "{target}", "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @k(%x: tensor<{tensor}, #src>) -> tensor<{tensor}, #dst> {{
    %c = ttg.convert_layout %x : tensor<{tensor}, #src> -> tensor<{tensor}, #dst>
    tt.return %c : tensor<{tensor}, #dst>
  }}
}}
"""
