"""Hostile: 150,000 public names and no format_prompt (a "did you mean" search over all of them would be slow);
its extract_response is right."""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

for _number in range(150_000):
    globals()[f"format_promp{_number}"] = len


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
