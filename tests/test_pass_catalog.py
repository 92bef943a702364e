"""The help text's pass catalog (read from source, irkit/cli/pass_catalog.py) says
what importing the passes says: same names, order, summaries and options."""

import inspect

from irkit.passes import all_passes, summary
from xdsl.passes import get_pass_option_infos

from irkit.cli import pass_catalog as catalog_module
from irkit.cli.pass_catalog import PassInfo, pass_catalog
from irkit.cli.pass_options import render_value


def _from_import() -> dict[str, PassInfo]:
    out = {}
    for name, cls in all_passes().items():
        options = tuple(
            (i.name, render_value(getattr(cls, i.name)) if hasattr(cls, i.name) else "<" + i.expected_type + ">")
            for i in get_pass_option_infos(cls)
        )
        upstream = tuple(getattr(cls, "upstream_names", {}).items())
        doc = inspect.getdoc(cls) or ""
        out[name] = PassInfo(name, summary(cls), options, upstream, "\n".join(doc.splitlines()[1:]).strip())
    return out


def test_catalog_matches_the_imported_passes():
    assert list(pass_catalog()) == list(all_passes())
    assert pass_catalog() == _from_import()


def test_unreadable_module_is_imported_instead(tmp_path):
    # a computed pass name cannot be read from source: the scan says so
    src = tmp_path / "computed.py"
    src.write_text(
        "from dataclasses import dataclass\n"
        "from xdsl.passes import ModulePass\n"
        "@dataclass(frozen=True)\n"
        "class P(ModulePass):\n"
        "    '''Doc.'''\n"
        "    name = 'a' + 'b'\n"
    )
    assert catalog_module._scan_module(src) is None
    src.write_text(
        "from dataclasses import dataclass, field\n"
        "from xdsl.passes import ModulePass\n"
        "@dataclass(frozen=True)\n"
        "class P(ModulePass):\n"
        "    '''First line.\n\n    More.'''\n"
        "    name = 'p'\n"
        "    flag: bool = True\n"
        "    mode: str = 'Fast'\n"
    )
    assert catalog_module._scan_module(src) == [PassInfo("p", "First line.", (("flag", "true"), ("mode", "Fast")), (), "More.")]


def test_help_lists_every_pass(capsys):
    import pytest

    from irkit.cli.opt import build_arg_parser

    with pytest.raises(SystemExit):
        build_arg_parser().parse_args(["--help"])
    text = capsys.readouterr().out
    for name in all_passes():
        assert f"--{name}" in text


def test_upstream_names_are_read_from_the_class(tmp_path):
    src = tmp_path / "aliased.py"
    src.write_text(
        "from dataclasses import dataclass\n"
        "from typing import ClassVar\n"
        "from xdsl.passes import ModulePass\n"
        "@dataclass(frozen=True)\n"
        "class P(ModulePass):\n"
        "    \"\"\"Doc.\"\"\"\n"
        "    name = 'p'\n"
        "    upstream_names: ClassVar[dict[str, str]] = {'cpp-p': '', 'vendor-p': 'mode=v'}\n"
        "    mode: str = 'a'\n"
    )
    (info,) = catalog_module._scan_module(src)
    assert info.upstream_names == (("cpp-p", ""), ("vendor-p", "mode=v"))
    assert info.options == (("mode", "a"),)  # the ClassVar is not an option
    assert "vendor-p (mode=v)" in info.aliases_help


def test_every_upstream_name_belongs_to_one_pass():
    from irkit.cli.pass_catalog import pass_names

    seen = {}
    for name, cls in all_passes().items():
        for alias in getattr(cls, "upstream_names", {}):
            assert alias not in all_passes() and alias not in seen, alias
            seen[alias] = name
            assert pass_names()[alias][0] == name
