"""The shape of the code: no import cycle in labkit/, lab09/ and framework/, a core that imports no lab and names
none, and a docstring on every module (design §4.1)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import LABS as KNOWN
from labkit.spec import load

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("labkit", "lab09", "framework")
LABS = tuple(KNOWN.values())  # every lab the suite knows (its core tests run against each): the core must name none
# (conftest.LABS, derived from the course: a lab added to labs/ is searched for too)


def modules() -> dict[str, Path]:
    """Dotted module name -> its file, for every module of the three packages."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(name: str, path: Path, known: dict) -> set[str]:
    """The known modules that `name` imports, at the top or lazily inside a function."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


MODULES = modules()
GRAPH = {name: imported(name, path, MODULES) for name, path in MODULES.items()}


def test_the_import_graph_of_the_packages_has_no_cycle():
    done, stack = set(), []

    def visit(name):
        if name in stack:
            raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(name) :] + [name]))
        if name in done:
            return
        stack.append(name)
        for target in sorted(GRAPH[name]):
            visit(target)
        stack.pop()
        done.add(name)

    for name in sorted(GRAPH):
        visit(name)


def test_the_import_walk_sees_lazy_imports_too():
    # the checks above and below are only as good as the graph: dist imports the engine inside a function
    assert "labkit.run.engine" not in _top_level("labkit.instructor.dist")
    assert {"labkit.run.engine", "labkit.assess"} <= GRAPH["labkit.instructor.dist"]


def _top_level(name: str) -> set[str]:
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    return {node.module for node in tree.body if isinstance(node, ast.ImportFrom)}


def test_no_core_module_imports_a_lab():
    wrong = {
        name: sorted(target for target in targets if target.split(".")[0] in ("lab09", "framework"))
        for name, targets in GRAPH.items()
        if name.split(".")[0] == "labkit"
    }
    assert {name: targets for name, targets in wrong.items() if targets} == {}


def test_the_one_way_the_core_reaches_a_lab_is_spec_active_importing_the_module_LAB_SPEC_names():
    source = (ROOT / "labkit" / "spec.py").read_text(encoding="utf-8")
    assert 'importlib.import_module("framework").LAB_SPEC' in source
    importing = [
        path.relative_to(ROOT).as_posix()
        for name, path in MODULES.items()
        if name.startswith("labkit")
        and re.search(r"import_module\(\s*['\"](?:lab09|framework)", path.read_text(encoding="utf-8"))
    ]
    assert importing == ["labkit/course.py", "labkit/spec.py"]  # the course's labs: framework.LAB_SPEC is its default


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_module_says_what_it_is_for(name):
    docstring = ast.get_docstring(ast.parse(MODULES[name].read_text(encoding="utf-8")))
    assert docstring and docstring.strip(), f"{MODULES[name].relative_to(ROOT)} has no docstring"


def lab_names(spec: str) -> set[str]:
    """What only a lab may name: its functions, its given module's values and names, its name and id, its
    student file's name."""
    from labkit.run.engine import Runtime

    lab = load(spec)
    given = Runtime.of(lab).given
    words = {*lab.functions, lab.student_file_name, lab.name, lab.id}
    words |= {name for name in given["names"] if name.isupper() and len(name) > 3}
    words |= {value for value in given["names"].values() if isinstance(value, str) and len(value) > 3}
    return words


SCAFFOLD = "labkit/instructor/new_lab.py"  # the core's one module that writes a lab: make new-lab's scaffold


def scaffold_words(words: set) -> set:
    """Of `words`, those the scaffold writes into every lab it makes, whatever the lab's name (its function, its
    given module's name and value), and which are no word of the default lab (whose file names it copies): a lab
    `make new-lab` wrote names them as the scaffold does, which alone may."""
    from labkit.instructor import new_lab

    written = "".join(new_lab.files("scaffold_probe").values())
    return {word for word in words if word in written} - lab_names(LABS[0]) - {"lab09", "Lab09"}


@pytest.mark.parametrize("name", KNOWN)
def test_the_core_names_no_function_tag_file_or_name_of_any_lab(name):
    words = lab_names(KNOWN[name]) | {"lab09", "Lab09"}

    def pattern(words):
        return re.compile("|".join(re.escape(word) for word in sorted(words, key=len, reverse=True)))

    everywhere, in_scaffold = pattern(words), pattern(words - scaffold_words(words))
    found = []
    for path in sorted((ROOT / "labkit").rglob("*")):
        relative = path.relative_to(ROOT).as_posix()
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for match in (in_scaffold if relative == SCAFFOLD else everywhere).finditer(line):
                found.append(f"{relative}:{number}: {match.group()}")
    assert found == []


def test_the_names_searched_for_include_each_labs_functions_tags_and_files():
    lab09 = lab_names("lab09.spec")
    assert {"format_prompt", "extract_response", "<|assistant|>", "ASSISTANT_TAG", "student.py", "Lab09"} <= lab09
    toy = lab_names(KNOWN["toy"])
    assert {"split_tokens", "to_rpn", "OPERATORS", "PRECEDENCE", "calc.py", "toycalc"} <= toy
    # the scaffold may name no word of a lab it did not write
    assert scaffold_words(lab09 | toy | {"lab09", "Lab09"}) == set()


def test_the_makefile_names_no_labs_own_target_or_setting():
    """A lab's own targets and their settings are stated once, in its spec: the Makefile hands a target it has no
    rule for to lab.py (`.DEFAULT`), whose settings come in the environment (make exports its command line's)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    named = [
        (spec, target.name, option.name)
        for spec in LABS
        for target in load(spec).targets
        if target.module
        for option in target.options
    ]
    assert named, "no lab of the suite has a target with settings: nothing is checked"
    assert [(spec, target) for spec, target, _ in named if re.search(rf"^{target}\s*:", makefile, re.M)] == []
    assert [(spec, option) for spec, _, option in named if f"$({option})" in makefile] == []
