"""Multi-slip, Zephyr-style template: every turn ends with </s>, and the reply is cut at </s> instead of the
lab's boundaries.

Breaks: F1, F2, E3
"""

TEMPLATE = "<|{role}|>\n{content}</s>\n"


def format_prompt(messages):
    text = ""
    for m in messages:
        text += TEMPLATE.format(role=m["role"], content=m["content"])
    return text + "<|assistant|>\n"


def extract_response(output):
    reply = output.split("<|assistant|>")[-1]
    return reply.split("</s>")[0].strip()
