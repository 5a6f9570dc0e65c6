"""The stream ends with the last chunk: no data: [DONE] after it.

Breaks: S5
"""

import json

from framework.api import (CHUNK_OBJECT, CLIENT_ERROR, COMPLETION_OBJECT, DEFAULT_MAX_TOKENS, DONE_EVENT,
                           MAX_TOKENS_LIMIT, ROLES, SERVER_ERROR)


def parse_chat_request(body: str) -> dict:
    try:
        request = json.loads(body)
    except json.JSONDecodeError as error:
        raise ValueError(f"body: not JSON ({error})") from None
    if not isinstance(request, dict):
        raise ValueError("body: not a JSON object")
    messages = request.get("messages")
    if not isinstance(messages, list) or not messages:
        raise ValueError("messages: a non-empty list of messages is required")
    kept = []
    for index, message in enumerate(messages):
        if not isinstance(message, dict):
            raise ValueError(f"messages[{index}]: not an object")
        role = message.get("role")
        if not isinstance(role, str) or role not in ROLES:
            raise ValueError(f"messages[{index}].role: must be one of {', '.join(ROLES)}, not {role!r}")
        content = message.get("content")
        if not isinstance(content, str):
            raise ValueError(f"messages[{index}].content: must be a string, not {content!r}")
        kept.append({"role": role, "content": content})
    max_tokens = request.get("max_tokens")
    if max_tokens is None:
        max_tokens = DEFAULT_MAX_TOKENS
    elif type(max_tokens) is not int or not 1 <= max_tokens <= MAX_TOKENS_LIMIT:
        raise ValueError(f"max_tokens: must be a whole number from 1 to {MAX_TOKENS_LIMIT}, not {max_tokens!r}")
    stream = request.get("stream")
    if stream is None:
        stream = False
    elif type(stream) is not bool:
        raise ValueError(f"stream: must be true or false, not {stream!r}")
    return {"messages": kept, "max_tokens": max_tokens, "stream": stream}


def chat_completion(reply: str, prompt_tokens: int, completion_tokens: int, finish_reason: str) -> dict:
    return {
        "object": COMPLETION_OBJECT,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


def sse_events(pieces: list[str], finish_reason: str, meta: dict) -> list[str]:
    def event(delta: dict, finish=None) -> str:
        chunk = {"id": meta["id"], "object": CHUNK_OBJECT, "created": meta["created"], "model": meta["model"],
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        return "data: " + json.dumps(chunk) + "\n\n"

    events = [event({"role": "assistant", "content": ""})]
    events += [event({"content": piece}) for piece in pieces]
    return events + [event({}, finish_reason)]


def error_body(status: int, message: str) -> dict:
    return {"error": {"message": message, "type": CLIENT_ERROR if status < 500 else SERVER_ERROR, "code": status}}
