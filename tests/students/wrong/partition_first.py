"""Wrong: output.partition(ASSISTANT_TAG): the first tag, and an empty reply when there is none.

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
    before, tag, reply = output.partition(ASSISTANT_TAG)
    end = len(reply)
    for boundary in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG):
        i = reply.find(boundary)
        if i != -1 and i < end:
            end = i
    return reply[:end].strip()
