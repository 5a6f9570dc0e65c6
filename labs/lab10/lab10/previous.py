"""What Lab10 takes from Lab09, in one place: Lab09's reference solution (the prompt and the reply's cut, trusted
code on the server's side, as the C course hands each chapter the last one's solution) and the tiny model of Lab09's
`make chat`.  The server (lab10/serve.py) uses only `Lab09` below, so a change of Lab09's chat code touches this file
alone: it reads `TinyLM(text).generate(prompt, max_new_tokens=, rng=)`, `count_tokens(text)`, and the chat model's
training text `corpus.chat_text(corpus.read_topics())`.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path


class Missing(RuntimeError):
    """Lab09's part is not where this lab looks for it (the message says what and where, in one line)."""


@dataclass(frozen=True)
class Lab09:
    """Lab09's reference functions and its chat model, loaded once."""

    format_prompt: object
    extract_response: object
    model: object
    count_tokens: object

    def generate(self, prompt: str, max_tokens: int, rng) -> str:
        """Prompt plus continuation, at most `max_tokens` new tokens (the model stops itself before <|assistant|>)."""
        return self.model.generate(prompt, max_new_tokens=max_tokens, rng=rng)


@functools.lru_cache(maxsize=None)
def lab09() -> Lab09:
    """Lab09's reference (its spec's solution file) and the chat model trained on its topics."""
    try:
        spec = importlib.import_module("lab09.spec")
        tinylm = importlib.import_module("lab09.chat.tinylm")
        corpus = importlib.import_module("lab09.chat.corpus")
    except ImportError as missing:
        raise Missing(f"Lab09's chat model and spec (lab09/) are needed: {missing}") from None
    shipped = Path(spec.__file__).with_name("reference.py")  # in Lab10's handout, beside Lab09's spec (make dist)
    path = shipped if shipped.is_file() else spec.LAB.solution_path
    if not path.is_file():
        raise Missing(f"Lab09's reference solution is needed: {path}")
    loader = importlib.util.spec_from_file_location("lab09_reference_for_lab10", path)
    reference = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(reference)
    model = tinylm.TinyLM(corpus.chat_text(corpus.read_topics()))
    return Lab09(reference.format_prompt, reference.extract_response, model, tinylm.count_tokens)
