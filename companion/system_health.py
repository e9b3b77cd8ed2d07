"""What is right and wrong with the machine, in players' words: the System screen and `companion
doctor` show the same checks, each OK, a warning or a problem, with what to do about it.

Every fact is read through a `Machine`, which says where: the real one (`Machine.this_one`)
reads /proc, /sys, /dev and the data folder; a test builds one over a folder of its own. A check
never raises: a fact that cannot be read gives a calm answer, not a failed screen. Pure: no Kivy.
"""

from __future__ import annotations

import configparser
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from . import __version__, system_facts, voice
from .core.history import Words
from .i18n import N_, decimal_sign, language, translations
from .start_record import RECORD_NAME, process_running, read_runs

log = logging.getLogger(__name__)

Level = Literal["ok", "warning", "problem"]
OK: Level = "ok"
WARNING: Level = "warning"
PROBLEM: Level = "problem"
Runner = Callable[[list[str]], "system_facts.Ran | None"]

LOW_DISK = 500 * 10**6
"""Below this free on the card: a warning (a few backups' and a season's games' room)."""
FULL_DISK = 100 * 10**6
"""Below this: a problem; the games may soon not be saved."""
WARM_C, HOT_C = 70.0, 80.0
"""The Pi's CPU slows itself down from 80 °C (85 °C on newer firmware): warn before."""
BACKUP_AGE = timedelta(days=8)
CRASH_WINDOW = timedelta(days=7)
TITLES = {"version": N_("Version"), "network": N_("Network"), "uptime": N_("Running for"),
          "disk": N_("Storage"), "temperature": N_("Temperature"),
          "power_supply": N_("Power supply"), "clock": N_("Clock"), "touch": N_("Touch panel"),
          "reader": N_("Card reader"), "backup": N_("Backup"), "crash": N_("Sudden stops"),
          "voice": N_("Voice")}
"""Each check's name, by its key, in the order shown."""
APPLIANCE_UNIT = "companion.service"
"""deploy/install.sh installs it: the machine is a table companion."""
CLOCK_SLACK = timedelta(minutes=5)
"""A clock this much behind the games' last save is still taken as right (a file system's
times are coarse)."""


@dataclass(frozen=True)
class Check:
    """One line of the System screen and of `companion doctor`."""

    key: str
    """A stable id: version, network, uptime, disk, temperature, power_supply, clock, touch,
    reader, backup, crash, voice."""
    level: Level
    title: str
    """What is checked, translated ("Temperature")."""
    said: str
    """What is so, translated ("72 °C")."""
    what_to_do: str = ""
    """What a player can do about it, translated; "" when it is OK."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def free_bytes(folder: Path) -> int:
    """The bytes free for the companion in `folder`'s file system (its nearest existing
    parent, when it is not made yet)."""
    import shutil

    while not folder.exists() and folder.parent != folder:
        folder = folder.parent
    return shutil.disk_usage(folder).free


def running_here(pid: int) -> bool:
    """A process of this boot is running (this app too: its first minute is not a death)."""
    return pid == os.getpid() or process_running(pid)


@dataclass
class Machine:
    """Where each fact is read; the defaults are this machine's."""

    data_folder: Path
    settings_path: Path | None = None
    db_path: Path | None = None
    proc: Path = Path("/proc")
    sys: Path = Path("/sys")
    dev: Path = Path("/dev")
    etc: Path = Path("/etc")
    run: Runner = system_facts.run_command
    """Runs a command (ip, vcgencmd); None when it is not on this machine."""
    environment: Mapping[str, str] = field(default_factory=dict)
    now: Callable[[], datetime] = utc_now
    free_bytes: Callable[[Path], int] = free_bytes
    own_addresses: Callable[[], list[str]] = system_facts.socket_addresses
    """The addresses the socket module finds, where `ip` is missing."""
    running: Callable[[int], bool] = running_here
    installed_at: datetime | None = None
    """When this version was built or installed: the clock cannot be earlier."""
    version: str = __version__

    @classmethod
    def this_one(cls, db_path: Path, settings_path: Path | None = None) -> Machine:
        """The machine the companion runs on, its games in `db_path`."""
        try:
            installed: datetime | None = datetime.fromtimestamp(
                Path(__file__).with_name("__init__.py").stat().st_mtime, UTC)
        except OSError:
            installed = None
        return cls(data_folder=db_path.parent, db_path=db_path,
                   settings_path=settings_path or db_path.parent / "companion.ini",
                   environment=dict(os.environ), installed_at=installed)

    @property
    def appliance(self) -> bool:
        """The companion is the machine's purpose: its service's unit says so to the app, and
        to `companion doctor` over SSH the unit installed says it."""
        return (self.environment.get("COMPANION_APPLIANCE") == "1"
                or (self.etc / "systemd" / "system" / APPLIANCE_UNIT).is_file())

    @property
    def records_readable(self) -> bool:
        """The data folder's records can be read (over SSH, as another user, they may not)."""
        folder = self.data_folder
        return not folder.exists() or os.access(folder, os.R_OK | os.X_OK)

    def setting(self, section: str, key: str, default: str) -> str:
        if self.settings_path is None:
            return default
        config = configparser.ConfigParser(interpolation=None)
        try:
            config.read(self.settings_path, encoding="utf-8")
        except (configparser.Error, OSError, UnicodeDecodeError):
            return default
        return config.get(section, key, fallback=default)


def run_checks(machine: Machine, lang: str | None = None,
               reader_connected: bool | None = None,
               voice_problem: str | None = None) -> list[Check]:
    """Every check, in the order shown, in `lang` (by default the language in use).
    `reader_connected`: what the running app's reader says now (None: not known here);
    `voice_problem`: why the running app's voice cannot be heard, untranslated ("" none,
    None: not known here)."""
    catalogue = translations(lang or language())
    words = Words(catalogue.gettext, catalogue.ngettext)
    sign = decimal_sign(lang or language())
    checks: list[tuple[str, Callable[[], Check]]] = [
        ("version", lambda: version_check(machine, words)),
        ("network", lambda: network_check(machine, words)),
        ("uptime", lambda: uptime_check(machine, words)),
        ("disk", lambda: disk_check(machine, words, sign)),
        ("temperature", lambda: temperature_check(machine, words)),
        ("power_supply", lambda: power_check(machine, words)),
        ("clock", lambda: clock_check(machine, words)),
        ("touch", lambda: touch_check(machine, words)),
        ("reader", lambda: reader_check(machine, words, reader_connected)),
        ("backup", lambda: backup_check(machine, words)),
        ("crash", lambda: crash_check(machine, words)),
        ("voice", lambda: voice_check(machine, words, voice_problem)),
    ]
    results = []
    for key, check in checks:
        try:
            results.append(check())
        except Exception:  # a fact read in a way nobody foresaw: said, and the rest go on
            log.exception("the %s check failed", key)
            results.append(Check(key, WARNING, words._(TITLES[key]),
                                 words._("This could not be checked."),
                                 words._("Look again later; if it stays, restart the "
                                         "companion.")))
    return results


def version_check(machine: Machine, words: Words) -> Check:
    return Check("version", OK, words._(TITLES["version"]),
                 words._("Table companion {version}").format(version=machine.version))


def network_check(machine: Machine, words: Words) -> Check:
    title = words._(TITLES["network"])
    ran = machine.run(["ip", "-j", "-4", "addr"])
    addresses = system_facts.addresses_from_ip(ran.out) if ran and ran.code == 0 else None
    if addresses is None:
        addresses = machine.own_addresses()
    if not addresses:
        return Check("network", WARNING, title,
                     words._("No network: phones cannot follow the game."),
                     words._("Plug in the network cable or set up Wi-Fi."))
    return Check("network", OK, title, ", ".join(addresses))


def uptime_check(machine: Machine, words: Words) -> Check:
    title = words._(TITLES["uptime"])
    seconds = system_facts.uptime_seconds(machine.proc)
    if seconds is None:
        return Check("uptime", OK, title, words._("not known here"))
    return Check("uptime", OK, title, duration(seconds, words))


def duration(seconds: float, words: Words) -> str:
    """"3 days 4 hours", "2 hours 5 minutes", "12 minutes": the two largest units."""
    minutes = int(seconds // 60)
    days, hours, minutes = minutes // 1440, minutes // 60 % 24, minutes % 60
    day = words.ngettext("{count} day", "{count} days", days).format(count=days)
    hour = words.ngettext("{count} hour", "{count} hours", hours).format(count=hours)
    minute = words.ngettext("{count} minute", "{count} minutes", minutes).format(count=minutes)
    if days:
        return f"{day} {hour}" if hours else day
    if hours:
        return f"{hour} {minute}" if minutes else hour
    return minute


def size_words(count: int, sign: str) -> str:
    """12.4 GB, 320 MB: what a card's room is written in (decimal units, as on the card)."""
    if count >= 10**9:
        return f"{count / 10**9:.1f} GB".replace(".", sign)
    return f"{count // 10**6} MB"


def disk_check(machine: Machine, words: Words, sign: str) -> Check:
    title = words._(TITLES["disk"])
    try:
        free = machine.free_bytes(machine.data_folder)
    except OSError:
        return Check("disk", WARNING, title, words._("The free room could not be measured."),
                     words._("If games stop being saved, ask for the card to be checked."))
    said = words._("{size} free").format(size=size_words(free, sign))
    if free < FULL_DISK:
        return Check("disk", PROBLEM, title,
                     words._("The card is nearly full ({size} free): games may not be saved.")
                     .format(size=size_words(free, sign)),
                     words._("Back up to a stick, then have old files removed or use a larger "
                             "card."))
    if free < LOW_DISK:
        return Check("disk", WARNING, title,
                     words._("Only {size} free on the card.").format(
                         size=size_words(free, sign)),
                     words._("Back up to a stick soon; the card is filling up."))
    return Check("disk", OK, title, said)


def temperature_check(machine: Machine, words: Words) -> Check:
    title = words._(TITLES["temperature"])
    celsius = system_facts.hottest_zone(machine.sys)
    if celsius is None:
        return Check("temperature", OK, title, words._("not measured here"))
    said = f"{celsius:.0f} °C"
    if celsius >= HOT_C:
        return Check("temperature", PROBLEM, title,
                     words._("{temperature}: too hot, it slows down.").format(
                         temperature=said),
                     words._("Let air reach the Pi: open its case or move it out of the sun."))
    if celsius >= WARM_C:
        return Check("temperature", WARNING, title, said, words._("Let air reach the Pi."))
    return Check("temperature", OK, title, said)


def power_check(machine: Machine, words: Words) -> Check:
    title = words._(TITLES["power_supply"])
    ran = machine.run(["vcgencmd", "get_throttled"])
    if ran is None:
        return Check("power_supply", OK, title, words._("not a Raspberry Pi"))
    state = system_facts.throttling(ran.out) if ran.code == 0 else None
    if state is None:
        return Check("power_supply", OK, title, words._("not measured here"))
    supply = words._("Use the Pi's own power supply and a short cable.")
    air = words._("Let air reach the Pi, and use its own power supply.")
    # The worst first: what happens now, then what happened since the Pi was started.
    for happened, level, said, to_do in (
            (state.under_voltage_now, PROBLEM,
             words._("The power supply gives too little power."), supply),
            (state.slowed_now, PROBLEM, words._("The Pi is slowing itself down now."), air),
            (state.under_voltage_since_boot, WARNING,
             words._("The power dipped since the Pi was started."), supply),
            (state.slowed_since_boot, WARNING,
             words._("The Pi slowed itself down since it was started."), air)):
        if happened:
            return Check("power_supply", level, title, said, to_do)
    return Check("power_supply", OK, title, words._("steady"))


def clock_check(machine: Machine, words: Words) -> Check:
    title = words._(TITLES["clock"])
    now = machine.now()
    shown = now.astimezone().strftime("%Y-%m-%d %H:%M")
    latest = [when for when in (machine.installed_at, last_save(machine)) if when is not None]
    if latest and now + CLOCK_SLACK < max(latest):
        return Check("clock", WARNING, title,
                     words._("The clock says {now}: the dates of games will be wrong.")
                     .format(now=shown),
                     words._("Connect the companion to the network once: it sets its clock "
                             "by itself."))
    return Check("clock", OK, title, shown)


def last_save(machine: Machine) -> datetime | None:
    """When the games were last written (the games file's time: the newest saved game)."""
    if machine.db_path is None:
        return None
    times = []
    for path in (machine.db_path, machine.db_path.with_name(machine.db_path.name + "-wal")):
        try:
            times.append(datetime.fromtimestamp(path.stat().st_mtime, UTC))
        except (OSError, ValueError):
            continue
    return max(times) if times else None


def touch_check(machine: Machine, words: Words) -> Check:
    title = words._(TITLES["touch"])
    text = system_facts.read_text(machine.proc / "bus" / "input" / "devices")
    panels = system_facts.touch_devices(text or "")
    if panels:
        return Check("touch", OK, title, panels[0])
    if machine.appliance:
        return Check("touch", PROBLEM, title, words._("No touch panel found."),
                     words._("Check the touch panel's cable, then restart."))
    return Check("touch", OK, title, words._("none; a mouse works here"))


def reader_check(machine: Machine, words: Words, connected: bool | None) -> Check:
    title = words._(TITLES["reader"])
    port = machine.setting("reader", "port", "off").strip()
    if not port or port == "off":
        return Check("reader", OK, title, words._("not used"))
    cable = words._("Check its cable, or choose it again in Settings.")
    if port.startswith("/") and not port_path(machine, port).exists():
        return Check("reader", PROBLEM, title,
                     words._("Card reader not found at {port}.").format(port=port), cable)
    where = words._("found by itself") if port == "auto" else port
    if connected is False:
        said = words._("No card reader found.") if port == "auto" else \
            words._("The card reader does not answer ({port}).").format(port=port)
        return Check("reader", PROBLEM, title, said, cable)
    if connected:
        return Check("reader", OK, title, words._("connected ({port})").format(port=where))
    return Check("reader", OK, title, where)


def voice_check(machine: Machine, words: Words, problem: str | None) -> Check:
    """Off is fine; on, the running app's voice says whether it is heard (elsewhere, whether
    its speech program is installed)."""
    title = words._(TITLES["voice"])
    if machine.setting("voice", "enabled", "0").strip() not in ("1", "True", "true"):
        return Check("voice", OK, title, words._("Off"))
    if problem is None:
        problem = "" if machine.run([voice.PROGRAM, "--version"]) is not None \
            else voice.NOT_INSTALLED
    if problem == voice.NOT_INSTALLED:
        return Check("voice", PROBLEM, title, words._(problem),
                     words._("Update the companion: its installer adds the speech program. Or "
                             "switch the voice off in Settings."))
    if problem:
        return Check("voice", PROBLEM, title, words._(problem),
                     words._("Check the speaker's cable and volume, or switch the voice off "
                             "in Settings."))
    return Check("voice", OK, title, words._("On"))


def port_path(machine: Machine, port: str) -> Path:
    """Where a port's device file is looked for: under the machine's /dev."""
    path = Path(port)
    if path.parts[:2] == ("/", "dev"):
        return machine.dev.joinpath(*path.parts[2:])
    return path


def backup_check(machine: Machine, words: Words) -> Check:
    title = words._(TITLES["backup"])
    stick = words._("Plug in a stick and back up on the System screen.")
    if not machine.records_readable:
        return unreadable_records("backup", title, words)
    # Imported here: backups bring in the database library, which the app's start leaves
    # until after its first frame (the System screen is imported before it).
    from .backup import last_backup

    found = last_backup(machine.data_folder)
    if found is None:
        return Check("backup", WARNING, title, words._("No backup yet."), stick)
    made = found[0]
    age = machine.now() - made
    days = max(0, age.days)
    when = made.astimezone().strftime("%Y-%m-%d")
    if age > BACKUP_AGE:
        return Check("backup", WARNING, title,
                     words.ngettext("The last backup is {count} day old ({date}).",
                                    "The last backup is {count} days old ({date}).",
                                    days).format(count=days, date=when), stick)
    return Check("backup", OK, title, words._("last on {date}").format(date=when))


def crash_check(machine: Machine, words: Words) -> Check:
    title = words._(TITLES["crash"])
    if not machine.records_readable:
        return unreadable_records("crash", title, words)
    now = machine.now()
    boot = (system_facts.read_text(machine.proc / "sys" / "kernel" / "random" / "boot_id")
            or "-").strip() or "-"
    deaths = system_facts.early_deaths_since(machine.data_folder, now - CRASH_WINDOW, boot,
                                             _running_pids(machine))
    if not deaths:
        return Check("crash", OK, title, words._("none this week"))
    when = deaths[-1].astimezone().strftime("%Y-%m-%d %H:%M")
    return Check("crash", WARNING, title,
                 words.ngettext("The companion stopped suddenly on {when} (a fault or a power "
                                "cut).",
                                "The companion stopped suddenly {count} times, last on {when} "
                                "(a fault or a power cut).", len(deaths))
                 .format(count=len(deaths), when=when),
                 words._("Turn it off with its Turn off button before unplugging it; if it "
                         "keeps stopping, tell whoever set it up."))


def unreadable_records(key: str, title: str, words: Words) -> Check:
    return Check(key, WARNING, title, words._("This user cannot read the companion's records."),
                 words._("Run it as the companion's user: sudo -u companion companion "
                         "doctor"))


def _running_pids(machine: Machine) -> set[int]:
    text = system_facts.read_text(machine.data_folder / RECORD_NAME) or ""
    return {run.pid for run in read_runs(text) if machine.running(run.pid)}
