"""Wrong: an <|assistant|> line after every user message (as a chat loop that opens the reply after each question
writes it), and one more at the end unless the last message was a user's: one generation line only in a prompt that
ends with a question.

Breaks: F3
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

TAGS = {"system": SYSTEM_TAG, "user": USER_TAG, "assistant": ASSISTANT_TAG}


def format_prompt(messages):
    prompt = ""
    for m in messages:
        if m["role"] not in TAGS:
            raise ValueError(f"unknown role: {m['role']}")
        prompt += TAGS[m["role"]] + "\n" + m["content"] + "\n"
        if m["role"] == "user":
            prompt += ASSISTANT_TAG + "\n"
    if not messages or messages[-1]["role"] != "user":
        prompt += ASSISTANT_TAG + "\n"
    return prompt


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
