"""The one verdict entry point for every kind of check, and where a run's drawn checks get their inputs.

A table case is judged on its examples, a drawn check on the inputs `InputSource` gives it.
Why: docs/design.md#labkitassesspy
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import types
from dataclasses import dataclass, replace

from labkit.judge import NO_DETECTORS, Detectors, Verdict, judge
from labkit.run.engine import StudentRun
from labkit.spec import Case, DrawnCheck, active


@dataclass(frozen=True)
class InputSource:
    """Where the drawn checks of one run get their inputs: one fixed seed for everyone (`make test-full`), or
    seeds of one student from the course secret (grading), so two students get different inputs and a rerun
    the same ones."""

    student: str | None = None  # None: the fixed inputs of the handout; else this student's id
    secret: str = ""  # the course secret (solutions/grading.ini), when drawing per student
    count: int = 0  # the course's number of generated inputs per student, shared by `Inputs.share`
    reference: object = None  # the solution module the checks consult (None: the lab's own, when drawing per student)

    def seed(self, check: DrawnCheck) -> int:
        from labkit.drawn import seed_of

        if self.student is None:
            return seed_of(active().id, check.suite, check.id)
        return seed_of(self.secret, self.student, check.id)

    def number(self, check: DrawnCheck) -> int:
        """How many inputs `check` draws (distinct valid ones among them are tried)."""
        inputs = inputs_of(check)
        if not inputs.share:
            return inputs.count
        if self.student is None:
            raise ValueError(f"{check.id} draws its inputs per student: it runs only in grading")
        return self.count * inputs.share // 100

    def inputs(self, check: DrawnCheck):
        """The inputs `check` is tried on, in order: the fixed ones as the lab keeps them, a student's drawn as
        they are tried (a check that fails early draws little)."""
        from labkit.drawn import specimens

        if self.student is None:
            self.number(check)  # a check drawn per student only has no fixed inputs
            return tuple(specimen for specimen, _ in fixed_inputs(check))
        return specimens(inputs_of(check), self.seed(check), self.number(check))

    def stencils(self, check: DrawnCheck) -> dict | None:
        """For the fixed inputs, what the reference says of each (repr(specimen) -> its stencil); None when
        the inputs are drawn per student (the reference itself is consulted)."""
        if self.student is not None:
            return None
        return {repr(specimen): stencil for specimen, stencil in fixed_inputs(check) if stencil is not None}

    def fingerprint(self, checks) -> str:
        """A short digest naming the inputs of the drawn checks among `checks` (their seeds and numbers, and
        the draws' largest size): equal across reruns, different between students; it does not reveal the
        secret."""
        from labkit.drawn import MAX_SIZE

        drawn = {check.id: (self.seed(check), self.number(check)) for check in checks if isinstance(check, DrawnCheck)}
        named = json.dumps([drawn, MAX_SIZE], sort_keys=True)
        return hashlib.sha256(named.encode("utf-8")).hexdigest()[:16]


FIXED = InputSource()


def verdict(
    student: StudentRun, check: Case, draws: InputSource = FIXED, detectors: Detectors | None = None
) -> Verdict:
    """The verdict of any check on one student file: a table case judged on its examples, a drawn check
    explored on the inputs `draws` gives it, each with the hints of `detectors` (by default the active lab's)."""
    detectors = detectors or lab_detectors()
    if not isinstance(check, DrawnCheck):
        return judge(check, student.run_case(check), student.load, (), detectors)
    from labkit.drawn import explore

    inputs, shown, reference = inputs_of(check), check, draws.reference
    if draws.student is not None and not inputs.share and check.graded_section:
        shown = replace(check, section=check.graded_section)  # a header that says whose inputs they are
    if draws.student is not None and reference is None and inputs.consult is not None:
        reference = lab_reference()
    return explore(student, shown, inputs, draws.inputs(check), reference, detectors, stencils=draws.stencils(check))


def lab_detectors() -> Detectors:
    """The active lab's mistake detectors ("module:NAME" in its spec), or none."""
    return _resolve(active().mistakes) if active().mistakes else NO_DETECTORS


def inputs_of(check: DrawnCheck):
    """The labkit.drawn.Inputs of the drawn check `check`: its `inputs` module's INPUTS[check.id]."""
    return _resolve(f"{check.inputs}:INPUTS")[check.id]


def fixed_inputs(check: DrawnCheck) -> tuple:
    """(specimen, stencil or None) for each fixed input of `check`, as the active lab keeps them: its
    `fixed_inputs` module's FIXED_INPUTS[check.id] (the stencil: what the reference says of it, for a check that
    consults the reference)."""
    module = active().fixed_inputs
    kept = _resolve(f"{module}:FIXED_INPUTS") if module else {}
    if check.id not in kept:
        raise LookupError(f"{check.id}: {module or 'the lab'} keeps no fixed inputs for it (make tables writes them)")
    return kept[check.id]


@functools.lru_cache(maxsize=None)
def lab_reference():
    """The active lab's reference solution, loaded once into this process (the grader's: it is the instructors'
    own code, and a student's child only ever gets inputs), compiled from its source, so no bytecode of it is
    written anywhere."""
    lab = active()
    module = types.ModuleType(f"{lab.id}_reference")
    module.__file__ = str(lab.solution_path)
    exec(compile(lab.solution_path.read_bytes(), module.__file__, "exec"), module.__dict__)
    return module


@functools.lru_cache(maxsize=None)
def _resolve(name: str):
    module, _, attribute = name.partition(":")
    return getattr(importlib.import_module(module), attribute)
