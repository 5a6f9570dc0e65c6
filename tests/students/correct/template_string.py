"""Correct, a template string per message and a regex that keeps the text after the last tag up to the first
boundary (re.split on the four tags, then the piece after the last <|assistant|>)."""
import re

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

MESSAGE = "{tag}\n{content}\n"
TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
BOUNDARY = re.compile("|".join(re.escape(tag) for tag in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)))


def format_prompt(messages):
    bad = [m["role"] for m in messages if m["role"] not in TAGS]
    if bad:
        raise ValueError("unknown role: " + bad[0])
    return "".join(MESSAGE.format(tag=TAGS[m["role"]], content=m["content"]) for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    if ASSISTANT_TAG not in output:
        return output.strip()
    after = output[output.rindex(ASSISTANT_TAG) + len(ASSISTANT_TAG):]
    return BOUNDARY.split(after, maxsplit=1)[0].strip()
