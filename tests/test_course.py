"""One course, one repository (labkit/course.py): the labs are discovered, LAB= selects one in every spelling and for
every process the harness starts, an unknown one is one line, and without it Lab09 runs as it always has."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from conftest import LAB, ROOT, clean_env, make
from labkit import course

SECOND = "lab10"  # the course's second lab (labs/lab10/): what proves a lab other than Lab09 is selected


def lab_py(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "lab.py", *args, f"PYTHON={sys.executable}"],
        cwd=ROOT,
        env=env or clean_env(PYTHONDONTWRITEBYTECODE="1"),
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_the_course_has_lab09_at_its_top_and_each_folder_of_labs_holding_its_spec(tmp_path, monkeypatch):
    found = course.labs()
    assert list(found)[0] == LAB.id and found[LAB.id] == (".", "lab09.spec")
    assert found[SECOND] == ("labs/lab10", "lab10.spec")
    for name in ("notes", "half"):  # a folder without <name>/spec.py is no lab
        (tmp_path / "labs" / name / name).mkdir(parents=True)
    (tmp_path / "labs" / "half" / "half" / "hints.py").write_text("", encoding="utf-8")
    (tmp_path / "labs" / "lab11" / "lab11").mkdir(parents=True)
    (tmp_path / "labs" / "lab11" / "lab11" / "spec.py").write_text("", encoding="utf-8")
    monkeypatch.setattr(course, "ROOT", str(tmp_path))
    assert course.labs() == {"lab09": (".", "lab09.spec"), "lab11": ("labs/lab11", "lab11.spec")}


@pytest.mark.parametrize(
    "argv, environ, chosen",
    [
        (["test", "LAB=lab10"], {}, "lab10"),
        (["--lab", "lab10", "test"], {}, "lab10"),
        (["--lab=lab10"], {}, "lab10"),
        (["test"], {"LAB": "lab10"}, "lab10"),
        (["test", "LAB=lab09"], {"LAB": "lab10"}, "lab09"),
        (["test"], {}, ""),
    ],
)
def test_lab_is_named_in_makes_spelling_as_an_option_or_by_the_environment(argv, environ, chosen):
    assert course.named(argv, environ) == chosen


def test_selecting_a_lab_puts_its_spec_and_root_in_the_environment_of_what_the_harness_starts(monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))
    environ = {"PYTHONPATH": "elsewhere"}
    assert course.select(SECOND, environ) == "lab10.spec"
    root = os.path.join(course.ROOT, "labs", "lab10")
    assert environ["LAB_SPEC"] == "lab10.spec" and environ["PYTHONPATH"] == os.pathsep.join([root, "elsewhere"])
    assert root in sys.path
    course.select(SECOND, environ)  # once is enough
    assert environ["PYTHONPATH"].count(root) == 1
    assert course.select("", {"LAB_SPEC": "toylab.spec"}) == "toylab.spec"  # the suite's low-level override stays
    assert course.select("", {}) == "lab09.spec"
    with pytest.raises(course.Unknown):
        course.select("lab99", {})


def test_make_test_lab_runs_that_labs_stub_and_lab_py_its_reference():
    second = course.labs()[SECOND][0]
    stub = make("test", f"LAB={SECOND}")
    assert stub.returncode != 0 and "测试结果: 0 通过, 8 失败" in stub.stdout, stub.stdout + stub.stderr
    solved = lab_py("test", "--lab", SECOND, f"STUDENT={second}/solutions/student.py")
    assert solved.returncode == 0 and "测试结果: 8 通过, 0 失败" in solved.stdout, solved.stdout + solved.stderr
    by_environment = lab_py(
        "test", f"STUDENT={second}/solutions/student.py", env=clean_env(LAB=SECOND, PYTHONDONTWRITEBYTECODE="1")
    )
    assert by_environment.returncode == 0 and "8 通过" in by_environment.stdout


def test_an_unknown_lab_is_one_line_naming_the_labs_there_are_and_exit_code_2():
    for result in (make("test", "LAB=lab99"), lab_py("test", "LAB=lab99"), lab_py("help", env=clean_env(LAB="lab99"))):
        said = [line for line in result.stderr.splitlines() if not line.startswith("make: ***")]
        assert (
            result.returncode == 2
            and result.stdout == ""
            and said == [f"LAB=lab99: 课程里没有这个实验 (有: {', '.join(course.labs())})"]
        ), result.stderr


def test_make_help_lists_the_courses_labs_and_each_labs_own_course_file():
    lab09, lab10 = make("help").stdout.splitlines(), make("help", f"LAB={SECOND}").stdout.splitlines()
    listed = f"the course's labs: {', '.join(course.labs())} (lab09 unless LAB= says otherwise: make test LAB=lab10)"
    assert any(line.endswith(listed) for line in lab09)
    grade = {lines[0]: next(line for line in lines if line.startswith("make grade")) for lines in (lab09, lab10)}
    assert "[CONFIG=solutions/grading.ini]" in grade[lab09[0]] and "[TITLE=Lab09]" in grade[lab09[0]]
    assert "[CONFIG=labs/lab10/solutions/grading.ini]" in grade[lab10[0]] and "[TITLE=Lab10]" in grade[lab10[0]]
    assert lab10[0].startswith("make test ") and "八个测试" in lab10[0] and "make serve" in "\n".join(lab10)


def test_two_labs_may_both_give_case_1_a_label_inline_each_installed_only_while_it_is_active(monkeypatch):
    """Inline labels were registered for the whole process when a spec was built: a second lab with an inline
    case.1.label made every text lookup of Lab09 fail, `KeyError: "lab09.hints: defined twice"`."""
    import dataclasses
    import types
    from labkit import i18n
    from labkit.spec import Text
    from lab09 import hints
    from lab09.chat import texts

    module = types.ModuleType("other_texts")
    module.TEXTS = {
        key: value
        for key, value in {**hints.TEXTS, **texts.TEXTS}.items()
        if not (key.startswith("case.") and key.endswith(".label"))
    }
    monkeypatch.setitem(sys.modules, "other_texts", module)
    other = dataclasses.replace(
        LAB,
        id="other",
        checks=tuple(
            dataclasses.replace(check, label=Text(f"别的 {check.id}", f"other {check.id}")) for check in LAB.checks
        ),
        texts=("other_texts",),
    )
    from labkit import spec

    monkeypatch.setattr(spec, "active", lambda: other)
    assert i18n.text("case.1.label", "en") == "other 1"
    monkeypatch.setattr(spec, "active", lambda: LAB)
    assert i18n.text("case.1.label", "en").startswith("single turn")


def test_a_text_the_core_will_ask_of_a_lab_is_named_with_the_lab_and_its_file_when_the_spec_loads(
    tmp_path, monkeypatch
):
    """A drawn check that also runs on fixed inputs is shown, when graded, under section graded_<its section>
    (its text section.graded_<its section>); without it every submission of such a lab was a grader_error
    (found mid-run, not at load)."""
    package = tmp_path / "missing_text"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "texts.py").write_text(
        "from lab09 import hints\nfrom lab09.chat import texts\n"
        "TEXTS = {key: value for key, value in {**hints.TEXTS, **texts.TEXTS}.items()\n"
        "         if key != 'section.graded_properties'}\n",
        encoding="utf-8",
    )
    (package / "spec.py").write_text(
        "import dataclasses\nfrom lab09.spec import LAB as LAB09\n"
        "LAB = dataclasses.replace(LAB09, id='missing', texts=('missing_text.texts',))\n",
        encoding="utf-8",
    )  # the section is declared (labkit.spec.GRADED_PREFIX), its header's text is not
    (package / "unsectioned.py").write_text(
        "import dataclasses\nfrom lab09.spec import LAB as LAB09\n"
        "LAB = dataclasses.replace(LAB09, id='unsectioned',\n"
        "                          sections=tuple(s for s in LAB09.sections if s.id != 'graded_properties'))\n",
        encoding="utf-8",
    )  # a lab that declares no such section is refused at load too, naming it
    monkeypatch.syspath_prepend(str(tmp_path))
    from labkit import spec

    with pytest.raises(ValueError, match="unsectioned check p1: section graded_properties is not one of the lab's"):
        spec.load("missing_text.unsectioned")
    with pytest.raises(
        KeyError,
        match=r"missing: no text for \['section.graded_properties'\] in missing_text.texts "
        r"\(the lab of .*missing_text/spec.py\)",
    ):
        spec.load("missing_text.spec")
    said = lab_py("test", env=clean_env(LAB_SPEC="missing_text.spec", PYTHONPATH=str(tmp_path)))
    assert said.returncode == 2 and len(said.stderr.splitlines()) == 1 and "section.graded_properties" in said.stderr


def test_the_stub_note_knows_a_stub_that_returns_empty_dicts_and_lists(tmp_path):
    """The note "you are testing the stub while an edited file sits nearby" knew only Lab09's stub, which returns
    "": Lab10's returns {} and []."""
    second = course.labs()[SECOND][0]
    shutil.copy(ROOT / second / "solutions" / "student.py", tmp_path / "student.py")
    ran = subprocess.run(
        [sys.executable, str(ROOT / "lab.py"), "test", f"LAB={SECOND}", f"PYTHON={sys.executable}"],
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=180,
    )  # started here
    assert "还和初始代码一样" in ran.stdout and "STUDENT=" in ran.stdout, ran.stdout


def test_make_test_full_of_the_second_lab_gives_its_reference_every_check_from_the_data_make_tables_keeps():
    """Lab10 was built before the course kept the fixed inputs of make test-full's drawn checks as data
    (Lab.fixed_inputs): its property checks were an internal error, "p1: the lab keeps no fixed inputs for it"."""
    full = make("test-full", f"LAB={SECOND}", f"STUDENT={course.labs()[SECOND][0]}/solutions/student.py")
    assert (
        full.returncode == 0
        and "性质检查: 2 通过, 0 失败" in full.stdout
        and "扩展检查: 12 通过, 0 失败" in full.stdout
    ), full.stdout[-2000:]


def test_a_labs_reference_imports_its_given_module_beside_the_courses_shared_face(monkeypatch):
    """In the course repository `framework` is the top's (the shared face and Lab09's files); a lab in labs/ keeps its
    given module in its own framework/ (Lab10's framework.api), which its reference imports when the grader loads
    it (generated checks, make tables)."""
    from conftest import use_lab
    from labkit.assess import lab_reference

    for _lab in use_lab(SECOND, monkeypatch):
        lab_reference.cache_clear()
        try:
            assert lab_reference().error_body(400, "x")["error"]["message"] == "x"
        finally:
            lab_reference.cache_clear()


def test_make_new_lab_writes_a_lab_that_passes_its_tests_and_the_cores_and_builds_its_handout(tmp_path, monkeypatch):
    """make new-lab NAME=lab11 in a copy of the course (the first labNN the course lacks): the lab is found (make
    help), its stub gives 0/1 and its reference 1/1, its own tests pass (what make check runs of it), its tables are
    current, the core's own tests that run per lab are green for it as written, and, committed, make dist LAB=lab11
    builds its handout (whose check runs the handout's make test in a student's shell).

    The core's tests run in the copy are all of them that run per lab (tests/conftest.py's LABS is derived from the
    course, so the new lab is one of their parameters), each for the new lab only (-k NAME): the whole per-lab suite,
    not a subset, since for a lab of one case it costs about half a minute (about 90 tests: the hostile files, the
    engine's walls, the isolation attacks at the strongest level, a small class graded); Lab09's, the toy's and
    Lab10's runs of them are make check's own."""
    from test_handout import copy_of_the_lab, git

    clone = copy_of_the_lab(tmp_path)
    with monkeypatch.context() as patched:
        patched.setattr(course, "ROOT", str(clone))
        there = list(course.labs())  # the copy's labs (its tracked ones)
    name = next(f"lab{number}" for number in range(11, 100) if f"lab{number}" not in there)
    root = f"labs/{name}"

    def run(*args):
        return subprocess.run(
            ["make", "--no-print-directory", *args, f"PYTHON={sys.executable}"],
            cwd=clone,
            env=clean_env(PYTHONDONTWRITEBYTECODE="1"),
            capture_output=True,
            text=True,
            timeout=600,
        )

    def pytest_in_clone(*args):
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
            cwd=clone,
            env=clean_env(PYTHONDONTWRITEBYTECODE="1"),
            capture_output=True,
            text=True,
            timeout=900,
        )

    made = run("new-lab", f"NAME={name}")
    assert made.returncode == 0 and made.stdout.startswith(f"new lab: {root}/"), made.stdout + made.stderr
    assert run("new-lab", f"NAME={name}").returncode == 2  # never over an existing lab
    assert ", ".join([*there, name]) in run("help").stdout
    stub, solved = run("test", f"LAB={name}"), run("test", f"LAB={name}", f"STUDENT={root}/solutions/student.py")
    assert stub.returncode != 0 and "测试结果: 0 通过, 1 失败" in stub.stdout, stub.stdout + stub.stderr
    assert solved.returncode == 0 and "测试结果: 1 通过, 0 失败" in solved.stdout
    assert "| 基本测试 | TEST 1 |" in (clone / root / "TASK.md").read_text(encoding="utf-8")
    own = pytest_in_clone(f"{root}/tests")
    assert own.returncode == 0 and "4 passed" in own.stdout, own.stdout[-3000:]
    core = pytest_in_clone("-k", name, f"--basetemp={tmp_path / 'core'}", "tests")
    assert core.returncode == 0 and " passed" in core.stdout and "failed" not in core.stdout, core.stdout[-5000:]
    secret = (clone / root / "solutions" / "grading.ini").read_text(encoding="utf-8")
    assert f"secret = {name}-" in secret and secret not in (ROOT / "solutions" / "grading.ini").read_text(
        encoding="utf-8"
    )
    git(clone, "add", root)
    git(clone, "commit", "-qm", f"{name}, as make new-lab wrote it")
    built = run("dist", f"LAB={name}")
    assert built.returncode == 0 and (clone / "dist" / name / "framework" / "words.py").is_file(), built.stderr
    # the scaffold's words for the instructor reach students unless replaced: the build says which files hold them
    noted = [line for line in built.stderr.splitlines() if line.startswith(f"注意: {name.capitalize()} 的 ")]
    assert len(noted) == 1 and all(file in noted[0] for file in ("TASK.md", "TASK.en.md", "hints.py")), built.stderr
