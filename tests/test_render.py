"""Failure details make whitespace visible, point at the first difference, and exist in both languages."""

import re
import string
from dataclasses import replace

import pytest

from conftest import LAB, TABLE, judged
from labkit import i18n, render
from labkit.judge import Verdict, judge
from labkit.run.engine import CaseRun, CallRecord, LoadOutcome
from labkit.spec import Example


def verdict_for(actual, expected, case=TABLE[4]):
    example = Example(("input",), expected)
    case = replace(case, examples=(example,))
    call = CallRecord({"kind": "str", "value": actual}, None, ["input"], {"text": "", "dropped": 0}, 0.0)
    return judge(case, CaseRun(calls=[call]), LoadOutcome("ok"))


def caret_column(lines):
    actual = next(line for line in lines if "实际:" in line)
    caret = next(line for line in lines if "^" in line)
    return actual, caret.index("^")


@pytest.mark.parametrize(
    "char, shown",
    [
        ("\n", "\\n"),
        ("\t", "\\t"),
        ("\r", "\\r"),
        ("\u3000", "\\u3000"),
        ("\u200b", "\\u200b"),
        ('"', '\\"'),
        ("\\", "\\\\"),
        ("好", "好"),
    ],
)
def test_every_invisible_character_is_made_visible(char, shown):
    assert render.literal("a" + char) == f'"a{shown}"'


def test_caret_sits_under_the_first_difference_even_after_wide_characters():
    lines = render.failure_lines(verdict_for("你好，世界!", "你好，世界。"), "student.py")
    actual, column = caret_column(lines)
    prefix = actual[: actual.index('"') + 1] + "你好，世界"
    assert render.width(prefix) == column
    assert "第 1 行第 6 个字符起不同" in lines[[i for i, line in enumerate(lines) if "^" in line][0]]


def test_long_values_are_cut_around_the_difference():
    expected = "<|user|>\n" + "很长的内容" * 40 + "\n<|assistant|>\n"
    actual = expected[:-1]
    lines = render.failure_lines(verdict_for(actual, expected), "student.py")
    shown = [line for line in lines if "期望:" in line or "实际:" in line]
    assert all(line.split(":", 1)[1].strip().startswith("…") for line in shown)
    assert any('还缺: "\\n"' in line for line in lines)
    assert all(render.width(line) < 100 for line in lines if "提示:" not in line)  # the values, not the hint


def test_missing_and_extra_text_are_named():
    missing = render.failure_lines(verdict_for("abc", "abcdef"), "s.py")
    extra = render.failure_lines(verdict_for("abcdef", "abc"), "s.py")
    assert any('还缺: "def"' in line for line in missing)
    assert any('多出来的: "def"' in line for line in extra)


def test_printed_output_is_indented_and_cannot_fake_a_line():
    verdict = verdict_for("x", "y")
    verdict.facts["output"] = {
        "text": "[TEST 1] fake ... [PASS]\n\x1b[2K测试结果: 6 通过\n" + "more\n" * 10,
        "dropped": 5,
    }
    lines = render.failure_lines(verdict, "s.py")
    assert all(line.startswith(render.INDENT) for line in lines)
    printed = [line for line in lines if "| " in line]
    assert printed[0].endswith("| [TEST 1] fake ... [PASS]") and "\\x1b[2K" in printed[1]
    assert any("后面还有输出" in line for line in lines)


def test_catalogue_has_both_languages_with_the_same_placeholders():
    fields = string.Formatter()
    for key, (zh, en) in i18n.CATALOGUE.items():
        names = [{name for _, name, _, _ in fields.parse(text) if name} for text in (zh, en)]
        assert zh and en and names[0] == names[1], key


def test_every_hint_and_label_the_code_can_use_exists():
    from lab09 import draws, generated, mistakes
    from labkit import judge as judge_module

    cases = TABLE + LAB.in_group("properties") + LAB.in_group("generated")
    used = {case.hint for case in cases} | {case.label_key for case in cases}
    used |= {hint for case in TABLE for example in case.examples for hint in example.mistakes.values()}
    for source in (judge_module.__file__, render.__file__, draws.__file__, generated.__file__, mistakes.__file__):
        used |= set(
            re.findall(
                r'"((?:hint|problem|load|field|diff|value|printed|drawn|summary)\.[a-z_0-9]+)"',
                open(source, encoding="utf-8").read(),
            )
        )
    used |= {
        f"hint.{status}"
        for status in ("missing_file", "not_utf8", "syntax_error", "import_error", "memory", "system_error")
    }
    assert used - set(i18n.CATALOGUE) == set()


def test_lab_lang_switches_every_sentence(monkeypatch):
    monkeypatch.setenv("LAB_LANG", "en")
    assert i18n.text("summary", passed=1, failed=5) == "Result: 1 passed, 5 failed"
    monkeypatch.setenv("LAB_LANG", "zh")
    assert i18n.text("summary", passed=1, failed=5) == "测试结果: 1 通过, 5 失败"
    monkeypatch.delenv("LAB_LANG")
    assert i18n.current_language() == "zh"


def test_a_verdict_that_passes_renders_nothing_to_explain():
    verdict = verdict_for("same", "same")
    assert isinstance(verdict, Verdict) and verdict.passed


def test_a_long_call_keeps_every_argument():
    case = LAB.check("c2")  # c2: trim_history(messages, 2) in its second example
    call = CallRecord({"kind": "data", "type": "list", "value": []}, None, [], {"text": "", "dropped": 0}, 0.0)
    ok = CallRecord(
        {"kind": "data", "type": "list", "value": case.examples[0].expected, "is_argument": []},
        None,
        list(case.examples[0].args),
        {"text": "", "dropped": 0},
        0.0,
    )
    lines = render.failure_lines(judge(case, CaseRun(calls=[ok, call]), LoadOutcome("ok")), "student.py")
    assert any(line.strip() == "], 2) (例 2/2)" for line in lines)


# --- bounded, and expected always shown (issue 15 build 3, issue 18 items 2 and 5) ---------------------


class CountingList(list):
    """A list that counts how many of its items were read (rendering must not read them all)."""

    read = 0

    def __iter__(self):
        for item in super().__iter__():
            CountingList.read += 1
            yield item


def verdict_of(problem_facts: dict, problem: str, example: Example, case=TABLE[0]):
    case = replace(case, examples=(example,))
    return Verdict(case, False, problem, 0, case.hint, dict(problem_facts, output={"text": "", "dropped": 0}))


def test_a_huge_value_is_cut_with_a_count_of_what_was_left_out():
    """A million-item list returned instead of a str, a MiB string inside a dict and a changed argument of a
    million items: each is shown in a few lines, saying how much was left out, reading few of its items."""
    CountingList.read = 0
    huge = CountingList(["x"] * 1_000_000)
    example = Example(([{"role": "user", "content": "你好"}],), "<|user|>\n你好\n<|assistant|>\n", unchanged=True)
    shown = []
    shown += render.failure_lines(
        verdict_of({"returned": {"kind": "data", "type": "list", "value": huge}}, "wrong_type", example), "s.py"
    )
    shown += render.failure_lines(
        verdict_of(
            {"returned": {"kind": "data", "type": "dict", "value": {"content": "长" * (1 << 20)}}},
            "wrong_type",
            example,
        ),
        "s.py",
    )
    shown += render.failure_lines(
        verdict_of({"before": list(example.args), "after": [huge]}, "modified_input", example), "s.py"
    )
    assert CountingList.read < 1000
    assert sum(len(line) for line in shown) < 3000 and all(render.width(line) < 200 for line in shown)
    assert any("… 还有 999" in line for line in shown)  # the list's remaining items, counted
    assert any('长长"…' in line for line in shown)  # the long string cut, visibly


def test_a_list_difference_has_a_caret_under_the_first_differing_character_of_the_item():
    """An ASCII colon instead of a full-width one is nearly invisible in a long message: the caret shows it."""
    expected = [
        {"role": "system", "content": "指令"},
        {"role": "user", "content": "用户：什么是 token？\n问题：那中文呢？"},
    ]
    actual = [
        {"role": "system", "content": "指令"},
        {"role": "user", "content": "用户:什么是 token？\n问题:那中文呢？"},
    ]
    lines = render.failure_lines(
        verdict_of(
            {"expected": expected, "actual": actual, "returned": {}},
            "wrong_value",
            Example(([], "q"), expected),
            TABLE[0],
        ),
        "s.py",
    )
    item = next(line for line in lines if '"用户:' in line)
    caret = lines[lines.index(item) + 1]
    assert caret.index("^") == render.width(item[: item.index("用户:") + 2]) and "第 2 项的第" in caret


@pytest.mark.parametrize(
    "problem, facts, example, shown",
    [
        (
            "wrong_type",
            {"returned": {"kind": "other", "type": "NoneType", "repr": "None"}},
            Example(("x",), "x"),
            '期望: "x"',
        ),
        (
            "wrong_type",
            {"returned": {"kind": "data", "type": "list", "value": []}},
            Example(([], "q"), None),
            "期望: None",
        ),
        ("raised", {"raised": {"type": "ValueError", "message": "no"}}, Example(("x",), "x"), '期望: "x"'),
        ("timeout", {"seconds": 2.0}, Example(("x",), "x"), '期望: "x"'),
        ("timeout", {"seconds": 2.0}, Example(([],), raises="ValueError", mentions="tool"), '期望: 抛出 ValueError'),
        ("crashed", {"signal": 11}, Example(("x",), ["a", "b"]), '期望: ["a", "b"]'),
        (
            "modified_input",
            {"before": [[1]], "after": [[2]]},
            Example(([1],), "x", unchanged=True),
            "期望: 参数保持原样",
        ),
        ("same_object", {}, Example(([1],), [1], fresh=True), "期望: 一个新列表"),
    ],
)
def test_every_failure_shows_what_was_expected(problem, facts, example, shown):
    lines = render.failure_lines(verdict_of(facts, problem, example), "s.py")
    assert any(line.strip().startswith(shown) for line in lines), lines


@pytest.mark.parametrize(
    "after, zh, en",
    [
        (
            {"too_large": "<more than 1048576 characters>"},
            "现值: (太大了，没有收回: 超过 1048576 个字符，一个值最多这么大)",
            "after: (too large to come back: more than 1048576 characters, the most a value may have)",
        ),
        (
            {"unserializable": "[[{'role': 'user', 'content': '你好'}, <object object at 0x7f>]]"},
            "现值: (不是普通数据，没有收回: [[{'role': 'user', 'content': '你好'}, <object object at 0x7f>]])",
            "after: (not plain data, so it did not come back: [[{'role': 'user', 'content': '你好'}, <object object",
        ),
    ],
    ids=["too-large", "not-plain-data"],
)
def test_arguments_afterwards_that_did_not_come_back_get_a_sentence(monkeypatch, after, zh, en):
    """x3, p1, g1: arguments grown past what a value may have (or made no plain data) are described by the child;
    the 现值 row said so in the child's own words, `{"too_large": "<more than 1048576 characters>"}`."""
    example = Example(([{"role": "user", "content": "你好"}],), "<|user|>\n你好\n<|assistant|>\n", unchanged=True)
    verdict = verdict_of({"before": list(example.args), "after": after}, "modified_input", example)
    lines = [" ".join(line.split()) for line in render.failure_lines(verdict, "s.py")]
    assert zh in lines and '原值: [{"role": "user", "content": "你好"}]' in lines, lines
    assert not any("too_large" in line or "unserializable" in line for line in lines)
    monkeypatch.setenv("LAB_LANG", "en")
    assert any(" ".join(line.split()).startswith(en) for line in render.failure_lines(verdict, "s.py"))


NOT_STR = '提示: 要返回一个 str，而不是 {0}；列表可以用 "".join(...) 拼起来 (TASK.md 1.5.1)'


SCALARS = [  # (returned, its 实际 line under check 1, under x2 (40 columns), the hint)
    ("5", "5  (类型是 int)", "5", NOT_STR.format("int")),
    ("-3", "-3  (类型是 int)", "-3", NOT_STR.format("int")),
    ("1.5", "1.5  (类型是 float)", "1.5", NOT_STR.format("float")),
    ("1e300", "1e+300  (类型是 float)", "1e+300", NOT_STR.format("float")),
    ("-0.0", "-0.0  (类型是 float)", "-0.0", NOT_STR.format("float")),
    ("float('nan')", "nan  (类型是 float)", "nan", NOT_STR.format("float")),
    ("float('-inf')", "-inf  (类型是 float)", "-inf", NOT_STR.format("float")),
    ("True", "True  (类型是 bool)", "True", NOT_STR.format("bool")),
    (
        "None",
        "None  (类型是 NoneType)",
        "None",
        "提示: 函数返回了 None: 是不是忘了 return，或者某个分支没有 return？(TASK.md 1.5.1)",
    ),
    ("10 ** 69", "1" + "0" * 69 + "  (类型是 int)", "1" + "0" * 39 + "…", NOT_STR.format("int")),  # 70 digits: whole
    ("10 ** 80", "1" + "0" * 69 + "…  (类型是 int)", "1" + "0" * 39 + "…", NOT_STR.format("int")),
]


@pytest.mark.parametrize("value, actual, returned, hint", SCALARS, ids=[row[0] for row in SCALARS])
def test_a_number_bool_or_none_where_a_str_is_wanted_fails_as_before(
    tmp_path, monkeypatch, value, actual, returned, hint
):
    """Lab09 wants str: a returned int, float, bool or None fails `wrong_type` with the same lines whether the
    child sends it as plain data (a lab whose function returns an int needs that) or described by its repr."""
    monkeypatch.delenv("LAB_LANG", raising=False)
    student = tmp_path / "student.py"
    student.write_text(
        f"def format_prompt(messages):\n    return {value}\n\n\ndef extract_response(output):\n    return {value}\n",
        encoding="utf-8",
    )
    verdicts = judged(student, [LAB.check("1"), LAB.check("x2")])
    assert verdicts["1"].problem == "wrong_type" and verdicts["x2"].problem == "no_exception"
    lines = [line.strip() for line in render.failure_lines(verdicts["1"], "student.py")]
    assert lines[2:] == [f"实际: {actual}", hint], lines
    assert f"实际: 没有抛出异常，返回了 {returned}" in [
        line.strip() for line in render.failure_lines(verdicts["x2"], "student.py")
    ]
