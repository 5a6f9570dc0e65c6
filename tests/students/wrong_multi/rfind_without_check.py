"""Multi-slip stop strings after rfind(): no check for -1, so an output without <|assistant|> is sliced from
position 12; the cuts themselves are right.

Breaks: E1, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    return "".join(TAGS[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    text = output[output.rfind(ASSISTANT_TAG) + len(ASSISTANT_TAG):]
    for stop in (END_TAG, USER_TAG, SYSTEM_TAG):
        if stop in text:
            text = text[:text.index(stop)]
    return text.strip()
