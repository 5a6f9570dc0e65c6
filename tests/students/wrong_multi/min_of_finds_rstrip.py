"""Multi-slip: min() over find() keeps the -1 of a tag that is not there, and only rstrip() trims.

Breaks: E4, E3, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
STOPS = (USER_TAG, SYSTEM_TAG, END_TAG)


def format_prompt(messages):
    return "".join(TAGS[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start == -1:
        return output.rstrip()
    reply = output[start + len(ASSISTANT_TAG):]
    if any(stop in reply for stop in STOPS):
        reply = reply[:min(reply.find(stop) for stop in STOPS)]
    return reply.rstrip()
