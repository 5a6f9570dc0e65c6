"""TASK.md keeps the course's conventions and stays in step with the code: rules, examples, hints, API."""

import ast
import doctest
import importlib.util
import re

import pytest

from conftest import LAB, ROOT, SOLUTION, STUB
from labkit.i18n import CATALOGUE

TASK = (ROOT / "TASK.md").read_text(encoding="utf-8")
TASK_EN = (ROOT / "TASK.en.md").read_text(encoding="utf-8")


def test_front_matter_and_course_sections():
    front = TASK.split("---\n")[1]
    for key in ("title: Lab09 - 多轮对话", "lab:", "step:", "hours:", "deliverable:"):
        assert key in front
    assert re.search(r"^> 实验编号: .*预计耗时: .*本节产出: ", TASK, re.M)
    headings = re.findall(r"^## (.+)$", TASK, re.M)
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
        assert any(h.startswith(section) for h in headings), section
    assert "**必做**" in TASK and "**选做**" in TASK
    assert "Lab08" in TASK and "Lab10" in TASK and "/v1/chat/completions" in TASK


def _numbered(sheet: str) -> tuple:
    return (
        re.findall(r"^### (1\.5\.\d+)", sheet, re.M),
        sorted(set(re.findall(r"^- \*\*([EFRT]\d)\*\*", sheet, re.M))),
    )


def common_mistakes(sheet: str, heading: str = "## 常见错误与排查顺序") -> list:
    """The item numbers of a sheet's common-mistakes section, in order."""
    section = sheet.split(heading)[1].split("\n## ")[0]
    return [int(number) for number in re.findall(r"^(\d+)\. ", section, re.M)]


def test_every_place_a_hint_points_to_exists():
    tasks, rules = (set(found) for found in _numbered(TASK))
    assert {
        "F1",
        "F2",
        "F3",
        "F4",
        "E1",
        "E2",
        "E3",
        "E4",
        "T1",
        "T2",
        "T3",
        "T4",
        "T5",
        "R1",
        "R2",
        "R3",
        "R4",
        "R5",
        "R6",
        "R7",
    } <= rules
    mistakes = {str(number) for number in common_mistakes(TASK)}
    assert common_mistakes(TASK) == common_mistakes(TASK_EN, "## Common mistakes")
    for zh, en in CATALOGUE.values():
        for sentence, sheet in ((zh, "TASK.md"), (en, "TASK.en.md")):
            assert set(re.findall(rf"{re.escape(sheet)} (1\.5\.\d+)", sentence)) <= tasks, sentence
            assert set(re.findall(r"\b([EFRT][1-7])\b", sentence)) <= rules, sentence
            assert ("TASK.en.md" in sentence) == (sheet == "TASK.en.md" and "TASK" in sentence), sentence
            common = "TASK.md 常见错误 " if sheet == "TASK.md" else "TASK.en.md, common mistake "
            assert set(re.findall(rf"{re.escape(common)}(\d+)", sentence)) <= mistakes, sentence
            assert len(re.findall(r"常见错误 \d|common mistake \d", sentence)) == sentence.count(common), sentence


def test_english_sheet_keeps_the_structure_of_the_chinese_one():
    assert _numbered(TASK_EN) == _numbered(TASK)
    assert len(re.findall(r"^## ", TASK_EN, re.M)) == len(re.findall(r"^## ", TASK, re.M))
    assert re.findall(r"<!-- transcript: (\w+) -->", TASK_EN) == re.findall(r"<!-- transcript: (\w+) -->", TASK)
    assert TASK_EN.count("```python") == TASK.count("```python")
    assert len(re.findall(r"^\d+\. ", TASK_EN.split("## Questions")[1], re.M)) == len(
        re.findall(r"^\d+\. ", TASK.split("## 思考题")[1], re.M)
    )


@pytest.mark.parametrize("sheet", [TASK, TASK_EN], ids=["TASK.md", "TASK.en.md"])
def test_examples_in_the_sheets_are_what_the_reference_solution_does(sheet):
    spec = importlib.util.spec_from_file_location("reference", SOLUTION)
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    examples = re.findall(r"```python\n(.*?)```", sheet, re.S)
    assert len(examples) >= 3
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(examples):
        test = parser.get_doctest(block, vars(reference), f"TASK.md example {number}", "TASK.md", 0)
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


def test_stub_and_solution_share_signatures_and_docstrings():
    stub, solution = _api(STUB), _api(SOLUTION)
    assert {"format_prompt", "extract_response", "trim_history", "rewrite_messages", "clean_rewrite"} <= set(stub)
    assert stub == {name: solution[name] for name in stub}
    assert all(docstring for _, _, docstring in stub.values())


def test_stub_returns_empty_strings_and_points_at_task_md():
    source = STUB.read_text(encoding="utf-8")
    assert source.count('return ""') == 2 and source.count("return messages") == 1
    assert source.count("return None") == 1 and source.count("return question") == 1  # the optional 选做 2 stubs
    assert "TODO" in source and "TASK.md" in source
    assert "from framework.tags import" in source


def test_the_stubs_docstring_examples_copy_as_they_look():
    """An editor shows the source: an example written with "\\\\n" in it gave students who copied it a literal
    backslash and an n.  The docstrings are raw, with no doubled backslash, and each example (a line "例: …")
    is a Python expression that holds for the reference solution exactly as it is written."""
    source = STUB.read_text(encoding="utf-8")
    tree = ast.parse(source)
    spec = importlib.util.spec_from_file_location("reference", SOLUTION)
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    examples = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and ast.get_docstring(node):
            segment = ast.get_source_segment(source, node.body[0])
            assert "\\\\" not in segment, node.name  # what the editor shows is what a copy gives
            assert not ("\\" in segment and not segment.startswith(("r\"\"\"", "r'''"))), node.name
            examples += [
                line.split("例:", 1)[1].strip()
                for line in ast.get_docstring(node).splitlines()
                if line.strip().startswith("例:")
            ]
    assert len(examples) >= 2
    for example in examples:
        assert eval(example, vars(reference)) is True, example


@pytest.mark.parametrize(
    "sheet, heading", [(TASK, "## 思考题"), (TASK_EN, "## Questions")], ids=["TASK.md", "TASK.en.md"]
)
def test_question_3_quotes_the_input_of_test_6_it_asks_about(sheet, heading):
    """A student whose TEST 6 passes never sees its inputs, so the question quotes the one it is about."""
    question = re.search(r"^3\. (.+?)(?=^\d\. |\Z)", sheet.split(heading)[1], re.M | re.S).group(1)
    quoted = re.search(r'`("[^`]+")`', question).group(1)
    inputs = [example.args[0] for case in LAB.selected("test") if case.id == "6" for example in case.examples]
    assert ast.literal_eval(quoted) in inputs and "<|end|>" in ast.literal_eval(quoted)


@pytest.mark.parametrize("sheet", [TASK, TASK_EN], ids=["TASK.md", "TASK.en.md"])
def test_the_sheet_says_why_the_prompt_has_no_end_tag(sheet):
    """1.5.6 shows Phi-3 ending every turn with <|end|>; rule F1 writes none: the sheet says why, in 1.5.2."""
    section = sheet.split("### 1.5.2")[1].split("### 1.5.3")[0]
    assert "<|end|>" in section and "E3" in section and "1.5.6" in section


@pytest.mark.parametrize(
    "sheet, language, words",
    [
        (TASK, 0, ("**为你随机生成**", "「{quote}」", "必需的", "几乎总是足够的")),
        (TASK_EN, 1, ("**drawn for you**", '"{quote}"', "necessary", "nearly always enough")),
    ],
    ids=["zh", "en"],
)
def test_1_5_4_says_the_grade_runs_the_property_checks_on_inputs_drawn_for_each_student(sheet, language, words):
    """In the grade p1–p4 draw each student's inputs (README, "Property checks"), not those of make test-full:
    1.5.4 says so, quoting the header the feedback gives that section, and what follows for work at home."""
    section = re.sub(r"\n", " " if language else "", sheet.split("### 1.5.4")[1].split("\n### ")[0])  # unwrapped
    header = CATALOGUE["section.graded_properties"][language]
    quote = re.search(r"[；;] ?([^；;]*)\) ===$", header)[1]  # "和 make test-full 的输入不同", "not those of …"
    drawn, quoted, necessary, enough = words
    assert drawn in section and quoted.format(quote=quote) in section
    assert necessary in section and enough in section
