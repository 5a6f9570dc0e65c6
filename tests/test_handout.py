"""`make dist`: the handout holds what a student needs, works on its own, and holds no solution."""

import ast
import json
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

from conftest import LAB, ROOT, SOLUTION, STUB, clean_env
from test_course_output import transcript
from labkit.instructor import config, dist

SCHEME = config.load()


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
    assert not any(part in ("solutions", "tests", "instructor", ".ci") for name in names for part in name.split("/"))
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
    for target in ("grade", "dist", "gradescope", "check", "bench"):  # one line says so, not make's shrug
        asked = lab_make(lab, target, "SUBMISSIONS=.")
        said = [line for line in asked.stderr.splitlines() if not line.startswith("make: ***")]
        assert asked.returncode != 0 and "Nothing to be done" not in asked.stdout + asked.stderr, target
        assert said == [f"make {target}: 评分等老师用的目标不在学生发放包里 (可用的目标见 make help) / grading and the "
                        "other instructors' targets are not part of the student handout (make help lists the ones "
                        "it has)"] and asked.stdout == "", (target, asked.stderr)
    assert not (lab / "dist").exists() and not (lab / "grades").exists()
    assert lab_make(lab, "challenge").stdout.count("[FAIL]") == len(LAB.selected("challenge"))
    assert not any(SCHEME.secret in text for text in texts)  # the seed of the generated checks stays home
    # the property checks run from the handout alone: no reference solution, no grader, no extra package
    full = lab_make(lab, "test-full")
    assert full.returncode != 0 and "性质检查: 0 通过, 4 失败" in full.stdout
    assert full.stdout.count("化简后仍然出错的最小输入") == 4

    shutil.copy(SOLUTION, lab / "framework" / "student.py")
    solved = lab_make(lab, "test")
    assert solved.returncode == 0 and solved.stdout == transcript("solution")
    full = lab_make(lab, "test-full")
    assert full.returncode == 0 and "性质检查: 4 通过, 0 失败" in full.stdout


def copy_of_the_lab(tmp_path):
    """This lab's tracked files as they are now, committed in a fresh repository of their own."""
    copy = tmp_path / "lab"
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], check=True, capture_output=True).stdout
    for name in tracked.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    git(copy, "init", "-q")
    git(copy, "add", "-A")
    git(copy, "commit", "-qm", "the lab")
    return copy


def git(folder, *args):
    folder.mkdir(parents=True, exist_ok=True)
    return subprocess.run(["git", "-C", str(folder), "-c", "user.name=Lab", "-c", "user.email=lab@example.invalid",
                           "-c", "commit.gpgsign=false", *args], check=True, capture_output=True, text=True)


def test_dist_builds_from_the_committed_tree_and_refuses_a_committed_solution(tmp_path):
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode != 0:
        pytest.skip("the lab is not a git checkout here")
    clone = copy_of_the_lab(tmp_path)
    shutil.copy(SOLUTION, clone / "framework" / "student.py")  # tried, not committed: the stub still ships
    built = lab_make(clone, "dist")
    assert built.returncode == 0, built.stderr
    assert "framework/student.py" in built.stderr  # said: the handout uses the committed version
    with tarfile.open(clone / "dist" / "lab09-step8.tar.gz") as tar:
        assert tar.extractfile("lab09-step8/framework/student.py").read() == STUB.read_bytes()

    git(clone, "commit", "-qam", "an instructor's solution, committed by mistake")
    shutil.rmtree(clone / "dist")
    refused = lab_make(clone, "dist")
    assert refused.returncode != 0
    six = len(LAB.selected("test"))
    assert f"{six}/{six}" in refused.stderr or f"passes {six} of {six}" in refused.stderr, refused.stderr
    assert "git show" in refused.stderr and not (clone / "dist" / "lab09-step8").exists()
    assert not (clone / "dist" / "lab09-step8.tar.gz").exists()


def test_a_fresh_handout_zips_with_python_and_ides_find_the_six(tmp_path):
    build()
    with tarfile.open(ROOT / "dist" / "lab09-step8.tar.gz") as tar:
        tar.extractall(tmp_path, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
        assert min(member.mtime for member in tar.getmembers()) >= 315532800 + 86400  # after 1980-01-02
    lab = tmp_path / "lab09-step8"
    archive = shutil.make_archive(str(tmp_path / "again"), "zip", tmp_path, "lab09-step8")  # zipfile: ≥ 1980 only
    with zipfile.ZipFile(archive) as bundle, zipfile.ZipFile(ROOT / "dist" / "lab09-step8.zip") as shipped:
        assert sorted(bundle.namelist()) == sorted(name for name in shipped.namelist()) or \
            set(shipped.namelist()) <= set(bundle.namelist())
        assert shipped.read("lab09-step8/framework/student.py") == STUB.read_bytes()
    env = clean_env(PYTHONDONTWRITEBYTECODE="1")
    collected = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                               cwd=lab, env=env, capture_output=True, text=True, timeout=120)
    tests = [line for line in collected.stdout.splitlines() if "::" in line]
    six = [case.id for case in LAB.selected("test")]
    assert tests == [f"framework/verify.py::test_case[TEST{n}]" for n in six], collected.stdout
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=lab, env=env,
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 1 and f"{len(six)} failed" in ran.stdout


def test_dist_outputs_follow_the_umask():
    subprocess.run(["make", "--no-print-directory", "dist", f"PYTHON={sys.executable}"], cwd=ROOT, check=True,
                   env=clean_env(), capture_output=True, umask=0o027)
    modes = {path.name: path.stat().st_mode & 0o777 for path in (ROOT / "dist").iterdir()}
    assert modes["lab09-step8.tar.gz"] == modes["lab09-step8.zip"] == 0o640
    assert (ROOT / "dist" / "lab09-step8" / "TASK.md").stat().st_mode & 0o777 == 0o640
    build()  # leave the default build behind for the other tests


PROBE = r"""
import importlib, inspect, json, signal, sys
cases = json.loads(sys.argv[1])
found = []
signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError()))
for name in sys.argv[2:]:
    module = importlib.import_module(name)
    for attribute, function in vars(module).items():
        if not inspect.isfunction(function) or function.__module__ != name:
            continue
        try:
            signal.alarm(2)
            if all(function(*args) == expected for args, expected in cases):
                found.append(f"{name}.{attribute}")
        except BaseException:
            pass
        finally:
            signal.alarm(0)
print(json.dumps(found))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="the probe bounds each call with SIGALRM")
def test_no_function_the_handout_ships_passes_a_function_s_cases_in_the_student_s_place(tmp_path):
    """The handout's own modules hold no working `format_prompt` or `extract_response` under another name: each
    function of framework/ and lab09/ (the chat aside: it only calls the student's functions, and starts a
    server and a browser) is called with every example of the six's checks of each function, and none may
    give every expected value.  The reply cutters of the generated checks' known slips (a slip's cutter with
    the slip left out is the answer) stay in lab09/generated.py, which the spec keeps out of the handout."""
    files, _ = dist.handout_sources()
    assert set(LAB.grading_only) and not any(name.startswith(kept) for kept in LAB.grading_only for name in files)
    for name, (content, _) in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(content)
    modules = sorted(name[:-3].replace("/", ".") for name in files if name.endswith(".py") and name != LAB.target
                     and name.split("/")[0] in ("framework", "lab09") and name.count("/") == 1)
    assert "lab09.mistakes" in modules and "lab09.draws" in modules
    for function in LAB.functions[:2]:
        cases = [[list(example.args), example.expected] for check in LAB.selected("test")
                 if check.function == function for example in check.examples]
        probed = subprocess.run([sys.executable, "-c", PROBE, json.dumps(cases), *modules], cwd=tmp_path,
                                env=clean_env(PYTHONPATH=str(tmp_path), PYTHONDONTWRITEBYTECODE="1"),
                                capture_output=True, text=True, timeout=120)
        assert probed.returncode == 0, probed.stderr
        assert json.loads(probed.stdout) == [], f"{function}: {probed.stdout}"
