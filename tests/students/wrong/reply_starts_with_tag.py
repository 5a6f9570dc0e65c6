"""Wrong: sliced from the tag itself (no + len(ASSISTANT_TAG)), and <|assistant|> left out of the boundaries, so the tag's text stays in front.

Breaks: E2, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    prompt = ""
    for m in messages:
        prompt += tags[m["role"]] + "\n" + m["content"] + "\n"
    return prompt + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start == -1:
        return output.strip()
    reply = output[start:]
    for tag in (END_TAG, USER_TAG, SYSTEM_TAG):
        reply = reply.split(tag)[0]
    return reply.strip()
