"""Multi-slip regex: re.search finds the first <|assistant|>, the lazy group stops at <|end|>, <|user|> or the
end (not at <|system|>), and without a match the output is returned untrimmed.

Breaks: E4, E2, E3, F2
"""
import re

from framework.tags import ASSISTANT_TAG, SYSTEM_TAG, USER_TAG

REPLY = re.compile(r"<\|assistant\|>(.*?)(?:<\|end\|>|<\|user\|>|$)", re.S)
TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    return "".join(TAGS[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    match = REPLY.search(output)
    if not match:
        return output
    return match.group(1).strip()
