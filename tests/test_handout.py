"""`make dist`: the handout holds what a student needs, works on its own, and holds no solution."""

import ast
import shutil
import subprocess
import sys
import tarfile

from conftest import ROOT, SOLUTION, STUB, clean_env
from framework.harness.cases import OPTIONAL
from test_course_output import transcript


def build() -> bytes:
    subprocess.run(["make", "--no-print-directory", "dist"], cwd=ROOT, check=True, env=clean_env(),
                   capture_output=True)
    return (ROOT / "dist" / "lab09-step8.tar.gz").read_bytes()


def lab_make(folder, *args):
    return subprocess.run(["make", "--no-print-directory", *args, f"PYTHON={sys.executable}"], cwd=folder,
                          env=clean_env(), capture_output=True, text=True, timeout=120)


def test_the_handout_works_alone_and_holds_no_reference_implementation(tmp_path):
    archive = build()
    assert build() == archive  # reproducible
    with tarfile.open(ROOT / "dist" / "lab09-step8.tar.gz") as tar:
        names = tar.getnames()
        tar.extractall(tmp_path, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    lab = tmp_path / "lab09-step8"
    assert all(name == "lab09-step8" or name.startswith("lab09-step8/") for name in names)
    assert not any(part in ("solutions", "tests", "tools", ".ci") for name in names for part in name.split("/"))
    assert (lab / "TASK.md").exists() and (lab / "TASK.en.md").exists() and (lab / "requirements.txt").exists()
    assert (lab / "framework" / "student.py").read_bytes() == STUB.read_bytes()
    defining = [path.relative_to(lab).as_posix() for path in lab.rglob("*.py")
                if {"format_prompt", "extract_response", "trim_history"} & {
                    node.name for node in ast.walk(ast.parse(path.read_bytes())) if isinstance(node, ast.FunctionDef)}]
    assert defining == ["framework/student.py"]
    source = SOLUTION.read_text(encoding="utf-8")
    statements = [ast.get_source_segment(source, statement) for node in ast.parse(source).body
                  if isinstance(node, ast.FunctionDef) for statement in node.body[1:]]  # after the docstrings
    telling = [statement for statement in statements if len(statement) >= 25]
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in lab.rglob("*") if path.is_file()]
    assert len(telling) >= 6 and not any(statement in text for statement in telling for text in texts)

    baseline = lab_make(lab, "test")
    assert baseline.returncode != 0 and baseline.stdout == transcript("stub")
    without_make = subprocess.run([sys.executable, "lab.py", "test", f"PYTHON={sys.executable}"], cwd=lab,
                                  env=clean_env(), capture_output=True, text=True, timeout=120)
    assert without_make.returncode != 0 and without_make.stdout == transcript("stub")
    help_text = lab_make(lab, "help").stdout
    assert "make chat" in help_text and "make grade" not in help_text and "make check" not in help_text
    assert lab_make(lab, "challenge").stdout.count("[FAIL]") == len(OPTIONAL)

    shutil.copy(SOLUTION, lab / "framework" / "student.py")
    solved = lab_make(lab, "test")
    assert solved.returncode == 0 and solved.stdout == transcript("solution")
