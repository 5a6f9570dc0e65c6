"""A tiny real language model for `make chat`: a token ∞-gram with back-off, trained at start-up.

Tokens are characters, each tag one token; the next token follows the longest ending of the text seen in
training (Liu et al., 2024, *Infini-gram*).  It stops only before <|assistant|>, so it runs on into <|end|>
and invented turns as a server without a stop list does (README: the chat's design notes).
"""

from __future__ import annotations

import random
import re
import time

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

_TAG_TOKENS = {tag: chr(0xE000 + i) for i, tag in enumerate((SYSTEM_TAG, USER_TAG, ASSISTANT_TAG, END_TAG))}
_TAG_TEXT = {token: tag for tag, token in _TAG_TOKENS.items()}
_TAGS = re.compile("|".join(re.escape(tag) for tag in _TAG_TOKENS))


def encode(text: str) -> str:
    """Text as a token string: each tag becomes one private-use character."""
    return _TAGS.sub(lambda found: _TAG_TOKENS[found.group()], text)


def decode(tokens: str) -> str:
    return "".join(_TAG_TEXT.get(token, token) for token in tokens)


_MESSAGES = re.compile(r"(?:^|\n)" + re.escape(USER_TAG) + r"\n(.*?)(?=\n(?:" + _TAGS.pattern + r")|\Z)", re.S)


def last_user_message(prompt: str) -> str:
    """The content of a prompt's last user message, as the model reads its layout: a tag on a line of its own
    starts a message (a tag inside a line is part of it), and the next such tag ends it."""
    found = _MESSAGES.findall(prompt)
    return found[-1] if found else ""


def count_tokens(text: str) -> int:
    """How many tokens the model reads for `text` (a tag is one)."""
    return len(encode(text))


class DeadlineExceeded(Exception):
    """Generation was abandoned at its deadline; `partial` is what had been written by then."""

    def __init__(self, partial: str):
        super().__init__("deadline exceeded")
        self.partial = partial


class TinyLM:
    """Longest-match next-token counts over a training text, for contexts of up to `order` tokens."""

    def __init__(self, text: str, order: int = 64):
        self.order = order
        self.tokens = encode(text)
        self._searchable = self.tokens[:-1]  # an occurrence here is always followed by a token
        self._cache: dict[str, dict[str, int]] = {}  # counts are made when a context is first met

    def longest_match(self, context: str, at_most: int | None = None) -> int:
        """The length of the longest ending of `context` (≤ order) seen in the training text before a token."""
        low, high = 0, min(self.order, len(context), self.order if at_most is None else at_most)
        if high and context[-high:] in self._searchable:  # the usual case while the model copies: one look
            return high
        while low < high:  # every shorter ending of a seen ending is seen too, so halve the range
            middle = (low + high + 1) // 2
            if context[-middle:] in self._searchable:
                low = middle
            else:
                high = middle - 1
        return low

    def following(self, suffix: str) -> dict[str, int]:
        """Which tokens followed `suffix` in the training text, and how often."""
        found = self._cache.get(suffix)
        if found is None:
            found = {}
            if not suffix:
                for token in self.tokens:
                    found[token] = found.get(token, 0) + 1
            else:
                start = self._searchable.find(suffix)
                while start != -1:
                    token = self.tokens[start + len(suffix)]
                    found[token] = found.get(token, 0) + 1
                    start = self._searchable.find(suffix, start + 1)
            self._cache[suffix] = found
        return found

    def sample(self, following: dict[str, int], rng: random.Random, temperature: float) -> str:
        weights = [count ** (1 / temperature) for count in following.values()]
        point = rng.random() * sum(weights)
        for token, weight in zip(following, weights):
            point -= weight
            if point < 0:
                return token
        return token

    def reach(self, prompt: str) -> int:
        """How many tokens at the end of `prompt` the training text holds: how much of it the model has read."""
        return self.longest_match(encode(prompt))

    def generate(
        self,
        prompt: str,
        max_new_tokens: int = 120,
        temperature: float = 0.7,
        rng: random.Random | None = None,
        stop: str = ASSISTANT_TAG,
        deadline: float | None = None,
        start: str = "",
    ) -> str:
        """Prompt plus continuation, as `model.generate` returns it: the caller must find the reply.

        With a `deadline` (a time.monotonic() value) generation is abandoned when it passes, between two
        tokens: DeadlineExceeded is raised with what had been written.  `start` is how the continuation
        begins (a reply copied from the prompt): written token by token under the same cap and deadline, then
        the model carries on from it."""
        rng = rng or random.Random()
        tokens = begun = encode(prompt)
        forced, stop_token = encode(start), encode(stop)
        matched = None
        for step in range(max_new_tokens):
            if deadline is not None and time.monotonic() >= deadline:
                raise DeadlineExceeded(prompt + decode(tokens[len(begun) :]))
            if step < len(forced):
                tokens += forced[step]
                continue
            matched = self.longest_match(tokens, None if matched is None else matched + 1)
            token = self.sample(self.following(tokens[len(tokens) - matched :]), rng, temperature)
            if token == stop_token:
                break
            tokens += token
        return prompt + decode(tokens[len(begun) :])
