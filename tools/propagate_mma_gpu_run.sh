#!/bin/bash
# irkit-check on the GPU: propagate-mma with its default options (profit=auto), with profit=always, and (in
# PIPES) with profit=model or profit=compiled, same machine, same run.
# Usage, from a checkout on a machine with an NVIDIA GPU, torch and Triton >= 3.4 (the xDSL, ordered_set and
# immutabledict wheels in $WHEELS when that Python cannot pip-install them), results in $OUT:
#   OUT=results WHAT="addmm attention shapes bias" SECS=2 bash tools/propagate_mma_gpu_run.sh
#   OUT=results WHAT=addmm PIPES="default model always" SECS=2 bash tools/propagate_mma_gpu_run.sh
#   OUT=results WHAT="addmm gelu silu bias" LANES=4 SECS=2 bash tools/propagate_mma_gpu_run.sh   # one GPU per lane
#   OUT=results WHAT="sizes shapes" PIPES=always FLAGS=--each-size LANES=2 bash tools/propagate_mma_gpu_run.sh
#   OUT=results WHAT="rowwise dropout sigmoid:default" LANES=4 SECS=2 bash tools/propagate_mma_gpu_run.sh
#   OUT=results WHAT="lora latent" PIPES=default FLAGS="--each-size --max-pairs 0" STOP_AFTER=450 \
#     REQUIRE="measured on the GPU" LANES=2 bash tools/propagate_mma_gpu_run.sh   # the measured default's decisions
# FLAGS: more irkit-check options for every run (--each-size: each kernel timed at every problem size).
# STOP_AFTER: seconds after which a lane starts no further program (a device call has a time limit; a program
# cut short writes no report).  REQUIRE: text every report must hold, else its lane stops (a first run's check).
# WHAT: programs, each run with every pipeline of PIPES, or with its own after a colon (sigmoid:default,always).
# LANES: on a machine with that many GPUs, the runs (program, pipeline) are dealt out in turn to LANES processes, each on
# its own GPU (CUDA_VISIBLE_DEVICES) and writing its log to $OUT/lane<i>.log: each kernel's before/after pair is
# still timed on one GPU, so its ratio means what it means in a one-lane run.
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
  echo "== $name: irkit-check -p '$pipe' --max-seconds $SECS $FLAGS -- $*" | tee $OUT/$name.txt
  eval $CHECK -p "'$pipe'" --max-seconds $SECS $FLAGS --json $OUT/$name.json -- "$@" 2>&1 | tee -a $OUT/$name.txt
}
SECS=${SECS:-2}
# PIPES: which pipelines, each run over every program in WHAT: default (no options: profit=auto), model,
# always, compiled.  (Before profit=auto, the default was profit=model: runs named *_model.json up to e08564a.)
declare -A PIPELINE=([default]=propagate-mma [model]='propagate-mma{profit=model}' [always]='propagate-mma{profit=always}'
                     [compiled]='propagate-mma{profit=compiled}')
declare -A PROGRAM=([addmm]=examples/gpu/addmm.py [attention]=examples/gpu/attention.py [shapes]=bench/propagate_mma_shapes.py
                     [sizes]=bench/propagate_mma_sizes.py
                     [bias]=examples/gpu/gemm_bias.py [scale]=examples/gpu/gemm_scale.py
                     [colmajor]=examples/gpu/gemm_colmajor.py [swiglu]=examples/gpu/gemm_swiglu.py
                     [gelu]=examples/gpu/gemm_gelu_residual.py [batched]=examples/gpu/gemm_batched_rowscale.py
                     [gated]=examples/gpu/gemm_gated_residual.py [silu]=examples/gpu/gemm_silu_scaled.py
                     [linear]=examples/gpu/linear_relu2.py [rowsum]=examples/gpu/gemm_rowsum.py
                     [atclamp]=examples/gpu/gemm_at_clamp.py [btscale]=examples/gpu/gemm_bt_scale.py
                     [sigmoid]=examples/gpu/gemm_sigmoid_gate.py [rowwise]=examples/gpu/gemm_rowwise_scaled.py
                     [dropout]=examples/gpu/gemm_dropout_residual.py
                     [persistent]=examples/gpu/gemm_persistent_residual.py [tma]=examples/gpu/gemm_tma_epilogue.py
                     [tf32]=examples/gpu/gemm_tf32_residual.py [softplus]=examples/gpu/gemm_softplus_scaled.py
                     [f16acc]=examples/gpu/gemm_f16acc_residual.py [geluaux]=examples/gpu/gemm_gelu_aux.py
                     [fp8out]=examples/gpu/gemm_fp8_out.py [skinny]=examples/gpu/gemm_skinny_residual.py
                     [router]=examples/gpu/gemm_router_softmax.py [accumulate]=examples/gpu/gemm_accumulate.py
                     [lora]=examples/gpu/gemm_lora_up.py [latent]=examples/gpu/gemm_latent_up.py
                     [patch]=examples/gpu/gemm_patch_embed.py [latentk]="examples/gpu/gemm_latent_up.py --longer-k"
                     [layerscale]=examples/gpu/gemm_layerscale_residual.py
                     [tokenscale]=examples/gpu/gemm_token_scaled_residual.py
                     [softcap]=examples/gpu/gemm_softcap_logits.py
                     [bottleneck]=examples/gpu/gemm_bottleneck_residual.py
                     [attnout]=examples/gpu/gemm_attn_out_residual.py
                     [tanhres]=examples/gpu/gemm_tanh_residual.py
                     [mishres]=examples/gpu/gemm_mish_residual.py
                     [gelucol]=examples/gpu/gemm_gelu_colscale.py
                     [hswish]=examples/gpu/gemm_hardswish_residual.py)
runs_of() {  # what... -> program:pipe for each pipeline of PIPES (or of the item's own: sigmoid:default)
  for what in "$@"; do
    local pipes=${PIPES:-default always}
    [[ $what == *:* ]] && pipes=${what#*:} && pipes=${pipes//,/ }
    for pipe in $pipes; do echo "${what%%:*}:$pipe"; done
  done
}
programs() {  # program:pipe...
  for job in "$@"; do
    local what=${job%%:*} pipe=${job#*:}
    if [ -n "$STOP_AFTER" ] && [ $SECONDS -ge "$STOP_AFTER" ]; then echo "== ${what}_$pipe: not started (STOP_AFTER)"; continue; fi
    run ${what}_$pipe "${PIPELINE[$pipe]}" python3 $REPO/${PROGRAM[$what]}
    if [ -n "$REQUIRE" ] && ! grep -q "$REQUIRE" $OUT/${what}_$pipe.json 2>/dev/null; then
      echo "== ${what}_$pipe: its report lacks '$REQUIRE': this lane stops"; return 1
    fi
  done
}
LANES=${LANES:-1}
if [ "$LANES" -le 1 ]; then
  programs $(runs_of ${WHAT:-addmm})
  exit
fi
declare -a LANE
i=0  # one program's pipelines may go to different GPUs: each before/after pair is still timed on one
for job in $(runs_of ${WHAT:-addmm}); do LANE[$((i % LANES))]+="$job "; i=$((i + 1)); done
for lane in $(seq 0 $((LANES - 1))); do
  [ -n "${LANE[$lane]}" ] || continue
  echo "lane $lane (GPU $lane): ${LANE[$lane]}"
  (export CUDA_VISIBLE_DEVICES=$lane; programs ${LANE[$lane]} > $OUT/lane$lane.log 2>&1) &
done
wait
