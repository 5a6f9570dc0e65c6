"""Passes the six; wrong in the extended checks: trims only the C isspace characters, so a full-width space stays.

Breaks: E4
"""
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
    return reply.strip(" \t\n\r\x0b\x0c")
