"""Lab10's mistake detectors: what the judge asks the lab before its own lab-independent hints.

A wrong value is named by where it first differs from the expected one (labkit.judge.differing_path): the part
of a parsed request (a default, an extra key, a message), of a response body (the choice, the usage, an id the
server adds), of an event (its framing, its JSON's form, the chunk it should be), of an error body; an exception
by its type; a missing or wrong exception by the field the example's ValueError must name.  None of them decides
what is right: that is the case table's expected value (or the reference solution's, when grading).
"""

from __future__ import annotations

import json
import re

from lab10.examples import DONE_EVENT
from labkit.judge import Detectors, differing_path
from labkit.spec import Case, Example

FIELD_HINTS = {  # the field a ValueError must name -> the rule that says when it is wrong
    "body": "hint.field_body",
    "messages": "hint.field_messages",
    "role": "hint.field_role",
    "content": "hint.field_content",
    "max_tokens": "hint.field_max_tokens",
    "stream": "hint.field_stream",
}
SERVER_KEYS = ("id", "created", "model")


class Lab10Detectors(Detectors):
    """The detectors the judge asks (labkit.judge.Detectors), each None where it knows nothing more."""

    def wrong_value(self, case: Case, example: Example, actual, others=()) -> str | None:
        expected = example.expected
        if actual in ({}, []):
            return None  # nothing returned yet (the stub): the check's own hint says where to start
        if case.function == "parse_chat_request" and isinstance(expected, dict) and isinstance(actual, dict):
            return _request_hint(expected, actual)
        if case.function == "chat_completion" and isinstance(actual, dict):
            return _completion_hint(expected, actual)
        if case.function == "sse_events" and isinstance(actual, list):
            return _events_hint(expected, actual)
        if case.function == "error_body" and isinstance(actual, dict):
            return _error_hint(expected, actual)
        return None

    def raised(self, raised: dict, function: str, given) -> str | None:
        kind = raised.get("type", "")
        if function == "parse_chat_request":
            return {
                "KeyError": "hint.key_error",
                "TypeError": "hint.type_error",
                "IndexError": "hint.type_error",
                "AttributeError": "hint.not_an_object",
            }.get(kind)
        if function == "sse_events" and kind == "TypeError" and "JSON serializable" in raised.get("message", ""):
            return "hint.dumps_chunk"
        return None

    def problem(self, problem: str, case: Case, example: Example | None = None) -> str | None:
        if example is None or case.function != "parse_chat_request" or not example.mentions:
            return None
        if problem == "not_mentioned":
            return "hint.json_error_message" if example.mentions == "body" else "hint.name_the_field"
        if problem == "no_exception":
            if example.mentions == "max_tokens" and re.search(r'"max_tokens"\s*:\s*(true|false)', example.args[0]):
                return "hint.bool_is_int"
            return FIELD_HINTS.get(example.mentions)
        if problem == "wrong_exception":
            return "hint.value_error_only"
        return None


DETECTORS = Lab10Detectors()


def _request_hint(expected: dict, actual: dict) -> str | None:
    """P2–P5: a default left out or null kept, an extra key, a message with more than role and content or changed."""
    path = differing_path(expected, actual)
    if not path:
        return None
    if set(actual) - set(expected):  # the request's own fields came along: the first thing to fix
        return "hint.extra_fields"
    key = path[0]
    if key in ("max_tokens", "stream") and (key not in actual or actual[key] is None):
        return "hint.defaults"
    if key == "messages" and isinstance(actual[key], list) and len(path) >= 3 and path[2] not in ("role", "content"):
        return "hint.message_keys"
    if (
        key == "messages"
        and len(path) == 3
        and isinstance(actual[key][path[1]].get(path[2]), str)
        and actual[key][path[1]][path[2]] == expected[key][path[1]][path[2]].strip()
    ):
        return "hint.content_verbatim"
    return {
        "messages": "hint.field_messages",
        "max_tokens": "hint.field_max_tokens",
        "stream": "hint.field_stream",
    }.get(key)


def _completion_hint(expected: dict, actual: dict) -> str | None:
    """C1–C3: an id the server adds, the choice's shape, the reply changed, the usage's names or total."""
    if any(key in actual for key in SERVER_KEYS):
        return "hint.server_adds_ids"
    path = differing_path(expected, actual) or ()
    if not path:
        return None
    if path[0] == "usage":
        return "hint.usage"
    if path[0] == "choices" and path[-1:] == ("content",):
        got = actual["choices"][0]["message"]["content"]
        if isinstance(got, str) and got == expected["choices"][0]["message"]["content"].strip():
            return "hint.reply_verbatim"
    if path[0] in ("choices", "object") or path[0] not in expected:
        return "hint.completion_shape"
    return None


def _events_hint(expected: list, actual: list) -> str | None:
    """S1–S5: which event first differs, and how: its framing, its JSON's form, its chunk, a chunk or [DONE]
    missing."""
    at = next((i for i, (e, a) in enumerate(zip(expected, actual)) if e != a), min(len(expected), len(actual)))
    if at >= len(actual):
        return "hint.done" if at == len(expected) - 1 else "hint.last_chunk"
    if at >= len(expected):
        return "hint.done"
    got, wanted = actual[at], expected[at]
    if not isinstance(got, str):
        return None
    if wanted == DONE_EVENT:
        return "hint.last_chunk" if got.startswith("data: {") else "hint.done"
    if not got.startswith("data: "):
        return "hint.event_framing"
    if not got.endswith("\n\n") or got.endswith("\n\n\n"):
        return "hint.event_framing"
    try:
        got_chunk, wanted_chunk = json.loads(got[len("data: ") :]), json.loads(wanted[len("data: ") :])
    except ValueError:
        return "hint.event_framing"
    if got_chunk == wanted_chunk:
        same_order = list(_keys(got_chunk)) == list(_keys(wanted_chunk))
        return "hint.json_form" if same_order else "hint.key_order"
    if not isinstance(got_chunk, dict):
        return None
    if any(got_chunk.get(key) != wanted_chunk.get(key) for key in (*SERVER_KEYS, "object")):
        return "hint.chunk_head"
    if _finish(got_chunk) != _finish(wanted_chunk) and at:
        return "hint.last_chunk"  # the finish reason rides on a piece's chunk (or is missing from the last one)
    if at == 0:
        return "hint.first_chunk"
    if at == len(expected) - 2:
        return "hint.last_chunk"
    return "hint.piece_chunk"


def _finish(chunk: dict):
    choices = chunk.get("choices")
    return (
        choices[0].get("finish_reason")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict)
        else None
    )


def _keys(value):
    """Every key of a JSON value, in the order a text writes them."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _error_hint(expected: dict, actual: dict) -> str | None:
    """E1–E3: the shape (an "error" object), the type by the status, the code as the status, the message verbatim."""
    inner = actual.get("error")
    if not isinstance(inner, dict):
        return "hint.error_shape"
    wanted = expected["error"]
    if inner.get("type") != wanted["type"]:
        return "hint.error_type"
    if inner.get("code") != wanted["code"] or type(inner.get("code")) is not int:
        return "hint.error_code"
    if inner.get("message") != wanted["message"]:
        return "hint.error_message"
    return "hint.error_shape"
