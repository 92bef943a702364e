"""The help text's pass catalog (read from source, irkit/cli/pass_catalog.py) says
what importing the passes says: same names, order, summaries and options."""

from xdsl.passes import get_pass_option_infos

from irkit.cli import pass_catalog as catalog_module
from irkit.cli.pass_catalog import PassInfo, pass_catalog
from irkit.passes import all_passes, summary


def _from_import() -> dict[str, PassInfo]:
    out = {}
    for name, cls in all_passes().items():
        options = tuple(
            (i.name, i.default_value if i.default_value is not None else "<" + i.expected_type + ">")
            for i in get_pass_option_infos(cls)
        )
        out[name] = PassInfo(name, summary(cls), options)
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
    assert catalog_module._scan_module(src) == [PassInfo("p", "First line.", (("flag", "true"), ("mode", "fast")))]


def test_help_lists_every_pass(capsys):
    import pytest

    from irkit.cli.opt import build_arg_parser

    with pytest.raises(SystemExit):
        build_arg_parser().parse_args(["--help"])
    text = capsys.readouterr().out
    for name in all_passes():
        assert f"--{name}" in text
