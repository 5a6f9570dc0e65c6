"""Wrong: re.search finds the FIRST <|assistant|> and what follows it.

Breaks: E2, F2
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
    match = re.search(r"<\|assistant\|>(.*?)(<\|user\|>|<\|system\|>|<\|end\|>|$)", output, re.S)
    if match is None:
        return output.strip()
    return match.group(1).strip()
