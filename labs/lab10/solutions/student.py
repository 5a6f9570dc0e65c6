"""Lab10 · HTTP 服务 —— 参考答案 (只给教师；不要发给学生)。

与 framework/student.py 的函数签名和文档字符串完全相同。
"""

import json

from framework.api import (
    CHUNK_OBJECT,
    CLIENT_ERROR,
    COMPLETION_OBJECT,
    DEFAULT_MAX_TOKENS,
    DONE_EVENT,
    MAX_TOKENS_LIMIT,
    ROLES,
    SERVER_ERROR,
)


def parse_chat_request(body: str) -> dict:
    r"""把 POST /v1/chat/completions 的请求体 (JSON 文本) 变成 {"messages", "max_tokens", "stream"}。

    messages 里每条只保留 role 和 content；max_tokens 默认 DEFAULT_MAX_TOKENS，stream 默认 False；其他字段不管。
    请求有错时 raise ValueError，信息里写出出错的字段: body、messages、role、content、max_tokens 或 stream。
    例: parse_chat_request('{"messages": [{"role": "user", "content": "hi"}]}')["max_tokens"] == DEFAULT_MAX_TOKENS
    """
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
    r"""不流式时的响应体 (id、created、model 由服务器补上)。

    一个 choice: index 0，message 是 {"role": "assistant", "content": reply}，还有 finish_reason；
    usage 写出三个 token 数，total_tokens = prompt_tokens + completion_tokens。
    例: chat_completion("你好", 3, 2, "stop")["usage"]["total_tokens"] == 5
    """
    return {
        "object": COMPLETION_OBJECT,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": finish_reason}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def sse_events(pieces: list[str], finish_reason: str, meta: dict) -> list[str]:
    r"""流式响应: Server-Sent Events 的事件列表，每个事件是 "data: " + json.dumps(块) + "\n\n"。

    第一块的 delta 是 {"role": "assistant", "content": ""}；每个 piece 一块，delta 是 {"content": piece}；
    最后一块的 delta 是 {}，带上 finish_reason；最后是 DONE_EVENT。每块都带 meta 的 id、created、model。
    例: sse_events([], "stop", {"id": "c", "created": 0, "model": "m"})[-1] == "data: [DONE]\n\n"
    """

    def event(delta: dict, finish=None) -> str:
        chunk = {
            "id": meta["id"],
            "object": CHUNK_OBJECT,
            "created": meta["created"],
            "model": meta["model"],
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return "data: " + json.dumps(chunk) + "\n\n"

    events = [event({"role": "assistant", "content": ""})]
    events += [event({"content": piece}) for piece in pieces]
    return events + [event({}, finish_reason), DONE_EVENT]


def error_body(status: int, message: str) -> dict:
    r"""出错时的响应体: {"error": {"message": message, "type": 类型, "code": status}}。

    4xx 的类型是 CLIENT_ERROR ("invalid_request_error")，5xx 的是 SERVER_ERROR ("server_error")。
    例: error_body(404, "no such path")["error"]["type"] == "invalid_request_error"
    """
    return {"error": {"message": message, "type": CLIENT_ERROR if status < 500 else SERVER_ERROR, "code": status}}
