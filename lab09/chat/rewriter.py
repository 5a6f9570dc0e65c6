"""`make chat`'s rewriter: a copy model that makes a follow-up stand alone with words taken from its prompt only.

    python -m lab09.chat.rewriter "trim_history 返回什么？" "它会动原来的列表吗？"     a history, then the rewrite

Why: docs/design.md#lab09chatrewriterpy (and README: the chat's design notes).
"""

from __future__ import annotations

import random
import re
import sys
from dataclasses import dataclass

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG
from lab09.chat import corpus
from lab09.chat.retrieval import SHEETS, STOP_CHARACTERS, language_of, named_tags, tokens
from lab09.chat.tinylm import TinyLM, last_user_message
from lab09.examples import REWRITE_INSTRUCTION, REWRITE_LABELS

ENDED = 0.6  # how often a reply ends with <|end|>, as in the rewrite requests it read
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?")
CALLED = re.compile(r"`([A-Za-z_][A-Za-z0-9_.]*)\(")  # a function as the sheets write it: `trim_history(`
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_WORDLIKE = re.compile(r"[\w\u3400-\u4dbf\u4e00-\u9fff<>|]")

# The closed sets: every word the rewriter writes is copied from its prompt, except these function words.
ZH_PRONOUNS = ("这个函数", "那个函数", "该函数", "它们", "它")
PLURAL = {"它们", "they", "them", "their"}  # never a function: such a follow-up gets the subject in front
ZH_LEADS = ("那么", "那", "还有", "另外", "所以", "可是", "但是")  # dropped from a follow-up's start
ZH_QUESTION_LEADS = ("请问", "那么", "那", "什么是", "什么叫", "啥是", "为什么", "怎么", "如何")
ZH_PREDICATES = (
    "是什么",
    "是啥",
    "为什么",
    "怎么",
    "如何",
    "什么",
    "是",
    "会",
    "能",
    "要",
    "可以",
    "应该",
    "有",
    "在",
    "从",
    "用",
    "把",
    "被",
    "对",
    "和",
    "跟",
    "与",
    "也",
    "都",
    "还",
    "就",
    "吗",
    "呢",
    "吧",
    "多少",
    "几",
    "哪",
    "？",
    "?",
    "，",
    ",",
    "。",
    "！",
)  # where a question's subject ends
ZH_DEFINES = re.compile(r"^(什么是|什么叫|啥是)")
ZH_SAME = re.compile(
    r"^(?:那么?|还有)?\s*(?P<x>.+?)\s*(?:呢|也一样吗|也是这样吗|也这样吗|也是吗|也会吗|也一样呢|会吗|是吗)[？?]?$"
)
EN_PRONOUNS = re.compile(r"\b(it|its|they|them|their)\b", re.I)
EN_QUESTION_LEAD = re.compile(
    r"^(?:(?:what|which|why|how|when|where|who)(?:'s)?\s+)?(?:(?:is|are|was|does|do|did|can|"
    r"could|should|will|would|many|much)\s+)*",
    re.I,
)
EN_PREDICATES = {
    "is",
    "are",
    "was",
    "does",
    "do",
    "did",
    "can",
    "should",
    "will",
    "would",
    "mean",
    "means",
    "for",
    "in",
    "of",
    "at",
    "to",
    "with",
    "when",
    "if",
    "keep",
    "keeps",
    "return",
    "returns",
    "get",
    "gets",
}
EN_DEFINES = re.compile(r"^(what|who)\s+(is|are)\s+|^what's\s+", re.I)
EN_SAME = (
    re.compile(r"^(?:and|what about|how about|same for)\s+(?P<x>\S+?)\s*(?:too|then)?\s*\?$", re.I),
    re.compile(
        r"^(?:does|is|will|can|would)\s+(?P<x>\S+)\s+(?:do\s+)?"
        r"(?:the same(?: thing)?|that too|too)\s*\??$",
        re.I,
    ),
    re.compile(r"^(?:does|is|will|can|would)\s+(?P<x>\S+?)\s*(?:too)?\s*\?$", re.I),
)


@dataclass(frozen=True)
class Request:
    """What the rewriter reads of its prompt: the history's user lines (oldest first) and the follow-up."""

    asked: tuple
    question: str


def read_request(prompt: str) -> Request | None:
    """The last user message of a prompt as a rewrite request (TASK.md 1.5.8, R3), or None when it has none."""
    lines = [line.strip() for line in last_user_message(prompt).splitlines() if line.strip()]
    if not lines:
        return None
    question = lines[-1]
    for label in REWRITE_LABELS.values():
        question = question[len(label) :].strip() if question.startswith(label) else question
    asked = tuple(
        line[len(REWRITE_LABELS["user"]) :].strip() for line in lines[:-1] if line.startswith(REWRITE_LABELS["user"])
    )
    return Request(asked, question) if question else None


def join(*pieces: str) -> str:
    """Pieces side by side, a space between two that would otherwise run into one word (a new bigram)."""
    out = ""
    for piece in pieces:
        if not piece:
            continue
        if out and _runs_on(out[-1], piece[0]):
            out += " "
        out += piece
    return out


def _runs_on(left: str, right: str) -> bool:
    """Whether two characters side by side would read as one word: two Chinese characters make a bigram unless
    one is a function character; a Latin word and anything word-like need a space (as the sheets write them)."""
    if not (_WORDLIKE.match(left) and _WORDLIKE.match(right)):
        return False
    return not (_CJK.match(left) and _CJK.match(right) and (left in STOP_CHARACTERS or right in STOP_CHARACTERS))


class Rewriter:
    """The copy model: the lab's function names and the questions it has read, and an ∞-gram for its endings."""

    def __init__(self, topics: list, sheets: dict = SHEETS):
        self.ending = TinyLM(corpus.rewrite_text(topics))
        self.functions = set()
        for path in sheets.values():
            try:
                self.functions |= set(CALLED.findall(path.read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError):
                continue
        self.standalone = {
            _bare(question)
            for topic in topics
            for step in topic.steps
            if not step.rewrite
            for question in corpus.typed(step.questions)
        }

    # --- what the prompt says -------------------------------------------------------------------

    def function_in(self, text: str) -> str | None:
        """The first of the lab's functions `text` names, as it is written there."""
        for found in IDENTIFIER.finditer(text):
            if found.group().removesuffix("()") in self.functions:
                return found.group()
        return None

    def subject_of(self, question: str) -> str | None:
        """What a question is about: its function (with the parameter it names), else its first noun phrase."""
        function = self.function_in(question)
        zh = language_of(question) == "zh"
        if function:
            name = re.escape(function)
            phrase = (
                re.search(rf"{name}\s*的\s*[A-Za-z_]\w*", question)
                if zh
                else re.search(rf"[A-Za-z_]\w*_\w*\s+(?:of|in|for)\s+{name}|{name}'s\s+[A-Za-z_]\w*", question)
            )
            return phrase.group() if phrase else function
        parameter = next((word for word in IDENTIFIER.findall(question) if "_" in word), None)
        if parameter:
            return parameter
        if _has_pronoun(question):  # "它会改动列表吗？": its subject is the one before it
            return None
        core = _zh_core(question) if zh else _en_core(question)
        words = set(tokens(core))  # a word of the question's own ("天" in 天为什么…: no bigram of it counts)
        return core if words and words <= set(tokens(question)) else None

    def subject(self, request: Request) -> str | None:
        """The subject of the newest question of the history that has one."""
        return next((found for found in map(self.subject_of, reversed(request.asked)) if found), None)

    def stands_alone(self, question: str) -> bool:
        """A question it has read as one of its own, or one that asks what something is (and says what)."""
        if _bare(question) in self.standalone:
            return True
        defines = ZH_DEFINES if language_of(question) == "zh" else EN_DEFINES
        return bool(defines.search(question)) and not _has_pronoun(question) and self.subject_of(question) is not None

    # --- the rewrite ----------------------------------------------------------------------------

    def rewrite(self, request: Request) -> str:
        """The follow-up made to stand alone: every word in it is the follow-up's, the history's or a function
        word of the closed sets above."""
        question = request.question
        function = self.function_in(question)
        if function:
            same = self.same_as_before(request, function)
            return same or question
        if self.stands_alone(question):
            return question
        subject = self.subject(request)
        if subject is None or subject.lower() in question.lower():
            return question
        zh = language_of(question) == "zh"
        if not tokens(question) and not _has_pronoun(question):  # "为什么不会？": nothing to search with of its own
            before = self.rewrite(Request(request.asked[:-1], request.asked[-1]))
            return f"{before.rstrip('？?')}{'：' if zh else ': '}{_zh_rest(question) if zh else question.strip()}"
        return _zh_with(question, subject) if zh else _en_with(question, subject)

    def same_as_before(self, request: Request, function: str) -> str | None:
        """ "那 trim_history 呢？" after a question about another function: that question, asked of this one."""
        zh = language_of(request.question) == "zh"
        patterns = (ZH_SAME,) if zh else EN_SAME
        found = next((match for match in (p.match(request.question.strip()) for p in patterns) if match), None)
        if not found or found.group("x").strip() != function or not request.asked:
            return None
        before = request.asked[-1]
        other = self.function_in(before)
        if other and other != function:
            return before.replace(other, function, 1)
        if _has_pronoun(before):
            return _zh_with(before, function) if zh else _en_with(before, function)
        return None

    def generate(
        self,
        prompt: str,
        max_new_tokens: int = 100,
        temperature: float = 0.7,
        rng: random.Random | None = None,
        deadline: float | None = None,
    ) -> str:
        """Prompt plus continuation, as `model.generate` returns it: the rewrite on its first line, then what the
        ∞-gram writes after it (often <|end|>, a line of explanation, or the next request)."""
        rng = rng or random.Random()
        request = read_request(prompt)
        start = named_tags(self.rewrite(request)) if request else ""  # a real tag would end the reply
        start += (END_TAG if rng.random() < ENDED else "") + "\n"
        return self.ending.generate(prompt, max_new_tokens, temperature, rng, deadline=deadline, start=start)


def _bare(question: str) -> str:
    return question.strip().rstrip("？?!！。.").strip().lower()


def _has_pronoun(text: str) -> bool:
    return any(pronoun in text for pronoun in ZH_PRONOUNS) or bool(EN_PRONOUNS.search(text))


def _zh_core(question: str) -> str:
    """The words a Chinese question opens with, before its predicate (after 什么是, 为什么, …)."""
    rest = question.strip()
    for lead in ZH_QUESTION_LEADS:
        if rest.startswith(lead):
            rest = rest[len(lead) :].strip()
            break
    ends = [at for at in (rest.find(word) for word in ZH_PREDICATES) if at > 0]
    return rest[: min(ends, default=len(rest))].strip().removesuffix("的").strip()


def _en_core(question: str) -> str:
    """The noun phrase an English question asks about (after what is, how does, …)."""
    words = EN_QUESTION_LEAD.sub("", question.strip()).rstrip("?").split()
    phrase = []
    for word in words:
        if word.lower() in EN_PREDICATES:
            break
        phrase.append(word)
    return " ".join(phrase)


def _zh_rest(question: str) -> str:
    """A Chinese follow-up without the word it opens on to lean on what came before (那, 还有, …)."""
    rest = question.strip()
    for lead in ZH_LEADS:
        if rest.startswith(lead) and len(rest) > len(lead) and not rest.startswith(ZH_PRONOUNS):  # 那个函数…
            return rest[len(lead) :].strip()
    return rest


def _zh_with(question: str, subject: str) -> str:
    """The subject in place of the follow-up's pronoun, or before it: "clean_rewrite：回复太长了怎么办？"."""
    rest = _zh_rest(question)
    for pronoun in ZH_PRONOUNS:
        at = rest.find(pronoun)
        if at != -1 and pronoun not in PLURAL:
            return join(rest[:at].strip(), subject, rest[at + len(pronoun) :].strip())
        if at != -1:
            break
    return f"{subject}：{rest}"


def _en_with(question: str, subject: str) -> str:
    """The subject in place of the follow-up's pronoun, or before it: "clean_rewrite: What if that line is too long?"."""
    found = EN_PRONOUNS.search(question)
    if not found or found.group().lower() in PLURAL:
        return f"{subject}: {question.strip()}"
    word = found.group()
    named = subject + "'s" if word.lower() in ("its", "their") else subject
    if found.start() == 0 and named[:1].islower() and "_" not in named.split()[0]:
        named = named[0].upper() + named[1:]
    return question[: found.start()] + named + question[found.end() :]


def main(argv=None) -> int:
    lines = argv if argv is not None else sys.argv[1:]
    if not lines:
        print(__doc__.split("\n\n")[1].strip())
        return 2
    history = "\n".join(REWRITE_LABELS["user"] + line for line in lines[:-1])
    prompt = (
        f"{SYSTEM_TAG}\n{REWRITE_INSTRUCTION}\n{USER_TAG}\n{history}\n{REWRITE_LABELS['question']}{lines[-1]}\n"
        f"{ASSISTANT_TAG}\n"
    )
    print(Rewriter(corpus.read_topics()).rewrite(read_request(prompt)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
