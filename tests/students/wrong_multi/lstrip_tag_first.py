"""Multi-slip: the reply is taken after the first <|assistant|> with lstrip(tag), which strips characters,
not the tag; boundaries are cut right.

Breaks: E2, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    return "".join(TAGS[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    if ASSISTANT_TAG not in output:
        return output.strip()
    reply = output[output.find(ASSISTANT_TAG):].lstrip(ASSISTANT_TAG)
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
