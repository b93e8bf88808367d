"""The package type-checks: ``mypy src`` (its settings in ``pyproject.toml``) finds
nothing. Skipped where mypy is not installed (it is one of the ``dev`` extras)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_nothing_in_the_package():
    pytest.importorskip("mypy")
    # mypy's incremental cache (.mypy_cache, git-ignored) makes a run after the first quick
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "src"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
