"""What Lab10's drawn checks draw and demand: requests as data, their JSON text, and one fault at a time.

A drawn input (a "specimen") is plain data (labkit/drawn.py shrinks it): a request is (messages, options,
style), each message (role, content, extras), options and extras (key, value) pairs, style how json.dumps wrote
it (ASCII escapes or not, an indent, compact separators, where "messages" stands).  The property checks state
what the protocol demands of any such request, so the expected value comes from the drawn data itself, never
from parsing the text: p1, a valid request gives back its messages (role and content only) and its max_tokens
and stream, the defaults where they are missing or null (P1–P5); p2, a request with one fault (a specimen
(request, fault)) raises ValueError naming the field at fault (P1–P4).  `make test-full` draws with one fixed
seed, the grade draws each student's from the course secret and their id (labkit/assess.py).  The generated
checks draw requests with these functions too (lab10/generated.py, which only the grade has).
"""

from __future__ import annotations

import functools
import json
import random

from lab10.examples import DEFAULT_MAX_TOKENS, FIELDS, MAX_TOKENS_LIMIT, ROLES
from labkit.drawn import Inputs
from labkit.spec import Example

WORDS = (
    "hi",
    "ok",
    "你好",
    "天气",
    "中文也一样吗？",
    "“引号”",
    "😀",
    "👍🏽",
    "é",
    "Zürich",
    "…",
    "2+2=4",
    "a b",
    "<|user|>",
    "<|end|>",
    "null",
    "{}",
    "[1, 2]",
    "true",
    "\\n",
    "\\",
    '"',
    "'",
    "/",
    "</s>",
    "\u2028",
    "\x00",
    "\x1f",
    "\t",
    "\n",
    "\r\n",
    " ",
    "  ",
    "\u3000",
    "\u00a0",
)
EXTRA_KEYS = ("name", "tool_call_id", "weight", "refusal", "id")  # keys a message may carry besides role, content
OPTION_KEYS = ("model", "temperature", "top_p", "user", "n", "seed", "stop", "presence_penalty")
OPTION_VALUES = ("lab09-tinylm", "gpt-4o-mini", 0.7, 1, 0, None, ["\n"], [], {"a": 1}, "", True, -2.5, 1e-3)
UNKNOWN_ROLES = (
    "tool",
    "User",
    "USER",
    "Assistant",
    "ASSISTANT",
    "System",
    "system ",
    " user",
    "function",
    "developer",
    "model",
    "human",
    "",
    "机器人",
)  # the protocol's roles in another case: a usual slip
STYLES = (
    (False, None, False),
    (True, None, False),
    (False, 2, False),
    (True, 1, True),
    (False, None, True),
    (True, "\t", False),
)  # (ensure_ascii, indent, compact): what json.dumps is given
# --- how a request can be wrong, by the field a ValueError must name: (field, how, value) -------------------
FAULTS = {
    "body": (
        ("truncated", None),
        ("single_quotes", None),
        ("trailing_comma", None),
        ("not_object", []),
        ("not_object", "你好"),
        ("not_object", None),
        ("not_object", [{"role": "user"}]),
    ),
    "messages": (
        ("missing", None),
        ("value", "你好"),
        ("value", {"role": "user", "content": "hi"}),
        ("value", 0),
        ("value", None),
        ("value", []),
        ("item", "你好"),
        ("item", None),
        ("item", ["user", "hi"]),
        ("item", 7),
    ),
    "role": (("missing", None), ("value", None), ("value", 1), ("value", ["user"]))
    + tuple(("value", role) for role in UNKNOWN_ROLES),
    "content": (
        ("missing", None),
        ("value", None),
        ("value", 42),
        ("value", [{"type": "text", "text": "hi"}]),
        ("value", {"text": "hi"}),
        ("value", True),
    ),
    "max_tokens": (
        ("value", True),
        ("value", False),
        ("value", True),
        ("value", False),
        ("value", 0),
        ("value", -1),
        ("value", MAX_TOKENS_LIMIT + 1),
        ("value", 10**6),
        ("value", 16.0),
        ("value", 1.5),
        ("value", "16"),
        ("value", [16]),
    ),
    "stream": (("value", "true"), ("value", "false"), ("value", 1), ("value", 0), ("value", [True]), ("value", {})),
}
DRAWN_FIELDS = ("body", "messages", "role", "role", "content", "max_tokens", "max_tokens", "stream")  # by the slips
# that live there: roles in another case, a bool taken for an int
ATOMIC = frozenset(
    ROLES
    + list(UNKNOWN_ROLES)
    + list(EXTRA_KEYS)
    + list(OPTION_KEYS)
    + list(FIELDS)
    + [how for faults in FAULTS.values() for how, _ in faults]
    + ["max_tokens", "stream"]
)


# --- drawing ---------------------------------------------------------------------------------------


def draw_text(rng: random.Random, size: int) -> str:
    return "".join(rng.choices(WORDS, k=rng.randrange(size + 1)))


def draw_request(rng: random.Random, size: int) -> tuple:
    """(messages, options, style): any roles in any order, contents of any characters, extra keys now and then,
    max_tokens and stream present, null or missing, other fields of the API, written in any of json.dumps's
    ways."""
    messages = [
        (
            rng.choice(ROLES),
            draw_text(rng, min(size, 6)),
            [(key, draw_text(rng, 2)) for key in rng.sample(EXTRA_KEYS, rng.randrange(3)) if rng.random() < 0.3],
        )
        for _ in range(rng.randrange(size // 2 + 1) + 1)
    ]
    options = []
    if rng.random() < 0.6:
        options.append(
            ("max_tokens", rng.choice((None, 1, DEFAULT_MAX_TOKENS, MAX_TOKENS_LIMIT, rng.randrange(1, 200))))
        )
    if rng.random() < 0.6:
        options.append(("stream", rng.choice((None, True, False))))
    options += [(key, rng.choice(OPTION_VALUES)) for key in rng.sample(OPTION_KEYS, rng.randrange(min(size, 4) + 1))]
    rng.shuffle(options)
    return (messages, options, (rng.randrange(len(STYLES)), rng.randrange(len(options) + 1)))


def draw_fault(rng: random.Random, size: int) -> tuple:
    """(request, (field, how, value, index)): a valid request and one way it is wrong, at message `index`."""
    request = draw_request(rng, size)
    field = rng.choice(DRAWN_FIELDS)
    how, value = rng.choice(FAULTS[field])
    return (request, (field, how, value, rng.randrange(len(request[0]))))


# --- what a specimen means ---------------------------------------------------------------------------


def request_data(request) -> dict:
    """The request as the JSON object its text holds: "messages" among the options where the style puts it."""
    messages, options, (_, at) = request
    listed = [{"role": role, "content": content, **dict(extras)} for role, content, extras in messages]
    pairs = list(options)
    pairs.insert(min(at, len(pairs)), ("messages", listed))
    return dict(pairs)


def dumped(data, request) -> str:
    """`data` as json.dumps writes it in the request's style."""
    ensure_ascii, indent, compact = STYLES[request[2][0] % len(STYLES)]
    return json.dumps(data, ensure_ascii=ensure_ascii, indent=indent, separators=(",", ":") if compact else None)


def request_text(request) -> str:
    return dumped(request_data(request), request)


def valid_request(request) -> bool:
    messages, options, _ = request
    keys = [key for key, _ in options]
    return (
        bool(messages)
        and all(
            role in ROLES
            and not {"role", "content"} & {key for key, _ in extras}
            and len({key for key, _ in extras}) == len(extras)
            for role, _, extras in messages
        )
        and len(set(keys)) == len(keys)
        and "messages" not in keys
        and dict(options).get("max_tokens") in (None, *range(1, MAX_TOKENS_LIMIT + 1))
        and type(dict(options).get("max_tokens")) in (int, type(None))
        and dict(options).get("stream") in (None, True, False)
        and type(dict(options).get("stream")) in (bool, type(None))
    )


def fault_text(specimen) -> str:
    """The text of a request with its fault applied."""
    request, (field, how, value, index) = specimen
    data = request_data(request)
    message = data["messages"][min(index, len(data["messages"]) - 1)]
    if field == "body":
        text = request_text(request)
        if how == "truncated":
            return text[: len(text) // 2]
        if how == "single_quotes":
            return text.replace('"', "'")
        if how == "trailing_comma":
            return text.rstrip()[:-1].rstrip() + ", }"
        return dumped(value, request)
    if field == "messages":
        if how == "missing":
            del data["messages"]
        elif how == "value":
            data["messages"] = value
        else:
            data["messages"][min(index, len(data["messages"]) - 1)] = value
    elif field in ("role", "content"):
        if how == "missing":
            del message[field]
        else:
            message[field] = value
    else:
        data[field] = value
    return dumped(data, request)


def valid_fault(specimen) -> bool:
    request, (field, how, value, index) = specimen
    return valid_request(request) and field in FAULTS and (how, value) in FAULTS[field]


# --- what the protocol demands (the known mistakes of each input: lab10/mistakes.py) ---------------------


def _request_demand(request, reference) -> Example:
    messages, options, _ = request
    given = dict(options)
    max_tokens, stream = given.get("max_tokens"), given.get("stream")
    return Example(
        (request_text(request),),
        {
            "messages": [{"role": role, "content": content} for role, content, _ in messages],
            "max_tokens": DEFAULT_MAX_TOKENS if max_tokens is None else max_tokens,
            "stream": False if stream is None else stream,
        },
    )


def _fault_demand(specimen, reference) -> Example:
    return Example((fault_text(specimen),), raises="ValueError", mentions=specimen[1][0])


inputs = functools.partial(Inputs, atomic=ATOMIC)  # (draw, demand, valid, mistakes)


# --- the drawn checks' inputs, by check id (lab10/spec.py declares the checks, inputs= this module) ----------

INPUTS = {
    # property checks (make test-full, and per student in the grade): `count` inputs tried
    "p1": inputs(draw_request, _request_demand, valid_request, count=24),
    "p2": inputs(draw_fault, _fault_demand, valid_fault, count=48),
}
