"""Which attributes print as aliases, and how the aliases are named and ordered: MLIR's AsmPrinter.

MLIR walks the IR once before printing (`AliasInitializer`, a dry run of the printer) and asks each dialect's
`OpAsmDialectInterface::getAlias` for a name for every attribute it meets.  Triton's dialects (all of
3.1-3.9, NVIDIA, AMD and Intel alike) answer:

    blocked      #ttg.blocked
    mma          every MMA layout: #ttg.nvidia_mma, #ttg.amd_mfma, #ttg.amd_wmma, #ttig.dpas
    shared       every shared layout: #ttg.shared (3.1), swizzled_shared, nvmma_shared, amd_rotating_shared,
                 padded_shared, shared_linear
    linear       #ttg.linear
    smem         #ttg.shared_memory
    tmem         #ttng.tensor_memory_encoding;  tmem_scales: #ttng.tensor_memory_scales_encoding
    warp         #ttig.warp
    (none)       #ttg.dot_op, #ttg.slice and everything else: printed inline

and the builtin dialect names every location `loc`.  (Checked against the real printers of Triton 3.1,
3.3, 3.6, 3.9 and Intel XPU 3.3: the attributes a version does not have simply never occur.)

Names are then numbered as `AliasInitializer::initializeAliases` does: the visited attributes are stably
sorted by alias depth (1 for an alias that holds no other alias, one more than its deepest aliased part
otherwise), then by name; within a name, in the order the dry run first met them; the first keeps the bare
name, the next ones get 1, 2, ... (`#blocked`, `#blocked1`).  Aliases of locations that only operations use
are "deferred" (printed after the module); every other alias, including the locations of block arguments
and what they contain, is printed before it.  Both groups keep the sorted order.

`AliasNamer` does the bookkeeping; the printer calls `visit` in the order the dry run would meet things
(the text order of the custom form, an op's location before the op), and refers to an aliased attribute
by `ref(index)`: its name, or a placeholder replaced by the name once the whole module is printed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    DictionaryAttr,
    FunctionType,
    FusedLoc,
    NameLoc,
    NoneAttr,
    TensorType,
    UnknownLoc,
    VectorType,
)
from xdsl.ir import Attribute

from irkit.dialects import encodings as enc
from irkit.dialects.builtin_extras import DenseElementsAttr
from irkit.dialects.types import MemDescType, PointerType, TensorDescType
from irkit.frontend.attributes import LOCATION_TYPES
from irkit.frontend.spelling import canonical_name

# Attributes irkit keeps as text (enc.OpaqueAttr), by current-spelling name.
_OPAQUE_ALIASES = {
    "ttg.padded_shared": "shared",
    "ttg.shared_linear": "shared",
    "ttg.partitioned_shared": "shared",
    "ttg.swizzled_shared": "shared",
    "ttg.nvmma_shared": "shared",
    "ttg.amd_rotating_shared": "shared",
    "ttg.shared": "shared",
    "ttg.blocked": "blocked",
    "ttg.linear": "linear",
    "ttg.nvidia_mma": "mma",
    "ttg.amd_mfma": "mma",
    "ttg.amd_wmma": "mma",
    "ttig.dpas": "mma",
    "ttig.warp": "warp",
    "ttng.tensor_memory_encoding": "tmem",
    "ttng.tensor_memory_scales_encoding": "tmem_scales",
}

PLACEHOLDER = "\x00"  # never in printed text: quote_string escapes control characters


def alias_kind(attr: Attribute) -> str | None:
    """The alias name Triton's dialects (and the builtin one, for locations) give `attr`; None: inline."""
    if isinstance(attr, enc.BlockedEncodingAttr):
        return "blocked"
    if isinstance(attr, enc.MMA_LAYOUTS):
        return "mma"
    if isinstance(attr, enc.SHARED_LAYOUTS):
        return "shared"
    if isinstance(attr, enc.GenericLinearEncodingAttr):
        return "generic_linear"
    if isinstance(attr, enc.LinearEncodingAttr):
        return "linear"
    if isinstance(attr, enc.SharedMemorySpaceAttr):
        return "smem"
    if isinstance(attr, LOCATION_TYPES):
        return "loc"
    if isinstance(attr, enc.OpaqueAttr):
        return _OPAQUE_ALIASES.get(canonical_name(attr.dialect_name.data)[0])
    return None


def children(attr: Attribute) -> tuple[Attribute, ...]:
    """The attributes and types `attr`'s printed form contains, in printed order."""
    if isinstance(attr, TensorType):
        if isinstance(attr.encoding, NoneAttr):
            return (attr.element_type,)
        return (attr.element_type, attr.encoding)
    if isinstance(attr, enc.StructLayoutAttr):
        values = attr.values()
        return tuple(values[k] for k, kind in attr.FIELDS if kind == enc.ATTR and k in values)
    if isinstance(attr, PointerType):
        return (attr.pointee,)
    if isinstance(attr, MemDescType):
        return tuple(x for x in (attr.element_type, attr.encoding, attr.memory_space) if not isinstance(x, NoneAttr))
    if isinstance(attr, DenseElementsAttr):
        return (attr.type,)
    if isinstance(attr, TensorDescType):
        return (attr.block_type,)
    if isinstance(attr, VectorType):
        return (attr.element_type,)
    if isinstance(attr, FunctionType):
        return (*attr.inputs.data, *attr.outputs.data)
    if isinstance(attr, ArrayAttr):
        return tuple(attr.data)
    if isinstance(attr, DictionaryAttr):
        return tuple(attr.data.values())
    if isinstance(attr, NameLoc):
        child = attr.location
        return () if isinstance(child, (NoneAttr, UnknownLoc)) else (child,)
    if isinstance(attr, CallSiteLoc):
        return (attr.callee, attr.caller)
    if isinstance(attr, FusedLoc):
        meta = () if isinstance(attr.metadata, NoneAttr) else (attr.metadata,)
        return (*meta, *attr.locations.data)
    return ()


class _Key:
    """An attribute as a dictionary key whose hash is computed once per object, bottom up.  xDSL's
    attributes hash their whole contents on every call, so keying by them costs the nesting depth per
    lookup: quadratic in a 10,000-deep `[[[...]]]`, `tensor<...>` or `loc(callsite(...))`."""

    __slots__ = ("attr", "hash")

    def __init__(self, attr: Attribute, h: int):
        self.attr = attr
        self.hash = h

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and (self.attr is other.attr or (self.hash == other.hash and self.attr == other.attr))


def structural_hash(attr: Attribute, memo: dict[int, tuple[Attribute, int]]) -> int:
    """A hash of `attr`'s contents, each nested attribute hashed once (memo: id -> (attribute, hash); the
    attribute is kept so that its id stays its own).  Iterative: any depth."""
    found = memo.get(id(attr))
    if found is not None:
        return found[1]
    stack: list[tuple[Attribute, bool]] = [(attr, False)]
    while stack:
        a, ready = stack.pop()
        if id(a) in memo:
            continue
        parts = _hash_parts(a)
        if parts is None:  # a leaf: its own hash is shallow
            memo[id(a)] = (a, hash(a))
            continue
        if not ready:
            stack.append((a, True))
            stack.extend((p, False) for p in parts if isinstance(p, Attribute) and id(p) not in memo)
            continue
        memo[id(a)] = (a, hash((type(a), tuple(memo[id(p)][1] if isinstance(p, Attribute) else p for p in parts))))
    return memo[id(attr)][1]


def _hash_parts(a: Attribute) -> tuple | None:
    """What `a` is made of (attributes, or plain values), or None for a leaf."""
    from xdsl.ir import ParametrizedAttribute

    if isinstance(a, ParametrizedAttribute):
        return tuple(a.parameters) or None
    if isinstance(a, ArrayAttr):
        return tuple(a.data)
    if isinstance(a, DictionaryAttr):
        return tuple(x for kv in a.data.items() for x in kv)
    return None


@dataclass
class _Entry:
    attr: Attribute
    kind: str | None
    depth: int
    deferrable: bool
    children: list[int] = field(default_factory=list)


class AliasNamer:
    """The aliases of one printed module, assigned as MLIR's AliasInitializer assigns them.

    An alias of depth 1 is named as soon as it is met (it sorts before every deeper alias of its name and
    after the depth-1 ones met earlier), so most references are final text at once; deeper ones (name
    locations of named values, call sites) are placeholders until `finish`."""

    def __init__(self) -> None:
        self.entries: list[_Entry] = []
        self.index: dict[_Key, int] = {}
        self._hashes: dict[int, tuple[Attribute, int]] = {}  # id -> (attribute, structural hash): see _Key
        self.names: list[str | None] = []  # the alias of each entry (None: inline, or not named yet)
        self._depth1: dict[str, int] = {}  # depth-1 aliases named so far, by name
        self.placeholders = False  # whether `ref` handed out a placeholder

    def visit(self, attr: Attribute, deferrable: bool = False) -> int:
        """Meet `attr` (and what it contains); returns its entry."""
        i = self.index.get(self._key(attr))
        if i is not None:
            if not deferrable:
                self._not_deferrable(i)
            return i
        i = len(self.entries)
        kind = alias_kind(attr)
        entry = _Entry(attr, kind, 1 if kind is not None else 0, deferrable)
        self.entries.append(entry)
        self.names.append(None)
        self.index[self._key(attr)] = i
        deepest = 0
        for child in children(attr):
            c = self.visit(child, deferrable)
            entry.children.append(c)
            deepest = max(deepest, self.entries[c].depth)
        if deepest:
            entry.depth = deepest + 1
        elif kind is not None:
            n = self._depth1.get(kind, 0)
            self._depth1[kind] = n + 1
            self.names[i] = "#" + kind + (str(n) if n else "")
        return i

    def _key(self, attr: Attribute) -> _Key:
        return _Key(attr, structural_hash(attr, self._hashes))

    def _not_deferrable(self, i: int) -> None:
        stack = [i]
        while stack:
            entry = self.entries[stack.pop()]
            if entry.deferrable:
                entry.deferrable = False
                stack.extend(entry.children)

    def ref(self, i: int) -> str:
        """The alias of entry `i` (`#name`), or a placeholder for it until `finish`."""
        name = self.names[i]
        if name is not None:
            return name
        self.placeholders = True
        return f"{PLACEHOLDER}{i}{PLACEHOLDER}"

    def finish(self) -> tuple[list[int], list[int]]:
        """Name every aliased entry; returns (aliases printed before the module, after it), in order."""
        aliased = [i for i, e in enumerate(self.entries) if e.kind is not None]
        aliased.sort(key=lambda i: (self.entries[i].depth, self.entries[i].kind))  # stable: first met first
        counts = dict(self._depth1)
        for i in aliased:
            entry = self.entries[i]
            if entry.depth == 1:
                continue
            kind = entry.kind
            assert kind is not None
            n = counts.get(kind, 0)
            counts[kind] = n + 1
            self.names[i] = "#" + kind + (str(n) if n else "")
        top = [i for i in aliased if not self.entries[i].deferrable]
        tail = [i for i in aliased if self.entries[i].deferrable]
        return top, tail

    def substitute(self, text: str) -> str:
        """`text` with every placeholder replaced by its alias."""
        if not self.placeholders:
            return text
        parts = text.split(PLACEHOLDER)
        by_ref = {str(i): name for i, name in enumerate(self.names) if name is not None}
        parts[1::2] = map(by_ref.__getitem__, parts[1::2])
        return "".join(parts)
