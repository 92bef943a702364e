"""MLIR's GPU host dialects as `mlir-opt` prints them: `func`, `gpu` (modules, kernels, launches,
waits, binaries) and the `llvm` calls `gpu-to-llvm` leaves behind (seed 001).

xDSL 0.74 reads these ops only in generic form; irkit gives them IRDL classes here and their
hand-written C++ syntax in `irkit.frontend.gpu_syntax`.  Operand segments follow MLIR 22's ODS
(`gpu.launch_func` has 13), so the generic form is the one mlir-opt-22 prints.
"""

from __future__ import annotations

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    attr_def,
    operand_def,
    opt_attr_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator, Pure, SymbolOpInterface, SymbolTable

from irkit.dialects.base import TritonOp, irkit_op
from irkit.dialects.types import GpuAsyncTokenType


@irkit_op
class FuncOp(TritonOp):
    """`func.func`: the host function around the launches."""

    name = "func.func"
    body = region_def()
    sym_name = prop_def()
    function_type = prop_def()
    sym_visibility = opt_prop_def()
    arg_attrs = opt_prop_def()
    res_attrs = opt_prop_def()
    traits = traits_def(SymbolOpInterface(), IsolatedFromAbove())


@irkit_op
class ReturnOp(TritonOp):
    name = "func.return"
    srcs = var_operand_def()
    traits = traits_def(IsTerminator())
    FORMAT = "attr-dict ($srcs^ `:` type($srcs))?"


@irkit_op
class CallOp(TritonOp):
    """`func.call`: a host call; the stream hoisting refuses loops that hold one."""

    name = "func.call"
    callee = prop_def()
    args = var_operand_def()
    res = var_result_def()
    arg_attrs = opt_prop_def()
    res_attrs = opt_prop_def()


@irkit_op
class GPUModuleOp(TritonOp):
    """`gpu.module @name [targets] { kernels }`."""

    name = "gpu.module"
    body = region_def()
    sym_name = prop_def()
    targets = opt_prop_def()
    offloadingHandler = opt_prop_def()
    traits = traits_def(SymbolOpInterface(), IsolatedFromAbove(), NoTerminator(), SymbolTable())


@irkit_op
class GPUFuncOp(TritonOp):
    """`gpu.func @k(args) kernel attributes {...} { body }` (no workgroup/private attributions)."""

    name = "gpu.func"
    body = region_def()
    sym_name = attr_def()  # a discardable attribute in MLIR's generic form, as workgroup_attributions
    workgroup_attributions = opt_attr_def()
    function_type = prop_def()
    arg_attrs = opt_prop_def()
    res_attrs = opt_prop_def()
    workgroup_attrib_attrs = opt_prop_def()
    private_attrib_attrs = opt_prop_def()
    traits = traits_def(SymbolOpInterface(), IsolatedFromAbove())
    KERNEL_KEYWORD = "gpu.kernel"  # the unit attribute the keyword `kernel` stands for


@irkit_op
class GPUReturnOp(TritonOp):
    name = "gpu.return"
    srcs = var_operand_def()
    traits = traits_def(IsTerminator())
    FORMAT = "attr-dict ($srcs^ `:` type($srcs))?"


@irkit_op
class LaunchFuncOp(TritonOp):
    """`gpu.launch_func`: synchronous (no result) or `async [deps]` (a token result)."""

    name = "gpu.launch_func"
    asyncDependencies = var_operand_def()
    gridSizeX = operand_def()
    gridSizeY = operand_def()
    gridSizeZ = operand_def()
    blockSizeX = operand_def()
    blockSizeY = operand_def()
    blockSizeZ = operand_def()
    clusterSizeX = opt_operand_def()
    clusterSizeY = opt_operand_def()
    clusterSizeZ = opt_operand_def()
    dynamicSharedMemorySize = opt_operand_def()
    kernelOperands = var_operand_def()
    asyncObject = opt_operand_def()
    asyncToken = opt_result_def(GpuAsyncTokenType)
    kernel = prop_def(SymbolRefAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def on_stream(self, token: SSAValue) -> LaunchFuncOp:
        """This synchronous launch as `gpu.launch_func async [token]` (a token result)."""
        from xdsl.dialects.builtin import DenseArrayBase, IntegerType

        sizes = list(self.properties["operandSegmentSizes"].get_values())
        props = dict(self.properties)
        props["operandSegmentSizes"] = DenseArrayBase.from_list(IntegerType(32), [1, *sizes[1:]])
        return LaunchFuncOp.create(operands=[token, *self.operands], result_types=[GpuAsyncTokenType()],
                                   properties=props, attributes=dict(self.attributes))


@irkit_op
class WaitOp(TritonOp):
    """`gpu.wait async [deps]` (creates a stream in the lowering) or `gpu.wait [deps]` (synchronizes)."""

    name = "gpu.wait"
    asyncDependencies = var_operand_def()
    asyncToken = opt_result_def(GpuAsyncTokenType)

    @staticmethod
    def build_async(deps: list[SSAValue]) -> WaitOp:
        return WaitOp.create(operands=list(deps), result_types=[GpuAsyncTokenType()])

    @staticmethod
    def build_sync(deps: list[SSAValue]) -> WaitOp:
        return WaitOp.create(operands=list(deps))


@irkit_op
class BinaryOp(TritonOp):
    """`gpu.binary @name [<handler>] [objects]`: a serialized `gpu.module` (after gpu-module-to-binary)."""

    name = "gpu.binary"
    sym_name = prop_def()
    offloadingHandler = opt_prop_def()
    objects = prop_def()
    traits = traits_def(SymbolOpInterface())


@irkit_op
class LLVMFuncOp(TritonOp):
    """`llvm.func @mgpuStreamSynchronize(!llvm.ptr)`: a runtime declaration (custom form as func.func's; the
    type is kept as a builtin function type, so irkit's generic form of it is not LLVM's)."""

    name = "llvm.func"
    body = region_def()
    sym_name = prop_def()
    function_type = prop_def()
    sym_visibility = opt_prop_def()
    arg_attrs = opt_prop_def()
    res_attrs = opt_prop_def()
    traits = traits_def(SymbolOpInterface(), IsolatedFromAbove())

    @staticmethod
    def declaration(name: str, inputs: list, outputs: list) -> LLVMFuncOp:
        from xdsl.dialects.builtin import FunctionType, StringAttr

        return LLVMFuncOp.create(regions=[Region()], properties={
            "sym_name": StringAttr(name), "function_type": FunctionType.from_lists(inputs, outputs)})


@irkit_op
class LLVMCallOp(TritonOp):
    """`llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()`: after gpu-to-llvm, each runtime call."""

    name = "llvm.call"
    callee = prop_def()
    args = var_operand_def()
    res = var_result_def()

    @staticmethod
    def to(callee: str, args: list[SSAValue], results: list) -> LLVMCallOp:
        return LLVMCallOp.create(operands=list(args), result_types=list(results),
                                 properties={"callee": SymbolRefAttr(callee)})


@irkit_op
class SubgroupIdOp(TritonOp):
    """`gpu.subgroup_id : index`: device code's sub-group id (Intel's kernels, Triton's liveness test); the
    `upper_bound` MLIR 22 may write is not read."""

    name = "gpu.subgroup_id"
    result = result_def()
    traits = traits_def(Pure())
    FORMAT = "attr-dict `:` type($result)"


GPU_HOST_OPS = [FuncOp, ReturnOp, CallOp, GPUModuleOp, GPUFuncOp, GPUReturnOp, LaunchFuncOp, WaitOp, BinaryOp, LLVMFuncOp, LLVMCallOp,
                SubgroupIdOp]
