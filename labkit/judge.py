"""Judges the values a student's functions returned against a check's examples, and names the likely mistake.

It sees only data the child sent back; the hint is the lab's detectors' where they know one, else its own.
Why: docs/design.md#labkitjudgepy
"""

from __future__ import annotations

from dataclasses import dataclass, field

from labkit.run.engine import CallRecord, CaseRun, LoadOutcome, runtime
from labkit.spec import Case, Example


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


class Detectors:
    """A lab's mistake detectors, asked before the judge's own hints; each says None where it knows nothing
    more.  This base knows nothing (a lab without detectors gets the judge's own hints only)."""

    def wrong_value(self, case: Case, example: Example, actual, others=()) -> str | None:
        """The hint for `actual`, a wrong value of the wanted type; `others` holds (example, returned str) pairs
        of the same check, which tell apart slips that explain `actual` equally well.  Asked before the
        example's known mistakes, which a detector may weigh against its own slips."""
        return None

    def raised(self, raised: dict, function: str, given) -> str | None:
        """The hint for an exception (`raised`: type, message) of `function` called on `given` (its first
        argument; None at load).  Asked after the exceptions any lab names alike (exit, recursion, …)."""
        return None

    def problem(self, problem: str, case: Case, example: Example | None = None) -> str | None:
        """The hint for a problem of `case`: "timeout", "none_returned" (`example` came back None),
        "same_object" (an argument came back), "modified_input" (an argument changed), "no_exception" (`example`
        demands one and a value came back), "wrong_exception" (another type was raised) or "not_mentioned" (the
        exception demanded, without the word its message must contain)."""
        return None


NO_DETECTORS = Detectors()


def judge(
    case: Case, run: CaseRun, load: LoadOutcome | None, context=(), detectors: Detectors = NO_DETECTORS
) -> Verdict:
    """The verdict for `case`: the first example that fails decides; every answered call is judged.
    `context` holds more (example, returned str) pairs of the same check (other drawn inputs): like the
    case's other examples, they tell apart slips that explain the deciding call equally well.  The hints are
    the lab's `detectors`' where they name one.  `load` is the file's (None where the submission's budget ran
    out before it was loaded)."""
    answered = list(zip(case.examples, run.calls))
    for index, (example, call) in enumerate(answered):
        verdict = _judge_call(case, index, example, call, answered, context, detectors)
        if verdict is not None:
            verdict.seconds = run.seconds
            return verdict
    if run.problem is None and len(run.calls) == len(case.examples):
        return Verdict(case, True, seconds=run.seconds)
    unanswered = len(run.calls) if len(run.calls) < len(case.examples) else None
    facts = dict(run.detail, load=load)
    if unanswered is not None:
        facts["expected"] = case.examples[unanswered].expected
    return Verdict(
        case,
        False,
        run.problem or "no_answer",
        unanswered,
        _problem_hint(case, run, load, detectors),
        facts,
        run.seconds,
    )


def _judge_call(
    case: Case, index: int, example: Example, call: CallRecord, answered: list, context, detectors: Detectors
) -> Verdict | None:
    facts: dict[str, object] = {"output": call.output}
    if example.raises:
        return _judge_raise(case, index, example, call, facts, detectors)
    facts["expected"] = example.expected
    if call.raised is not None:
        facts["raised"] = call.raised
        return Verdict(
            case,
            False,
            "raised",
            index,
            exception_hint(call.raised, case.function, first_argument(example), detectors),
            facts,
        )
    returned = call.returned or {}
    facts["returned"] = returned
    got = "str" if returned.get("kind") == "str" else returned.get("type", "?")
    wanted = type(example.expected).__name__  # str, list, NoneType when None is the answer
    if got == wanted == "NoneType":
        return None
    if got != wanted or returned.get("kind") == "other":  # "other": not plain data, e.g. a str subclass inside
        return Verdict(
            case, False, "wrong_type", index, _type_hint(case, example, got, returned, call.output, detectors), facts
        )
    actual = returned["value"]
    if not same_data(actual, example.expected) or "length" in returned:
        facts["actual"] = actual
        others = [
            (other, _str_value(reply))
            for other, reply in answered
            if other is not example and _str_value(reply) is not None
        ]
        hint = detectors.wrong_value(case, example, actual, others + list(context)) or _known(example, actual)
        return Verdict(case, False, "wrong_value", index, hint or case.hint, facts)
    if example.fresh and returned.get("is_argument"):
        hint = detectors.problem("same_object", case, example) or case.hint
        return Verdict(case, False, "same_object", index, hint, facts)
    if example.unchanged and call.args_after != list(example.args):
        facts.update(before=list(example.args), after=call.args_after)
        hint = detectors.problem("modified_input", case, example) or case.hint
        return Verdict(case, False, "modified_input", index, hint, facts)
    return None


def same_data(actual, expected) -> bool:
    """Whether two returned values are the same data, types included all the way down: `True` is not `1` and
    `1.0` is not `1` (Python's == says they are), so a bool where an int is wanted, or a float for an int, is a
    wrong value inside a dict or a list too (a JSON client sees `true`, not `1`)."""
    stack = [(actual, expected)]
    while stack:  # iterative: a value a student returned may be deep
        one, other = stack.pop()
        if type(one) is not type(other):
            return False
        if isinstance(one, dict):
            if one.keys() != other.keys():
                return False
            stack.extend((one[key], other[key]) for key in one)
        elif isinstance(one, list):
            if len(one) != len(other):
                return False
            stack.extend(zip(one, other))
        elif one != other:
            return False
    return True


def differing_path(expected, actual) -> tuple | None:
    """Where two values first differ, as the keys and indices that lead there (() for the values themselves),
    looking at dict keys in the expected order, then the actual value's other keys; None when they are the same
    data (`same_data`)."""
    path: list = []
    while True:
        if type(expected) is not type(actual):
            return tuple(path)
        if isinstance(expected, dict):
            keys = [key for key in expected if key not in actual or not same_data(actual[key], expected[key])]
            extra = [key for key in actual if key not in expected]
            if not keys and not extra:
                return None
            if not keys or keys[0] not in actual:
                return tuple(path + [keys[0] if keys else extra[0]])
            path.append(keys[0])
            expected, actual = expected[keys[0]], actual[keys[0]]
        elif isinstance(expected, list):
            at = next((i for i, (e, a) in enumerate(zip(expected, actual)) if not same_data(a, e)), None)
            if at is None:
                return None if len(expected) == len(actual) else tuple(path + [min(len(expected), len(actual))])
            path.append(at)
            expected, actual = expected[at], actual[at]
        else:
            return None if expected == actual else tuple(path)


def first_argument(example: Example):
    """What a call was given first: the input whose shape a hint may be about."""
    return example.args[0] if example.args else None


def _known(example: Example, actual):
    """The example's known mistake that gives exactly `actual`, if any."""
    return example.mistakes.get(actual) if isinstance(actual, str) else None


def _str_value(call: CallRecord):
    returned = call.returned or {}
    return returned.get("value") if returned.get("kind") == "str" else None


def _type_hint(case: Case, example: Example, got: str, returned: dict, output: dict, detectors: Detectors) -> str:
    if got == "NoneType":
        if None in example.mistakes:
            return example.mistakes[None]
        if (output or {}).get("text", "").strip():
            return "hint.printed_not_returned"
        return detectors.problem("none_returned", case, example) or "hint.none_returned"
    if returned.get("str_subclass"):
        return "hint.str_subclass"
    wanted = type(example.expected).__name__
    return {"str": "hint.not_str", "list": "hint.not_list"}.get(wanted, case.hint)


def _judge_raise(
    case: Case, index: int, example: Example, call: CallRecord, facts: dict, detectors: Detectors
) -> Verdict | None:
    """The protocol demands an exception of `example.raises` (or a subclass) whose message names a word."""
    facts.update(demanded=example.raises, mentions=example.mentions)
    raised = call.raised
    if raised is None:
        facts["returned"] = call.returned or {}
        return Verdict(
            case, False, "no_exception", index, detectors.problem("no_exception", case, example) or case.hint, facts
        )
    facts["raised"] = raised
    if example.raises not in raised.get("kinds", [raised.get("type")]):
        return Verdict(
            case,
            False,
            "wrong_exception",
            index,
            detectors.problem("wrong_exception", case, example) or case.hint,
            facts,
        )
    if example.mentions and example.mentions not in raised.get("message", ""):
        hint = detectors.problem("not_mentioned", case, example) or case.hint
        return Verdict(case, False, "wrong_exception", index, hint, facts)
    return None


def first_difference(expected: str, actual: str) -> int:
    """The index of the first character where the two differ (the shorter one's length if one is a prefix
    of the other); slices are compared a block at a time, so a long value costs little."""
    limit, at, block = min(len(expected), len(actual)), 0, 4096
    while at < limit and expected[at : at + block] == actual[at : at + block]:
        at += block
    end = min(at + block, limit)
    return next((i for i in range(at, end) if expected[i] != actual[i]), end)


# --- exceptions and problems ------------------------------------------------------------------------

_EXCEPTION_HINTS = {
    "SystemExit": "hint.raised_exit",
    "KeyboardInterrupt": "hint.raised_interrupt",
    "EOFError": "hint.reads_input",
    "RecursionError": "hint.recursion",
    "MemoryError": "hint.memory",
    "NameError": "hint.name_error",
}


def _beside() -> tuple[str, ...]:
    """What an import of the lab's given module, or of the student's own file, by its bare name says: it ran
    beside them."""
    lab = runtime()
    return tuple(f"No module named '{name}'" for name in (lab.given["module"].rpartition(".")[2], lab.module))


def exception_hint(raised: dict, function: str = "", given=None, detectors: Detectors = NO_DETECTORS) -> str:
    """The hint for an exception a function raised: by its type, then the lab's detectors' (for the likely
    slips by what it says, otherwise by the shape of the input it broke on: `given`, the call's first
    argument)."""
    kind, message = raised.get("type", ""), raised.get("message", "")
    if kind in _EXCEPTION_HINTS:
        return _EXCEPTION_HINTS[kind]
    if kind == "ModuleNotFoundError" and message in _beside():
        return "hint.import_tags"  # from tags import ...: runs beside the given module, not in the tests
    return detectors.raised(raised, function, given) or "hint.raised"


def _problem_hint(case: Case, run: CaseRun, load: LoadOutcome | None, detectors: Detectors) -> str:
    if run.problem == "load_failed":
        assert load is not None  # a load failed only once the file was loaded (StudentRun.start)
        if load.status == "import_error" and load.detail.get("type") == "EOFError":
            return "hint.load_reads_input"  # input() at the top level, e.g. a chat loop
        if load.status == "import_error" and exception_hint(load.detail, detectors=detectors) != "hint.raised":
            return exception_hint(load.detail, detectors=detectors)
        if load.status == "crashed" and "invalid" in load.detail:
            return "hint.forged_reply"
        return {"timeout": "hint.load_timeout", "crashed": "hint.crashed"}.get(load.status, f"hint.{load.status}")
    if run.problem == "crashed":
        if "invalid" in run.detail:
            return "hint.forged_reply"
        if "raised" in run.detail:
            return "hint.broken_child"
        return "hint.crashed_signal" if run.detail.get("signal") else "hint.crashed"
    if run.problem == "timeout":
        return detectors.problem("timeout", case) or "hint.timeout"
    others: dict[str | None, str] = {
        "missing_function": "hint.missing_function",
        "memory": "hint.memory",
        "disk": "hint.disk",
    }
    return others.get(run.problem, "hint.crashed")  # None too: calls missing without a problem (no_answer)
