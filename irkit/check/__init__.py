"""irkit-check: validate a pass on the real Triton compiler (static mode) and on the GPU (run mode).

Modules that the checked program's own Python imports (run mode) use only the standard library,
torch and triton, never xDSL: `binary_metrics`, `measure`, `capture`, `hook`, `torch_backend`,
`compile_worker`.  The rest (`static`, `rewrite`, `cli`, `render`) runs in irkit's Python.
"""
