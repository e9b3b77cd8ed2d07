"""What Glow's table screen and its panels show, worked out from the driver's state as plain
strings: a player's lap, rerolls, board and end-scoring lines, the companions' words, the encounter
track's buttons, the ranks and the tie-break.

Pure Python, no Kivy: the screens copy these values into their properties, and the unit tests
check them without a window. Input is the JSON-shaped state the script driver answers with.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import _, ngettext

CATEGORIES = ("cards", "board", "glowworms", "companions", "trails")
"""end_score's fields besides the track's score and the reroll tokens left."""
COMPANION_COLOUR = "#3B5E7A"


def is_glow(state: dict[str, Any] | None) -> bool:
    return bool(state) and state is not None and state.get("title") == "glow"


def rank_numbers(ranking: list[list[int]]) -> dict[int, int]:
    """Each player's rank, tied players sharing one (1, 1, 3)."""
    ranks: dict[int, int] = {}
    place = 1
    for group in ranking:
        for player in group:
            ranks[player] = place
        place += len(group)
    return ranks


def tie_break_text(state: dict[str, Any]) -> str:
    """Players level on light shards whom reroll tokens told apart, in words; "" for none."""
    outcome = state.get("outcome")
    if not outcome:
        return ""
    players = state["players"]
    groups = outcome["ranking"]
    lines = []
    for upper, lower in zip(groups, groups[1:], strict=False):
        if players[upper[0]]["final"] == players[lower[0]]["final"]:
            lines.append(_("{first} and {second} both have {score}: {first} keeps more reroll "
                           "tokens ({more} to {fewer})").format(
                first=players[upper[0]]["name"], second=players[lower[0]]["name"],
                score=players[upper[0]]["final"], more=players[upper[0]]["reroll_tokens"],
                fewer=players[lower[0]]["reroll_tokens"]))
    return "\n".join(lines)


def end_line(end: dict[str, Any]) -> str:
    """"60 + cards 4 + board 5 + glowworms 0 + trails 3 = 72": the four categories apart."""
    return _("{track} + cards {cards} + board {board} + glowworms {bonus} + trails {trails} = "
             "{total}").format(track=end["track"], cards=signed(end["cards"]),
                               board=end["board"], bonus=end["glowworm_bonus"],
                               trails=end["trails"], total=end["total"])


def signed(value: int) -> str:
    return f"{value:+d}" if value < 0 else str(value)


def player_summary(player: dict[str, Any]) -> str:
    parts = [_("Score {score}").format(score=player["score"]),
             player["glowworm_threshold"]["text"],
             _("trails {trails}").format(trails=player["trails"])]
    return " · ".join(parts)


def companion_text(companion: dict[str, Any]) -> str:
    return _("{name} ({card}): value {value}, glowworms {glowworms}").format(
        name=companion["name"], card=companion["card"].removeprefix("glow-"),
        value=signed(companion["value"]), glowworms=companion["glowworms"])


def companion_detail(card: dict[str, Any]) -> str:
    detail = _("{card} · value {value}").format(card=card["id"].removeprefix("glow-"),
                                               value=signed(card["value"]))
    if card["glowworms"]:
        detail += " · " + _("{count} glowworms").format(count=card["glowworms"])
    return detail


def lap_text(player: dict[str, Any]) -> str:
    """Where the marker stands, so the number matches the board."""
    if player["lap"]:
        return _("space {space}, lap {lap}").format(space=player["track_space"],
                                                    lap=player["lap"] + 1)
    return _("space {space}").format(space=player["track_space"])


def rerolls_text(player: dict[str, Any]) -> str:
    """Usable now on the first line; gained today, usable from tomorrow, apart below."""
    tomorrow = player["reroll_tokens_gained_today"]
    usable = _("Rerolls {count}").format(count=player["reroll_tokens_usable"])
    return usable + ("\n" + _("+{count} tomorrow").format(count=tomorrow) if tomorrow else "")


def area_action_text(mode: str, area: dict[str, Any] | None) -> str:
    """The pick or discard button of one area: what it does and what goes with it."""
    if mode not in ("pick", "discard"):
        return ""
    if area is None or not area["companion"]:
        return _("Area {area}: taken").format(area=area["area"]) if area else ""
    if mode == "discard":
        return _("Area {area}: to the graveyard").format(area=area["area"])
    dice = area["dice"]
    dice_text = ngettext("{count} die", "{count} dice", dice).format(count=dice) \
        if dice is not None else _("dice not entered")
    trails = ngettext("{count} trail", "{count} trails", area["trails"]).format(
        count=area["trails"])
    return _("Area {area}: recruit").format(area=area["area"]) + "\n" + dice_text + " · " + \
        trails


def board_text(state: dict[str, Any], player: dict[str, Any]) -> str:
    if state["board"] == "realm":
        return _("Camp: village {value}").format(value=player["camp"]) if player["camp"] \
            else _("Camp: start space")
    islands = [island for island in player["boats"] or [] if island]
    if not islands:
        return _("Boats: all in the centre")
    return _("Boats: islands {islands} = {value}").format(
        islands=", ".join(map(str, islands)), value=player["board_value"])
