"""Generated checks (grading only): inputs drawn for each student, expected values from the reference solution.

Each student's inputs come from a seed derived from the course secret (solutions/grading.ini) and the student
id, so two students get different inputs and a rerun gets the same ones.  The reference solution in
solutions/ runs here, in the grader's own trusted process; the student's child only ever receives inputs.
A failure is shrunk to the smallest failing input and shown like one of the six (labkit/drawn.py).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
from dataclasses import replace
from pathlib import Path

from lab09 import generators as g
from lab09 import properties
from lab09.cases import Case, Example
from lab09.properties import ASCII_SPACE, TAG_LIKE, format_mistakes
from labkit.drawn import Drawn, explore, specimens
from labkit.run.engine import StudentRun

REFERENCE = Path(__file__).resolve().parent.parent / "solutions" / "student.py"
SHARES = {"g1": 25, "g2": 10, "g3": 65}  # per cent of the configured count of inputs


@functools.lru_cache(maxsize=None)
def reference():
    """The reference solution, loaded once into this process (it is the instructors' own code)."""
    spec = importlib.util.spec_from_file_location("lab09_reference", REFERENCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _format_demand(history) -> Example:
    return Example((g.messages(history),), reference().format_prompt(g.messages(history)), unchanged=True)


def _unknown_role_demand(history) -> Example:
    try:
        value = reference().format_prompt(g.messages(history))  # its own copy of the messages
    except ValueError:
        return Example((g.messages(history),), raises="ValueError", mentions=g.unknown_role(history))
    return Example((g.messages(history),), value, unchanged=True)


def _extract_demand(pieces) -> Example:
    output = "".join(pieces)
    return Example((output,), reference().extract_response(output))


def _slip(output: str, last=True, cuts=g.TAGS, earliest=True, trim=str.strip, empty_without_tag=False,
          fallback=False, any_tag=False) -> str:
    """extract_response as a known mistake would write it (each keyword is one slip)."""
    start = output.rfind(g.ASSISTANT_TAG) if last else output.find(g.ASSISTANT_TAG)
    if start < 0:
        return "" if empty_without_tag else trim(output)
    reply = output[start + len(g.ASSISTANT_TAG):]
    if any_tag:
        reply = TAG_LIKE.split(reply)[0]
    elif earliest:
        reply = reply[:min([reply.find(tag) for tag in cuts if tag in reply], default=len(reply))]
    else:
        reply = reply[:next((reply.find(tag) for tag in cuts if tag in reply), len(reply))]
    return trim(reply) or (trim(output) if fallback else "")


_EXTRACT_SLIPS = (
    ("hint.first_not_last", {"last": False}),
    ("hint.no_cut_user", {"cuts": (g.ASSISTANT_TAG, g.SYSTEM_TAG, g.END_TAG)}),
    ("hint.no_cut_system", {"cuts": (g.USER_TAG, g.ASSISTANT_TAG, g.END_TAG)}),
    ("hint.no_cut_end", {"cuts": (g.USER_TAG, g.ASSISTANT_TAG, g.SYSTEM_TAG)}),
    ("hint.cut_at_earliest", {"earliest": False, "cuts": (g.USER_TAG, g.END_TAG, g.SYSTEM_TAG, g.ASSISTANT_TAG)}),
    ("hint.cut_at_earliest", {"earliest": False, "cuts": (g.END_TAG, g.USER_TAG, g.SYSTEM_TAG, g.ASSISTANT_TAG)}),
    ("hint.x7", {"trim": lambda text: text.strip(ASCII_SPACE)}),
    ("hint.empty_when_no_tag", {"empty_without_tag": True}),
    ("hint.x9", {"fallback": True}),
    ("hint.x10", {"any_tag": True}),
)


def _extract_mistakes(pieces, example: Example) -> dict:
    output, known = "".join(pieces), {}
    for hint, slip in _EXTRACT_SLIPS:
        known.setdefault(_slip(output, **slip), hint)
    known.pop(example.expected, None)
    return known


def _generated(case_id: str, function: str, hint: str) -> Case:
    return Case(case_id, "generated", function, (), hint)


GENERATED = (
    Drawn(_generated("g1", "format_prompt", "hint.g1"), g.draw_history, _format_demand, g.known_tag_free,
          format_mistakes),
    Drawn(_generated("g2", "format_prompt", "hint.unknown_role"), g.draw_unknown_role, _unknown_role_demand,
          g.one_unknown),
    Drawn(_generated("g3", "extract_response", "hint.g3"), g.draw_raw, _extract_demand, mistakes=_extract_mistakes),
)
GENERATED_CASES = tuple(check.case for check in GENERATED)


def seeds(student_id: str, secret: str, count: int) -> dict:
    """case id -> (seed, number of inputs) of this student's generated checks."""
    return {check.case.id: (g.seed_of(secret, student_id, check.case.id), count * SHARES[check.case.id] // 100)
            for check in GENERATED}


def drawn_inputs(student_id: str, secret: str, count: int) -> dict:
    """case id -> every input drawn for this student, in the order they are tried."""
    return {check.case.id: list(specimens(check, *seeds(student_id, secret, count)[check.case.id]))
            for check in GENERATED}


def fingerprint(student_id: str, secret: str, count: int) -> str:
    """A short digest naming a student's inputs, those of the property checks included (their seeds and
    numbers, and the generators' largest size): equal across reruns, different between students; it does
    not reveal the secret."""
    drawn = seeds(student_id, secret, count)
    for prop in properties.PROPERTIES:
        drawn[prop.case.id] = (properties.seed_for(prop.case.id, secret, student_id), prop.count)
    named = json.dumps([drawn, g.MAX_SIZE], sort_keys=True)
    return hashlib.sha256(named.encode("utf-8")).hexdigest()[:16]


def run(student: StudentRun, student_id: str, secret: str, count: int, cases=GENERATED_CASES) -> list:
    """The verdicts of the generated checks for one student (inputs drawn as they are tried), each judged
    as its case in `cases` (the grader's copies carry their points)."""
    drawn = seeds(student_id, secret, count)
    graded = {case.id: case for case in cases}
    return [explore(student, replace(check, case=graded[check.case.id]), specimens(check, *drawn[check.case.id]))
            for check in GENERATED]
