"""The table's setup checklist and step reminders, checked against the rules data files."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.spirit_island.adversary_table_rules import (
    ADVERSARY_REMINDERS,
    ADVERSARY_SETUP,
)
from companion.games.spirit_island.base_table_rules import BASE_SETUP
from companion.games.spirit_island.notes import (
    CONDITIONS,
    PLACEHOLDERS,
    REMINDER_STEPS,
    Note,
    Reminder,
)
from companion.games.spirit_island.scenario_table_rules import (
    SCENARIO_REMINDERS,
    SCENARIO_SETUP,
)

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
if not (DATA / "adversaries.md").exists() or not (DATA / "scenarios.md").exists():
    pytest.skip(f"{DATA} is not beside the checkout", allow_module_level=True)

# The data file's step names, as the app's steps.
STEP_OF_FLAG = {
    "before-ravage": "high_immigration", "ravage": "ravage", "build": "build",
    "explore": "explore", "after-explore": "explore", "after-build": "build",
    "after-ravage": "ravage", "after-advance": "advance", "end-of-fast": "fast_powers",
    "fear-earned": "fear",
}

# Where each adversary's extra loss condition is checked.
LOSS_STEPS = {
    "england": {"build"}, "france": {"build", "explore"}, "habsburg-livestock": {"ravage"},
    "russia": {"ravage"}, "scotland": {"build", "ravage"}, "habsburg-mining": {"fast_powers"},
}

GAME_TERMS = re.compile(r"\b(explorers?|towns?|city|cities|dahan|blight|presence)\b")


def level_flags() -> dict[str, dict[int, str]]:
    """adversary id -> level -> the Flags cell of that level's row in adversaries.md."""
    flags: dict[str, dict[int, str]] = {}
    current: dict[int, str] | None = None
    for line in (DATA / "adversaries.md").read_text().splitlines():
        found = re.match(r"- \*\*id\*\*: `([a-z-]+)`", line)
        if found:
            current = flags.setdefault(found.group(1), {})
            continue
        if line.startswith("## Conflicts"):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if current is not None and line.startswith("|") and cells[0].isdigit():
            current[int(cells[0])] = cells[4]
    return flags


def loss_adversaries() -> set[str]:
    """Ids of the adversaries whose overview row names an extra loss condition."""
    text = (DATA / "adversaries.md").read_text()
    section = text[text.index("### Overview"):]
    losing: set[str] = set()
    for line in section.splitlines()[1:]:
        if losing and not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0] in FLAGS and cells[3] != "none":
            losing.add(cells[0])
    return losing


def scenario_ids() -> list[str]:
    text = (DATA / "scenarios.md").read_text()
    return re.findall(r"^### .+? — `([a-z-]+)`", text, flags=re.MULTILINE)


FLAGS = level_flags()
SCENARIOS = scenario_ids()


def adversary_items() -> Iterator[tuple[str, int, Note | Reminder]]:
    for table in (ADVERSARY_SETUP, ADVERSARY_REMINDERS):
        for adversary, levels in table.items():
            for level, items in levels.items():
                for item in items:
                    yield adversary, level, item


def all_items() -> list[Note | Reminder]:
    items: list[Note | Reminder] = list(BASE_SETUP)
    items += [item for _, _, item in adversary_items()]
    for scenario_table in (SCENARIO_SETUP, SCENARIO_REMINDERS):
        for scenario_items in scenario_table.values():
            items += scenario_items
    return items


def all_reminders() -> list[Reminder]:
    return [item for item in all_items() if isinstance(item, Reminder)]


def test_the_data_files_list_eight_adversaries_and_fifteen_scenarios() -> None:
    assert len(FLAGS) == 8 and all(sorted(levels) == list(range(7)) for levels in FLAGS.values())
    assert len(SCENARIOS) == 15


def test_every_adversary_of_the_data_file_has_setup_and_reminder_entries() -> None:
    assert set(ADVERSARY_SETUP) == set(FLAGS)
    assert set(ADVERSARY_REMINDERS) == set(FLAGS)


def test_every_scenario_of_the_data_file_has_a_checklist_and_a_reminder_entry() -> None:
    assert set(SCENARIO_SETUP) == set(SCENARIOS)
    assert set(SCENARIO_REMINDERS) == set(SCENARIOS)
    assert all(SCENARIO_SETUP[scenario] for scenario in SCENARIOS)


def test_levels_are_between_0_and_6_and_none_is_listed_empty() -> None:
    for table in (ADVERSARY_SETUP, ADVERSARY_REMINDERS):
        for levels in table.values():
            assert all(0 <= level <= 6 and items for level, items in levels.items())


@pytest.mark.parametrize(("adversary", "level"),
                         [(a, lv) for a, levels in FLAGS.items() for lv, flags in levels.items()
                          if "SETUP" in flags])
def test_a_level_that_changes_setup_has_a_checklist_item(adversary: str, level: int) -> None:
    assert ADVERSARY_SETUP[adversary].get(level)


@pytest.mark.parametrize(("adversary", "level"),
                         [(a, lv) for a, levels in FLAGS.items() for lv, flags in levels.items()
                          if "REMINDER:" in flags or "ONGOING" in flags])
def test_a_level_with_a_step_rule_or_standing_rule_has_a_reminder(adversary: str,
                                                                  level: int) -> None:
    assert ADVERSARY_REMINDERS[adversary].get(level)


@pytest.mark.parametrize(("adversary", "level", "flag"),
                         [(a, lv, flag) for a, levels in FLAGS.items()
                          for lv, flags in levels.items()
                          for flag in re.findall(r"REMINDER:([a-z-]+)", flags)])
def test_a_level_reminds_the_players_at_the_step_its_data_names(adversary: str, level: int,
                                                                flag: str) -> None:
    steps = {step for r in ADVERSARY_REMINDERS[adversary].get(level, ()) for step in r.steps}
    assert STEP_OF_FLAG[flag] in steps


def test_every_extra_loss_condition_is_reminded_at_level_0_where_it_is_checked() -> None:
    assert loss_adversaries() == set(LOSS_STEPS)
    for adversary, expected in LOSS_STEPS.items():
        steps = {step for r in ADVERSARY_REMINDERS[adversary].get(0, ())
                 if r.when is None for step in r.steps}
        assert expected <= steps, adversary


def test_only_the_france_adversary_has_a_level_0_checklist_item() -> None:
    # France's Town limit is the only level-0 rule that changes setup.
    assert [a for a, levels in ADVERSARY_SETUP.items() if 0 in levels] == ["france"]


def test_all_ids_are_unique() -> None:
    ids = [item.id for item in all_items()]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_ids_name_their_base_game_adversary_level_or_scenario() -> None:
    slug = r"[a-z0-9]+(-[a-z0-9]+)*"
    assert all(re.fullmatch(f"base-{slug}", note.id) for note in BASE_SETUP)
    for adversary, level, item in adversary_items():
        assert re.fullmatch(f"{re.escape(adversary)}-{level}-{slug}", item.id), item.id
    for scenario_table in (SCENARIO_SETUP, SCENARIO_REMINDERS):
        for scenario, items in scenario_table.items():
            for item in items:
                assert re.fullmatch(f"{re.escape(scenario)}-{slug}", item.id), item.id


def test_setup_tables_hold_notes_and_reminder_tables_hold_reminders() -> None:
    assert all(type(note) is Note for note in BASE_SETUP)
    for scenario_notes in SCENARIO_SETUP.values():
        assert all(type(note) is Note for note in scenario_notes)
    for scenario_reminders in SCENARIO_REMINDERS.values():
        assert all(type(reminder) is Reminder for reminder in scenario_reminders)
    for adversary, _, item in adversary_items():
        expected = Note if adversary_in(ADVERSARY_SETUP, adversary, item) else Reminder
        assert type(item) is expected, item.id


def adversary_in(table: dict[str, dict[int, tuple[Note, ...]]], adversary: str,
                 item: Note | Reminder) -> bool:
    return any(item in items for items in table[adversary].values())


def test_the_base_setup_is_a_short_checklist_with_the_blight_card_item_the_app_swaps() -> None:
    assert 8 <= len(BASE_SETUP) <= 10
    assert [note.id for note in BASE_SETUP].count("base-blight-card") == 1
    blight_card = next(note for note in BASE_SETUP if note.id == "base-blight-card")
    assert "{blight}" in blight_card.text


def test_the_base_setup_shows_the_numbers_the_app_fills_in() -> None:
    used = {name for note in BASE_SETUP for name in placeholders(note.text)}
    assert used == set(PLACEHOLDERS)


def test_every_reminder_names_known_steps_once_each_in_round_order() -> None:
    for reminder in all_reminders():
        assert reminder.steps, reminder.id
        assert set(reminder.steps) <= set(REMINDER_STEPS), reminder.id
        order = [REMINDER_STEPS.index(step) for step in reminder.steps]
        assert order == sorted(set(order)), reminder.id


def test_every_reminder_condition_is_a_known_one() -> None:
    assert all(r.when is None or r.when in CONDITIONS for r in all_reminders())


def test_a_replacing_reminder_names_a_lower_level_of_the_same_adversary() -> None:
    replacing = 0
    for adversary, level, item in adversary_items():
        if isinstance(item, Reminder) and item.replaces is not None:
            replacing += 1
            earlier = {r.id for lv, rs in ADVERSARY_REMINDERS[adversary].items() if lv < level
                       for r in rs}
            assert item.replaces in earlier, item.id
    assert replacing >= 1


def test_mining_boom_ii_replaces_mining_boom_i() -> None:
    (boom_1,) = ADVERSARY_REMINDERS["habsburg-mining"][3]
    (boom_2,) = ADVERSARY_REMINDERS["habsburg-mining"][5]
    assert boom_2.replaces == boom_1.id


def test_scenario_reminders_replace_nothing() -> None:
    assert all(r.replaces is None for rs in SCENARIO_REMINDERS.values() for r in rs)


def test_the_conditional_rounds_of_russia_england_and_the_scenarios_are_marked() -> None:
    (russia_6,) = ADVERSARY_REMINDERS["russia"][6]
    assert russia_6.when == "from_round_2"
    (england_6,) = ADVERSARY_REMINDERS["england"][6]
    assert england_6.when == "no_fear_resolved" and england_6.steps == ("high_immigration",)
    surges = {r.when for r in SCENARIO_REMINDERS["surges-of-colonization"]}
    assert {"odd_round", "surge_round", "larger_surge_round"} <= surges
    assert any(r.when == "stage_3" for r in SCENARIO_REMINDERS["ward-the-shores"])
    assert any(r.when == "stage_3" for r in SCENARIO_REMINDERS["second-wave"])


def placeholders(text: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]


def test_texts_use_only_the_placeholders_the_app_fills_in() -> None:
    for item in all_items():
        assert set(placeholders(item.text)) <= set(PLACEHOLDERS), item.id


def test_every_text_formats_with_the_game_values() -> None:
    values = {"players": 3, "fear_pool": 12, "fear_split": "3/3/3", "fear_cards": 9,
              "blight": 7, "deck_order": "111-2222-33333"}
    assert set(values) == set(PLACEHOLDERS)
    for item in all_items():
        filled = item.text.format(**values)
        assert "{" not in filled and "}" not in filled, item.id


def test_no_text_is_empty_or_longer_than_300_characters() -> None:
    for item in all_items():
        assert item.text.strip() and len(item.text) <= 300, item.id


def test_texts_are_tidy_sentences() -> None:
    for item in all_items():
        assert item.text == item.text.strip() and "  " not in item.text, item.id
        assert item.text[0].isupper() and item.text[-1] in ".)", item.id


def test_texts_capitalise_the_game_pieces() -> None:
    for item in all_items():
        words = re.sub(r"\{\w+\}", "", item.text)
        assert not GAME_TERMS.search(words), (item.id, GAME_TERMS.findall(words))
