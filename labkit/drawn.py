"""Runs a check whose inputs are drawn: smallest inputs first, then the first failure shrunk, in bounded calls.

Each drawn input goes through the same engine and judge as a table case, as a one-example case of its own,
so a failure renders exactly like one of the six.  The number of calls is bounded (`count` to look for a
failure, `SHRINK_CALLS` to shrink it); a call that hangs or crashes costs one case limit and ends the check
as a failure.  Nothing here reads a clock to decide anything, so the same student file gives the same
verdict on every run.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace
from typing import Callable

from lab09 import generators
from labkit.spec import Case
from labkit.judge import Verdict, judge
from labkit.run.engine import CaseRun, StudentRun

SHRINK_CALLS = 60  # calls spent at most on shrinking one failure
BATCH = 32  # drawn inputs screened in one request


@dataclass(frozen=True)
class Drawn:
    """A check on drawn inputs: its case (id, function, hint; no examples), how to draw an input, what the
    protocol demands for it, which inputs are inside the protocol, and outputs of known mistakes."""

    case: Case
    draw: Callable  # (random.Random, size) -> specimen
    demand: Callable  # specimen -> Example (without mistakes)
    valid: Callable = lambda specimen: True
    mistakes: Callable = lambda specimen, example: {}  # exact wrong output -> hint key, for the one shown
    count: int = 24  # inputs drawn to look for a failure


@dataclass
class Attempt:
    """One drawn input tried: the input, the verdict on it and the call behind that verdict."""

    specimen: object
    verdict: Verdict
    run: CaseRun = field(repr=False)


def specimens(check: Drawn, seed: int, count: int | None = None):
    """Up to `count` distinct valid inputs drawn with `seed`, one at a time (so a check that fails early draws
    little), their sizes going round 0, 1, … MAX_SIZE, 0, 1, … so that every size comes early."""
    rng = random.Random(seed)
    seen = set()
    for index in range(check.count if count is None else count):
        specimen = check.draw(rng, index % (generators.MAX_SIZE + 1))
        key = repr(specimen)
        if key not in seen and check.valid(specimen):
            seen.add(key)
            yield specimen


def explore(student: StudentRun, check: Drawn, inputs, shrink_calls: int = SHRINK_CALLS) -> Verdict:
    """The verdict of `check` on `inputs` (from `specimens`): a pass, or the smallest failure found.  Inputs
    go to the child BATCH at a time, one request each (each call keeps its own limit and printed output), the
    first one alone (`_answers`)."""
    started = time.monotonic()
    found, tried, context = None, 0, []
    inputs = iter(inputs)
    while found is None:
        chunk = [specimen for _, specimen in zip(range(BATCH), inputs)]
        if not chunk:
            break
        examples = [check.demand(specimen) for specimen in chunk]
        results, first = _answers(student, check, chunk, examples, alone=tried == 0)
        for specimen, example, (record, problem, detail) in zip(chunk, examples, results):
            tried += 1
            attempt = first if tried == 1 and first is not None else \
                _judged(check, specimen, example, record, problem, detail, student)
            if not attempt.verdict.passed:
                found = attempt
                break
        if found is not None:  # the batch's other answers tell apart slips that explain the failure equally well
            context = [(_with_mistakes(check, specimen, example), record.returned["value"])
                       for specimen, example, (record, _, _) in zip(chunk, examples, results)
                       if specimen is not found.specimen and record is not None
                       and (record.returned or {}).get("kind") == "str"]
    if found is None:
        return Verdict(check.case, True, seconds=time.monotonic() - started)
    found, shrunk = _shrink(student, check, found, shrink_calls)
    verdict = judge(found.verdict.case, found.run, student.load, context)
    verdict.facts["drawn"] = {"tried": tried, "shrunk": shrunk}
    verdict.seconds = time.monotonic() - started
    return verdict


def _answers(student: StudentRun, check: Drawn, chunk: list, examples: list, alone: bool) -> tuple[list, Attempt | None]:
    """The child's answers for a chunk of inputs, and the first input's attempt when it was asked `alone`.
    The first chunk's first input, the smallest drawn, goes alone: when it fails otherwise than with a wrong
    value (it raised, returned None or another type, hung), the check fails there whatever the rest would
    answer, and the rest, which could only tell apart the slips behind a wrong value, is not asked (a file
    returning a MiB-sized list cost 31 such answers per check)."""
    function = check.case.function
    if not alone or len(chunk) == 1:
        return student.call_many(function, [list(example.args) for example in examples]), None
    results = student.call_many(function, [list(examples[0].args)])
    first = _judged(check, chunk[0], examples[0], *results[0], student)
    if first.verdict.passed or first.verdict.problem == "wrong_value":
        results += student.call_many(function, [list(example.args) for example in examples[1:]])
    return results, first


def _with_mistakes(check: Drawn, specimen, example):
    """`example` with the outputs of the known mistakes `specimen` can show (worked out only for a failure)."""
    return replace(example, mistakes=check.mistakes(specimen, example))


def _attempt(student: StudentRun, check: Drawn, specimen) -> Attempt:
    """One drawn input tried in a call of its own (shrinking tries one candidate at a time)."""
    example = check.demand(specimen)
    return _judged(check, specimen, example, *student.call(check.case.function, list(example.args)), student)


def _judged(check: Drawn, specimen, example, record, problem, detail, student: StudentRun) -> Attempt:
    """The verdict on one drawn input; a failure is judged again with the known mistakes of its input."""
    run = CaseRun(calls=[record] if record is not None else [], problem=problem, detail=detail,
                  seconds=record.seconds if record is not None else 0.0)
    verdict = judge(replace(check.case, examples=(example,)), run, student.load)
    if not verdict.passed:
        verdict = judge(replace(check.case, examples=(_with_mistakes(check, specimen, example),)), run, student.load)
    return Attempt(specimen, verdict, run)


def _shrink(student: StudentRun, check: Drawn, found: Attempt, calls: int) -> tuple[Attempt, str]:
    """Greedy: take the first smaller input that still fails the same way (`_same_failure`), again and
    again, within `calls` calls.  First, one call on the check's smallest input (`smallest`): a failure
    that does not depend on the input (a function that always raises, returns None or the wrong type)
    shows there, with its hint, and nothing is smaller.  A failure without a value (a hang, a crash) is
    never shrunk further: each try could cost the limit.  Also says how it ended: "minimal" (nothing smaller
    fails that way), "budget" (out of calls) or "stopped"."""
    tried: set = set()
    bottom = smallest(check, found.specimen)
    if found.run.calls and calls and bottom != found.specimen and found.verdict.hint != check.case.hint:
        tried.add(repr(bottom))
        calls -= 1
        attempt = _attempt(student, check, bottom)
        if _same_failure(attempt.verdict, found.verdict, check):
            return attempt, "minimal"  # no valid input is smaller: the greedy steps would only lead here
    while found.run.calls:  # a value came back (with none, a hang or a crash, stop there)
        if calls == 0:
            return found, "budget"
        for candidate in generators.smaller(found.specimen):
            key = repr(candidate)
            if key in tried or not check.valid(candidate):
                continue
            tried.add(key)
            calls -= 1
            attempt = _attempt(student, check, candidate)
            if _same_failure(attempt.verdict, found.verdict, check):
                found = attempt
                break
            if calls == 0:
                return found, "budget"
        else:
            return found, "minimal"  # nothing smaller fails: a local minimum
    return found, "stopped"


def smallest(check: Drawn, specimen):
    """Where taking the first valid smaller candidate (`generators.smaller`) again and again leads from
    `specimen`: an input of the check with no valid smaller one at all (a history emptied, or down to its one
    unknown role; strings cut to nothing), found without a call."""
    while True:
        candidate = next((candidate for candidate in generators.smaller(specimen) if check.valid(candidate)), None)
        if candidate is None:
            return specimen
        specimen = candidate


def _same_failure(candidate: Verdict, found: Verdict, check: Drawn) -> bool:
    """Whether a smaller input fails as the one found does: the same problem and the same hint (or any hint,
    while the found one is only the check's own).  So a shrunk input shows the mistake that was found, not
    another one it happens to look like once it is small (a reply cut down to a tag's last character)."""
    if candidate.passed or candidate.problem != found.problem:
        return False
    return candidate.hint == found.hint or found.hint == check.case.hint
