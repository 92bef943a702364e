"""Pass pipelines as mlir-opt/triton-opt write them, and pass flags as they read them.

Textual pipeline (MLIR's syntax, and irkit's older flat form):

    builtin.module(tritongpu-coalesce, propagate-mma{dry-run=true}, tt.func(coalesce))
    rewrite-tensor-pointer{mode=intel-2400},coalesce

`anchor(...)` nests passes under an op name.  irkit's passes are module passes whose
rewrites are local to each function, so a pass nested under `tt.func(...)` runs once on the
module, which gives the same IR.  The options inside `{...}` are read by xDSL's pass-spec
parser (`xdsl.utils.arg_spec.parse_spec`), so they mean exactly what `-p 'p{o=v}'` means.

Pass names: a pass's own `name` or one of the upstream (C++) names it declares in its
`upstream_names` ClassVar, each with the options that name implies (the catalog reads them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from irkit.cli.entry import CliError

TOP_ANCHORS = ("builtin.module",)


@dataclass(frozen=True)
class PassSpec:
    name: str  # as written (a pass name or an upstream alias)
    options: str  # the text between the braces, '' when none
    anchors: tuple[str, ...]  # enclosing op names, outermost first


class PipelineSyntaxError(CliError):
    pass


def _error(text: str, pos: int, message: str) -> PipelineSyntaxError:
    return PipelineSyntaxError(f"invalid pass pipeline '{text}': {message} (at column {pos + 1})")


def parse_textual_pipeline(text: str) -> list[PassSpec]:
    """The passes of `text`, in order, each with its anchors; raises PipelineSyntaxError."""
    out: list[PassSpec] = []
    pos = _parse_list(text, 0, (), out, closing=None)
    if pos != len(text):
        raise _error(text, pos, "unexpected text after the pipeline")
    if out and out[0].anchors and out[0].anchors[0] not in TOP_ANCHORS:
        raise CliError(f"pass pipeline anchored on '{out[0].anchors[0]}': the input's top-level op is "
                       "'builtin.module' (write builtin.module(...))")
    return out


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _parse_list(text: str, pos: int, anchors: tuple[str, ...], out: list[PassSpec], closing: str | None) -> int:
    pos = _skip_space(text, pos)
    if closing is not None and pos < len(text) and text[pos] == closing:
        return pos  # an empty nested pipeline, e.g. builtin.module()
    if pos >= len(text):
        if closing is not None:
            raise _error(text, pos, f"expected '{closing}'")
        return pos
    while True:
        pos = _parse_element(text, pos, anchors, out)
        pos = _skip_space(text, pos)
        if pos < len(text) and text[pos] == ",":
            pos = _skip_space(text, pos + 1)
            continue
        if closing is None:
            return pos
        if pos < len(text) and text[pos] == closing:
            return pos
        raise _error(text, pos, f"expected ',' or '{closing}'")


def _parse_element(text: str, pos: int, anchors: tuple[str, ...], out: list[PassSpec]) -> int:
    start = pos
    while pos < len(text) and (text[pos].isalnum() or text[pos] in "_-."):
        pos += 1
    name = text[start:pos]
    if not name:
        raise _error(text, pos, "expected a pass name or an op name")
    if pos < len(text) and text[pos] == "(":
        pos = _parse_list(text, pos + 1, (*anchors, name), out, closing=")")
        return pos + 1
    if "." in name:
        raise _error(text, start, f"'{name}' is an op name: write {name}(...) to nest passes under it")
    options = ""
    if pos < len(text) and text[pos] == "{":
        end = _matching_brace(text, pos)
        options = text[pos + 1 : end].strip()
        pos = end + 1
    out.append(PassSpec(name, options, anchors))
    return pos


def _matching_brace(text: str, pos: int) -> int:
    depth = 0
    quote = None
    i = pos
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise _error(text, pos, "unbalanced '{'")


def merge_options(implied: str, given: str) -> str:
    """The options an upstream name implies, overridden by the ones written: `mode=a` + `mode=b x=1`
    gives `mode=b x=1` (MLIR's rule: the last value of an option wins)."""
    if not implied:
        return given
    written = {_option_key(part) for part in _split_options(given)}
    kept = [part for part in _split_options(implied) if _option_key(part) not in written]
    return " ".join([*kept, *_split_options(given)])


def quote_word_options(options: str, words: set[str]) -> str:
    """`version=3.10` becomes `version="3.10"` where the option is a word (`words`, spelled with dashes):
    xDSL's option parser would read the number 3.1."""
    parts = []
    for part in _split_options(options):
        key, eq, value = part.partition("=")
        if eq and _option_key(part) in words and re.fullmatch(r"[-+]?[0-9][0-9.eE+-]*", value.strip()):
            part = f'{key}="{value.strip()}"'
        parts.append(part)
    return " ".join(parts)


def _option_key(part: str) -> str:
    return part.split("=", 1)[0].strip().replace("_", "-")


def _split_options(text: str) -> list[str]:
    """Options are separated by spaces outside quotes and braces."""
    parts, current, quote, depth = [], [], None, 0
    for c in text:
        if quote:
            current.append(c)
            if c == quote:
                quote = None
        elif c in "\"'":
            quote = c
            current.append(c)
        elif c in "{[(":
            depth += 1
            current.append(c)
        elif c in "}])":
            depth -= 1
            current.append(c)
        elif c.isspace() and depth == 0:
            if current:
                parts.append("".join(current))
                current = []
        else:
            current.append(c)
    if current:
        parts.append("".join(current))
    return parts


# -- the command line ----------------------------------------------------------------------------------


def split_command_line(
    argv: list[str], pass_names: set[str], value_options: set[str]
) -> tuple[list[str], list[tuple[str, str]]]:
    """mlir-opt's command-line rules on top of argparse.

    * `-name` and `--name` are the same long option (`-o` and `-p` stay short options);
    * a pass flag takes options only as `--pass=OPTIONS`, never the next word, so
      `irkit-opt --coalesce in.ttgir` reads `in.ttgir` as the input;
    * an option in `value_options` (e.g. `-o`, `--dump-section`) takes the next word as its value.

    Returns the arguments left for argparse (long options with two dashes) and the pass flags
    in command-line order as (name as written, options)."""
    rest: list[str] = []
    flags: list[tuple[str, str]] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "--":
            rest.extend(argv[i - 1 :])
            break
        if not arg.startswith("-") or arg == "-":
            rest.append(arg)
            continue
        body = arg.lstrip("-")
        name, eq, value = body.partition("=")
        if arg.startswith("--") or len(name) > 1:
            if name in pass_names:
                flags.append((name, _strip_braces(value) if eq else ""))
                continue
            arg = "--" + body
        else:
            arg = "-" + body
        rest.append(arg)
        if not eq and arg.split("=", 1)[0] in value_options and i < len(argv):
            rest.append(argv[i])  # the option's value, whatever it looks like
            i += 1
    return rest, flags


def _strip_braces(options: str) -> str:
    options = options.strip()
    if options.startswith("{") and options.endswith("}"):
        options = options[1:-1].strip()
    return options
