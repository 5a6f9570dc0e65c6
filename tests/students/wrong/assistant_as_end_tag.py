"""Wrong: the role table maps assistant to END_TAG (the constants are imported and used, one of them wrongly).

Breaks: F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": END_TAG}


def format_prompt(messages):
    prompt = ""
    for m in messages:
        if m["role"] not in TAGS:
            raise ValueError(f"unknown role: {m['role']}")
        prompt += TAGS[m["role"]] + "\n" + m["content"] + "\n"
    return prompt + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start == -1:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
