"""Correct: regular expressions."""
import re

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

BOUNDARY = re.compile("|".join(re.escape(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)))


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    try:
        lines = [f"{tags[m['role']]}\n{m['content']}\n" for m in messages]
    except KeyError as missing:
        raise ValueError(f"unknown role {missing}") from None
    return "".join(lines) + f"{ASSISTANT_TAG}\n"


def extract_response(output):
    matches = list(re.finditer(re.escape(ASSISTANT_TAG), output))
    if not matches:
        return output.strip()
    reply = output[matches[-1].end():]
    return BOUNDARY.split(reply, maxsplit=1)[0].strip()
