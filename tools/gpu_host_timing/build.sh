#!/usr/bin/env bash
# Build, on this CPU machine, the before/after executables that time the seed's 1000-launch loop on a GPU.
#   tools/gpu_host_timing/build.sh OUTDIR [INPUT.mlir]     (default input: tests/data/gpu_host/seed.mlir)
# before: the input; after: irkit-opt --hoist-launch-stream of it.  Same lowering for both (MLIR 22, NVVM, PTX
# embedded and JIT-loaded once by a global constructor), then mlir-translate-22, llc-22, and the system cc
# with mgpu_cuda.c (CUDA driver API through dlopen) and time_loop.c.  The executables need only libcuda.so.1.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"; root="$here/../.."
out="$1"; input="${2:-$root/tests/data/gpu_host/seed.mlir}"
mkdir -p "$out"
lowering="$(cd "$root" && python3 -c 'import sys; sys.path.insert(0, "."); from irkit.check.mlir_gpu import LOWERING; print(LOWERING)' 2>/dev/null \
  || "$root/.venv/bin/python" -c 'from irkit.check.mlir_gpu import LOWERING; print(LOWERING)')"
opt="${IRKIT_OPT:-$root/.venv/bin/irkit-opt}"
sed 's/func.func @main()/func.func @loop()/' "$input" > "$out/before.mlir"
"$opt" "$out/before.mlir" --hoist-launch-stream > "$out/after.mlir"
for v in before after; do
  mlir-opt-22 "$out/$v.mlir" --pass-pipeline="$lowering" -o "$out/$v.lowered.mlir"
  mlir-translate-22 --mlir-to-llvmir "$out/$v.lowered.mlir" -o "$out/$v.ll"
  llc-22 -O2 -filetype=obj -relocation-model=pic "$out/$v.ll" -o "$out/$v.o"
  cc -O2 -o "$out/time_$v" "$here/time_loop.c" "$here/mgpu_cuda.c" "$out/$v.o" -ldl
done
echo "built $out/time_before $out/time_after"
