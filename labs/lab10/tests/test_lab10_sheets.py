"""Lab10's two sheets keep the course's conventions and stay in step with the code: the same sections, rules,
transcripts and examples in both; the transcripts are what make test and make serve CHECK=1 print; the examples and the
stub's docstrings hold for the reference; the scheme table is the spec's; every hint cites a rule and a section that
exist (tests/test_task_md.py and test_course_output.py do the same for Lab09)."""

from __future__ import annotations

import ast
import doctest
import re

import pytest

from lab10_support import LAB_ROOT, SOLUTION, STUB, make

from labkit.spec import load

LAB = load("lab10.spec")
SHEETS = {
    "zh": (LAB_ROOT / "TASK.md").read_text(encoding="utf-8"),
    "en": (LAB_ROOT / "TASK.en.md").read_text(encoding="utf-8"),
}
RULES = {"P1", "P2", "P3", "P4", "P5", "C1", "C2", "C3", "S1", "S2", "S3", "S4", "S5", "E1", "E2", "E3"}


def transcript(name: str, language: str, tested: str = "framework/student.py") -> str:
    found = re.search(rf"<!-- transcript: {name} -->\n```text\n(.*?)```", SHEETS[language], re.S)
    assert found, f"{language}: no transcript {name}"
    return re.sub(
        r"^(测试的文件|tested): framework/student\.py$",
        lambda line: line.group(1) + ": " + tested,
        found.group(1),
        flags=re.M,
    )


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_stub_and_solution_transcripts_are_what_make_test_prints(language):
    assert make("clean").returncode == 0
    stub = make("test", LAB_LANG=language)
    assert stub.returncode != 0 and stub.stdout == transcript("stub", language)
    solved = make("test", f"STUDENT={SOLUTION}", LAB_LANG=language)
    assert solved.returncode == 0 and solved.stdout == transcript("solution", language, "solutions/student.py")


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_serve_check_transcript_is_what_make_serve_check_prints(language):
    result = make("serve", "CHECK=1", f"STUDENT={SOLUTION}", LAB_LANG=language)
    assert result.returncode == 0 and result.stdout == transcript("serve_check", language)


def _numbered(sheet: str) -> tuple:
    return re.findall(r"^### (1\.5\.\d+)", sheet, re.M), sorted(set(re.findall(r"^- \*\*([PCSE]\d)\*\*", sheet, re.M)))


def test_both_sheets_have_the_same_sections_rules_transcripts_and_examples():
    zh, en = SHEETS["zh"], SHEETS["en"]
    assert _numbered(zh) == _numbered(en) and set(_numbered(zh)[1]) == RULES
    assert len(re.findall(r"^## ", zh, re.M)) == len(re.findall(r"^## ", en, re.M))
    assert (
        re.findall(r"<!-- transcript: (\w+) -->", zh)
        == re.findall(r"<!-- transcript: (\w+) -->", en)
        == ["serve_check", "stub", "solution"]
    )
    assert zh.count("```python") == en.count("```python") == 4
    questions = [
        len(re.findall(r"^\d+\. ", sheet.split(heading)[1], re.M))
        for sheet, heading in ((zh, "## 思考题"), (en, "## Questions"))
    ]
    assert questions[0] == questions[1] == 6
    assert _mistakes(zh, "## 常见错误与排查顺序") == _mistakes(en, "## Common mistakes") == list(range(1, 12))


def _mistakes(sheet: str, heading: str) -> list:
    return [int(n) for n in re.findall(r"^(\d+)\. ", sheet.split(heading)[1].split("\n## ")[0], re.M)]


def test_the_course_sections_and_front_matter():
    zh = SHEETS["zh"]
    front = zh.split("---\n")[1]
    for key in ("title: Lab10 - HTTP 服务", "lab: 10", "step: 9", "hours:", "deliverable:"):
        assert key in front
    headings = re.findall(r"^## (.+)$", zh, re.M)
    for section in (
        "实验目的",
        "为什么",
        "实验环境",
        "实验内容",
        "现象",
        "常见错误与排查顺序",
        "思考题",
        "上节 / 下节",
    ):
        assert any(heading.startswith(section) for heading in headings), section
    assert "Lab09" in zh and "/v1/chat/completions" in zh and "参考答案" in zh  # the reference it builds on, said


def test_the_scheme_tables_are_the_specs():
    from labkit.instructor import sheets

    assert sheets.stale(LAB, LAB_ROOT) == []
    assert {block.file for block in sheets.blocks(LAB)} == {"TASK.md", "TASK.en.md"}  # no README of its own


def _reference():
    from lab10.generated import solution

    return solution()


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_sheets_examples_are_what_the_reference_does(language):
    reference = _reference()
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    blocks = re.findall(r"```python\n(.*?)```", SHEETS[language], re.S)
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, dict(vars(reference)), f"{language} example {number}", language, 0)
        assert test.examples
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def _api(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name: (ast.dump(node.args), ast.dump(node.returns) if node.returns else None, ast.get_docstring(node))
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
    }


def test_the_stub_and_the_reference_share_signatures_and_docstrings_whose_examples_hold():
    stub, solution = _api(STUB), _api(SOLUTION)
    assert set(stub) == set(LAB.functions) and stub == {name: solution[name] for name in stub}
    reference = _reference()
    examples = [
        line.split("例:", 1)[1].strip()
        for _, _, docstring in stub.values()
        for line in docstring.splitlines()
        if line.strip().startswith("例:")
    ]
    assert len(examples) == 4
    for example in examples:
        assert eval(example, vars(reference)) is True, example
    source = STUB.read_text(encoding="utf-8")
    assert source.count("return {}") == 3 and source.count("return []") == 1 and "from framework.api import" in source


def test_every_sentence_cites_a_rule_a_section_and_a_mistake_that_exist(lab10):
    from labkit.i18n import CATALOGUE

    sections = set(_numbered(SHEETS["zh"])[0])
    mistakes = {str(n) for n in _mistakes(SHEETS["zh"], "## 常见错误与排查顺序")}
    cited = 0
    for key in CATALOGUE:
        zh, en = CATALOGUE[key]
        for sentence, sheet in ((zh, "TASK.md"), (en, "TASK.en.md")):
            assert set(re.findall(rf"{re.escape(sheet)},? (1\.5\.\d+)", sentence)) <= sections, sentence
            named = set(re.findall(r"(?:规则|rules?) ([PCSE]\d)", sentence))
            assert named <= RULES, sentence
            assert ("TASK.en.md" in sentence) == (sheet == "TASK.en.md" and "TASK" in sentence), (key, sentence)
            common = "TASK.md 常见错误 " if sheet == "TASK.md" else "TASK.en.md, common mistake "
            assert set(re.findall(rf"{re.escape(common)}(\d+)", sentence)) <= mistakes, sentence
            cited += bool(named)
    assert cited > 60
