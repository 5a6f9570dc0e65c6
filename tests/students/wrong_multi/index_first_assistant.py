"""Multi-slip: str.index finds the first <|assistant|> (and raises ValueError when there is none); the reply
is then cut at the earliest boundary.

Breaks: E1, E2, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    return "".join(f"{TAGS[m['role']]}\n{m['content']}\n" for m in messages) + f"{ASSISTANT_TAG}\n"


def extract_response(output):
    start = output.index(ASSISTANT_TAG) + len(ASSISTANT_TAG)
    reply = output[start:]
    positions = [p for p in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if p >= 0]
    if positions:
        reply = reply[:min(positions)]
    return reply.strip()
