import sys
from pathlib import Path

# Tests import `tests.helpers`; make the project root importable however pytest is started.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
