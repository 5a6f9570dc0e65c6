"""Wrong: strip("\\n") keeps spaces and tabs.

Breaks: E4, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    prompt = ""
    for m in messages:
        prompt += tags[m["role"]] + "\n" + m["content"] + "\n"
    return prompt + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start == -1:
        return output.strip("\n")
    reply = output[start + len(ASSISTANT_TAG):]
    end = len(reply)
    for tag in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG):
        i = reply.find(tag)
        if i != -1 and i < end:
            end = i
    return reply[:end].strip("\n")
