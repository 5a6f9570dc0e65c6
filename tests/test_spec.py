"""The lab spec (labkit/spec.py, lab09/spec.py): every check declared once, in the order every face shows it,
and a spec that contradicts itself refused at load with the field named."""

import subprocess
import sys
from dataclasses import replace

import pytest

from conftest import LAB, ROOT, clean_env
from labkit.instructor.outputs import grades_csv
from labkit.spec import Case, DrawnCheck, Group, Lab, Section, Text, load


def ids(checks) -> list:
    return [check.id for check in checks]


def test_each_run_selects_its_checks_in_declaration_order():
    six = ids(LAB.in_group("six"))  # as many as lab09/spec.py declares (tests/test_adding_a_case.py adds one)
    extended, properties = [f"x{n}" for n in range(1, 11)], [f"p{n}" for n in range(1, 5)]
    assert six == [str(n) for n in range(1, len(six) + 1)]
    assert ids(LAB.selected("test")) == six
    assert ids(LAB.selected("full")) == six + extended + properties
    assert ids(LAB.graded) == six + extended + properties + ["g1", "g2", "g3"]
    assert ids(LAB.selected("challenge")) == [f"c{n}" for n in range(1, 8)] + [f"r{n}" for n in range(1, 8)]
    assert {check.suite for check in LAB.selected("test")} == {"core"} and LAB.check("x3").column == "x3"
    with pytest.raises(KeyError, match="lab09 has no check 'z9'"):
        LAB.check("z9")


def test_the_toy_lab_selects_its_own_checks():
    toy = load("toylab.spec")
    assert ids(toy.selected("test")) == ["1", "2", "3", "4"]
    assert ids(toy.selected("full")) == ["1", "2", "3", "4", "x1", "x2", "x3"]
    assert toy.graded_functions == ("split_tokens", "to_rpn", "evaluate") and toy.selected("challenge") == ()


def test_the_grades_header_has_a_column_per_graded_check_of_the_active_lab(lab):
    header = grades_csv.csv_header()  # grades.csv: a column per graded check, then the points of each graded group
    assert header[4 : 4 + len(lab.graded)] == [check.column for check in lab.graded]
    assert header[-len(lab.graded_groups) :] == [f"{group.id}_points" for group in lab.graded_groups]
    assert len(header) == 4 + len(lab.graded) + len(grades_csv.LMS_COLUMNS) + len(grades_csv.RUN_COLUMNS) + len(
        lab.graded_groups
    )
    with pytest.raises(KeyError, match=f"{lab.id} has no check 'z9'"):
        lab.check("z9")


GROUP = Group(id="basic", points=10, stage="test", name=Text("基本", "basic"))


def toy(**changes) -> dict:
    fields = dict(
        id="toy",
        name="Toy",
        root=ROOT,
        student_file="calc.py",
        solution="solution.py",
        given="ops",
        functions=("evaluate",),
        sheets={},
        groups=(GROUP,),
        sections=(Section(id="main"),),
        checks=(
            Case(id="1", function="evaluate", group=GROUP, section="main", hint="hint.one"),
            Case(id="2", function="evaluate", group=GROUP, section="main", hint="hint.two"),
        ),
    )
    fields.update(changes)
    return fields


def test_points_are_shared_or_stated_for_every_check_of_a_group():
    lab = Lab(**toy())
    assert [lab.points(check) for check in lab.checks] == [5, 5] and [lab.points(c, 3) for c in lab.checks] == [2, 1]
    checks = toy()["checks"]
    stated = Lab(**toy(checks=(replace(checks[0], points=7), replace(checks[1], points=3))))
    assert [stated.points(check) for check in stated.checks] == [7, 3]
    with pytest.raises(ValueError, match="group basic: explicit points"):
        Lab(**toy(checks=(replace(checks[0], points=7), checks[1])))


@pytest.mark.parametrize(
    "change, complaint",
    [
        ({"checks": toy()["checks"][:1] * 2}, "check 1: the id is used twice"),
        ({"sections": (Section(id="other"),)}, "section main is not one of the lab's sections"),
        ({"functions": ("tokens",)}, "function evaluate is not one of the lab's functions"),
        ({"groups": ()}, "group basic is not one of the lab's groups"),
        ({"network": "loopback"}, "network 'loopback': the engine has only none"),
        (
            {
                "checks": (
                    DrawnCheck(
                        id="p1", function="evaluate", group=GROUP, section="main", hint="hint.one", inputs="ops"
                    ),
                )
            },
            "check p1: section graded_main is not one of the lab's sections",
        ),
    ],
)
def test_a_spec_that_contradicts_itself_is_refused_naming_the_field(change, complaint):
    with pytest.raises(ValueError, match=complaint):
        Lab(**toy(**change))
    with pytest.raises(ValueError, match="stage must be one of"):
        Group(id="g", points=1, stage="sometimes", name=Text("", ""))


def test_the_active_lab_is_the_one_lab_spec_names(tmp_path):
    (tmp_path / "toyspec.py").write_text(
        "from pathlib import Path\nfrom labkit.spec import Case, Group, Lab, Section, Text, load\n"
        "G = Group(id='basic', points=10, stage='test', name=Text('基本', 'basic'))\n"
        "LAB = Lab(id='toy', name='Toy', root=Path('.'), student_file='calc.py', solution='s.py', given='ops',\n"
        "          functions=('evaluate',), sheets={}, groups=(G,), sections=(Section(id='main'),),\n"
        "          checks=(Case(id='1', function='evaluate', group=G, section='main', hint='hint.one'),),\n"
        "          texts=('toyspec',))\n"
        "TEXTS = {key: (key, key) for key in ('case.1.label', 'hint.one', 'section.main', 'summary.pointer',\n"
        "                                     'summary.stub_elsewhere')}\n",
        encoding="utf-8",
    )
    show = "from labkit.spec import active; print(active().name, [c.column for c in active().graded])"
    env = clean_env(LAB_SPEC="toyspec", PYTHONPATH=f"{tmp_path}")
    toy_run = subprocess.run([sys.executable, "-c", show], cwd=ROOT, env=env, capture_output=True, text=True)
    assert toy_run.stdout == "Toy ['t1']\n", toy_run.stderr
    own = subprocess.run([sys.executable, "-c", show], cwd=ROOT, env=clean_env(), capture_output=True, text=True)
    assert own.stdout.startswith("Lab09 ['t1', 't2'"), own.stderr
