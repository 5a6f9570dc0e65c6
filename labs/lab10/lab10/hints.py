"""Lab10's words in make test's output: section headers, group summaries, check labels and its hints, zh and en.

labkit.i18n installs them over the core's sentences (LAB.texts names this module).  Rule ids (P1–P5, C1–C3,
S1–S5, E1–E3) and section numbers point into TASK.md (中文) and TASK.en.md (English), which share their numbering.
"""

# key: (中文, English)
TEXTS = {
    # --- layout of `make test`: sections, group summaries, the labels of the checks --------------
    "section.parse": ("=== 请求解析 (parse_chat_request) ===", "=== Parsing the request (parse_chat_request) ==="),
    "section.reply": (
        "=== 响应体 (chat_completion、error_body) ===",
        "=== Response bodies (chat_completion, error_body) ===",
    ),
    "section.stream": ("=== 流式响应 (sse_events) ===", "=== Streaming (sse_events) ==="),
    "section.extended": ("=== 扩展检查 (协议的其余部分) ===", "=== Extended checks (the rest of the protocol) ==="),
    "section.properties": (
        "=== 性质检查 (随机生成的请求，按规则判断) ===",
        "=== Property checks (generated requests, judged by the rules) ===",
    ),
    "section.graded_properties": (
        "=== 性质检查 (评分时为你随机生成的请求，按规则判断；和 make test-full 的输入不同) ===",
        "=== Property checks (requests drawn for you at grading, judged by the rules; not those of make test-full) ===",
    ),
    "section.generated": (
        "=== 生成检查 (为每个学生随机生成的输入，与参考答案对照；只在评分时运行) ===",
        "=== Generated checks (inputs drawn for each student, compared with the reference; grading only) ===",
    ),
    "summary.extended": ("扩展检查: {passed} 通过, {failed} 失败", "Extended checks: {passed} passed, {failed} failed"),
    "summary.properties": (
        "性质检查: {passed} 通过, {failed} 失败",
        "Property checks: {passed} passed, {failed} failed",
    ),
    "summary.generated": (
        "生成检查: {passed} 通过, {failed} 失败",
        "Generated checks: {passed} passed, {failed} failed",
    ),
    "summary.pointer": (
        "评分还会检查更多: 运行 make test-full (扩展检查、性质检查)；全部通过以后试试 make serve (TASK.md 1.5.7)",
        "The grade checks more: run make test-full (extended and property checks); once all pass, try "
        "make serve (TASK.en.md 1.5.7)",
    ),
    "summary.stub_elsewhere": (
        "注意: {file} 还和初始代码一样，而旁边的 {other} 不一样: 你改的是那个文件吗？测试它: "
        "{command} test STUDENT={other}",
        "NOTE: {file} still behaves like the stub, but {other} nearby differs: did you edit "
        "that one? Test it: {command} test STUDENT={other}",
    ),
    "case.1.label": (
        "最小的请求: 只有 messages，其余用默认值",
        "a minimal request: messages only, defaults for the rest",
    ),
    "case.2.label": (
        "完整的请求: 消息只留 role 和 content，其他字段不管",
        "a full request: messages keep role and content, other fields are ignored",
    ),
    "case.3.label": ("坏请求: 抛出 ValueError，信息里写出出错的字段", "bad requests raise ValueError naming the field"),
    "case.4.label": (
        "max_tokens 和 stream 的类型与范围 (bool 不是 int)",
        "max_tokens and stream: type and range (a bool is no int)",
    ),
    "case.5.label": ("chat_completion: 一个 choice 和 usage", "chat_completion: one choice and the usage"),
    "case.6.label": ("error_body: 4xx 和 5xx 的错误体", "error_body: 4xx and 5xx error bodies"),
    "case.7.label": (
        "sse_events: 角色块、每个 piece 一块、结束块、[DONE]",
        "sse_events: role chunk, a chunk per piece, the last chunk, [DONE]",
    ),
    "case.8.label": (
        "sse_events: 没有 piece 也有开头、结尾和 [DONE]",
        "sse_events: no pieces still gives first, last, [DONE]",
    ),
    "case.x1.label": (
        "客户端写的 JSON: 缩进、\\u 转义、引号和换行",
        "JSON as clients write it: indents, \\u escapes, quotes",
    ),
    "case.x2.label": (
        "请求体是 JSON 但不是对象，或者是空的: 写出 body",
        "a body that is no JSON object, or empty: names body",
    ),
    "case.x3.label": ("messages 不是非空列表，或者某条不是对象", "messages no non-empty list, or an item no object"),
    "case.x4.label": (
        "缺 role 或 content、未知角色、content 不是 str",
        "role or content missing, an unknown role, a content that is no str",
    ),
    "case.x5.label": (
        "max_tokens: null 用默认值；小数、负数、超过上限、字符串都不行",
        "max_tokens: null is the default; floats, negatives, too large, strings refused",
    ),
    "case.x6.label": (
        "stream: null 是 False；1 和 \"false\" 都不是 bool",
        "stream: null is false; 1 and \"false\" are no bool",
    ),
    "case.x7.label": (
        "消息只留 role 和 content，内容原样保留",
        "messages keep role and content only, content verbatim",
    ),
    "case.x8.label": (
        "chat_completion: 回复原样 (空的、带首尾空白)，finish_reason 照给的写",
        "chat_completion: the reply verbatim (empty, spaces), finish_reason as given",
    ),
    "case.x9.label": (
        "sse_events: json.dumps 的转义 (引号、换行、反斜杠、emoji)",
        "sse_events: json.dumps escapes (quotes, newlines, backslashes, emoji)",
    ),
    "case.x10.label": (
        "sse_events: 每一块都带 meta 的 id、created、model",
        "sse_events: every chunk carries meta's id, created, model",
    ),
    "case.x11.label": ("error_body: 类型看状态码 (4xx、5xx)", "error_body: the type follows the status (4xx, 5xx)"),
    "case.x12.label": ("error_body: message 原样写进去", "error_body: the message verbatim"),
    "case.p1.label": (
        "随机请求: 取回 messages、max_tokens、stream (缺了或 null 用默认值)",
        "random requests give back messages, max_tokens, stream (defaults for missing or null)",
    ),
    "case.p2.label": (
        "随机请求里的一处错误: ValueError 写出那个字段",
        "one fault in a random request: ValueError naming its field",
    ),
    "case.g1.label": ("为你生成的请求体: 解析结果或 ValueError", "request bodies drawn for you: parsed, or ValueError"),
    "case.g2.label": ("为你生成的回复: 响应体", "replies drawn for you: the response body"),
    "case.g3.label": ("为你生成的 pieces 和 meta: 事件列表", "pieces and meta drawn for you: the events"),
    "case.g4.label": ("为你生成的状态码和信息: 错误体", "statuses and messages drawn for you: the error body"),
    # --- the checks' own hints: the rule each check is about --------------------------------------
    "hint.case1": (
        "messages 原样取回 (每条只有 role、content)；没有 max_tokens 就用 DEFAULT_MAX_TOKENS，没有 stream 就是 False "
        "(TASK.md 1.5.2 规则 P2–P4)",
        "give back the messages (role and content each); without max_tokens use DEFAULT_MAX_TOKENS, without "
        "stream it is False (TASK.en.md 1.5.2, rules P2–P4)",
    ),
    "hint.case2": (
        "返回正好三个键: messages (每条只留 role 和 content)、max_tokens、stream；model、temperature 这些字段不管 "
        "(TASK.md 1.5.2 规则 P2、P5)",
        "return exactly three keys: messages (role and content each), max_tokens, stream; model, temperature "
        "and the like are ignored (TASK.en.md 1.5.2, rules P2, P5)",
    ),
    "hint.case3": (
        "请求有错时 raise ValueError，信息里写出出错的字段: 不是 JSON 写 body，缺 messages 写 messages，未知角色写 "
        "role (TASK.md 1.5.2 规则 P1、P2、P5)",
        "raise ValueError for a bad request, naming the field: body when it is no JSON, messages when they "
        "are missing, role for an unknown role (TASK.en.md 1.5.2, rules P1, P2, P5)",
    ),
    "hint.case4": (
        "max_tokens 必须是 1..MAX_TOKENS_LIMIT 的 int，True/False 不算 (bool 是 int 的子类)；stream 必须是 bool "
        "(TASK.md 1.5.2 规则 P3、P4)",
        "max_tokens must be an int from 1 to MAX_TOKENS_LIMIT, True/False do not count (bool is a subclass of "
        "int); stream must be a bool (TASK.en.md 1.5.2, rules P3, P4)",
    ),
    "hint.case5": (
        "按 1.5.3 的样子: object、一个 choice (index 0、message、finish_reason)、usage 的三个数 "
        "(TASK.md 1.5.3 规则 C1–C3)",
        "as 1.5.3 shows: object, one choice (index 0, message, finish_reason), the usage's three counts "
        "(TASK.en.md 1.5.3, rules C1–C3)",
    ),
    "hint.case6": (
        "{{\"error\": {{\"message\": message, \"type\": ..., \"code\": status}}}}，4xx 的类型是 CLIENT_ERROR，5xx 的是 "
        "SERVER_ERROR (TASK.md 1.5.5 规则 E1–E3)",
        "{{\"error\": {{\"message\": message, \"type\": ..., \"code\": status}}}}, the type CLIENT_ERROR for 4xx, "
        "SERVER_ERROR for 5xx (TASK.en.md 1.5.5, rules E1–E3)",
    ),
    "hint.case7": (
        "事件依次是: 角色块、每个 piece 一块、带 finish_reason 的结束块、DONE_EVENT；每个事件是 \"data: \" + "
        "json.dumps(块) + \"\\n\\n\" (TASK.md 1.5.4 规则 S1–S5)",
        "the events are: the role chunk, a chunk per piece, the last chunk with finish_reason, DONE_EVENT; "
        "each is \"data: \" + json.dumps(chunk) + \"\\n\\n\" (TASK.en.md 1.5.4, rules S1–S5)",
    ),
    "hint.case8": (
        "没有 piece 时也要有角色块、结束块和 DONE_EVENT，一共三个事件 (TASK.md 1.5.4 规则 S2、S4、S5)",
        "with no pieces there are still the role chunk, the last chunk and DONE_EVENT: three events "
        "(TASK.en.md 1.5.4, rules S2, S4, S5)",
    ),
    "hint.x1": (
        "用 json.loads 读请求体: 缩进、换行、\\u 转义、键的顺序都是 JSON 的写法，不要自己切字符串 (TASK.md 1.5.2 规则 P1)",
        "read the body with json.loads: indents, newlines, \\u escapes and the keys' order are JSON's business; "
        "do not cut the text yourself (TASK.en.md 1.5.2, rule P1)",
    ),
    "hint.x2": (
        "json.loads 得到的不是 dict (列表、字符串、null、数) 时也是坏请求: raise ValueError(\"body: ...\") "
        "(TASK.md 1.5.2 规则 P1)",
        "when json.loads gives no dict (a list, a string, null, a number) the request is bad too: raise "
        "ValueError(\"body: ...\") (TASK.en.md 1.5.2, rule P1)",
    ),
    "hint.x3": (
        "messages 必须是非空的 list，每一项是 dict；否则 raise ValueError(\"messages: ...\") (TASK.md 1.5.2 规则 P2)",
        "messages must be a non-empty list whose items are dicts; otherwise raise ValueError(\"messages: ...\") "
        "(TASK.en.md 1.5.2, rule P2)",
    ),
    "hint.x4": (
        "每条消息的 role 必须是 ROLES 之一 (大小写也要一样)，content 必须是 str；null、列表、数字都不行；信息里写出 role 或 "
        "content (TASK.md 1.5.2 规则 P2)",
        "each message's role must be one of ROLES (case included) and its content a str; null, lists, numbers "
        "do not count; name role or content in the message (TASK.en.md 1.5.2, rule P2)",
    ),
    "hint.x5": (
        "max_tokens 是 null 时用默认值；否则必须是 int (16.0 是 float，\"16\" 是 str)，而且 1 ≤ max_tokens ≤ "
        "MAX_TOKENS_LIMIT (TASK.md 1.5.2 规则 P3)",
        "a null max_tokens means the default; otherwise it must be an int (16.0 is a float, \"16\" a str) with "
        "1 ≤ max_tokens ≤ MAX_TOKENS_LIMIT (TASK.en.md 1.5.2, rule P3)",
    ),
    "hint.x6": (
        "stream 是 null 时是 False；否则必须是 bool: 1、0、\"false\" 都不是 (TASK.md 1.5.2 规则 P4)",
        "a null stream means False; otherwise it must be a bool: 1, 0 and \"false\" are not "
        "(TASK.en.md 1.5.2, rule P4)",
    ),
    "hint.x7": (
        "每条消息构造一个新字典 {{\"role\": ..., \"content\": ...}}: name、tool_calls 这些键不要；content 原样，不 strip "
        "(TASK.md 1.5.2 规则 P2)",
        "build a new dict {{\"role\": ..., \"content\": ...}} per message: no name, tool_calls or other keys; "
        "the content as it is, no strip() (TASK.en.md 1.5.2, rule P2)",
    ),
    "hint.x8": (
        "reply 原样放进 message 的 content (空字符串、首尾空白都保留)；finish_reason 照给的写 (TASK.md 1.5.3 规则 C1)",
        "put reply into the message's content as it is (empty, spaces and all); finish_reason as given "
        "(TASK.en.md 1.5.3, rule C1)",
    ),
    "hint.x9": (
        "每个事件里的 JSON 用不带参数的 json.dumps(块) 写: 引号、换行、反斜杠、中文和 emoji 都由它转义 "
        "(TASK.md 1.5.4 规则 S1)",
        "write each event's JSON with json.dumps(chunk) and no other argument: it escapes quotes, newlines, "
        "backslashes, Chinese and emoji (TASK.en.md 1.5.4, rule S1)",
    ),
    "hint.x10": (
        "每一块的 id、created、model 都取自 meta，不要写死 (TASK.md 1.5.4 规则 S1)",
        "every chunk takes id, created and model from meta; do not write them in (TASK.en.md 1.5.4, rule S1)",
    ),
    "hint.x11": (
        "type 看状态码: 400–499 是 CLIENT_ERROR，500 及以上是 SERVER_ERROR (TASK.md 1.5.5 规则 E2)",
        "the type follows the status: 400–499 is CLIENT_ERROR, 500 and above SERVER_ERROR (TASK.en.md 1.5.5, rule E2)",
    ),
    "hint.x12": (
        "message 原样放进去，空字符串也一样 (TASK.md 1.5.5 规则 E1)",
        "put the message in as it is, an empty one too (TASK.en.md 1.5.5, rule E1)",
    ),
    "hint.p1": (
        "合法的请求: messages 按顺序取回 (每条只有 role、content)，max_tokens 和 stream 缺了或是 null 时用默认值 "
        "(TASK.md 1.5.2 规则 P1–P5)",
        "a valid request: the messages in order (role and content each), max_tokens and stream, defaults where "
        "they are missing or null (TASK.en.md 1.5.2, rules P1–P5)",
    ),
    "hint.p2": (
        "只有一处错的请求: raise ValueError，信息里写出那个字段 (TASK.md 1.5.2 规则 P1–P5)",
        "a request with one fault: raise ValueError naming that field (TASK.en.md 1.5.2, rules P1–P5)",
    ),
    "hint.g1": (
        "按规则解析请求体；有错时 raise ValueError 写出字段 (TASK.md 1.5.2 规则 P1–P5)",
        "parse the body by the rules; raise ValueError naming the field of a fault (TASK.en.md 1.5.2, rules P1–P5)",
    ),
    "hint.g2": (
        "按 1.5.3 写响应体 (TASK.md 1.5.3 规则 C1–C3)",
        "write the body as 1.5.3 says (TASK.en.md 1.5.3, rules C1–C3)",
    ),
    "hint.g3": (
        "按 1.5.4 写事件 (TASK.md 1.5.4 规则 S1–S5)",
        "write the events as 1.5.4 says (TASK.en.md 1.5.4, rules S1–S5)",
    ),
    "hint.g4": (
        "按 1.5.5 写错误体 (TASK.md 1.5.5 规则 E1–E3)",
        "write the error body as 1.5.5 says (TASK.en.md 1.5.5, rules E1–E3)",
    ),
    # --- the detectors' hints (lab10/mistakes.py): the likely slip and its rule --------------------
    "hint.field_body": (
        "请求体不是 JSON 对象时要 raise ValueError(\"body: ...\") (TASK.md 1.5.2 规则 P1)",
        "raise ValueError(\"body: ...\") when the body is no JSON object (TASK.en.md 1.5.2, rule P1)",
    ),
    "hint.field_messages": (
        "messages 要是非空的列表，每一项是对象；否则 raise ValueError(\"messages: ...\") (TASK.md 1.5.2 规则 P2)",
        "messages must be a non-empty list of objects; otherwise raise ValueError(\"messages: ...\") "
        "(TASK.en.md 1.5.2, rule P2)",
    ),
    "hint.field_role": (
        "role 缺了、不是 str 或不在 ROLES 里时 raise ValueError，信息里写 role (TASK.md 1.5.2 规则 P2)",
        "raise ValueError naming role when it is missing, no str or not in ROLES (TASK.en.md 1.5.2, rule P2)",
    ),
    "hint.field_content": (
        "content 缺了或不是 str (null、列表、数字) 时 raise ValueError，信息里写 content (TASK.md 1.5.2 规则 P2)",
        "raise ValueError naming content when it is missing or no str (null, a list, a number) "
        "(TASK.en.md 1.5.2, rule P2)",
    ),
    "hint.field_max_tokens": (
        "max_tokens 必须是 int，1 ≤ max_tokens ≤ MAX_TOKENS_LIMIT；否则 raise ValueError (TASK.md 1.5.2 规则 P3)",
        "max_tokens must be an int with 1 ≤ max_tokens ≤ MAX_TOKENS_LIMIT; otherwise raise "
        "ValueError (TASK.en.md 1.5.2, rule P3)",
    ),
    "hint.field_stream": (
        "stream 必须是 true 或 false (或 null)；否则 raise ValueError (TASK.md 1.5.2 规则 P4)",
        "stream must be true or false (or null); otherwise raise ValueError (TASK.en.md 1.5.2, rule P4)",
    ),
    "hint.bool_is_int": (
        "isinstance(True, int) 是 True: bool 是 int 的子类，所以 \"max_tokens\": true 也过了检查；"
        "用 type(x) is int，或先排除 bool (TASK.md 1.5.2 规则 P3)",
        "isinstance(True, int) is True: bool is a subclass of int, so \"max_tokens\": true got "
        "through; use type(x) is int, or rule bool out first (TASK.en.md 1.5.2, rule P3)",
    ),
    "hint.json_error_message": (
        "json.loads 抛出的 JSONDecodeError 是 ValueError，但它的信息里没有 body: 捕获它，再 "
        "raise ValueError(f\"body: ...\") (TASK.md 1.5.2 规则 P1)",
        "the JSONDecodeError json.loads raises is a ValueError, but its message does not name "
        "body: catch it and raise ValueError(f\"body: ...\") (TASK.en.md 1.5.2, rule P1)",
    ),
    "hint.name_the_field": (
        "ValueError 的信息里要写出出错的字段名 (body、messages、role、content、max_tokens、stream)，"
        "客户端靠它知道改哪里 (TASK.md 1.5.2 规则 P5)",
        "the ValueError's message must name the field at fault (body, messages, role, content, "
        "max_tokens, stream): that is how a client knows what to fix (TASK.en.md 1.5.2, rule P5)",
    ),
    "hint.value_error_only": (
        "坏请求只用 ValueError 表示 (服务器把它变成 400)；request[\"messages\"] 的 KeyError、类型不对时的 "
        "TypeError 会变成 500: 先用 .get() 和 isinstance 检查，再 raise ValueError 写出字段 "
        "(TASK.md 1.5.2 规则 P2、P5)",
        "a bad request is told by ValueError only (the server makes it a 400); the KeyError of "
        "request[\"messages\"] or a TypeError of a wrong type becomes a 500: check with .get() and "
        "isinstance first, then raise ValueError naming the field (TASK.en.md 1.5.2, rules P2, P5)",
    ),
    "hint.key_error": (
        "缺了一个字段时 request[\"...\"] 抛出 KeyError: 先用 in 或 .get() 检查，再 raise ValueError 写出字段 "
        "(TASK.md 1.5.2 规则 P2、P5)",
        "request[\"...\"] raises KeyError for a missing field: check with in or .get() first, then raise "
        "ValueError naming it (TASK.en.md 1.5.2, rules P2, P5)",
    ),
    "hint.type_error": (
        "用之前先检查类型: messages 是 list、每条是 dict、content 是 str，不然会抛出 TypeError；"
        "不对就 raise ValueError 写出字段 (TASK.md 1.5.2 规则 P2、P5)",
        "check types before using them: messages a list, each a dict, content a str, or a TypeError "
        "comes; raise ValueError naming the field instead (TASK.en.md 1.5.2, rules P2, P5)",
    ),
    "hint.not_an_object": (
        "json.loads 得到的不一定是 dict (也可能是 list、str、None)，消息也不一定是: 先 isinstance(..., "
        "dict) (TASK.md 1.5.2 规则 P1、P2)",
        "json.loads does not always give a dict (a list, a str, None too), nor is each message one: "
        "check isinstance(..., dict) first (TASK.en.md 1.5.2, rules P1, P2)",
    ),
    "hint.defaults": (
        "max_tokens 和 stream 一定要在结果里: 缺了或是 null 时用 DEFAULT_MAX_TOKENS 和 False "
        "(TASK.md 1.5.2 规则 P3、P4)",
        "max_tokens and stream are always in the result: DEFAULT_MAX_TOKENS and False when missing or null "
        "(TASK.en.md 1.5.2, rules P3, P4)",
    ),
    "hint.extra_fields": (
        "结果正好三个键: messages、max_tokens、stream；请求里的 model、temperature 等字段不要带过来 "
        "(TASK.md 1.5.2 规则 P5)",
        "the result has exactly three keys: messages, max_tokens, stream; leave the request's model, "
        "temperature and other fields out (TASK.en.md 1.5.2, rule P5)",
    ),
    "hint.message_keys": (
        "每条消息只留 role 和 content: 构造新字典，不要把 name 等键一起带过来 (TASK.md 1.5.2 规则 P2)",
        "keep only role and content per message: build new dicts, leave name and other keys out "
        "(TASK.en.md 1.5.2, rule P2)",
    ),
    "hint.content_verbatim": (
        "content 原样保留，不要 strip() (TASK.md 1.5.2 规则 P2)",
        "keep the content as it is, no strip() (TASK.en.md 1.5.2, rule P2)",
    ),
    "hint.server_adds_ids": (
        "id、created、model 由服务器补上，chat_completion 不写它们 (TASK.md 1.5.3 规则 C3)",
        "the server adds id, created and model: chat_completion leaves them out (TASK.en.md 1.5.3, rule C3)",
    ),
    "hint.usage": (
        "usage 正好三个键: prompt_tokens、completion_tokens、total_tokens = 前两个之和 (TASK.md 1.5.3 规则 C2)",
        "usage has exactly three keys: prompt_tokens, completion_tokens and total_tokens, their sum "
        "(TASK.en.md 1.5.3, rule C2)",
    ),
    "hint.reply_verbatim": (
        "reply 原样放进 content，不要 strip(): 截断和去空白是服务器在 Lab09 的 extract_response 里做的 "
        "(TASK.md 1.5.3 规则 C1)",
        "put reply into content as it is, no strip(): the cut and the trim are done by the server, "
        "with Lab09's extract_response (TASK.en.md 1.5.3, rule C1)",
    ),
    "hint.completion_shape": (
        "choices 是只有一项的列表: {{\"index\": 0, \"message\": {{\"role\": \"assistant\", \"content\": reply}}, "
        "\"finish_reason\": ...}}；object 是 COMPLETION_OBJECT (TASK.md 1.5.3 规则 C1)",
        "choices is a list of one: {{\"index\": 0, \"message\": {{\"role\": \"assistant\", \"content\": "
        "reply}}, \"finish_reason\": ...}}; object is COMPLETION_OBJECT (TASK.en.md 1.5.3, rule C1)",
    ),
    "hint.event_framing": (
        "每个事件是 \"data: \" + JSON + \"\\n\\n\": 前面是 data、冒号和一个空格，后面是两个换行 (空行结束一个事件) "
        "(TASK.md 1.5.4 规则 S1)",
        "each event is \"data: \" + JSON + \"\\n\\n\": data, a colon and a space in front, two newlines "
        "after (a blank line ends an event) (TASK.en.md 1.5.4, rule S1)",
    ),
    "hint.json_form": (
        "数据对了，写法不一样: 用不带参数的 json.dumps(块) (默认的分隔符 \", \" \": \"，非 ASCII 字符写成 \\u 转义) "
        "(TASK.md 1.5.4 规则 S1)",
        "the data is right, its form is not: use json.dumps(chunk) with no other argument (the default "
        "separators \", \" \": \", non-ASCII characters as \\u escapes) (TASK.en.md 1.5.4, rule S1)",
    ),
    "hint.key_order": (
        "数据对了，键的顺序不对: 按 1.5.4 的顺序写 id、object、created、model、choices (choice 里是 index、delta、"
        "finish_reason) (TASK.md 1.5.4 规则 S1)",
        "the data is right, the keys' order is not: write id, object, created, model, choices (in a choice: "
        "index, delta, finish_reason) as 1.5.4 does (TASK.en.md 1.5.4, rule S1)",
    ),
    "hint.chunk_head": (
        "每一块都写 meta 的 id、created、model，object 是 CHUNK_OBJECT (TASK.md 1.5.4 规则 S1)",
        "every chunk carries meta's id, created and model, and object CHUNK_OBJECT (TASK.en.md 1.5.4, rule S1)",
    ),
    "hint.first_chunk": (
        "第一块只说角色: delta 是 {{\"role\": \"assistant\", \"content\": \"\"}}，finish_reason 是 None "
        "(TASK.md 1.5.4 规则 S2)",
        "the first chunk only says the role: delta {{\"role\": \"assistant\", \"content\": \"\"}}, "
        "finish_reason None (TASK.en.md 1.5.4, rule S2)",
    ),
    "hint.piece_chunk": (
        "每个 piece 一块，按顺序: delta 是 {{\"content\": piece}} (不再写 role)，finish_reason 是 None "
        "(TASK.md 1.5.4 规则 S3)",
        "one chunk per piece, in order: delta {{\"content\": piece}} (no role again), finish_reason None "
        "(TASK.en.md 1.5.4, rule S3)",
    ),
    "hint.last_chunk": (
        "所有 piece 之后还有一块: delta 是 {{}}，finish_reason 是给的值 (TASK.md 1.5.4 规则 S4)",
        "after the pieces comes one more chunk: delta {{}}, finish_reason as given (TASK.en.md 1.5.4, rule S4)",
    ),
    "hint.done": (
        "最后一个事件是 DONE_EVENT，也就是 \"data: [DONE]\\n\\n\" (不是 JSON，不加引号) (TASK.md 1.5.4 规则 S5)",
        "the last event is DONE_EVENT, \"data: [DONE]\\n\\n\" (no JSON, no quotes) (TASK.en.md 1.5.4, rule S5)",
    ),
    "hint.dumps_chunk": (
        "json.dumps 只认 dict、list、str、数、bool 和 None: 块要用这些构造 (TASK.md 1.5.4 规则 S1)",
        "json.dumps takes dicts, lists, strs, numbers, bools and None only: build the chunk of those "
        "(TASK.en.md 1.5.4, rule S1)",
    ),
    "hint.error_shape": (
        "错误体是 {{\"error\": {{\"message\": ..., \"type\": ..., \"code\": ...}}}}: 外面一层 error (TASK.md 1.5.5 规则 E1)",
        "an error body is {{\"error\": {{\"message\": ..., \"type\": ..., \"code\": ...}}}}: one error object "
        "around them (TASK.en.md 1.5.5, rule E1)",
    ),
    "hint.error_type": (
        "type 看状态码: 4xx 是 CLIENT_ERROR，5xx 是 SERVER_ERROR (TASK.md 1.5.5 规则 E2)",
        "the type follows the status: CLIENT_ERROR for 4xx, SERVER_ERROR for 5xx (TASK.en.md 1.5.5, rule E2)",
    ),
    "hint.error_code": (
        "code 就是状态码这个 int (不是 str) (TASK.md 1.5.5 规则 E3)",
        "code is the status itself, an int (not a str) (TASK.en.md 1.5.5, rule E3)",
    ),
    "hint.error_message": (
        "message 原样放进去，不要改写或 strip() (TASK.md 1.5.5 规则 E1)",
        "put the message in as it is, no rewording, no strip() (TASK.en.md 1.5.5, rule E1)",
    ),
    # --- the judge's defaults restated citing the sheets ---------------------------------------------
    "hint.none_returned": (
        "函数返回了 None: 是不是忘了 return，或者某个分支没有 return？(TASK.md 1.5.1)",
        "the function returned None: a missing return, or a branch without one? (TASK.en.md 1.5.1)",
    ),
    "hint.not_list": (
        "要返回事件 (str) 的列表，而不是 {type} (TASK.md 1.5.4)",
        "return a list of events (strs), not {type} (TASK.en.md 1.5.4)",
    ),
    "hint.import_tags": (
        "常量从框架导入: from framework.api import ...，不是 from api import ... (TASK.md 1.5.1)",
        "import the constants from the framework: from framework.api import ..., not from api import "
        "... (TASK.en.md 1.5.1)",
    ),
    "hint.timeout": (
        "可能是死循环: 循环的条件最后会不成立吗？遍历列表用 for 最稳妥 (TASK.md 常见错误 11)",
        "probably an endless loop: does the loop's condition ever turn false? A for over the list is "
        "safest (TASK.en.md, common mistake 11)",
    ),
    "hint.missing_function": ("函数名和参数要与 TASK.md 1.5.1 中的完全一致", "use the exact names of TASK.en.md 1.5.1"),
    # --- make help ---------------------------------------------------------------------------------
    "help.lab10_test_full": (
        "{core_cases} + 扩展检查 + 性质检查 (都计入成绩)",
        "{core_cases}, extended and property checks (all graded)",
    ),
}
