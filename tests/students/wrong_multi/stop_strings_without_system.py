"""Multi-slip stop-string loop: the stop list forgets <|system|>, and unknown roles fall back to the user tag.

Breaks: E3, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

ROLE_TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}
STOP = [END_TAG, USER_TAG, ASSISTANT_TAG]


def format_prompt(messages):
    prompt = ""
    for m in messages:
        prompt += ROLE_TAGS.get(m["role"], USER_TAG) + "\n" + m["content"] + "\n"
    return prompt + ASSISTANT_TAG + "\n"


def extract_response(output):
    if ASSISTANT_TAG not in output:
        return output.strip()
    text = output.rsplit(ASSISTANT_TAG, 1)[1]
    for stop in STOP:
        i = text.find(stop)
        if i != -1:
            text = text[:i]
    return text.strip()
