"""Which C++ pass a pipeline element means: an irkit pass with its options, or a Triton pass by name."""

from __future__ import annotations

from dataclasses import dataclass

from irkit.cli.entry import CliError
from irkit.cli.pipeline import _option_key, _split_options, parse_textual_pipeline


class NoCounterpart(CliError):
    """The prototype was asked for something its C++ pass does not do (an option with no C++ meaning)."""


@dataclass(frozen=True)
class UpstreamPass:
    name: str  # as triton-opt names it: tritongpu-coalesce
    version: str | None  # the Triton the prototype's `version=` option asks for ("3.1"), else None


def _options(text: str) -> dict[str, str]:
    out = {}
    for part in _split_options(text):
        key, _, value = part.partition("=")
        out[_option_key(key)] = value.strip().strip("'\"").lower()
    return out


def _defaults(info) -> dict[str, str]:
    return {k.replace("_", "-"): v.strip("'\"").lower() for k, v in info.options if not v.startswith("<")}


def upstream_pass(name: str, options: str) -> UpstreamPass:
    """The C++ pass `name{options}` mirrors.  An irkit pass maps through its `upstream_names`: the C++ name
    whose implied options equal the options the pass would run with (its `version=` option picks the
    Triton, not a pass); a name irkit has no pass for is taken as a Triton pass name."""
    from irkit.cli.pass_catalog import pass_catalog, pass_names

    names = pass_names()
    if name not in names:
        if options:
            raise NoCounterpart(f"'{name}{{{options}}}': irkit-ref passes no options to a C++ pass")
        return UpstreamPass(name, None)
    own, implied = names[name]
    given = _options(options)
    version = given.pop("version", None) or None
    if name != own:  # already a C++ name (tritongpu-coalesce): options are the ones it implies
        given = {**_options(implied), **given}
    info = pass_catalog()[own]
    defaults = _defaults(info)
    defaults.pop("version", None)
    wanted = {**defaults, **given}
    for upstream, implies in info.upstream_names:
        if {**defaults, **_options(implies)} == wanted:
            return UpstreamPass(upstream, version)
    odd = " ".join(f"{k}={v}" for k, v in given.items() if defaults.get(k) != v) or options
    cxx = ", ".join(n for n, _ in info.upstream_names) or "none"
    raise NoCounterpart(f"'{own}' with {odd}: no C++ pass does that (its C++ passes: {cxx})")


def upstream_pipeline(spec: str) -> list[UpstreamPass]:
    """Every element of a textual pipeline (irkit-opt's syntax), as C++ passes."""
    return [upstream_pass(p.name, p.options) for p in parse_textual_pipeline(spec)]
