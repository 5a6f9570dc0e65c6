"""Wrong: takes the line right after the tag as the reply (split("\\n")[1]).

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
    start = output.rfind(ASSISTANT_TAG)
    if start == -1:
        return output.strip()
    return output[start + len(ASSISTANT_TAG):].split("\n")[1].strip()
