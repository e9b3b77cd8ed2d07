import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

# Tests import `tests.helpers`; make the project root importable however pytest is started.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# The app keeps its games, settings and rules index in the user's folders (XDG), which every
# companion a test starts inherits: the run gets folders of its own, so no test reads or writes
# the home of whoever runs it (a read-only or missing one included), and two runs side by side
# never build one cached index at once.
_USER_FOLDERS = Path(tempfile.mkdtemp(prefix="companion-tests-"))
for _name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
    os.environ[_name] = str(_USER_FOLDERS / _name.split("_")[1].lower())


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_USER_FOLDERS, ignore_errors=True)


@pytest.fixture(autouse=True)
def _english_unless_a_test_says_otherwise() -> None:
    """Every test begins in English: the app's language is the process's, and a test that
    switched it must not decide what the next one in the same worker sees (pytest-xdist runs
    the tests in any order)."""
    from companion import i18n

    i18n.set_language("en")
