"""Wrong: an if/elif over the roles without else and without assistant: an assistant message keeps the previous tag.

Breaks: F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    prompt = ""
    tag = USER_TAG
    for m in messages:
        if m["role"] == "system":
            tag = SYSTEM_TAG
        elif m["role"] == "user":
            tag = USER_TAG
        prompt += tag + "\n" + m["content"] + "\n"
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
