"""The Triton generations the shared-memory model distinguishes ("3.1", "3.3" for 3.2-3.3, "3.9" for 3.4
on), read from a version string or from a module's attribute spelling."""

from __future__ import annotations

import re
from typing import overload

from xdsl.dialects.builtin import (
    IntegerAttr,
)
from xdsl.ir import Attribute, Operation

from irkit.dialects.module_attrs import module_attrs, module_target
from irkit.layout.conversion import AMD_LDST_35, AMD_LDST_38, BROADCAST_WARP_SHUFFLES_FROM
from irkit.layout.intel_conversion import is_intel_target

# ---------------------------------------------------------------------------------------------
# Versions
# ---------------------------------------------------------------------------------------------

V31, V33, V39 = "3.1", "3.3", "3.9"
APPROX = "approximate: "  # notes with this prefix also go to SharedMemoryReport.notes


MAIN = "main"
"""The version of upstream Triton's main branch after the newest release irkit knows (a tree of Triton's
tests at such a commit, `irkit-opt --triton-version=main`)."""
MAIN_RELEASE = (99, 0, 0)  # `main` as (major, minor, patch): after every release


def is_main(version: str) -> bool:
    """`main`, or a release after 3.9 (whose rules irkit takes to be main's)."""
    return str(version).strip() == MAIN or is_at_least(version, (3, 10))


def is_at_least(version: str, major_minor: tuple[int, int]) -> bool:
    """Is `version` ("3.9.0", "3.10") that release or a later one (False for what is no version)."""
    parts = str(version).strip().split(".")
    try:
        return (int(parts[0]), int(parts[1]) if len(parts) > 1 else 0) >= major_minor
    except ValueError:
        return False


@overload
def normalize_version(version: str) -> str: ...
@overload
def normalize_version(version: None) -> None: ...
def normalize_version(version: str | None) -> str | None:
    """'3.1.0' -> '3.1'; 3.2/3.3 -> '3.3' rules; 3.4 and newer (and `main`) -> '3.9' rules."""
    if version is None:
        return None
    if str(version).strip() == MAIN:
        return V39
    parts = str(version).split(".")
    try:
        mm = (int(parts[0]), int(parts[1]) if len(parts) > 1 else 0)
    except ValueError as e:
        raise ValueError(f"bad Triton version {version!r}") from e
    if mm < (3, 2):
        return V31
    if mm < (3, 4):
        return V33
    return V39


def names_a_release(version: str | None) -> bool:
    """Does `version` name a release ("3.6.0"), not just a rule set ("3.9", as inferred from a `ttg.*` module)?"""
    return version is not None and len(str(version).split(".")) >= 3


def infer_version(module: Operation) -> str:
    """`triton_gpu.*` module attributes mean Triton 3.1; `ttg.*` the newest rules (3.9), except beside Intel's
    `triton_intel_gpu.*`: Intel's fork renamed that dialect `ttig` in May 2025, before 3.4, so such a module
    comes from its 3.2/3.3 line (triton-xpu 3.3.0b1 prints it)."""
    keys = module_attrs(module)
    if any(k.startswith("triton_gpu.") for k in keys):
        return V31
    if any(k.startswith("triton_intel_gpu.") for k in keys):
        return V33
    return V39


def attr_int(a: Attribute | None) -> int | None:
    if isinstance(a, IntegerAttr):
        return a.value.data
    return None


def release_of(version: str | None, module: Operation) -> tuple[int, int, int]:
    """(major, minor, patch) of the Triton that made `module`: from `version` ("3.5.1", "3.8"), else from the
    spelling (`triton_gpu.*`: 3.1; `ttg.*`: the newest irkit models, 3.9).  `main` is after every release."""
    text = version or infer_version(module)
    if str(text).strip() == MAIN:
        return MAIN_RELEASE
    numbers = [re.match(r"\d+", part) for part in (str(text).split(".") + ["0", "0"])[:3]]
    if not all(numbers):
        raise ValueError(f"bad Triton version {text!r}")
    major, minor, patch = (int(n.group()) for n in numbers if n is not None)  # "3.3.0b1": patch 0
    return major, minor, patch


def reduce_rules(version: str | None, module: Operation) -> str:
    """The rules a `tt.reduce`'s scratch follows.  Triton 3.4-3.7 pair 3.9's conversions with 3.3's reduce
    (srcShape with the axis replaced by the warps along it: measured with 3.5.1, 3.6.0 and 3.7.0 on bitonic
    sorts, whose reduces cross warps); the linear-layout reduction of the 3.9 rules comes with 3.8."""
    rules = normalize_version(version) if version is not None else infer_version(module)
    if rules == V39 and release_of(version, module) < (3, 8, 0):
        return V33
    if rules == V39 and is_intel_target(module_target(module)):
        # Intel's allocation sizes reduces with the srcShape formula (getScratchSizeInBytesOld) since its
        # April 2026 workaround for a reduce-order accuracy issue
        return V33
    return rules


def matrix_tiles_leave_reps(version: str | None, module: Operation) -> bool:
    """Whether a convert's ld/stmatrix swizzling keeps some common register bases out of its reps (Triton 3.6
    on).  3.4/3.5 do not: on sm90+ a convert whose stmatrix/ldmatrix tiles fit needs a quarter of the
    scratch (Triton 3.5.1: 1,024 B for 64x64 f16 blocked -> blocked where 3.6.0 and later take 4,096 B)."""
    return release_of(version, module) >= (3, 6, 0)


def broadcast_warps_shuffle(version: str | None, module: Operation) -> bool:
    """Whether a convert may stay a warp shuffle where dst spreads over a warp bit that src broadcasts over
    (src holding that data in its lanes): Triton 3.9.0 on, as measured (docs/shared-memory.md).
    3.4-3.8 decide it on minimalCvtLayout, whose warps stay in such a convert, so it takes shared memory
    (Triton 3.6.0 and 3.8.0 on random converts; the sources of Intel's fork at its release/3.8.0)."""
    return release_of(version, module) >= (*BROADCAST_WARP_SHUFFLES_FROM, 0)


def cvt_takes_larger_scratch(version: str | None, module: Operation) -> bool:
    """Whether a convert takes the larger of the swizzled and the padded scratch, as Triton 3.4 sizes every
    convert ("pessimistically take the max", lib/Analysis/Allocation.cpp from June 2025 until each backend got
    its own scratch function).  Measured with 3.4.0 on random converts for cuda:90 and gfx942."""
    return release_of(version, module)[:2] == (3, 4)


def amd_ldst_rules(version: str | None, module: Operation) -> str | None:
    """AMD's plain ld/st swizzling of a convert, by release (`conversion.AMD_LDST_35`: getVecBasisLdSt of November
    2025, a short vector filled from warp bases, in 3.5-3.7; `AMD_LDST_38`: the same vector, bank tiles by the
    arch's banks and ds_read tiles, 3.8 on); None off AMD or before 3.5.  Measured with 3.5.1-3.9.0 on random
    gfx942 modules (docs/random-converts-amd-lds.txt)."""
    triple = module_target(module)
    if not (triple and triple.startswith("hip:")):
        return None
    release = release_of(version, module)[:2]
    if release < (3, 5):
        return None
    return AMD_LDST_35 if release < (3, 8) else AMD_LDST_38
