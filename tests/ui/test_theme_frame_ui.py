"""The theme's frame round buttons and panels (companion/ui/theme_frame.py): drawn, white, where
the high contrast theme shows it, following its widget; not drawn at all in a theme whose frame
is see-through (drawn see-through, it cost every frame a third of its shapes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from .harness import Harness

pytestmark = pytest.mark.ui

WHITE = (255, 255, 255)


def colour_at(ui: Harness, shot: Path, x: float, y: float) -> tuple[int, int, int]:
    """The screenshot's pixel at window point (x, y) (the picture's rows run top down)."""
    with Image.open(shot) as picture:
        scale = picture.width / ui.window.width
        pixel = picture.convert("RGB").getpixel((int(x * scale), int(picture.height - 1
                                                                    - y * scale)))
    return tuple(pixel)  # type: ignore[arg-type, return-value]


def test_the_frame_is_drawn_only_in_a_theme_that_shows_it(ui: Harness, tmp_path: Path) -> None:
    app, button = ui.app, ui.widget("new_game")
    assert button._frame not in button.canvas.after.children  # the dark theme's is see-through
    plain = colour_at(ui, ui.screenshot(tmp_path / "dark.png"), button.x + 1, button.center_y)
    assert plain != WHITE

    app.change_setting("companion", "theme", "contrast")
    ui.frames(3)
    assert button._frame in button.canvas.after.children
    shot = ui.screenshot(tmp_path / "contrast.png")
    for x, y in ((button.x + 1, button.center_y), (button.right - 2, button.center_y),
                 (button.center_x, button.y + 1), (button.center_x, button.top - 2)):
        assert colour_at(ui, shot, x, y) == WHITE, (x, y)

    ui.resize(1024, 600)  # the frame follows its button
    shot = ui.screenshot(tmp_path / "contrast-larger.png")
    assert colour_at(ui, shot, button.right - 2, button.center_y) == WHITE

    app.change_setting("companion", "theme", "dark")
    ui.frames(3)
    assert button._frame not in button.canvas.after.children
    shot = ui.screenshot(tmp_path / "dark-again.png")
    assert colour_at(ui, shot, button.x + 1, button.center_y) == plain
