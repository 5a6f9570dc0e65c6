"""parse_chat_request never returns (a while loop whose condition never turns false); the rest is the reference's
shape, shortened.  Harmless: it only spins until its call's time limit ends its process."""

import json


def parse_chat_request(body):
    request = json.loads(body)
    while request:
        pass


def chat_completion(reply, prompt_tokens, completion_tokens, finish_reason):
    return {"object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens}}


def sse_events(pieces, finish_reason, meta):
    return []


def error_body(status, message):
    return {"error": {"message": message, "type": "invalid_request_error" if status < 500 else "server_error",
                      "code": status}}
