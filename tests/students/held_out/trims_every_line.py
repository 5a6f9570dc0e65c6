"""Held out: trims every line of the reply, so spaces and \\r inside it are lost too (E4 trims the ends only)."""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}



def format_prompt(messages):
    for m in messages:
        if m["role"] not in TAGS:
            raise ValueError(f"unknown role: {m['role']}")
    return "".join(TAGS[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    reply = output if start < 0 else output[start + len(ASSISTANT_TAG):]
    if start >= 0:
        cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
        reply = reply[:min(cuts, default=len(reply))]
    return "\n".join(line.strip() for line in reply.splitlines()).strip()
