"""sse_events returns some 8 MB of events, beyond what a reply may carry; the rest returns the wrong types.
Harmless: the memory is the child's own and within its limit."""


def parse_chat_request(body):
    return "{}"


def chat_completion(reply, prompt_tokens, completion_tokens, finish_reason):
    return [reply]


def sse_events(pieces, finish_reason, meta):
    return ["data: " + "x" * 1000 + "\n\n"] * 8000


def error_body(status, message):
    return None
