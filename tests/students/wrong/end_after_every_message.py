"""Wrong: <|end|> after every message, the way Phi-3's template (TASK.md 1.5.6) writes it.

Breaks: F1, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    prompt = ""
    for m in messages:
        prompt += tags[m["role"]] + "\n" + m["content"] + END_TAG + "\n"
    return prompt + ASSISTANT_TAG + "\n"


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
