"""`make chat`'s answering model: the ∞-gram of the lab's dialogues, answering from a turn's evidence when it has some.

With evidence the reply is the first passage's sentence closest to the question, copied from the prompt after a
few words of its own; without, a question it has read is answered as it learned and any other gets "I don't
know" (README: the chat's design notes).
"""

from __future__ import annotations

import random
import re

from framework.tags import ASSISTANT_TAG, END_TAG, USER_TAG
from lab09.chat import corpus
from lab09.chat.retrieval import SEPARATOR, SHEETS, closest_sentence, language_of, read_evidence
from lab09.chat.texts import TEXTS
from lab09.chat.tinylm import TinyLM, encode, last_user_message

ENDED = 0.5  # how often a reply ends with <|end|>, as in the dialogues it read
REPLY_TOKENS = 160  # room for a passage's sentence (a snippet is at most 120 characters) and a turn run on after it
QUESTION_LABELS = TEXTS["chat.evidence_question"]  # the line the chat puts the question on, after the evidence
_RULE = re.compile(r"^[A-Z]\d+$")
SHEET_LANGUAGES = {path.name: language for language, path in SHEETS.items()}
VOICE = {"zh": ("按 {label}: ", "{label} 说: ", "{label}: "), "en": ("Per {label}: ", "{label} says: ", "{label}: ")}


def label(cited: str) -> str:
    """How a reply names a passage: its rule ("T1"), else its short title ("1.5.3", "常见错误与排查顺序 › 2")."""
    parts = cited.split(SEPARATOR)[1:] or [cited]
    return parts[-1] if _RULE.match(parts[-1]) else SEPARATOR.join(parts)


def question_of(message: str) -> str:
    """The question a message with evidence asks: its last line, without its label."""
    last = message.rstrip().rsplit("\n", 1)[-1]
    return next((last[len(prefix) :] for prefix in QUESTION_LABELS if last.startswith(prefix)), last)


class Answerer:
    """The chat model: an ∞-gram over the dialogues, and a copy of the evidence when a turn carries some."""

    def __init__(self, topics: list):
        self.model = TinyLM(corpus.chat_text(topics))

    def reply_start(self, prompt: str, rng: random.Random) -> str:
        """How the reply begins: the first passage in the model's words, nothing (it knows the question), or
        "I don't know"."""
        message = last_user_message(prompt)
        evidence = read_evidence(message)
        if evidence:
            cited, passage = evidence[0]
            voice = rng.choice(VOICE[SHEET_LANGUAGES.get(cited.split(SEPARATOR)[0], language_of(passage))])
            return voice.format(label=label(cited)) + closest_sentence(passage, question_of(message))
        asked = f"{USER_TAG}\n{message}\n{ASSISTANT_TAG}\n"
        if message and prompt.endswith(asked) and self.model.reach(prompt) >= len(encode(asked)):
            return ""  # the whole question, from its tag on, is in what it read
        return corpus.DONT_KNOW[language_of(message)]

    def generate(
        self,
        prompt: str,
        max_new_tokens: int = REPLY_TOKENS,
        temperature: float = 0.7,
        rng: random.Random | None = None,
        deadline: float | None = None,
    ) -> str:
        """Prompt plus continuation, as `model.generate` returns it: the caller must find the reply."""
        rng = rng or random.Random()
        start = self.reply_start(prompt, rng)
        if start:
            start += (END_TAG if rng.random() < ENDED else "") + "\n"
        return self.model.generate(prompt, max_new_tokens, temperature, rng, deadline=deadline, start=start)
