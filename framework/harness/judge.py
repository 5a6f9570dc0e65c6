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
from framework.tags import ALL_TAGS, ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


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
    answered = list(zip(case.examples, run.calls))
    for index, (example, call) in enumerate(answered):
        verdict = _judge_call(case, index, example, call, answered)
        if verdict is not None:
            verdict.seconds = run.seconds
            return verdict
    if run.problem is None and len(run.calls) == len(case.examples):
        return Verdict(case, True, seconds=run.seconds)
    index = len(run.calls) if len(run.calls) < len(case.examples) else None
    facts = dict(run.detail, load=load)
    return Verdict(case, False, run.problem or "no_answer", index, _problem_hint(case, run, load), facts, run.seconds)


def _judge_call(case: Case, index: int, example: Example, call: CallRecord, answered: list) -> Verdict | None:
    facts = {"output": call.output}
    if example.raises:
        return _judge_raise(case, index, example, call, facts)
    if call.raised is not None:
        facts["raised"] = call.raised
        return Verdict(case, False, "raised", index, exception_hint(call.raised, case.function), facts)
    returned = call.returned or {}
    facts["returned"] = returned
    got = "str" if returned.get("kind") == "str" else returned.get("type", "?")
    wanted = type(example.expected).__name__  # str, list for trim_history, NoneType when None is the answer
    if got == wanted == "NoneType":
        return None
    if got != wanted or returned.get("kind") == "other":  # "other": not plain data, e.g. a str subclass inside
        return Verdict(case, False, "wrong_type", index, _type_hint(case, example, got, returned, call.output), facts)
    actual = returned["value"]
    if actual != example.expected or "length" in returned:
        facts.update(expected=example.expected, actual=actual)
        others = [(other, _str_value(reply)) for other, reply in answered
                  if other is not example and _str_value(reply) is not None]
        return Verdict(case, False, "wrong_value", index, mistake_hint(case, example, actual, others), facts)
    if example.fresh and returned.get("is_argument"):
        return Verdict(case, False, "same_object", index, "hint.trim_new_list", facts)
    if example.unchanged and call.args_after != list(example.args):
        facts.update(before=list(example.args), after=call.args_after)
        return Verdict(case, False, "modified_input", index, case.hint, facts)
    return None


def _str_value(call: CallRecord):
    returned = call.returned or {}
    return returned.get("value") if returned.get("kind") == "str" else None


def _type_hint(case: Case, example: Example, got: str, returned: dict, output: dict) -> str:
    if got == "NoneType":
        if None in example.mistakes:
            return example.mistakes[None]
        return "hint.printed_not_returned" if (output or {}).get("text", "").strip() else "hint.none_returned"
    if returned.get("str_subclass"):
        return "hint.str_subclass"
    wanted = type(example.expected).__name__
    return {"str": "hint.not_str", "list": "hint.not_list"}.get(wanted, case.hint)


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


def mistake_hint(case: Case, example: Example, actual, others=()) -> str:
    """The hint for a wrong value: a known mistake of this example, else a slip the judge recognises in it,
    else the case's hint.  `others` holds (example, returned str) for the case's other answered calls: a
    slip that would have made one of them come out differently is not the one (e.g. `=` instead of `+=`
    and a dropped system message read the same on [system, user], but not on [user, assistant, user])."""
    if case.section == "rewrite":  # the slips further below are the prompt's and the reply's (F and E rules)
        return _rewrite_slip(example.expected, actual) or example.mistakes.get(actual, case.hint)
    if not isinstance(actual, str):
        return _history_slip(example.expected, actual) or case.hint
    for candidate in (actual, actual.strip()):
        if candidate in example.mistakes:
            return example.mistakes[candidate]
    found = slips(example, actual)
    fitting = [hint for hint in found if all(_fits(hint, other, value) for other, value in others)]
    return (fitting or found or [case.hint])[0]


def slips(example: Example, actual: str) -> list:
    """Every slip that explains `actual` as the answer to `example`, most specific first."""
    given = example.args[0] if example.args else None
    found = [hint for hint, rewrite in _REWRITES if _rewritten(rewrite, example.expected) == actual]
    return found + [hint for diagnose in _SLIPS if (hint := diagnose(example.expected, actual, given))]


def _fits(hint: str, example: Example, value: str) -> bool:
    """Whether the slip `hint`, where it can be replayed on an expected prompt, gives `value` for `example`."""
    rewrite = dict(_REWRITES).get(hint)
    replayed = _rewritten(rewrite, example.expected) if rewrite else None
    return replayed is None or replayed == value


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


# --- slips: each is (expected, actual, given) -> hint or None; `given` is the call's first argument ----------
# A prompt slip looks at how `actual` differs from the expected prompt; a reply slip also at the raw
# output it was cut from.  None of them computes a correct answer: the expected values come from cases.py.

def _empty(expected: str, actual: str, given):
    if actual != "" or expected == "":
        return None
    if not isinstance(given, str):
        return "hint.returned_empty"  # format_prompt: plausibly not written yet
    # extract_response: with no tag, rule E1; with one, not written yet or cut at the reply's very start
    return "hint.empty_reply" if ASSISTANT_TAG in given else "hint.empty_when_no_tag"


def _end_tags(expected: str, actual: str, given):
    """A prompt: <|end|> after every message, on the content line (Phi-3's template) or on a line of its own."""
    if isinstance(given, str) or END_TAG in expected or END_TAG not in actual:
        return None
    return "hint.end_tag_in_prompt" if expected in (actual.replace(END_TAG + "\n", ""), actual.replace(END_TAG, "")) \
        else None


_NOT_CUT = {USER_TAG: "hint.no_cut_user", SYSTEM_TAG: "hint.no_cut_system", END_TAG: "hint.no_cut_end"}


def _not_cut(expected: str, actual: str, given):
    """A reply: the first boundary in it, and what follows, left in; cut there it is the answer (rule E3).
    (A reply taken after the last <|assistant|> holds none; one that does is another slip, e.g. a fallback.)"""
    if not isinstance(given, str) or ASSISTANT_TAG not in given or ASSISTANT_TAG in actual:
        return None
    found = [(actual.find(tag), tag) for tag in _NOT_CUT if tag in actual and tag not in expected]
    if not found:
        return None
    at, tag = min(found)
    return _NOT_CUT[tag] if actual[:at].strip() == expected else None


def _crlf(expected: str, actual: str, _given):
    return "hint.crlf" if "\r\n" in actual and "\r\n" not in expected and \
        actual.replace("\r\n", "\n") == expected else None


def _blank_lines(expected: str, actual: str, _given):
    return "hint.blank_line" if "\n\n" in actual and re.sub(r"\n{2,}", "\n", actual) == expected else None


# A rewrite replays a slip on the expected prompt (its (tag, content) pairs): the expected value written
# the way that slip writes it.  It never computes an answer from the input; it only reshapes cases.py's.
_REWRITES = (
    ("hint.no_generation_tag", lambda pairs: _messages(pairs)),
    ("hint.generation_tag_newline", lambda pairs: _messages(pairs) + ASSISTANT_TAG),
    ("hint.generation_tag_twice", lambda pairs: _messages(pairs) + 2 * GENERATION_LINE),
    ("hint.generation_at_start", lambda pairs: GENERATION_LINE + _messages(pairs)),
    ("hint.content_before_tag", lambda pairs: _messages(pairs, "{content}\n{tag}\n") + GENERATION_LINE),
    ("hint.tag_same_line", lambda pairs: _messages(pairs, "{tag}{content}\n") + GENERATION_LINE),
    ("hint.missing_newline", lambda pairs: _messages(pairs, "{tag}\n{content}") + GENERATION_LINE),
    ("hint.generation_after_every_user", lambda pairs: "".join(
        f"{tag}\n{content}\n" + GENERATION_LINE * (tag == USER_TAG) for tag, content in pairs)),
    ("hint.history_lost", lambda pairs: _messages(pairs[-1:]) + GENERATION_LINE if len(pairs) > 1 else None),
    ("hint.system_dropped", lambda pairs: _messages([p for p in pairs if p[0] != SYSTEM_TAG]) + GENERATION_LINE),
)


def _messages(pairs, layout: str = "{tag}\n{content}\n") -> str:
    return "".join(layout.format(tag=tag, content=content) for tag, content in pairs)


def _rewritten(rewrite, expected):
    """The expected prompt as a slip writes it; None where it is no prompt or the slip changes nothing."""
    pairs = _prompt_pairs(expected) if isinstance(expected, str) else None
    if pairs is None:
        return None
    written = rewrite(pairs)
    return None if written == expected else written


def _prompt_pairs(prompt: str):
    """(tag, content) pairs of a prompt in the protocol's layout, or None if it is not one."""
    if not prompt.endswith(GENERATION_LINE):
        return None
    lines = prompt[:-len(GENERATION_LINE)].split("\n")[:-1]
    pairs = list(zip(lines[0::2], lines[1::2]))
    if len(lines) % 2 or any(tag not in ROLE_TAGS for tag, _ in pairs):
        return None
    return pairs


def _lines(expected: str, actual: str, _given):
    """Same lines except some tag lines (another tag, a misspelt one, the role's name) or some content lines."""
    expected_lines, actual_lines = expected.split("\n"), actual.split("\n")
    if len(expected_lines) != len(actual_lines) or not expected.endswith(GENERATION_LINE):
        return None
    wrong = [(e, a) for e, a in zip(expected_lines, actual_lines) if e != a]
    if wrong and all(e.strip() == a.strip() for e, a in wrong):
        return "hint.whitespace_only"
    if wrong and all(e in ROLE_TAGS for e, _ in wrong):
        if all(a in ROLE_TAGS or not a.strip() for _, a in wrong):
            return "hint.system_as_user" if (SYSTEM_TAG, USER_TAG) in wrong else "hint.role_mapping"
        return "hint.tag_spelling"
    if wrong and not any(e in ROLE_TAGS or a in ROLE_TAGS for e, a in wrong):
        return "hint.content_verbatim"
    return None


_TAG_LIKE = re.compile(r"<\|[^<>|\n]{0,20}\|>")  # a tag as a student might misspell it: short, on one line


def _tag_spelling(expected: str, actual: str, _given):
    """A <|...|> that is none of the four tags and not in the expected value: typed by hand, misspelt."""
    known = set(ALL_TAGS.values()) | set(_TAG_LIKE.findall(expected))
    return "hint.tag_spelling" if set(_TAG_LIKE.findall(actual)) - known else None


def _tag_text_left(expected: str, actual: str, given):
    """The reply starts with (the end of) a tag: the slice began at the tag, or a character or so after it."""
    if not isinstance(given, str):
        return None
    shown = actual.strip()
    for tag in ALL_TAGS.values():
        for cut in range(len(tag)):
            if shown.startswith(tag[cut:]) and shown[len(tag) - cut:].strip() == expected:
                return "hint.tag_text_left"
    return None


def _strip_before_cut(expected: str, actual: str, given):
    """Whitespace left only at the end, exactly where a boundary followed: stripped first, cut after."""
    if not isinstance(given, str) or actual.strip() != expected or actual.lstrip() != actual or actual == expected:
        return None
    return "hint.strip_after_cut" if any(actual + tag in given for tag in BOUNDARIES) else None


def _trim(expected: str, actual: str, _given):
    if actual.strip() != expected:
        return None
    one_side = actual.lstrip() == expected or actual.rstrip() == expected
    return "hint.trim_one_side" if one_side else "hint.not_trimmed"


def _cut_at_newline(expected: str, actual: str, given):
    """A reply of several lines came back as one (or some) of them."""
    shown = actual.strip()
    if not isinstance(given, str) or "\n" not in expected or not shown or shown == expected:
        return None
    return "hint.cut_at_newline" if f"\n{shown}\n" in f"\n{expected}\n" else None


def _removed_not_cut(expected: str, actual: str, given):
    """The boundary tags were deleted, but the text after them kept."""
    if not isinstance(given, str) or not expected or not actual.startswith(expected) or actual.strip() == expected:
        return None
    if _TAG_LIKE.search(actual):
        return None
    after = given[given.find(expected) + len(expected):].lstrip() if expected in given else ""
    return "hint.removed_not_cut" if after.startswith(BOUNDARIES) else None


def _whitespace(expected: str, actual: str, given):
    """Only whitespace differs: in a prompt (F1's layout) or in a reply (E3's cut, E4's trim)."""
    if actual.split() != expected.split():
        return None
    return "hint.whitespace_only_reply" if isinstance(given, str) else "hint.whitespace_only"


_SLIPS = (_empty, _end_tags, _not_cut, _crlf, _blank_lines, _lines, _tag_spelling, _tag_text_left, _strip_before_cut,
          _trim, _cut_at_newline, _removed_not_cut, _whitespace)

ROLE_TAGS = (SYSTEM_TAG, USER_TAG, ASSISTANT_TAG)
BOUNDARIES = tuple(ALL_TAGS.values())  # every tag ends a reply (rule E3)

_EXCEPTION_HINTS = {
    "SystemExit": "hint.raised_exit",
    "KeyboardInterrupt": "hint.raised_interrupt",
    "EOFError": "hint.reads_input",
    "RecursionError": "hint.recursion",
    "MemoryError": "hint.memory",
    "NameError": "hint.name_error",
}


def exception_hint(raised: dict, function: str = "") -> str:
    """The hint for an exception a function raised: by its type, and for the likely slips by what it says."""
    kind, message = raised.get("type", ""), raised.get("message", "")
    if kind == "AttributeError" and "'dict' object has no attribute" in message:
        return "hint.dict_access"  # message.role instead of message["role"]
    if kind == "ValueError" and "substring not found" in message:
        return "hint.substring_not_found"  # str.index / rindex instead of find / rfind
    if function == "format_prompt" and kind == "UnboundLocalError":
        return "hint.unbound_tag"  # an if/elif over the roles without else
    if function == "format_prompt" and kind == "KeyError":
        role = message.strip("'\"")
        return "hint.role_key_missing" if role in ("system", "user", "assistant") else "hint.message_keys"
    if function == "extract_response" and kind == "IndexError":
        return "hint.split_index"  # output.split(tag)[1] with no tag in the output
    if kind == "ModuleNotFoundError" and message in ("No module named 'tags'", "No module named 'student'"):
        return "hint.import_tags"  # from tags import ...: runs beside tags.py, not in the tests
    return _EXCEPTION_HINTS.get(kind, "hint.raised")


def _problem_hint(case: Case, run: CaseRun, load: LoadOutcome) -> str:
    if run.problem == "load_failed":
        if load.status == "import_error" and load.detail.get("type") == "EOFError":
            return "hint.load_reads_input"  # input() at the top level, e.g. a chat loop
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
    if run.problem == "timeout":  # the loop a student writes differs: over the messages, or a search
        return "hint.timeout_prompt" if case.function == "format_prompt" else "hint.timeout"
    return {"missing_function": "hint.missing_function", "memory": "hint.memory"}.get(run.problem, "hint.crashed")


def check(student: StudentRun, case: Case) -> Verdict:
    """Run one case on a student file and judge what came back."""
    run = student.run_case(case)
    return judge(case, run, student.load)
