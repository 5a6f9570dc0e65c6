"""make serve's sentences (lab10/serve.py, lab10/e2e.py), zh and en, and its make help lines (LAB.texts names this
module).  The end-to-end checks' problems name the rule of TASK.md / TASK.en.md they break."""

# key: (中文, English)
TEXTS = {
    "help.serve": (
        "启动 HTTP 服务: 用你的函数回答 POST /v1/chat/completions",
        "start the HTTP service: your functions answer POST /v1/chat/completions",
    ),
    "help.serve_options": (
        "make serve: PORT=n 端口 (默认找一个空闲的)，SEED=n 同样的请求得到同样的回复，PACE=毫秒 流式事件的间隔，"
        "CHECK=1 用真正的 HTTP 请求检查一遍你的服务后退出",
        "make serve: PORT=n the port (default: a free one), SEED=n the same request gets the same reply, "
        "PACE=ms between streamed events, CHECK=1 check your service with real HTTP requests, then leave",
    ),
    # --- the terminal ----------------------------------------------------------------------------------
    "serve.banner": (
        "Lab10 服务: {url}  (你的函数: {file}；模型: Lab09 make chat 的小模型；提示词和截断: Lab09 的参考答案)\n"
        "另开一个终端试试 (TASK.md 1.5.7):\n"
        "  curl {url} -H 'Content-Type: application/json' -d '{{\"messages\": [{{\"role\": \"user\", "
        "\"content\": \"你好\"}}]}}'\n"
        "  curl -N {url} -H 'Content-Type: application/json' -d '{{\"messages\": [{{\"role\": \"user\", "
        "\"content\": \"你好\"}}], \"stream\": true}}'\n"
        "每个请求一行日志；Ctrl-C 停止。",
        "Lab10 service: {url}  (your functions: {file}; model: the tiny one of Lab09's make chat; prompt and "
        "cut: Lab09's reference)\n"
        "Try it from another terminal (TASK.en.md 1.5.7):\n"
        "  curl {url} -H 'Content-Type: application/json' -d '{{\"messages\": [{{\"role\": \"user\", "
        "\"content\": \"hello\"}}]}}'\n"
        "  curl -N {url} -H 'Content-Type: application/json' -d '{{\"messages\": [{{\"role\": \"user\", "
        "\"content\": \"hello\"}}], \"stream\": true}}'\n"
        "One log line per request; Ctrl-C stops.",
    ),
    "serve.stopped": ("服务已停止。", "service stopped."),
    "serve.needs_lab09": (
        "make serve 需要 Lab09 的参考答案和模型: {problem}",
        "make serve needs Lab09's reference and model: {problem}",
    ),
    "serve.port_taken": (
        "不能在 127.0.0.1:{port} 上监听 ({problem}): 换一个 PORT=，或者不写 PORT (自动找空闲端口)",
        "cannot listen on 127.0.0.1:{port} ({problem}): choose another PORT=, or none (a free one)",
    ),
    "serve.streamed": ("{count} 个事件", "{count} events"),
    # --- what a client is told (the message of the error body, one line) ----------------------------------
    "serve.value_error": ("{message}", "{message}"),
    "serve.raised": ("{function} 抛出了 {type}: {message}{where}", "{function} raised {type}: {message}{where}"),
    "serve.wrong_type": (
        "{function} 返回了 {type}，不是 TASK.md {section} 要的 {wanted}",
        "{function} returned a {type}, not the {wanted} of TASK.en.md {section}",
    ),
    "serve.timeout": (
        "{function} 在 {seconds} 秒内没有返回 (死循环？)",
        "{function} did not return within {seconds} s (an endless loop?)",
    ),
    "serve.crashed": ("{function} 结束了它的进程", "{function} ended its process"),
    "serve.load_failed": (
        "{file} 加载不了 ({status})：先运行 make test",
        "{file} cannot be loaded ({status}): run make test first",
    ),
    "serve.missing": ("{file} 里没有 {function}", "{file} has no {function}"),
    "serve.unusable": (
        "parse_chat_request 返回的字典里 {problem} 缺了或类型不对 (TASK.md 1.5.2)",
        "parse_chat_request returned a dict whose {problem} is missing or of the wrong type (TASK.en.md 1.5.2)",
    ),
    "serve.refused_messages": (
        "parse_chat_request 返回的消息 format_prompt 不认: {problem} (TASK.md 1.5.2 规则 P2)",
        "parse_chat_request returned messages format_prompt refuses: {problem} (TASK.en.md 1.5.2, rule P2)",
    ),
    "serve.plain_error": (
        "{message} (error_body 也没能写出错误体: {reason})",
        "{message} (error_body could not write the error body either: {reason})",
    ),
    "serve.method": ("{path} 只接受 POST，不接受 {method}", "{path} takes POST, not {method}"),
    "serve.not_found": (
        "没有 {method} {path}: 这个服务只有 POST {endpoint}",
        "no {method} {path}: this service has POST {endpoint}",
    ),
    "serve.length_required": ("请求要有 Content-Length", "the request needs a Content-Length"),
    "serve.bad_length": ("Content-Length 不是一个数", "Content-Length is no number"),
    "serve.too_large": ("body: 请求体超过 {limit} 字节", "body: larger than {limit} bytes"),
    "serve.head_too_large": ("请求头超过 {limit} 字节", "the request's head is larger than {limit} bytes"),
    "serve.slow": ("请求没有在 {seconds} 秒内发完", "the request did not arrive within {seconds} s"),
    "serve.not_utf8": ("body: 不是 UTF-8 文本", "body: not UTF-8 text"),
    "serve.too_deep": ("body: JSON 嵌套超过 {depth} 层", "body: JSON nested deeper than {depth}"),
    "serve.busy": (
        "服务正忙 (同时最多 {count} 个请求)，请稍后再试",
        "busy ({count} requests at once at most): try again",
    ),
    # --- the end-to-end checks (make serve CHECK=1, the lab's own tests) ---------------------------------
    "e2e.name.completion": (
        "不流式的请求: 200、application/json、响应体",
        "a request without stream: 200, application/json, the body",
    ),
    "e2e.name.stream": (
        "流式的请求: 200、text/event-stream、事件",
        "a streaming request: 200, text/event-stream, the events",
    ),
    "e2e.name.not_json": ("不是 JSON 的请求体: 400，错误信息写出 body", "a body that is no JSON: 400, naming body"),
    "e2e.name.no_messages": ("没有 messages: 400，写出 messages", "no messages: 400, naming messages"),
    "e2e.name.unknown_role": ("未知角色: 400，写出 role", "an unknown role: 400, naming role"),
    "e2e.name.bool_max_tokens": (
        "\"max_tokens\": true: 400，写出 max_tokens",
        "\"max_tokens\": true: 400, naming max_tokens",
    ),
    "e2e.name.wrong_method": ("GET 这个地址: 405 和错误体", "GET on the endpoint: 405 and an error body"),
    "e2e.name.wrong_path": ("别的地址: 404 和错误体", "another path: 404 and an error body"),
    "e2e.summary": ("端到端检查: {passed} 通过, {failed} 失败", "End-to-end checks: {passed} passed, {failed} failed"),
    "e2e.status": ("状态码应该是 {wanted}，收到 {got}: {body}", "the status should be {wanted}, got {got}: {body}"),
    "e2e.error_status": (
        "状态码应该是 {wanted} (TASK.md {section} 规则 {rule})，收到 {got}: {body}",
        "the status should be {wanted} (TASK.en.md {section}, rule {rule}), got {got}: {body}",
    ),
    "e2e.reason": (" (服务器说: {reason})", " (the server says: {reason})"),
    "e2e.content_type": ("Content-Type 应该是 {wanted}，收到 {got}", "Content-Type should be {wanted}, got {got}"),
    "e2e.completion_shape": (
        "响应体要有 object \"chat.completion\" 和只有一项的 choices (TASK.md 1.5.3 规则 C1): {body}",
        "the body needs object \"chat.completion\" and choices of one item (TASK.en.md 1.5.3, rule C1): {body}",
    ),
    "e2e.choice": (
        "choice 要是 {{\"index\": 0, \"message\": {{\"role\": \"assistant\", \"content\": ...}}, "
        "\"finish_reason\": ...}} (TASK.md 1.5.3 规则 C1): {body}",
        "the choice must be {{\"index\": 0, \"message\": {{\"role\": \"assistant\", \"content\": ...}}, "
        "\"finish_reason\": ...}} (TASK.en.md 1.5.3, rule C1): {body}",
    ),
    "e2e.usage": (
        "usage 要有三个 int，total_tokens 是前两个之和 (TASK.md 1.5.3 规则 C2): {usage}",
        "usage needs three ints, total_tokens their sum (TASK.en.md 1.5.3, rule C2): {usage}",
    ),
    "e2e.done": (
        "流的最后一个事件要是 data: [DONE] (TASK.md 1.5.4 规则 S5)，最后收到的是: {last}",
        "the stream's last event must be data: [DONE] (TASK.en.md 1.5.4, rule S5); the last one was: {last}",
    ),
    "e2e.no_blank_lines": (
        "事件之间没有空行，客户端把整个流读成了一个事件: 每个事件以 \"\\n\\n\" 结束 (TASK.md 1.5.4 规则 S1): {events}",
        "no blank line between the events, so a client reads the whole stream as one event: each "
        "event ends with \"\\n\\n\" (TASK.en.md 1.5.4, rule S1): {events}",
    ),
    "e2e.event_json": (
        "有的事件不是 \"data: \" + JSON + 空行 (TASK.md 1.5.4 规则 S1): {events}",
        "an event is not \"data: \" + JSON + a blank line (TASK.en.md 1.5.4, rule S1): {events}",
    ),
    "e2e.chunk_shape": (
        "每一块要有 object \"chat.completion.chunk\" 和 choices (TASK.md 1.5.4 规则 S1): {events}",
        "every chunk needs object \"chat.completion.chunk\" and choices (TASK.en.md 1.5.4, rule S1): {events}",
    ),
    "e2e.chunk_meta": (
        "每一块的 id、created、model 要相同，都来自 meta (TASK.md 1.5.4 规则 S1)",
        "every chunk must carry the same id, created and model, meta's (TASK.en.md 1.5.4, rule S1)",
    ),
    "e2e.first_chunk": (
        "第一块的 delta 要是 {{\"role\": \"assistant\", \"content\": \"\"}}，finish_reason 是 null "
        "(TASK.md 1.5.4 规则 S2): {chunk}",
        "the first chunk's delta must be {{\"role\": \"assistant\", \"content\": \"\"}}, finish_reason "
        "null (TASK.en.md 1.5.4, rule S2): {chunk}",
    ),
    "e2e.last_chunk": (
        "[DONE] 之前的那一块 delta 要是 {{}}，带上 finish_reason (TASK.md 1.5.4 规则 S4): {chunk}",
        "the chunk before [DONE] must have delta {{}} and the finish_reason (TASK.en.md 1.5.4, rule S4): {chunk}",
    ),
    "e2e.piece_chunk": (
        "中间每一块的 delta 只有 content，finish_reason 是 null (TASK.md 1.5.4 规则 S3): {events}",
        "each chunk in between has a delta of content only, finish_reason null (TASK.en.md 1.5.4, rule S3): {events}",
    ),
    "e2e.joined": (
        "流里的 content 连起来要等于不流式时的回复 (TASK.md 1.5.4 规则 S3): 流 {stream}，回复 {reply}",
        "the stream's contents joined must be the reply without stream (TASK.en.md 1.5.4, rule S3): stream "
        "{stream}, reply {reply}",
    ),
    "e2e.error_not_json": (
        "错误的响应体要是 JSON (TASK.md 1.5.5 规则 E1): {body}",
        "an error's body must be JSON (TASK.en.md 1.5.5, rule E1): {body}",
    ),
    "e2e.error_shape": (
        "错误体要是 {{\"error\": {{\"message\": ..., \"type\": ..., \"code\": ...}}}} (TASK.md 1.5.5 规则 E1): {body}",
        "an error body must be {{\"error\": {{\"message\": ..., \"type\": ..., \"code\": ...}}}} "
        "(TASK.en.md 1.5.5, rule E1): {body}",
    ),
    "e2e.error_type": (
        "错误的 type 应该是 {wanted}，收到 {got} (TASK.md 1.5.5 规则 E2)",
        "the error's type should be {wanted}, got {got} (TASK.en.md 1.5.5, rule E2)",
    ),
    "e2e.error_code": (
        "错误的 code 应该是 {wanted}，收到 {got} (TASK.md 1.5.5 规则 E3)",
        "the error's code should be {wanted}, got {got} (TASK.en.md 1.5.5, rule E3)",
    ),
    "e2e.error_field": (
        "错误信息里要写出字段 {field} (TASK.md 1.5.2 规则 P5)，收到: {message}",
        "the error's message must name the field {field} (TASK.en.md 1.5.2, rule P5); it was: {message}",
    ),
}
