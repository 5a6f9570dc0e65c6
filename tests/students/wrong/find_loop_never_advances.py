"""Wrong: a while loop looking for the last tag searches again from the same place (endless).

Breaks: mistake 11, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    prompt = ""
    for m in messages:
        prompt += tags[m["role"]] + "\n" + m["content"] + "\n"
    return prompt + ASSISTANT_TAG + "\n"


def extract_response(output):
    last = -1
    i = output.find(ASSISTANT_TAG)
    while i != -1:
        last = i
        i = output.find(ASSISTANT_TAG, i)  # 应该从 i + 1 开始找
    if last == -1:
        return output.strip()
    reply = output[last + len(ASSISTANT_TAG):]
    end = len(reply)
    for tag in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG):
        j = reply.find(tag)
        if j != -1 and j < end:
            end = j
    return reply[:end].strip()
