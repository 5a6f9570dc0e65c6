"""Wrong rewrite: writes every message as a line, system and retrieval results included."""

INSTRUCTION = "根据对话历史，把最后的问题改写成一个不看历史也能懂的问题。只输出改写后的问题。"
LABELS = {"user": "用户：", "assistant": "助手："}
OTHER = "其他："


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
    lines = [LABELS.get(m["role"], OTHER) + m["content"] for m in history]
    lines.append("问题：" + question)
    return [{"role": "system", "content": INSTRUCTION}, {"role": "user", "content": "\n".join(lines)}]


def clean_rewrite(raw_reply, question, max_chars=60):
    for line in raw_reply.splitlines():
        line = line.strip()
        if line:
            return line if len(line) <= max_chars else question
    return question
