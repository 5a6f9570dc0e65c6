"""Correct: tags written as literals, no import, str.join and min()."""


def format_prompt(messages):
    tag_of = {"system": "<|system|>", "user": "<|user|>", "assistant": "<|assistant|>"}
    for m in messages:
        if m["role"] not in tag_of:
            raise ValueError("unknown role: " + str(m["role"]))
    return "".join("%s\n%s\n" % (tag_of[m["role"]], m["content"]) for m in messages) + "<|assistant|>\n"


def extract_response(output):
    i = output.rfind("<|assistant|>")
    if i == -1:
        return output.strip()
    rest = output[i + len("<|assistant|>"):]
    ends = [rest.find(t) for t in ("<|user|>", "<|assistant|>", "<|system|>", "<|end|>")]
    ends = [e for e in ends if e >= 0]
    return rest[:min(ends)].strip() if ends else rest.strip()
