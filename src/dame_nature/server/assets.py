"""Where the browser UI's files are: ``templates/`` and ``static/``.

In the repository they live at the top level, beside ``src/``. A wheel (``pip install .``,
the Docker image) ships them inside the package as ``dame_nature/templates`` and
``dame_nature/static`` (see ``[tool.hatch.build.targets.wheel.force-include]`` in
``pyproject.toml``). A source checkout, ``pip install -e .`` or ``PYTHONPATH=src`` finds the
package in ``src/dame_nature`` and so reads them from the repository's top level.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
REPOSITORY_DIR = PACKAGE_DIR.parent.parent


def ui_dir(name: str) -> Path:
    """The directory ``name`` (``"templates"`` or ``"static"``) of the installed UI."""
    for candidate in (PACKAGE_DIR / name, REPOSITORY_DIR / name):
        if candidate.is_dir():
            return candidate
    raise RuntimeError(
        f"The browser UI's {name}/ directory is missing: looked in {PACKAGE_DIR / name} "
        f"(an installed wheel) and {REPOSITORY_DIR / name} (a source checkout)."
    )


TEMPLATES_DIR = ui_dir("templates")
STATIC_DIR = ui_dir("static")
