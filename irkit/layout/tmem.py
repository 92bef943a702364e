"""Which register layouts a Blackwell tensor-memory load or store can use without a conversion.

Triton's `isDistributedLayoutTMemCompatible` (lib/Dialect/TritonNvidiaGPU/IR/Dialect.cpp, through
`computeTMemLdStEncodingInfo` in TensorMemoryUtils.cpp) tries every `tcgen05.ld/st` message shape on the
register layout composed with the tensor-memory layout.  irkit recognises the one message nearly every
kernel uses, `32x32b`: each lane reads one row, warps 0 and 1 of a warp group the rows 32 and 64 below,
registers (and further warps) walk the columns.  A layout this test accepts is accepted by Triton; one it
rejects may still fit another message (`16x256b`, `16x64b`, ...): a caller then keeps a conversion that
Triton would drop, never the reverse.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute

from irkit.dialects.encodings import OpaqueAttr
from irkit.dialects.types import MemDescType
from irkit.layout.linear import to_linear_layout

TMEM_ENCODING = "ttng.tensor_memory_encoding"
ROWS_PER_WARP_GROUP = 128  # blockM of the one-CTA 32x32b message: 4 warps x 32 lanes
LANE_ROWS = [(1 << i, 0) for i in range(5)]  # lane l reads row l
WARP_ROWS = [(32, 0), (64, 0)]  # warps 0-3 of a warp group own rows 0, 32, 64, 96


def tmem_encoding_params(encoding: Attribute) -> dict[str, int | bool] | None:
    """`#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>` (3.6 on; `unpacked = true`
    up to 3.5) as a dict; None for any other encoding."""
    if not isinstance(encoding, OpaqueAttr) or encoding.dialect_name.data != TMEM_ENCODING:
        return None
    params: dict[str, int | bool] = {}
    for key, value in re.findall(r"(\w+)\s*=\s*(\w+)", encoding.body.data):
        params[key] = value == "true" if value in ("true", "false") else int(value) if value.isdigit() else 0
    return params


def _element_bits(element_type: Attribute) -> int | None:
    if isinstance(element_type, IntegerType):
        return element_type.width.data
    bits = getattr(element_type, "bitwidth", None)
    return bits if isinstance(bits, int) else None


def fits_32x32b_message(tensor: Attribute, memdesc: Attribute) -> bool:
    """Does a `tcgen05.ld/st` 32x32b message move `tensor` (a distributed tensor type) to or from the
    tensor memory `memdesc` without a layout conversion?  (A sufficient test, see the module docstring.)"""
    if not isinstance(tensor, TensorType) or not isinstance(memdesc, MemDescType):
        return False
    params = tmem_encoding_params(memdesc.encoding)
    shape = tuple(tensor.get_shape())
    if params is None or len(shape) != 2 or shape != memdesc.get_shape():
        return False
    if params.get("blockM") != ROWS_PER_WARP_GROUP or shape[0] != ROWS_PER_WARP_GROUP or params.get("twoCTAs"):
        return False
    bits = _element_bits(tensor.element_type)
    if bits is None or bits > 32 or 32 % bits:
        return False
    ll = to_linear_layout(tensor.encoding, shape)
    if ll is None or any(any(v) for v in ll.bases.get("block", [])):
        return False
    lanes, warps, registers = ll.bases.get("lane", []), ll.bases.get("warp", []), ll.bases.get("register", [])
    if lanes != LANE_ROWS or warps[:2] != WARP_ROWS or any(v[0] for v in warps[2:] + registers):
        return False
    per_column = 32 // bits
    if per_column == 1 or params.get("colStride") == per_column or params.get("unpacked") is True:
        return True  # one element per 32-bit column
    # packed: two (four) elements share a 32-bit column, which the thread's first registers must fill
    packed = params.get("colStride") == 1 or params.get("unpacked") is False
    pair = [(0, 1 << i) for i in range(per_column.bit_length() - 1)]
    return packed and registers[: len(pair)] == pair
