"""Layout attributes (tensor encodings) of TritonGPU, NVIDIA, AMD and Intel.

Each layout is an IRDL attribute whose parameters are named after the keys
Triton prints (`sizePerThread`, `warpsPerCTA`, ...).  Triton prints them as a
struct `<{key = value, ...}>`; the keys a layout has vary between Triton
versions (amd_mfma has `versionMajor`/`versionMinor` in 3.1 and `version` in
3.9), so every parameter is optional (`NoneAttr` when absent) and `FIELDS`
lists the keys in the order the C++ printer emits them.  A layout whose text
has a key irkit does not know is kept as an `OpaqueAttr` instead, so that it
still prints back exactly.

Canonical names use the current spelling (`ttg.`, `ttig.`); the printer maps
them to `triton_gpu.`/`triton_intel_gpu.` for modules written in the 3.1
spelling.
"""

from __future__ import annotations

from typing import Any, ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntAttr, NoneAttr, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition

# Kinds of struct fields, which decide how a value is parsed and printed.
INT = "int"  # 4
INTS = "ints"  # [1, 4]
INTSS = "intss"  # [[0, 1], [1, 0]]
BOOL = "bool"  # true / false
ATTR = "attr"  # #blocked (a nested layout)

PyValue = Any  # int | bool | tuple[int, ...] | tuple[tuple[int, ...], ...] | Attribute


def _to_attr(kind: str, value: PyValue) -> Attribute:
    if value is None:
        return NoneAttr()
    if kind == INT or kind == BOOL:
        return IntAttr(int(value))
    if kind == INTS:
        return ArrayAttr(tuple(IntAttr(v) for v in value))
    if kind == INTSS:
        return ArrayAttr(tuple(ArrayAttr(tuple(IntAttr(v) for v in b)) for b in value))
    return value


def _to_py(kind: str, attr: Attribute) -> PyValue:
    if isinstance(attr, NoneAttr):
        return None
    if kind == INT:
        return attr.data
    if kind == BOOL:
        return bool(attr.data)
    if kind == INTS:
        return tuple(v.data for v in attr.data)
    if kind == INTSS:
        return tuple(tuple(v.data for v in b.data) for b in attr.data)
    return attr


class StructLayoutAttr(ParametrizedAttribute):
    """Base of the layouts printed as `#dialect.name<{key = value, ...}>`."""

    FIELDS: ClassVar[tuple[tuple[str, str], ...]] = ()

    @classmethod
    def from_values(cls, **values: PyValue):
        """Build from Python values keyed by the printed key; absent keys are None."""
        unknown = set(values) - {k for k, _ in cls.FIELDS}
        if unknown:
            raise ValueError(f"{cls.name}: unknown parameters {sorted(unknown)}")
        return cls.new([_to_attr(kind, values.get(key)) for key, kind in cls.FIELDS])

    def values(self) -> dict[str, PyValue]:
        """The present parameters as Python values, in printing order (cached)."""
        cached = self.__dict__.get("_values")
        if cached is not None:
            return cached
        out: dict[str, PyValue] = {}
        for key, kind in self.FIELDS:
            attr = getattr(self, key)
            if not isinstance(attr, NoneAttr):
                out[key] = _to_py(kind, attr)
        self.__dict__["_values"] = out  # attributes are immutable: safe to cache
        return out

    def get(self, key: str, default: PyValue = None) -> PyValue:
        return self.values().get(key, default)

    def replace(self, **changes: PyValue):
        """A copy with some parameters changed (None removes one)."""
        values = dict(self.values())
        values.update(changes)
        return type(self).from_values(**{k: v for k, v in values.items() if v is not None})


def layout_attr(cls: type[StructLayoutAttr]) -> type[StructLayoutAttr]:
    """`irdl_attr_definition` for a layout: its IRDL parameters are its FIELDS, in order, so each key is
    named once (the parameter holds the attribute; `get(key)`/`values()` give Python values)."""
    annotations = dict(cls.__dict__.get("__annotations__", {}))
    for key, _kind in cls.FIELDS:
        annotations.setdefault(key, Attribute)
    cls.__annotations__ = annotations
    return irdl_attr_definition(cls)


_CTA_FIELDS = (
    ("CTAsPerCGA", INTS),
    ("CTASplitNum", INTS),
    ("CTAOrder", INTS),
    ("CGALayout", INTSS),
)


@layout_attr
class BlockedEncodingAttr(StructLayoutAttr):
    """`#ttg.blocked`: each thread owns sizePerThread contiguous elements."""

    name = "ttg.blocked"
    FIELDS = (
        ("sizePerThread", INTS),
        ("threadsPerWarp", INTS),
        ("warpsPerCTA", INTS),
        ("order", INTS),
        *_CTA_FIELDS,
    )


@layout_attr
class SliceEncodingAttr(StructLayoutAttr):
    """`#ttg.slice<{dim, parent}>`: the parent layout with dimension `dim` removed."""

    name = "ttg.slice"
    FIELDS = (("dim", INT), ("parent", ATTR))


@layout_attr
class DotOperandEncodingAttr(StructLayoutAttr):
    """`#ttg.dot_op<{opIdx, parent, kWidth}>`: operand A (0) or B (1) of a dot."""

    name = "ttg.dot_op"
    FIELDS = (("opIdx", INT), ("parent", ATTR), ("kWidth", INT))


@layout_attr
class NvidiaMmaEncodingAttr(StructLayoutAttr):
    """`#ttg.nvidia_mma`: the accumulator of mma.sync (v2, Ampere) or wgmma (v3, Hopper)."""

    name = "ttg.nvidia_mma"
    FIELDS = (
        ("versionMajor", INT),
        ("versionMinor", INT),
        ("warpsPerCTA", INTS),
        *_CTA_FIELDS,
        ("instrShape", INTS),
    )


@layout_attr
class AmdMfmaEncodingAttr(StructLayoutAttr):
    """`#ttg.amd_mfma`: the accumulator of AMD CDNA matrix cores."""

    name = "ttg.amd_mfma"
    FIELDS = (
        ("version", INT),
        ("versionMajor", INT),
        ("versionMinor", INT),
        ("warpsPerCTA", INTS),
        ("tilesPerWarp", INTS),
        ("instrShape", INTS),
        ("isTransposed", BOOL),
        *_CTA_FIELDS,
        ("elementBitWidth", INT),
    )


@layout_attr
class AmdWmmaEncodingAttr(StructLayoutAttr):
    """`#ttg.amd_wmma`: the accumulator of AMD RDNA WMMA instructions."""

    name = "ttg.amd_wmma"
    FIELDS = (
        ("version", INT),
        ("isTransposed", BOOL),
        ("warpsPerCTA", INTS),
        ("tilesPerWarp", INTS),
        *_CTA_FIELDS,
        ("instrShape", INTS),
    )


@layout_attr
class DpasEncodingAttr(StructLayoutAttr):
    """`#ttig.dpas`: the accumulator of Intel XMX (DPAS); A/B/C are derived and printed only."""

    name = "ttig.dpas"
    FIELDS = (
        ("repeatCount", INT),
        ("systolicDepth", INT),
        ("executionSize", INT),
        ("opsPerChan", INT),
        ("threadsPerWarp", INT),
        ("warpsPerCTA", INTS),
        ("repCluster", INTS),
        ("A", INTS),
        ("B", INTS),
        ("C", INTS),
        ("fp4KPack", INT),
    )

    @classmethod
    def build(
        cls,
        repeat_count: int,
        systolic_depth: int,
        execution_size: int,
        ops_per_chan: int,
        threads_per_warp: int,
        warps_per_cta: tuple[int, ...],
        rep_cluster: tuple[int, ...],
    ) -> DpasEncodingAttr:
        """Build with the derived A/B/C shapes filled in as Triton prints them."""
        rc0, rc1 = rep_cluster[-2], rep_cluster[-1]
        k = systolic_depth * ops_per_chan
        return cls.from_values(
            repeatCount=repeat_count,
            systolicDepth=systolic_depth,
            executionSize=execution_size,
            opsPerChan=ops_per_chan,
            threadsPerWarp=threads_per_warp,
            warpsPerCTA=warps_per_cta,
            repCluster=rep_cluster,
            A=(repeat_count * rc0, k),
            B=(k, execution_size * rc1),
            C=(repeat_count * rc0, execution_size * rc1),
        )


@layout_attr
class SharedEncodingAttr(StructLayoutAttr):
    """`#triton_gpu.shared` (Triton <= 3.2): swizzled shared-memory layout."""

    name = "ttg.shared"
    FIELDS = (
        ("vec", INT),
        ("perPhase", INT),
        ("maxPhase", INT),
        ("order", INTS),
        *_CTA_FIELDS,
        ("hasLeadingOffset", BOOL),
    )


@layout_attr
class SwizzledSharedEncodingAttr(StructLayoutAttr):
    """`#ttg.swizzled_shared` (3.3+)."""

    name = "ttg.swizzled_shared"
    FIELDS = (
        ("vec", INT),
        ("perPhase", INT),
        ("maxPhase", INT),
        ("order", INTS),
        *_CTA_FIELDS,
    )


@layout_attr
class AmdRotatingSharedEncodingAttr(StructLayoutAttr):
    """`#ttg.amd_rotating_shared` (3.9, AMD)."""

    name = "ttg.amd_rotating_shared"
    FIELDS = (
        ("vec", INT),
        ("perPhase", INT),
        ("maxPhase", INT),
        ("order", INTS),
        *_CTA_FIELDS,
    )


@layout_attr
class NvmmaSharedEncodingAttr(StructLayoutAttr):
    """`#ttg.nvmma_shared` (3.3+): the layout wgmma and TMA read."""

    name = "ttg.nvmma_shared"
    FIELDS = (
        ("swizzlingByteWidth", INT),
        ("transposed", BOOL),
        ("elementBitWidth", INT),
        ("fp4Padded", BOOL),
        ("rank", INT),
        *_CTA_FIELDS,
    )


@layout_attr
class LinearEncodingAttr(StructLayoutAttr):
    """`#ttg.linear`: a linear layout given by its bases per input dimension."""

    name = "ttg.linear"
    FIELDS = (
        ("register", INTSS),
        ("lane", INTSS),
        ("warp", INTSS),
        ("block", INTSS),
    )


@irdl_attr_definition
class SharedMemorySpaceAttr(ParametrizedAttribute):
    """`#ttg.shared_memory`: the memory space of shared-memory descriptors."""

    name = "ttg.shared_memory"


@irdl_attr_definition
class OpaqueAttr(ParametrizedAttribute):
    """A dialect attribute irkit has no class for, kept verbatim so it prints back."""

    name = "irkit.opaque_attr"

    dialect_name: StringAttr
    body: StringAttr  # the text after the name, e.g. "<{...}>", or ""


STRUCT_LAYOUTS: tuple[type[StructLayoutAttr], ...] = (
    BlockedEncodingAttr,
    SliceEncodingAttr,
    DotOperandEncodingAttr,
    NvidiaMmaEncodingAttr,
    AmdMfmaEncodingAttr,
    AmdWmmaEncodingAttr,
    DpasEncodingAttr,
    SharedEncodingAttr,
    SwizzledSharedEncodingAttr,
    AmdRotatingSharedEncodingAttr,
    NvmmaSharedEncodingAttr,
    LinearEncodingAttr,
)

# Layouts of matrix-multiply accumulators ("MmaEncodingTrait" in Triton).
MMA_LAYOUTS = (
    NvidiaMmaEncodingAttr,
    AmdMfmaEncodingAttr,
    AmdWmmaEncodingAttr,
    DpasEncodingAttr,
)
SHARED_LAYOUTS = (
    SharedEncodingAttr,
    SwizzledSharedEncodingAttr,
    AmdRotatingSharedEncodingAttr,
    NvmmaSharedEncodingAttr,
)


def is_mma(enc: Attribute) -> bool:
    return isinstance(enc, MMA_LAYOUTS)


def is_shared(enc: Attribute) -> bool:
    return isinstance(enc, SHARED_LAYOUTS)
