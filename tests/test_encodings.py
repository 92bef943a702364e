"""Typed layout accessors (irkit.dialects.encodings): each parameter is read by its Python-named property,
the version spellings meet in one accessor, and the by-key API the front end uses agrees with them."""

import pytest

from irkit.dialects.encodings import (
    STRUCT_LAYOUTS,
    AmdMfmaEncodingAttr,
    BlockedEncodingAttr,
    CTALayout,
    LinearEncodingAttr,
    SliceEncodingAttr,
)
from irkit.frontend.parser import Parser
from irkit.frontend.printer import print_module
from irkit.layout import algebra


def layout_of_text(alias: str, module_attr: str = '"ttg.num-warps" = 4 : i32') -> object:
    """The layout `alias` (text after `#l = `) on a function argument of a parsed module."""
    text = f'#l = {alias}\nmodule attributes {{{module_attr}}} {{\n  tt.func @f(%a: tensor<64x64xf32, #l>) {{\n    tt.return\n  }}\n}}\n'
    pm = Parser(text, "test.mlir").parse()
    return pm.module.body.block.first_op.regions[0].blocks[0].args[0].type.encoding


def test_blocked_fields_read_as_python_values():
    enc = layout_of_text("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>")
    assert isinstance(enc, BlockedEncodingAttr)
    assert (enc.size_per_thread, enc.threads_per_warp, enc.warps_per_cta, enc.order) == ((1, 4), (8, 4), (4, 1), (1, 0))
    assert enc.cta_layout == CTALayout(None, None, None, None)  # not printed: one CTA


def test_cta_fields_of_both_spellings():
    legacy = layout_of_text(
        "#triton_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], "
        "CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>",
        '"triton_gpu.num-warps" = 4 : i32',
    )
    assert legacy.cta_layout == CTALayout((2, 1), (2, 1), (1, 0), None)
    assert algebra.shape_per_cta(legacy, (128, 64)) == (64, 64)
    cga = layout_of_text(
        "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], "
        "CGALayout = [[1, 0]]}>"
    )
    assert cga.cga_layout == ((1, 0),) and cga.cta_split_num is None
    assert algebra.cta_split_num(cga) == (2, 1)


def test_mfma_version_of_31_and_39_spellings():
    v31 = layout_of_text(
        "#triton_gpu.amd_mfma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [32, 32], "
        "isTransposed = false}>",
        '"triton_gpu.num-warps" = 8 : i32',
    )
    v39 = layout_of_text("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 4], isTransposed = true}>")
    assert isinstance(v31, AmdMfmaEncodingAttr) and isinstance(v39, AmdMfmaEncodingAttr)
    assert (v31.version_major, v31.version) == (3, None) and (v39.version_major, v39.version) == (None, 3)
    assert v31.mma_version == v39.mma_version == algebra.mma_version(v39) == 3
    assert v31.is_transposed is False and v39.is_transposed is True
    assert v39.instr_shape == (32, 32, 4)


def test_every_field_agrees_with_the_printed_key():
    """One declaration per field: the property, FIELDS and the IRDL parameter come from it."""
    for cls in STRUCT_LAYOUTS:
        assert [f.key for f in cls.LAYOUT_FIELDS] == [k for k, _ in cls.FIELDS]
        assert [name for name, _ in cls.get_irdl_definition().parameters] == [f.param for f in cls.LAYOUT_FIELDS]
        names = [f.python_name for f in cls.LAYOUT_FIELDS]
        assert len(set(names)) == len(names) and all(n == n.lower() for n in names), cls
        for f in cls.LAYOUT_FIELDS:
            assert getattr(cls, f.python_name) is f and f.key in f.__doc__


def test_of_builds_by_python_name():
    parent = BlockedEncodingAttr.of(size_per_thread=(1, 4), threads_per_warp=(8, 4), warps_per_cta=(4, 1), order=(1, 0))
    by_key = BlockedEncodingAttr.from_values(sizePerThread=(1, 4), threadsPerWarp=(8, 4), warpsPerCTA=(4, 1), order=(1, 0))
    assert parent == by_key and parent.get("warpsPerCTA") == parent.warps_per_cta
    s = SliceEncodingAttr.of(dim=1, parent=parent)
    assert (s.dim, s.parent) == (1, parent)
    with pytest.raises(ValueError, match="unknown fields"):
        SliceEncodingAttr.of(dim=1, warps_per_cta=(4,))


def test_linear_bases_by_input_dim():
    enc = layout_of_text("#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0]], warp = [], block = []}>")
    assert isinstance(enc, LinearEncodingAttr)
    assert enc.register_bases == ((0, 1), (0, 2)) and enc.warp_bases == ()
    assert enc.bases["lane"] == ((1, 0), (2, 0)) and enc.bases["block"] == ()
    assert algebra.rank_of(enc) == 2


def test_printing_reads_the_same_fields():
    text = '#l = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>\n'
    module = 'module attributes {"ttg.num-warps" = 4 : i32} {\n  tt.func @f(%a: tensor<64x64xf32, #l>) {\n    tt.return\n  }\n}\n'
    pm = Parser(text + module, "test.mlir").parse()
    assert "sizePerThread = [1, 4], threadsPerWarp = [8, 4]" in print_module(pm)
