"""A tiny real language model for `make chat`: a token n-gram model with back-off, trained at start-up.

Tokens are single characters, except that the four tags are one token each (as special tokens are
in real models).  Training counts which token follows each context of up to `order` tokens in
framework/harness/data/dialogues.txt; generation samples token by token from the longest context that was
seen.  Like a deployed Phi-3, whose generation config lists <|assistant|> among its end tokens, it
stops when it would write <|assistant|> and leaves that tag out (as vLLM and llama.cpp leave stop
strings out); nothing stops it at <|end|> or <|user|>, so it often runs on past the end of its reply
into an invented user turn.  That is what extract_response is for.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

CORPUS = Path(__file__).with_name("data") / "dialogues.txt"
_TAG_TOKENS = {tag: chr(0xE000 + i) for i, tag in enumerate((SYSTEM_TAG, USER_TAG, ASSISTANT_TAG, END_TAG))}
_TAG_TEXT = {token: tag for tag, token in _TAG_TOKENS.items()}
_TAGS = re.compile("|".join(re.escape(tag) for tag in _TAG_TOKENS))


def encode(text: str) -> str:
    """Text as a token string: each tag becomes one private-use character."""
    return _TAGS.sub(lambda found: _TAG_TOKENS[found.group()], text)


def decode(tokens: str) -> str:
    return "".join(_TAG_TEXT.get(token, token) for token in tokens)


class TinyLM:
    """Next-token counts for every context of 0 … `order` tokens seen in the training text."""

    def __init__(self, text: str, order: int = 8):
        self.order = order
        self.counts: dict[str, dict[str, int]] = {}
        tokens = encode(text)
        for position, token in enumerate(tokens):
            for length in range(min(order, position) + 1):
                following = self.counts.setdefault(tokens[position - length:position], {})
                following[token] = following.get(token, 0) + 1

    @classmethod
    def from_corpus(cls, path: Path = CORPUS, order: int = 8) -> TinyLM:
        return cls(path.read_text(encoding="utf-8"), order)

    def next_token(self, context: str, rng: random.Random, temperature: float) -> str:
        """Sample from the longest seen context (back-off: drop its oldest token until one is known)."""
        for length in range(min(self.order, len(context)), -1, -1):
            following = self.counts.get(context[len(context) - length:])
            if following:
                break
        weights = [count ** (1 / temperature) for count in following.values()]
        point = rng.random() * sum(weights)
        for token, weight in zip(following, weights):
            point -= weight
            if point < 0:
                return token
        return token

    def generate(self, prompt: str, max_new_tokens: int = 120, temperature: float = 0.7,
                 rng: random.Random | None = None, stop: str = ASSISTANT_TAG) -> str:
        """Prompt plus continuation, as `model.generate` returns it: the caller must find the reply."""
        rng = rng or random.Random()
        tokens = start = encode(prompt)
        stop_token = encode(stop)
        for _ in range(max_new_tokens):
            token = self.next_token(tokens, rng, temperature)
            if token == stop_token:
                break
            tokens += token
        return prompt + decode(tokens[len(start):])
