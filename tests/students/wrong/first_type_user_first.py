"""Wrong: cuts at the first boundary type found (<|user|> checked before <|end|>), not the earliest.

Breaks: E3, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    return "".join(tags[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    for tag in (USER_TAG, SYSTEM_TAG, END_TAG):
        if tag in reply:
            return reply[:reply.find(tag)].strip()
    return reply.strip()
