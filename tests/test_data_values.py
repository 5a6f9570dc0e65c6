"""Returned data is judged as data, types included (a bool is no int, a float no int, inside dicts and lists too),
a wrong dict is shown one key per line with the spot where it first differs, and a lab's detectors name a missing or
wrong exception: what a lab whose functions return JSON-like dicts (Lab10) needs of the core."""

from dataclasses import replace

import pytest

from conftest import TABLE
from labkit import render
from labkit.judge import Detectors, differing_path, judge, same_data
from labkit.run.engine import CallRecord, CaseRun, LoadOutcome
from labkit.spec import Example


NO_DETECTORS = Detectors()


def returned(value, expected, case=TABLE[0], detectors=NO_DETECTORS):
    """The verdict on one call that returned `value` (as data) where `expected` is wanted."""
    case = replace(case, examples=(Example(("input",), expected),))
    call = CallRecord(
        {"kind": "data", "type": type(value).__name__, "value": value, "is_argument": []},
        None,
        ["input"],
        {"text": "", "dropped": 0},
        0.0,
    )
    return judge(case, CaseRun(calls=[call]), LoadOutcome("ok"), (), detectors)


@pytest.mark.parametrize(
    "actual, expected",
    [
        ({"stream": 0}, {"stream": False}),
        ({"max_tokens": True}, {"max_tokens": 1}),
        ({"n": 16.0}, {"n": 16}),
        ([{"a": [1, True]}], [{"a": [1, 1]}]),
        ({"a": 1}, {"a": 1, "b": None}),
    ],
)
def test_equal_in_python_is_not_the_same_data(actual, expected):
    assert actual == expected or len(actual) != len(expected)  # what == alone would have let pass
    assert not same_data(actual, expected)
    verdict = returned(actual, expected)
    assert not verdict.passed and verdict.problem == "wrong_value"


def test_the_same_data_passes_whatever_the_order_of_its_keys():
    assert returned({"b": [1, "x", None], "a": {"c": 1.5}}, {"a": {"c": 1.5}, "b": [1, "x", None]}).passed


def test_the_first_difference_is_a_path_of_keys_and_indices():
    expected = {"object": "x", "choices": [{"index": 0, "message": {"content": "hi"}}], "usage": {"total": 5}}
    assert differing_path(expected, expected) is None
    assert differing_path(expected, {**expected, "usage": {"total": "5"}}) == ("usage", "total")
    assert differing_path(expected, {**expected, "choices": [{"index": 0, "message": {"content": " hi"}}]}) == (
        "choices",
        0,
        "message",
        "content",
    )
    assert differing_path(expected, {**expected, "id": "c"}) == ("id",)
    assert differing_path(expected, {"object": "x", "usage": {"total": 5}}) == ("choices",)
    assert differing_path([1, 2], [1]) == (1,)


def test_a_wrong_dict_is_shown_a_key_a_line_with_the_spot_it_first_differs():
    expected = {
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "你好"}}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
    }
    actual = {**expected, "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": "5"}}
    lines = render.failure_lines(returned(actual, expected), "student.py")
    assert '              "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},' in lines
    assert '          第一处不同在 ["usage"]["total_tokens"]: 期望 5，实际 "5"' in lines, "\n".join(lines)
    missing = render.failure_lines(returned({"object": "chat.completion"}, expected), "student.py")
    assert any('第一处不同在 ["choices"]: 实际里没有这个键' in line for line in missing), "\n".join(missing)


class _Named(Detectors):
    def problem(self, problem, case, example=None):
        return f"hint.{problem}_named" if problem in ("no_exception", "wrong_exception") else None


def test_a_labs_detectors_name_a_missing_or_wrong_exception():
    case = replace(TABLE[0], examples=(Example(("input",), raises="ValueError", mentions="role"),))
    value = CallRecord({"kind": "str", "value": ""}, None, ["input"], {"text": "", "dropped": 0}, 0.0)
    other = CallRecord(
        None,
        {"type": "KeyError", "kinds": ["KeyError", "LookupError"], "message": "'role'"},
        ["input"],
        {"text": "", "dropped": 0},
        0.0,
    )
    for call, problem in ((value, "no_exception"), (other, "wrong_exception")):
        named = judge(case, CaseRun(calls=[call]), LoadOutcome("ok"), (), _Named())
        plain = judge(case, CaseRun(calls=[call]), LoadOutcome("ok"), (), Detectors())
        assert (named.problem, named.hint) == (problem, f"hint.{problem}_named")
        assert plain.hint == case.hint  # a lab without such detectors keeps the check's own hint
