"""`capture.Backend` on a GPU through PyTorch (CUDA and ROCm builds alike).

Buffer arguments are torch tensors, or objects holding one in `.base` (Triton's host-side
TensorDescriptor).  A snapshot copies each distinct storage once, as bytes; a materialized argument list
points at a fresh copy of those bytes with the original offsets, sizes and strides.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import torch

from irkit.check.capture import ArgDifference, Comparison

FLUSH_BYTES = 256 * 1024 * 1024  # larger than any current GPU's L2 (as triton.testing.do_bench)


def _tensor_of(arg: Any) -> torch.Tensor | None:
    if isinstance(arg, torch.Tensor):
        return arg
    base = getattr(arg, "base", None)
    return base if isinstance(base, torch.Tensor) else None


def _storage_bytes(t: torch.Tensor) -> torch.Tensor:
    s = t.untyped_storage()
    return torch.empty(0, dtype=torch.uint8, device=t.device).set_(s, 0, (s.nbytes(),), (1,))


def _view_on(buf: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
    return torch.empty(0, dtype=like.dtype, device=like.device).set_(
        buf.untyped_storage(), like.storage_offset(), like.size(), like.stride())


def _replace_tensor(arg: Any, t: torch.Tensor) -> Any:
    if isinstance(arg, torch.Tensor):
        return t
    if dataclasses.is_dataclass(arg):
        return dataclasses.replace(arg, base=t)
    clone = type(arg).__new__(type(arg))
    clone.__dict__.update(arg.__dict__, base=t)
    return clone


class TorchBackend:
    def __init__(self):
        self._flush = None

    def snapshot(self, args: list[Any]) -> dict[int, torch.Tensor]:
        copies: dict[int, torch.Tensor] = {}
        for arg in args:
            t = _tensor_of(arg)
            if t is None or t.device.type == "cpu":
                continue
            key = t.untyped_storage().data_ptr()
            if key not in copies:
                copies[key] = _storage_bytes(t).clone()
        return copies

    def materialize(self, snapshot: dict[int, torch.Tensor], args: list[Any]) -> list[Any]:
        fresh = {key: buf.clone() for key, buf in snapshot.items()}
        out = []
        for arg in args:
            t = _tensor_of(arg)
            key = t.untyped_storage().data_ptr() if t is not None else None
            out.append(_replace_tensor(arg, _view_on(fresh[key], t)) if key in fresh else arg)
        return out

    def compare(self, a: list[Any], b: list[Any], args: list[Any]) -> Comparison:
        """Bit for bit over each argument's whole storage; for floating arguments that differ, the largest
        absolute and relative error and how many elements differ."""
        identical = True
        diffs = []
        seen = set()
        for i, (x, y) in enumerate(zip(a, b)):
            tx, ty = _tensor_of(x), _tensor_of(y)
            if tx is None or ty is None or tx.data_ptr() == ty.data_ptr():
                continue
            key = tx.untyped_storage().data_ptr()
            if key in seen:
                continue
            seen.add(key)
            if torch.equal(_storage_bytes(tx), _storage_bytes(ty)):
                continue
            identical = False
            d = ArgDifference(i, str(tx.dtype).replace("torch.", ""), tx.numel(), 0)
            if tx.dtype.is_floating_point:
                fx, fy = tx.double(), ty.double()
                same = (fx == fy) | (torch.isnan(fx) & torch.isnan(fy))
                d.differing = int((~same).sum().item())
                err = (fx - fy).abs().nan_to_num(nan=float("inf"))
                err = torch.where(same, torch.zeros_like(err), err)
                d.max_abs = float(err.max().item()) if err.numel() else 0.0
                d.max_rel = float((err / fx.abs().clamp_min(1e-30)).max().item()) if err.numel() else 0.0
            else:
                d.differing = int((tx.view(torch.uint8) != ty.view(torch.uint8)).sum().item()) \
                    if tx.is_contiguous() else -1
            diffs.append(d)
        return Comparison(identical, diffs)

    def time_calls(self, calls: list[Callable[[], None]]) -> list[float]:
        if self._flush is None:
            self._flush = torch.empty(FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")
        events = []
        for call in calls:
            self._flush.zero_()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            call()
            end.record()
            events.append((start, end))
        torch.cuda.synchronize()
        return [s.elapsed_time(e) for s, e in events]

    def synchronize(self) -> None:
        torch.cuda.synchronize()
