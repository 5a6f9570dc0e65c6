"""Multi-slip, written on Windows: lines end with \\r\\n, and every content is strip()ped "to be safe".

Breaks: F1, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

NEWLINE = "\r\n"
TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    prompt = ""
    for m in messages:
        prompt += TAGS[m["role"]] + NEWLINE + m["content"].strip() + NEWLINE
    return prompt + ASSISTANT_TAG + NEWLINE


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
