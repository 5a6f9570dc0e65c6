"""What Lab09's slips write: an expected value reshaped the way a slip writes it, never an answer computed.

The rewrites of an expected prompt that the detectors replay (lab09/mistakes.py), the drawn checks' known
mistakes (lab09/draws.py), and the protocol's tags both read.  Why: docs/design.md#lab09slip_outputspy
"""

from __future__ import annotations

import re

from framework.tags import ALL_TAGS, ASSISTANT_TAG, SYSTEM_TAG, USER_TAG
from lab09.examples import GENERATION_LINE
from labkit.spec import Example

# --- the protocol's tags, as the slips and the detectors read them ---------------------------------------

ROLE_TAG = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
ROLE_TAGS = (SYSTEM_TAG, USER_TAG, ASSISTANT_TAG)
BOUNDARIES = tuple(ALL_TAGS.values())  # every tag ends a reply (rule E3)
ASCII_SPACE = " \t\n\r\x0b\x0c"  # what C's isspace() and a hand-written trim usually cover
TAG_LIKE = re.compile(r"<\|[^<|>]*\|>")  # anything shaped like a tag, not only the four


# --- a slip replayed on the expected prompt --------------------------------------------------------

# A rewrite replays a slip on the expected prompt (its (tag, content) pairs): the expected value written
# the way that slip writes it.  It never computes an answer from the input; it only reshapes cases.py's.
REWRITES = (
    ("hint.no_generation_tag", lambda pairs: _messages(pairs)),
    ("hint.generation_tag_newline", lambda pairs: _messages(pairs) + ASSISTANT_TAG),
    ("hint.generation_tag_twice", lambda pairs: _messages(pairs) + 2 * GENERATION_LINE),
    ("hint.generation_at_start", lambda pairs: GENERATION_LINE + _messages(pairs)),
    ("hint.content_before_tag", lambda pairs: _messages(pairs, "{content}\n{tag}\n") + GENERATION_LINE),
    ("hint.tag_same_line", lambda pairs: _messages(pairs, "{tag}{content}\n") + GENERATION_LINE),
    ("hint.missing_newline", lambda pairs: _messages(pairs, "{tag}\n{content}") + GENERATION_LINE),
    ("hint.generation_after_every_user", lambda pairs: _after_every_user(pairs, at_end=False)),
    ("hint.generation_after_every_user", lambda pairs: _after_every_user(pairs, at_end=True)),
    ("hint.history_lost", lambda pairs: _messages(pairs[-1:]) + GENERATION_LINE if len(pairs) > 1 else None),
    ("hint.system_dropped", lambda pairs: _messages([p for p in pairs if p[0] != SYSTEM_TAG]) + GENERATION_LINE),
    ("hint.system_moved", lambda pairs: _messages(sorted(pairs, key=lambda p: p[0] != SYSTEM_TAG)) + GENERATION_LINE),
    ("hint.literal_backslash_n", lambda pairs: _messages(pairs, "{tag}\\n{content}\\n") + ASSISTANT_TAG + "\\n"),
)


def _messages(pairs, layout: str = "{tag}\n{content}\n") -> str:
    return "".join(layout.format(tag=tag, content=content) for tag, content in pairs)


def _after_every_user(pairs, at_end: bool) -> str:
    """The generation line after every user message, and (`at_end`) at the end too when a user's is not last."""
    written = "".join(f"{tag}\n{content}\n" + GENERATION_LINE * (tag == USER_TAG) for tag, content in pairs)
    return written + GENERATION_LINE * (at_end and (not pairs or pairs[-1][0] != USER_TAG))


def rewritten(rewrite, expected):
    """The expected prompt as a slip writes it; None where it is no prompt or the slip changes nothing."""
    pairs = prompt_pairs(expected) if isinstance(expected, str) else None
    if pairs is None:
        return None
    written = rewrite(pairs)
    return None if written == expected else written


def prompt_pairs(prompt: str):
    """(tag, content) pairs of a prompt in the protocol's layout, or None if it is not one."""
    if not prompt.endswith(GENERATION_LINE):
        return None
    lines = prompt[: -len(GENERATION_LINE)].split("\n")[:-1]
    pairs = list(zip(lines[0::2], lines[1::2]))
    if len(lines) % 2 or any(tag not in ROLE_TAGS for tag, _ in pairs):
        return None
    return pairs


def prompt_parts(messages: list, expected: str):
    """(part, start, end, message index) of each piece of the expected prompt: a message's "tag", the newline
    after it ("tag_end"), its "content" and the newline after that ("content_end"), then the "generation"
    line; None when `expected` is not the layout of these messages."""
    parts, at = [], 0
    for index, message in enumerate(messages):
        tag = ROLE_TAG.get(message.get("role")) if isinstance(message, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if tag is None or not isinstance(content, str):
            return None
        for part, piece in (("tag", tag), ("tag_end", "\n"), ("content", content), ("content_end", "\n")):
            if not expected.startswith(piece, at):
                return None
            parts.append((part, at, at + len(piece), index))
            at += len(piece)
    if expected[at:] != GENERATION_LINE:
        return None
    return parts + [("generation", at, at + len(GENERATION_LINE), len(messages))]


# --- the drawn checks' known mistakes ---------------------------------------------------------------


def format_mistakes(history, example: Example) -> dict:
    """Outputs of the slips a drawn history can show, written by reshaping its expected prompt (as a rewrite
    does): contents stripped, system messages moved first, no prompt at all."""
    expected = example.expected
    parts = (
        prompt_parts([{"role": role, "content": content} for role, content in history], expected)
        if isinstance(expected, str)
        else None
    )
    if parts is None:
        return {}
    stripped = "".join(
        expected[start:end].strip() if part == "content" else expected[start:end] for part, start, end, _ in parts
    )
    written = [
        "".join(expected[start:end] for _, start, end, at in parts if at == index) for index in range(len(history))
    ]
    first = sorted(range(len(history)), key=lambda index: history[index][0] != "system")
    known = {
        stripped: "hint.content_verbatim",
        "".join(written[index] for index in first) + expected[parts[-1][1] :]: "hint.system_moved",
    }
    if not history:
        known[""] = "hint.x1"
    known.pop(expected, None)
    return known


def reply_mistakes(specimen, example: Example) -> dict:
    """Outputs of the slips a reply can show: a trim of ASCII spaces only, a cut at tag-like text, a fallback
    (no cut at the boundary is the judge's own slip, named for every reply)."""
    _, _, reply, _ = specimen
    known = {reply.strip(ASCII_SPACE): "hint.x7", TAG_LIKE.split(reply)[0].strip(): "hint.x10"}
    if not reply.strip():
        known[example.args[0].strip()] = "hint.x9"  # the whole raw output
    known.pop(example.expected, None)
    return known


def plain_mistakes(pieces, example: Example) -> dict:
    known = {"".join(pieces).strip(ASCII_SPACE): "hint.x7", "": "hint.empty_when_no_tag"}
    known.pop(example.expected, None)
    return known
