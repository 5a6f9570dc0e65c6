"""Hostile: prints 16 MB while loading; its functions are right, so printing must change nothing."""
import sys

sys.stdout.write("x" * (16 << 20))  # 4,000 times what is kept; sized so that no limit is near

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG  # noqa: E402


def format_prompt(messages):
    tags = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
    if any(m["role"] not in tags for m in messages):
        raise ValueError("unknown role: " + ", ".join(m["role"] for m in messages if m["role"] not in tags))
    return "".join(tags[m["role"]] + "\n" + m["content"] + "\n" for m in messages) + ASSISTANT_TAG + "\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
