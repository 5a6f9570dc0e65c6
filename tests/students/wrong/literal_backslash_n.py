"""Wrong: the newlines typed as in an editor's view of an escaped docstring, "\\\\n": a backslash and an n.

Breaks: F1
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    prompt = ""
    for m in messages:
        if m["role"] not in TAGS:
            raise ValueError(f"unknown role: {m['role']}")
        prompt += TAGS[m["role"]] + "\\n" + m["content"] + "\\n"
    return prompt + ASSISTANT_TAG + "\\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start == -1:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
