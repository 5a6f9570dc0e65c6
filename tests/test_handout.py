"""`make dist`: the handout holds what a student needs, works on its own, and holds no solution."""

import ast
import copy
import json
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

from conftest import CHECKOUT, LAB, ROOT, SOLUTION, STUB, clean_env
from test_course_output import transcript
from labkit.assess import lab_reference
from labkit.instructor import config, dist

SCHEME = config.load()
pytestmark = CHECKOUT  # these tests build and read the checkout's dist/


def build() -> bytes:
    built = subprocess.run(["make", "--no-print-directory", "dist"], cwd=ROOT, env=clean_env(), capture_output=True)
    assert built.returncode == 0, (built.stdout + built.stderr).decode("utf-8", "replace")
    return (ROOT / "dist" / "lab09-step8.tar.gz").read_bytes()


def lab_make(folder, *args):
    return subprocess.run(
        ["make", "--no-print-directory", *args, f"PYTHON={sys.executable}"],
        cwd=folder,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )


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
    defining = [
        path.relative_to(lab).as_posix()
        for path in lab.rglob("*.py")
        if {"format_prompt", "extract_response", "trim_history"}
        & {node.name for node in ast.walk(ast.parse(path.read_bytes())) if isinstance(node, ast.FunctionDef)}
    ]
    assert defining == ["framework/student.py"]
    source = SOLUTION.read_text(encoding="utf-8")
    statements = [
        ast.get_source_segment(source, statement)
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef)
        for statement in node.body[1:]
    ]  # after the docstrings
    telling = [statement for statement in statements if len(statement) >= 25]
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in lab.rglob("*") if path.is_file()]
    assert len(telling) >= 6 and not any(statement in text for statement in telling for text in texts)

    baseline = lab_make(lab, "test")
    assert baseline.returncode != 0 and baseline.stdout == transcript("stub")
    without_make = subprocess.run(
        [sys.executable, "lab.py", "test", f"PYTHON={sys.executable}"],
        cwd=lab,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert without_make.returncode != 0 and without_make.stdout == transcript("stub")
    help_text = lab_make(lab, "help").stdout
    assert "make chat" in help_text and "make grade" not in help_text and "make check" not in help_text
    for target in ("grade", "dist", "gradescope", "check", "bench"):  # one line says so, not make's shrug
        asked = lab_make(lab, target, "SUBMISSIONS=.")
        said = [line for line in asked.stderr.splitlines() if not line.startswith("make: ***")]
        assert asked.returncode != 0 and "Nothing to be done" not in asked.stdout + asked.stderr, target
        assert (
            said
            == [
                f"make {target}: 评分等老师用的目标不在学生发放包里 (可用的目标见 make help) / grading and the "
                "other instructors' targets are not part of the student handout (make help lists the ones "
                "it has)"
            ]
            and asked.stdout == ""
        ), (target, asked.stderr)
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
    return subprocess.run(
        [
            "git",
            "-C",
            str(folder),
            "-c",
            "user.name=Lab",
            "-c",
            "user.email=lab@example.invalid",
            "-c",
            "commit.gpgsign=false",
            *args,
        ],
        check=True,
        capture_output=True,
        text=True,
    )


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
        assert sorted(bundle.namelist()) == sorted(name for name in shipped.namelist()) or set(
            shipped.namelist()
        ) <= set(bundle.namelist())
        assert shipped.read("lab09-step8/framework/student.py") == STUB.read_bytes()
    env = clean_env(PYTHONDONTWRITEBYTECODE="1")
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=lab,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    tests = [line for line in collected.stdout.splitlines() if "::" in line]
    six = [case.id for case in LAB.selected("test")]
    assert tests == [f"framework/verify.py::test_case[TEST{n}]" for n in six], collected.stdout
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=lab,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 1 and f"{len(six)} failed" in ran.stdout


def test_dist_outputs_follow_the_umask():
    subprocess.run(
        ["make", "--no-print-directory", "dist", f"PYTHON={sys.executable}"],
        cwd=ROOT,
        check=True,
        env=clean_env(),
        capture_output=True,
        umask=0o027,
    )
    modes = {path.name: path.stat().st_mode & 0o777 for path in (ROOT / "dist").iterdir()}
    assert modes["lab09-step8.tar.gz"] == modes["lab09-step8.zip"] == 0o640
    assert (ROOT / "dist" / "lab09-step8" / "TASK.md").stat().st_mode & 0o777 == 0o640
    build()  # leave the default build behind for the other tests


PROBE = r'''
"""Calls every function the given modules define (module level, in their data, methods of a class that needs no
arguments, lambdas) on each answer set, its first argument in each shape, and prints which give every answer."""
import builtins, copy, dataclasses, functools, importlib, inspect, io, json, os, signal, sys

sets = json.loads(sys.stdin.read())
answer_out = os.dup(1)  # what is probed writes where it likes (a default argument may hold sys.stdout): not here
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
sys.stdout = open(os.devnull, "w")
signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError()))
builtins.input = lambda *_: (_ for _ in ()).throw(EOFError())


def is_history(value):
    return isinstance(value, list) and value and all(isinstance(m, dict) and set(m) == {"role", "content"}
                                                       for m in value)


def shaped(value, pieces, shape):
    """`value` (a call's first argument) in `shape`: a history as dicts or pairs, in a list or a tuple; a string
    whole, in a list or a tuple, or as the pieces it was drawn in."""
    if is_history(value):
        pairs = [(m["role"], m["content"]) for m in value]
        return {"as given": value, "pairs": pairs, "pairs as lists": [list(p) for p in pairs],
                "tuple of pairs": tuple(pairs), "tuple of dicts": tuple(value)}[shape]
    if isinstance(value, str):
        parts = pieces or [value]
        return {"as given": value, "pairs": [value], "pairs as lists": (value,), "tuple of pairs": list(parts),
                "tuple of dicts": tuple(parts)}[shape]
    return value


SHAPES = ("as given", "pairs", "pairs as lists", "tuple of pairs", "tuple of dicts")


def canonical(value):
    """A message as [role, content], every sequence a list, an Example as what it demands."""
    if dataclasses.is_dataclass(value) and hasattr(value, "expected") and hasattr(value, "args"):
        return ["raises", value.raises] if getattr(value, "raises", None) else canonical(value.expected)
    if isinstance(value, dict) and set(value) == {"role", "content"}:
        return [canonical(value["role"]), canonical(value["content"])]
    if isinstance(value, (list, tuple)):
        return [canonical(item) for item in value]
    return value


def called(function, args):
    """`function(*args)`, with None for each positional parameter it needs beyond them."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return function(*args)
    try:
        signature.bind(*args)
    except TypeError:
        needed = [p for p in signature.parameters.values() if p.default is p.empty
                  and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        args = list(args) + [None] * (len(needed) - len(args))
        signature.bind(*args)  # TypeError: it cannot take these arguments at all
    return function(*args)


def answers(function, examples, shape):
    for example in examples:
        args = copy.deepcopy(example["args"])
        args[0] = shaped(args[0], copy.deepcopy(example.get("pieces")), shape)
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = io.StringIO()
        try:
            signal.alarm(2)
            value = called(function, args)
        except BaseException:
            return False
        finally:
            signal.alarm(0)
            sys.stdout, sys.stderr = saved
        try:
            if canonical(value) != canonical(example["expected"]):
                return False
        except Exception:
            return False
    return True


def functions_of(module):
    """(qualified name, function) of every function `module` defines that can be reached from it: its own, in its
    data, a class's methods (on an instance where the class needs no arguments, else with None for self)."""
    found, seen = [], set()

    def own(function):
        return getattr(function, "__module__", None) == module.__name__

    def visit(value, name, depth):
        if id(value) in seen or depth > 6:
            return
        seen.add(id(value))
        if inspect.isfunction(value):
            if own(value):
                found.append((value.__qualname__ if value.__name__ != "<lambda>" else name, value))
        elif isinstance(value, functools.partial):
            found.append((name, value))
        elif inspect.isclass(value):
            if value.__module__ != module.__name__:
                return
            try:
                instance = value()
            except BaseException:
                instance = None
            for attribute, member in vars(value).items():
                if isinstance(member, (staticmethod, classmethod)):
                    found.append((f"{value.__qualname__}.{attribute}", getattr(value, attribute)))
                    continue
                function = member.fget if isinstance(member, property) else getattr(member, "func", member)
                if inspect.isfunction(function) and own(function):
                    found.append((function.__qualname__, functools.partial(function, instance)))
        elif isinstance(value, dict):
            for key, item in list(value.items()):
                visit(item, f"{name}[{key!r}]", depth + 1)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for index, item in enumerate(list(value)):
                visit(item, f"{name}[{index}]", depth + 1)
        elif dataclasses.is_dataclass(value):
            for field in dataclasses.fields(value):
                visit(getattr(value, field.name), f"{name}.{field.name}", depth + 1)

    for attribute, value in list(vars(module).items()):
        visit(value, attribute, 0)
    return found


probed, flagged = [], []
for name in sys.argv[1:]:
    module = importlib.import_module(name)
    for attribute, function in functions_of(module):
        probed.append(f"{name}.{attribute}")
        for answer_set in sets:
            shape = next((shape for shape in SHAPES if answers(function, answer_set["examples"], shape)), None)
            if shape is not None:
                flagged.append([f"{name}.{attribute}", answer_set["function"], answer_set["name"], shape])
os.write(answer_out, json.dumps({"probed": probed, "flagged": flagged}).encode())
'''

PLANTED = '''
"""Planted by test_handout: today's `layout` of lab09/draws.py (before issue 27), and functions that must not count."""
from framework.tags import ASSISTANT_TAG, SYSTEM_TAG, USER_TAG

ROLE_TAG = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def layout(history) -> str:
    """The prompt rules F1–F3 give a history of known roles."""
    return "".join(f"{ROLE_TAG[role]}\\n{content}\\n" for role, content in history) + ASSISTANT_TAG + "\\n"


def _layout_demand(history, reference):  # as today's draws.py: an Example whose expected value is the layout
    from labkit.spec import Example
    return Example(([{"role": r, "content": c} for r, c in history],), layout(history), unchanged=True)


class Reply:
    def cut(self, pieces):  # a reply cutter for the pieces an output was drawn in, as a method
        output = "".join(pieces)
        start = output.rfind(ASSISTANT_TAG)
        if start < 0:
            return output.strip()
        reply = output[start + len(ASSISTANT_TAG):]
        ends = [reply.find(tag) for tag in (USER_TAG, SYSTEM_TAG, ASSISTANT_TAG, "<|end|>") if tag in reply]
        return reply[:min(ends, default=len(reply))].strip()


DECOYS = (lambda value, *rest: "", lambda value, *rest: None, lambda value, *rest: value,
          lambda value, *rest: value.strip(), lambda value, *rest: value[-1])
'''

PLANTED_ANSWERS = {
    ("lab09._planted.layout", "format_prompt"),
    ("lab09._planted._layout_demand", "format_prompt"),
    ("lab09._planted.Reply.cut", "extract_response"),
}


def answer_sets() -> list:
    """For each function of the lab and each place its checks run, every example with a value to give: the six,
    the extended checks, the property checks on make test-full's fixed inputs (the handout's data) and on inputs
    drawn for a student, the generated checks on inputs drawn for a student (their values the reference's), the
    optional checks.  A drawn raw output keeps the pieces it was drawn in; demanded exceptions are left out (an
    answer that raises another one still answers)."""
    from labkit.assess import InputSource, inputs_of
    from labkit.spec import DrawnCheck
    from test_generated import fixed_examples

    graded = InputSource(student="a probe", secret=SCHEME.secret, count=SCHEME.generated_count)
    found: dict = {}
    for check in LAB.checks:
        if isinstance(check, DrawnCheck):
            inputs = inputs_of(check)
            runs = (
                [("make test-full's fixed inputs", list(InputSource().inputs(check)), fixed_examples(check))]
                if not inputs.share
                else []
            )
            drawn = list(graded.inputs(check))
            said = [inputs.consult(s, lab_reference()) if inputs.consult else None for s in drawn]
            runs.append(("inputs drawn for a student", drawn, [inputs.demand(s, w) for s, w in zip(drawn, said)]))
        else:
            runs = [(None, [None] * len(check.examples), list(check.examples))]
        for where, specimens, examples in runs:
            kept = found.setdefault((check.function, check.group.id + (f", {where}" if where else "")), [])
            for specimen, example in zip(specimens, examples):
                pieces = specimen if isinstance(specimen, list) and all(isinstance(p, str) for p in specimen) else None
                if example.raises is None:
                    kept.append({"args": list(example.args), "expected": example.expected, "pieces": pieces})
    return [
        {"function": function, "name": name, "examples": examples}
        for (function, name), examples in found.items()
        if examples
    ]


def defined_functions(root, modules) -> set:
    """module.qualname of every function `modules` define at their top level or in a class (a function defined
    inside another one exists only while that one runs)."""
    found = set()
    for module in modules:
        path = root / (module.replace(".", "/") + ".py")
        path = path if path.is_file() else root / module.replace(".", "/") / "__init__.py"
        tree = ast.parse(path.read_bytes())
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.add(f"{module}.{node.name}")
            elif isinstance(node, ast.ClassDef):
                found |= {
                    f"{module}.{node.name}.{item.name}"
                    for item in node.body
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                }
    return found


@pytest.mark.skipif(sys.platform == "win32", reason="the probe bounds each call with SIGALRM")
def test_no_function_the_handout_ships_gives_a_function_s_answers_in_any_shape(tmp_path):
    """The handout holds no working format_prompt, extract_response, trim_history, rewrite_messages or
    clean_rewrite under another name or in another shape: every function of the handout's framework/ and lab09/
    (the chat's too; at module level, in its data, a class's method, a lambda) is called with every answer set
    (`answer_sets`) of each function, the first argument as given, as (role, content) pairs, in a list or a
    tuple, a raw output whole or in the pieces it was drawn in, and none may give every answer of a set.
    Issue 27, finding 10: lab09/draws.py's `layout(history)` was format_prompt for pairs, which the six's
    dicts never showed; a copy of it is planted beside the handout's modules, and must be found.  labkit/ is not
    called: it names no tag or function of a lab (test_structure), so it cannot write one's answers.  The reply
    cutters of the generated checks' known slips stay in lab09/generated.py, which the spec keeps out of the
    handout."""
    files, _ = dist.handout_sources()
    assert set(LAB.grading_only) and not any(name.startswith(kept) for kept in LAB.grading_only for name in files)
    for name, (content, _) in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(content)
    (tmp_path / "lab09" / "_planted.py").write_text(PLANTED, encoding="utf-8")
    modules = sorted(
        (name[: -len("/__init__.py")] if name.endswith("/__init__.py") else name[:-3]).replace("/", ".")
        for name in [*files, "lab09/_planted.py"]
        if name.endswith(".py") and name != LAB.student_file and name.split("/")[0] in ("framework", "lab09")
    )
    assert {"lab09.mistakes", "lab09.slip_outputs", "lab09.draws", "lab09.fixed_inputs", "lab09.chat.main"} <= set(
        modules
    )
    sets = answer_sets()
    assert {answer_set["function"] for answer_set in sets} == set(LAB.functions)
    reference = lab_reference()
    for answer_set in sets:  # the sets are right: the reference gives every answer, its input as given
        assert all(
            getattr(reference, answer_set["function"])(*copy.deepcopy(example["args"])) == example["expected"]
            for example in answer_set["examples"]
        ), answer_set["name"]
    probed = subprocess.run(
        [sys.executable, "-c", PROBE, *modules],
        cwd=tmp_path,
        input=json.dumps(sets),
        env=clean_env(PYTHONPATH=str(tmp_path), PYTHONDONTWRITEBYTECODE="1", HOME=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert probed.returncode == 0, probed.stderr[-3000:]
    report = json.loads(probed.stdout)
    flagged = {(name, function) for name, function, _, _ in report["flagged"]}
    assert defined_functions(tmp_path, modules) - set(report["probed"]) == set()  # every one of them was called
    assert flagged - PLANTED_ANSWERS == set(), "\n".join(map(str, report["flagged"]))
    assert flagged == PLANTED_ANSWERS, report["flagged"]  # the planted answers are found, and no decoy
    shapes = {(name, answer_set): shape for name, _, answer_set, shape in report["flagged"]}
    assert shapes[("lab09._planted.layout", "six")] == "pairs"  # the six's dicts, as pairs
