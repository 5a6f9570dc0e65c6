"""Wrong: an if/elif over user and assistant only, no else: a system message finds no tag (UnboundLocalError).

Breaks: F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    prompt = ""
    for m in messages:
        role = m["role"]
        if role == "user":
            tag = USER_TAG
        elif role == "assistant":
            tag = ASSISTANT_TAG
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
