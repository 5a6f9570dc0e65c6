"""Multi-slip template for a model "without a system role": system messages are skipped, the turns are
joined with a blank line between them, and any role that is not user is written as the assistant.

Breaks: F1, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    turns = []
    for m in messages:
        if m["role"] == "system":
            continue  # this model has no system prompt
        tag = USER_TAG if m["role"] == "user" else ASSISTANT_TAG
        turns.append(f"{tag}\n{m['content']}\n")
    return "\n".join(turns) + "\n" + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start == -1:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    ends = [reply.find(tag) for tag in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)]
    ends = [end for end in ends if end != -1]
    return reply[:min(ends)].strip() if ends else reply.strip()
