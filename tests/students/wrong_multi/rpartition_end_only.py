"""Multi-slip: rpartition takes the last <|assistant|> (and all of a tagless output), the reply is cut at
<|end|> only, and strip("\\n") leaves spaces and tabs.

Breaks: E4, E3, F2, E1
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tag_of = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    return "".join(tag_of[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    reply = output.rpartition(ASSISTANT_TAG)[2]
    reply = reply.partition(END_TAG)[0]
    return reply.strip("\n")
