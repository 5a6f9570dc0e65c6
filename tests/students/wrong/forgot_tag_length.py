"""Wrong: the reply is sliced from the tag itself (no + len(ASSISTANT_TAG)); the earliest boundary is then the tag at position 0.

Breaks: E2, F2
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
    reply = output[start:]
    cuts = [reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG) if reply.find(t) != -1]
    if cuts:
        reply = reply[:min(cuts)]
    return reply.strip()
