#!/bin/bash
# irkit-check on the GPU: propagate-mma with its default cost model and with profit=always, same machine, same run.
# Usage, from a checkout on a machine with an NVIDIA GPU, torch and Triton >= 3.4 (the xDSL, ordered_set and
# immutabledict wheels in $WHEELS when that Python cannot pip-install them), results in $OUT:
#   OUT=results WHAT="addmm attention shapes" SECS=2 bash tools/propagate_mma_gpu_run.sh
set -o pipefail
REPO=$(pwd)
rm -rf /tmp/profit_site; python3 -m pip install -q --no-index --no-deps --target /tmp/profit_site ${WHEELS:-.profit_run}/*.whl || exit 1
rm -rf /tmp/profit_src; mkdir -p /tmp/profit_src && cp -r irkit /tmp/profit_src/ && cp -r passes /tmp/profit_src/irkit/passes
export PYTHONPATH=/tmp/profit_site:/tmp/profit_src PYTHONUNBUFFERED=1
cd /tmp  # not the repo root: python -c would import its irkit/ (no passes/ inside) first
CHECK="python3 -c 'import sys; from irkit.check.cli import main; main(sys.argv[1:])'"
python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__, torch.cuda.get_device_name())"
ls $REPO/irkit/analysis/cost_model.py $REPO/bench/propagate_mma_shapes.py | tee $OUT/commit.txt
run() {  # name pipeline program...
  local name=$1 pipe=$2; shift 2
  echo "== $name: irkit-check -p '$pipe' --max-seconds $SECS -- $*" | tee $OUT/$name.txt
  eval $CHECK -p "'$pipe'" --max-seconds $SECS --json $OUT/$name.json -- "$@" 2>&1 | tee -a $OUT/$name.txt
}
SECS=${SECS:-2}
for what in ${WHAT:-addmm}; do
  case $what in
    addmm) run addmm_model propagate-mma python3 $REPO/examples/gpu/addmm.py
           run addmm_always 'propagate-mma{profit=always}' python3 $REPO/examples/gpu/addmm.py ;;
    attention) run attention_model propagate-mma python3 $REPO/examples/gpu/attention.py
               run attention_always 'propagate-mma{profit=always}' python3 $REPO/examples/gpu/attention.py ;;
    shapes) run shapes_model propagate-mma python3 $REPO/bench/propagate_mma_shapes.py
            run shapes_always 'propagate-mma{profit=always}' python3 $REPO/bench/propagate_mma_shapes.py ;;
  esac
done
