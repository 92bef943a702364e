"""Shared fixtures: where the public corpus is (tests skip cleanly without it)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    return CORPUS


@pytest.fixture(scope="session")
def parsed_corpus(corpus):
    """tests/frontend_corpus.py: corpus IR files parsed (and printed) once per session."""
    import frontend_corpus

    return frontend_corpus
