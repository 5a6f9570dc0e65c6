"""One grading scheme, stated once (lab09/spec.py; solutions/grading.ini only overrides it): what it says and how
the grader uses it (the tables that show it are checked by test_sheets.py)."""

import json
import re
import shutil
import subprocess
import sys

import pytest

from conftest import LAB, ROOT, SOLUTION, STUDENTS, clean_env, make
from labkit.instructor import config
from labkit.instructor.outputs import gradescope
from labkit.instructor.config import course_settings
from labkit.instructor.one_submission import grade_submission
from labkit.instructor.lms.submissions import Submission
from test_generated import LIMITS


def test_the_course_file_keeps_the_spec_s_scheme_and_each_group_shares_its_points():
    scheme = config.load()
    assert scheme.weights == {group.id: group.points for group in LAB.graded_groups} and scheme.max_score == 100
    for group in LAB.graded_groups:
        assert sum(scheme.points(case) for case in LAB.in_group(group.id)) == scheme.weights[group.id]
    extended = LAB.in_group("extended")  # an equal share each, the remainder one each to the first
    share, remainder = divmod(scheme.weights["extended"], len(extended))
    assert [scheme.points(case) for case in extended] == [share + (i < remainder) for i in range(len(extended))]
    course = course_settings(environ={}, scheme=scheme)  # Gradescope's visibility, as results.json states it
    assert gradescope.visibility(course, LAB.in_group("generated")[0]) == "after_due_date"
    assert gradescope.visibility(course, LAB.in_group("six")[0]) == "visible"


def test_a_group_s_remainder_goes_to_its_first_checks():
    six = LAB.in_group("six")  # as many as the spec declares: 32 points over six are 6, 6, 5, 5, 5, 5
    share, remainder = divmod(32, len(six))
    assert remainder and [LAB.points(case, 32) for case in six] == [share + (i < remainder) for i in range(len(six))]


GRADED_WORDS = (
    "make test-full",
    "扩展检查",
    "性质检查",
    "生成检查",
    "extended check",
    "property check",
    "generated check",
    "[TEST x",
    "[TEST p",
    "TEST 1",
)


def test_nothing_graded_is_called_optional():
    help_line = next(line for line in make("help").stdout.splitlines() if "make test-full" in line)
    assert "选做" not in help_line and "optional" not in help_line.lower()
    for name, word in (("TASK.md", "选做"), ("TASK.en.md", "optional"), ("README.md", "optional")):
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
            if word in line.lower():  # optional things (trim_history, query rewriting, questions) are ungraded
                assert not any(graded in line for graded in GRADED_WORDS), (name, line)


@pytest.mark.parametrize(
    "content, complaint",
    [
        ("[weights]\nsix = ten\n", "six"),
        ("[weights]\nbonus = 5\n", "bonus"),
        ("[extra]\n", "extra"),
        ("[gradescope]\nvisibility = sometimes\n", "visibility"),
        ("[course]\nlanguage = fr\n", "language"),
        ("[generated]\nsecret =\n", "secret"),
        ("no section\n", "no section"),
    ],
)
def test_a_config_the_grader_cannot_use_is_refused_with_its_key(tmp_path, content, complaint):
    path = tmp_path / "grading.ini"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(config.ConfigError, match=complaint):
        config.load(path)
    result = make("grade", f"SUBMISSIONS={tmp_path}", f"OUT={tmp_path / 'out'}", f"CONFIG={path}")
    assert result.returncode == 2 and complaint in result.stderr and not (tmp_path / "out").exists()


def test_the_secret_is_the_course_file_s_alone_and_a_config_overrides_it_key_by_key(tmp_path, monkeypatch):
    other = tmp_path / "other.ini"
    other.write_text("[generated]\ncount = 12\n", encoding="utf-8")
    scheme = config.load(other)
    assert (scheme.generated_count, scheme.secret, scheme.weights) == (12, config.load().secret, config.load().weights)
    monkeypatch.setattr(config, "course_file", lambda lab=None: tmp_path / "absent.ini")  # no course file: no secret
    with pytest.raises(config.ConfigError, match=r"no \[generated\] secret"):
        config.load()
    with pytest.raises(config.ConfigError, match=r"other.ini: no \[generated\] secret"):
        config.load(other)


def test_weights_count_and_language_come_from_the_config(tmp_path):
    path = tmp_path / "grading.ini"
    path.write_text(
        "[weights]\nsix = 60\nextended = 40\nproperties = 0\ngenerated = 0\n[course]\nlanguage = en\n"
        "title = Lab09 (spring)\n",
        encoding="utf-8",
    )
    scheme = config.load(path)
    assert scheme.max_score == 100 and scheme.points(LAB.in_group("six")[0]) == -(-60 // len(LAB.in_group("six")))
    assert scheme.generated_count == LAB.in_group("generated")[0].group.count and scheme.secret == config.load().secret
    graded = grade_submission(Submission("alice", "alice.py", source=SOLUTION.read_bytes()), LIMITS, scheme)
    assert graded.score == 100 and not any(v.case.suite == "generated" for v in graded.verdicts)
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(STUDENTS / "wrong_full" / "strips_content.py", folder / "bob.py")
    assert make("grade", f"SUBMISSIONS={folder}", f"OUT={tmp_path / 'out'}", f"CONFIG={path}").returncode == 0
    row = (tmp_path / "out" / "grades.csv").read_text(encoding="utf-8").splitlines()[1]
    assert row.startswith("bob,ok,96,100,") and row.endswith(",60,36,0,0")  # x4 lost: 4 points of 40
    assert "Extended checks: 9 passed, 1 failed" in (tmp_path / "out" / "feedback" / "bob.txt").read_text()
    assert "<h1>Lab09 (spring) · multi-turn chat — grading report" in (tmp_path / "out" / "report.html").read_text()


def test_gradescope_keeps_generated_checks_for_after_the_due_date(tmp_path):
    submission = tmp_path / "submission"
    submission.mkdir()
    shutil.copy(STUDENTS / "wrong_full" / "strips_content.py", submission / "student.py")
    metadata = tmp_path / "submission_metadata.json"
    metadata.write_text(json.dumps({"users": [{"id": 1234, "name": "Alice"}]}), encoding="utf-8")
    results = tmp_path / "results.json"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "labkit.instructor.grade",
            "--gradescope",
            "--submission",
            str(submission),
            "--results",
            str(results),
            "--metadata",
            str(metadata),
        ],
        cwd=ROOT,
        check=True,
        env=clean_env(),
    )
    document = json.loads(results.read_text(encoding="utf-8"))
    tests = {test["number"]: test for test in document["tests"]}
    assert tests["g1"]["visibility"] == "after_due_date" and tests["g1"]["status"] == "failed"
    assert "化简后仍然出错的最小输入" in tests["g1"]["output"] and tests["p1"]["visibility"] == "visible"
    assert "[TEST p1]" in document["output"] and "g1" not in document["output"]  # not shown before the due date
    assert document["output_format"] == document["test_output_format"] == "text"
    assert re.search(r"^ +\^ ", tests["g1"]["output"], re.M)  # the caret line survives
