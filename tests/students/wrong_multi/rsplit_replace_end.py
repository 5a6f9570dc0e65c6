"""Multi-slip: rsplit(tag, 1)[1] (IndexError when the output has no <|assistant|>), <|end|> removed with
replace() instead of cut, and the reply then cut at <|user|> and <|system|>.

Breaks: E1, E3, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    return "".join(TAGS[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    reply = output.rsplit(ASSISTANT_TAG, 1)[1]
    reply = reply.replace(END_TAG, "")
    for tag in (USER_TAG, SYSTEM_TAG):
        reply = reply.split(tag)[0]
    return reply.strip()
