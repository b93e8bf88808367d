"""The pages are served with a strict Content-Security-Policy (``script-src 'self'``,
``style-src 'self'``): the markup the templates hold and the scripts build has no inline
script, no inline event handler and no ``style="..."`` attribute (scripts set
``element.style`` instead, which the policy allows)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted([*(ROOT / "templates").rglob("*.html"), *(ROOT / "static" / "js").rglob("*.js")])


def test_no_inline_style_script_or_handler_in_the_ui():
    assert FILES
    found = []
    for path in FILES:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if (
                re.search(r"\sstyle=", line)
                or re.search(r"\son[a-z]+=[\"']", line)
                or re.search(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")", line)
            ):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "inline style, script or handler:\n" + "\n".join(found)
