"""Lab09 harness: the student file, the case table, the engine and its faces (pytest, chat, watch)."""

from pathlib import Path

# the lab this checkout runs (labkit.spec.active() imports it; LAB_SPEC= in the environment wins)
LAB_SPEC = "lab09.spec"
ROOT = Path(__file__).resolve().parent.parent  # the lab's top folder
STUB = ROOT / "framework" / "student.py"


def display_name(path: str) -> str:
    """How the student's file is named in messages: relative to the lab when it lies inside it."""
    try:
        return Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)
