"""Wrong: a line <|end|> closes every message.

Breaks: F1, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    lines = []
    for m in messages:
        lines += [tags[m["role"]], m["content"], END_TAG]
    lines.append(ASSISTANT_TAG)
    return "\n".join(lines) + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start == -1:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    end = len(reply)
    for tag in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG):
        i = reply.find(tag)
        if i != -1 and i < end:
            end = i
    return reply[:end].strip()
