"""Multi-slip, Phi-3-style template: <|end|> after every message; the reply starts at rfind without a check
for -1 (an output without <|assistant|> loses its first 13 characters) and stops at <|end|> or <|user|>.

Breaks: F1, F2, E1, E3
"""

ROLES = {"system": "<|system|>", "user": "<|user|>", "assistant": "<|assistant|>"}


def format_prompt(messages):
    out = []
    for msg in messages:
        out.append(f"{ROLES[msg['role']]}\n{msg['content']}<|end|>\n")
    out.append("<|assistant|>\n")
    return "".join(out)


def extract_response(output):
    reply = output[output.rfind("<|assistant|>") + len("<|assistant|>"):]
    for stop in ("<|end|>", "<|user|>"):
        reply = reply.split(stop)[0]
    return reply.strip()
