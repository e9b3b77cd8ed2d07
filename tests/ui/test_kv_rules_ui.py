"""Kivy formats two trace lines for every kv expression it evaluates, before its logger drops
them; the app's rules run without (companion/ui/kivy_fixes.py)."""

from __future__ import annotations

import pytest

from .harness import Harness

pytestmark = pytest.mark.ui


def test_a_kv_rule_follows_its_property_without_formatting_a_trace(
        ui: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    from kivy.lang import Builder, builder

    widget = Builder.load_string("""
BoxLayout:
    Label:
        id: words
        text: "width " + str(int(root.width))
        font_size: root.height / 4
""")
    traced: list[str] = []
    monkeypatch.setattr(builder, "trace", lambda message, *args: traced.append(message))
    widget.size = (321, 80)
    assert widget.ids.words.text == "width 321" and widget.ids.words.font_size == 20
    assert traced == []
