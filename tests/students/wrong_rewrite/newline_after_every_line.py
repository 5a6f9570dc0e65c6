"""Wrong rewrite: every line ends with "\\n" (lines added with +=), so the text ends with a newline."""

INSTRUCTION = "根据对话历史，把最后的问题改写成一个不看历史也能懂的问题。只输出改写后的问题。"
LABELS = {"user": "用户：", "assistant": "助手："}


def rewrite_messages(history, question, max_turns=3):
    if max_turns < 1:
        raise ValueError("max_turns < 1")
    turns = []
    for message in history:
        if message["role"] == "user":
            turns.append([message])
        elif message["role"] == "assistant" and turns:
            turns[-1].append(message)
    if not turns:
        return None
    text = ""
    for m in (m for turn in turns[-max_turns:] for m in turn):
        text += LABELS[m["role"]] + m["content"] + "\n"
    text += "问题：" + question + "\n"
    return [{"role": "system", "content": INSTRUCTION}, {"role": "user", "content": text}]


def clean_rewrite(raw_reply, question, max_chars=60):
    for line in raw_reply.splitlines():
        line = line.strip()
        if line:
            return line if len(line) <= max_chars else question
    return question
