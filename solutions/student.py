"""Lab09 · 多轮对话 —— 参考答案 (只给教师；不要发给学生)。

与 framework/student.py 的函数签名和文档字符串完全相同。
"""

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

ROLE_TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
BOUNDARIES = (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)


def format_prompt(messages: list[dict]) -> str:
    r"""把对话历史拼成一个提示词，并以生成标签结尾。

    messages: [{"role": "system" | "user" | "assistant", "content": str}, ...]
    例: format_prompt([{"role": "user", "content": "你好"}]) == "<|user|>\n你好\n<|assistant|>\n"
    未知的角色抛出 ValueError；不修改传入的列表和字典。
    """
    parts = []
    for message in messages:
        role = message["role"]
        if role not in ROLE_TAGS:
            raise ValueError(f"unknown role: {role!r}")
        parts.append(f"{ROLE_TAGS[role]}\n{message['content']}\n")
    parts.append(ASSISTANT_TAG + "\n")
    return "".join(parts)


def extract_response(output: str) -> str:
    r"""从模型的原始输出 (提示词 + 续写) 中取出回复。

    没有 <|assistant|> 时返回整段输出去掉首尾空白；否则取最后一个 <|assistant|> 之后的文本，
    在最早出现的 <|user|>、<|assistant|>、<|system|> 或 <|end|> 处截断，再去掉首尾空白。
    例: extract_response("<|user|>\n你好\n<|assistant|>\n你好！<|end|>\n") == "你好！"
    """
    start = output.rfind(ASSISTANT_TAG)
    if start == -1:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG) :]
    cuts = [at for at in (reply.find(tag) for tag in BOUNDARIES) if at != -1]
    return reply[: min(cuts, default=len(reply))].strip()


def trim_history(messages: list[dict], max_turns: int = 6) -> list[dict]:
    """选做 (TASK.md 1.5.7): 按整轮裁剪对话历史，返回一个新列表。

    保留所有 system 消息 (按原顺序放在最前面)；其余消息只保留 user 和 assistant；
    只留最后 max_turns 轮 (一轮 = 一条 user 消息和它后面的 assistant 回复)，所以结果不会以 assistant 开头。
    不修改传入的列表；max_turns < 1 时抛出 ValueError。
    """
    if max_turns < 1:
        raise ValueError(f"max_turns must be at least 1, not {max_turns}")
    system = [message for message in messages if message["role"] == "system"]
    turns: list[list[dict]] = []
    for message in messages:
        if message["role"] == "user":
            turns.append([message])
        elif message["role"] == "assistant" and turns:
            turns[-1].append(message)
    return system + [message for turn in turns[-max_turns:] for message in turn]


# 选做 2 (TASK.md 1.5.8) 的固定文字: 改写模型的指令和每行开头的标签 (全角冒号)。不要修改。
REWRITE_INSTRUCTION = "根据对话历史，把最后的问题改写成一个不看历史也能懂的问题。只输出改写后的问题。"
REWRITE_LABELS = {"user": "用户：", "assistant": "助手：", "question": "问题："}


def rewrite_messages(history: list[dict], question: str, max_turns: int = 3) -> list[dict] | None:
    r"""选做 2 (TASK.md 1.5.8): 为改写模型准备消息，把离不开历史的追问改写成单独也能懂的问题。

    history 里没有 user 消息 (没有一轮对话) 时返回 None: 不需要改写。否则返回一个新列表，两条消息:
    system 消息的内容是 REWRITE_INSTRUCTION；user 消息把最后 max_turns 轮 (同 trim_history 的整轮) 里的
    user / assistant 消息按顺序各写一行 "用户：内容" / "助手：内容"，最后一行 "问题：" + question，行间用 "\n"。
    不修改传入的列表；max_turns < 1 时抛出 ValueError。
    """
    turns = [message for message in trim_history(history, max_turns) if message["role"] != "system"]
    if not turns:
        return None
    lines = [REWRITE_LABELS[message["role"]] + message["content"] for message in turns]
    lines.append(REWRITE_LABELS["question"] + question)
    return [{"role": "system", "content": REWRITE_INSTRUCTION}, {"role": "user", "content": "\n".join(lines)}]


def clean_rewrite(raw_reply: str, question: str, max_chars: int = 60) -> str:
    """选做 2 (TASK.md 1.5.8): 把改写模型的回复整理成一个问题。

    取 raw_reply 里第一个不是空白的行，用 str.strip() 去掉首尾空白；没有这样的行，或者它超过
    max_chars 个字符时，返回原来的问题 question (降级)。
    """
    for line in raw_reply.splitlines():
        line = line.strip()
        if line:
            return line if len(line) <= max_chars else question
    return question
