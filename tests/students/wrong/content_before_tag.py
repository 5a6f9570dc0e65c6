"""Wrong: content line written before its tag line.

Breaks: F1, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    return "".join(m["content"] + "\n" + tags[m["role"]] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
