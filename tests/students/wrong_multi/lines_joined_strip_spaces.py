"""Multi-slip: the prompt is a list of lines joined with "\\n" (no newline after the generation tag), and the
reply is trimmed with strip(" ") (tabs, newlines and full-width spaces stay).

Breaks: F3, F2, E4, E1
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    lines = []
    for m in messages:
        lines.append(TAGS[m["role"]])
        lines.append(m["content"])
    lines.append(ASSISTANT_TAG)
    return "\n".join(lines)


def extract_response(output):
    reply = output.split(ASSISTANT_TAG)[-1]
    for stop in (USER_TAG, SYSTEM_TAG, END_TAG):
        reply = reply.split(stop)[0]
    return reply.strip(" ")
