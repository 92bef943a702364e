# Written by irkit-check into a temporary folder put first on PYTHONPATH: hooks Triton launches in this
# process (irkit/check/hook.py), then runs the sitecustomize this one hides, if there is one.
import importlib.machinery as _machinery
import os as _os
import sys as _sys

_here = _os.path.dirname(_os.path.abspath(__file__))
try:
    from irkit.check import hook as _hook

    _hook.install()
except Exception as _e:  # noqa: BLE001 - never break the program being checked
    _sys.stderr.write(f"irkit-check: could not hook Triton: {type(_e).__name__}: {_e}\n")
_spec = _machinery.PathFinder.find_spec("sitecustomize", [p for p in _sys.path if _os.path.abspath(p or ".") != _here])
if _spec is not None and _spec.loader is not None:
    _code = _spec.loader.get_code("sitecustomize")
    if _code is not None:
        exec(_code, {"__name__": "sitecustomize", "__file__": _spec.origin})  # noqa: S102 - the hidden one
