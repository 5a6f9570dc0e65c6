"""The suite's expected data that follows from the spec and the students' files (tests/expected.json): which checks
each wrong file of tests/students/ fails.  `make expected` (python tests/expected.py) computes it anew, prints the diff
to review and writes it; `--check` only says whether it is current.  The tests that read it fail, naming the command,
while it is stale (after a case is added, say: review that each wrong file fails what it should)."""

from __future__ import annotations

import difflib
import functools
import json
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]  # run as a
# script: the suite's helpers beside it, the course above
from conftest import LAB, STUDENTS, TABLE, failing, judged  # noqa: E402

FILE = Path(__file__).with_name("expected.json")
COMMAND = "make expected"
CHALLENGE = tuple(case for case in LAB.selected("challenge") if case.function == "trim_history")
REWRITE = tuple(case for case in LAB.selected("challenge") if case.section == "rewrite")
FOLDERS = {
    "wrong": LAB.selected("test"),
    "wrong_full": TABLE,
    "wrong_multi": TABLE,
    "wrong_trim": CHALLENGE,
    "wrong_rewrite": REWRITE,
}  # a folder of tests/students -> the checks its files are judged on
BOUNDARY = ("no_cut_user", "no_cut_system", "no_cut_end")  # wrong/ files judged on every extract check too
EXTRACTS = tuple(case for case in TABLE + LAB.in_group("properties") if case.function == "extract_response")


def _ids(failed: set, cases) -> list[str]:
    return [case.id for case in cases if case.id in failed]  # in the spec's order


def computed() -> dict:
    """{folder: {file: the ids of the checks it fails}}, and "boundary": the BOUNDARY files over EXTRACTS."""
    data = {
        folder: {
            path.stem: _ids(failing(judged(path, cases=cases)), cases)
            for path in sorted((STUDENTS / folder).glob("*.py"))
        }
        for folder, cases in FOLDERS.items()
    }
    data["boundary"] = {
        name: _ids(failing(judged(STUDENTS / "wrong" / f"{name}.py", cases=EXTRACTS)), EXTRACTS) for name in BOUNDARY
    }
    return data


def dumped(data: dict) -> str:
    """The data as tests/expected.json keeps it: a file a line, so that a diff names the file that changed."""
    folders = []
    for folder, files in data.items():
        lines = ",\n".join(f"    {json.dumps(name)}: {json.dumps(ids)}" for name, ids in files.items())
        folders.append(f"  {json.dumps(folder)}: {{\n{lines}\n  }}")
    return "{\n" + ",\n".join(folders) + "\n}\n"


@functools.lru_cache(maxsize=None)
def load() -> dict:
    """tests/expected.json as read once a process (the tests ask it of every wrong file)."""
    return json.loads(FILE.read_text(encoding="utf-8")) if FILE.is_file() else {}


def failing_of(folder: str, name: str) -> set:
    """The checks `folder/name` is expected to fail; a file the data does not know is a stale data file."""
    data = load()
    assert name in data.get(folder, {}), f"tests/expected.json knows no {folder}/{name}: run {COMMAND}"
    return set(data[folder][name])


def main(argv: list[str]) -> int:
    before = FILE.read_text(encoding="utf-8") if FILE.is_file() else ""
    after = dumped(computed())
    diff = "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            "tests/expected.json (now)",
            "tests/expected.json (computed)",
        )
    )
    if not diff:
        print("expected: tests/expected.json is current")
        return 0
    print(diff, end="")
    if argv == ["--check"]:
        print(f"expected: tests/expected.json is stale: run {COMMAND} and review the diff above", file=sys.stderr)
        return 1
    FILE.write_text(after, encoding="utf-8")
    print("expected: rewrote tests/expected.json (review the diff above before committing it)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
