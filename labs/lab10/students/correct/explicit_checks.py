"""A correct Lab10 written another way: explicit checks in a helper per field, events built with f-strings and a
loop, error types from a table of the status's hundreds."""

import json

from framework.api import CHUNK_OBJECT, COMPLETION_OBJECT, DEFAULT_MAX_TOKENS, DONE_EVENT, MAX_TOKENS_LIMIT, ROLES


def _message(index, message):
    if type(message) is not dict:
        raise ValueError(f"messages[{index}] is not an object")
    if "role" not in message or message["role"] not in ROLES or type(message["role"]) is not str:
        raise ValueError(f"role of message {index} is missing or unknown")
    if type(message.get("content")) is not str:
        raise ValueError(f"content of message {index} must be a string")
    return {"role": message["role"], "content": message["content"]}


def parse_chat_request(body):
    try:
        data = json.loads(body)
    except ValueError as error:
        raise ValueError("body is not JSON: " + str(error))
    if type(data) is not dict:
        raise ValueError("body must be a JSON object")
    if type(data.get("messages")) is not list or len(data["messages"]) == 0:
        raise ValueError("messages must be a non-empty list")
    messages = [_message(index, message) for index, message in enumerate(data["messages"])]
    max_tokens = data.get("max_tokens", None)
    if max_tokens is None:
        max_tokens = DEFAULT_MAX_TOKENS
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1 or max_tokens > MAX_TOKENS_LIMIT:
        raise ValueError("max_tokens must be an integer between 1 and %d" % MAX_TOKENS_LIMIT)
    stream = data.get("stream")
    if stream is None:
        stream = False
    if stream is not True and stream is not False:
        raise ValueError("stream must be a boolean")
    return {"messages": messages, "max_tokens": max_tokens, "stream": stream}


def chat_completion(reply, prompt_tokens, completion_tokens, finish_reason):
    usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}
    usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
    choice = {"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": finish_reason}
    return {"usage": usage, "choices": [choice], "object": COMPLETION_OBJECT}


def sse_events(pieces, finish_reason, meta):
    deltas = [({"role": "assistant", "content": ""}, None)] + [({"content": p}, None) for p in pieces]
    deltas.append(({}, finish_reason))
    events = []
    for delta, finish in deltas:
        chunk = {}
        chunk["id"] = meta["id"]
        chunk["object"] = CHUNK_OBJECT
        chunk["created"] = meta["created"]
        chunk["model"] = meta["model"]
        chunk["choices"] = [{"index": 0, "delta": delta, "finish_reason": finish}]
        events.append(f"data: {json.dumps(chunk)}\n\n")
    events.append(DONE_EVENT)
    return events


def error_body(status, message):
    kinds = {4: "invalid_request_error", 5: "server_error"}
    return {"error": {"code": status, "type": kinds[status // 100], "message": message}}
