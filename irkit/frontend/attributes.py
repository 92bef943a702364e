"""Parsing of types, attributes and locations.

Types repeat a lot in Triton IR (every op spells its tensor types out), so a
type is parsed once per distinct text and the object is shared: attributes are
immutable, so sharing is safe, and it is most of what makes parsing fast.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    BoolAttr,
    CallSiteLoc,
    DenseArrayBase,
    DictionaryAttr,
    FileLineColLoc,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E3M4Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3Type,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FloatTF32Type,
    FunctionType,
    FusedLoc,
    IndexType,
    IntegerType,
    NameLoc,
    NoneAttr,
    NoneType,
    Signedness,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    UnknownLoc,
    VectorType,
)
from xdsl.ir import Attribute

from irkit.dialects import encodings as enc
from irkit.dialects.builtin_extras import DenseElementsAttr, float_bits, format_scalar, parse_scalar
from irkit.dialects.types import (
    AsyncTokenType,
    GpuAsyncTokenType,
    MemDescType,
    OpaqueType,
    PointerType,
    TensorDescType,
)
from irkit.frontend.construct import file_line_col, integer_attr, name_loc, tensor_type
from irkit.frontend.lexer import Cursor, ParseError
from irkit.frontend.spelling import CURRENT_TO_LEGACY, canonical_name

_SCALAR_TYPES: dict[str, Attribute] = {
    "index": IndexType(),
    "f16": Float16Type(),
    "bf16": BFloat16Type(),
    "f32": Float32Type(),
    "f64": Float64Type(),
    "tf32": FloatTF32Type(),
    "f8E4M3FN": Float8E4M3FNType(),
    "f8E5M2": Float8E5M2Type(),
    "f8E4M3FNUZ": Float8E4M3FNUZType(),
    "f8E5M2FNUZ": Float8E5M2FNUZType(),
    "f8E4M3B11FNUZ": Float8E4M3B11FNUZType(),
    # the microscaling formats (Blackwell and CDNA4 scaled dots; e8m0 is the scale)
    "f8E8M0FNU": Float8E8M0FNUType(),
    "f8E4M3": Float8E4M3Type(),
    "f8E3M4": Float8E3M4Type(),
    "f6E2M3FN": Float6E2M3FNType(),
    "f6E3M2FN": Float6E3M2FNType(),
    "f4E2M1FN": Float4E2M1FNType(),
    "none": NoneType(),
}
_I1 = IntegerType(1)
_NONE = NoneAttr()
# every location attribute (`loc(...)`), for isinstance checks in the parser and printer
LOCATION_TYPES = (UnknownLoc, FileLineColLoc, NameLoc, CallSiteLoc, FusedLoc)
_LOC_NUMBER = re.compile(r"\d+\b", re.ASCII)
_MAX_INT_WIDTH = (1 << 24) - 1  # MLIR's IntegerType::kMaxWidth
_INT_TYPE = re.compile(r"(si|ui|i)(\d+)\b", re.ASCII)
_DIMS = re.compile(r"((?:(?:\d+|\?)x)*)", re.ASCII)
_STRUCT_BY_NAME = {cls.name: cls for cls in enc.STRUCT_LAYOUTS}
# The attributes Triton 3.1-3.9's dialects register (`#dialect.mnemonic`), by current dialect name; an empty
# set: any mnemonic (dialects whose attributes irkit keeps as text without knowing them all).  Any other
# dialect is unregistered in Triton's context, as MLIR says of `#x.y`.
KNOWN_ATTRIBUTES: dict[str, frozenset[str]] = {
    "ttg": frozenset({cls.name.partition(".")[2] for cls in enc.STRUCT_LAYOUTS} | {
        "blocked", "slice", "dot_op", "nvidia_mma", "amd_mfma", "amd_wmma", "linear", "shared", "swizzled_shared",
        "nvmma_shared", "amd_rotating_shared", "shared_linear", "padded_shared", "shared_memory",
        "partitioned_shared", "cta_layout", "mma"}),
    "ttng": frozenset({"tensor_memory", "tensor_memory_encoding", "tensor_memory_scales_encoding",
                       "shared_cluster_memory", "redOp", "blockRepOrder"}),  # the last two: main's enum attributes
    "tt": frozenset(), "amdg": frozenset(), "ttig": frozenset(), "nvgpu": frozenset(), "nvws": frozenset(),
    "proton": frozenset(), "llvm": frozenset(), "gpu": frozenset(), "nvvm": frozenset(), "rocdl": frozenset(),
    "arith": frozenset(), "math": frozenset(), "scf": frozenset(), "cf": frozenset(), "ub": frozenset(),
}
# Layout keys a Triton version writes that irkit's classes do not model: such a layout is kept as text
# (`isTranspose` in an amd_mfma: the key of 2024, which main's parser skips as unknown; Triton's own tests write it)
_KEYS_KEPT_AS_TEXT = {"ttg.amd_wmma": frozenset({"isTranspose", "ctaLayout", "rank"}),
                      "ttg.amd_mfma": frozenset({"isTranspose"})}
_CTA_KEYS_KEPT_AS_TEXT = frozenset({"ctaLayout", "CGALayout"})
_TYPE_WORD = re.compile(r"[A-Za-z_][\w]*", re.ASCII)
_LOC_ALIAS_USE = re.compile(r"loc\((#[\w$.\-]+)\)", re.ASCII)
# an alias named inside a body irkit keeps as text: `#shared0`, not `#ttg.shared_memory` nor `#ttg.linear<`
ALIAS_USE = re.compile(r"#[A-Za-z_][\w$\-]*(?![\w$.\-<])")


def scalar_type_name(t: Attribute) -> str | None:
    for name, st in _SCALAR_TYPES.items():
        if st == t:
            return name
    return None


_SIGNEDNESS = {"i": Signedness.SIGNLESS, "si": Signedness.SIGNED, "ui": Signedness.UNSIGNED}
_INT_TYPES: dict[tuple[int, str], IntegerType] = {}


def integer_type(width: int, signedness: str = "i") -> IntegerType:
    # One object per spelling: building and verifying an IntegerType costs more
    # than parsing the rest of a typical op line.
    key = (width, signedness)
    t = _INT_TYPES.get(key)
    if t is None:
        t = _INT_TYPES[key] = IntegerType(width, _SIGNEDNESS[signedness])
    return t


_DENSE_TOKEN = re.compile(r"[^\s\[\],]+")


def _canonical_dense_body(body: str, values: list, element: Attribute) -> str:
    """The literal as MLIR prints it back: each value in MLIR's form (`0.0` -> `0.000000e+00`), `, `
    between them, and equal values as one splat."""
    if body.startswith('"'):  # hex blob
        return body
    if body.startswith("[") and values and any(v != values[0] for v in values):
        it = iter(values)
        text = _DENSE_TOKEN.sub(lambda _: format_scalar(next(it), element), body)
        return re.sub(r"\s*,\s*", ", ", re.sub(r"\[\s+", "[", re.sub(r"\s+\]", "]", text)))
    return format_scalar(values[0], element) if values else body


class AliasTable:
    """Top-level `#name = ...` / `!name = ...` definitions, resolved lazily.

    Triton prints most `#locN` aliases after the module that uses them, so the
    whole file is scanned for definitions first and each is parsed on first use.
    """

    # at a line's start, or right after the end of another definition on the same line (`...}>#shared = ...`,
    # which MLIR's parser accepts)
    _DEF = re.compile(r"(?:^|(?<=[>)]))[ \t]*([#!])([\w$.\-]+)[ \t]*=[ \t]*", re.MULTILINE | re.ASCII)

    def __init__(self, text: str):
        self.text = text
        self.pending: dict[str, int] = {}  # "#blocked" -> position of the value
        self.values: dict[str, Attribute] = {}
        self.ends: dict[str, int] = {}
        self.order: list[str] = []
        self.starts: dict[str, int] = {}
        self._resolving: set[str] = set()
        for m in self._DEF.finditer(text):
            key = m.group(1) + m.group(2)
            if key in self.pending:
                continue  # the parser reports the redefinition where it meets it
            self.pending[key] = m.end()
            self.starts[key] = m.start()
            self.order.append(key)

    def resolve(self, key: str, parser: AttrParser, use_pos: int) -> Attribute:
        value = self.values.get(key)
        pos = self.pending.get(key)
        if pos is None:
            raise ParseError(use_pos, f"undefined symbol alias id '{key[1:]}'")
        if use_pos < self.starts[key] and (self._resolving or (value is not None and not isinstance(value, LOCATION_TYPES))):
            # MLIR reads aliases in file order: only an op's location may name one defined later
            raise ParseError(use_pos, f"undefined symbol alias id '{key[1:]}' (it is defined further down, at "
                                      "line {})".format(self.text.count("\n", 0, self.starts[key]) + 1))
        if value is not None:
            return value
        if key in self._resolving:
            raise ParseError(use_pos, f"alias '{key}' refers to itself")
        self._resolving.add(key)
        saved = parser.cur.pos
        parser.cur.pos = pos
        try:
            value = parser.parse_type() if key[0] == "!" else parser.parse_attribute_or_location()
            self.ends[key] = parser.cur.pos
        finally:
            parser.cur.pos = saved
            self._resolving.discard(key)
        self.values[key] = value
        if use_pos < self.starts[key] and not isinstance(value, LOCATION_TYPES):
            raise ParseError(use_pos, f"undefined symbol alias id '{key[1:]}' (it is defined further down, at "
                                      "line {})".format(self.text.count("\n", 0, self.starts[key]) + 1))
        return value


class AttrParser:
    """Types, attributes and locations at the cursor."""

    def __init__(self, cur: Cursor, aliases: AliasTable, type_cache: dict[str, Attribute] | None = None):
        self.cur = cur
        self.aliases = aliases
        self.type_cache: dict[str, Attribute] = {} if type_cache is None else type_cache
        self.saw_legacy = False
        self.saw_current = False
        self.nesting = 0  # types/layouts being parsed around the cursor (only the outermost is cached by text)
        self.legacy_dialects: set[str] = set()  # current dialect names seen in their legacy spelling
        self.current_dialects: set[str] = set()  # ... and seen in their current spelling

    # -- spelling -------------------------------------------------------------
    def canonical(self, name: str) -> str:
        canon, legacy = canonical_name(name)
        if legacy:
            self.saw_legacy = True
            dialect = canon.partition(".")[0]
            if dialect not in self.legacy_dialects:
                self.legacy_dialects.add(dialect)
                self._no_mixed_spelling(dialect, name)
        elif canon.startswith(("ttg.", "ttng.", "ttig.", "amdg.")):
            self.saw_current = True
            dialect = canon[: canon.index(".")]
            if dialect not in self.current_dialects:
                self.current_dialects.add(dialect)
                self._no_mixed_spelling(dialect, name)
        return canon

    def _no_mixed_spelling(self, dialect: str, name: str) -> None:
        """One dialect in both of its names is no Triton's: 3.1 registers only `triton_gpu`, 3.2+ only `ttg`."""
        if dialect in self.legacy_dialects and dialect in self.current_dialects:
            legacy = CURRENT_TO_LEGACY[dialect]
            raise ParseError(self.cur.pos, f"'{name}': this file spells the dialect both '{legacy}' and '{dialect}'; "
                                           "no Triton version registers both")

    # -- types ------------------------------------------------------------------
    def try_type(self) -> Attribute | None:
        cur = self.cur
        cur.skip()
        text = cur.text
        pos = cur.pos
        if pos >= len(text):
            return None
        c = text[pos]
        if c == "t" and not self.nesting and text.startswith("tensor<", pos):  # most types, and most already seen
            end = cur.balanced_end(pos + 6)
            cached = self.type_cache.get(text[pos:end])
            if cached is not None:
                cur.pos = end
                return cached
        if c == "(":
            return self._function_type()
        if c == "!":
            return self._bang_type()
        m = _INT_TYPE.match(text, pos)
        if m:
            width = int(m.group(2))
            if width > _MAX_INT_WIDTH:
                raise ParseError(pos, f"integer bitwidth is limited to {_MAX_INT_WIDTH} bits")
            cur.pos = m.end()
            return integer_type(width, m.group(1))
        m = _TYPE_WORD.match(text, pos)
        if not m:
            return None
        word = m.group(0)
        st = _SCALAR_TYPES.get(word)
        if st is not None:
            cur.pos = m.end()
            return st
        # MLIR's lexer lets a blank stand between the keyword and `<` (`tensor <8xi32>`)
        angle = m.end()
        while angle < len(text) and text[angle] in " 	":
            angle += 1
        if word in ("tensor", "vector") and text.startswith("<", angle):
            if self.nesting:  # inside another type: no cache key per level (rescanning the text is quadratic)
                cur.pos = angle + 1
                return self._nested_shaped(word)
            end = cur.balanced_end(angle)
            key = text[pos:end]
            cached = self.type_cache.get(key)
            if cached is None:
                cur.pos = angle + 1
                cached = self._nested_shaped(word)
                self.type_cache[key] = cached
            cur.pos = end
            return cached
        return None

    def _nested_shaped(self, word: str) -> Attribute:
        self.nesting += 1
        try:
            t = self._shaped_body(word)
        finally:
            self.nesting -= 1
        self.cur.expect(">", f"to end {word} type")
        return t

    def parse_type(self, what: str = "type") -> Attribute:
        pos = self.cur.skip()
        t = self.try_type()
        if t is None:
            raise ParseError(pos, f"expected {what}, found {self.cur._describe_next()}")
        return t

    def _function_type(self) -> FunctionType:
        cur = self.cur
        cur.expect("(")
        inputs: list[Attribute] = []
        if not cur.try_lit(")"):
            inputs.append(self.parse_type())
            while cur.try_lit(","):
                inputs.append(self.parse_type())
            cur.expect(")", "to end function input types")
        cur.expect("->", "in function type")
        outputs = self.parse_result_types()
        return FunctionType.from_lists(inputs, outputs)

    def parse_result_types(self) -> list[Attribute]:
        """`T` or `(T, U)` or `()` after an arrow."""
        cur = self.cur
        if cur.peek() == "(":
            save = cur.pos
            # a parenthesised list, unless it is itself a function type
            cur.expect("(")
            out: list[Attribute] = []
            if not cur.try_lit(")"):
                out.append(self.parse_type())
                while cur.try_lit(","):
                    out.append(self.parse_type())
                cur.expect(")", "to end result types")
            if cur.peek(2) == "->":
                cur.pos = save
                return [self._function_type()]
            return out
        return [self.parse_type()]

    def _dims(self) -> list[int]:
        cur = self.cur
        m = _DIMS.match(cur.text, cur.pos)
        dims: list[int] = []
        if m and m.group(1):
            for d in m.group(1)[:-1].split("x"):
                dims.append(-1 if d == "?" else int(d))
            if max(dims) >= 1 << 63:
                raise ParseError(cur.pos, "invalid dimension: it does not fit in a 64-bit integer")
            cur.pos = m.end()
        return dims

    def _shaped_body(self, kind: str) -> Attribute:
        cur = self.cur
        cur.skip()
        dims = self._dims()
        elem = self.parse_type("element type")
        if kind == "vector":
            return VectorType(elem, dims)
        encoding: Attribute = _NONE
        if cur.try_lit(","):
            encoding = self.parse_attribute()
        return tensor_type(elem, dims, encoding)

    def _bang_type(self) -> Attribute:
        cur = self.cur
        start = cur.skip()
        ident = cur.try_bang_id()
        if ident is None:
            raise cur.error("expected type after '!'")
        if cur.text.startswith("<", cur.pos):
            if self.nesting:  # inside another type: parsed in place (see _nested_shaped)
                return self._nested_dialect_type(ident)
            end = cur.balanced_end(cur.pos)
            key = cur.text[start:end]
            cached = self.type_cache.get(key)
            if cached is not None:
                cur.pos = end
                self.canonical(ident)  # still record the spelling
                return cached
            t = self._nested_dialect_type(ident)
            self.type_cache[key] = t
            return t
        if "." not in ident:
            return self.aliases.resolve("!" + ident, self, start)
        name = self.canonical(ident)
        if name == "ttg.async.token":
            return AsyncTokenType()
        if name == "gpu.async.token":
            return GpuAsyncTokenType()
        return OpaqueType(StringAttr(ident), StringAttr(""))

    def _nested_dialect_type(self, ident: str) -> Attribute:
        self.nesting += 1
        try:
            return self.dialect_type(self.canonical(ident), ident, stripped=False)
        finally:
            self.nesting -= 1

    def dialect_type(self, name: str, raw_name: str, stripped: bool) -> Attribute:
        """The `<...>` body of a dialect type (the cursor is on `<`)."""
        cur = self.cur
        start = cur.pos
        if name == "tt.ptr":
            cur.expect("<")
            pointee = self.parse_type("pointee type")
            space = 1
            if cur.try_lit(","):
                space = cur.integer("address space")
            cur.expect(">", "to end !tt.ptr")
            return PointerType(pointee, space)
        if name in ("tt.memdesc", "ttg.memdesc"):
            cur.expect("<")
            cur.skip()
            dims = self._dims()
            elem = self.parse_type("element type")
            encoding: Attribute = NoneAttr()
            space: Attribute = NoneAttr()
            mutable = False
            alloc_shape = None
            while cur.try_lit(","):
                if cur.try_lit("mutable"):
                    mutable = True
                    continue
                cur.skip()
                if cur.text[cur.pos].isdigit():
                    alloc_shape = tuple(self._dims()) + (cur.integer(),)
                    continue
                attr = self.parse_attribute()
                if isinstance(encoding, NoneAttr) and not isinstance(attr, enc.SharedMemorySpaceAttr):
                    encoding = attr
                else:
                    space = attr
            cur.expect(">", "to end memdesc type")
            if alloc_shape is not None and tuple(alloc_shape) == tuple(dims):
                alloc_shape = None  # MLIR's default: written or not, the same type (and printed without it)
            return MemDescType(tuple(dims), elem, encoding, space, mutable, alloc_shape)
        if name == "tt.tensordesc":
            cur.expect("<")
            cur.skip()
            if cur.text.startswith("tensor<", cur.pos):
                block = self.parse_type()
                wrapped = True
            else:
                block = self._shaped_body("tensor")
                wrapped = False
            cur.expect(">", "to end tensordesc type")
            return TensorDescType(block, wrapped)
        end = cur.balanced_end(start)
        cur.pos = end
        body = cur.text[start:end]
        # a verbatim body may name aliases (`!nvws.aref<[!ttg.memdesc<..., #shared0, #smem>]>`): they are read
        # here, so that the printer can name them as it names every alias (ParsedModule.alias_values)
        self._resolve_aliases_named(body, start)
        return OpaqueType(StringAttr(raw_name), StringAttr(body))

    # -- attributes -----------------------------------------------------------------
    def parse_attribute_or_location(self) -> Attribute:
        if self.cur.peek(4) == "loc(":
            return self.parse_location()
        return self.parse_attribute()

    def parse_attribute(self, what: str = "attribute") -> Attribute:
        pos = self.cur.skip()
        a = self.try_attribute()
        if a is None:
            raise ParseError(pos, f"expected {what}, found {self.cur._describe_next()}")
        return a

    def try_attribute(self) -> Attribute | None:
        cur = self.cur
        start = cur.skip()
        text = cur.text
        if start >= len(text):
            return None
        c = text[start]
        if c == "#":
            return self._hash_attribute()
        if c == '"':
            s = cur.string()
            if cur.peek() == ":" and not cur.text.startswith("::", cur.pos):
                save = cur.pos
                cur.try_lit(":")
                if self.try_type() is None:
                    cur.pos = save
            return StringAttr(s)
        if c == "[":
            cur.expect("[")
            items: list[Attribute] = []
            if not cur.try_lit("]"):
                items.append(self.parse_attribute())
                while cur.try_lit(","):
                    items.append(self.parse_attribute())
                cur.expect("]", "to end array")
            return ArrayAttr(items)
        if c == "{":
            return self.parse_dictionary()
        if c == "@":
            root = cur.try_symbol()
            nested: list[str] = []
            while cur.try_lit("::"):
                s = cur.try_symbol()
                if s is None:
                    raise cur.error("expected symbol after '::'")
                nested.append(s)
            return SymbolRefAttr(root, nested)
        if c == "-" or c.isdigit():
            return self._number_attribute()
        word = re.compile(r"[A-Za-z_][\w]*", re.ASCII).match(text, start)
        if word:
            w = word.group(0)
            if w in ("true", "false"):
                cur.pos = word.end()
                return BoolAttr.from_bool(w == "true")
            if w == "unit":
                cur.pos = word.end()
                return UnitAttr()
            if w == "dense" and text.startswith("<", word.end()):
                return self._dense()
            if w == "array" and text.startswith("<", word.end()):
                return self._dense_array()
            if w == "loc" and text.startswith("(", word.end()):
                return self.parse_location()  # a location used as an attribute value
        t = self.try_type()
        if t is not None:
            return t
        return None

    def parse_dictionary(self) -> DictionaryAttr:
        return DictionaryAttr(self.parse_attr_entries("{", "}"))

    def parse_attr_entries(self, open_: str, close: str) -> dict[str, Attribute]:
        cur = self.cur
        cur.expect(open_)
        out: dict[str, Attribute] = {}
        if cur.try_lit(close):
            return out
        while True:
            pos = cur.skip()
            key = cur.try_string()
            if key is None:
                key = cur.try_bare_id()
            if key is None:
                raise cur.error(f"expected attribute name, found {cur._describe_next()}")
            if key in out:
                raise ParseError(pos, f"duplicate key '{key}' in dictionary attribute")
            if cur.try_lit("="):
                out[key] = self.parse_attribute()
            else:
                out[key] = UnitAttr()
            if cur.try_lit(close):
                return out
            cur.expect(",", "or '" + close + "' in attribute dictionary")

    def _number_attribute(self) -> Attribute:
        cur = self.cur
        start = cur.skip()
        num = cur.try_number_text()
        if num is None:
            raise cur.error("expected number")
        t: Attribute | None = None
        if cur.peek() == ":" and not cur.text.startswith("::", cur.pos):
            cur.try_lit(":")
            t = self.parse_type()
        is_float_text = ("." in num or "e" in num.lower()) and not num.lower().lstrip("-").startswith("0x")
        if t is None:
            if is_float_text:
                return FloatAttr(float(num), Float64Type())
            t = IntegerType(64)
        if isinstance(t, (IntegerType, IndexType)):
            if is_float_text:
                raise ParseError(start, "floating point value not valid for integer type")
            value = int(num, 0)
            width = t.width.data if isinstance(t, IntegerType) else 64
            # the range xDSL's IntegerAttr accepts: signed or unsigned reading of `width` bits
            low, high = (-(1 << (width - 1)), 1 << width) if width else (0, 1)
            if not low <= value < high or _negative_zero(num, value):
                # `-0`: Triton 3.1's MLIR rejects it (a negated literal must come out negative)
                raise ParseError(start, f"integer constant out of range for attribute of type {t}")
            if t == _I1:
                return BoolAttr.from_bool(bool(value))
            return integer_attr(value, t)
        if not isinstance(t, AnyFloat):
            raise ParseError(start, f"invalid type {t} for a number attribute: expected an integer or float type")
        if not is_float_text:
            # MLIR reads an integer literal of a float type only as hexadecimal bits
            if not num.lower().lstrip("-").startswith("0x"):
                raise ParseError(start, "unexpected decimal integer literal for a floating point value "
                                        "(add a trailing dot to make the literal a float)")
            bits = float_bits(t)
            if num.startswith("-") or (bits is not None and int(num, 16) >= 1 << bits):
                raise ParseError(start, f"hexadecimal float constant out of range for type {t}")
        try:
            value = parse_scalar(num, t)
        except (ValueError, OverflowError) as e:
            raise ParseError(start, f"invalid floating point literal: {e}") from None
        return FloatAttr(float(value), t)

    def _dense(self) -> Attribute:
        cur = self.cur
        cur.expect("dense")
        start = cur.pos
        end = cur.balanced_end(start)
        body = cur.text[start + 1 : end - 1].strip()
        cur.pos = end
        cur.expect(":", "after dense literal")
        t = self.parse_type()
        if not isinstance(t, (TensorType, VectorType)):  # vectors: `{async_task_id = dense<0> : vector<1xi32>}`
            raise ParseError(start, "dense elements need a tensor or vector type")
        # validate the literal against the element type now, not when a pass reads it
        try:
            values = DenseElementsAttr(StringAttr(body), t).values()
        except (ValueError, OverflowError):
            raise ParseError(start, f"invalid dense literal '{body}' for {t.element_type}") from None
        problem = _dense_problem(body, values, t)
        if problem is not None:
            raise ParseError(start, problem)
        return DenseElementsAttr(StringAttr(_canonical_dense_body(body, values, t.element_type)), t)

    def _dense_array(self) -> Attribute:
        cur = self.cur
        cur.expect("array")
        cur.expect("<")
        epos = cur.skip()
        elem = self.parse_type("element type")
        if not isinstance(elem, (IntegerType, AnyFloat)):
            raise ParseError(epos, f"invalid element type {elem} for a dense array: expected an integer or float type")
        values: list[int | float] = []
        if cur.try_lit(":"):
            while True:
                npos = cur.skip()
                num = cur.try_number_text()
                if num is None:
                    if cur.try_lit("true"):
                        num = "1"
                    elif cur.try_lit("false"):
                        num = "0"
                    else:
                        raise cur.error("expected number in array literal")
                is_float = ("." in num or "e" in num.lower()) and "x" not in num.lower()
                if isinstance(elem, IntegerType):
                    if is_float:
                        raise ParseError(npos, "floating point value not valid for integer type")
                    value = int(num, 0)
                    if not elem.value_range()[0] <= value < elem.value_range()[1] or _negative_zero(num, value):
                        # `-0` as in a scalar attribute: Triton 3.1 and 3.3 reject it
                        raise ParseError(npos, f"integer constant out of range for {elem}")
                    values.append(value)
                else:
                    if _DECIMAL_INTEGER.fullmatch(num):
                        raise ParseError(npos, "unexpected decimal integer literal for a floating point value")
                    try:
                        values.append(float(parse_scalar(num, elem)))
                    except (ValueError, OverflowError) as e:
                        raise ParseError(npos, f"invalid floating point literal: {e}") from None
                if not cur.try_lit(","):
                    break
        cur.expect(">", "to end array literal")
        return DenseArrayBase.from_list(elem, values)

    def _hash_attribute(self) -> Attribute:
        cur = self.cur
        start = cur.skip()
        ident = cur.try_hash_id()
        if ident is None:
            raise cur.error("expected attribute after '#'")
        if "." not in ident and not cur.text.startswith("<", cur.pos):
            return self.aliases.resolve("#" + ident, self, start)
        name = self.canonical(ident)
        if name == "ttg.shared_memory":
            return enc.SharedMemorySpaceAttr()
        cls = _STRUCT_BY_NAME.get(name)
        if cls is not None and cur.text.startswith("<{", cur.pos) and self.nesting:
            self.nesting += 1  # a layout inside a layout: parsed in place (see _nested_shaped)
            body_start = cur.pos
            try:
                return self._struct_layout(cls)
            except _UnknownField:
                cur.pos = cur.balanced_end(body_start)
                return enc.OpaqueAttr(StringAttr(ident), StringAttr(cur.text[body_start : cur.pos]))
            finally:
                self.nesting -= 1
        if cls is not None and cur.text.startswith("<{", cur.pos):
            key = cur.text[start : cur.balanced_end(cur.pos)]
            cached = self.type_cache.get(key)
            if cached is not None:
                cur.pos = start + len(key)
                return cached
            body_start = cur.pos
            self.nesting += 1
            try:
                attr = self._struct_layout(cls)
            except _UnknownField:
                cur.pos = cur.balanced_end(body_start)
                attr = enc.OpaqueAttr(StringAttr(ident), StringAttr(cur.text[body_start : cur.pos]))
            finally:
                self.nesting -= 1
            self.type_cache[key] = attr
            return attr
        dialect, _, mnemonic = name.partition(".")
        known = KNOWN_ATTRIBUTES.get(dialect)
        if known is None or (known and mnemonic not in known):
            if dialect == "builtin":
                raise ParseError(start, "dialect 'builtin' provides no attribute parsing hook")
            what = f"dialect '{dialect}'" if known is None else f"attribute '{mnemonic}' of dialect '{dialect}'"
            raise ParseError(start, f"#{ident}: unknown {what} (Triton registers no such attribute)")
        body = ""
        if cur.text.startswith("<", cur.pos):
            end = cur.balanced_end(cur.pos)
            body = self._aliases_written_out(cur.text[cur.pos : end], start)
            cur.pos = end
        return enc.OpaqueAttr(StringAttr(ident), StringAttr(body))

    _ALIAS_USE = ALIAS_USE

    def _resolve_aliases_named(self, body: str, use_pos: int) -> None:
        if "#" not in body:
            return
        for m in self._ALIAS_USE.finditer(body):
            if m.group(0) in self.aliases.pending:
                self.aliases.resolve(m.group(0), self, use_pos)

    def _aliases_written_out(self, body: str, use_pos: int) -> str:
        """A verbatim body (`#ttg.partitioned_shared<{..., partitionLayout = #inner}>`) with the aliases it
        names replaced by their definitions: the printer recomputes aliases, so `#inner` would print
        undefined."""
        if "#" not in body:
            return body
        table = self.aliases

        def definition(m: re.Match) -> str:
            key = m.group(0)
            if key not in table.pending:
                return key
            table.resolve(key, self, use_pos)
            text = self.cur.text[table.pending[key] : table.ends[key]].strip()
            return self._aliases_written_out(text, use_pos)

        return self._ALIAS_USE.sub(definition, body)

    def _struct_layout(self, cls: type[enc.StructLayoutAttr]) -> Attribute:
        cur = self.cur
        kinds = dict(cls.FIELDS)
        start = cur.skip()
        cur.expect("<")
        cur.expect("{")
        values: dict[str, object] = {}
        if not cur.try_lit("}"):
            while True:
                pos = cur.skip()
                key = cur.bare_id("layout parameter name")
                kind = kinds.get(key)
                if kind is None:
                    if key in _KEYS_KEPT_AS_TEXT.get(cls.name, ()) or key in _CTA_KEYS_KEPT_AS_TEXT:
                        raise _UnknownField(key)  # a key of a Triton version irkit does not model: kept verbatim
                    raise ParseError(pos, f"unexpected key: {key}")  # as Triton's layout parsers say
                if key in values:
                    raise ParseError(pos, f"duplicate layout parameter '{key}'")
                cur.expect("=")
                values[key] = self._struct_value(kind, pos)
                if cur.try_lit("}"):
                    break
                cur.expect(",", "or '}' in layout parameters")
        cur.expect(">", f"to end #{cls.name}")
        problem = layout_problem(cls, values, legacy=self.saw_legacy and not self.saw_current)
        if problem is not None:
            raise ParseError(start, f"invalid #{cls.name} layout: {problem}")
        return cls.from_values(**values)

    def _struct_value(self, kind: str, pos: int) -> object:
        cur = self.cur
        if kind == enc.INT:
            return self._dictionary_integer()
        if kind == enc.BOOL:
            if cur.try_lit("true"):
                return True
            if cur.try_lit("false"):
                return False
            raise cur.error("expected 'true' or 'false'")
        if kind == enc.INTS:
            return tuple(self._int_list())
        if kind == enc.INTSS:
            cur.expect("[")
            out: list[tuple[int, ...]] = []
            if not cur.try_lit("]"):
                while True:
                    out.append(tuple(self._int_list()))
                    if cur.try_lit("]"):
                        break
                    cur.expect(",")
            return tuple(out)
        return self.parse_attribute()

    def _int_list(self) -> list[int]:
        cur = self.cur
        cur.expect("[")
        out: list[int] = []
        if cur.try_lit("]"):
            return out
        while True:
            out.append(self._dictionary_integer())
            if cur.try_lit("]"):
                return out
            cur.expect(",", "or ']' in integer list")

    def _dictionary_integer(self) -> int:
        """An integer of a layout's `{...}`, which Triton's parsers read as an MLIR dictionary attribute: an
        integer attribute literal, so `-0` is out of range as in any other (`_negative_zero`)."""
        cur = self.cur
        start = cur.skip()
        value = cur.integer()
        if _negative_zero(cur.text[start:cur.pos], value):
            raise ParseError(start, "integer constant out of range for attribute")
        return value

    # -- locations ----------------------------------------------------------------------
    def try_location(self) -> Attribute | None:
        """`loc(...)` if it comes next."""
        cur = self.cur
        m = _LOC_ALIAS_USE.match(cur.text, cur.skip())
        if m is not None:  # `loc(#loc12)`, what almost every op line ends with
            loc = self.aliases.resolve(m.group(1), self, m.start(1))
            if not isinstance(loc, LOCATION_TYPES):
                raise ParseError(m.start(1), f"expected location, but '{m.group(1)}' is not a location alias")
            cur.pos = m.end()
            return loc
        if not self.cur.try_lit("loc"):
            return None
        self.cur.expect("(")
        loc = self._location_inner()
        self.cur.expect(")", "to end location")
        return loc

    def parse_location(self) -> Attribute:
        loc = self.try_location()
        if loc is None:
            raise self.cur.error("expected location")
        return loc

    def _location_inner(self) -> Attribute:
        cur = self.cur
        start = cur.skip()
        if cur.text.startswith("#", start):
            ident = cur.try_hash_id()
            if ident is None:
                raise ParseError(start, "expected location alias name after '#'")
            loc = self.aliases.resolve("#" + ident, self, start)
            if not isinstance(loc, LOCATION_TYPES):
                raise ParseError(start, f"expected location, but '#{ident}' is not a location alias")
            return loc
        if cur.try_lit("unknown"):
            return UnknownLoc()
        if cur.try_lit("callsite"):
            cur.expect("(")
            callee = self._location_inner()
            cur.expect("at", "in callsite location")
            caller = self._location_inner()
            cur.expect(")")
            return CallSiteLoc(callee, caller)
        if cur.try_lit("fused"):
            metadata: Attribute = NoneAttr()
            if cur.try_lit("<"):
                metadata = self.parse_attribute()
                cur.expect(">")
            cur.expect("[")
            locs: list[Attribute] = []
            if not cur.try_lit("]"):
                locs.append(self._location_inner())
                while cur.try_lit(","):
                    locs.append(self._location_inner())
                cur.expect("]")
            return FusedLoc(ArrayAttr(locs), metadata)
        s = cur.try_string()
        if s is None:
            raise cur.error(f"expected location, found {cur._describe_next()}")
        if cur.try_lit(":"):
            line = self._location_number("line number")
            cur.expect(":")
            col = self._location_number("column number")
            return file_line_col(s, line, col)  # no `to` range: Triton 3.1-3.9's MLIR has none
        if cur.try_lit("("):
            child = self._location_inner()
            cur.expect(")")
            return name_loc(s, child)
        return name_loc(s, None)


    def _location_number(self, what: str) -> int:
        """A line or column: an unsigned 32-bit decimal, as MLIR reads it."""
        cur = self.cur
        pos = cur.skip()
        m = _LOC_NUMBER.match(cur.text, pos)
        if m is None or int(m.group(0)) >= 1 << 32:
            raise ParseError(pos, f"expected {what} (an unsigned 32-bit integer), found {cur._describe_next()}")
        cur.pos = m.end()
        return int(m.group(0))


def _negative_zero(literal: str, value: int) -> bool:
    """`-0` as an integer attribute literal, which MLIR rejects ("integer constant out of range"): it builds a
    negated literal and requires the result to come out negative."""
    return value == 0 and literal.lstrip().startswith("-")


_DECIMAL_INTEGER = re.compile(r"-?\d+", re.ASCII)
_EXPONENT_WITHOUT_POINT = re.compile(r"[-+]?\d+[eE]", re.ASCII)  # MLIR lexes `1e5` as the integer 1, then `e5`


def _dense_problem(body: str, values: list, t: TensorType | VectorType) -> str | None:
    """What MLIR's dense literal parser rejects and decoding alone lets through."""
    et = t.element_type
    if isinstance(et, AnyFloat):
        tokens = body.replace("[", " ").replace("]", " ").replace(",", " ").split()
        if any(_DECIMAL_INTEGER.fullmatch(tok) for tok in tokens):
            return "expected floating-point elements, but parsed integer"
        if any(_EXPONENT_WITHOUT_POINT.match(tok) for tok in tokens):
            return "a float literal needs a decimal point before its exponent (MLIR reads `1e5` as 1, then `e5`)"
    elif isinstance(et, IntegerType) and et.width.data > 1:
        low, high = et.value_range()
        if any(not low <= v < high for v in values):
            return f"integer constant out of range for type {et}"
    shape = t.get_shape()
    if all(d >= 0 for d in shape):
        count = 1
        for d in shape:
            count *= d
        if len(values) not in (1, count) or (len(values) == 1 and body.startswith("[") and count != 1):
            return f"dense literal has {len(values)} element(s) but the type {t} holds {count}"
    return None


_REQUIRED_FIELDS = {
    "ttg.blocked": ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"),
    "ttg.slice": ("dim", "parent"),
    "ttg.dot_op": ("opIdx", "parent"),
}
_POSITIVE_FIELDS = ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "CTAsPerCGA", "CTASplitNum", "instrShape")
_RANKED_FIELDS = ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CTAsPerCGA", "CTASplitNum", "CTAOrder")


def layout_problem(cls: type[enc.StructLayoutAttr], values: dict[str, object], legacy: bool = False) -> str | None:
    """What Triton's layout verifiers would reject in a parsed layout (None: fine):
    missing parameters, ranks that differ, orders that are no permutation,
    sizes below 1.  Kept to checks every Triton version makes, or the versions the file's spelling
    admits (`legacy`: `triton_gpu.*`, Triton 3.1-3.2)."""
    missing = [k for k in _REQUIRED_FIELDS.get(cls.name, ()) if k not in values]
    if missing:
        return f"missing parameter(s) {', '.join(missing)}"
    for key in _POSITIVE_FIELDS:
        v = values.get(key)
        if isinstance(v, tuple) and any(x < 1 for x in v):
            return f"{key} = {list(v)} must be positive"
    for key in ("order", "CTAOrder"):
        v = values.get(key)
        if isinstance(v, tuple) and sorted(v) != list(range(len(v))):
            return f"{key} = {list(v)} must be a permutation of 0..{len(v) - 1}"
    for key, v in values.items():  # Triton keeps layout parameters in 32-bit unsigned fields
        ints = [v] if isinstance(v, int) else [x for x in v if isinstance(x, int)] if isinstance(v, tuple) else []
        if isinstance(v, tuple) and v and isinstance(v[0], tuple):
            ints = [x for row in v for x in row]
        if any(not -(1 << 31) <= x < 1 << 32 for x in ints):
            return f"{key} does not fit in 32 bits"
    for key, v in values.items():  # Triton reads layout parameters as unsigned integers
        if isinstance(v, tuple) and v and isinstance(v[0], tuple):
            ints = [x for row in v for x in row]
        elif isinstance(v, tuple):
            ints = [x for x in v if isinstance(x, int)]
        else:
            ints = [v] if isinstance(v, int) and not isinstance(v, bool) else []
        if any(x < 0 for x in ints):
            return f"expected an unsigned integer value in {key}"
    ranks = {k: len(v) for k in _RANKED_FIELDS if isinstance(v := values.get(k), tuple)}
    if cls.name == "ttg.blocked" and len(set(ranks.values())) > 1:
        return "sizePerThread, threadsPerWarp, warpsPerCTA, order and the CTA parameters must all have the same rank"
    if "dim" in values and values["dim"] < 0:
        return f"dim = {values['dim']} must not be negative"
    if cls.name == "ttg.nvidia_mma" and values.get("versionMajor") not in (None, 1, 2, 3):
        return f"versionMajor must be 1 (Volta), 2 (Ampere) or 3 (Hopper), got {values['versionMajor']}"
    # amd_mfma: 3.1-3.8's key and 3.9's; 4 is CDNA4 (gfx950), written in both (Triton's gfx950 tests since 2025)
    for key, most in (("versionMajor", 4), ("version", 4)):
        if cls.name == "ttg.amd_mfma" and isinstance(values.get(key), int) and not 0 <= values[key] <= most:
            return f"major version must be in the [0, {most}] range"
    if cls.name == "ttg.amd_mfma" and values.get("versionMinor") not in (None, 0):
        return "minor version must be 0"
    cta = [k for k in ("CTAsPerCGA", "CTASplitNum", "CTAOrder") if k in values]
    if cta and len(cta) != 3:
        return "CTAsPerCGA, CTASplitNum, and CTAOrder must all be present or all be absent"
    shape = values.get("instrShape")
    if cls.name == "ttg.amd_mfma" and "versionMajor" in values and isinstance(shape, tuple) and len(shape) == 2 \
            and shape not in ((32, 32), (16, 16)):
        return "(M, N) cases other than (32, 32) or (16, 16) unimplemented"
    # Triton's nvmma_shared aborts on others; 0 appears in Triton's own warp-specialization tests (2025)
    if values.get("elementBitWidth") not in (None, 0, 8, 16, 32, 64):
        return f"elementBitWidth = {values['elementBitWidth']} must be 8, 16, 32 or 64"
    if values.get("swizzlingByteWidth") not in (None, 0, 32, 64, 128):
        return "swizzlingByteWidth must be 0, 32, 64, or 128"
    if cls.name == "ttg.nvidia_mma" and values.get("versionMajor") == 2 and isinstance(shape, tuple) \
            and isinstance(warps := values.get("warpsPerCTA"), tuple) and len(shape) != len(warps):
        # Triton 3.9 builds an Ampere tile of one instrShape entry per dim (and aborts on others)
        return f"instrShape = {list(shape)} of an Ampere layout must have one entry per dimension ({len(warps)})"
    if cls.name == "ttg.nvidia_mma" and values.get("versionMajor") == 3 and isinstance(shape, tuple) \
            and len(shape) == 3 and shape[1] % 8:
        # wgmma's N is a multiple of 8; Triton 3.9 aborts building the tile otherwise (n % (kWidth * 4))
        return f"instrShape = {list(shape)} of a Hopper layout needs N a multiple of 8"
    if cls.name == "ttg.dot_op":
        if values["opIdx"] not in (0, 1):
            return f"opIdx = {values['opIdx']} must be 0 or 1"
        return _dot_operand_problem(values, legacy)
    return None


def _dot_operand_problem(values: dict[str, object], legacy: bool) -> str | None:
    """DotOperandEncodingAttr::verify on an MMA parent: the elements per thread along K (kWidth) are
    needed by Ampere and AMD MFMA (and Hopper from 3.3 on, where only operand A may sit in registers);
    3.1 allows kWidth only on an Ampere parent."""
    parent, k_width = values.get("parent"), values.get("kWidth") or 0
    if isinstance(parent, enc.AmdMfmaEncodingAttr) and not k_width:
        return "kWidth parameter is mandatory for MFMA parent"
    if not isinstance(parent, enc.NvidiaMmaEncodingAttr):
        return None
    major = parent.get("versionMajor")
    if legacy:
        if major == 2 and not k_width:
            return "kWidth parameter is mandatory for Ampere MMA parent"
        if major != 2 and k_width:
            return "kWidth parameter can only be non-zero for Ampere MMA parent"
        return None
    if major == 3 and values["opIdx"] != 0:
        return "opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only allows first operand to be in registers"
    if major in (2, 3) and not k_width:
        return "kWidth parameter is mandatory for Ampere or Hopper MMA parent"
    return None


class _UnknownField(Exception):
    pass


