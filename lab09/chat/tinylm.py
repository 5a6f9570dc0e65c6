"""A tiny real language model for `make chat`: a token n-gram model with back-off, trained at start-up.

Tokens are single characters, except that the four tags are one token each (as special tokens are
in real models).  The model is an "∞-gram" (as in Liu et al., 2024, *Infini-gram*): to choose the next
token it looks for the longest ending of the text so far (up to `order` tokens) that also occurs in its
training text, and samples from the tokens that followed it there; an ending never seen backs off to a
shorter one.  Training is reading the text (the counts are made the first time a context is met), so a
question it knows is answered from the whole question, and a follow-up such as "那中文呢？" is answered
from the history before it.

A deployed Phi-3 stops at any of the end tokens its generation config lists (<|endoftext|>, <|assistant|>,
<|end|>).  This model keeps only one of them on purpose: it stops when it would write <|assistant|> (which
can never belong to a reply) and leaves that tag out, as vLLM and llama.cpp leave stop strings out.
Nothing stops it at <|end|> or <|user|>, so it often runs on past the end of its reply into an invented
user turn, as a model does when a server's stop list is missing or not applied; that is what
extract_response is for.
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

    def generate(self, prompt: str, max_new_tokens: int = 120, temperature: float = 0.7,
                 rng: random.Random | None = None, stop: str = ASSISTANT_TAG, deadline: float | None = None,
                 unread: str = "") -> str:
        """Prompt plus continuation, as `model.generate` returns it: the caller must find the reply.

        With a `deadline` (a time.monotonic() value) generation is abandoned when it passes, between two
        tokens: DeadlineExceeded is raised with what had been written.  `unread` is a part of the prompt the
        model does not read (`make chat`'s evidence: nothing like it was in its training text, so it would
        only push the history out of its reach); the output still holds the whole prompt."""
        rng = rng or random.Random()
        tokens = start = encode(prompt.replace(unread, "", 1) if unread else prompt)
        stop_token = encode(stop)
        matched = None
        for _ in range(max_new_tokens):
            if deadline is not None and time.monotonic() >= deadline:
                raise DeadlineExceeded(prompt + decode(tokens[len(start):]))
            matched = self.longest_match(tokens, None if matched is None else matched + 1)
            token = self.sample(self.following(tokens[len(tokens) - matched:]), rng, temperature)
            if token == stop_token:
                break
            tokens += token
        return prompt + decode(tokens[len(start):])
