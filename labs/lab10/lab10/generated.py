"""Lab10's generated checks g1–g4, which only the grade runs: their inputs, and their answers from solutions/.

This module never ships in the handout (lab10/spec.py's `grading_only`): the answers come from the instructors'
reference solution, loaded in the grader's own trusted process (the student's child only ever receives the
inputs).  The inputs are drawn per student, like the property checks' in the grade: requests (valid ones and ones
with a fault) by the drawing functions of lab10/draws.py, and replies, pieces, stream metadata and errors here.
"""

from __future__ import annotations

import functools
import importlib.util
import random
import sys
import types

from lab10.draws import WORDS, draw_fault, draw_request, draw_text, fault_text, inputs, request_text, valid_fault
from lab10.examples import API
from lab10.spec import LAB
from labkit.spec import Example

# --- the answers: the reference solution's ----------------------------------------------------------


@functools.lru_cache(maxsize=None)
def solution():
    """The reference solution, loaded once into this process (it is the instructors' own code).  It imports
    framework.api, the lab's given module; where `framework` is another package (the course repository's top, Lab09's)
    the given module is lent to it under that name for the load only."""
    spec = importlib.util.spec_from_file_location("lab10_reference", LAB.solution_path)
    module = importlib.util.module_from_spec(spec)
    lent = types.ModuleType("framework")
    lent.__path__, lent.api = [], API
    saved = {name: sys.modules.get(name) for name in ("framework", "framework.api")}
    sys.modules.update({"framework": lent, "framework.api": API})
    try:
        spec.loader.exec_module(module)
    finally:
        for name, old in saved.items():
            if old is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = old
    return module


def _body_demand(specimen, reference) -> Example:
    """The reference's answer for a request with or without its fault: a value, or its ValueError (which names the
    field at fault)."""
    request, fault = specimen
    text = fault_text(specimen) if fault else request_text(request)
    try:
        return Example((text,), (reference or solution()).parse_chat_request(text))
    except ValueError:
        return Example((text,), raises="ValueError", mentions=fault[0] if fault else None)


def _call_demand(function: str):
    def demand(specimen, reference) -> Example:
        args = arguments(function, specimen)
        return Example(args, getattr(reference or solution(), function)(*args))

    return demand


def arguments(function: str, specimen) -> tuple:
    """The call's arguments of a drawn specimen (sse_events' meta: a dict of its three values)."""
    if function == "sse_events":
        pieces, finish, (completion_id, created, model) = specimen
        return (pieces, finish, {"id": completion_id, "created": created, "model": model})
    return tuple(specimen)


# --- drawing --------------------------------------------------------------------------------------------

FINISH = ("stop", "length")
STATUSES = (400, 401, 404, 405, 408, 411, 413, 415, 422, 429, 499, 500, 501, 502, 503, 504, 599)
MODELS = ("lab09-tinylm", "tiny", "gpt-4o-mini", "", "模型")
SPACES = (" ", "\n", "  ", "\t", "\u3000", "\r\n", "")


def draw_body(rng: random.Random, size: int) -> tuple:
    """(request, fault): a valid request a quarter of the time (fault ()), else one with a fault."""
    if rng.random() < 0.25:
        return (draw_request(rng, size), ())
    return draw_fault(rng, size)


def valid_body(specimen) -> bool:
    from lab10.draws import valid_request

    return valid_request(specimen[0]) if not specimen[1] else valid_fault(specimen)


def draw_completion(rng: random.Random, size: int) -> tuple:
    """(reply, prompt_tokens, completion_tokens, finish_reason): a reply with whitespace at its ends half the time (a
    server cuts and trims it; chat_completion writes it as it is given, C1)."""
    reply = draw_text(rng, size)
    if rng.random() < 0.5:
        reply = rng.choice(SPACES) + reply + rng.choice(SPACES)
    return (reply, rng.randrange(0, 10 ** rng.randrange(1, 6)), rng.randrange(0, 513), rng.choice(FINISH))


def draw_stream(rng: random.Random, size: int) -> tuple:
    pieces = [rng.choice(WORDS) if rng.random() < 0.7 else draw_text(rng, 3) for _ in range(rng.randrange(size + 1))]
    meta = (f"chatcmpl-{rng.getrandbits(32):08x}", rng.randrange(1_600_000_000, 1_900_000_000), rng.choice(MODELS))
    return (pieces, rng.choice(FINISH), meta)


def draw_error(rng: random.Random, size: int) -> tuple:
    return (rng.choice(STATUSES), draw_text(rng, size))


# --- the generated checks' inputs, by check id (lab10/spec.py declares them, inputs= this module) -------

INPUTS = {  # shares of the course's count of inputs, drawn per student
    "g1": inputs(draw_body, _body_demand, valid_body, share=55),
    "g2": inputs(draw_completion, _call_demand("chat_completion"), share=10),
    "g3": inputs(draw_stream, _call_demand("sse_events"), share=25),
    "g4": inputs(draw_error, _call_demand("error_body"), share=10),
}
