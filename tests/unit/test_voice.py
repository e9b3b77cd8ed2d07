"""The voice: espeak-ng started off the tap's thread, the newest news cutting off the old, a
missing program or sound output kept as a problem in the players' words, nothing at all while
it is off; and the table's words made fit to be said, in English, German and French."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion import voice as voice_module
from companion.core.history import Words
from companion.i18n import translations
from companion.speech import headline, short_prompt, speech_text, spoken
from companion.system_facts import Ran
from companion.system_health import OK, PROBLEM, Machine, run_checks, voice_check
from companion.voice import NO_SOUND, NOT_INSTALLED, Voice, VoiceSettings, command_for
from tests.voice_stand_in import StandInProcess, StandInRunner, said

ON = VoiceSettings(enabled=True, volume=50)


def words_in(lang: str) -> Words:
    catalogue = translations(lang)
    return Words(catalogue.gettext, catalogue.ngettext)


def test_a_new_line_cuts_off_the_one_still_being_said() -> None:
    runner = StandInRunner()
    voice = Voice(runner, ON)
    voice.say(["Fear card earned!"], "en")
    first = runner.wait_for_start()
    voice.say(["Terror rises to level II."], "en")
    second = runner.wait_for_start()
    assert first.terminated and not second.terminated
    assert said(second) == "Terror rises to level 2."
    second.finish()
    assert voice.idle()
    assert voice.problem == ""
    voice.stop()


def test_lines_handed_over_together_are_said_in_one_run_news_first() -> None:
    runner = StandInRunner(blocks=False)
    voice = Voice(runner, ON)
    voice.say(["Fear card earned!", "Round 2 is over"], "en", prompt="Growth: pick one.")
    runner.wait_for_start()
    assert voice.idle()
    assert len(runner.started) == 1
    assert said(runner.started[0]) == "Fear card earned! Round 2 is over. Growth: pick one."
    voice.stop()


def test_only_the_news_leaves_the_steps_prompt_unsaid() -> None:
    runner = StandInRunner(blocks=False)
    voice = Voice(runner, VoiceSettings(enabled=True, news_only=True))
    assert not voice.say([], "en", prompt="Growth: pick one.")
    voice.say(["Fear card earned!"], "en", prompt="Growth: pick one.")
    runner.wait_for_start()
    assert voice.idle()
    assert [said(process) for process in runner.started] == ["Fear card earned!"]
    voice.stop()


def test_switched_off_it_starts_nothing_not_even_a_thread() -> None:
    runner = StandInRunner()
    voice = Voice(runner, VoiceSettings(enabled=False))
    threads_before = threading.active_count()
    assert not voice.say(["Fear card earned!"], "en", prompt="Growth.")
    assert runner.started == []
    assert voice._thread is None
    assert threading.active_count() == threads_before


def test_switching_it_off_stops_what_it_is_saying() -> None:
    runner = StandInRunner()
    voice = Voice(runner, ON)
    voice.say(["Fear card earned!"], "en")
    speaking = runner.wait_for_start()
    voice.configure(VoiceSettings(enabled=False))
    assert speaking.terminated
    assert voice.idle()
    voice.stop()


def test_a_missing_espeak_ng_is_a_problem_in_players_words_never_an_exception(
        caplog: pytest.LogCaptureFixture) -> None:
    told: list[str] = []
    started = threading.Event()

    def no_program(command: list[str]) -> StandInProcess:
        started.set()
        raise FileNotFoundError(2, "No such file or directory", command[0])

    voice = Voice(no_program, ON, on_problem=told.append)
    voice.say(["Fear card earned!"], "en")
    assert started.wait(5)
    assert voice.idle()
    voice.say(["Round 2 is over"], "en")
    assert voice.idle()
    assert voice.problem == NOT_INSTALLED
    assert told == [NOT_INSTALLED]  # told once, not on every line
    assert sum("cannot be heard" in record.message for record in caplog.records) == 1
    voice.stop()


@pytest.mark.parametrize(("code", "complaint"), [
    (1, "espeak-ng: no audio device"),
    (0, "ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n"
        "error: No such file or directory\n")])
def test_a_sound_output_that_fails_is_a_problem(code: int, complaint: str) -> None:
    runner = StandInRunner(code=code, complaint=complaint, blocks=False)
    voice = Voice(runner, ON)
    voice.say(["Fear card earned!"], "en")
    runner.wait_for_start()
    assert voice.idle()
    assert voice.problem == NO_SOUND
    runner.code, runner.complaint = 0, ""  # the speaker plugged in: heard again
    voice.say(["Round 2 is over"], "en")
    runner.wait_for_start()
    assert voice.idle()
    assert voice.problem == ""
    voice.stop()


def test_a_line_cut_off_is_no_problem() -> None:
    runner = StandInRunner()
    voice = Voice(runner, ON)
    voice.say(["Fear card earned!"], "en")
    runner.wait_for_start()
    voice.hush()
    assert voice.idle()
    assert voice.problem == "" and not voice.tried
    voice.stop()


@pytest.mark.parametrize(("language", "espeak_voice"), [("en", "en-gb"), ("de", "de"),
                                                         ("fr", "fr-fr"), ("xx", "en-gb")])
def test_the_command_speaks_the_apps_language_at_the_volume_chosen(language: str,
                                                                   espeak_voice: str) -> None:
    command = command_for("Hello.", language, VoiceSettings(enabled=True, volume=70))
    assert command[:5] == [voice_module.PROGRAM, "-v", espeak_voice, "-a", "140"]
    assert command[-2:] == ["--", "Hello."]  # a line beginning with "-" is no option
    assert command_for("Hi.", "en", ON, wav_file="/tmp/x.wav")[-4:-2] == ["-w", "/tmp/x.wav"]


@pytest.mark.parametrize(("section", "expected"), [
    ({}, VoiceSettings(False, 70, False)),
    ({"enabled": "1", "volume": "100", "news_only": "1"}, VoiceSettings(True, 100, True)),
    ({"enabled": "1", "volume": "250"}, VoiceSettings(True, 100, False)),
    ({"enabled": "yes please", "volume": "loud"}, VoiceSettings(False, 70, False))])
def test_settings_read_from_the_ini_and_a_hand_edited_value_is_the_default(
        section: dict[str, str], expected: VoiceSettings) -> None:
    assert VoiceSettings.of(section) == expected


# --- the table's words as they are said ---

@pytest.mark.parametrize(("language", "shown", "said_as"), [
    ("en", "Terror rises to level II: now you win when no towns remain.",
     "Terror rises to level 2: now you win when no towns remain."),
    ("en", "Terror level I", "Terror level 1"),
    ("en", "Terror level III", "Terror level 3"),
    ("en", "I think we lost", "I think we lost"),
    ("de", "Die Furchtstufe steigt auf II. Sieg jetzt bei: weder Dörfer noch Städte.",
     "Die Furchtstufe steigt auf 2."),
    ("de", "Schreckensstufe I", "Schreckensstufe 1"),
    ("fr", "La Terreur monte au niveau II : vous gagnez",
     "La Terreur monte au niveau 2 : vous gagnez"),
    ("fr", "Terreur niveau III", "Terreur niveau 3"),
    ("en", "Stage IV cards", "Stage 4 cards")])
def test_roman_terror_levels_are_said_as_numbers(language: str, shown: str,
                                                 said_as: str) -> None:
    assert speech_text(shown, language) == said_as


@pytest.mark.parametrize(("language", "shown", "said_as"), [
    ("en", "morning → late morning → noon", "morning, late morning, noon"),
    ("en", "Round 2 · Spirit phase", "Round 2, Spirit phase"),
    ("en", "• Ravage in Jungle", "Ravage in Jungle"),
    ("en", "3× town", "3 town"),
    ("en", "Undone: city destroyed, +2 fear", "Undone: city destroyed, +2 fear"),
    ("en", "[b]Fear[/b] card ★", "Fear card"),
    ("en", "roll 3–4 dice", "roll 3 to 4 dice"),
    ("de", "3–4 Würfel", "3 bis 4 Würfel"),
    ("fr", "3–4 dés", "3 à 4 dés"),
    ("de", "Die Ödnis-Karte wird umgedreht – Verödete Insel",
     "Die Ödnis-Karte wird umgedreht – Verödete Insel")])
def test_symbols_drawn_on_the_table_are_not_read_out(language: str, shown: str,
                                                     said_as: str) -> None:
    assert speech_text(shown, language) == said_as


@pytest.mark.parametrize(("shown", "head"), [
    ("Fear card earned! 1 waiting for the Fear step.", "Fear card earned!"),
    ("Game over: Defeat (Time ran out: the invader deck is empty.).", "Game over: Defeat."),
    ("Time passes: discard the cards played this round, heal all damage to invaders and "
     "dahan, let elements lapse.", "Time passes: discard the cards played this round"),
    ("Alle dürfen ihre Gruppe mit Würfeln und Spuren bewegen; wer in einem Dorf anhält, "
     "verlegt sein Lager dorthin.", "Alle dürfen ihre Gruppe mit Würfeln und Spuren bewegen"),
    ("Everyone checks each of their cards against their dice and carries out every effect "
     "that fires.", "Everyone checks each of their cards against their dice"),
    ("Energy: every Spirit takes energy equal to the highest number uncovered on its energy "
     "track.", "Energy"),
    ("Guardian 1: play an AP card, take your actions, then tap Done.",
     "Guardian 1: play an AP card, take your actions, then tap Done.")])
def test_a_long_line_is_said_by_its_head(shown: str, head: str) -> None:
    """About five seconds at most: the first sentence, cut at the end of a clause that fits
    (a semicolon's first, then a comma's, then before "and"), never in mid-phrase."""
    assert headline(shown) == head
    assert len(headline(shown)) <= 80


def test_lines_are_said_as_sentences_and_a_prompt_by_its_first_paragraph() -> None:
    assert spoken(["Tag 2: der Startmarker geht an Bo", "", "Gewonnen!"], "de") == \
        "Tag 2: der Startmarker geht an Bo. Gewonnen!"
    assert short_prompt("Fear: resolve the card.\n\nAvoid the Dahan: …") == \
        "Fear: resolve the card."


# --- the System screen's check ---

def voice_machine(tmp_path: Path, enabled: str, installed: bool = True) -> Machine:
    settings = tmp_path / "companion.ini"
    settings.write_text(f"[voice]\nenabled = {enabled}\n", encoding="utf-8")
    return Machine(data_folder=tmp_path, settings_path=settings,
                   run=lambda _command: Ran(0, "eSpeak NG 1.51") if installed else None)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_system_screen_says_off_when_the_voice_is_off(tmp_path: Path, lang: str) -> None:
    check = voice_check(voice_machine(tmp_path, "0", installed=False),
                        words_in(lang), NOT_INSTALLED)
    assert check.level == OK
    assert check.said == words_in(lang)._("Off")


@pytest.mark.parametrize(("problem", "installed", "level"), [
    (NOT_INSTALLED, True, PROBLEM), (NO_SOUND, True, PROBLEM), ("", False, OK),
    (None, True, OK), (None, False, PROBLEM)])
def test_the_system_screen_says_why_the_voice_is_not_heard(
        tmp_path: Path, problem: str | None, installed: bool, level: str) -> None:
    """The running app's voice knows (None: `companion doctor`, which looks for espeak-ng)."""
    for lang in ("en", "de", "fr"):
        words = words_in(lang)
        check = voice_check(voice_machine(tmp_path, "1", installed), words, problem)
        assert check.level == level
        if level == PROBLEM:
            assert check.said == words._(problem or NOT_INSTALLED)
            assert check.what_to_do and "Traceback" not in check.said
            assert lang == "en" or check.said != (problem or NOT_INSTALLED)


def test_the_voice_check_is_among_every_check(tmp_path: Path) -> None:
    machine = voice_machine(tmp_path, "1")
    checks = {check.key: check for check in run_checks(machine, "en", voice_problem=NO_SOUND)}
    assert checks["voice"].level == PROBLEM


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_the_sample_line_is_said_whole_in_every_language(lang: str) -> None:
    sample = translations(lang).gettext(voice_module.SAMPLE)
    assert lang == "en" or sample != voice_module.SAMPLE
    assert speech_text(sample, lang) == sample
