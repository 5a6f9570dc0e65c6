"""Wrong: a while loop over the messages that never moves its index on.

Breaks: mistake 11, F2, E1
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    prompt = ""
    i = 0
    while i < len(messages):
        prompt += tags[messages[i]["role"]] + "\n" + messages[i]["content"] + "\n"
    return prompt + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    reply = output if start < 0 else output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
