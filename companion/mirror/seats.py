"""The seats' desk (issue 31): which phone holds which player's seat, and the one way a seat's
request reaches the table.

Each seat has a secret of its own (192 random bits, apart from the mirror's address), handed out
in the seat's code on the table; the table revokes it in one tap (a new secret: the old one is
unknown from then on, as is every secret once a new game begins). A seat's request is carried out
by `carry_out`, which the app runs on its own thread between the table's taps, so the table and
every seat take turns; each seat may send a few a second and no more. Kivy-free and game-free:
the seats and what they may send are the game's (core/seats.py), the service decides.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..core.seats import Seat, SeatAction, SeatFigure, SeatRules

SEAT_TOKEN_BYTES = 24
"""192 random bits a seat (the issue asks for 128 at the least)."""
RATE_PER_S = 4.0
"""A seat's steady pace: a player taps a few times a second at the most."""
BURST = 8
"""Taps a seat may send at once before the pace holds it back."""
ANSWER_S = 10.0
"""How long a seat's action may wait for the table's turn before the phone is told to look at
the table (the table may still carry it out: the phone's state then shows it)."""

KeptSecrets = tuple[str, dict[int, str]]
"""A game (its id, as text) and its seats' secrets by player: what a restart hands back."""
CarryOut = Callable[[int, Any, str], dict[str, Any]]
"""(player, request, version) → the driver's answer, {"ok": True, …} or {"ok": False, "error"}:
the table's way of carrying out one seat's request, in turn with its own taps."""


@dataclass
class _Held:
    seat: Seat
    token: str
    claimed: bool = False
    """A phone has opened the seat's page with its secret."""
    allowance: float = BURST
    checked: float = 0.0


class SeatDesk:
    """The seats of the game being played, their secrets and who holds them (thread-safe: the
    table changes them, the mirror's loop reads them)."""

    def __init__(self, carry_out: CarryOut,
                 token_source: Callable[[], str] = lambda: secrets.token_urlsafe(
                     SEAT_TOKEN_BYTES),
                 clock: Callable[[], float] = time.monotonic,
                 kept: KeptSecrets | None = None,
                 keep: Callable[[KeptSecrets | None], None] | None = None) -> None:
        """`kept`: the secrets handed out before a restart, taken up again when the table shows
        that game; `keep` is told the secrets whenever they change (None: forget them), so a
        pulled plug does not take the players' seats away."""
        self._carry_out = carry_out
        self._new_token = token_source
        self._clock = clock
        self._kept = kept
        self._keep = keep
        self._lock = threading.Lock()
        self._game: object = None
        self._held: dict[int, _Held] = {}
        self._version: str | None = None
        self._actions: dict[int, list[SeatAction]] = {}
        self._figures: dict[int, list[SeatFigure]] = {}

    # --- the table's side ---------------------------------------------------------------------

    def seat_up(self, game: object, seats: list[Seat]) -> None:
        """The seats of `game` (its id) as they are now: a new game ends every seat; a seat
        already handed out keeps its secret (a name or colour changed is taken over)."""
        with self._lock:
            before = self._secrets()
            if game != self._game:
                self._game, self._held = game, {}
            held, kept = self._held, self._kept_for(game)
            self._held = {seat.player: _Held(seat, kept.get(seat.player) or self._new_token())
                          if seat.player not in held else replace(held[seat.player], seat=seat)
                          for seat in seats}
            now = self._secrets()
        if now != before:
            self._tell_keeper()

    def _kept_for(self, game: object) -> dict[int, str]:
        """The secrets kept for `game` from before a restart (once: a later seat is new)."""
        kept, self._kept = self._kept, None
        return kept[1] if kept is not None and kept[0] == str(game) else {}

    def _secrets(self) -> dict[int, str]:
        return {player: held.token for player, held in self._held.items()}

    def _tell_keeper(self) -> None:
        if self._keep is None:
            return
        with self._lock:
            kept = None if self._game is None else (str(self._game), self._secrets())
        self._keep(kept)

    def offer(self, version: str | None, actions: dict[int, list[SeatAction]],
              figures: dict[int, list[SeatFigure]] | None = None) -> None:
        """What each seat's page offers now (its buttons and its own figures), and the moment
        its requests must be made in (the table's thread, after every command, before the
        phones are told of it)."""
        with self._lock:
            self._version, self._actions = version, dict(actions)
            self._figures = dict(figures or {})

    def follow(self, game: object, rules: SeatRules | None, version: str | None,
               view: dict[str, Any] | None) -> None:
        """The seats of the game the table shows (`view`, as the game's rules read it), with
        their buttons and figures; no seats while no game with seats is played."""
        if rules is None or not view or game is None:
            self.end_all()
            return
        seats = rules.seats(view)
        self.seat_up(game, seats)
        self.offer(version, {seat.player: rules.actions(view, seat.player) for seat in seats},
                   {seat.player: rules.figures(view, seat.player) for seat in seats})

    def offered(self, seat: Seat) -> tuple[str | None, list[SeatAction]]:
        with self._lock:
            return self._version, list(self._actions.get(seat.player, []))

    def figures_of(self, seat: Seat) -> list[SeatFigure]:
        with self._lock:
            return list(self._figures.get(seat.player, []))

    def end_all(self) -> None:
        """No seats (the mirror switched off, or no game with seats is played)."""
        with self._lock:
            had = self._game is not None
            self._game, self._held = None, {}
            self._version, self._actions, self._figures = None, {}, {}
        if had:
            self._tell_keeper()

    def revoke(self, player: int) -> None:
        """The phone holding `player`'s seat can no longer act (it still follows, read-only);
        the seat's code on the table is a new one."""
        with self._lock:
            held = self._held.get(player)
            if held is not None:
                self._held[player] = _Held(held.seat, self._new_token())
        if held is not None:
            self._tell_keeper()

    def seats(self) -> list[tuple[Seat, str, bool]]:
        """Every seat with its secret and whether a phone holds it, in the game's order."""
        with self._lock:
            return [(held.seat, held.token, held.claimed) for held in self._held.values()]

    # --- the phones' side (the mirror's loop) -------------------------------------------------

    def seat_of(self, token: str) -> Seat | None:
        """The seat `token` opens, or None (unknown, revoked or of an earlier game). Every
        secret is compared in full, so the time taken says nothing of how close a guess was."""
        given = token.encode("utf-8", "replace")
        found = None
        with self._lock:
            for held in self._held.values():
                if hmac.compare_digest(held.token.encode(), given):
                    found = held
            if found is None:
                return None
            found.claimed = True
            return found.seat

    def allow(self, seat: Seat) -> bool:
        """Whether `seat` may send another request now (RATE_PER_S, BURST at once)."""
        now = self._clock()
        with self._lock:
            held = self._held.get(seat.player)
            if held is None:
                return False
            held.allowance = min(BURST, held.allowance + (now - held.checked) * RATE_PER_S)
            held.checked = now
            if held.allowance < 1:
                return False
            held.allowance -= 1
            return True

    def act(self, seat: Seat, request: Any, version: str) -> dict[str, Any]:
        """Carry out `seat`'s request (blocking, off the loop: the table's thread does it)."""
        return self._carry_out(seat.player, request, version)
