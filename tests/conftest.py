"""Shared fixtures: the real-IR corpus shipped in tests/data/corpus (see tests/frontend_corpus.py)."""

from pathlib import Path

import pytest
from frontend_corpus import CORPUS


@pytest.fixture(scope="session")
def corpus() -> Path:
    assert CORPUS.is_dir(), f"{CORPUS} is part of the repository"
    return CORPUS


@pytest.fixture(scope="session")
def parsed_corpus(corpus):
    """tests/frontend_corpus.py: corpus IR files parsed (and printed) once per session."""
    import frontend_corpus

    return frontend_corpus
