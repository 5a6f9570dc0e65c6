"""Wrong: output.split(ASSISTANT_TAG)[1] with no check for an output without the tag (IndexError).

Breaks: E1, E2, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    prompt = ""
    for m in messages:
        prompt += tags[m["role"]] + "\n" + m["content"] + "\n"
    return prompt + ASSISTANT_TAG + "\n"


def extract_response(output):
    reply = output.split(ASSISTANT_TAG)[1]
    for tag in (USER_TAG, SYSTEM_TAG, END_TAG):
        reply = reply.split(tag)[0]
    return reply.strip()
