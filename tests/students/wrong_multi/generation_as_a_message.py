"""Multi-slip: the generation prompt is added as an empty assistant message appended to the caller's list
(the list changes, and the empty content still gets its line).

Breaks: F3, F4, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    messages.append({"role": "assistant", "content": ""})  # add_generation_prompt
    return "".join(TAGS[m["role"]] + "\n" + m["content"] + "\n" for m in messages)


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
