"""Whole Leviathan Wilds games through the real window, one per difficulty, with every button a
turn needs: the threat card, the AP card and its actions, strikes, the guardian's panel (grip,
terrain, falling, focus, weaknesses), the crystals' panel and step 4's last card.

After each stage the driver's state is checked; the table, the panels, the round's end and Last
Chance are photographed at 800x480 and 720x1280 into screenshots/lw/ and checked with the layout
test's `layout_problems`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .harness import Harness
from .test_layout import layout_problems
from .test_leviathan_ui import done, shown_matches_state, start

pytestmark = pytest.mark.ui

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "lw"
SIZES = {"800x480": (800, 480), "720x1280": (720, 1280)}


def look(ui: Harness, name: str) -> None:
    """Photograph the window at both sizes; neither may clip text or shrink a target."""
    problems = []
    for size, (width, height) in SIZES.items():
        ui.resize(width, height)
        ui.frames(3)
        problems += [f"{name} at {size}: {problem}" for problem in layout_problems(ui)]
        ui.screenshot(SHOTS / f"{name}-{size}.png")
    ui.resize(*SIZES["800x480"])
    assert not problems, "\n".join(problems)


def in_popup(ui: Harness, widget_id: str) -> None:
    """Tap a button of the open panel."""
    popup = ui.popup()
    assert popup is not None, "no panel is open"
    ui.tap(popup.ids[widget_id])


def dismiss(ui: Harness) -> None:
    """Close the open popup as a tap beside it would."""
    ui.popup().dismiss()
    ui.frames(2)
    assert ui.popup() is None


def close_panel(ui: Harness) -> None:
    in_popup(ui, "close")
    assert ui.popup() is None


def choose(ui: Harness, guardian: int) -> None:
    tiles = list(reversed(ui.screen.ids.guardians.children))
    ui.tap(tiles[guardian])
    assert ui.screen.selected == guardian and tiles[guardian].selected


def guardian_panel(ui: Harness, guardian: int) -> Any:
    """Choose the guardian on the table, then open their panel."""
    choose(ui, guardian)
    ui.tap_id("guardian")
    panel = ui.popup()
    assert panel is not None and panel.guardian == guardian
    assert panel.title == ui.state["guardians"][guardian]["name"]
    return panel


def set_amount(ui: Harness, amount: int) -> None:
    """The guardian panel's card count, with its − and + buttons."""
    stepper = ui.popup().ids.amount
    minus, plus = (button for button in reversed(stepper.children) if button.text in ("-", "+"))
    while stepper.value != amount:
        ui.tap(plus if stepper.value < amount else minus)


def name_threat(ui: Harness, number: int) -> None:
    """Step 1: the threat card, from the picker of the leviathan's five."""
    state = ui.state
    ui.tap_id("threat_card")
    leviathan = state["leviathan"]["number"]
    offered = ui.choices()
    assert all(card.startswith(f"LW-threat-{leviathan}-") for card in offered)
    ui.pick(f"LW-threat-{leviathan}-{number}")
    state = ui.state
    slot = state["revealed_slot"]
    assert slot is not None and state["threat_row"][slot]["face_up"]
    assert state["threat_row"][slot]["card"] == f"LW-threat-{leviathan}-{number}"
    assert list(reversed(ui.screen.ids.threats.children))[slot].card == str(number)


def play_ap_card(ui: Harness, ap: int, protections: tuple[str, ...] = ()) -> None:
    """Step 2: the AP card, its protections first."""
    active = ui.state["active"]
    hand = ui.state["guardians"][active]["hand"]
    ui.tap_id("ap_card")
    for kind in protections:
        in_popup(ui, f"protect_{kind}")
    in_popup(ui, f"ap_{ap}")
    assert ui.popup() is None, ui.app.notice
    guardian = ui.state["guardians"][active]
    assert guardian["ap_card"] == {"ap": ap, "protections": list(protections), "from_hand": True}
    assert (guardian["ap_left"], guardian["hand"]) == (ap, hand - 1)
    assert ui.screen.has_ap and ui.widget("climb").opacity == 1
    assert ui.widget("ap_card").disabled


def act(ui: Harness, action: str, cost: int) -> None:
    active = ui.state["active"]
    before = ui.state["guardians"][active]["ap_left"]
    ui.tap_id(action)
    assert ui.state["guardians"][active]["ap_left"] == before - cost, ui.app.notice


def to_step(ui: Harness, step: str) -> dict[str, Any]:
    while ui.state["step"] != step:
        done(ui)
    return ui.state


def strike(ui: Harness, crystal: int, amount: int) -> dict[str, Any]:
    ui.tap_id("strike")
    ui.pick(str(crystal))
    ui.pick(str(amount))
    return ui.state


def finish_turn(ui: Harness) -> dict[str, Any]:
    """Done until the next guardian's step 1 (or the game's end)."""
    done(ui)
    while ui.state["outcome"] is None and ui.state["step"] != "reveal":
        done(ui)
    return ui.state


def test_an_easy_solo_game_names_threats_plays_ap_cards_and_wins_by_striking(
        ui: Harness) -> None:
    start(ui, players=1, difficulty="easy", leviathan=1)
    state = ui.state
    assert state["solo"] and len(state["guardians"]) == 2 and state["difficulty"] == "easy"
    look(ui, "easy-1-reveal")

    # Step 1: the threat turned over and named in one go, then renamed.
    name_threat(ui, 4)
    name_threat(ui, 2)
    look(ui, "easy-1-revealed")
    ui.tap_id("threat_card")
    # The leviathan's five threats; the one named now is pinned on top (the picker's default).
    assert ui.choices()[0] == "LW-threat-1-2"
    assert sorted(ui.choices()) == [f"LW-threat-1-{n}" for n in range(1, 6)]
    look(ui, "picker-threat")
    dismiss(ui)

    # Step 2: a 3 AP card guarding against corruption; climb, then strike the corrupted crystal.
    assert done(ui)["step"] == "activate"
    assert ui.widget("ap_card").opacity == 1 and ui.widget("climb").opacity == 0
    look(ui, "easy-2-activate")
    ui.tap_id("ap_card")
    look(ui, "panel-ap-card")
    dismiss(ui)
    play_ap_card(ui, 3, ("corrupt",))
    assert ui.screen.ap_info == "Protected: corruption"
    assert "3 AP left" in ui.screen.prompt
    look(ui, "easy-2-ap-card")
    act(ui, "climb", 1)
    state = strike(ui, 3, 2)  # the corrupted crystal: 3 - 2, paid with AP, no corruption
    assert state["crystals"][3]["dice"] == [1] and state["guardians"][0]["corruption"] == 0
    assert state["guardians"][0]["ap_left"] == 0
    ui.tap_id("heal")  # no AP left: refused, and said so
    assert ui.app.notice.startswith("Not done") and ui.state["guardians"][0]["health"] == 8
    shown_matches_state(ui)

    # Steps 3 and 4; the shared solo deck refills the hand.
    assert done(ui)["step"] == "resolve"
    assert ui.widget("step_row").height == 0
    state = done(ui)
    assert state["step"] == "draw" and ui.widget("discard_active").opacity == 1
    ui.tap_id("discard_active")  # a card thrown away before drawing up
    assert ui.state["guardians"][0]["hand"] == 1
    look(ui, "easy-4-draw")
    state = finish_turn(ui)
    assert (state["active"], state["guardians"][0]["hand"]) == (1, 3)

    # The second guardian: an empty-hand-free turn with a weakness drawn and thrown away.
    panel = guardian_panel(ui, 1)
    in_popup(ui, "weakness")
    assert ui.state["guardians"][1]["weaknesses"] == [None] and panel.weaknesses == 1
    look(ui, "panel-guardian")
    in_popup(ui, "weakness_off")
    assert ui.state["guardians"][1]["weaknesses"] == []
    close_panel(ui)
    to_step(ui, "activate")
    play_ap_card(ui, 2)
    ui.tap_id("jump")  # jump costs 3: more than this card gives
    assert "3 AP" in ui.app.notice and ui.state["guardians"][1]["ap_left"] == 2
    ui.tap_id("glide")
    assert ui.choices() == ["1", "2"]
    ui.pick("2")
    assert ui.state["guardians"][1]["ap_left"] == 0

    # On to the round's end, then every crystal struck down outside an activation: a win.
    while ui.state["round"] == 1:
        if ui.state["step"] == "draw" and ui.state["revealed_slot"] == 4:
            look(ui, "easy-round-end")
        done(ui)
    state = ui.state
    assert state["round"] == 2 and not any(t["face_up"] for t in state["threat_row"])
    for index, crystal in enumerate(state["crystals"]):
        state = strike(ui, index, sum(crystal["dice"]))
        assert state["crystals"][index]["shattered"], ui.app.notice
    assert state["outcome"]["result"] == "win" and ui.screen.banner_kind == "win"
    # the title says the game is over, never "step Game over"
    title = ui.widget("title").text
    assert title.endswith(" · round 2 · game over") and "step" not in title, title
    assert ui.widget("guardian").disabled and ui.widget("step_row").height == 0
    look(ui, "easy-won")


def test_a_medium_two_guardian_game_is_lost_after_falls_terrain_and_last_chance(
        ui: Harness) -> None:
    start(ui, players=2, difficulty="medium", leviathan=3)
    state = ui.state
    assert (len(state["guardians"]), state["difficulty"]) == (2, "medium")

    # The guardian's panel: grip moves cards, the deck runs out, the guardian falls and lands.
    panel = guardian_panel(ui, 0)
    deck = ui.state["guardians"][0]["deck"]
    set_amount(ui, 2)
    in_popup(ui, "grip_down")
    guardian = ui.state["guardians"][0]
    assert (guardian["deck"], guardian["discard"]) == (deck - 2, 2)
    in_popup(ui, "grip_up")
    guardian = ui.state["guardians"][0]
    assert (guardian["deck"], guardian["discard"]) == (deck, 0)
    set_amount(ui, 1)
    in_popup(ui, "discard")
    in_popup(ui, "draw")
    guardian = ui.state["guardians"][0]
    assert (guardian["deck"], guardian["hand"], guardian["discard"]) == (deck - 1, 3, 1)
    assert f"Deck {deck - 1}" in panel.cards
    in_popup(ui, "harmful")
    assert ui.state["guardians"][0]["health"] == 7
    in_popup(ui, "slippery")
    assert ui.state["guardians"][0]["deck"] == deck - 2
    in_popup(ui, "open_space")
    assert ui.state["guardians"][0]["falling"] and panel.falling
    look(ui, "panel-guardian-falling")
    in_popup(ui, "fall")  # "Landed"
    assert not ui.state["guardians"][0]["falling"]
    in_popup(ui, "fall")  # "Let go"
    assert ui.state["guardians"][0]["falling"]
    in_popup(ui, "fall")
    in_popup(ui, "focus")
    assert ui.state["guardians"][0]["focus_ready"] and panel.focus_ready
    in_popup(ui, "focus")
    assert not ui.state["guardians"][0]["focus_ready"]
    set_amount(ui, 8)
    in_popup(ui, "draw")  # more than the deck holds: the deck empties and the guardian falls
    guardian = ui.state["guardians"][0]
    assert guardian["deck"] == 0 and guardian["falling"]
    in_popup(ui, "draw")  # nothing left to draw: refused, on the panel's own notice line
    assert "empty" in ui.app.notice and ui.popup().ids.notice_line.opacity == 1
    close_panel(ui)
    ui.tap_id("undo")
    ui.tap_id("undo")
    assert not ui.state["guardians"][0]["falling"]

    # A turn: falling guardians spend no AP.
    to_step(ui, "activate")
    play_ap_card(ui, 4, ("harmful", "slippery"))
    panel = guardian_panel(ui, 0)
    in_popup(ui, "harmful")  # protected during the activation
    assert ui.state["guardians"][0]["health"] == 7
    close_panel(ui)
    act(ui, "heal", 1)
    assert ui.state["guardians"][0]["health"] == 8
    state = finish_turn(ui)
    assert state["active"] == 1 and state["guardians"][0]["ap_card"] is None

    # The second guardian is corrupted to defeat: Last Chance, then the loss.
    choose(ui, 1)
    while not ui.state["guardians"][1]["defeated"]:
        ui.tap_id("corruption_up")
    state = ui.state
    assert state["last_chance"] is not None and ui.screen.banner.startswith("Last Chance")
    look(ui, "medium-last-chance")
    while ui.state["outcome"] is None:
        done(ui)
    state = ui.state
    assert state["outcome"]["result"] == "loss" and ui.screen.banner_kind == "loss"
    assert state["crystals_left"] == 4
    look(ui, "medium-lost")


def test_a_hard_three_guardian_game_corrects_crystals_declines_the_last_card_and_wins(
        ui: Harness) -> None:
    start(ui, players=3, difficulty="hard", leviathan=7)
    state = ui.state
    assert (len(state["guardians"]), state["difficulty"]) == (3, "hard")
    assert state["threat_row"][0]["wild"]  # hard turns the first threat wild at setup

    # The crystals' panel: a crystal added, one turned, one cleansed, one shattered.
    ui.tap_id("crystals_panel")
    panel = ui.popup()
    rows = list(reversed(panel.ids.crystal_rows.children))
    assert [row.text for row in rows] == ["Crystal 1: 3", "Crystal 2: 4", "Crystal 3: 5",
                                          "Crystal 4: 3, corrupted"]
    minus, plus = (b for b in reversed(panel.ids.new_die.children) if b.text in ("-", "+"))
    ui.tap(plus)
    ui.tap(plus)
    in_popup(ui, "new_corrupted")
    in_popup(ui, "add")
    state = ui.state
    assert state["crystals"][4]["dice"] == [5] and state["crystals"][4]["corrupted"]
    rows = list(reversed(panel.ids.crystal_rows.children))
    assert len(rows) == 5 and rows[4].text == "Crystal 5: 5, corrupted"
    look(ui, "panel-crystals")
    row_buttons = list(reversed(rows[0].children))[1:]  # -1, +1, corrupt, shatter
    ui.tap(row_buttons[1])
    assert ui.state["crystals"][0]["dice"] == [4]
    ui.tap(row_buttons[0])
    ui.tap(row_buttons[0])
    assert ui.state["crystals"][0]["dice"] == [2]
    ui.tap(list(reversed(rows[3].children))[3])  # cleanse crystal 4
    assert not ui.state["crystals"][3]["corrupted"] and rows[3].text == "Crystal 4: 3"
    ui.tap(list(reversed(rows[1].children))[4])  # shatter crystal 2
    assert ui.state["crystals"][1]["shattered"] and ui.state["crystals_left"] == 4
    assert rows[1].text == "Crystal 2: shattered"
    assert not panel.has_goals  # this game has no extra win conditions or counters
    close_panel(ui)
    assert "Crystals left 4" in ui.screen.crystals

    # Step 4's last card: the deck left with one card, the refill may leave it.
    to_step(ui, "activate")
    play_ap_card(ui, 1)
    guardian_panel(ui, 0)
    deck = ui.state["guardians"][0]["deck"]
    set_amount(ui, deck - 1)
    in_popup(ui, "grip_down")
    assert ui.state["guardians"][0]["deck"] == 1
    close_panel(ui)
    state = to_step(ui, "draw")
    assert state["can_decline_last"] and ui.widget("decline_last").opacity == 1
    look(ui, "hard-4-last-card")
    ui.tap_id("decline_last")
    state = ui.state
    assert state["active"] == 1 and state["step"] == "reveal"
    guardian = state["guardians"][0]
    assert (guardian["deck"], guardian["hand"], guardian["falling"]) == (1, 2, False)

    # Guardian 2 strikes the rest; the last blow of the last crystal wins.
    to_step(ui, "activate")
    play_ap_card(ui, 6)
    state = strike(ui, 0, 2)
    assert state["crystals"][0]["shattered"] and state["guardians"][1]["ap_left"] == 4
    state = finish_turn(ui)
    for index, crystal in enumerate(state["crystals"]):
        if not crystal["shattered"]:
            state = strike(ui, index, sum(crystal["dice"]))
    assert state["outcome"]["result"] == "win", ui.app.notice
    assert ui.screen.banner.startswith("We won")


def test_an_expert_four_guardian_game_rests_heals_and_is_lost_when_last_chance_ends(
        ui: Harness) -> None:
    start(ui, players=4, difficulty="expert", leviathan=12)
    state = ui.state
    assert (len(state["guardians"]), state["difficulty"]) == (4, "expert")
    assert state["threat_row"][0]["wild"] and state["threat_row"][1]["wild"]
    look(ui, "expert-1-reveal")

    # Guardian 1 loses grip, then rests it back in during the activation.
    name_threat(ui, 5)
    to_step(ui, "activate")
    guardian_panel(ui, 0)
    set_amount(ui, 3)
    in_popup(ui, "grip_down")
    close_panel(ui)
    guardian = ui.state["guardians"][0]
    assert (guardian["deck"], guardian["discard"]) == (4, 3)
    play_ap_card(ui, 5, ("slippery",))
    look(ui, "expert-2-actions")
    act(ui, "rest", 2)
    guardian = ui.state["guardians"][0]
    assert (guardian["deck"], guardian["discard"]) == (7, 0)
    ui.tap_id("health_down")
    act(ui, "heal", 1)
    assert ui.state["guardians"][0]["health"] == 8
    act(ui, "climb", 1)
    ui.tap_id("jump")  # 3 AP, 1 left: refused
    assert ui.state["guardians"][0]["ap_left"] == 1 and ui.app.notice
    state = finish_turn(ui)
    assert state["active"] == 1 and state["guardians"][0]["discard"] == 1  # the AP card

    # Guardian 2 plays no card with an empty hand: 2 AP anyway.
    panel = guardian_panel(ui, 1)
    set_amount(ui, 3)
    in_popup(ui, "discard")
    assert ui.state["guardians"][1]["hand"] == 0 and panel.cards.startswith("Deck 7 · hand 0")
    close_panel(ui)
    state = to_step(ui, "activate")
    assert state["guardians"][1]["ap_card"]["from_hand"] is False
    assert ui.screen.has_ap and ui.widget("ap_card").disabled and ui.screen.ap_info == ""
    assert ui.widget("ap_info").opacity == 0 and "2 AP" in ui.screen.prompt
    act(ui, "climb", 1)
    finish_turn(ui)

    # The fourth guardian is corrupted to defeat: Last Chance, then the loss.
    choose(ui, 3)
    while not ui.state["guardians"][3]["defeated"]:
        ui.tap_id("corruption_up")
    assert ui.state["last_chance"] is not None
    look(ui, "expert-last-chance")
    while ui.state["outcome"] is None:
        done(ui)
    state = ui.state
    assert state["outcome"]["result"] == "loss" and state["guardians"][3]["defeated"]
    look(ui, "expert-lost")


def test_a_leviathan_s_win_conditions_are_ticked_and_its_counters_counted_in_the_crystals_panel(
        ui: Harness) -> None:
    # The form has no field for a leviathan's extra conditions: a script sets them up.
    assert ui.app.send({"cmd": "new_game", "game": "leviathan-wilds", "players": 2,
                        "difficulty": "medium", "leviathan": 9,
                        "crystals": [{"dice": [2]}],
                        "win_conditions": ["Free the caged guardian"]}), ui.app.notice
    assert ui.app.send({"cmd": "counter", "counter": "heat", "amount": 1})
    ui.app.show(ui.app.table_name())
    ui.frames(3)
    ui.tap_id("crystals_panel")
    panel = ui.popup()
    assert panel.has_goals
    condition, counter = reversed(panel.ids.goal_rows.children)
    assert (condition.text, counter.text) == ("Free the caged guardian", "heat: 1")
    plus = list(reversed(counter.children))[2]
    ui.tap(plus)
    assert ui.state["counters"] == {"heat": 2}
    counter = list(reversed(panel.ids.goal_rows.children))[1]
    ui.tap(list(reversed(counter.children))[1])  # -1
    assert ui.state["counters"] == {"heat": 1}

    shatter = list(reversed(list(reversed(panel.ids.crystal_rows.children))[0].children))[4]
    ui.tap(shatter)
    state = ui.state
    assert state["crystals_left"] == 0 and state["outcome"] is None  # the condition is unmet
    condition = list(reversed(panel.ids.goal_rows.children))[0]
    mark = list(reversed(condition.children))[1]
    assert mark.text == "Mark as met"
    ui.tap(mark)
    state = ui.state
    assert state["win_conditions"] == [{"label": "Free the caged guardian", "met": True}]
    assert state["outcome"]["result"] == "win"
    assert list(reversed(panel.ids.goal_rows.children))[0].text == \
        "Free the caged guardian (met)"
    close_panel(ui)
    assert ui.screen.banner_kind == "win" and ui.widget("crystals_panel").disabled


def test_a_guardian_holding_different_named_weaknesses_is_asked_which_one_goes(
        ui: Harness) -> None:
    start(ui, players=2, difficulty="easy", leviathan=2)
    for card in ("LW-weakness-3", "LW-weakness-7"):  # as the card reader names them
        assert ui.app.send({"cmd": "weakness", "guardian": 1, "card": card}), ui.app.notice
    guardian_panel(ui, 1)
    in_popup(ui, "weakness")  # a third, drawn without its tag read
    assert ui.state["guardians"][1]["weaknesses"] == ["LW-weakness-3", "LW-weakness-7", None]
    in_popup(ui, "weakness_off")
    assert ui.choices() == ["LW-weakness-3", "LW-weakness-7", ""]
    look(ui, "picker-weakness")
    ui.pick("LW-weakness-7")
    assert ui.state["guardians"][1]["weaknesses"] == ["LW-weakness-3", None]
    assert ui.popup().weaknesses == 2  # back on the guardian's panel, which shows the change
    in_popup(ui, "weakness_off")
    ui.pick("")
    assert ui.state["guardians"][1]["weaknesses"] == ["LW-weakness-3"]
    in_popup(ui, "weakness_off")  # the only one left goes without a question
    assert ui.state["guardians"][1]["weaknesses"] == []
    assert ui.popup().ids.weakness_off.disabled
