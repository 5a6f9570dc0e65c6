"""Multi-slip, add_generation_prompt only when the user spoke last, and stripped contents.

Breaks: F3, F1
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    for m in messages:
        if m["role"] not in TAGS:
            raise ValueError(f"unknown role {m['role']!r}")
    prompt = "".join(f"{TAGS[m['role']]}\n{m['content'].strip()}\n" for m in messages)
    if messages and messages[-1]["role"] == "user":
        prompt += ASSISTANT_TAG + "\n"
    return prompt


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
