"""Correct: str.split."""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    parts = []
    for message in messages:
        tag = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}.get(message["role"])
        if tag is None:
            raise ValueError("role?", message["role"])
        parts.extend([tag, message["content"]])
    parts.append(ASSISTANT_TAG)
    return "\n".join(parts) + "\n"


def extract_response(output):
    if ASSISTANT_TAG not in output:
        return output.strip()
    reply = output.split(ASSISTANT_TAG)[-1]
    for tag in (USER_TAG, SYSTEM_TAG, END_TAG):
        reply = reply.split(tag)[0]
    return reply.strip()
