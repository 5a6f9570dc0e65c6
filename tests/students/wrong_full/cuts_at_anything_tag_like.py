"""Passes the six; wrong in the extended checks: cuts at any <|...|>, not only the four tags.

Breaks: E3
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    for m in messages:
        if m["role"] not in TAGS:
            raise ValueError(f"unknown role: {m['role']}")
    return "".join(TAGS[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


import re


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    return re.split(r"<\|\w+\|>", output[start + len(ASSISTANT_TAG):])[0].strip()
