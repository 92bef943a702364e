"""The two spellings of Triton's dialects.

Triton 3.1 writes `triton_gpu.*`, `triton_nvidia_gpu.*`, `triton_intel_gpu.*`,
`amdgpu.*` and `!tt.memdesc`; from 3.2 on it writes `ttg.*`, `ttng.*`,
`ttig.*`, `amdg.*` and `!ttg.memdesc`.  irkit's classes use the current names;
the parser maps the old prefixes onto them and remembers which spelling the
module came in, and the printer maps back.
"""

from __future__ import annotations

from enum import Enum

LEGACY_TO_CURRENT = {
    "triton_gpu": "ttg",
    "triton_nvidia_gpu": "ttng",
    "triton_intel_gpu": "ttig",
    "amdgpu": "amdg",
}
CURRENT_TO_LEGACY = {v: k for k, v in LEGACY_TO_CURRENT.items()}


class Spelling(Enum):
    LEGACY = "legacy"  # Triton <= 3.1
    CURRENT = "current"  # Triton >= 3.2


def canonical_name(name: str) -> tuple[str, bool]:
    """(current-spelling name, whether the input used the legacy spelling)."""
    dialect, dot, rest = name.partition(".")
    current = LEGACY_TO_CURRENT.get(dialect)
    if current is None or not dot:
        return name, False
    return f"{current}.{rest}", True


def spelled(name: str, spelling: Spelling) -> str:
    """The name as a module of `spelling` writes it."""
    if spelling is Spelling.CURRENT:
        return name
    dialect, dot, rest = name.partition(".")
    legacy = CURRENT_TO_LEGACY.get(dialect)
    if legacy is None or not dot:
        return name
    return f"{legacy}.{rest}"


def memdesc_prefix(spelling: Spelling) -> str:
    return "tt.memdesc" if spelling is Spelling.LEGACY else "ttg.memdesc"
