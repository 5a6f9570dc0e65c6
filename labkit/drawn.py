"""Runs a check whose inputs are drawn: smallest inputs first, then the first failure shrunk, in bounded calls.

Each drawn input is judged as a one-example case, so a failure renders like a table case's; the same file
gets the same verdict on every run.  Why (and stencils): docs/design.md#labkitdrawnpy
"""

from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field, replace
from typing import Callable

from labkit.judge import NO_DETECTORS, Detectors, Verdict, judge
from labkit.run.engine import CaseRun, StudentRun
from labkit.spec import Case

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
    demand: Callable  # (specimen, consulted) -> Example (without mistakes); consulted: what `consult` gave, or None
    valid: Callable = lambda specimen: True
    mistakes: Callable = lambda specimen, example: {}  # exact wrong output -> hint key, for the one shown
    atomic: frozenset = frozenset()  # strings that shrink only by being dropped whole
    edges: tuple = ((), ())  # (heads, tails): what a cut string may begin or end with only if it did before
    count: int = 24  # inputs drawn when the draw is fixed or the check has no `share`
    share: int = 0  # per cent of the course's count of inputs per student: drawn per student only (grading)
    consult: Callable | None = None  # (specimen, reference) -> str: the reference's word the demand needs, if any

    def smaller(self, value):
        """Every candidate strictly smaller than `value` (see `smaller`), with this check's atoms and edges."""
        return smaller(value, self.atomic, self.edges)

    def cuts_of(self, value):
        """(candidate, cut) for every candidate of `smaller`, in its order: the cut says what was taken away."""
        return cuts_of(value, self.atomic, self.edges)


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


def explore(
    student: StudentRun,
    case,
    inputs: Inputs,
    drawn,
    reference=None,
    detectors: Detectors = NO_DETECTORS,
    shrink_calls: int = SHRINK_CALLS,
    stencils: dict | None = None,
) -> Verdict:
    """The verdict of the drawn check `case` on the specimens `drawn` (from `specimens`): a pass, or the
    smallest failure found, with the hints of the lab's `detectors`.  A check that consults the reference asks
    `reference` (the solution module), or reads `stencils` (repr(specimen) -> the stencil of what it said, kept
    as data for fixed inputs).  Inputs go to the child BATCH at a time, one request each (each call keeps its own
    limit and printed output), the first one alone (`_answers`)."""
    started = time.monotonic()
    check = _Check(case, inputs, reference, detectors, dict(stencils or {}))
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
            attempt = (
                first
                if tried == 1 and first is not None
                else _judged(check, specimen, example, record, problem, detail, student)
            )
            if not attempt.verdict.passed:
                found = attempt
                break
        if found is not None:  # the batch's other answers tell apart slips that explain the failure equally well
            context = [
                (_with_mistakes(check, specimen, example), record.returned["value"])
                for specimen, example, (record, _, _) in zip(chunk, examples, results)
                if specimen is not found.specimen
                and record is not None
                and (record.returned or {}).get("kind") == "str"
            ]
    if found is None:
        return Verdict(case, True, seconds=time.monotonic() - started)
    found, shrunk = _shrink(student, check, found, shrink_calls)
    verdict = judge(found.verdict.case, found.run, student.load, context, detectors)
    verdict.facts["drawn"] = {"tried": tried, "shrunk": shrunk}
    verdict.seconds = time.monotonic() - started
    return verdict


@dataclass(frozen=True)
class _Check:
    """One drawn check as explored: its case, its inputs, the reference it may consult (or the stencils of what
    the reference said, by repr of the specimen: fixed inputs and the smaller ones shrinking made of them), the
    detectors."""

    case: Case
    inputs: Inputs
    reference: object
    detectors: Detectors
    stencils: dict

    def demand(self, specimen):
        return self.inputs.demand(specimen, self.consulted(specimen))

    def consulted(self, specimen):
        """What the reference says of `specimen` for the demand: asked, or read from its stencil; None when the
        check consults nothing."""
        if self.inputs.consult is None:
            return None
        if self.reference is not None:
            return self.inputs.consult(specimen, self.reference)
        stencil = self.stencils.get(repr(specimen))
        if stencil is None:
            raise LookupError(
                f"{self.case.id}: nothing is kept of what the reference says of this input, and no reference was given"
            )
        return fill(stencil, specimen)

    def derive(self, parent, candidate, cut) -> None:
        """Keep the stencil of `candidate`, which `cut` made of `parent` (when the reference is not asked)."""
        if self.reference is None and repr(parent) in self.stencils:
            self.stencils.setdefault(repr(candidate), follow(self.stencils[repr(parent)], cut))


def _answers(
    student: StudentRun, check: _Check, chunk: list, examples: list, alone: bool
) -> tuple[list, Attempt | None]:
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
    run = CaseRun(
        calls=[record] if record is not None else [],
        problem=problem,
        detail=detail,
        seconds=record.seconds if record is not None else 0.0,
    )
    verdict = judge(replace(check.case, examples=(example,)), run, student.load, (), check.detectors)
    if not verdict.passed:
        verdict = judge(
            replace(check.case, examples=(_with_mistakes(check, specimen, example),)),
            run,
            student.load,
            (),
            check.detectors,
        )
    return Attempt(specimen, verdict, run)


def _shrink(student: StudentRun, check: _Check, found: Attempt, calls: int) -> tuple[Attempt, str]:
    """Greedy: take the first smaller input that still fails the same way (`_same_failure`), again and
    again, within `calls` calls.  First, one call on the check's smallest input (`smallest`): a failure
    that does not depend on the input (a function that always raises, returns None or the wrong type)
    shows there, with its hint, and nothing is smaller.  A failure without a value (a hang, a crash) is
    never shrunk further: each try could cost the limit.  Also says how it ended: "minimal" (nothing smaller
    fails that way), "budget" (out of calls) or "stopped"."""
    tried: set = set()
    bottom = smallest(check.inputs, found.specimen, check.derive)
    if found.run.calls and calls and bottom != found.specimen and found.verdict.hint != check.case.hint:
        tried.add(repr(bottom))
        calls -= 1
        attempt = _attempt(student, check, bottom)
        if _same_failure(attempt.verdict, found.verdict, check):
            return attempt, "minimal"  # no valid input is smaller: the greedy steps would only lead here
    while found.run.calls:  # a value came back (with none, a hang or a crash, stop there)
        if calls == 0:
            return found, "budget"
        for candidate, cut in check.inputs.cuts_of(found.specimen):
            key = repr(candidate)
            if key in tried or not check.inputs.valid(candidate):
                continue
            tried.add(key)
            calls -= 1
            check.derive(found.specimen, candidate, cut)
            attempt = _attempt(student, check, candidate)
            if _same_failure(attempt.verdict, found.verdict, check):
                found = attempt
                break
            if calls == 0:
                return found, "budget"
        else:
            return found, "minimal"  # nothing smaller fails: a local minimum
    return found, "stopped"


def smallest(inputs: Inputs, specimen, derive=None):
    """Where taking the first valid smaller candidate (`Inputs.smaller`) again and again leads from
    `specimen`: an input of the check with no valid smaller one at all (a history emptied, or down to its one
    unknown role; strings cut to nothing), found without a call.  `derive(parent, candidate, cut)` is told of
    each step (a check keeps its stencils that way)."""
    while True:
        step = next(((candidate, cut) for candidate, cut in inputs.cuts_of(specimen) if inputs.valid(candidate)), None)
        if step is None:
            return specimen
        if derive is not None:
            derive(specimen, *step)
        specimen = step[0]


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


def cut_spans(length: int):
    """(start, stop) of the runs of items a cut takes from a sequence of `length`: all of it, then halves,
    quarters, … single items."""
    run = length
    while run >= 1:
        for start in range(0, length - run + 1, run):
            yield start, start + run
        run //= 2


def smaller(value, atomic=frozenset(), edges=((), ())):
    """Every candidate strictly smaller than `value` (an item or characters fewer), biggest cuts first.  A
    string in `atomic` is only ever dropped whole.  A string is never cut to begin with one of `edges`' heads
    or end with one of its tails unless it did already (for a lab with tags such as "<|x|>": ">" or "|>"
    after a tag, "<" or "<|" before one): next to the real thing such a piece reads as part of it, and a slip that misplaces a slice
    by a character or two would explain the shrunk input as well as the mistake that was found."""
    for candidate, _ in cuts_of(value, atomic, edges):
        yield candidate


def cuts_of(value, atomic=frozenset(), edges=((), ()), path: tuple = ()):
    """(candidate, cut) for every candidate of `smaller`, in its order.  A cut says what was taken away:
    ("items", path, start, stop), the items start…stop-1 of the list at `path` (indices through the nested lists
    and tuples), or ("chars", path, start, stop), characters of the string there."""
    if isinstance(value, str):
        if value not in atomic:
            heads, tails = edges
            old = value.startswith(heads), value.endswith(tails)
            for start, stop in cut_spans(len(value)):
                cut = value[:start] + value[stop:]
                if cut == "" or all(new <= was for new, was in zip((cut.startswith(heads), cut.endswith(tails)), old)):
                    yield cut, ("chars", path, start, stop)
    elif isinstance(value, list):
        for start, stop in cut_spans(len(value)):
            yield value[:start] + value[stop:], ("items", path, start, stop)
        for index, item in enumerate(value):
            for candidate, cut in cuts_of(item, atomic, edges, path + (index,)):
                yield value[:index] + [candidate] + value[index + 1 :], cut
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            for candidate, cut in cuts_of(item, atomic, edges, path + (index,)):
                yield value[:index] + (candidate,) + value[index + 1 :], cut


# --- what the reference said, kept as data -------------------------------------------------------------
# A stencil is the reference's string for one specimen with the specimen's strings left as holes, as parts:
# (path, text) is text the reference wrote, which belongs to the item at `path` of the specimen (() for the whole);
# (path, None) is a hole, filled with the specimen's string at `path`.  Shrinking only cuts: a cut string fills its
# hole as it now is, and an item taken away takes its parts with it (`follow`), so a smaller input's string is made
# of the one kept, never written anew.


def fill(stencil, specimen) -> str:
    """The string `stencil` keeps, for `specimen` (the input it was kept for, or one `follow`ed from it)."""
    return "".join(item_at(specimen, path) if text is None else text for path, text in stencil)


def follow(stencil, cut) -> tuple:
    """`stencil` after `cut` (see `cuts_of`): the parts of items taken away go, later items' paths move up."""
    kind, where, start, stop = cut
    if kind != "items":
        return stencil
    depth, kept = len(where), []
    for path, text in stencil:
        if len(path) > depth and path[:depth] == tuple(where):
            index = path[depth]
            if start <= index < stop:
                continue
            if index >= stop:
                path = path[:depth] + (index - (stop - start),) + path[depth + 1 :]
        kept.append((path, text))
    return tuple(kept)


def item_at(value, path: tuple):
    """What stands at `path` (indices through nested lists and tuples) in `value`."""
    for index in path:
        value = value[index]
    return value
