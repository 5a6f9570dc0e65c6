"""Wrong: a greedy (.*) before the boundaries, so the cut falls at the LAST boundary.

Breaks: E3, F2
"""
import re

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    prompt = ""
    for m in messages:
        prompt += tags[m["role"]] + "\n" + m["content"] + "\n"
    return prompt + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start == -1:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    match = re.match(r"(.*)(<\|user\|>|<\|assistant\|>|<\|system\|>|<\|end\|>)", reply, re.S)
    if match:
        reply = match.group(1)
    return reply.strip()
