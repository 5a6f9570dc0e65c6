"""Follow-ups written for the suite (in neither the demo nor the chat's corpus), and what the chat does with them.

Each case is a question that names what it is about, then a follow-up that leans on it, and the rule of the
sheet that answers the follow-up.  `measure` runs them through `make chat`'s Chat (the student's functions in
their child) and gives the figures test_unseen_follow_ups.py holds and `make bench` prints.
"""

from __future__ import annotations

import io
import random
import re
from dataclasses import dataclass, field

from lab09.chat.retrieval import named_tags, tokens


@dataclass(frozen=True)
class Case:
    """A question, a follow-up that needs it, the rules (short titles) that answer the follow-up, its subject."""

    asked: str
    follow_up: str
    rules: tuple
    subject: str  # what the follow-up is about: a rewrite that keeps the subject holds this word


def case(asked: str, follow_up: str, subject: str, *rules: str) -> Case:
    return Case(asked, follow_up, tuple(rules), subject)


CASES = (
    # a follow-up that names no function: a pronoun, an ellipsis, or just the predicate (Chinese, then English)
    case("rewrite_messages 返回几条消息？", "历史是空的时候它返回什么？", "rewrite_messages", "1.5.8 › R1"),
    case("rewrite_messages 的正文怎么写？", "冒号用半角的可以吗？", "rewrite_messages", "1.5.8 › R3"),
    case("rewrite_messages 要写多少轮历史？", "max_turns 给 0 会怎样？", "rewrite_messages", "1.5.8 › R4"),
    case("clean_rewrite 是做什么的？", "它取回复的哪一行？", "clean_rewrite", "1.5.8 › R6"),
    case("clean_rewrite 是干什么用的？", "回复太长了怎么办？", "clean_rewrite", "1.5.8 › R7"),
    case("trim_history 怎么处理 system 消息？", "那检索结果这种角色呢？", "trim_history", "1.5.7 › T2"),
    case("trim_history 保留多少轮？", "一轮怎么算？", "trim_history", "1.5.7 › T3"),
    case("trim_history 返回什么？", "它会动原来的列表吗？", "trim_history", "1.5.7 › T4"),
    case("trim_history 的 max_turns 是什么？", "小于 1 时呢？", "trim_history", "1.5.7 › T5"),
    case("format_prompt 遇到不认识的角色怎么办？", "错误信息里要写什么？", "format_prompt", "1.5.2 › F2"),
    case("format_prompt 的结尾是什么？", "空列表的时候呢？", "format_prompt", "1.5.2 › F3"),
    case("format_prompt 怎么写每条消息？", "内容可以去掉空格吗？", "format_prompt", "1.5.2 › F1"),
    case("extract_response 从哪里开始取回复？", "为什么不用第一个？", "extract_response", "1.5.3 › E2"),
    case("extract_response 在哪里截断回复？", "碰到 <|system|> 也截吗？", "extract_response", "1.5.3 › E3"),
    case("extract_response 怎么去掉空白？", "全角空格也算吗？", "extract_response", "1.5.3 › E4"),
    case("extract_response 的输入是什么？", "里面没有 <|assistant|> 呢？", "extract_response", "1.5.3 › E1"),
    case("什么是生成标签？", "它要放在哪里？", "生成标签", "1.5.2 › F3", "常见错误与排查顺序 › 3"),
    case("上下文长度是什么意思？", "历史超过了它怎么办？", "上下文长度", "1.5.7"),
    case(
        "How many messages does rewrite_messages return?",
        "What does it return when the history is empty?",
        "rewrite_messages",
        "1.5.8 › R1",
    ),
    case(
        "How is the body of rewrite_messages written?",
        "Which colon goes after each label?",
        "rewrite_messages",
        "1.5.8 › R3",
    ),
    case(
        "How many turns does rewrite_messages keep?", "What if max_turns is set to 0?", "rewrite_messages", "1.5.8 › R4"
    ),
    case("What is clean_rewrite for?", "Which line does it keep?", "clean_rewrite", "1.5.8 › R6"),
    case("What does clean_rewrite do?", "What if that line is too long?", "clean_rewrite", "1.5.8 › R7"),
    case("What does trim_history do with system messages?", "And a retrieval message?", "trim_history", "1.5.7 › T2"),
    case("How many turns does trim_history keep?", "What counts as one turn?", "trim_history", "1.5.7 › T3"),
    case("What does trim_history return?", "Does it touch the original list?", "trim_history", "1.5.7 › T4"),
    case("What is max_turns in trim_history?", "What happens below 1?", "trim_history", "1.5.7 › T5"),
    case(
        "What does format_prompt do with an unknown role?",
        "What should the error message say?",
        "format_prompt",
        "1.5.2 › F2",
    ),
    case("How does format_prompt end the prompt?", "What about an empty list?", "format_prompt", "1.5.2 › F3"),
    case("How does format_prompt write each message?", "May I strip the content?", "format_prompt", "1.5.2 › F1"),
    case("Where does extract_response start the reply?", "Why not the first one?", "extract_response", "1.5.3 › E2"),
    case(
        "Where does extract_response cut the reply?",
        "Does it also cut at <|system|>?",
        "extract_response",
        "1.5.3 › E3",
    ),
    case(
        "How does extract_response remove whitespace?",
        "Is a full-width space removed too?",
        "extract_response",
        "1.5.3 › E4",
    ),
    case(
        "What does extract_response get as its input?",
        "What if there is no <|assistant|> in it?",
        "extract_response",
        "1.5.3 › E1",
    ),
    case("What is the generation tag?", "Where does it go?", "generation", "1.5.2 › F3", "Common mistakes › 3"),
    case("What does the context length mean?", "What if the history goes over it?", "context length", "1.5.7"),
    # a follow-up that names a function: the same question of another function, or one of its own (zh, then en)
    case("format_prompt 会修改我传进去的字典吗？", "那 trim_history 呢？", "trim_history", "1.5.7 › T4"),
    case("trim_history 的 max_turns 小于 1 会怎样？", "rewrite_messages 也一样吗？", "rewrite_messages", "1.5.8 › R4"),
    case("format_prompt 遇到 tool 角色会怎样？", "那 trim_history 呢？", "trim_history", "1.5.7 › T2"),
    case(
        "trim_history 会保留检索结果吗？", "rewrite_messages 会把检索结果写进正文吗？", "rewrite_messages", "1.5.8 › R3"
    ),
    case("format_prompt 最后加什么标签？", "extract_response 从哪个标签之后取回复？", "extract_response", "1.5.3 › E2"),
    case("clean_rewrite 取第一行吗？", "clean_rewrite 超过 max_chars 时返回什么？", "clean_rewrite", "1.5.8 › R7"),
    case("rewrite_messages 里冒号是哪种？", "那 rewrite_messages 最后一行写什么？", "rewrite_messages", "1.5.8 › R3"),
    case("extract_response 怎么截断？", "那 clean_rewrite 怎么去掉空白？", "clean_rewrite", "1.5.8 › R6"),
    case("Does format_prompt change the dicts I pass in?", "And trim_history?", "trim_history", "1.5.7 › T4"),
    case(
        "What happens when trim_history gets max_turns 0?",
        "Does rewrite_messages do the same?",
        "rewrite_messages",
        "1.5.8 › R4",
    ),
    case("What does format_prompt do with a tool role?", "What about trim_history?", "trim_history", "1.5.7 › T2"),
    case(
        "Does trim_history keep retrieval messages?",
        "Does rewrite_messages write retrieval results into the body?",
        "rewrite_messages",
        "1.5.8 › R3",
    ),
    case(
        "Which tag does format_prompt add at the end?",
        "After which tag does extract_response take the reply?",
        "extract_response",
        "1.5.3 › E2",
    ),
    case(
        "Does clean_rewrite keep the first line?",
        "What does clean_rewrite return past max_chars?",
        "clean_rewrite",
        "1.5.8 › R7",
    ),
    case(
        "Which colon does rewrite_messages use?",
        "And what is the last line rewrite_messages writes?",
        "rewrite_messages",
        "1.5.8 › R3",
    ),
    case(
        "How does extract_response cut the reply?",
        "And how does clean_rewrite strip it?",
        "clean_rewrite",
        "1.5.8 › R6",
    ),
)
FUNCTIONS = ("format_prompt", "extract_response", "trim_history", "rewrite_messages", "clean_rewrite")


def names_a_function(text: str) -> bool:
    return any(function in text for function in FUNCTIONS)


def carries(reply: str, hit, quoted: int = 10) -> bool:
    """Whether a reply carries a hit's rule: it names the passage (its rule, else its short title) and quotes at
    least `quoted` characters of its text running (tags written as their constants' names, as evidence is)."""
    text = named_tags(hit.passage.text)
    name = hit.passage.item or hit.passage.short
    return name in reply and any(text[at : at + quoted] in reply for at in range(max(1, len(text) - quoted + 1)))


MISTAKES = ("常见错误", "Common mistakes")


def relevant(hit, rules) -> bool:
    """Whether a hit answers a case: it is one of its rules, or a common mistake whose fix names one ("(E2)")."""
    named = {rule.rsplit(" › ", 1)[-1] for rule in rules}
    return (
        hit.passage.short in rules
        or hit.passage.heading.startswith(MISTAKES)
        and any(
            re.search(rf"\b{re.escape(rule)}\b", hit.passage.text) for rule in named if re.fullmatch(r"[A-Z]\d+", rule)
        )
    )


def found(hits, rules) -> bool:
    """Whether a hit that answers the case (`relevant`) is among the hits."""
    return any(relevant(hit, rules) for hit in hits)


@dataclass
class Result:
    """What the chat did with one case: the rewrite, both searches, the reply, and what the rewriter read."""

    case: Case
    rewrite: str
    hits_original: list
    hits_rewritten: list
    reply: str
    history: str  # the history and the follow-up the rewriter read, as one text
    top: object = None  # the hit this turn's evidence started with

    @property
    def introduced(self) -> list:
        """The rewrite's content words (the search's tokens) that are in neither the history nor the follow-up."""
        known = set(tokens(self.history))
        return [token for token in tokens(self.rewrite) if token not in known]


@dataclass
class Figures:
    results: list = field(default_factory=list)

    def share(self, test) -> float:
        return sum(1 for result in self.results if test(result)) / max(1, len(self.results))

    @property
    def hit_rewritten(self) -> float:
        return self.share(lambda r: found(r.hits_rewritten, r.case.rules))

    @property
    def hit_original(self) -> float:
        return self.share(lambda r: found(r.hits_original, r.case.rules))

    @property
    def subject_kept(self) -> float:
        return self.share(lambda r: r.case.subject.lower() in r.rewrite.lower())

    def line(self, label: str) -> str:
        return (
            f"{label}: hit@3 rewrite {self.hit_rewritten:.0%}, original {self.hit_original:.0%}; "
            f"subject kept {self.subject_kept:.0%} ({len(self.results)} follow-ups)"
        )


def measure(cases, student, chat_model, rewriter, knowledge, seed: int = 0) -> Figures:
    """Each case as a chat of its own: the question, then the follow-up, through `student` (a StudentRun)."""
    from lab09.chat.main import Chat, Settings

    figures = Figures()
    for number, case in enumerate(cases):
        chat = Chat(
            student,
            chat_model,
            random.Random(seed + number),
            io.StringIO(),
            rewriter=rewriter,
            knowledge=knowledge,
            settings=Settings(deadline_ms=60_000),
        )
        chat.turn(case.asked)
        seen = "\n".join(message["content"] for message in chat.history if message["role"] != "system")
        reply = chat.turn(case.follow_up)
        turn = chat.turns[-1]
        figures.results.append(
            Result(
                case,
                turn.asked,
                turn.hits_original,
                turn.hits_rewritten or [],
                reply,
                seen + "\n" + case.follow_up,
                (turn.hits_used or [None])[0],
            )
        )
    return figures
