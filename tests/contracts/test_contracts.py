"""The contract suite: what earlier issues promised scripts about `companion script`, replayed
from recorded JSON-lines transcripts (`transcripts/*.jsonl`, format in `transcript.py`)
through the driver as a real process, each in a folder of its own with a fresh database.

Extending is free, breaking fails. An answer keeps its recorded promise when:

- it is of the same kind: accepted, refused in words, or an internal error (the driver has no
  refusal codes: a refusal's kind is that it is one, `ok: false` with a reason, and that it
  changed nothing, so its state must equal the state of the answer before it);
- every key the recorded answer has is still there, at every depth, with a value of the same
  JSON type (null, boolean, number, string, array, object). Keys it did not have are free;
- values are equal, except where this list says otherwise:
  - compared exactly: ids and names of things a command chose (`"I-sands"`, `"glow-A11"`,
    `"Ada"`), phase, step, status, result and reason names, event types, refusal kinds, and
    every number and boolean (they follow from the seed and the commands), including the
    database's game ids, which follow from the commands too in the transcript's fresh database;
  - words, compared by type only so that re-wording and translating stay free: any string
    holding whitespace (prompts, reminders' texts, conditions, details, refusals' reasons,
    snippets) and, however short, the values of `name`, `phase_name` and `board_name` keys
    and a rules entry's `title` (`checker.WORDS`);
  - volatile, compared by type only (the set of JSON types allowed is given):
    `started_at`, `updated_at`, `finished_at` (string or null), `duration_minutes` (number
    or null): they come from the clock (`checker.VOLATILE`);
  - lists are closed (the same length, item by item), except open lists, which may gain items
    anywhere but keep every recorded item in its order: `events` and the `rules` a search
    finds (`checker.OPEN`); and lists of the rules' content, which a rules fix may change
    and whose items keep only their shape (each item an object with the recorded items'
    keys, of their types): `reminders`, `setup_checklist`, `unverified` (`checker.ITEMS`);
  - paths: the transcript's folder is written `{tmp}` in requests and answers, so a path
    compares exactly below it;
  - anything else volatile is marked on its line, never skipped silently: a line's `"loose"`
    names full paths from the answer's root (`*` for any one key or index) as `"type"`,
    `"open"` or `"items"`.

Re-recording (`python -m tests.contracts.record NAME`) is only for a deliberate extension:
new request lines, or new keys to hold from now on. It refuses to write over an answer the
new one does not keep, so a transcript cannot be re-recorded to make a broken contract pass.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.bootstrap import build_service
from companion.core.errors import Refused
from companion.driver import ScriptDriver, encode_answer
from companion.games.glow import commands as glow_commands
from companion.games.registry import GAMES

from .checker import TMP, UNKNOWN, answer_breaches, breaches, kind, parse_loose, with_folder
from .record import record
from .transcript import (
    DATABASE,
    TRANSCRIPTS,
    Step,
    Transcript,
    all_transcripts,
    check,
    dump,
    load,
    play,
    request_line,
)

TRANSCRIPT_FILES = all_transcripts()


@pytest.mark.parametrize("path", TRANSCRIPT_FILES, ids=[p.stem for p in TRANSCRIPT_FILES])
def test_every_recorded_answer_is_still_kept(path: Path, tmp_path: Path) -> None:
    transcript = load(path)
    found = check(transcript, play(transcript, tmp_path))
    assert not found, (f"{path.name} breaks its contract in {len(found)} place(s):\n"
                       + "\n".join(found[:40]))


# --- what the transcripts hold ---------------------------------------------------------------

# Per game, the commands its issue wrote into the contract (issue 2 with issue 4's fields for
# Spirit Island, 18 for Leviathan Wilds, 19 for Glow); per shared area, the commands of
# issues 3, 6, 7, 14 and 16. The transcripts must keep sending each of them.
PROMISED: dict[str | None, set[str]] = {
    "spirit-island": {"new_game", "next", "fear", "destroy", "reveal", "blight", "heal",
                      "resolve_fear", "fear_card", "declare", "score", "undo", "redo", "state",
                      "effect", "next_blight_card"},
    "leviathan-wilds": {"new_game", "next", "wild", "health", "corruption", "undo", "redo",
                        "state", "strike", "add_crystal"},
    "glow": {"new_game", "next", "score", "rerolls", "end_score", "undo", "redo", "state",
             "pick", "discard", "dice", "companion", "camp", "boat", "track_reroll",
             "lumipili", "glowworms", "trails"},
    None: {"tags", "tag_lookup", "tag_enrol", "tag_forget", "tag_export", "tag_import",
           "rules_search", "game_detail", "games", "history", "stats", "export", "import",
           "resume", "abandon", "delete"},
}
SHARED = PROMISED[None]


def _sent_by_game() -> dict[str | None, set[str]]:
    """Every command the transcripts send, under the game in play when it was sent."""
    sent: dict[str | None, set[str]] = {}
    for path in TRANSCRIPT_FILES:
        title: str | None = None
        for step in load(path).steps:
            if not isinstance(step.send, dict) or step.answer is None:
                continue
            cmd = step.send.get("cmd")
            if kind(step.answer) != "accepted":
                continue  # a refusal alone does not show that the command works
            if cmd == "new_game":
                title = step.send.get("game", "spirit-island")
            sent.setdefault(None if cmd in SHARED else title, set()).add(str(cmd))
    return sent


def test_the_transcripts_play_every_command_the_issues_promised() -> None:
    sent = _sent_by_game()
    missing = {game: sorted(promised - sent.get(game, set()))
               for game, promised in PROMISED.items() if promised - sent.get(game, set())}
    assert not missing


# The state keys each game's issue fixed by name ("*": any item of a list); the recorded
# answers must hold every one, so that no re-recording can quietly leave one out.
PROMISED_KEYS: dict[str, list[str]] = {
    "spirit-island": [
        "round", "phase", "step", "players", "terror_level", "fear.pool", "fear.generated",
        "fear.earned", "fear.resolved", "fear.deck", "invader.deck_count", "invader.deck_stages",
        "invader.ravage", "invader.build", "invader.explore", "invader.discard",
        "invader.high_immigration", "blight.card", "blight.side", "blight.on_card",
        "blight.on_island", "outcome.result", "outcome.reason", "outcome.score", "adversary.id",
        "adversary.level", "scenario", "difficulty", "setup_checklist.*.id",
        "setup_checklist.*.text", "reminders.*.id", "reminders.*.text", "title", "game"],
    "leviathan-wilds": [
        "title", "round", "step", "active", "threat_row.*.face_up", "threat_row.*.wild",
        "wrath", "guardians.*.health", "guardians.*.corruption", "guardians.*.deck",
        "guardians.*.hand", "guardians.*.discard", "guardians.*.defeated", "crystals_left",
        "outcome.result", "outcome.reason"],
    "glow": [
        "title", "day", "phase", "start_player", "deck_count", "players.*.score",
        "players.*.reroll_tokens", "players.*.final", "outcome.ranking"],
}


def _holds(value: Any, path: list[str]) -> bool:
    if not path:
        return True
    if path[0] == "*":
        return isinstance(value, list) and any(_holds(item, path[1:]) for item in value)
    return isinstance(value, dict) and path[0] in value and _holds(value[path[0]], path[1:])


@pytest.mark.parametrize("game", list(PROMISED_KEYS))
def test_the_recorded_answers_hold_every_state_key_the_issues_promised(game: str) -> None:
    states = [step.answer["state"] for path in TRANSCRIPT_FILES for step in load(path).steps
              if step.answer is not None and isinstance(step.answer.get("state"), dict)
              and step.answer["state"].get("title") == game]
    missing = [key for key in PROMISED_KEYS[game]
               if not any(_holds(state, key.split(".")) for state in states)]
    assert not missing


def test_every_line_has_its_recorded_answer_and_every_refusal_says_why() -> None:
    for path in TRANSCRIPT_FILES:
        for step in load(path).steps:
            if step.restart:
                continue
            assert step.answer is not None, f"{path.name}: {step.label()} has no answer"
            assert kind(step.answer) != "internal error", f"{path.name}: {step.label()}"
            if kind(step.answer) == "refused":
                assert step.note, f"{path.name}: {step.label()} is a refusal without a note"


# The answers' keys the shared commands were given by name in docs/driver.md's table (issues 3,
# 6, 7, 14 and 18), each to be held by some accepted recorded answer of that command.
PROMISED_ANSWERS: dict[str, list[str]] = {
    "tags": ["tags.*.uid", "tags.*.kind", "tags.*.card", "tags.*.name", "progress.invader"],
    "tag_lookup": ["tag.uid", "tag.kind", "tag.card"],
    "tag_enrol": ["tag.uid", "tag.card"],
    "rules_search": ["rules.*.id", "rules.*.title", "rules.*.snippet"],
    "games": ["games.*.id", "games.*.title", "games.*.status", "games.*.players",
              "games.*.result", "games.*.reason", "games.*.score", "games.*.rounds",
              "games.*.duration_minutes", "games.*.setup", "games.*.details.guardians",
              "games.*.details.board", "games.*.details.standings.*.rank"],
    "history": ["history.*.id", "history.*.status"],
    "stats": ["stats.games_played", "stats.wins", "stats.win_rate", "stats.average_score",
              "stats.by_game.*.game", "stats.by_adversary.*.adversary"],
    "game_detail": ["game_detail.id", "game_detail.outcome.result", "game_detail.outcome.detail",
                    "game_detail.per_round.*.round", "game_detail.per_round.*.fear_generated",
                    "game_detail.per_round.*.blight_on_island",
                    "game_detail.per_round.*.terror_level"],
    "export": ["exported"],
    "import": ["imported"],
}


@pytest.mark.parametrize("cmd", list(PROMISED_ANSWERS))
def test_the_recorded_answers_hold_every_key_the_shared_commands_promised(cmd: str) -> None:
    answers = [step.answer for path in TRANSCRIPT_FILES for step in load(path).steps
               if isinstance(step.send, dict) and step.send.get("cmd") == cmd
               and step.answer is not None and kind(step.answer) == "accepted"]
    missing = [key for key in PROMISED_ANSWERS[cmd]
               if not any(_holds(answer, key.split(".")) for answer in answers)]
    assert not missing


def test_glow_s_noon_and_afternoon_end_on_a_plain_next_in_the_recorded_transcripts() -> None:
    """Issue 25: the contract's `next` finishes the phase; no confirm is needed."""
    plain = []
    for path in TRANSCRIPT_FILES:
        before: dict[str, Any] | None = None
        for step in load(path).steps:
            if step.answer is None:
                continue
            state = step.answer.get("state")
            if (before is not None and before.get("title") == "glow"
                    and step.send == {"cmd": "next"}
                    and before["phase"] in ("noon", "afternoon")):
                plain.append((before["phase"], kind(step.answer), state and state["phase"]))
            before = state
    assert ("noon", "accepted", "afternoon") in plain
    assert ("afternoon", "accepted", "evening") in plain
    assert all(answer == "accepted" for _, answer, _ in plain)


# --- the checker itself ---------------------------------------------------------------------

RECORDED: dict[str, Any] = {
    "ok": True,
    "events": [{"type": "phase_started", "day": 1, "phase": "noon"}],
    "state": {"title": "glow", "day": 1, "phase": "noon", "deck_count": 35,
              "players": [{"score": 10, "name": "Ada", "final": None}],
              "prompt": {"id": "glow-prompt-noon", "text": "Move your score marker."},
              "reminders": [{"id": "glow-rem-a", "text": "One thing.", "values": {}}],
              "started_at": "2026-11-28T01:00:00+00:00"},
}


def _changed(change: Any) -> dict[str, Any]:
    """A copy of RECORDED with `change` applied to it."""
    answer: dict[str, Any] = json.loads(json.dumps(RECORDED))
    change(answer)
    return answer


def test_the_same_answer_keeps_its_promise() -> None:
    assert breaches(RECORDED, _changed(lambda a: None)) == []


def test_an_added_key_anywhere_keeps_the_promise() -> None:
    def add(answer: dict[str, Any]) -> None:
        answer["rolled"] = [3, 4]
        answer["state"]["weather"] = "fine"
        answer["state"]["players"][0]["colour"] = "green"
    assert breaches(RECORDED, _changed(add)) == []


def test_a_dropped_key_breaks_the_promise() -> None:
    found = breaches(RECORDED, _changed(lambda a: a["state"].pop("deck_count")))
    assert found == ["state.deck_count: dropped"]
    assert breaches(RECORDED, _changed(lambda a: a["state"]["players"][0].pop("final")))


@pytest.mark.parametrize(("where", "value"), [
    (("state", "phase"), "afternoon"),                 # a phase name
    (("state", "day"), 2),                             # a number
    (("state", "prompt", "id"), "glow-prompt-late"),   # an id
    (("events", 0, "type"), "phase_begun"),            # an event type
    (("ok",), False),
])
def test_a_changed_fixed_value_breaks_the_promise(where: tuple[Any, ...], value: Any) -> None:
    def change(answer: dict[str, Any]) -> None:
        target = answer
        for key in where[:-1]:
            target = target[key]
        target[where[-1]] = value
    assert breaches(RECORDED, _changed(change))


def test_a_changed_json_type_breaks_the_promise_even_where_only_the_type_counts() -> None:
    assert breaches(RECORDED, _changed(lambda a: a["state"]["players"][0].update(name=7)))
    assert breaches(RECORDED, _changed(lambda a: a["state"].update(started_at=12)))
    assert breaches(RECORDED, _changed(lambda a: a["state"]["players"][0].update(final=0)))


def test_words_clock_times_and_the_rules_content_may_change() -> None:
    def reword(answer: dict[str, Any]) -> None:
        state = answer["state"]
        state["prompt"]["text"] = "Score what you earned at noon."
        state["players"][0]["name"] = "Ada L."
        state["started_at"] = "2026-12-01T20:00:00+00:00"
        state["reminders"] = [{"id": "glow-rem-b", "text": "Another.", "values": {"n": 1}},
                              {"id": "glow-rem-c", "text": "And one more.", "values": {}}]
    assert breaches(RECORDED, _changed(reword)) == []
    assert breaches(RECORDED, _changed(
        lambda a: a["state"]["reminders"][0].pop("id"))) == ["state.reminders.0.id: dropped"]


def test_an_open_list_may_gain_items_but_not_lose_or_reorder_recorded_ones() -> None:
    recorded = {"events": [{"type": "a"}, {"type": "b"}]}
    assert breaches(recorded, {"events": [{"type": "x"}, {"type": "a", "n": 1}, {"type": "b"}]}) \
        == []
    assert breaches(recorded, {"events": [{"type": "a"}]})
    assert breaches(recorded, {"events": [{"type": "b"}, {"type": "a"}]})


def test_a_closed_list_keeps_its_length_and_its_items() -> None:
    recorded = {"ranking": [[1], [0, 2]]}
    assert breaches(recorded, {"ranking": [[1], [0, 2], [3]]})
    assert breaches(recorded, {"ranking": [[1], [2, 0]]})


def test_a_line_s_loose_marks_loosen_only_the_paths_they_name() -> None:
    recorded = {"exported": {"path": "/somewhere/x.json", "commands": 3}}
    actual = {"exported": {"path": "/elsewhere/x.json", "commands": 3}}
    assert breaches(recorded, actual)
    assert breaches(recorded, actual, parse_loose({"exported.path": "type"})) == []
    assert breaches(recorded, {"exported": {"path": "/elsewhere/x.json", "commands": 4}},
                    parse_loose({"exported.path": "type"}))
    with pytest.raises(ValueError, match="not one of"):
        parse_loose({"exported.path": "ignore"})


def test_the_kind_of_an_answer_and_an_unchanged_state_are_part_of_a_refusal() -> None:
    refused = {"ok": False, "error": "no such thing", "state": {"day": 1}}
    assert answer_breaches(refused, {"ok": False, "error": "not that", "state": {"day": 1}},
                           {"day": 1}) == []
    as_bug = {"ok": False, "error": "internal error: see the log", "state": {"day": 1}}
    assert answer_breaches(refused, as_bug, {"day": 1})
    changed = {"ok": False, "error": "no such thing", "state": {"day": 2}}
    assert any("changed" in b for b in answer_breaches(refused, changed, {"day": 1}))
    assert answer_breaches(refused, {"ok": True, "events": [], "state": {"day": 1}}, {"day": 1})
    assert answer_breaches(refused, changed, UNKNOWN) == [
        "state.day: recorded 1, now 2"]


# --- the suite catches a real breakage --------------------------------------------------------


def play_in_process(transcript: Transcript, folder: Path) -> list[dict[str, Any] | None]:
    """`play`, in this process, so that a test can break the game first (monkeypatch); a
    restart opens the database anew."""
    answers: list[dict[str, Any] | None] = []
    service = build_service(folder / DATABASE)[0]
    args = transcript.args
    driver = ScriptDriver(service, args[args.index("--lang") + 1] if "--lang" in args else "en")
    try:
        for step in transcript.steps:
            if step.restart:
                service.store.close()
                service = build_service(folder / DATABASE)[0]
                driver = ScriptDriver(service, driver.language)
                answers.append(None)
                continue
            assert step.send is not None
            answer = json.loads(encode_answer(driver.handle_line(request_line(step.send,
                                                                              folder))))
            answers.append(with_folder(answer, str(folder), TMP))
    finally:
        service.store.close()
    return answers


def _glow_realm() -> Transcript:
    return load(TRANSCRIPTS / "glow-realm.jsonl")


def _break_glow(monkeypatch: pytest.MonkeyPatch, **changes: Any) -> None:
    monkeypatch.setitem(GAMES, "glow", replace(GAMES["glow"], **changes))


def test_unbroken_glow_keeps_its_transcript_in_process_too(tmp_path: Path) -> None:
    assert check(_glow_realm(), play_in_process(_glow_realm(), tmp_path)) == []


def test_a_next_that_refuses_noon_without_confirm_fails_at_day_1_s_noon(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What issue 25 found: `next` refused at noon and afternoon unless confirm was sent."""
    decide = GAMES["glow"].decide

    def gated(state: Any, command: Any) -> Any:
        if (isinstance(command, glow_commands.Next) and state.phase in ("noon", "afternoon")
                and not command.confirm):
            raise Refused("nothing forgotten? Send next with confirm: true")
        return decide(state, command)

    _break_glow(monkeypatch, decide=gated)
    transcript = _glow_realm()
    found = check(transcript, play_in_process(transcript, tmp_path))
    noon = next(step for step in transcript.steps if step.note and "noon ends" in step.note)
    assert found and found[0].startswith(f"line {noon.line} ")
    assert "accepted when recorded, refused now" in found[0]


def test_a_renamed_command_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parse = GAMES["glow"].parse_command

    def renamed(raw: Any) -> Any:
        if isinstance(raw, dict) and raw.get("cmd") == "score":
            raise Refused("unknown command 'score'; known commands: points, …")
        if isinstance(raw, dict) and raw.get("cmd") == "points":
            raw = {**raw, "cmd": "score"}
        return parse(raw)

    _break_glow(monkeypatch, parse_command=renamed)
    transcript = _glow_realm()
    found = check(transcript, play_in_process(transcript, tmp_path))
    first_score = next(s for s in transcript.steps
                       if isinstance(s.send, dict) and s.send.get("cmd") == "score")
    assert found and found[0].startswith(f"line {first_score.line} ")


def test_a_dropped_state_key_fails_and_an_added_one_passes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    view = GAMES["glow"].view

    def without_deck(state: Any, translate: Any) -> dict[str, Any]:
        shown = view(state, translate)
        del shown["deck_count"]
        return shown

    _break_glow(monkeypatch, view=without_deck)
    found = check(_glow_realm(), play_in_process(_glow_realm(), tmp_path / "dropped"))
    assert found and all("state.deck_count: dropped" in line for line in found)

    def with_more(state: Any, translate: Any) -> dict[str, Any]:
        return {**view(state, translate), "moon": "full", "hours_played": 2}

    _break_glow(monkeypatch, view=with_more)
    assert check(_glow_realm(), play_in_process(_glow_realm(), tmp_path / "added")) == []


def test_a_changed_fixed_value_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    start = GAMES["glow"].start

    def eleven_to_start(command: Any) -> Any:
        state, events = start(command)
        return replace(state, players=tuple(replace(p, score=11) for p in state.players)), events

    _break_glow(monkeypatch, start=eleven_to_start)
    found = check(_glow_realm(), play_in_process(_glow_realm(), tmp_path))
    assert any("state.players.0.score: recorded 10, now 11" in line for line in found)


def test_a_transcript_with_an_unrecorded_line_fails_until_the_recorder_adds_it(
        tmp_path: Path) -> None:
    transcript = load(TRANSCRIPTS / "rules-search.jsonl")
    transcript.steps.append(Step(99, {"cmd": "rules_search", "query": "fear", "limit": 1}))
    found = check(transcript, play(transcript, tmp_path))
    assert found == [f"{transcript.steps[-1].label()}: no answer recorded (run the recorder to "
                     "add it)"]


# --- the recorder ---------------------------------------------------------------------------


def _copy(name: str, folder: Path) -> Path:
    copy = folder / f"{name}.jsonl"
    copy.write_text((TRANSCRIPTS / f"{name}.jsonl").read_text(encoding="utf-8"),
                    encoding="utf-8")
    return copy


def test_the_recorder_will_not_write_over_an_answer_the_driver_no_longer_keeps(
        tmp_path: Path) -> None:
    path = _copy("rules-search", tmp_path)
    transcript = load(path)
    first = transcript.steps[0]
    assert first.answer is not None
    first.answer["rules"][0]["id"] = "blight-as-it-was"  # as if the driver had changed since
    path.write_text(dump(transcript), encoding="utf-8")
    before = path.read_text(encoding="utf-8")
    problems = record(path)
    assert any("blight-as-it-was" in problem for problem in problems)
    assert path.read_text(encoding="utf-8") == before
    assert record(path, break_contract=True) == []
    assert load(path).steps[0].answer == load(TRANSCRIPTS / "rules-search.jsonl").steps[0].answer


def test_the_recorder_adds_a_new_line_and_keeps_the_recorded_ones(tmp_path: Path) -> None:
    path = _copy("rules-search", tmp_path)
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps({"send": {"cmd": "rules_search", "query": "fear", "limit": 1}})
                  + "\n")
    assert record(path) == []
    recorded, original = load(path), load(TRANSCRIPTS / "rules-search.jsonl")
    assert [s.answer for s in recorded.steps[:-1]] == [s.answer for s in original.steps]
    last = recorded.steps[-1].answer
    assert last is not None and kind(last) == "accepted"


def test_the_recorder_records_a_refusal_only_with_a_note_saying_why(tmp_path: Path) -> None:
    path = _copy("rules-search", tmp_path)
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps({"send": {"cmd": "rules_search", "query": "fear", "limit": 99}})
                  + "\n")
    problems = record(path)
    assert problems and "note" in problems[0]
    assert load(path).steps[-1].answer is None
