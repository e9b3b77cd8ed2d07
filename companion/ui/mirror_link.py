"""The phones' view in the app: switched on and off as the settings say, with a new secret in
its address when asked, and handed the state the screen shows after every command, with the
seats the table hands out (Menu → Seats) told who sits at the table and what each may send. The
mirror's server and its library are imported only once the players switch it on."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import i18n
from ..i18n import N_
from .app_settings import switched_on

if TYPE_CHECKING:
    from ..core.seats import Seat
    from ..mirror.seats import KeptSecrets, SeatDesk
    from ..mirror.switch import MirrorSwitch


NO_ANSWER = N_("the table did not answer in time: look at it before you tap again")


class MirrorLink:
    def __init__(self, carry_out: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                 ) -> None:
        self.switch: MirrorSwitch | None = None
        """The running mirror (None while it is off)."""
        self.carry_out = carry_out
        """How the table carries out a command (the app's, without a word on its notice line:
        a seat's refusal is its phone's to show); None: the phones only follow."""
        self.desk: SeatDesk | None = None

    def apply(self, config: Any, port: int, new_address: bool = False) -> str:
        """Switch the mirror on or off as `config`'s "mirror" section says, listening from
        `port` up (0: any free port); `new_address`: a new secret in its address (switched on
        just now, or asked for). The phones' address, "" while it is off. OSError when no port
        is free (the mirror stays off)."""
        if not switched_on(config.get("mirror", "on")):
            self.switch_off()
            return ""
        from ..mirror.access import new_token, usable_token
        from ..mirror.switch import MirrorSwitch

        token = config.get("mirror", "token")
        if new_address or not usable_token(token):  # a hand-edited one may be guessable
            token = new_token()
            config.set("mirror", "token", token)
            config.write()
        if self.desk is None and self.carry_out is not None:
            from ..mirror.seats import SeatDesk

            kept = None if new_address else kept_seats(config.get("mirror", "seats"))
            self.desk = SeatDesk(self._from_a_seat, kept=kept,
                                 keep=lambda secrets: keep_seats(config, secrets))
        switch = self.switch or MirrorSwitch(port=port, seats=self.desk)
        url = switch.switch_on(token)
        self.switch = switch
        return url

    def publish(self, service: Any, state: dict[str, Any],
                events: list[dict[str, Any]] | None) -> None:
        """Hand the state the screen shows to the phones, with the events of the command that
        made it (None: no command's). It only queues a reference, so it never holds up a tap."""
        if self.switch is None:
            return
        from ..driver import StateSnapshot

        snapshot = StateSnapshot.of(service) if service and state else None
        self._seat_up(service, state)  # before the phones hear of the state: a seat's page
        self.switch.publish(snapshot, i18n.language(), dict(state) or None, events)

    def _seat_up(self, service: Any, state: dict[str, Any]) -> None:
        """Tell the desk who sits at the table now and what each seat's page offers."""
        if self.desk is None:
            return
        if service is None:
            self.desk.end_all()
            return
        self.desk.follow(service.game_id, service.game.seat_rules,
                         service.seat_version(state) if state else None, state)

    def seats(self) -> list[tuple[Seat, str, bool]]:
        """The seats handed out now, each with the address its phone opens and whether a phone
        holds it ([] while the mirror is off or the game has no seats)."""
        if self.desk is None or self.switch is None:
            return []
        return [(seat, f"{self.switch.url}#seat={token}", held)
                for seat, token, held in self.desk.seats()]

    def revoke(self, player: int) -> None:
        if self.desk is not None:
            self.desk.revoke(player)

    def _from_a_seat(self, player: int, request: Any, version: str) -> dict[str, Any]:
        """(On one of the mirror's threads) carry out a seat's request on the table's thread,
        between its taps, and wait for the answer; a request the table has not begun within
        ANSWER_S is dropped, and the phone told to look at the table."""
        from concurrent.futures import Future

        from kivy.clock import Clock

        from ..mirror.seats import ANSWER_S

        assert self.carry_out is not None
        carry_out = self.carry_out
        done: Future[dict[str, Any]] = Future()
        command = {"cmd": "seat", "player": player, "request": request, "version": version}

        def on_the_table(_dt: float) -> None:
            if not done.set_running_or_notify_cancel():
                return  # the phone was told already: not done
            try:
                done.set_result(carry_out(command))
            except Exception as error:  # the app's boundary has shown it on the table
                done.set_result({"ok": False, "error": f"{type(error).__name__}: {error}"})

        Clock.schedule_once(on_the_table, 0)
        try:
            return done.result(timeout=ANSWER_S)
        except TimeoutError:
            if done.cancel():
                return {"ok": False, "error": i18n.translations(i18n.language()).gettext(
                    NO_ANSWER)}
            return done.result()  # begun just now: its answer follows at once

    def switch_off(self) -> None:
        if self.switch is not None:
            self.switch.switch_off()
            self.switch = None


def kept_seats(text: str) -> KeptSecrets | None:
    """The seats' secrets a restart takes up again, as `keep_seats` wrote them (None: none, or
    a value that is not theirs)."""
    try:
        data: Any = json.loads(text)
        return (str(data["game"]), {int(player): str(secret)
                                    for player, secret in data["secrets"].items()})
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


def keep_seats(config: Any, secrets: KeptSecrets | None) -> None:
    """Keep the seats' secrets with the mirror's own (the settings file), for a restart."""
    text = "" if secrets is None else json.dumps(
        {"game": secrets[0], "secrets": {str(player): token for player, token
                                         in secrets[1].items()}})
    if config.get("mirror", "seats") != text:
        config.set("mirror", "seats", text)
        config.write()
