"""Correct, in the style of a serving client: rpartition takes what follows the last <|assistant|>, then each
stop string cuts what is left, which ends it at the earliest of them (an output without the tag is all reply)."""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

STOP = (END_TAG, USER_TAG, SYSTEM_TAG, ASSISTANT_TAG)
TEMPLATE = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    chunks = []
    for message in messages:
        role = message["role"]
        if role not in TEMPLATE:
            raise ValueError(f"unsupported role {role}")
        chunks += [TEMPLATE[role], "\n", message["content"], "\n"]
    chunks += [ASSISTANT_TAG, "\n"]
    return "".join(chunks)


def extract_response(output):
    before, tag, text = output.rpartition(ASSISTANT_TAG)
    if not tag:
        return output.strip()
    for stop in STOP:
        index = text.find(stop)
        if index != -1:
            text = text[:index]
    return text.strip()
