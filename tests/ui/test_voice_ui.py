"""The voice at the table, in the real window, for every game (the fourth, test-only game too):
a tap on the step button says the new step's prompt, a tap while a line is still being said is
answered at once and cuts it off, and with the voice off nothing is started. The voice speaks
through a stand-in for espeak-ng (tests/voice_stand_in.py)."""

from __future__ import annotations

import threading

from companion import i18n
from companion.speech import sentence, short_prompt, speech_text
from companion.voice import NOT_INSTALLED, SAMPLE
from tests.voice_stand_in import StandInRunner, said

from .every_game import start_on_table, where
from .harness import Harness


def voice_on(ui: Harness, runner: StandInRunner, news_only: bool = False) -> None:
    ui.app.voice_link.voice.runner = runner
    ui.app.change_setting("voice", "news_only", "1" if news_only else "0")
    ui.app.change_setting("voice", "enabled", "1")


def test_a_tap_on_the_step_button_says_the_new_steps_prompt(game_id: str, ui: Harness) -> None:
    runner = StandInRunner()
    voice_on(ui, runner)
    table = start_on_table(ui, game_id)
    ui.play_at_a_players_pace()
    before, count = where(ui.state), len(runner.started)
    ui.tap_id("done")
    assert where(ui.state) != before, ui.app.notice
    speaking = runner.wait_for_start(count + 1)
    assert said(speaking).endswith(sentence(speech_text(short_prompt(table.prompt)))), \
        (said(speaking), table.prompt)
    ui.app.voice_link.stop()


def test_a_tap_while_a_line_is_being_said_is_answered_at_once_and_cuts_it_off(
        game_id: str, ui: Harness) -> None:
    runner = StandInRunner()  # each line "speaks" until it is cut off
    voice_on(ui, runner)
    start_on_table(ui, game_id)
    ui.play_at_a_players_pace()
    count = len(runner.started)
    ui.tap_id("done")
    speaking = runner.wait_for_start(count + 1)
    assert not speaking.terminated
    before = where(ui.state)
    ui.tap_id("done")  # the usual frames, with espeak-ng still speaking
    assert where(ui.state) != before, ui.app.notice
    assert speaking.terminated, "the old line was not cut off"
    assert not runner.wait_for_start(count + 2).terminated  # the newest news is being said
    ui.tap_id("undo")
    undone = runner.wait_for_start(count + 3)
    assert said(undone).startswith(("Undone", "Redone")), said(undone)
    ui.app.voice_link.stop()


def test_only_the_news_says_no_prompt(game_id: str, ui: Harness) -> None:
    runner = StandInRunner(blocks=False)
    voice_on(ui, runner, news_only=True)
    table = start_on_table(ui, game_id)
    ui.play_at_a_players_pace()
    ui.tap_id("done")
    ui.tap_id("undo")
    assert ui.app.voice_link.voice.idle()
    prompt = speech_text(short_prompt(table.prompt))
    assert runner.started, "the undo's news was not said"
    assert all(prompt not in said(process) for process in runner.started)
    ui.app.voice_link.stop()


def test_with_the_voice_off_a_game_starts_nothing(game_id: str, ui: Harness) -> None:
    runner = StandInRunner()
    ui.app.voice_link.voice.runner = runner
    threads = {thread.name for thread in threading.enumerate()}
    start_on_table(ui, game_id)
    ui.play_at_a_players_pace()
    ui.tap_id("done")
    ui.tap_id("undo")
    assert runner.started == []
    assert "voice" not in {thread.name for thread in threading.enumerate()} - threads


def test_settings_switch_the_voice_on_try_it_and_say_a_problem_once(ui: Harness) -> None:
    runner = StandInRunner(blocks=False)
    ui.app.voice_link.voice.runner = runner
    ui.app.open_settings()
    ui.frames(3)
    assert ui.widget("voice_try").disabled  # off: nothing to try
    ui.app.change_setting("companion", "language", i18n.LANGUAGES["de"])
    ui.scroll_into_view(ui.widget("voice"))
    ui.tap(next(button for button in ui.widget("voice").ids.choices.children
                if button.value == "1"))
    assert ui.app.voice_link.voice.enabled
    ui.tap(next(button for button in ui.widget("voice_volume").ids.choices.children
                if button.value == "100"))
    assert ui.app.voice_link.voice.settings.amplitude == 200
    ui.scroll_into_view(ui.widget("voice_try"))
    ui.tap_id("voice_try")
    tried = runner.wait_for_start()
    assert said(tried) == i18n.translations("de").gettext(SAMPLE)
    assert tried.command[tried.command.index("-v") + 1] == "de"

    def no_program(command: list[str]) -> None:
        raise FileNotFoundError(2, "No such file or directory", command[0])

    ui.app.voice_link.voice.runner = no_program
    ui.tap_id("voice_try")
    assert ui.app.voice_link.voice.idle()
    ui.frames(3)
    problem = ui.widget("voice_problem")
    assert problem.text == i18n.translations("de").gettext(NOT_INSTALLED)
    assert problem.height > 0 and problem.opacity == 1
    ui.app.change_setting("voice", "enabled", "0")
    ui.frames(2)
    assert problem.text == ""  # off: nothing to say about it
    ui.app.change_setting("companion", "language", i18n.LANGUAGES["en"])
    ui.app.voice_link.stop()
