"""Lab09 · 多轮对话 —— 本实验只需要修改这个文件 (完成后运行: make clean && make test)。

实现两个函数 (规则见 TASK.md 1.5.2 与 1.5.3):
    format_prompt(messages)    把对话历史拼成带标签的提示词
    extract_response(output)   从模型的原始输出里取出这一轮的回复
"""

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages: list[dict]) -> str:
    r"""把对话历史拼成一个提示词，并以生成标签结尾。

    messages: [{"role": "system" | "user" | "assistant", "content": str}, ...]
    例: format_prompt([{"role": "user", "content": "你好"}]) == "<|user|>\n你好\n<|assistant|>\n"
    未知的角色抛出 ValueError；不修改传入的列表和字典。
    """
    # TODO (TASK.md 1.5.2 规则 F1): 按顺序把每条消息写成两行: 标签行、内容行 (内容原样保留)
    # TODO (规则 F2): system / user / assistant 分别对应 SYSTEM_TAG / USER_TAG / ASSISTANT_TAG，
    #                 其他角色 raise ValueError(...)，信息里写出这个角色
    # TODO (规则 F3): 所有消息之后再加一行生成标签 ASSISTANT_TAG + "\n"；空列表只返回这一行
    return ""


def extract_response(output: str) -> str:
    r"""从模型的原始输出 (提示词 + 续写) 中取出回复。

    没有 <|assistant|> 时返回整段输出去掉首尾空白；否则取最后一个 <|assistant|> 之后的文本，
    在最早出现的 <|user|>、<|assistant|>、<|system|> 或 <|end|> 处截断，再去掉首尾空白。
    例: extract_response("<|user|>\n你好\n<|assistant|>\n你好！<|end|>\n") == "你好！"
    """
    # TODO (TASK.md 1.5.3 规则 E1): 输出里没有 ASSISTANT_TAG 时，返回 output.strip()
    # TODO (规则 E2): 找到最后一个 ASSISTANT_TAG (提示: str.rfind)，回复从它后面开始
    # TODO (规则 E3): 在回复里找 USER_TAG、ASSISTANT_TAG、SYSTEM_TAG、END_TAG，在位置最早的那个处截断
    # TODO (规则 E4): 用 str.strip() 去掉首尾空白后返回
    return ""


def trim_history(messages: list[dict], max_turns: int = 6) -> list[dict]:
    """选做 (TASK.md 1.5.7): 按整轮裁剪对话历史，返回一个新列表。

    保留所有 system 消息 (按原顺序放在最前面)；其余消息只保留 user 和 assistant；
    只留最后 max_turns 轮 (一轮 = 一条 user 消息和它后面的 assistant 回复)，所以结果不会以 assistant 开头。
    不修改传入的列表；max_turns < 1 时抛出 ValueError。
    """
    # 选做: 不做也不影响 make test。完成后运行 make challenge；make chat 会用它裁剪历史。
    # TODO (规则 T1–T5): 见 TASK.md 1.5.7
    return messages


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
    # 选做 2: 不做也不影响 make test。完成后运行 make challenge；make chat 会用它改写追问。
    # TODO (规则 R1–R5): 见 TASK.md 1.5.8
    return None


def clean_rewrite(raw_reply: str, question: str, max_chars: int = 60) -> str:
    """选做 2 (TASK.md 1.5.8): 把改写模型的回复整理成一个问题。

    取 raw_reply 里第一个不是空白的行，用 str.strip() 去掉首尾空白；没有这样的行，或者它超过
    max_chars 个字符时，返回原来的问题 question (降级)。
    """
    # TODO (规则 R6、R7): 见 TASK.md 1.5.8
    return question


if __name__ == "__main__":
    # 在这里做实验: python framework/student.py (make test 不会运行这里的代码)
    print(repr(format_prompt([{"role": "user", "content": "你好"}])))
    print(repr(extract_response("<|user|>\n你好\n<|assistant|>\n你好！<|end|>\n")))
