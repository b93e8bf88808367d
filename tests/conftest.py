"""Puts the repository root on ``sys.path``: the tests share helpers as ``tests.<module>``
under ``--import-mode=importlib`` (which puts nothing on ``sys.path`` itself)."""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
