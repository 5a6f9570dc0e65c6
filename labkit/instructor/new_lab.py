"""`make new-lab NAME=<name>`: a new lab of the course, labs/<name>/, that passes make check and make dist as written.

    python -m labkit.instructor.new_lab NAME

What the scaffold holds: docs/design.md#labkitinstructornew_labpy
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

from labkit import course
from labkit.spec import load

ROOT = Path(course.ROOT)
NAME = re.compile(r"^[a-z][a-z0-9_]{1,30}$")


def _default():
    """The default lab's spec: the new lab's files sit where its do."""
    return load(course.default_spec())


def files(name: str) -> dict[str, str]:
    """Path (from the lab's root) -> text of every file of the new lab `name`."""
    default = _default()
    student_file, solution = default.student_file, default.solution
    given = f"{Path(student_file).parent.as_posix()}/words.py"
    given_module = given[:-3].replace("/", ".")
    title = name[:1].upper() + name[1:]
    stub_body = '    return ""  # TODO: GREETING + ", " + name + "!" (TASK.md rule G1)\n'
    function = (
        'def greet(name: str) -> str:\n    """The greeting for `name`: GREETING, a comma and a space, the name and'
        ' "!" (rule G1).\n\n    >>> greet("Ada")\n    \'Hello, Ada!\'\n    """\n'
    )
    sheet = {
        "zh": f"""# {title} · 问候

(`make new-lab` 写的脚手架：把这个实验改成你的，README 的 "Adding a lab" 是清单。)

## 1 任务

在 `{student_file}` 里实现 `greet(name)`：返回问候语。

- **规则 G1**：返回 `GREETING + ", " + name + "!"`，`GREETING` 从 `{given_module}` 导入，不要自己写。

## 2 评分

<!-- scheme -->

## 3 运行

`make test LAB={name}` 运行测试：

<!-- cases -->

初始代码的输出：

<!-- transcript: stub -->

参考答案的输出：

<!-- transcript: solution -->
""",
        "en": f"""# {title} · greetings

(A scaffold written by `make new-lab`: make this lab yours; README's "Adding a lab" is the checklist.)

## 1 The task

Write `greet(name)` in `{student_file}`: it returns the greeting.

- **Rule G1**: return `GREETING + ", " + name + "!"`, with `GREETING` imported from `{given_module}`, never
  written out.

## 2 Grading

<!-- scheme -->

## 3 Running it

`make test LAB={name}` runs the cases:

<!-- cases -->

What the stub prints:

<!-- transcript: stub -->

What the reference prints:

<!-- transcript: solution -->
""",
    }
    return {
        "TASK.md": sheet["zh"],
        "TASK.en.md": sheet["en"],
        given: f'"""{title}\'s given module: the constants students import (TASK.md rule G1)."""\n\nGREETING = "Hello"\n',
        student_file: f'"""{title}: write greet (TASK.md).  `make test LAB={name}` runs the cases."""\n\n'
        f"from {given_module} import GREETING  # noqa: F401  (you will need it)\n\n\n" + function + stub_body,
        solution: f'"""{title}\'s reference solution (never in the handout)."""\n\nfrom {given_module} import GREETING\n\n\n'
        + function
        + '    return f"{GREETING}, {name}!"\n',
        f"{Path(solution).parent.as_posix()}/grading.ini": f"# {title}'s course file (its own secret: change it every offering, never publish it).\n[generated]\n"
        f"secret = {name}-{secrets.token_hex(12)}\n\n[course]\ntitle = {title}\nlanguage = zh\n",
        f"{name}/__init__.py": f'"""{title}: its spec, texts and detectors (the lab\'s package)."""\n',
        f"{name}/spec.py": f'''"""{title}: the lab spec: its files, its one function, its group and its one case (texts in {name}/hints.py,
detectors in {name}/mistakes.py).  The lab's root is the folder above this package: in the course labs/{name}, in its
handout its top."""

from __future__ import annotations

from pathlib import Path

from labkit.spec import Case, Example, Group, Lab, Section, Text

BASIC = Group(id="basic", points=100, stage="test", name=Text("基本测试", "the basic"))
SECTIONS = (Section(id="greet"),)
CHECKS = (
    Case(
        id="1",
        function="greet",
        group=BASIC,
        section="greet",
        hint="hint.greeting",
        rules=("G1",),
        examples=(Example(("Ada",), "Hello, Ada!"), Example(("小明",), "Hello, 小明!")),
    ),
)

LAB = Lab(
    id="{name}",
    name="{title}",
    root=Path(__file__).resolve().parent.parent,
    student_file="{student_file}",
    solution="{solution}",
    given="{given_module}",
    sheets={{"zh": "TASK.md", "en": "TASK.en.md"}},
    title=Text("问候", "greetings"),
    texts=("{name}.hints",),
    functions=("greet",),
    groups=(BASIC,),
    sections=SECTIONS,
    checks=CHECKS,
    mistakes="{name}.mistakes:DETECTORS",
    handout="{name}",
    trees=("{Path(student_file).parent.as_posix()}", "{name}"),
)
''',
        f"{name}/hints.py": f'''"""{title}'s sentences: its case's label, its section, its hints (each naming a rule of TASK.md) and the summary
lines the core asks of every lab."""

TEXTS = {{
    "case.1.label": ("greet: 问候一个名字", "greet: greet a name"),
    "section.greet": ("=== 问候 (greet) ===", "=== greetings (greet) ==="),
    "hint.greeting": (
        "返回 GREETING + \\", \\" + name + \\"!\\" (TASK.md 规则 G1)",
        "return GREETING + \\", \\" + name + \\"!\\" (TASK.md rule G1)",
    ),
    "hint.no_bang": ("问候语最后有一个 \\"!\\" (TASK.md 规则 G1)", "the greeting ends with \\"!\\" (TASK.md rule G1)"),
    "summary.pointer": (
        "全部通过以后把这个实验改成你的 (README: Adding a lab)",
        "once all pass, make this lab yours (README: Adding a lab)",
    ),
    "summary.stub_elsewhere": (
        "注意: {{file}} 还和初始代码一样，而旁边的 {{other}} 不一样: 测试它: {{command}} test STUDENT={{other}}",
        "NOTE: {{file}} still behaves like the stub, but {{other}} nearby differs: test it: {{command}} test STUDENT={{other}}",
    ),
}}
''',
        f"{name}/mistakes.py": f'''"""{title}'s mistake detectors: the greeting without its "!" (rule G1)."""

from labkit.judge import Detectors


class Mistakes(Detectors):
    """Names the missing "!"; everything else gets the core's own hints."""

    def wrong_value(self, case, example, actual, others=()):
        if isinstance(actual, str) and isinstance(example.expected, str) and actual == example.expected[:-1]:
            return "hint.no_bang"
        return None


DETECTORS = Mistakes()
''',
        "students/wrong.py": f'''"""{title}'s wrong solution for the suite: the greeting without its "!".

Hint: hint.no_bang
Breaks: G1
"""

from {given_module} import GREETING


def greet(name):
    return f"{{GREETING}}, {{name}}"
''',
        f"tests/test_{name}.py": f'''"""{title}'s own tests (make check runs them): make test on the stub, the reference and the wrong solution, and the
sheets' transcripts and tables as make writes them."""

import os
import re
import subprocess
import sys
from pathlib import Path

LAB_ROOT = Path(__file__).resolve().parents[1]
COURSE = LAB_ROOT.parents[1]
SOLUTION = "labs/{name}/{solution}"


def make(*args, lang="zh"):
    env = {{
        key: value
        for key, value in os.environ.items()
        if key not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "LAB", "LAB_SPEC", "LAB_LANG", "PYTHONPYCACHEPREFIX")
    }}
    env.update(LAB_LANG=lang, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run(
        ["make", "--no-print-directory", *args, "LAB={name}", f"PYTHON={{sys.executable}}"],
        cwd=COURSE,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def cases() -> int:
    """How many cases make test runs, as the lab's spec says (a case added there needs no edit here)."""
    sys.path[:0] = [str(COURSE), str(LAB_ROOT)]
    from labkit.spec import load

    return len(load("{name}.spec").selected("test"))


def test_the_stub_fails_every_case_and_the_reference_passes_them():
    stub, solved, total = make("test"), make("test", f"STUDENT={{SOLUTION}}"), cases()
    assert stub.returncode != 0 and f"测试结果: 0 通过, {{total}} 失败" in stub.stdout, stub.stdout + stub.stderr
    assert solved.returncode == 0 and f"测试结果: {{total}} 通过, 0 失败" in solved.stdout, solved.stdout + solved.stderr


def test_the_wrong_solution_is_named_by_its_rule():
    wrong = make("test", "STUDENT=labs/{name}/students/wrong.py")
    assert wrong.returncode != 0 and "规则 G1" in wrong.stdout and "!" in wrong.stdout


def transcript(sheet, which):
    text = (LAB_ROOT / sheet).read_text(encoding="utf-8")
    return re.search(rf"<!-- transcript: {{which}} -->\\n```text\\n(.*?)```\\n", text, re.S)[1]


def test_the_sheets_transcripts_are_what_make_test_prints():
    for sheet, lang in (("TASK.md", "zh"), ("TASK.en.md", "en")):
        assert make("test", lang=lang).stdout == transcript(sheet, "stub")
        solved = make("test", f"STUDENT={{SOLUTION}}", lang=lang).stdout
        assert solved.replace("{solution}", "{student_file}") == transcript(sheet, "solution")


def test_the_sheets_tables_are_current():
    assert make("tables").stdout.splitlines()[0] == "tables: every generated table is current"
''',
    }


SCAFFOLD_WORDS = ("把这个实验改成你的", "make this lab yours")  # in its sheets and its summary: make dist refuses them


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not NAME.match(argv[0]):
        print("usage: make new-lab NAME=<name> (lower case letters, digits and _, a letter first)", file=sys.stderr)
        return 2
    name = argv[0]
    root = ROOT / course.LABS / name
    if root.exists() or name in course.labs():
        print(
            f"make new-lab: {root.relative_to(ROOT).as_posix()} exists already (the course's labs: "
            f"{', '.join(course.labs())})",
            file=sys.stderr,
        )
        return 2
    for path, text in files(name).items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    tables = subprocess.run(
        [
            sys.executable,
            str(ROOT / "lab.py"),
            f"PYTHON={sys.executable}",
            "run",
            "-m",
            "labkit.instructor.sheets",
            "--write",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**{k: v for k, v in os.environ.items() if k != "LAB_SPEC"}, "LAB": name},
        timeout=300,
    )
    if tables.returncode != 0:
        print(tables.stderr.strip(), file=sys.stderr)
        return 1
    relative = root.relative_to(ROOT).as_posix()
    print(f"new lab: {relative}/ (make test LAB={name}: 0/1 on the stub; make check runs {relative}/tests)")
    print(
        f"next: git add {relative} && git commit, then make dist LAB={name}; README's \"Adding a lab\" is the checklist"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
