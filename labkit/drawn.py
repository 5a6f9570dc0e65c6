"""Runs a check whose inputs are drawn: smallest inputs first, then the first failure shrunk, in bounded calls.

Each drawn input goes through the same engine and judge as a table case, as a one-example case of its own,
so a failure renders exactly like one of the six.  The number of calls is bounded (`count` to look for a
failure, `SHRINK_CALLS` to shrink it); a call that hangs or crashes costs one case limit and ends the check
as a failure.  Nothing here reads a clock to decide anything, so the same student file gives the same
verdict on every run.  What is drawn, and what the protocol demands of it, is the lab's (`Inputs`); how an
input shrinks is generic: a drawn input (a "specimen") is plain data, lists (items that may be dropped),
tuples (fixed records) and strings, and `smaller` lists the candidates strictly smaller than it.
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field, replace
from typing import Callable

from labkit.judge import NO_DETECTORS, Detectors, Verdict, judge
from labkit.run.engine import CaseRun, StudentRun

SHRINK_CALLS = 60  # calls spent at most on shrinking one failure
BATCH = 32  # drawn inputs screened in one request
MAX_SIZE = 12  # the largest size asked of a draw; sizes go round 0, 1, … MAX_SIZE


def seed_of(*parts: str) -> int:
    """A 64-bit seed from text (the same on every machine, unlike hash())."""
    return int.from_bytes(hashlib.sha256("\0".join(parts).encode("utf-8")).digest()[:8], "big")


@dataclass(frozen=True)
class Inputs:
    """What a drawn check draws and demands: how to draw an input, the example the protocol demands for it,
    which inputs are inside the protocol, outputs of known mistakes, and what shrinking must keep whole."""

    draw: Callable  # (random.Random, size) -> specimen
    demand: Callable  # (specimen, reference) -> Example (without mistakes); reference: the solution module or None
    valid: Callable = lambda specimen: True
    mistakes: Callable = lambda specimen, example: {}  # exact wrong output -> hint key, for the one shown
    atomic: frozenset = frozenset()  # strings that shrink only by being dropped whole
    edges: tuple = ((), ())  # (heads, tails): what a cut string may begin or end with only if it did before
    count: int = 24  # inputs drawn when the draw is fixed or the check has no `share`
    share: int = 0  # per cent of the course's count of inputs per student: drawn per student only (grading)

    def smaller(self, value):
        """Every candidate strictly smaller than `value` (see `smaller`), with this check's atoms and edges."""
        return smaller(value, self.atomic, self.edges)


@dataclass
class Attempt:
    """One drawn input tried: the input, the verdict on it and the call behind that verdict."""

    specimen: object
    verdict: Verdict
    run: CaseRun = field(repr=False)


def specimens(inputs: Inputs, seed: int, count: int):
    """Up to `count` distinct valid inputs drawn with `seed`, one at a time (so a check that fails early draws
    little), their sizes going round 0, 1, … MAX_SIZE, 0, 1, … so that every size comes early."""
    rng = random.Random(seed)
    seen = set()
    for index in range(count):
        specimen = inputs.draw(rng, index % (MAX_SIZE + 1))
        key = repr(specimen)
        if key not in seen and inputs.valid(specimen):
            seen.add(key)
            yield specimen


def explore(student: StudentRun, case, inputs: Inputs, drawn, reference=None, detectors: Detectors = NO_DETECTORS,
            shrink_calls: int = SHRINK_CALLS) -> Verdict:
    """The verdict of the drawn check `case` on the specimens `drawn` (from `specimens`): a pass, or the
    smallest failure found, with the hints of the lab's `detectors`.  Inputs go to the child BATCH at a time,
    one request each (each call keeps its own limit and printed output), the first one alone (`_answers`)."""
    started = time.monotonic()
    check = _Check(case, inputs, reference, detectors)
    found, tried, context = None, 0, []
    drawn = iter(drawn)
    while found is None:
        chunk = [specimen for _, specimen in zip(range(BATCH), drawn)]
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
        return Verdict(case, True, seconds=time.monotonic() - started)
    found, shrunk = _shrink(student, check, found, shrink_calls)
    verdict = judge(found.verdict.case, found.run, student.load, context, detectors)
    verdict.facts["drawn"] = {"tried": tried, "shrunk": shrunk}
    verdict.seconds = time.monotonic() - started
    return verdict


@dataclass(frozen=True)
class _Check:
    """One drawn check as explored: its case, its inputs, the reference its demands may ask, the detectors."""

    case: object
    inputs: Inputs
    reference: object
    detectors: Detectors

    def demand(self, specimen):
        return self.inputs.demand(specimen, self.reference)


def _answers(student: StudentRun, check: _Check, chunk: list, examples: list, alone: bool) -> tuple[list, Attempt | None]:
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


def _with_mistakes(check: _Check, specimen, example):
    """`example` with the outputs of the known mistakes `specimen` can show (worked out only for a failure)."""
    return replace(example, mistakes=check.inputs.mistakes(specimen, example))


def _attempt(student: StudentRun, check: _Check, specimen) -> Attempt:
    """One drawn input tried in a call of its own (shrinking tries one candidate at a time)."""
    example = check.demand(specimen)
    return _judged(check, specimen, example, *student.call(check.case.function, list(example.args)), student)


def _judged(check: _Check, specimen, example, record, problem, detail, student: StudentRun) -> Attempt:
    """The verdict on one drawn input; a failure is judged again with the known mistakes of its input."""
    run = CaseRun(calls=[record] if record is not None else [], problem=problem, detail=detail,
                  seconds=record.seconds if record is not None else 0.0)
    verdict = judge(replace(check.case, examples=(example,)), run, student.load, (), check.detectors)
    if not verdict.passed:
        verdict = judge(replace(check.case, examples=(_with_mistakes(check, specimen, example),)), run, student.load,
                        (), check.detectors)
    return Attempt(specimen, verdict, run)


def _shrink(student: StudentRun, check: _Check, found: Attempt, calls: int) -> tuple[Attempt, str]:
    """Greedy: take the first smaller input that still fails the same way (`_same_failure`), again and
    again, within `calls` calls.  First, one call on the check's smallest input (`smallest`): a failure
    that does not depend on the input (a function that always raises, returns None or the wrong type)
    shows there, with its hint, and nothing is smaller.  A failure without a value (a hang, a crash) is
    never shrunk further: each try could cost the limit.  Also says how it ended: "minimal" (nothing smaller
    fails that way), "budget" (out of calls) or "stopped"."""
    tried: set = set()
    bottom = smallest(check.inputs, found.specimen)
    if found.run.calls and calls and bottom != found.specimen and found.verdict.hint != check.case.hint:
        tried.add(repr(bottom))
        calls -= 1
        attempt = _attempt(student, check, bottom)
        if _same_failure(attempt.verdict, found.verdict, check):
            return attempt, "minimal"  # no valid input is smaller: the greedy steps would only lead here
    while found.run.calls:  # a value came back (with none, a hang or a crash, stop there)
        if calls == 0:
            return found, "budget"
        for candidate in check.inputs.smaller(found.specimen):
            key = repr(candidate)
            if key in tried or not check.inputs.valid(candidate):
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


def smallest(inputs: Inputs, specimen):
    """Where taking the first valid smaller candidate (`Inputs.smaller`) again and again leads from
    `specimen`: an input of the check with no valid smaller one at all (a history emptied, or down to its one
    unknown role; strings cut to nothing), found without a call."""
    while True:
        candidate = next((candidate for candidate in inputs.smaller(specimen) if inputs.valid(candidate)), None)
        if candidate is None:
            return specimen
        specimen = candidate


def _same_failure(candidate: Verdict, found: Verdict, check: _Check) -> bool:
    """Whether a smaller input fails as the one found does: the same problem and the same hint (or any hint,
    while the found one is only the check's own).  So a shrunk input shows the mistake that was found, not
    another one it happens to look like once it is small (a reply cut down to a tag's last character)."""
    if candidate.passed or candidate.problem != found.problem:
        return False
    return candidate.hint == found.hint or found.hint == check.case.hint


# --- size and shrinking ------------------------------------------------------------------------------

def measure(value) -> tuple:
    """(items, characters): fewer messages or pieces first, then shorter strings."""
    if isinstance(value, str):
        return (0, len(value))
    items, chars = (len(value), 0) if isinstance(value, list) else (0, 0)
    for item in value:
        more_items, more_chars = measure(item)
        items, chars = items + more_items, chars + more_chars
    return (items, chars)


def cuts(sequence):
    """`sequence` with one run of items removed: all of it, then halves, quarters, … single items."""
    length = len(sequence)
    run = length
    while run >= 1:
        for start in range(0, length - run + 1, run):
            yield sequence[:start] + sequence[start + run:]
        run //= 2


def smaller(value, atomic=frozenset(), edges=((), ())):
    """Every candidate strictly smaller than `value` (an item or characters fewer), biggest cuts first.  A
    string in `atomic` is only ever dropped whole.  A string is never cut to begin with one of `edges`' heads
    or end with one of its tails unless it did already (for a lab with tags such as "<|x|>": ">" or "|>"
    after a tag, "<" or "<|" before one): next to the real thing such a piece reads as part of it, and a slip that misplaces a slice
    by a character or two would explain the shrunk input as well as the mistake that was found."""
    if isinstance(value, str):
        if value not in atomic:
            heads, tails = edges
            old = value.startswith(heads), value.endswith(tails)
            yield from (cut for cut in cuts(value)
                        if cut == "" or all(new <= was for new, was in zip((cut.startswith(heads), cut.endswith(tails)),
                                                                            old)))
    elif isinstance(value, list):
        yield from cuts(value)
        for index, item in enumerate(value):
            for candidate in smaller(item, atomic, edges):
                yield value[:index] + [candidate] + value[index + 1:]
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            for candidate in smaller(item, atomic, edges):
                yield value[:index] + (candidate,) + value[index + 1:]
