"""Multi-slip: messages joined with "\\n" and the generation tag appended without its newline; an unknown
role raises ValueError, but the message does not say which role.

Breaks: F3, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    for m in messages:
        if m["role"] not in TAGS:
            raise ValueError("unknown role")
    body = "\n".join(f"{TAGS[m['role']]}\n{m['content']}" for m in messages)
    return (body + "\n" if body else "") + ASSISTANT_TAG


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
