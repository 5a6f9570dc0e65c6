"""Multi-slip turn template (as in templates that open the assistant's turn after every user message): the
tag for the assistant is written after each user message, assistant messages add only their content, system
and unknown roles are skipped.

Breaks: F1, F2
"""
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG


def format_prompt(messages):
    prompt = ""
    for m in messages:
        if m["role"] == "user":
            prompt += f"{USER_TAG}\n{m['content']}\n{ASSISTANT_TAG}\n"
        elif m["role"] == "assistant":
            prompt += f"{m['content']}\n"
    if not prompt.endswith(ASSISTANT_TAG + "\n"):
        prompt += ASSISTANT_TAG + "\n"
    return prompt


def extract_response(output):
    start = output.rfind(ASSISTANT_TAG)
    if start < 0:
        return output.strip()
    reply = output[start + len(ASSISTANT_TAG):]
    cuts = [i for i in (reply.find(t) for t in (USER_TAG, ASSISTANT_TAG, SYSTEM_TAG, END_TAG)) if i >= 0]
    return reply[:min(cuts, default=len(reply))].strip()
