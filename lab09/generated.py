"""Lab09's generated checks g1–g3, which only the grade runs: their inputs, their answers from solutions/, and
the reply cutters of the known slips of extract_response.

This module never ships in the handout (lab09/spec.py's `grading_only`): a slip's cutter with its slip taken
away is a working extract_response, and the answers come from the instructors' reference solution, loaded in
the grader's own trusted process (the student's child only ever receives the inputs).  The inputs are drawn
per student, like the property checks' in the grade, by the drawing functions of lab09/draws.py.
"""

from __future__ import annotations

import functools
import importlib.util

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG
from lab09.draws import (draw_history, draw_raw, draw_unknown_role, inputs, known_tag_free, messages, one_unknown,
                         unknown_role)
from lab09.mistakes import ASCII_SPACE, BOUNDARIES, TAG_LIKE, format_mistakes
from lab09.spec import LAB
from labkit.spec import Example

# --- the answers: the reference solution's ----------------------------------------------------------

@functools.lru_cache(maxsize=None)
def solution():
    """The reference solution, loaded once into this process (it is the instructors' own code)."""
    spec = importlib.util.spec_from_file_location("lab09_reference", LAB.solution_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _solution_format_demand(history, reference) -> Example:
    return Example((messages(history),), (reference or solution()).format_prompt(messages(history)), unchanged=True)


def _solution_unknown_role_demand(history, reference) -> Example:
    try:
        value = (reference or solution()).format_prompt(messages(history))  # its own copy of the messages
    except ValueError:
        return Example((messages(history),), raises="ValueError", mentions=unknown_role(history))
    return Example((messages(history),), value, unchanged=True)


def _solution_extract_demand(pieces, reference) -> Example:
    output = "".join(pieces)
    return Example((output,), (reference or solution()).extract_response(output))



# --- the known slips of extract_response: outputs a slip would give for a drawn raw output -------------

def _slip(output: str, last=True, cuts=BOUNDARIES, earliest=True, trim=str.strip, empty_without_tag=False,
          fallback=False, any_tag=False) -> str:
    """extract_response as a known mistake would write it (each keyword is one slip)."""
    start = (output.rfind if last else output.find)(ASSISTANT_TAG)
    if start < 0:
        return "" if empty_without_tag else trim(output)
    reply = output[start:][len(ASSISTANT_TAG):]
    if any_tag:
        reply = TAG_LIKE.split(reply)[0]
    elif earliest:
        reply = reply[:min([reply.find(tag) for tag in cuts if tag in reply], default=len(reply))]
    else:
        reply = reply[:next((reply.find(tag) for tag in cuts if tag in reply), len(reply))]
    return trim(reply) or (trim(output) if fallback else "")


_EXTRACT_SLIPS = (
    ("hint.first_not_last", {"last": False}),
    ("hint.no_cut_user", {"cuts": (ASSISTANT_TAG, SYSTEM_TAG, END_TAG)}),
    ("hint.no_cut_system", {"cuts": (USER_TAG, ASSISTANT_TAG, END_TAG)}),
    ("hint.no_cut_end", {"cuts": (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG)}),
    ("hint.cut_at_earliest", {"earliest": False, "cuts": (USER_TAG, END_TAG, SYSTEM_TAG, ASSISTANT_TAG)}),
    ("hint.cut_at_earliest", {"earliest": False, "cuts": (END_TAG, USER_TAG, SYSTEM_TAG, ASSISTANT_TAG)}),
    ("hint.x7", {"trim": lambda text: text.strip(ASCII_SPACE)}),
    ("hint.empty_when_no_tag", {"empty_without_tag": True}),
    ("hint.x9", {"fallback": True}),
    ("hint.x10", {"any_tag": True}),
)


def extract_mistakes(pieces, example: Example) -> dict:
    output, known = "".join(pieces), {}
    for hint, slip in _EXTRACT_SLIPS:
        known.setdefault(_slip(output, **slip), hint)
    known.pop(example.expected, None)
    return known


# --- the generated checks' inputs, by check id (lab09/spec.py declares them, drawn_by this module) -------

INPUTS = {  # shares of the course's count of inputs, drawn per student
    "g1": inputs(draw_history, _solution_format_demand, known_tag_free, format_mistakes, share=25),
    "g2": inputs(draw_unknown_role, _solution_unknown_role_demand, one_unknown, share=10),
    "g3": inputs(draw_raw, _solution_extract_demand, mistakes=extract_mistakes, share=65),
}
