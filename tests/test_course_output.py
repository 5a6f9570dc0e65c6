"""`make test` prints the course's layout, agrees with TASK.md, and exits 0 only when all of the six pass (as many
as lab09/spec.py declares: SIX below, so that adding a case keeps this file as it is)."""

import re
import subprocess
import sys

import pytest

from conftest import CHECKOUT, LAB, ROOT, SOLUTION, clean_env, make

SIX = len(LAB.selected("test"))  # the cases of make test


def transcript(name: str, sheet: str = "TASK.md", tested: str = "framework/student.py") -> str:
    """The ```text block after `<!-- transcript: name -->` in a sheet, as `make test` prints it for the file
    `tested` (the sheets show a student's own framework/student.py; the tests run solutions/ in place)."""
    task = (ROOT / sheet).read_text(encoding="utf-8")
    found = re.search(rf"<!-- transcript: {name} -->\n```text\n(.*?)```", task, re.S)
    assert found, f"{sheet} has no transcript {name}"
    return re.sub(
        r"^(测试的文件|tested): framework/student\.py$",
        lambda line: line.group(1) + ": " + tested,
        found.group(1),
        flags=re.M,
    )


@CHECKOUT  # dist/ of the checkout
def test_stub_gives_the_baseline_of_task_md_and_fails():
    assert make("clean").returncode == 0
    result = make("test")
    assert result.returncode != 0
    assert f"测试结果: 0 通过, {SIX} 失败" in result.stdout
    assert result.stdout == transcript("stub")


def test_solution_gives_the_target_of_task_md_and_succeeds():
    result = make("test", "STUDENT=solutions/student.py")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == transcript("solution", tested="solutions/student.py")


def test_layout_matches_the_original_c_lab():
    lines = make("test", "STUDENT=solutions/student.py").stdout.splitlines()
    assert lines[0] == "=== Prompt 格式化 ===" and "=== 响应提取 ===" in lines
    results = [line for line in lines if line.startswith("[TEST ")]
    assert [re.match(r"\[TEST (\d+)\] .+ \.\.\. \[PASS\]$", line).group(1) for line in results] == [
        case.id for case in LAB.selected("test")
    ]
    assert lines[-5:-1] == ["=" * 40, f"测试结果: {SIX} 通过, 0 失败", "=" * 40, "测试的文件: solutions/student.py"]
    assert lines[-6] == ""
    assert "make test-full" in lines[-1]  # the six pass: one line says what else the grade checks


def test_the_pointer_line_comes_only_when_the_six_pass():
    for student in ("tests/students/wrong/no_cut_end.py", "framework/student.py"):
        assert "make test-full" not in make("test", f"STUDENT={student}").stdout.split("=" * 40)[-1]
    full = make("test-full", "STUDENT=solutions/student.py").stdout
    assert full.endswith("=" * 40 + "\n测试的文件: solutions/student.py\n") and "性质检查: 4 通过, 0 失败" in full


def test_english_transcripts_of_task_en_md_are_real():
    assert make("test", env=clean_env(LAB_LANG="en")).stdout == transcript("stub", "TASK.en.md")
    assert make("test", "STUDENT=solutions/student.py", env=clean_env(LAB_LANG="en")).stdout == transcript(
        "solution", "TASK.en.md", tested="solutions/student.py"
    )


def test_english_on_request():
    result = make("test", env=clean_env(LAB_LANG="en"))
    assert "=== Prompt formatting ===" in result.stdout and "=== Response extraction ===" in result.stdout
    assert f"Result: 0 passed, {SIX} failed" in result.stdout
    assert "    expected: " in result.stdout and "    hint:     " in result.stdout
    for chinese_ui in ("调用", "期望", "实际", "提示", "测试结果", "通过", "规则", "格式化"):
        assert chinese_ui not in result.stdout  # only the inputs themselves stay Chinese


def test_exit_is_nonzero_unless_all_six_ran_and_passed():
    for extra in ("-k", "TEST1"), ("-k", "TEST4 or TEST5"):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "framework/verify.py",
                "--lab-report",
                "-qq",
                "--tb=no",
                "-rN",
                "-p",
                "no:cacheprovider",
                f"--student={SOLUTION}",
                *extra,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=clean_env(),
        )
        assert "[PASS]" in result.stdout and result.returncode != 0


@pytest.mark.parametrize(
    "student, outcome", [("framework/student.py", f"{SIX} failed"), ("solutions/student.py", f"{SIX} passed")]
)
def test_plain_pytest_shows_the_same_six_cases(student, outcome):
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "framework/verify.py", "-p", "no:cacheprovider", f"--student={student}", "-v"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=clean_env(),
    )
    assert [f"TEST{case.id}" for case in LAB.selected("test")] == re.findall(r"test_case\[(TEST\d+)\]", result.stdout)[
        :SIX
    ]
    assert outcome in result.stdout
    if outcome == f"{SIX} failed":
        assert 'expected: "<|user|>\\n你好\\n<|assistant|>\\n"' in result.stdout or "期望" in result.stdout


def test_an_ide_running_from_inside_framework_finds_the_student_file():
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "verify.py", "-p", "no:cacheprovider", "-q"],
        cwd=ROOT / "framework",
        capture_output=True,
        text=True,
        env=clean_env(),
    )
    assert f"{SIX} failed" in result.stdout and "returned an empty string" in result.stdout.replace(
        "函数返回了空字符串", "returned an empty string"
    )


def test_failure_details_show_input_expected_actual_and_hint(write_student):
    path = write_student((ROOT / "tests/students/wrong/first_not_last.py").read_text(encoding="utf-8"))
    out = make("test", f"STUDENT={path}").stdout
    block = out.split("[TEST 5]")[1].split("[TEST 6]")[0]
    assert 'extract_response("<|system|>\\n简洁回答。' in block
    assert '期望: "3"' in block and '实际: "2"' in block
    assert "^ 第 1 行第 1 个字符起不同" in block
    assert "rfind" in block and "TASK.md 1.5.3 规则 E2" in block


def test_the_summary_names_the_file_tested_and_says_when_the_stub_is_tested_beside_an_edited_file(tmp_path):
    """A student who edited a student.py outside framework/ ran make test and saw only the stub's hints: the
    summary names the file tested, and says loudly that it is still the stub while an edited file sits in
    the folder the command was started from."""
    (tmp_path / "student.py").write_text(
        (ROOT / "solutions" / "student.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    result = subprocess.run(
        [sys.executable, str(ROOT / "lab.py"), "test", f"PYTHON={sys.executable}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=120,
    )
    summary = result.stdout.split("=" * 40)[-1].splitlines()
    assert summary[1] == "测试的文件: framework/student.py"
    other = str(tmp_path / "student.py")
    assert summary[2] == (
        f'注意: framework/student.py 的两个函数还和初始代码一样 (都返回 "")，而旁边的 {other} 不一样: '
        f"你改的是那个文件吗？测试它: python lab.py test STUDENT={other}"
    )
    tested = subprocess.run(
        [sys.executable, str(ROOT / "lab.py"), "test", f"STUDENT={other}", f"PYTHON={sys.executable}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=120,
    )
    assert tested.returncode == 0 and f"测试的文件: {other}" in tested.stdout and "注意" not in tested.stdout
    (tmp_path / "student.py").write_text("# nothing here yet\n", encoding="utf-8")  # not a student file: no note
    again = subprocess.run(
        [sys.executable, str(ROOT / "lab.py"), "test", f"PYTHON={sys.executable}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=120,
    )
    assert "注意" not in again.stdout and again.stdout == transcript("stub")
