"""Wrong: the tags typed by hand, <|User|> with a capital U.

Breaks: F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    prompt = ""
    for m in messages:
        if m["role"] == "system":
            prompt += "<|system|>\n"
        elif m["role"] == "user":
            prompt += "<|User|>\n"
        else:
            prompt += "<|assistant|>\n"
        prompt += m["content"] + "\n"
    return prompt + "<|assistant|>\n"


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start == -1:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    end = len(reply)
    for tag in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG):
        i = reply.find(tag)
        if i != -1 and i < end:
            end = i
    return reply[:end].strip()
