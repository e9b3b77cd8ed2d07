"""The app's settings in companion.ini: their sections and defaults, each game's own settings
beside them, and what the look settings (language, text size, theme, full screen, rotation,
night dimming) mean for the screen. Pure but for `show_on_display`, which sets the window."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import i18n
from ..core.listing import Setting
from .display import draws_on_screen, screen_rotation
from .palette import palette_named
from .theme import THEMES, rgba

# The sections and keys are those of earlier versions, whose files must keep working. Each
# game's own (`Game.settings`) are added from the registry.
DEFAULTS = {"language": "English", "text_size": "normal", "theme": "dark", "confirm": 1,
            "fullscreen": 0, "rotation": "", "night_dim": 1, "palette": "standard"}
"""rotation: "" follows COMPANION_ROTATION (the installer's --rotate), else 0/90/180/270.
night_dim: turn the panel's backlight down with the night theme, where it can be set.
palette: the terrains' and players' colours, "standard" or "colour_blind" (palette.py)."""

READER_DEFAULTS = {"port": "off", "family": "auto", "line_pattern": "", "removal_after": "0.4"}

SLEEP_DEFAULTS = {"dim_after": "30", "off_after": "60", "night": "off"}
"""The screen's sleep (companion/ui/sleep.py): dimmed after `dim_after` minutes without a touch,
dark after `off_after` ("off": never); `night` a window of hours ("22-7") when it goes dark after
a minute. The defaults leave a long Spirit phase or a slow turn, when nobody touches the
table for a quarter of an hour, on a bright screen."""

MIRROR_DEFAULTS = {"on": 0, "token": "", "seats": ""}
"""The phones' view: off unless switched on; the secret in its address (kept across a restart
of the app, new each time it is switched on or on demand); the seats' secrets of the game being
played (JSON, kept across a restart so that the players keep their seats)."""

VOICE_DEFAULTS = {"enabled": "0", "volume": "70", "news_only": "0"}
"""The voice (companion/voice.py): off until the players switch it on; `volume` 0 to 100;
`news_only`: the banner's news without the steps' prompts."""

LANGUAGE_CODES = {name: code for code, name in i18n.LANGUAGES.items()}

TEXT_SCALES = {"small": 0.85, "normal": 1.0, "large": 1.2, "largest": 1.4}


def switched_on(stored: object) -> bool:
    """A switch of the app's as companion.ini (or Kivy's settings) keeps it."""
    return stored in ("1", 1, True, "True")


def set_defaults(config: Any, more: dict[str, dict[str, Any]]) -> None:
    """Every setting's default in `config`: the app's, `more` (other sections, by name) and
    every game's own."""
    config.setdefaults("companion", DEFAULTS)
    config.setdefaults("reader", READER_DEFAULTS)
    config.setdefaults("mirror", MIRROR_DEFAULTS)
    config.setdefaults("sleep", SLEEP_DEFAULTS)
    config.setdefaults("voice", VOICE_DEFAULTS)
    for section, defaults in more.items():
        config.setdefaults(section, defaults)
    for setting in all_game_settings():
        section, option = setting.key.split("/")
        config.setdefaults(section, {option: setting.default})


def all_game_settings() -> list[Setting]:
    """Every game's own settings, in the registry's order."""
    from ..games.registry import GAMES

    return [setting for game in GAMES.listed() for setting in game.settings]


def game_setting_named(game_id: str, key: str) -> Setting:
    """The setting `key` of the game `game_id`; KeyError when that game has none of the name."""
    from ..games.registry import GAMES

    for setting in GAMES.listing(game_id).settings:
        if setting.key == key:
            return setting
    raise KeyError(f"{game_id} has no setting {key!r}")


def game_setting(config: Any, in_play: str, game_id: str, key: str) -> bool | int:
    """One of `game_id`'s own settings as it acts now: as stored in `config` while that game is
    the one `in_play`, its default otherwise, so that nothing of a game acts while another is
    played. KeyError for a setting the game does not have."""
    setting = game_setting_named(game_id, key)
    if game_id != in_play:
        return setting.value(setting.default)
    return setting.value(config.get(*key.split("/")))


def game_settings_on(config: Any) -> list[tuple[str, Setting]]:
    """Every game's settings that are switched on in `config`, with the game's id, in the
    registry's order (a safe start lists them, each with a way to switch it off)."""
    from ..games.registry import GAMES

    return [(game.id, setting) for game in GAMES.listed() for setting in game.settings
            if setting.is_on(config.get(*setting.key.split("/")))]


@dataclass(frozen=True)
class Look:
    """What the "companion" section asks of the screen."""

    language: str
    """The language's code ("en" for a name it does not know)."""
    text_scale: float
    colours: dict[str, list[float]]
    """The theme's colours as Kivy RGBA lists, by role."""
    confirm_destructive: bool
    fullscreen: bool
    rotation: int
    dimmed: bool
    """The night theme with night dimming on: the panel's backlight turned down."""
    palette: str = "standard"
    """The terrains' and players' colours (companion/ui/palette.py)."""


def look_of(section: Any) -> Look:
    """The look a "companion" section asks for; a hand-edited value it does not know reads as
    the default."""
    theme = THEMES.get(section.get("theme", "dark"), THEMES["dark"])
    return Look(
        language=LANGUAGE_CODES.get(section.get("language", ""), "en"),
        text_scale=TEXT_SCALES.get(section.get("text_size", "normal"), 1.0),
        colours={role: rgba(colour) for role, colour in theme.items()},
        confirm_destructive=switched_on(section.get("confirm", "1")),
        fullscreen=switched_on(section.get("fullscreen", "0")),
        rotation=screen_rotation(section.get("rotation", "")),
        dimmed=section.get("theme") == "night" and switched_on(section.get("night_dim", "1")),
        palette=palette_named(section.get("palette", "standard")))


def show_on_display(look: Look, window: Any, backlight: Any) -> None:
    """The window's background, full screen and rotation, and the backlight, as `look` says
    (`backlight` None: a screen whose light the app cannot set)."""
    window.clearcolor = look.colours["background"]
    if not draws_on_screen():  # without a desktop the window is the whole screen anyway
        window.fullscreen = "auto" if look.fullscreen else False
    window.rotation = look.rotation
    if backlight is not None:
        if look.dimmed:
            backlight.dim()
        else:
            backlight.restore()
