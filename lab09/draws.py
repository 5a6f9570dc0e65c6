"""What Lab09's drawn checks draw and demand: histories, replies and plain outputs, their validity, and the checks.

The property checks p1–p4 (and the draws of g1–g3); nothing here writes a prompt: a check that needs one
`consult`s the reference.  Deterministic: the same seed gives the same specimens everywhere.
Why: docs/design.md#lab09drawspy
"""

from __future__ import annotations

import functools
import random

from framework.tags import ALL_TAGS, ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG
from lab09.slip_outputs import ROLE_TAG, format_mistakes, plain_mistakes, reply_mistakes
from labkit.drawn import Inputs
from labkit.spec import Example

ROLES = ("system", "user", "assistant")
TAGS = tuple(ALL_TAGS.values())
CUTS = (USER_TAG, SYSTEM_TAG, END_TAG)  # what can end a reply (an <|assistant|> would start a new one, E2)

WORDS = (
    "hi",
    "ok",
    "a",
    "Hello, world.",
    "token",
    "2+2=4",
    "你好",
    "天气",
    "中文也一样吗？",
    "“引号”",
    "😀",
    "👍🏽",
    "👨‍👩‍👧",
    "🇨🇳",
    "é",
    "Zürich",
    "ｆｕｌｌ",
    "…",
    "#",
    "{}",
    "\\n",
    "ok.",
)
SPACES = (" ", "  ", "\t", "\n", "\r\n", "\r", "\u3000", "\u00a0", "\u2003", "\x0b", "\x0c", "\u2028", "\n\n")
LOOKALIKES = (
    "<|user",
    "<|USER|>",
    "user|>",
    "<|assistant",
    "<|Assistant|>",
    "assistant|>",
    "<|end",
    "<|END|>",
    "<|tag|>",
    "<|",
    "|>",
    "< |user|>",
    "<user>",
    "<|system |>",
    "<||>",
    "<|end|",
    "|end|>",
    "</s>",
)
UNKNOWN_ROLES = (
    "tool",
    "User",
    "USER",
    "Assistant",
    "system ",
    " user",
    "function",
    "retrieval",
    "model",
    "human",
    "bot",
    "机器人",
    "assistant_",
    "users",
    "developer",
)
ATOMIC = frozenset(ROLES + TAGS + UNKNOWN_ROLES)  # strings that shrink only by being dropped whole


def has_tag(text: str) -> bool:
    return any(tag in text for tag in TAGS)


def untagged(text: str) -> str:
    """`text` with every exact tag broken up (content with a tag in it is outside the protocol)."""
    while has_tag(text):
        for tag in TAGS:
            text = text.replace(tag, tag[:2] + " " + tag[2:])
    return text


# --- drawing ---------------------------------------------------------------------------------------

_PIECES = WORDS + SPACES + LOOKALIKES  # drawn 60 : 25 : 15 by kind
_WEIGHTS = [60 / len(WORDS)] * len(WORDS) + [25 / len(SPACES)] * len(SPACES) + [15 / len(LOOKALIKES)] * len(LOOKALIKES)
_CUMULATIVE = [sum(_WEIGHTS[: index + 1]) for index in range(len(_WEIGHTS))]


def draw_text(rng: random.Random, size: int) -> str:
    """Words (CJK, emoji, ASCII), spaces of every kind and tag look-alikes, never an exact tag."""
    return untagged("".join(rng.choices(_PIECES, cum_weights=_CUMULATIVE, k=rng.randrange(size + 1))))


def draw_spaces(rng: random.Random, size: int) -> str:
    return "".join(rng.choices(SPACES, k=rng.randrange(min(size, 3) + 1)))


def draw_history(rng: random.Random, size: int) -> list:
    """Messages with any mix of the three roles (system anywhere), any contents but exact tags."""
    roles = rng.choices(ROLES, k=rng.randrange(2 * size + 1))
    return [(role, draw_text(rng, min(size, 6))) for role in roles]


def draw_unknown_role(rng: random.Random, size: int) -> list:
    """A history with one message of a role the protocol does not know, anywhere in it."""
    history = draw_history(rng, size)
    history.insert(rng.randrange(len(history) + 1), (rng.choice(UNKNOWN_ROLES), draw_text(rng, min(size, 3))))
    return history


def draw_reply(rng: random.Random, size: int) -> tuple:
    """(history, newline, reply, tail): the raw output is the prompt (its last newline there or not: a
    model may write right after the tag), the reply, then nothing or a boundary and more."""
    history = draw_history(rng, size // 2)
    newline = "" if rng.random() < 0.25 else "\n"
    reply = draw_spaces(rng, size) if rng.random() < 0.2 else draw_text(rng, size)
    tail = [] if rng.random() < 0.3 else [rng.choice(CUTS), draw_more(rng, size)]
    return (history, newline, reply, tail)


def draw_more(rng: random.Random, size: int) -> str:
    """What a model may write after a boundary: text, more tags, an invented turn; never <|assistant|>."""
    pieces = [draw_text(rng, size // 2)]
    for _ in range(rng.randrange(3)):
        pieces += [rng.choice(CUTS), draw_text(rng, size // 2)]
    return "".join(pieces)


def draw_plain(rng: random.Random, size: int) -> list:
    """Pieces of an output without <|assistant|>: text, spaces, look-alikes and the other tags."""
    pieces = [draw_spaces(rng, size)]
    for _ in range(rng.randrange(size + 1)):
        pieces.append(rng.choice(CUTS) if rng.random() < 0.15 else draw_text(rng, 2))
    return pieces + [draw_spaces(rng, size)]


# --- what a specimen means ---------------------------------------------------------------------------


def messages(history) -> list:
    """A history of (role, content) pairs as the list of message dicts the functions take."""
    return [{"role": role, "content": content} for role, content in history]


def known_tag_free(history) -> bool:
    return all(role in ROLE_TAG and not has_tag(content) for role, content in history)


def one_unknown(history) -> bool:
    unknown = [role for role, _ in history if role not in ROLE_TAG]
    return len(unknown) == 1 and not any(has_tag(content) for _, content in history)


def unknown_role(history) -> str:
    return next(role for role, _ in history if role not in ROLE_TAG)


def reply_valid(specimen) -> bool:
    history, newline, reply, tail = specimen
    return (
        known_tag_free(history)
        and newline in ("", "\n")
        and not has_tag(reply)
        and (tail == [] or (len(tail) == 2 and tail[0] in CUTS and ASSISTANT_TAG not in tail[1]))
    )


def plain_valid(pieces) -> bool:
    return ASSISTANT_TAG not in "".join(pieces)


_TAG_ENDS = tuple({tag[cut:] for tag in TAGS for cut in range(1, len(tag))})  # ">", "|>", "r|>", …
_TAG_STARTS = tuple({tag[:cut] for tag in TAGS for cut in range(1, len(tag))})  # "<", "<|", "<|u", …
EDGES = (_TAG_ENDS, _TAG_STARTS)  # a string is never shrunk into the characters of a tag at either edge


# --- what the protocol demands (the known mistakes of each input: lab09/slip_outputs.py) ---------------


def reference_prompt(history, reference) -> str:
    """The prompt the reference writes for a history (a check's `consult`: asked only where the grade draws)."""
    return reference.format_prompt(messages(history))


def prompt_demand(history, prompt: str) -> Example:
    """F1–F4: the prompt of the history, the messages left as they were."""
    return Example((messages(history),), prompt, unchanged=True)


def _unknown_role_demand(history, _) -> Example:
    return Example((messages(history),), raises="ValueError", mentions=unknown_role(history))


def _reply_prompt(specimen, reference) -> str:
    return reference_prompt(specimen[0], reference)


def _reply_demand(specimen, prompt: str) -> Example:
    """E2–E4: the prompt (its last newline there or not), the reply, the tail: the reply, trimmed."""
    _, newline, reply, tail = specimen
    return Example((prompt[:-1] + newline + reply + "".join(tail),), reply.strip())


def _plain_demand(pieces, _) -> Example:
    return Example(("".join(pieces),), "".join(pieces).strip())


inputs = functools.partial(Inputs, atomic=ATOMIC, edges=EDGES)  # (draw, demand, valid, mistakes)


# --- the drawn checks' inputs, by check id (lab09/spec.py declares the checks, inputs= this module) ----------

INPUTS = {
    # property checks (make test-full, and per student in the grade): `count` inputs tried
    "p1": inputs(draw_history, prompt_demand, known_tag_free, format_mistakes, count=20, consult=reference_prompt),
    "p2": inputs(draw_unknown_role, _unknown_role_demand, one_unknown, count=8),
    "p3": inputs(draw_reply, _reply_demand, reply_valid, reply_mistakes, count=32, consult=_reply_prompt),
    "p4": inputs(draw_plain, _plain_demand, plain_valid, plain_mistakes, count=20),
}
