"""Correct: a character-by-character scan, the way the C lab does it."""
from framework import tags


def format_prompt(messages):
    result = ""
    i = 0
    while i < len(messages):
        role = messages[i]["role"]
        if role == "system":
            tag = tags.SYSTEM_TAG
        elif role == "user":
            tag = tags.USER_TAG
        elif role == "assistant":
            tag = tags.ASSISTANT_TAG
        else:
            raise ValueError("unknown role %r" % role)
        result = result + tag + "\n" + messages[i]["content"] + "\n"
        i += 1
    return result + tags.ASSISTANT_TAG + "\n"


def _starts_with_at(text, pos, word):
    return text[pos:pos + len(word)] == word


def extract_response(output):
    start = -1
    pos = 0
    while pos < len(output):
        if _starts_with_at(output, pos, tags.ASSISTANT_TAG):
            start = pos + len(tags.ASSISTANT_TAG)
            pos = start
        else:
            pos += 1
    if start == -1:
        start, end = 0, len(output)
    else:
        end = start
        boundaries = (tags.USER_TAG, tags.ASSISTANT_TAG, tags.SYSTEM_TAG, tags.END_TAG)
        while end < len(output) and not any(_starts_with_at(output, end, b) for b in boundaries):
            end += 1
    a, b = start, end
    while a < b and output[a].isspace():
        a += 1
    while b > a and output[b - 1].isspace():
        b -= 1
    return output[a:b]
