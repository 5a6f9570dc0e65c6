"""Judges the values a student's functions returned against the case table, and names the likely mistake.

The judge only sees data sent back by the child (a genuine ``str`` arrives as ``{"kind": "str"}``, a
plain list or dict as ``{"kind": "data"}``, anything else as its type name), so no student object
can take part in a comparison.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from framework.harness.cases import GENERATION_LINE, Case, Example
from framework.harness.engine import CallRecord, CaseRun, LoadOutcome, StudentRun
from framework.tags import ASSISTANT_TAG, SYSTEM_TAG, USER_TAG


@dataclass
class Verdict:
    """Pass or fail for one case, with the facts and the hint that explain a failure."""

    case: Case
    passed: bool
    problem: str | None = None  # wrong_value, wrong_type, raised, no_exception, wrong_exception, same_object,
    #                             modified_input, timeout, crashed, no_answer, load_failed, missing_function
    example: int | None = None  # index of the example that decided a failure
    hint: str | None = None  # catalogue key
    facts: dict = field(default_factory=dict)
    seconds: float = 0.0


def judge(case: Case, run: CaseRun, load: LoadOutcome) -> Verdict:
    """The verdict for `case`: the first example that fails decides; every answered call is judged."""
    for index, (example, call) in enumerate(zip(case.examples, run.calls)):
        verdict = _judge_call(case, index, example, call)
        if verdict is not None:
            verdict.seconds = run.seconds
            return verdict
    if run.problem is None and len(run.calls) == len(case.examples):
        return Verdict(case, True, seconds=run.seconds)
    index = len(run.calls) if len(run.calls) < len(case.examples) else None
    facts = dict(run.detail, load=load)
    return Verdict(case, False, run.problem or "no_answer", index, _problem_hint(run, load), facts, run.seconds)


def _judge_call(case: Case, index: int, example: Example, call: CallRecord) -> Verdict | None:
    facts = {"output": call.output}
    if example.raises:
        return _judge_raise(case, index, example, call, facts)
    if call.raised is not None:
        facts["raised"] = call.raised
        return Verdict(case, False, "raised", index, exception_hint(call.raised), facts)
    returned = call.returned or {}
    facts["returned"] = returned
    got = "str" if returned.get("kind") == "str" else returned.get("type", "?")
    wanted = type(example.expected).__name__  # str, list for trim_history, NoneType when None is the answer
    if got == wanted == "NoneType":
        return None
    if got != wanted or returned.get("kind") == "other":  # "other": not plain data, e.g. a str subclass inside
        hint = (example.mistakes.get(None, "hint.none_returned") if got == "NoneType"
                else "hint.str_subclass" if returned.get("str_subclass")
                else "hint.not_str" if wanted == "str" else "hint.not_list" if wanted == "list" else case.hint)
        return Verdict(case, False, "wrong_type", index, hint, facts)
    actual = returned["value"]
    if actual != example.expected or "length" in returned:
        facts.update(expected=example.expected, actual=actual)
        return Verdict(case, False, "wrong_value", index, mistake_hint(case, example, actual), facts)
    if example.fresh and returned.get("is_argument"):
        return Verdict(case, False, "same_object", index, "hint.trim_new_list", facts)
    if example.unchanged and call.args_after != list(example.args):
        facts.update(before=list(example.args), after=call.args_after)
        return Verdict(case, False, "modified_input", index, case.hint, facts)
    return None


def _judge_raise(case: Case, index: int, example: Example, call: CallRecord, facts: dict) -> Verdict | None:
    """The protocol demands an exception of `example.raises` (or a subclass) whose message names a word."""
    facts.update(demanded=example.raises, mentions=example.mentions)
    raised = call.raised
    if raised is None:
        facts["returned"] = call.returned or {}
        return Verdict(case, False, "no_exception", index, case.hint, facts)
    facts["raised"] = raised
    if example.raises not in raised.get("kinds", [raised.get("type")]):
        return Verdict(case, False, "wrong_exception", index, case.hint, facts)
    if example.mentions and example.mentions not in raised.get("message", ""):
        return Verdict(case, False, "wrong_exception", index, "hint.error_names_role", facts)
    return None


def mistake_hint(case: Case, example: Example, actual) -> str:
    """The hint for a wrong value: a known mistake of this example, a generic slip, or the case's hint."""
    if case.section == "rewrite":  # the slips further below are the prompt's and the reply's (F and E rules)
        return _rewrite_slip(example.expected, actual) or example.mistakes.get(actual, case.hint)
    if not isinstance(actual, str):
        return _history_slip(example.expected, actual) or case.hint
    for candidate in (actual, actual.strip()):
        if candidate in example.mistakes:
            return example.mistakes[candidate]
    for diagnose in _SLIPS:
        hint = diagnose(example.expected, actual)
        if hint:
            return hint
    return case.hint


def _history_slip(expected: list, actual: list):
    """What is wrong with a trimmed history, judged by the properties TASK.md's rules T1–T3 give it."""
    roles = [m.get("role") if isinstance(m, dict) else None for m in actual]
    if any(role not in ("system", "user", "assistant") for role in roles):
        return "hint.trim_other_roles"
    if roles.count("system") != [m["role"] for m in expected].count("system") or \
            roles[:roles.count("system")] != ["system"] * roles.count("system"):
        return "hint.trim_keep_system"
    rest = [role for role in roles if role != "system"]
    if rest and rest[0] == "assistant":
        return "hint.trim_starts_with_assistant"
    return None


def _rewrite_slip(expected, actual):
    """What is wrong with a rewrite request, judged by the lines TASK.md's rules R2–R4 give it."""
    if not isinstance(expected, list) or not isinstance(actual, list):
        return None
    if [m.get("role") if isinstance(m, dict) else None for m in actual] != ["system", "user"] or \
            actual[0].get("content") != expected[0]["content"] or not isinstance(actual[1].get("content"), str):
        return "hint.r1"
    wanted, got = expected[1]["content"].split("\n"), actual[1]["content"].split("\n")
    older = got[:len(got) - len(wanted)]
    if older and got[len(older):] == wanted and all(line[:3] in ("用户：", "助手：") for line in older):
        return "hint.r4"  # the right lines, after older turns
    if len(got) > len(wanted):
        return "hint.r3"
    return "hint.r2"


def _empty(expected: str, actual: str):
    return "hint.returned_empty" if actual == "" and expected != "" else None


def _generation_line(expected: str, actual: str):
    if not expected.endswith(GENERATION_LINE):
        return None
    if actual == expected[:-len(GENERATION_LINE)]:
        return "hint.no_generation_tag"
    if actual + "\n" == expected:
        return "hint.generation_tag_newline"
    if actual == expected + GENERATION_LINE:
        return "hint.generation_tag_twice"
    return None


def _blank_lines(expected: str, actual: str):
    return "hint.blank_line" if "\n\n" in actual and re.sub(r"\n{2,}", "\n", actual) == expected else None


def _trim(expected: str, actual: str):
    if actual.strip() != expected:
        return None
    one_side = actual.lstrip() == expected or actual.rstrip() == expected
    return "hint.trim_one_side" if one_side else "hint.not_trimmed"


def _prompt_pairs(prompt: str):
    """(tag, content) pairs of a prompt in the protocol's layout, or None if it is not one."""
    if not prompt.endswith(GENERATION_LINE):
        return None
    lines = prompt[:-len(GENERATION_LINE)].split("\n")[:-1]
    pairs = list(zip(lines[0::2], lines[1::2]))
    if len(lines) % 2 or any(tag not in ROLE_TAGS for tag, _ in pairs):
        return None
    return pairs


# Each layout slip rebuilds the expected prompt the way that slip would have written it.
_LAYOUT_SLIPS = (
    ("hint.content_before_tag", lambda tag, content: f"{content}\n{tag}\n", GENERATION_LINE),
    ("hint.tag_same_line", lambda tag, content: f"{tag}{content}\n", GENERATION_LINE),
    ("hint.missing_newline", lambda tag, content: f"{tag}\n{content}", GENERATION_LINE),
    ("hint.generation_after_every_user",
     lambda tag, content: f"{tag}\n{content}\n" + (GENERATION_LINE if tag == USER_TAG else ""), ""),
)


def _layout(expected: str, actual: str):
    pairs = _prompt_pairs(expected)
    if not pairs:
        return None
    for hint, write, ending in _LAYOUT_SLIPS:
        if actual == "".join(write(tag, content) for tag, content in pairs) + ending:
            return hint
    kept = [pair for pair in pairs if pair[0] != SYSTEM_TAG]
    if kept != pairs and actual == "".join(f"{tag}\n{content}\n" for tag, content in kept) + GENERATION_LINE:
        return "hint.system_dropped"
    if actual == f"{pairs[-1][0]}\n{pairs[-1][1]}\n{GENERATION_LINE}" and len(pairs) > 1:
        return "hint.history_lost"
    return _tags(expected, actual)


def _tags(expected: str, actual: str):
    """Same lines except that some tag lines carry the wrong tag."""
    expected_lines, actual_lines = expected.split("\n"), actual.split("\n")
    if len(expected_lines) != len(actual_lines):
        return None
    wrong = [(e, a) for e, a in zip(expected_lines, actual_lines) if e != a]
    if not wrong or not all(e in ROLE_TAGS and a in ROLE_TAGS for e, a in wrong):
        return None
    return "hint.system_as_user" if (SYSTEM_TAG, USER_TAG) in wrong else "hint.role_mapping"


def _whitespace(expected: str, actual: str):
    return "hint.whitespace_only" if actual.split() == expected.split() else None


_SLIPS = (_empty, _generation_line, _blank_lines, _trim, _layout, _whitespace)

ROLE_TAGS = (SYSTEM_TAG, USER_TAG, ASSISTANT_TAG)

_EXCEPTION_HINTS = {
    "SystemExit": "hint.raised_exit",
    "KeyboardInterrupt": "hint.raised_interrupt",
    "EOFError": "hint.reads_input",
    "RecursionError": "hint.recursion",
    "MemoryError": "hint.memory",
    "NameError": "hint.name_error",
}


def exception_hint(raised: dict) -> str:
    return _EXCEPTION_HINTS.get(raised.get("type", ""), "hint.raised")


def _problem_hint(run: CaseRun, load: LoadOutcome) -> str:
    if run.problem == "load_failed":
        if load.status == "import_error" and exception_hint(load.detail) != "hint.raised":
            return exception_hint(load.detail)
        if load.status == "crashed" and "invalid" in load.detail:
            return "hint.forged_reply"
        return {"timeout": "hint.load_timeout", "crashed": "hint.crashed"}.get(load.status, f"hint.{load.status}")
    if run.problem == "crashed":
        if "invalid" in run.detail:
            return "hint.forged_reply"
        if "raised" in run.detail:
            return "hint.broken_child"
        return "hint.crashed_signal" if run.detail.get("signal") else "hint.crashed"
    return {"timeout": "hint.timeout", "missing_function": "hint.missing_function",
            "memory": "hint.memory"}.get(run.problem, "hint.crashed")


def check(student: StudentRun, case: Case) -> Verdict:
    """Run one case on a student file and judge what came back."""
    run = student.run_case(case)
    return judge(case, run, student.load)
