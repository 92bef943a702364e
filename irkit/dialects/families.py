"""Op families that span dialects, for analyses and passes to match ops by class (isinstance).

Only ops irkit has a class for belong to a family.  MLIR's host `func.func`/`func.call` (seed 001,
irkit/dialects/gpu_host.py) are not Triton functions and stay out of these.  An op it has no class for
(`scf.index_switch`, ...) is parsed, under --allow-unregistered-dialect only, as
xDSL's `UnregisteredOp`, whose `name` is "builtin.unregistered": analyses treat it as an opaque op, never
as a function, call or branch.
"""

from __future__ import annotations

from xdsl.dialects import scf

from irkit.dialects.tt import CallOp, DotOp, DotScaledOp, FuncOp
from irkit.dialects.ttng import TCGen5MMAOp, TCGen5MMAScaledOp, WarpGroupDotOp

FUNCTION_OPS = (FuncOp,)
CALL_OPS = (CallOp,)
# the ops that multiply tiles on the tensor cores (a kernel's main loop is the loop around them)
MMA_OPS = (DotOp, DotScaledOp, WarpGroupDotOp, TCGen5MMAOp, TCGen5MMAScaledOp)
# RegionBranchOpInterface ops whose branches the dataflow analyses follow
REGION_BRANCH_OPS = (scf.ForOp, scf.IfOp, scf.WhileOp, scf.ExecuteRegionOp)
# terminators that hand values back to their region-branch parent
REGION_TERMINATORS = (scf.YieldOp, scf.ConditionOp)
