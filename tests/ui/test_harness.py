"""The harness's own promises: a tap lands on the widget it names, however the machine is loaded
and whatever is still moving on the screen."""

from __future__ import annotations

import pytest
from kivy.uix.scrollview import ScrollView

from .harness import Harness
from .test_leviathan_table_ui import in_popup, start

pytestmark = pytest.mark.ui


def test_a_tap_in_a_panel_still_scrolling_lands_on_its_button(ui: Harness) -> None:
    """A ScrollView hands the tap to what lies under the finger when it lifts: content still
    moving (as a fling, or an overscroll springing back with a loaded machine's long frames)
    took it elsewhere, or left the button out of sight."""
    start(ui, players=3, difficulty="hard", leviathan=7)
    ui.tap_id("crystals_panel")
    panel = ui.popup()
    for _ in range(3):  # more crystals than the panel shows at once
        in_popup(ui, "add")
    rows = list(reversed(panel.ids.crystal_rows.children))
    view = rows[0].parent
    while not isinstance(view, ScrollView):
        view = view.parent
    plus = list(reversed(rows[0].children))[2]
    assert plus.text == "+1"
    ui.scroll_into_view(plus)
    view.effect_y.velocity = 3000  # a fling under way when the player taps
    view.effect_y.trigger_velocity_update()
    ui.tap(plus)
    assert ui.state["crystals"][0]["dice"] == [4]
