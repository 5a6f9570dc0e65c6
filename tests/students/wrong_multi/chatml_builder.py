"""Multi-slip, ChatML-style builder: the role name goes between <| and |> (so an unknown role becomes a tag
of its own), the generation tag has no newline, and the reply is cut at <|end|> only.

Breaks: F3, F2, E3, E1
"""


def format_prompt(messages):
    prompt = ""
    for message in messages:
        prompt += "<|" + message["role"] + "|>\n" + message["content"] + "\n"
    prompt += "<|assistant|>"
    return prompt


def extract_response(output):
    return output.split("<|assistant|>")[-1].split("<|end|>")[0].strip()
