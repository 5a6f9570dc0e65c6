"""Hostile: a long call inside C code (catastrophic regex backtracking) that no signal interrupts."""
import re
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    return "".join(tags[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    re.match(r"(a+)+$", "a" * 64 + "b")
    return output.strip()
