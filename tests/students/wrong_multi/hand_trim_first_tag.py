"""Multi-slip: find() takes the first <|assistant|>, and a hand-written trim removes only spaces and \\n.

Breaks: E4, E2, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    prompt = ""
    for m in messages:
        prompt = prompt + TAGS[m["role"]] + "\n" + m["content"] + "\n"
    return prompt + ASSISTANT_TAG + "\n"


def trim(text):
    while text and text[0] in " \n":
        text = text[1:]
    while text and text[-1] in " \n":
        text = text[:-1]
    return text


def extract_response(output):
    i = output.find(ASSISTANT_TAG)
    if i == -1:
        return trim(output)
    reply = output[i + len(ASSISTANT_TAG):]
    cut = len(reply)
    for tag in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG):
        j = reply.find(tag)
        if j != -1 and j < cut:
            cut = j
    return trim(reply[:cut])
