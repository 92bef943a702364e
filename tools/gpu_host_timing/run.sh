#!/usr/bin/env bash
# Run on the GPU machine: before and after alternately, PROCS processes each, REPS timed calls per process.
#   tools/gpu_host_timing/run.sh DIR_WITH_EXECUTABLES OUT.jsonl [PROCS] [REPS]
set -euo pipefail
dir="$1"; out="$2"; procs="${3:-3}"; reps="${4:-7}"
: > "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$out.gpu" 2>/dev/null || true
for p in $(seq "$procs"); do
  for v in before after; do
    "$dir/time_$v" "$v" 1000 "$reps" >> "$out" || echo "{\"variant\": \"$v\", \"exit\": $?}" >> "$out"
  done
done
cat "$out"
