"""Correct: str.rpartition and str.partition."""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    out = []
    for m in messages:
        role = m["role"]
        if role == "system":
            out.append(SYSTEM_TAG)
        elif role == "user":
            out.append(USER_TAG)
        elif role == "assistant":
            out.append(ASSISTANT_TAG)
        else:
            raise ValueError(f"unknown role: {role}")
        out.append("\n" + m["content"] + "\n")
    return "".join(out) + ASSISTANT_TAG + "\n"


def extract_response(output):
    before, found, reply = output.rpartition(ASSISTANT_TAG)
    if not found:
        return output.strip()
    for tag in (END_TAG, SYSTEM_TAG, USER_TAG, ASSISTANT_TAG):
        reply = reply.partition(tag)[0]
    return reply.strip()
