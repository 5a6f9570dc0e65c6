"""A correct Lab10 written another way: the optional fields from a table of (name, default, check), the role
checked with a set, one event writer for every chunk."""

import json

from framework.api import (CHUNK_OBJECT, CLIENT_ERROR, COMPLETION_OBJECT, DEFAULT_MAX_TOKENS, DONE_EVENT,
                           MAX_TOKENS_LIMIT, ROLES, SERVER_ERROR)

OPTIONAL = (("max_tokens", DEFAULT_MAX_TOKENS, lambda v: type(v) is int and 0 < v <= MAX_TOKENS_LIMIT),
            ("stream", False, lambda v: type(v) is bool))


def parse_chat_request(body):
    try:
        request = json.loads(body)
    except json.JSONDecodeError:
        raise ValueError("body: invalid JSON") from None
    if not isinstance(request, dict):
        raise ValueError("body: expected an object")
    messages = request.get("messages")
    if not (isinstance(messages, list) and messages):
        raise ValueError("messages: required, a non-empty array")
    result = {"messages": []}
    for position, message in enumerate(messages):
        if not isinstance(message, dict):
            raise ValueError(f"messages.{position}: expected an object")
        if message.get("role") not in set(ROLES) if isinstance(message.get("role"), str) else True:
            raise ValueError(f"messages.{position}.role: invalid")
        if not isinstance(message.get("content"), str):
            raise ValueError(f"messages.{position}.content: invalid")
        result["messages"].append({"role": message["role"], "content": message["content"]})
    for name, default, valid in OPTIONAL:
        value = request.get(name)
        if value is None:
            value = default
        elif not valid(value):
            raise ValueError(f"{name}: invalid value {value!r}")
        result[name] = value
    return result


def chat_completion(reply, prompt_tokens, completion_tokens, finish_reason):
    return dict(object=COMPLETION_OBJECT,
                choices=[dict(index=0, message=dict(role="assistant", content=reply), finish_reason=finish_reason)],
                usage=dict(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                           total_tokens=sum((prompt_tokens, completion_tokens))))


def _event(meta, delta, finish_reason=None):
    return "data: %s\n\n" % json.dumps({"id": meta["id"], "object": CHUNK_OBJECT, "created": meta["created"],
                                        "model": meta["model"], "choices": [
                                            {"index": 0, "delta": delta, "finish_reason": finish_reason}]})


def sse_events(pieces, finish_reason, meta):
    return ([_event(meta, {"role": "assistant", "content": ""})] + [_event(meta, {"content": piece}) for piece in pieces]
            + [_event(meta, {}, finish_reason), DONE_EVENT])


def error_body(status, message):
    return {"error": {"message": message, "type": SERVER_ERROR if status >= 500 else CLIENT_ERROR, "code": status}}
