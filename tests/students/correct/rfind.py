"""Correct: str.rfind and str.find, the style TASK.md suggests."""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    prompt = ""
    for message in messages:
        if message["role"] not in TAGS:
            raise ValueError("unknown role " + message["role"])
        prompt += TAGS[message["role"]] + "\n" + message["content"] + "\n"
    return prompt + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    end = len(reply)
    for tag in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG):
        at = reply.find(tag)
        if at != -1 and at < end:
            end = at
    return reply[:end].strip()
