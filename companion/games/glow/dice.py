"""Reading real dice for Glow's rules, pure: how often a card fires, the black die's curse, and
what a Sea of Darkness route demands. The table rolls real dice; these answer what they allow.

Faces are element names (fire, water, earth, air, nature) or the special faces "trail",
"shard" and "minus2".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

SPECIAL_FACES = ("trail", "shard", "minus2")


@dataclass(frozen=True)
class Condition:
    """A card's condition: symbols the dice must show (each die counted once per firing), and
    symbols no die may show (a prohibition: fires at most once a day)."""

    needs: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()
    once: bool = False
    """A skull effect: the card leaves, so it fires once whatever the dice."""


def times_fired(condition: Condition, faces: tuple[str, ...]) -> int:
    """How often the condition is met by different dice (digest 4.3): a die counts once within
    one card; a prohibition or a skull fires at most once."""
    shown = Counter(faces)
    if any(shown[symbol] for symbol in condition.absent):
        return 0
    if not condition.needs:
        return 1 if condition.absent else 0
    needed = Counter(condition.needs)
    times = min(shown[symbol] // count for symbol, count in needed.items())
    return min(times, 1) if condition.once or condition.absent else times


def effective_faces(faces: tuple[str, ...], black_face: str | None,
                    immune: bool) -> tuple[str, ...]:
    """The faces that count for a player who rolled the black die too (digest 4.6): an element
    on the black die cancels every die showing it (the black die included); Kaar's owner is
    immune. `black_face` None: the player did not roll the black die."""
    if black_face is None or immune or black_face in SPECIAL_FACES:
        return faces
    return tuple(face for face in faces if face != black_face)


def black_die_loss(black_face: str | None, immune: bool) -> int:
    """Shards the black die's −2 face takes from the player who rolled it."""
    return 2 if black_face == "minus2" and not immune else 0


def trails_for_route(elements: int, route: tuple[int, ...], trails: int) -> int | None:
    """Trails a Sea of Darkness route costs as jokers: each stands in for one missing element;
    None when the route cannot be used (too many elements, or too few trails)."""
    low, high = route[0], route[-1]
    if elements > high:
        return None
    missing = max(0, low - elements)
    return missing if missing <= trails else None
