"""Shared fixtures: the real-IR corpus shipped in tests/data/corpus (see tests/frontend_corpus.py), and the real
Triton 3.6 where one is at hand."""

from pathlib import Path

import pytest
from frontend_corpus import CORPUS
from test_check_static import triton_python


@pytest.fixture(scope="session")
def corpus() -> Path:
    assert CORPUS.is_dir(), f"{CORPUS} is part of the repository"
    return CORPUS


@pytest.fixture(scope="session")
def parsed_corpus(corpus):
    """tests/frontend_corpus.py: corpus IR files parsed (and printed) once per session."""
    import frontend_corpus

    return frontend_corpus


@pytest.fixture(scope="session")
def triton36() -> str:
    """A Python with the real Triton 3.6 (IRKIT_TRITON_PYTHONS, or this Python's own); the test skips without one."""
    python = triton_python("3.6")
    if python is None:
        pytest.skip("no Triton 3.6 (IRKIT_TRITON_PYTHONS='3.6.0=/path/python')")
    return python


@pytest.fixture(autouse=True)
def no_diagnostics_left_over():
    """Each test reads only what its own passes emit: the sink passes emit into is one per process, and a test
    that leaves its diagnostics unread must not hand them to the next."""
    from irkit import diagnostics

    diagnostics.take()
    yield
