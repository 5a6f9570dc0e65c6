"""The training texts of `make chat`'s two tiny models, laid out from topics.txt in the lab's own formats.

    python -m lab09.chat.corpus chat|rewrite     prints what that model reads

Why: docs/design.md#lab09chatcorpuspy
"""

from __future__ import annotations

import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG
from lab09.examples import REWRITE_INSTRUCTION, REWRITE_LABELS, REWRITE_TURNS

TOPICS = Path(__file__).with_name("topics.txt")
SYSTEMS = {
    "zh": ("你是一个简洁的助手。", "你是一个简洁的助手。", "只用一句话回答。", "你是一个耐心的老师。", None),
    "en": (
        "You are a concise assistant.",
        "You are a concise assistant.",
        "Answer in one sentence.",
        "你是一个简洁的助手。",
        None,
    ),
}
NOTES = {"zh": "（补全了追问里省略的部分）", "en": "(the follow-up, made complete)"}
# What the chat model says to a question it has not read when nothing was retrieved (topics.txt answers its own
# off-topic questions with these words, so it has read how such a turn goes on).
DONT_KNOW = {
    "zh": "我不知道: 资料里没有找到，我也没读过这样的问题。",
    "en": "I don't know: nothing was found in the sheet, and I have not read such a question.",
}


@dataclass(frozen=True)
class Step:
    """One question of a topic: the ways to ask it, its answers, and for a follow-up the question it means."""

    questions: tuple
    answers: tuple
    rewrite: str | None = None


@dataclass(frozen=True)
class Topic:
    name: str
    steps: tuple

    @property
    def language(self) -> str:
        return "zh" if re.search(r"[\u4e00-\u9fff]", self.steps[0].questions[0]) else "en"


def read_topics(path: Path = TOPICS) -> list:
    """The topics of `path`; a line it cannot read is an error that names it."""
    topics, name, steps, pending = [], None, [], None

    def close_step():
        nonlocal pending
        if pending is not None:
            if not pending["answers"]:
                raise ValueError(f"{path.name}:{pending['line']}: a question without an answer")
            steps.append(Step(tuple(pending["questions"]), tuple(pending["answers"]), pending["rewrite"]))
            pending = None

    def close_topic():
        close_step()
        if name is not None:
            if not steps or steps[0].rewrite:
                raise ValueError(f"{path.name}: topic {name!r} must start with a question that stands alone")
            topics.append(Topic(name, tuple(steps)))

    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("== "):
            close_topic()
            name, steps = line[3:].strip(), []
        elif line.startswith("?? ") or line.startswith("? "):
            close_step()
            body, rewrite = line.split(" ", 1)[1], None
            if line.startswith("??"):
                body, arrow, rewrite = body.partition(" => ")
                if not arrow or not rewrite.strip():
                    raise ValueError(f"{path.name}:{number}: a follow-up needs ' => ' and its rewrite")
                rewrite = rewrite.strip()
            pending = {
                "questions": [q.strip() for q in body.split(" | ")],
                "answers": [],
                "rewrite": rewrite,
                "line": number,
            }
        elif line.startswith("- ") and pending is not None:
            pending["answers"].append(line[2:].strip())
        else:
            raise ValueError(f"{path.name}:{number}: cannot read this line")
        if name is None:
            raise ValueError(f"{path.name}:{number}: text before the first '== topic'")
    close_topic()
    return topics


def typed(questions) -> list:
    """The ways of asking, plus how they are often typed: without the question mark, or with the other one."""
    variants = list(questions)
    for question in questions:
        for ending, others in (("？", ("", "?")), ("?", ("",))):
            if question.endswith(ending):
                variants += [question[:-1] + other for other in others]
    return list(dict.fromkeys(variants))


def _dialogue(system, turns, rng: random.Random) -> str:
    """A tagged dialogue; each reply ends with <|end|> or not, as models' outputs do."""
    text = f"{SYSTEM_TAG}\n{system}\n" if system else ""
    for question, answer in turns:
        text += f"{USER_TAG}\n{question}\n{ASSISTANT_TAG}\n{answer}{END_TAG if rng.random() < 0.5 else ''}\n"
    return text


def chat_text(topics: list) -> str:
    """What the chat model reads: every way of asking with its answer, and every topic as a conversation."""
    rng = random.Random(0)
    blocks = []
    for topic in topics:
        systems = SYSTEMS[topic.language]
        steps = topic.steps

        def answer(step):
            return rng.choice(step.answers)

        rounds = max((len(step.questions) for step in steps if step.rewrite), default=0)
        for round_ in range(rounds):  # the whole topic, each follow-up asked a different way each time
            blocks.append(
                _dialogue(
                    systems[round_ % len(systems)],
                    [(s.questions[round_ % len(s.questions)], answer(s)) for s in steps],
                    rng,
                )
            )
        for index, step in enumerate(steps):  # every way of asking a question that stands alone, first
            following = steps[index + 1 : index + 2]
            for number, question in enumerate((step.rewrite,) if step.rewrite else typed(step.questions)):
                turns = [(question, answer(step))] + [
                    (s.questions[number % len(s.questions)], answer(s)) for s in following
                ]
                blocks.append(_dialogue(systems[(index + number) % len(systems)], turns, rng))
    return "".join(blocks)


def rewrite_request(history: list, question: str) -> str:
    """The user message of a rewrite request (TASK.md 1.5.8, R3): the history as lines, then the question."""
    lines = [REWRITE_LABELS[role] + content for role, content in history]
    return "\n".join(lines + [REWRITE_LABELS["question"] + question])


def rewrite_text(topics: list) -> str:
    """What the rewriter reads: each question after the history before it, then the question it means."""
    rng = random.Random(1)
    blocks = []
    previous = None
    for topic in topics:
        steps = topic.steps
        for index, step in enumerate(steps):
            before = steps[max(0, index - REWRITE_TURNS) : index]
            for number, question in enumerate(step.questions):
                history = [
                    (role, text)
                    for s in before
                    for role, text in (("user", s.questions[number % len(s.questions)]), ("assistant", s.answers[0]))
                ]
                if not history and previous is not None:  # a fresh question after another topic: kept as is
                    history = [("user", previous.questions[0]), ("assistant", previous.answers[0])]
                if not history:
                    continue
                target = step.rewrite or question
                if step.rewrite and rng.random() < 0.2:
                    target += "\n" + NOTES[topic.language]  # rewriters sometimes explain; R6 keeps line one
                ending = END_TAG if rng.random() < 0.6 else ""
                blocks.append(
                    f"{SYSTEM_TAG}\n{REWRITE_INSTRUCTION}\n{USER_TAG}\n{rewrite_request(history, question)}\n"
                    f"{ASSISTANT_TAG}\n{target}{ending}\n"
                )
        previous = steps[-1]
    return "".join(blocks)


def main(argv=None) -> int:
    which = (argv if argv is not None else sys.argv[1:]) or ["chat"]
    topics = read_topics()
    sys.stdout.write(rewrite_text(topics) if which[0] == "rewrite" else chat_text(topics))
    return 0


if __name__ == "__main__":
    sys.exit(main())
