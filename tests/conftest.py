"""Shared fixtures for the whole suite."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.shared_data import SHARED_DIR, shared_available


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The read-only ``../shared`` folder; the test is skipped when it is absent."""
    if not shared_available():
        pytest.skip(f"shared folder not present at {SHARED_DIR}")
    return SHARED_DIR
