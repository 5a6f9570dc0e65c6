"""Hostile (issue 15, finding 3, honest): returns the right prompt and the right reply, then grows the list it
was given by two strings of a million characters (one object), so that the arguments afterwards come back
about 2 MB long on every call, twice what a value may have.  Nothing is forged: every byte is what the
child's own encoder sends.

Safe: it only builds strings in its own memory.
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
PIECE = "z" * 1_000_000


def format_prompt(messages):
    lines = []
    for message in messages:
        if message["role"] not in TAGS:
            raise ValueError(f"unknown role: {message['role']}")
        lines += [TAGS[message["role"]], message["content"]]
    messages.extend([PIECE] * 2)
    return "\n".join(lines + [ASSISTANT_TAG]) + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    ends = [reply.find(tag) for tag in (USER_TAG, SYSTEM_TAG, ASSISTANT_TAG, END_TAG) if tag in reply]
    return reply[:min(ends)].strip() if ends else reply.strip()
