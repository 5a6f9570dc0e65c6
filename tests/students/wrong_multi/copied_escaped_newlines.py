"""Multi-slip: the layout copied from a docstring that showed "\\\\n", so every newline is a backslash and an
n; and the reply is cut at a newline.

Breaks: F1, F2, E3
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    prompt = ""
    for m in messages:
        prompt += TAGS[m["role"]] + "\\n" + m["content"] + "\\n"
    return prompt + ASSISTANT_TAG + "\\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):].strip()
    for tag in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG, "\n"):
        reply = reply.split(tag)[0]
    return reply.strip()
