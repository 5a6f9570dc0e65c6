"""Lab09's generated checks g1–g3, which only the grade runs: their raw outputs, their answers from solutions/,
and the reply cutters of the known slips of extract_response.

Never in the handout (lab09/spec.py's `grading_only`).  Why: docs/design.md#lab09generatedpy
"""

from __future__ import annotations

import random

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG
from lab09.draws import (
    CUTS,
    LOOKALIKES,
    draw_history,
    draw_spaces,
    draw_text,
    draw_unknown_role,
    inputs,
    known_tag_free,
    messages,
    one_unknown,
    prompt_demand,
    reference_prompt,
    unknown_role,
)
from lab09.slip_outputs import ASCII_SPACE, BOUNDARIES, ROLE_TAG, TAG_LIKE, format_mistakes
from labkit.spec import Example


def draw_raw(rng: random.Random, size: int) -> list:
    """Pieces of a raw model output: usually a prompt (LF or CRLF lines) and its generation tag, then a
    continuation: stretches of text between tags (any of the four, <|assistant|> too), trailing whitespace."""
    newline = "\r\n" if rng.random() < 0.15 else "\n"
    pieces: list = []
    if rng.random() < 0.8:
        for role, content in draw_history(rng, size // 3 + 1):
            pieces += [ROLE_TAG[role], newline, content, newline]
        if rng.random() < 0.85:
            pieces += [ASSISTANT_TAG, newline]
    for _ in range(rng.randrange(size // 3 + 3)):
        lookalike = rng.choice(LOOKALIKES) if rng.random() < 0.25 else ""
        pieces.append(draw_spaces(rng, 2) + draw_text(rng, 2) + lookalike + draw_text(rng, 2) + draw_spaces(rng, 2))
        if rng.random() < 0.7:
            pieces.append(rng.choice(_CONTINUATION_TAGS))
    return pieces + [draw_spaces(rng, size)]


_CONTINUATION_TAGS = CUTS * 2 + (ASSISTANT_TAG,)  # a new <|assistant|> now and then, boundaries more often


# --- the answers: the reference solution's ----------------------------------------------------------


def _prompt_or_refusal(history, reference):
    """The reference's prompt for a history with an unknown role, or None where it raises ValueError."""
    try:
        return reference.format_prompt(messages(history))  # its own copy of the messages
    except ValueError:
        return None


def _unknown_role_demand(history, prompt) -> Example:
    if prompt is None:
        return Example((messages(history),), raises="ValueError", mentions=unknown_role(history))
    return Example((messages(history),), prompt, unchanged=True)


def _reference_reply(pieces, reference) -> str:
    return reference.extract_response("".join(pieces))


def _extract_demand(pieces, reply: str) -> Example:
    return Example(("".join(pieces),), reply)


# --- the known slips of extract_response: outputs a slip would give for a drawn raw output -------------


def _slip(
    output: str,
    last=True,
    cuts=BOUNDARIES,
    earliest=True,
    trim=str.strip,
    empty_without_tag=False,
    fallback=False,
    any_tag=False,
) -> str:
    """extract_response as a known mistake would write it (each keyword is one slip)."""
    start = (output.rfind if last else output.find)(ASSISTANT_TAG)
    if start < 0:
        return "" if empty_without_tag else trim(output)
    reply = output[start:][len(ASSISTANT_TAG) :]
    if any_tag:
        reply = TAG_LIKE.split(reply)[0]
    elif earliest:
        reply = reply[: min([reply.find(tag) for tag in cuts if tag in reply], default=len(reply))]
    else:
        reply = reply[: next((reply.find(tag) for tag in cuts if tag in reply), len(reply))]
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


# --- the generated checks' inputs, by check id (lab09/spec.py declares them, inputs= this module) -------

INPUTS = {  # shares of the course's count of inputs, drawn per student
    "g1": inputs(draw_history, prompt_demand, known_tag_free, format_mistakes, share=25, consult=reference_prompt),
    "g2": inputs(draw_unknown_role, _unknown_role_demand, one_unknown, share=10, consult=_prompt_or_refusal),
    "g3": inputs(draw_raw, _extract_demand, mistakes=extract_mistakes, share=65, consult=_reference_reply),
}
