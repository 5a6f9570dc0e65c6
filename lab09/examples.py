"""Lab09's shared inputs and expected values: the histories, prompts and rewrite requests the spec's checks
(lab09/spec.py), the drawn checks and the chat use, written once."""

from __future__ import annotations

from framework.tags import ASSISTANT_TAG

GENERATION_LINE = ASSISTANT_TAG + "\n"


def msg(role: str, content: str) -> dict:
    """One message of a history."""
    return {"role": role, "content": content}


MULTI_TURN = [
    msg("system", "你是一个简洁的助手。"),
    msg("user", "什么是 token？"),
    msg("assistant", "模型读写文本的最小单位。"),
    msg("user", "中文也一样吗？"),
    msg("assistant", "一个汉字常常是一到两个 token。"),
    msg("user", "那“你好”呢？"),
]
MULTI_TURN_PROMPT = (
    "<|system|>\n"
    "你是一个简洁的助手。\n"
    "<|user|>\n"
    "什么是 token？\n"
    "<|assistant|>\n"
    "模型读写文本的最小单位。\n"
    "<|user|>\n"
    "中文也一样吗？\n"
    "<|assistant|>\n"
    "一个汉字常常是一到两个 token。\n"
    "<|user|>\n"
    "那“你好”呢？\n"
    "<|assistant|>\n"
)

SINGLE_TURN_PROMPT = "<|user|>\n你好\n<|assistant|>\n"

SYSTEM = msg("system", "你是一个简洁的助手。")


def turns(first: int, last: int) -> list:
    """Turns `first` … `last` of a plain history: 问题 n / 回答 n."""
    return [
        message for n in range(first, last + 1) for message in (msg("user", f"问题 {n}"), msg("assistant", f"回答 {n}"))
    ]


# The rewriter's instruction and line labels are part of the protocol (framework/student.py has the same).

REWRITE_INSTRUCTION = "根据对话历史，把最后的问题改写成一个不看历史也能懂的问题。只输出改写后的问题。"
REWRITE_LABELS = {"user": "用户：", "assistant": "助手：", "question": "问题："}
REWRITE_TURNS = 3  # rewrite_messages's default max_turns
REWRITE_MAX_CHARS = 60  # clean_rewrite's default max_chars


def request(*lines: str) -> list:
    """The two messages rewrite_messages sends: the instruction, then the history and the question as lines."""
    return [msg("system", REWRITE_INSTRUCTION), msg("user", "\n".join(lines))]


TOKEN_TURN = [msg("user", "什么是 token？"), msg("assistant", "模型读写文本的最小单位。")]
LONG_LINE = "中文里一个 token 有多长？" + "长" * (REWRITE_MAX_CHARS - 16)  # exactly max_chars: still kept
