"""Rounds of a benchmark in this source tree and in another (``--baseline SRC``): the
benchmark runs itself again with ``--json`` and its arguments, under each tree's
``PYTHONPATH``, and reads the JSON it prints last."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any


def source_trees(script: str, baseline: str | None) -> dict[str, str]:
    """``{"this": the src beside the benchmarks, "baseline": baseline}`` (without a
    baseline, ``this`` alone)."""
    this = os.path.join(os.path.dirname(os.path.abspath(script)), os.pardir, "src")
    return {"this": this} | ({"baseline": baseline} if baseline else {})


def round_in(script: str, src: str, args: list[str]) -> Any:
    """What one ``script --json *args`` round printed last, run on the tree ``src``."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(src)}
    command = [sys.executable, script, "--json", *args]
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])
