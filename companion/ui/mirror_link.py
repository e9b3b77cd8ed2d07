"""The phones' view in the app: switched on and off as the settings say, with a new secret in
its address when asked, and handed the state the screen shows after every command. The mirror's
server and its library are imported only once the players switch it on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import i18n
from .app_settings import switched_on

if TYPE_CHECKING:
    from ..mirror.switch import MirrorSwitch


class MirrorLink:
    def __init__(self) -> None:
        self.switch: MirrorSwitch | None = None
        """The running mirror (None while it is off)."""

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
        switch = self.switch or MirrorSwitch(port=port)
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
        self.switch.publish(snapshot, i18n.language(), dict(state) or None, events)

    def switch_off(self) -> None:
        if self.switch is not None:
            self.switch.switch_off()
            self.switch = None
