"""Multi-slip, the one-liner seen in many notebooks: split(tag)[1] takes the first reply and fails without a
tag, and only <|end|> ends it.

Breaks: E1, E2, E3, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    return "".join(TAGS[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    return output.split(ASSISTANT_TAG)[1].split(END_TAG)[0].strip()
