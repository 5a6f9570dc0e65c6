"""sse_events ends its own process (os._exit) and error_body raises; parse_chat_request answers only a minimal
request.  Harmless: it ends no process but its own."""

import json
import os


def parse_chat_request(body):
    request = json.loads(body)
    return {"messages": request["messages"], "max_tokens": 8, "stream": bool(request.get("stream"))}


def chat_completion(reply, prompt_tokens, completion_tokens, finish_reason):
    return {}


def sse_events(pieces, finish_reason, meta):
    os._exit(3)


def error_body(status, message):
    raise RuntimeError("no error bodies here")
