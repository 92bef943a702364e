"""Layout attributes (tensor encodings) of TritonGPU, NVIDIA, AMD and Intel.

Each parameter of a layout is declared once, as a typed property named in Python style
(`BlockedEncodingAttr.warps_per_cta = ints_field("warpsPerCTA", ...)`): code reads layouts
through these properties (`enc.warps_per_cta`, a tuple of ints), never by key.  Triton prints a layout
as a struct `<{key = value, ...}>`; the keys a layout has vary between Triton versions (amd_mfma has
`versionMajor`/`versionMinor` in 3.1 and `version` in 3.9, read through `mma_version` either way), so
every parameter is optional (None when absent) and `FIELDS` lists the keys in the order the C++
printer emits them, for the parser and printer.  A layout whose text has a key irkit does not know is
kept as an `OpaqueAttr` instead, so that it still prints back exactly.

Canonical names use the current spelling (`ttg.`, `ttig.`); the printer maps
them to `triton_gpu.`/`triton_intel_gpu.` for modules written in the 3.1
spelling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, TypeVar, overload

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


T = TypeVar("T")


class LayoutField(property, Generic[T]):
    """One parameter of a layout, declared once in the class body as `python_name = ints_field(key, doc)`
    (or `int_field`, `intss_field`, `bool_field`, `layout_field`, after how the value is written).

    `key` is the name Triton prints (`warpsPerCTA`).  Read on a layout, the field is a typed property
    giving the Python value (`int`, `bool`, `tuple[int, ...]`, `tuple[tuple[int, ...], ...]` or a nested
    layout `Attribute`), or None when the layout's text leaves the key out.  `layout_attr` turns the
    fields into the class's IRDL parameters (named `<python_name>_attr`, holding the xDSL attribute) and
    into `FIELDS`, the (key, kind) pairs in printing order that the parser and printer use."""

    def __init__(self, key: str, kind: str, doc: str):
        super().__init__(lambda layout: layout.values().get(key))
        self.__doc__ = f"`{key}` ({_PY_TYPES[kind]} | None): {doc}"
        self.key = key
        self.kind = kind
        self.python_name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.python_name = name

    @property
    def param(self) -> str:
        """The name of the IRDL parameter that holds the field's attribute."""
        return self.python_name + "_attr"

    if TYPE_CHECKING:  # what type checkers see: the value's type on a layout, the field on the class

        @overload
        def __get__(self, layout: None, owner: type | None = None) -> LayoutField[T]: ...
        @overload
        def __get__(self, layout: object, owner: type | None = None) -> T | None: ...
        def __get__(self, layout: object, owner: type | None = None) -> Any: ...


def int_field(key: str, doc: str) -> LayoutField[int]:
    return LayoutField(key, INT, doc)


def ints_field(key: str, doc: str) -> LayoutField[tuple[int, ...]]:
    return LayoutField(key, INTS, doc)


def intss_field(key: str, doc: str) -> LayoutField[tuple[tuple[int, ...], ...]]:
    return LayoutField(key, INTSS, doc)


def bool_field(key: str, doc: str) -> LayoutField[bool]:
    return LayoutField(key, BOOL, doc)


def layout_field(key: str, doc: str) -> LayoutField[Attribute]:
    return LayoutField(key, ATTR, doc)


_PY_TYPES = {INT: "int", INTS: "tuple[int, ...]", INTSS: "tuple[tuple[int, ...], ...]", BOOL: "bool", ATTR: "Attribute"}


class CTALayout(NamedTuple):
    """The CTA-layout fields of a layout (Triton's CTALayoutAttr), None where the layout does not print one.
    Up to 3.8 a layout prints CTAsPerCGA/CTASplitNum/CTAOrder; 3.9 prints `CGALayout`, the block bases of a
    linear layout."""

    ctas_per_cga: tuple[int, ...] | None
    cta_split_num: tuple[int, ...] | None
    cta_order: tuple[int, ...] | None
    cga_layout: tuple[tuple[int, ...], ...] | None


class StructLayoutAttr(ParametrizedAttribute):
    """Base of the layouts printed as `#dialect.name<{key = value, ...}>`.

    Read a parameter through its typed property (`layout.warps_per_cta`) and build one with `of(**fields)`;
    `get(key)`, `values()`, `from_values(**by_key)` and `replace(**by_key)` work by printed key, for the
    parser and printer."""

    FIELDS: ClassVar[tuple[tuple[str, str], ...]] = ()
    LAYOUT_FIELDS: ClassVar[tuple[LayoutField, ...]] = ()

    @classmethod
    def from_values(cls, **values: PyValue):
        """Build from Python values keyed by the printed key; absent keys are None."""
        unknown = set(values) - {k for k, _ in cls.FIELDS}
        if unknown:
            raise ValueError(f"{cls.name}: unknown parameters {sorted(unknown)}")
        return cls.new([_to_attr(kind, values.get(key)) for key, kind in cls.FIELDS])

    @classmethod
    def of(cls, **fields: PyValue):
        """Build from Python values named like the typed properties (`BlockedEncodingAttr.of(order=(1, 0),
        size_per_thread=(1, 4), ...)`); fields not given, or None, are left out."""
        keys = {f.python_name: f.key for f in cls.LAYOUT_FIELDS}
        unknown = set(fields) - set(keys)
        if unknown:
            raise ValueError(f"{cls.name}: unknown fields {sorted(unknown)}")
        return cls.from_values(**{keys[n]: v for n, v in fields.items() if v is not None})

    def values(self) -> dict[str, PyValue]:
        """The present parameters as Python values keyed by the printed key, in printing order (cached)."""
        cached = self.__dict__.get("_values")
        if cached is not None:
            return cached
        out: dict[str, PyValue] = {}
        for field, attr in zip(self.LAYOUT_FIELDS, self.parameters):
            if not isinstance(attr, NoneAttr):
                out[field.key] = _to_py(field.kind, attr)
        self.__dict__["_values"] = out  # attributes are immutable: safe to cache
        return out

    def get(self, key: str, default: PyValue = None) -> PyValue:
        """A parameter by printed key (for the front end; elsewhere use the typed property)."""
        return self.values().get(key, default)

    def replace(self, **changes: PyValue):
        """A copy with some parameters changed, keyed by the printed key (None removes one)."""
        values = dict(self.values())
        values.update(changes)
        return type(self).from_values(**{k: v for k, v in values.items() if v is not None})

    @property
    def cta_layout(self) -> CTALayout:
        """The CTA-layout fields this layout prints (all None for slice and dot_op, whose CTA layout is
        their parent's: `irkit.layout.algebra` follows the parent)."""
        values = self.values()
        return CTALayout(*(values.get(f.key) for f in _CTA_FIELDS))


def layout_attr(cls: type[StructLayoutAttr]) -> type[StructLayoutAttr]:
    """`irdl_attr_definition` for a layout: its `LayoutField`s, in class-body order, become its IRDL
    parameters and its `FIELDS`, so each key is named once."""
    fields = tuple(v for v in cls.__dict__.values() if isinstance(v, LayoutField))
    cls.LAYOUT_FIELDS = fields
    cls.FIELDS = tuple((f.key, f.kind) for f in fields)
    annotations = dict(cls.__dict__.get("__annotations__", {}))
    for f in fields:
        annotations.setdefault(f.param, Attribute)
    cls.__annotations__ = annotations
    return irdl_attr_definition(cls)


# The CTA-layout fields, shared by the layouts that print them; each class unpacks them where Triton
# prints them, so they keep their place in the printing order.
_CTA_FIELDS = (
    ints_field("CTAsPerCGA", "CTAs per CGA (cluster), per dim"),
    ints_field("CTASplitNum", "how many pieces the CTAs cut each dim into"),
    ints_field("CTAOrder", "the order of CTAs in the CGA, fastest dim first"),
    intss_field("CGALayout", "3.9: the CTA layout as linear-layout block bases"),
)


@layout_attr
class BlockedEncodingAttr(StructLayoutAttr):
    """`#ttg.blocked`: each thread owns sizePerThread contiguous elements."""

    name = "ttg.blocked"
    size_per_thread = ints_field("sizePerThread", "contiguous elements each thread holds, per dim")
    threads_per_warp = ints_field("threadsPerWarp", "threads of a warp along each dim")
    warps_per_cta = ints_field("warpsPerCTA", "warps of a CTA along each dim")
    order = ints_field("order", "dims from fastest- to slowest-varying")
    ctas_per_cga, cta_split_num, cta_order, cga_layout = _CTA_FIELDS


@layout_attr
class SliceEncodingAttr(StructLayoutAttr):
    """`#ttg.slice<{dim, parent}>`: the parent layout with dimension `dim` removed."""

    name = "ttg.slice"
    dim = int_field("dim", "the parent's dim that is removed")
    parent = layout_field("parent", "the layout sliced")


@layout_attr
class DotOperandEncodingAttr(StructLayoutAttr):
    """`#ttg.dot_op<{opIdx, parent, kWidth}>`: operand A (0) or B (1) of a dot."""

    name = "ttg.dot_op"
    op_idx = int_field("opIdx", "0 for operand A, 1 for operand B")
    parent = layout_field("parent", "the accumulator layout of the dot")
    k_width = int_field("kWidth", "consecutive elements along K each thread holds")


@layout_attr
class NvidiaMmaEncodingAttr(StructLayoutAttr):
    """`#ttg.nvidia_mma`: the accumulator of mma.sync (v2, Ampere) or wgmma (v3, Hopper)."""

    name = "ttg.nvidia_mma"
    version_major = int_field("versionMajor", "2 Ampere mma.sync, 3 Hopper wgmma, 5 Blackwell")
    version_minor = int_field("versionMinor", "minor version of the instruction")
    warps_per_cta = ints_field("warpsPerCTA", "warps of a CTA along each dim")
    ctas_per_cga, cta_split_num, cta_order, cga_layout = _CTA_FIELDS
    instr_shape = ints_field("instrShape", "M, N(, K) of one instruction")

    @property
    def mma_version(self) -> int:
        """versionMajor, 0 when absent."""
        return self.version_major or 0


@layout_attr
class AmdMfmaEncodingAttr(StructLayoutAttr):
    """`#ttg.amd_mfma`: the accumulator of AMD CDNA matrix cores."""

    name = "ttg.amd_mfma"
    version = int_field("version", "3.9: the CDNA generation (`versionMajor` up to 3.8)")
    version_major = int_field("versionMajor", "up to 3.8: the CDNA generation (`version` in 3.9)")
    version_minor = int_field("versionMinor", "up to 3.8: minor version")
    warps_per_cta = ints_field("warpsPerCTA", "warps of a CTA along each dim")
    tiles_per_warp = ints_field("tilesPerWarp", "instruction tiles each warp repeats, per dim")
    instr_shape = ints_field("instrShape", "M, N(, K) of one instruction")
    is_transposed = bool_field("isTransposed", "whether the result is transposed (column-major)")
    ctas_per_cga, cta_split_num, cta_order, cga_layout = _CTA_FIELDS
    element_bit_width = int_field("elementBitWidth", "bits of an accumulator element")
    element_type = layout_field("elementType", "3.5: the accumulator's element type when not f32 (`i32`, `f64`)")

    @property
    def mma_version(self) -> int:
        """The CDNA generation whichever way the Triton version prints it (`versionMajor` up to 3.8,
        `version` in 3.9); 0 when absent."""
        v = self.version_major
        if v is None:
            v = self.version
        return v if v is not None else 0


@layout_attr
class AmdWmmaEncodingAttr(StructLayoutAttr):
    """`#ttg.amd_wmma`: the accumulator of AMD RDNA WMMA instructions."""

    name = "ttg.amd_wmma"
    version = int_field("version", "the WMMA generation (1 RDNA3, 2 RDNA4)")
    is_transposed = bool_field("isTransposed", "whether the result is transposed")
    warps_per_cta = ints_field("warpsPerCTA", "warps of a CTA along each dim")
    tiles_per_warp = ints_field("tilesPerWarp", "instruction tiles each warp repeats, per dim")
    ctas_per_cga, cta_split_num, cta_order, cga_layout = _CTA_FIELDS
    instr_shape = ints_field("instrShape", "M, N(, K) of one instruction")

    @property
    def mma_version(self) -> int:
        """version, 0 when absent."""
        return self.version or 0


@layout_attr
class DpasEncodingAttr(StructLayoutAttr):
    """`#ttig.dpas`: the accumulator of Intel XMX (DPAS); A/B/C are derived and printed only."""

    name = "ttig.dpas"
    repeat_count = int_field("repeatCount", "rows (M) of one DPAS instruction")
    systolic_depth = int_field("systolicDepth", "depth of the systolic array")
    execution_size = int_field("executionSize", "columns (N) of one instruction, the SIMD width")
    ops_per_chan = int_field("opsPerChan", "operations per channel (K = systolicDepth * opsPerChan)")
    threads_per_warp = int_field("threadsPerWarp", "work-items of a sub-group")
    warps_per_cta = ints_field("warpsPerCTA", "sub-groups of a work-group along each dim")
    rep_cluster = ints_field("repCluster", "instruction repetitions grouped per sub-group, per dim")
    a_shape = ints_field("A", "shape of operand A of one cluster (derived)")
    b_shape = ints_field("B", "shape of operand B of one cluster (derived)")
    c_shape = ints_field("C", "shape of the accumulator of one cluster (derived)")
    fp4_k_pack = int_field("fp4KPack", "fp4 values packed along K")

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


# The swizzling fields of the shared-memory layouts that swizzle by vec/perPhase/maxPhase.
_SWIZZLE_FIELDS = (
    int_field("vec", "elements swizzled together"),
    int_field("perPhase", "rows sharing one swizzle phase"),
    int_field("maxPhase", "number of swizzle phases"),
    ints_field("order", "dims from fastest- to slowest-varying"),
)


@layout_attr
class SharedEncodingAttr(StructLayoutAttr):
    """`#triton_gpu.shared` (Triton <= 3.2): swizzled shared-memory layout."""

    name = "ttg.shared"
    vec, per_phase, max_phase, order = _SWIZZLE_FIELDS
    ctas_per_cga, cta_split_num, cta_order, cga_layout = _CTA_FIELDS
    has_leading_offset = bool_field("hasLeadingOffset", "the Hopper (wgmma) form")


@layout_attr
class SwizzledSharedEncodingAttr(StructLayoutAttr):
    """`#ttg.swizzled_shared` (3.3+)."""

    name = "ttg.swizzled_shared"
    vec, per_phase, max_phase, order = _SWIZZLE_FIELDS
    ctas_per_cga, cta_split_num, cta_order, cga_layout = _CTA_FIELDS


@layout_attr
class AmdRotatingSharedEncodingAttr(StructLayoutAttr):
    """`#ttg.amd_rotating_shared` (3.9, AMD)."""

    name = "ttg.amd_rotating_shared"
    vec, per_phase, max_phase, order = _SWIZZLE_FIELDS
    ctas_per_cga, cta_split_num, cta_order, cga_layout = _CTA_FIELDS


@layout_attr
class NvmmaSharedEncodingAttr(StructLayoutAttr):
    """`#ttg.nvmma_shared` (3.3+): the layout wgmma and TMA read."""

    name = "ttg.nvmma_shared"
    swizzling_byte_width = int_field("swizzlingByteWidth", "swizzle width in bytes (0, 32, 64, 128)")
    transposed = bool_field("transposed", "whether the second-last dim is the contiguous one")
    element_bit_width = int_field("elementBitWidth", "bits of an element")
    fp4_padded = bool_field("fp4Padded", "fp4 elements padded to bytes")
    rank = int_field("rank", "rank of the memdesc (2 when absent)")
    ctas_per_cga, cta_split_num, cta_order, cga_layout = _CTA_FIELDS


@layout_attr
class LinearEncodingAttr(StructLayoutAttr):
    """`#ttg.linear`: a linear layout given by its bases per input dimension."""

    name = "ttg.linear"
    register_bases = intss_field("register", "one basis per register bit")
    lane_bases = intss_field("lane", "one basis per lane bit")
    warp_bases = intss_field("warp", "one basis per warp bit")
    block_bases = intss_field("block", "one basis per block (CTA) bit")

    @property
    def bases(self) -> dict[str, tuple[tuple[int, ...], ...]]:
        """The bases by input dim ("register", "lane", "warp", "block"), () where the text has none."""
        return {f.key: self.values().get(f.key) or () for f in self.LAYOUT_FIELDS}


@layout_attr
class GenericLinearEncodingAttr(StructLayoutAttr):
    """`#ttg.generic_linear` (main, 2026): the bases of `#ttg.linear`, but warp bases may be swizzled (move along
    several dims) and the layout need only be surjective.  Triton allows it on a few vetted ops only; irkit's
    layout algebra does not read it as `#ttg.linear`."""

    name = "ttg.generic_linear"
    register_bases = intss_field("register", "one basis per register bit")
    lane_bases = intss_field("lane", "one basis per lane bit")
    warp_bases = intss_field("warp", "one basis per warp bit (may move along several dims)")
    block_bases = intss_field("block", "one basis per block (CTA) bit")


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


_PADDING = re.compile(r"(\d+)\s*:\s*\+(\d+)")


def padded_shared_paddings(enc: Attribute | None) -> tuple[tuple[int, int], ...] | None:
    """The (interval, padding) pairs, in elements, of a `#ttg.padded_shared<[interval:+padding, ...] {...}>`
    layout (Triton 3.5+: after every `interval` elements, `padding` more; irkit keeps the layout verbatim, as
    an OpaqueAttr); None for any other layout."""
    if not isinstance(enc, OpaqueAttr) or enc.dialect_name.data != "ttg.padded_shared":
        return None
    return _paddings(enc.body.data)


def _paddings(body: str) -> tuple[tuple[int, int], ...] | None:
    start, end = body.find("["), body.find("]")
    if start < 0 or end < start:
        return None
    return tuple((int(interval), int(pad)) for interval, pad in _PADDING.findall(body[start:end]))


@dataclass(frozen=True)
class PartitionedShared:
    """`#ttg.partitioned_shared<{numPartitions, numGroups, partitionDim, partitionLayout}>` (AMD, 2026): the
    tensor cut into numPartitions * numGroups pieces along partitionDim, each partition's groups in one
    buffer; `paddings` are those of a padded partitionLayout (None for any other)."""

    num_partitions: int
    num_groups: int
    paddings: tuple[tuple[int, int], ...] | None


_KEY_INT = re.compile(r"(\w+)\s*=\s*(\d+)")


def partitioned_shared(enc: Attribute | None) -> PartitionedShared | None:
    if not isinstance(enc, OpaqueAttr) or enc.dialect_name.data != "ttg.partitioned_shared":
        return None
    body = enc.body.data
    ints = dict((k, int(v)) for k, v in _KEY_INT.findall(body))
    inner = body[body.find("partitionLayout"):]
    paddings = _paddings(inner) if "#ttg.padded_shared" in inner else None
    return PartitionedShared(ints.get("numPartitions", 1), ints.get("numGroups", 1), paddings)


def shared_linear_offsets(enc: Attribute | None) -> tuple[int, int] | None:
    """(number of `offset` bases, alignment) of a `#ttg.shared_linear<{offset = [...], block = [...]},
    alignment = N>`: the allocation holds 2^bases elements (a zero basis leaves holes); None for any
    other layout."""
    if not isinstance(enc, OpaqueAttr) or enc.dialect_name.data != "ttg.shared_linear":
        return None
    body = enc.body.data
    at = body.find("offset")
    start = body.find("[", at)
    if at < 0 or start < 0:
        return None
    depth, bases, i = 0, 0, start
    for i in range(start, len(body)):  # count the bases: the lists one level inside the outer one
        if body[i] == "[":
            depth += 1
            bases += depth == 2
        elif body[i] == "]":
            depth -= 1
            if depth == 0:
                break
    align = re.search(r"alignment\s*=\s*(\d+)", body[i:])
    return bases, int(align.group(1)) if align else 16


def memory_space_name(attr: Attribute | None) -> str:
    """The name a memory space is written with (`ttg.shared_memory`, `ttng.tensor_memory`), also when irkit
    keeps it verbatim."""
    if isinstance(attr, OpaqueAttr):
        return attr.dialect_name.data
    return getattr(attr, "name", "") or ""


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
    GenericLinearEncodingAttr,
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


def is_shared(enc: Attribute) -> bool:
    return isinstance(enc, SHARED_LAYOUTS)
