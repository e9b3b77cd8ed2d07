"""Tally's table: the kit's title, prompt, figure tile and step button, filled from its state."""

from __future__ import annotations

from typing import Any

from kivy.properties import StringProperty

from companion.i18n import _
from companion.ui.table_kit import KitTable

from ..about import TALLY
from ..commands import STEPS


class TallyTable(KitTable):
    leader = StringProperty("")
    """Who leads (the figure tile's word)."""
    best = StringProperty("")
    """The leader's points, as the figure tile shows them."""

    def shows(self, state: dict[str, Any]) -> bool:
        return state.get("title") == TALLY.id

    def show_state(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        players = state["players"]
        top = max(players, key=lambda player: player["score"])
        self.title = _("Round {round} · {phase}").format(
            round=state["round"], phase=STEPS.index(state["step"]) + 1)
        self.prompt = " · ".join(f"{player['name']} {player['score']}" for player in players)
        self.leader, self.best = top["name"], str(top["score"])
        if state["outcome"]:
            self.show_step(_("Game over"), None)
        else:
            self.show_step(_("Done"), {"cmd": "next", "step": state["step"]})
