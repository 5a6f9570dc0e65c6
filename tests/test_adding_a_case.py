"""Adding a case is its spec entry and `make tables` (and `make expected`); changing a weight touches the spec only.

One copy of this checkout is edited the way README's "Adding or changing a case" says, a seventh case and then a
changed weight, with `make tables` and the lab run there after each, and held to what a maintainer expects: the new
case shown, graded and counted everywhere, the new points in every table and grade, and no other file touched (README
only inside its generated tables)."""

from __future__ import annotations

import csv
import difflib
import filecmp
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import LAB, LABS, ROOT, clean_env
from labkit.instructor import sheets

LEFT_OUT = shutil.ignore_patterns(
    ".git", ".venv*", "__pycache__", ".pytest_cache", "grades", "dist", "*.pyc", "chat-session.html", "chat-sessions.db"
)
SEVENTH = (
    'CHECKS = CHECKS[:6] + (Case(id="7", function="extract_response", group=SIX, section="extract", '
    'label=Text("回复前后的空行也要去掉", "blank lines around the reply are trimmed too"), hint="hint.not_trimmed", '
    'rules=("E3", "E4"), examples=(Example(("<|assistant|>\\n\\n好的。\\n\\n<|end|>",), "好的。"),)),) + '
    'CHECKS[6:]\n\n'
)
ROWS = {
    "TASK.md": "| TEST 7 | 回复前后的空行也要去掉 | E3、E4 |\n",  # the sheets' rows make tables writes for it
    "TASK.en.md": "| TEST 7 | blank lines around the reply are trimmed too | E3, E4 |\n",
}


# The suite's files that read the spec's cases (and points), run in the copy after both steps: the ones a seventh case
# or a changed weight broke before they followed the spec, but those that take minutes (the hostile files, the
# browser pages, new venvs), which were run whole in such copies when this was built: green but for this file and
# test_course, which need the pristine git checkout
CASE_READERS = (
    "tests/test_sheets.py",
    "tests/test_course_output.py",
    "tests/test_task_md.py",
    "tests/test_scheme.py",
    "tests/test_texts.py",
    "tests/test_registry.py",
    "tests/test_mistakes.py::test_mistake_fails_exactly_its_cases_and_the_named_one_gives_its_hint",
    "tests/test_mistakes.py::test_a_reply_not_cut_at_a_boundary_is_named_in_every_check_it_fails",
)
ONLY_LAB09 = " and ".join(f"not {name}" for name in LABS if name != LAB.id)  # the readers' runs for other labs
# read nothing the steps change


CACHES_AND_OUTPUTS = ("__pycache__", ".pytest_cache", "grades", "dist")  # folders a run writes: no step's change


def copy_of_the_checkout(tmp_path: Path) -> Path:
    copy = tmp_path / "lab"
    shutil.copytree(ROOT, copy, ignore=LEFT_OUT)
    return copy


def run(copy: Path, *command: str, **env) -> subprocess.CompletedProcess:
    """A command in the copy, as a maintainer types it (`make X` with this interpreter: no venv is made there)."""
    if command[0] == "make":
        command = ("make", "--no-print-directory", *command[1:], f"PYTHON={sys.executable}")
    return subprocess.run(command, cwd=copy, env=clean_env(**env), capture_output=True, text=True, timeout=300)


def edited(path: Path, edit) -> None:
    text = path.read_text(encoding="utf-8")
    new = edit(text)
    assert new != text, f"{path.name}: the edit found nothing to change"
    path.write_text(new, encoding="utf-8")


def changed_files(copy: Path) -> set:
    """The files of the copy that differ from this checkout's (added, removed or edited), left-out folders aside."""
    found = set()

    def walk(compared: filecmp.dircmp, prefix: str):
        found.update(prefix + name for name in compared.diff_files + compared.left_only + compared.right_only)
        for name, sub in compared.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(
        filecmp.dircmp(ROOT, copy, ignore=[".git", *CACHES_AND_OUTPUTS] + [path.name for path in ROOT.glob(".venv*")]),
        "",
    )
    return {name for name in found if not name.endswith((".pyc", "grades", "chat-session.html", "chat-sessions.db"))}


def snapshot(copy: Path) -> dict:
    """Every file of the copy (caches and outputs aside, as changed_files leaves them) -> its bytes."""
    return {
        path.relative_to(copy).as_posix(): path.read_bytes()
        for path in copy.rglob("*")
        if path.is_file() and not set(CACHES_AND_OUTPUTS) & set(path.relative_to(copy).parts)
    }


def only_generated_lines_changed(before: str, after: str) -> bool:
    changed = [line for line in difflib.ndiff(before.splitlines(), after.splitlines()) if line[:1] in "-+"]
    return bool(changed) and all(line[2:].startswith("|") for line in changed)


def graded(copy: Path, tmp_path: Path) -> list[dict]:
    tmp_path.mkdir(exist_ok=True)
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(copy / "solutions" / "student.py", folder / "alice.py")
    shutil.copy(copy / "framework" / "student.py", folder / "bob.py")
    result = run(copy, "make", "grade", f"SUBMISSIONS={folder}", f"OUT={tmp_path / 'out'}", "JOBS=2")
    assert result.returncode == 0, result.stdout + result.stderr
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8", newline="") as table:
        return list(csv.DictReader(table))


def test_a_seventh_case_and_then_a_changed_weight_need_only_the_spec_and_make_tables(tmp_path):
    """README's steps, in one copy: a seventh case is its entry in the spec (its label, hint, rules and examples)
    then make tables, which writes its rows in both sheets' table of cases and README's, the scheme tables and the
    transcripts of the stub and the reference; then a changed weight is the group's points in the spec, and make
    tables rewrites the tables that show them and nothing else.  The suite's tests that read the spec's cases and
    points then pass in the copy (run once, for both steps: each of them read what it changed)."""
    copy = copy_of_the_checkout(tmp_path)
    readme = (copy / "README.md").read_text(encoding="utf-8")
    edited(copy / "lab09" / "spec.py", lambda text: text.replace("\nLAB = Lab(", "\n" + SEVENTH + "LAB = Lab(", 1))
    tables = run(copy, "make", "tables")
    assert tables.returncode == 0, tables.stdout + tables.stderr
    assert sorted(re.findall(r"tables: rewrote (\S+ <!-- [^>]+ -->)", tables.stdout)) == sorted(
        ["README.md <!-- scheme: readme -->"]
        + [
            f"{sheet} <!-- {part} -->"
            for sheet in ROWS
            for part in ("scheme", "cases", "transcript: stub", "transcript: solution")
        ]
    )
    for sheet, row in ROWS.items():
        assert row in (copy / sheet).read_text(encoding="utf-8"), sheet
    assert run(copy, "make", "tables").stdout.startswith("tables: every generated table is current\n")

    stub = run(copy, "make", "test")
    assert "[TEST 7] 回复前后的空行也要去掉 ... [FAIL]" in stub.stdout
    assert "测试结果: 0 通过, 7 失败" in stub.stdout and stub.returncode != 0
    assert run(copy, sys.executable, "lab.py", "test", f"PYTHON={sys.executable}").returncode == 1  # make says 2
    solution = run(copy, "make", "test", "STUDENT=solutions/student.py")
    assert "[TEST 7] 回复前后的空行也要去掉 ... [PASS]" in solution.stdout
    assert "测试结果: 7 通过, 0 失败" in solution.stdout and solution.returncode == 0, solution.stdout
    english = run(copy, "make", "test", LAB_LANG="en").stdout
    assert "[TEST 7] blank lines around the reply are trimmed too ... [FAIL]" in english
    assert "Result: 0 passed, 7 failed" in english

    rows = graded(copy, tmp_path / "seventh")
    header = list(rows[0])
    assert header.index("t7") == header.index("t6") + 1 and header.index("x1") == header.index("t7") + 1
    alice, bob = rows
    assert (alice["student"], alice["score"], alice["max_score"]) == ("alice", "100", "100")
    assert [alice[f"{group}_points"] for group in ("six", "extended", "properties", "generated")] == [
        "30",
        "20",
        "20",
        "30",
    ]
    assert (bob["student"], bob["score"], bob["six_points"]) == ("bob", "0", "0")
    cases = json.loads((tmp_path / "seventh" / "out" / "grades.json").read_text(encoding="utf-8"))["cases"]
    assert [case["weight"] for case in cases if case["group"] == "six"] == [5, 5, 4, 4, 4, 4, 4]
    assert {"column": "t7", "label": "回复前后的空行也要去掉", "weight": 4, "suite": "core", "group": "six"} in cases

    zh, en = ((copy / sheet).read_text(encoding="utf-8") for sheet in ("TASK.md", "TASK.en.md"))
    assert "| 七个测试 | TEST 1–7 | `make test` | 30 |" in zh and "| the seven | TEST 1–7 | `make test` | 30 |" in en
    assert "| `six` | `t1`…`t7` | 30 | 4–5 | `make test` |" in (copy / "README.md").read_text(encoding="utf-8")
    shown = run(copy, "make", "help").stdout
    assert "运行七个测试 (framework/student.py) / run the seven cases" in shown
    assert "七个测试 + 扩展检查 + 性质检查 (都计入成绩) / the seven, extended and property checks" in shown
    assert changed_files(copy) == {"lab09/spec.py", "TASK.md", "TASK.en.md", "README.md"}
    recomputed = run(copy, "make", "expected")  # the suite's expected data: which checks each wrong file fails
    assert recomputed.returncode == 0 and '+    "no_trim": ["4", "5", "6", "7"],' in recomputed.stdout, (
        recomputed.stdout
    )
    assert only_generated_lines_changed(readme, (copy / "README.md").read_text(encoding="utf-8"))

    a_changed_weight_needs_only_the_spec(copy, tmp_path / "weight")
    own = run(copy, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", ONLY_LAB09, *CASE_READERS)
    assert own.returncode == 0, own.stdout[-4000:] + own.stderr[-2000:]


def a_changed_weight_needs_only_the_spec(copy: Path, tmp_path: Path) -> None:
    """The second step of the test above: test_sheets holds the tables to a changed weight; here the edit is made in
    the spec itself, make tables rewrites only the generated lines of the files that show points, and the grade
    follows it."""
    tmp_path.mkdir()
    before = snapshot(copy)
    edited(
        copy / "lab09" / "spec.py",
        lambda text: text.replace('SIX = Group(id="six", points=30,', 'SIX = Group(id="six", points=40,', 1).replace(
            'EXTENDED = Group(id="extended", points=20,', 'EXTENDED = Group(id="extended", points=10,', 1
        ),
    )
    tables = run(copy, "make", "tables")
    assert tables.returncode == 0, tables.stdout + tables.stderr
    after = snapshot(copy)
    showing = {block.file for block in sheets.blocks(LAB)}  # the files with generated tables
    assert {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)} == {
        "lab09/spec.py",
        *showing,
    }
    for name in showing:
        assert only_generated_lines_changed(before[name].decode("utf-8"), after[name].decode("utf-8")), name
    alice, bob = graded(copy, tmp_path)
    assert (alice["score"], alice["six_points"], alice["extended_points"]) == ("100", "40", "10")
    assert (bob["score"], bob["six_points"]) == ("0", "0")
    again = run(copy, "make", "tables")
    assert again.stdout == "tables: every generated table is current\n"


def test_an_inline_label_is_shown_under_its_key_and_never_redefines_another(monkeypatch):
    """A case may carry its label as a Text: it is the lab's own "case.<id>.label" (what every face looks up),
    installed with the lab's texts while that lab is active (another lab may give its case 7 another label), and a
    Text that would change a label the lab's texts define is refused when the lab's layer is installed."""
    from dataclasses import replace

    from labkit import i18n, spec
    from labkit.i18n import text
    from labkit.spec import Text

    label = Text("回复前后的空行也要去掉", "blank lines around the reply are trimmed too")
    seventh = replace(LAB.check("6"), id="7", label=label, hint="hint.not_trimmed")
    lab = replace(LAB, checks=LAB.checks[:6] + (seventh,) + LAB.checks[6:])
    replace(lab)  # built again: nothing is registered for the process
    assert seventh.label_key == "case.7.label"
    monkeypatch.setattr(spec, "active", lambda: lab)
    assert (text("case.7.label", "zh"), text("case.7.label", "en")) == label
    monkeypatch.setattr(spec, "active", lambda: LAB)
    assert "case.7.label" not in i18n.CATALOGUE  # Lab09 has no case 7
    clashing = replace(LAB, checks=(replace(LAB.check("1"), label=Text("别的", "another")),) + LAB.checks[1:])
    with pytest.raises(KeyError, match="case.1.label"):
        i18n.use(clashing)
    assert text(LAB.check("1").label_key, "en") == "single turn: prompt for one user message"
