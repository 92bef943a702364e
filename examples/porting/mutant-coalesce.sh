#!/bin/sh
# A deliberately wrong "port" of tritongpu-coalesce, for `irkit-sweep --against` to catch (docs/porting.md):
# Triton's C++ pass with one rule changed: no access wider than 4 elements per thread (a 2-D layout's
# sizePerThread [1, 8] comes out as [1, 4]).  Usage: mutant-coalesce.sh FILE (the Triton: $IRKIT_TRITON_PYTHON).
set -e
irkit-ref --tritongpu-coalesce --mlir-print-debuginfo "$1" | sed 's/sizePerThread = \[1, 8\]/sizePerThread = [1, 4]/g'
