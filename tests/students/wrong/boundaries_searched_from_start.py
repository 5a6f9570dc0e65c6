"""Wrong: the boundaries are searched in the whole output (find without a start), so the cut lies before the reply.

Breaks: E3, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    prompt = ""
    for m in messages:
        prompt += tags[m["role"]] + "\n" + m["content"] + "\n"
    return prompt + ASSISTANT_TAG + "\n"


def extract_response(output):
    if ASSISTANT_TAG not in output:
        return output.strip()
    start = output.rfind(ASSISTANT_TAG) + len(ASSISTANT_TAG)
    end = len(output)
    for tag in (USER_TAG, SYSTEM_TAG, END_TAG):
        i = output.find(tag)
        if i != -1 and i < end:
            end = i
    return output[start:end].strip()
