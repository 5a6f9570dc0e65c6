"""The outputs registry and the typed results: an export registered in one place is written, checked inside each
student's barrier and kept by MERGE=1; results read back from an OUT written before they were typed are
written back as they were, and an entry this grader could not have written is refused.  What an export is given
and keeps is checked for each lab of conftest.LABS; the earlier OUT is Lab09's."""

import csv
import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from classes import wrong_solution
from conftest import CLASS_LIMITS, LAB, ROOT, SOLUTION
from labkit.i18n import text
from labkit.instructor import config
from labkit.instructor.class_run import ClassOptions, grade_folder
from labkit.instructor.one_submission import Grade
from labkit.instructor.outputs import registry, regrade
from labkit.instructor.results import BARE_KEYS, KEYS, StudentResult

MAX_SCORE = config.load().max_score
LIMITS = replace(CLASS_LIMITS, case_seconds=5.0)  # no correct call times out on a busy machine: not what is tested here
EARLIER = ROOT / "tests" / "earlier_out"  # a class (alice right, bob wrong) graded before results were typed


class Marks:
    """A dummy export: marks/<student>.txt holding the score, which it cannot write for one student while
    that student is graded as `ok` (so the grader_error result the barrier gives instead can be written)."""

    def __init__(self, cannot=""):
        self.cannot = cannot
        self.checked: list[str] = []

    def piece(self, result, _feedback):
        self.checked.append(result.student)
        if result.student == self.cannot and result.status == "ok":
            raise ValueError(f"marks cannot write {result.student}")
        return f"{result.score}\n"

    def write(self, run, staging):
        staging.folder("marks")
        for result, _ in run.graded():
            staging.write(f"marks/{result.student}.txt", f"{result.score}\n".encode())

    @staticmethod
    def kept(out: Path, student: str) -> dict:
        return {f"marks/{student}.txt": (out / "marks" / f"{student}.txt").read_bytes()}

    def output(self):
        return registry.Output(name="marks", piece=self.piece, render=self.write, kept=self.kept)


def a_class(folder: Path, names, lab=None) -> Path:
    """Students who each hand in the reference solution of `lab` (Lab09's by default)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(SOLUTION if lab is None else lab.solution_path, folder / f"{name}.py")
    return folder


def rows(out: Path) -> dict:
    return {row["student"]: row for row in csv.DictReader(open(out / "grades.csv", encoding="utf-8"))}


def test_a_registered_output_is_written_and_a_student_it_cannot_write_becomes_one_grader_error_row(
    lab, tmp_path, monkeypatch
):
    marks = Marks(cannot="victim")
    monkeypatch.setattr(registry, "OUTPUTS", (*registry.OUTPUTS, marks.output()))
    out = tmp_path / "out"
    grade_folder(a_class(tmp_path / "class", ("alice", "victim", "zoe"), lab), out, LIMITS, ClassOptions(jobs=2))
    full = config.load().max_score  # the lab's
    assert {path.name: path.read_text() for path in (out / "marks").iterdir()} == {
        "alice.txt": f"{full}\n",
        "victim.txt": "0\n",
        "zoe.txt": f"{full}\n",
    }
    assert open(out / "grades.csv", encoding="utf-8").readline().split(",")[4] == lab.graded[0].column
    assert sorted(marks.checked) == ["alice", "victim", "victim", "zoe"]  # checked again as a grader_error
    assert {student: row["status"] for student, row in rows(out).items()} == {
        "alice": "ok",
        "victim": "grader_error",
        "zoe": "ok",
    }
    assert "ValueError: marks cannot write victim" in (out / "feedback" / "victim.txt").read_text(encoding="utf-8")
    assert not [path for path in out.iterdir() if path.name.startswith(".")]  # committed with the others


def test_an_output_that_is_not_wanted_is_neither_written_nor_kept(tmp_path, monkeypatch):
    marks = Marks()
    monkeypatch.setattr(registry, "OUTPUTS", (*registry.OUTPUTS, replace(marks.output(), wanted=lambda run: False)))
    out = tmp_path / "out"
    grade_folder(a_class(tmp_path / "class", ("alice",)), out, LIMITS)
    assert not (out / "marks").exists() and (out / "grades.csv").exists()


def test_merge_keeps_the_per_student_files_of_a_registered_output(lab, tmp_path, monkeypatch):
    monkeypatch.setattr(registry, "OUTPUTS", (*registry.OUTPUTS, Marks().output()))
    out = tmp_path / "out"
    grade_folder(a_class(tmp_path / "class", ("alice", "bob"), lab), out, LIMITS)
    (out / "marks" / "alice.txt").write_text("as the earlier run left it\n")
    fixed = tmp_path / "regrade"
    fixed.mkdir()
    shutil.copy(wrong_solution(lab)[0], fixed / "bob.py")
    run = grade_folder(fixed, out, LIMITS, ClassOptions(merge=True))
    assert run.merged and run.graded == 1
    assert (out / "marks" / "alice.txt").read_text() == "as the earlier run left it\n"  # kept, not rendered again
    assert (out / "marks" / "bob.txt").read_text() == f"{rows(out)['bob']['score']}\n" != f"{config.load().max_score}\n"
    assert [column for column in rows(out)["bob"] if column.endswith("_points")] == [
        f"{group.id}_points" for group in lab.graded_groups
    ]


def test_a_regrade_onto_an_out_written_before_results_were_typed_keeps_it_as_it_was(tmp_path):
    """EARLIER was written by an earlier grader for Lab09's checks as they were then; where the spec's checks have
    changed since (a case added, in a copy: test_adding_a_case's steps), MERGE=1 onto it is refused, as onto any
    OUT of another table of checks."""
    out = tmp_path / "out"
    shutil.copytree(EARLIER, out)
    document = json.loads((EARLIER / "grades.json").read_text(encoding="utf-8"))
    before = document["students"]
    fixed = tmp_path / "regrade"
    fixed.mkdir()
    shutil.copy(SOLUTION, fixed / "bob.py")
    if [case["column"] for case in document["cases"]] != [check.column for check in LAB.graded]:
        with pytest.raises(regrade.RegradeRefused, match=re.escape(text("regrade.other_cases", out=out))):
            grade_folder(fixed, out, LIMITS, ClassOptions(merge=True))
        return
    with pytest.raises(regrade.RegradeRefused):  # without MERGE=1 alice's result would be lost
        grade_folder(fixed, out, LIMITS)
    run = grade_folder(fixed, out, LIMITS, ClassOptions(merge=True))
    assert run.changes[1:] == [f"bob: {before[1]['score']} → {MAX_SCORE}"]
    written = (out / "grades.json").read_text(encoding="utf-8")
    alice = json.dumps(before[0], ensure_ascii=False, indent=2).replace("\n", "\n    ")
    assert alice in written  # her entry, key for key and byte for byte
    assert (out / "feedback" / "alice.txt").read_bytes() == (EARLIER / "feedback" / "alice.txt").read_bytes()
    earlier_rows = {row["student"]: row for row in csv.DictReader(open(EARLIER / "grades.csv", encoding="utf-8"))}
    alice_now = rows(out)["alice"]  # every column it had, as it was; the sandbox column came later, from her record
    assert {column: alice_now[column] for column in earlier_rows["alice"]} == earlier_rows["alice"]
    assert alice_now["sandbox"] == before[0]["sandbox"] and rows(out)["bob"]["score"] == str(MAX_SCORE)


def test_every_entry_this_grader_wrote_reads_back_as_it_was_written():
    entries = json.loads((EARLIER / "grades.json").read_text(encoding="utf-8"))["students"]
    for entry in entries:
        result = StudentResult.from_json(entry)
        assert list(result.to_json()) == list(entry) == list(KEYS) and result.to_json() == entry
    failed = Grade("carol", "carol.py", "grader_error", feedback="the grader failed on carol.py\n…", max_score=100)
    bare = StudentResult.bare(failed).to_json()
    assert list(bare) == list(BARE_KEYS) and bare["why"] == "the grader failed on carol.py"
    assert StudentResult.from_json(bare).to_json() == bare
    older = {key: entries[0][key] for key in entries[0] if key not in ("team", "generated_inputs")}
    assert list(StudentResult.from_json(older).to_json()) == list(older)  # a grader before groups had no "team"
    whole = json.loads(json.dumps(entries[1]).replace('"limit_seconds": 2.0', '"limit_seconds": 2'))
    assert json.dumps(StudentResult.read(entries[1]).to_json()) == json.dumps(entries[1])
    assert json.dumps(StudentResult.read(whole).to_json()) == json.dumps(whole)  # 2 stays 2, 2.0 stays 2.0


def _edited(**changes) -> dict:
    entry = json.loads((EARLIER / "grades.json").read_text(encoding="utf-8"))["students"][1]
    for key, value in changes.items():
        if value is KeyError:
            del entry[key]
        else:
            entry[key] = value
    return entry


@pytest.mark.parametrize(
    "changes",
    [
        {"student": "../../escape"},
        {"student": 7},
        {"score": True},
        {"score": "30"},
        {"status": None},
        {"cases": KeyError},
        {"cases": []},
        {"files": ["a.py", 3]},
        {"notes": "one note"},
        {"late": "yes"},
        {"groups": {"six": 1.5}},
        {"extra": "a key this grader never writes"},
    ],
)
def test_an_entry_this_grader_could_not_have_written_is_refused(changes):
    with pytest.raises(ValueError):
        StudentResult.from_json(_edited(**changes))


@pytest.mark.parametrize(
    "case", [{"passed": "yes"}, {"timing": {"limit_seconds": 2.0}}, {"hint": 3}, {"problem": KeyError}, {"unknown": 1}]
)
def test_a_check_this_grader_could_not_have_written_is_refused(case):
    entry = _edited()
    check = dict(entry["cases"]["t1"])
    for key, value in case.items():
        check.pop(key) if value is KeyError else check.__setitem__(key, value)
    entry["cases"]["t1"] = check
    with pytest.raises(ValueError):
        StudentResult.from_json(entry)


def test_a_merge_refuses_an_earlier_entry_an_output_cannot_write(tmp_path):
    out = tmp_path / "out"
    shutil.copytree(EARLIER, out)
    document = json.loads((out / "grades.json").read_text(encoding="utf-8"))
    document["students"][0]["name"] = "\ud800"  # a lone surrogate: no output can encode it
    (out / "grades.json").write_text(json.dumps(document), encoding="utf-8")
    StudentResult.from_json(document["students"][0])  # well formed …
    with pytest.raises(regrade.RegradeRefused, match="grades.json"):  # … but no output could write it
        regrade.previous(out, ["bob"], merge=True)
