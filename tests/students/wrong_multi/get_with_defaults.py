"""Multi-slip, defensive dict.get: a missing role means user, and the assistant's tag is looked up as END_TAG
(the constants were imported and used, just the wrong one).

Breaks: F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAG_FOR = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": END_TAG}


def format_prompt(messages):
    prompt = ""
    for message in messages:
        prompt += TAG_FOR.get(message.get("role"), USER_TAG) + "\n" + message.get("content", "") + "\n"
    return prompt + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
