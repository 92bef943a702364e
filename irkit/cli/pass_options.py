"""Pass options checked in the command line's own words.

xDSL builds a pass from `name{opt=value}` and reports a bad option with its Python view of it
("Incompatible types: given ('maybe',), expected <class 'bool'>", field names with underscores).
`check_pass_options` runs first and says what a user of mlir-opt expects instead:
"option 'loads-only' of pass 'propagate-mma' expects true or false, got 'maybe'".
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Literal, get_args, get_origin, get_type_hints


def option_name(field: str) -> str:
    """The spelling on the command line: `loads_only` -> `loads-only`."""
    return field.replace("_", "-")


def render_value(value: Any) -> str:
    """An option value as it is written in a pipeline: `true`, `3`, `all`, `a,b`; `<unset>` for none."""
    if value is None:
        return "<unset>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(render_value(v) for v in value)
    return str(value)


def describe_type(hint: Any) -> str:
    """What an option accepts, in words."""
    origin = get_origin(hint)
    if origin is Literal:
        return "one of " + ", ".join(render_value(a) for a in get_args(hint))
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in get_args(hint) if a is not type(None)]
        return " or ".join(describe_type(a) for a in inner) + " (or nothing)"
    if origin is tuple:
        return "a comma-separated list of " + {int: "integers", float: "numbers", str: "words", bool: "true/false"}.get(
            get_args(hint)[0], "values"
        )
    return {bool: "true or false", int: "an integer", float: "a number", str: "a word"}.get(hint, str(hint))


def word_options(pass_class: type) -> set[str]:
    """The options of a pass that take a word (`str`), spelled with dashes."""
    hints = get_type_hints(pass_class)
    return {option_name(f.name) for f in dataclasses.fields(pass_class) if hints.get(f.name) is str}


def check_pass_options(pass_class: type, parameters: dict[str, list]) -> str | None:
    """The first problem with `parameters` (a parsed `name{...}` spec's) for `pass_class`, or None."""
    from xdsl.utils.arg_spec import _convert_arg_to_type

    fields = {f.name: f for f in dataclasses.fields(pass_class) if f.init and f.name != "name"}
    hints = get_type_hints(pass_class)
    known = ", ".join(option_name(f) for f in fields) or "none"
    for raw_name, value in parameters.items():
        field = raw_name.replace("-", "_")
        if field not in fields:
            return f"pass '{pass_class.name}' has no option '{raw_name}' (its options: {known})"
        hint = hints[field]
        try:
            _convert_arg_to_type(value, hint)
        except ValueError:
            given = render_value(tuple(value)) if value else "nothing"
            return f"option '{option_name(field)}' of pass '{pass_class.name}' expects {describe_type(hint)}, got '{given}'"
    return None
