"""Multi-slip: newlines inside a content are replaced by spaces "so the layout stays clean", and an unknown
role ends in the KeyError of the dict lookup.

Breaks: F2, F1
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
SEP = "\n"


def format_prompt(messages):
    parts = [f"{TAGS[m['role']]}{SEP}{m['content'].replace(SEP, ' ')}{SEP}" for m in messages]
    return "".join(parts) + ASSISTANT_TAG + SEP


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
