"""Access to the read-only ``../shared`` material beside the checkout, for tests only.

Product code never reads ``../shared``; tests may, through :func:`shared_path` or the
``shared_dir`` fixture, and they skip cleanly when the folder is absent.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DIR = Path(os.environ.get("MANGALA_SHARED_DIR", REPO_ROOT.parent / "shared"))


def shared_available() -> bool:
    """True when the shared folder (``../shared`` or ``$MANGALA_SHARED_DIR``) exists."""
    return SHARED_DIR.is_dir()


def shared_glob(pattern: str) -> list[Path]:
    """Sorted paths below the shared folder matching ``pattern``; ``[]`` when it is absent.

    Use it to build ``pytest.mark.parametrize`` lists: an empty list makes pytest skip the test.
    """
    if not shared_available():
        return []
    return sorted(SHARED_DIR.glob(pattern))


def shared_path(*parts: str) -> Path:
    """Path below the shared folder; skips the calling test when it does not exist."""
    p = SHARED_DIR.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"shared data not present: {p}")
    return p
