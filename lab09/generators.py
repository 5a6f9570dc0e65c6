"""Seeded inputs for the checks that draw their own: histories, replies and raw outputs, and how each one shrinks.

A drawn input (a "specimen") is plain data: lists (items that may be dropped), tuples (fixed records) and
strings.  `smaller` lists the candidates strictly smaller than a specimen, biggest cuts first, so that a
failing input can be shrunk to one with the fewest messages and the shortest strings.  Everything here is
deterministic: the same seed gives the same specimens on every run and every machine.
"""

from __future__ import annotations

import hashlib
import random

from framework.tags import ALL_TAGS, ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG
from lab09.examples import GENERATION_LINE

ROLES = ("system", "user", "assistant")
ROLE_TAG = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
TAGS = tuple(ALL_TAGS.values())
CUTS = (USER_TAG, SYSTEM_TAG, END_TAG)  # what can end a reply (an <|assistant|> would start a new one, E2)
MAX_SIZE = 12  # the largest size asked of a draw: up to 24 messages, contents up to 12 pieces

WORDS = ("hi", "ok", "a", "Hello, world.", "token", "2+2=4", "你好", "天气", "中文也一样吗？", "“引号”", "😀",
         "👍🏽", "👨‍👩‍👧", "🇨🇳", "é", "Zürich", "ｆｕｌｌ", "…", "#", "{}", "\\n", "ok.")
SPACES = (" ", "  ", "\t", "\n", "\r\n", "\r", "\u3000", "\u00a0", "\u2003", "\x0b", "\x0c", "\u2028", "\n\n")
LOOKALIKES = ("<|user", "<|USER|>", "user|>", "<|assistant", "<|Assistant|>", "assistant|>", "<|end", "<|END|>",
              "<|tag|>", "<|", "|>", "< |user|>", "<user>", "<|system |>", "<||>", "<|end|", "|end|>", "</s>")
UNKNOWN_ROLES = ("tool", "User", "USER", "Assistant", "system ", " user", "function", "retrieval", "model",
                 "human", "bot", "机器人", "assistant_", "users", "developer")
ATOMIC = frozenset(ROLES + TAGS + UNKNOWN_ROLES)  # strings that shrink only by being dropped whole


def seed_of(*parts: str) -> int:
    """A 64-bit seed from text (the same on every machine, unlike hash())."""
    return int.from_bytes(hashlib.sha256("\0".join(parts).encode("utf-8")).digest()[:8], "big")


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
_CUMULATIVE = [sum(_WEIGHTS[:index + 1]) for index in range(len(_WEIGHTS))]


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


# --- what a specimen means ---------------------------------------------------------------------------

def messages(history) -> list:
    """A history of (role, content) pairs as the list of message dicts the functions take."""
    return [{"role": role, "content": content} for role, content in history]


def layout(history) -> str:
    """The prompt rules F1–F3 give a history of known roles."""
    return "".join(f"{ROLE_TAG[role]}\n{content}\n" for role, content in history) + GENERATION_LINE


def known_tag_free(history) -> bool:
    return all(role in ROLE_TAG and not has_tag(content) for role, content in history)


def one_unknown(history) -> bool:
    unknown = [role for role, _ in history if role not in ROLE_TAG]
    return len(unknown) == 1 and not any(has_tag(content) for _, content in history)


def unknown_role(history) -> str:
    return next(role for role, _ in history if role not in ROLE_TAG)


def reply_output(specimen) -> str:
    history, newline, reply, tail = specimen
    return layout(history)[:-1] + newline + reply + "".join(tail)


def reply_valid(specimen) -> bool:
    history, newline, reply, tail = specimen
    return (known_tag_free(history) and newline in ("", "\n") and not has_tag(reply)
            and (tail == [] or (len(tail) == 2 and tail[0] in CUTS and ASSISTANT_TAG not in tail[1])))


def plain_valid(pieces) -> bool:
    return ASSISTANT_TAG not in "".join(pieces)


# --- size and shrinking ------------------------------------------------------------------------------

def measure(value) -> tuple:
    """(items, characters): fewer messages or pieces first, then shorter strings."""
    if isinstance(value, str):
        return (0, len(value))
    items, chars = (len(value), 0) if isinstance(value, list) else (0, 0)
    for item in value:
        more_items, more_chars = measure(item)
        items, chars = items + more_items, chars + more_chars
    return (items, chars)


def _cuts(sequence):
    """`sequence` with one run of items removed: all of it, then halves, quarters, … single items."""
    length = len(sequence)
    run = length
    while run >= 1:
        for start in range(0, length - run + 1, run):
            yield sequence[:start] + sequence[start + run:]
        run //= 2


_TAG_ENDS = tuple({tag[cut:] for tag in TAGS for cut in range(1, len(tag))})  # ">", "|>", "r|>", …
_TAG_STARTS = tuple({tag[:cut] for tag in TAGS for cut in range(1, len(tag))})  # "<", "<|", "<|u", …


def _tag_edges(text: str) -> tuple:
    """Whether `text` begins with the end of a tag and whether it ends with the start of one."""
    return text.startswith(_TAG_ENDS), text.endswith(_TAG_STARTS)


def smaller(value):
    """Every candidate strictly smaller than `value` (an item or characters fewer), biggest cuts first.  A
    string is never cut into the characters of a tag at either edge (">" or "|>" after a tag, "<|" before
    one): next to a real tag such a piece reads as part of it, and a slip that misplaces a slice by a
    character or two would explain the shrunk input as well as the mistake that was found."""
    if isinstance(value, str):
        if value not in ATOMIC:
            edges = _tag_edges(value)
            yield from (cut for cut in _cuts(value)
                        if cut == "" or all(new <= old for new, old in zip(_tag_edges(cut), edges)))
    elif isinstance(value, list):
        yield from _cuts(value)
        for index, item in enumerate(value):
            for candidate in smaller(item):
                yield value[:index] + [candidate] + value[index + 1:]
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            for candidate in smaller(item):
                yield value[:index] + (candidate,) + value[index + 1:]
