"""Property checks (`make test-full`, and the grade): rules checked on drawn inputs, with no answer key needed.

Each property states what the protocol demands of any input of a shape, so the expected value comes from
the input itself: the layout of a history (F1–F4), the ValueError for an unknown role (F2), the reply put
between a prompt and a boundary (E2–E4), the whole text when there is no <|assistant|> (E1).
`make test-full` draws their inputs with one fixed seed, so students run the same checks on every machine.
The grade draws each student's from the course secret and the student id, as it does for the generated
checks (lab09/generated.py): the handout holds the fixed seed and these expected-value functions, so inputs
drawn from it alone could be answered from a table.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from lab09 import generators as g
from lab09.cases import Case, Example
from labkit.drawn import Drawn, explore, specimens
from labkit.judge import Verdict, check
from labkit.run.engine import StudentRun

ASCII_SPACE = " \t\n\r\x0b\x0c"  # what C's isspace() and a hand-written trim usually cover
TAG_LIKE = re.compile(r"<\|[^<|>]*\|>")  # anything shaped like a tag, not only the four


def format_mistakes(history, example: Example) -> dict:
    """Outputs of the slips a drawn history can show: contents stripped, system moved first, no prompt at all."""
    known = {g.layout([(role, content.strip()) for role, content in history]): "hint.content_verbatim",
             g.layout(sorted(history, key=lambda message: message[0] != "system")): "hint.system_moved"}
    if not history:
        known[""] = "hint.x1"
    known.pop(example.expected, None)
    return known


def reply_mistakes(specimen, example: Example) -> dict:
    """Outputs of the slips a reply can show: a trim of ASCII spaces only, a cut at tag-like text, a fallback
    (no cut at the boundary is the judge's own slip, named for every reply)."""
    _, _, reply, _ = specimen
    known = {reply.strip(ASCII_SPACE): "hint.x7", TAG_LIKE.split(reply)[0].strip(): "hint.x10"}
    if not reply.strip():
        known[g.reply_output(specimen).strip()] = "hint.x9"
    known.pop(example.expected, None)
    return known


def plain_mistakes(pieces, example: Example) -> dict:
    known = {"".join(pieces).strip(ASCII_SPACE): "hint.x7", "": "hint.empty_when_no_tag"}
    known.pop(example.expected, None)
    return known


def _property(case_id: str, function: str, hint: str) -> Case:
    return Case(case_id, "properties", function, (), hint)


PROPERTIES = (
    Drawn(_property("p1", "format_prompt", "hint.p1"), g.draw_history,
          lambda history: Example((g.messages(history),), g.layout(history), unchanged=True),
          g.known_tag_free, format_mistakes, count=20),
    Drawn(_property("p2", "format_prompt", "hint.unknown_role"), g.draw_unknown_role,
          lambda history: Example((g.messages(history),), raises="ValueError", mentions=g.unknown_role(history)),
          g.one_unknown, count=8),
    Drawn(_property("p3", "extract_response", "hint.p3"), g.draw_reply,
          lambda specimen: Example((g.reply_output(specimen),), specimen[2].strip()), g.reply_valid, reply_mistakes,
          count=32),
    Drawn(_property("p4", "extract_response", "hint.case4"), g.draw_plain,
          lambda pieces: Example(("".join(pieces),), "".join(pieces).strip()), g.plain_valid, plain_mistakes,
          count=20),
)
PROPERTY_CASES = tuple(prop.case for prop in PROPERTIES)
_BY_ID = {prop.case.id: prop for prop in PROPERTIES}


GRADED_SECTION = "graded_properties"  # the grade's property checks: a header that says whose inputs they are


def run(student: StudentRun, case: Case, drawn_for: tuple[str, str] | None = None) -> Verdict:
    """The verdict of any case `make test-full` runs: a table case, or a property on its drawn inputs
    (judged as `case`, so a verdict carries the points the grader gave it).  `drawn_for`, (course secret,
    student id), draws the property's inputs for that student, as grading does; without it they are the
    handout's, as in `make test-full`."""
    prop = _BY_ID.get(case.id)
    if prop is None:
        return check(student, case)
    if drawn_for is None:
        return explore(student, replace(prop, case=case), _inputs(case.id))
    graded = replace(prop, case=replace(case, section=GRADED_SECTION))
    return explore(student, graded, specimens(prop, seed_for(case.id, *drawn_for)))


def seed_for(case_id: str, secret: str, student_id: str) -> int:
    """The seed of one student's inputs for the property `case_id` in grading."""
    return g.seed_of(secret, student_id, case_id)


@functools.lru_cache(maxsize=None)
def _inputs(case_id: str) -> list:
    """A property's inputs in `make test-full`: drawn once per process from the handout's fixed seed."""
    return list(specimens(_BY_ID[case_id], g.seed_of("lab09", "properties", case_id)))
