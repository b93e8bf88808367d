"""Lets the engine tests import their helpers as ``tests.engine.helpers`` under
``--import-mode=importlib`` (which puts nothing on ``sys.path``)."""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
