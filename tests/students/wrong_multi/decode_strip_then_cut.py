"""Multi-slip, as after tokenizer.decode(): the last reply is stripped first and then cut at <|end|> only (so
the whitespace before <|end|> stays, and <|user|> or <|system|> do not end the reply).

Breaks: E3, E4, F2, E1
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    return "".join(TAGS[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    response = output.split(ASSISTANT_TAG)[-1].strip()
    if END_TAG in response:
        response = response[:response.index(END_TAG)]
    return response
