"""A patient table that plays whole games through the script driver, as players would.

Each turn it does what the state asks: names the card it turned over, names the fear card it
resolves, draws a new blight card when a Still-Healthy card runs out, and otherwise taps Done.
Fear and blight come from a fixed rhythm so that games reach terror level III, flip the blight
card and end, by fear, by blight or when time runs out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.bootstrap import wired_service
from companion.driver import ScriptDriver
from companion.games.spirit_island.blight_cards import ACTIVE_BLIGHT_CARDS
from companion.games.spirit_island.fear_cards import FEAR_CARDS
from companion.store import GameStore


@dataclass
class PlayedGame:
    answers: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)

    @property
    def refused(self) -> list[tuple[dict[str, Any], str]]:
        return [(sent, answer["error"]) for sent, answer in zip(self.sent, self.answers,
                                                                strict=True)
                if not answer["ok"]]

    @property
    def final(self) -> dict[str, Any]:
        state = self.answers[-1]["state"]
        assert state is not None
        return state

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [event for answer in self.answers for event in answer.get("events", [])
                if event["type"] == kind]

    def steps_seen(self) -> list[str]:
        return [event["step"] for event in self.events("step_started")]


def new_driver(language: str = "en") -> ScriptDriver:
    return ScriptDriver(wired_service(GameStore.in_memory(), seed_source=lambda: 7), language)


def driver_on(path: Path) -> ScriptDriver:
    """A driver over the games file at `path` (opened as its writer, the last game resumed)."""
    store, notices = GameStore.open(path)
    assert notices == []
    service = wired_service(store, seed_source=lambda: 5)
    service.resume_latest()
    return ScriptDriver(service)


def send(driver: ScriptDriver, game: PlayedGame, command: dict[str, Any]) -> dict[str, Any]:
    answer = driver.handle_line(json.dumps(command))
    game.sent.append(command)
    game.answers.append(answer)
    return answer


def play_whole_game(new_game: dict[str, Any], fear_per_round: int = 3,
                    blight_every: int = 2, blight_amount: int = 1,
                    max_commands: int = 3000, driver: ScriptDriver | None = None,
                    ritual_every: int = 0) -> PlayedGame:
    """Start `new_game` and play it to its end; the caller checks what happened on the way.

    Each round the fast powers generate `fear_per_round` fear, and every `blight_every`-th
    ravage adds `blight_amount` blight. In Rituals of Terror the slow powers of every
    `ritual_every`-th round perform a ritual (0: never). A `driver` may be given (one in
    another language).
    """
    driver = driver or new_driver()
    game = PlayedGame()
    table = _Table(fear_per_round, blight_every, blight_amount, ritual_every)
    state = send(driver, game, {"cmd": "new_game", **new_game})["state"]
    while state is not None and state["outcome"] is None and len(game.sent) < max_commands:
        state = send(driver, game, table.next_move(state))["state"]
    return game


class _Table:
    def __init__(self, fear_per_round: int, blight_every: int, blight_amount: int,
                 ritual_every: int = 0) -> None:
        self.fear_per_round = fear_per_round
        self.blight_every = blight_every
        self.blight_amount = blight_amount
        self.ritual_every = ritual_every
        self.ravages = 0
        self.acted: set[tuple[int, str]] = set()
        """(round, step) where the table already did its one action."""

    def _first_time(self, state: dict[str, Any]) -> bool:
        marker = (state["round"], state["step"])
        if marker in self.acted:
            return False
        self.acted.add(marker)
        return True

    def next_move(self, state: dict[str, Any]) -> dict[str, Any]:
        invader, fear, blight = state["invader"], state["fear"], state["blight"]
        if blight["awaiting_card"]:
            used = {blight["card"], *blight["earlier_cards"]}
            card = next(c for c in ACTIVE_BLIGHT_CARDS if c not in used)
            return {"cmd": "next_blight_card", "card": card}
        if invader["awaiting_reveal"]:
            return {"cmd": "reveal", "card": invader["candidates"][0]}
        step = state["step"]
        if (step == "fear" and fear["earned"]) or fear.get("ritual_cards"):
            if fear["card"] is None:
                card = next(c for c in FEAR_CARDS if c not in fear["seen"])
                return {"cmd": "fear_card", "card": card}
            return {"cmd": "resolve_fear"}
        if step == "fast_powers" and self.fear_per_round and self._first_time(state):
            return {"cmd": "fear", "amount": self.fear_per_round}
        if (step == "slow_powers" and self.ritual_every and state["round"] % self.ritual_every == 0
                and state["scenario"] == "rituals-of-terror" and self._first_time(state)):
            return {"cmd": "ritual"}
        if step == "ravage" and self._first_time(state):
            self.ravages += 1
            if self.blight_every and self.ravages % self.blight_every == 0:
                return {"cmd": "blight", "amount": self.blight_amount}
        return {"cmd": "next"}


class Table:
    """One game at the table, driven through the script driver one JSON line at a time."""

    def __init__(self, **new_game: Any) -> None:
        self.driver = new_driver()
        self.game = PlayedGame()
        options = {"players": 2, "seed": 1, **new_game}
        self.do("new_game", **options)

    @property
    def state(self) -> dict[str, Any]:
        state = self.game.answers[-1]["state"]
        assert state is not None
        return state

    @property
    def last_events(self) -> list[dict[str, Any]]:
        return list(self.game.answers[-1].get("events", []))

    def send(self, cmd: str, **fields: Any) -> dict[str, Any]:
        return send(self.driver, self.game, {"cmd": cmd, **fields})

    def do(self, cmd: str, **fields: Any) -> list[dict[str, Any]]:
        """Send a command the game must accept; return its events."""
        answer = self.send(cmd, **fields)
        assert answer["ok"], f"{cmd} {fields} was refused: {answer['error']}"
        return list(answer["events"])

    def refused(self, cmd: str, **fields: Any) -> str:
        """Send a command the game must refuse; return the reason."""
        before = self.game.answers[-1]["state"]
        answer = self.send(cmd, **fields)
        assert not answer["ok"], f"{cmd} {fields} was accepted"
        assert answer["state"] == before, "a refused command changed the game"
        return str(answer["error"])

    def until(self, step: str, phase: str | None = None, max_commands: int = 400) -> None:
        """Tap Done (turning over cards and resolving fear as asked) until `step` begins."""
        for _ in range(max_commands):
            state = self.state
            if state["step"] == step and (phase is None or state["phase"] == phase):
                return
            self.play_on()
        raise AssertionError(f"never reached step {step!r}")

    def play_on(self) -> None:
        """Do the one thing the game waits for: name a card, resolve fear, or tap Done."""
        state = self.state
        assert state["outcome"] is None, f"the game has ended: {state['outcome']}"
        if state["invader"]["awaiting_reveal"]:
            self.do("reveal", card=state["invader"]["candidates"][0])
        elif state["step"] == "fear" and state["fear"]["earned"]:
            self.do("resolve_fear")
        else:
            self.do("next")

    def next_round(self) -> None:
        """Play on to the start of the next round."""
        start = self.state["round"]
        while self.state["round"] == start:
            self.play_on()

    def reminder_ids(self) -> list[str]:
        return [item["id"] for item in self.state["reminders"]]
