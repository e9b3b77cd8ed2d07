"""Where the files the app reads beside its code are, in a checkout and in an installed wheel."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def layouts_dir() -> Path:
    """The `.kv` layouts. People edit them in the checkout's top-level `layouts/` folder, which
    an editable install reads in place; a built wheel carries them as `companion/layouts`
    (pyproject.toml maps the folder there)."""
    installed = PACKAGE / "layouts"
    return installed if installed.is_dir() else PACKAGE.parent / "layouts"
