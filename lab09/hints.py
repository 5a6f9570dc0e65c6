"""Lab09's words in make test's output: section headers, group summaries, check labels and its hints, zh and en.

labkit.i18n installs them over the core's sentences (LAB.texts names this module).  Rule ids (F1–F4, E1–E4,
T1–T5, R1–R7) and section numbers point into TASK.md (中文) and TASK.en.md (English), which share their
numbering; the judge's default hints (labkit.i18n.RESTATABLE) are restated here citing them.
"""

# key: (中文, English)
TEXTS = {
    # --- layout of `make test`: sections, group summaries, the labels of the checks --------------
    "section.format": ("=== Prompt 格式化 ===", "=== Prompt formatting ==="),
    "section.extract": ("=== 响应提取 ===", "=== Response extraction ==="),
    "section.challenge": ("=== 选做: trim_history ===", "=== Optional: trim_history ==="),
    "section.rewrite": (
        "=== 选做 2: 问题改写 (rewrite_messages, clean_rewrite) ===",
        "=== Optional 2: query rewriting (rewrite_messages, clean_rewrite) ===",
    ),
    "section.extended": ("=== 扩展检查 (协议的其余部分) ===", "=== Extended checks (the rest of the protocol) ==="),
    "summary.stub_elsewhere": (
        "注意: {file} 的两个函数还和初始代码一样 (都返回 \"\")，而旁边的 {other} 不一样: "
        "你改的是那个文件吗？测试它: {command} test STUDENT={other}",
        "NOTE: {file} still behaves like the untouched stub (both functions return \"\"), "
        "but {other} nearby differs: did you edit that one? Test it: {command} test "
        "STUDENT={other}",
    ),
    "summary.extended": ("扩展检查: {passed} 通过, {failed} 失败", "Extended checks: {passed} passed, {failed} failed"),
    "case.1.label": ("单轮: 一条 user 消息的提示词", "single turn: prompt for one user message"),
    "case.2.label": (
        "多轮: system + 三轮历史的标签、顺序与内容",
        "multi-turn: tags, order and contents of system + three turns",
    ),
    "case.3.label": ("提示词以生成标签 <|assistant|> 结尾", "prompt ends with the generation tag <|assistant|>"),
    "case.4.label": ("没有标签时返回去掉首尾空白的全文", "no tag: whole output, trimmed"),
    "case.5.label": ("多个 <|assistant|> 时取最后一个", "several <|assistant|>: the last one wins"),
    "case.6.label": ("在最早的下一个标签或 <|end|> 处截断", "cut at the earliest next tag or <|end|>"),
    "case.x1.label": ("空历史只得到生成标签", "empty history gives just the generation tag"),
    "case.x2.label": ("未知角色抛出 ValueError 并写出角色名", "an unknown role raises ValueError naming it"),
    "case.x3.label": ("不修改调用者的列表和字典", "the caller's list and dicts stay unchanged"),
    "case.x4.label": (
        "内容原样保留: 空格、换行、空内容、标签字样",
        "content verbatim: spaces, newlines, empty, tag text",
    ),
    "case.x5.label": ("以 assistant 结尾的历史也要加生成标签", "a history ending with assistant still gets the tag"),
    "case.x6.label": ("中间的 system 消息留在原位", "a system message in the middle stays in place"),
    "case.x7.label": ("去掉 \\r\\n 和制表符", "\\r\\n and tabs are trimmed"),
    "case.x8.label": ("去掉全角空格 (str.strip 的空白)", "full-width spaces are trimmed (str.strip whitespace)"),
    "case.x9.label": ("回复可以是空字符串", "a reply can be empty"),
    "case.x10.label": (
        "没有边界时取到结尾；像标签的文字不算边界",
        "no boundary: up to the end; tag-like text is no tag",
    ),
    "case.c1.label": ("不长的历史原样保留 (新列表)", "a short history is kept as it is (in a new list)"),
    "case.c2.label": (
        "只保留最后 max_turns 轮 (默认 6) 和 system",
        "only the last max_turns turns (default 6) and system",
    ),
    "case.c3.label": ("保留的历史不以 assistant 开头", "the kept history never starts with assistant"),
    "case.c4.label": (
        "只保留 user 与 assistant (丢掉检索结果等)",
        "only user and assistant (retrieval results dropped)",
    ),
    "case.c5.label": ("system 消息都保留，放在最前面", "every system message kept, in front"),
    "case.c6.label": ("返回新列表，不修改调用者的列表", "a new list; the caller's list unchanged"),
    "case.c7.label": ("max_turns < 1 抛出 ValueError", "max_turns < 1 raises ValueError"),
    "case.r1.label": ("没有一轮对话时返回 None，否则返回两条消息", "None without a turn, otherwise two messages"),
    "case.r2.label": (
        "历史逐行写成 用户：/助手：，最后一行是 问题：",
        "the history as 用户：/助手： lines, then 问题：",
    ),
    "case.r3.label": (
        "只写 user 和 assistant (不写 system、检索结果)",
        "only user and assistant lines (no system, no retrieval)",
    ),
    "case.r4.label": (
        "只写最后 max_turns 轮 (默认 3)；max_turns < 1 抛出 ValueError",
        "only the last max_turns turns (default 3); max_turns < 1 raises ValueError",
    ),
    "case.r5.label": ("不修改调用者的列表", "the caller's list stays unchanged"),
    "case.r6.label": ("取第一个非空行，去掉首尾空白", "the first non-blank line, trimmed"),
    "case.r7.label": ("为空或超过 max_chars 时用回原来的问题", "empty or longer than max_chars: the original question"),
    # --- hints: the likely mistake and where TASK.md explains it (the judge's defaults restated) --
    "hint.case1": (
        "单轮提示词 = 标签行 + 内容行 + 生成标签行 (TASK.md 1.5.2 规则 F1–F3)",
        "a single-turn prompt is tag line + content line + generation line (TASK.en.md 1.5.2, rules F1–F3)",
    ),
    "hint.case2": (
        "每条消息 (包括 system) 按原顺序各写两行: 标签行、内容行 (TASK.md 1.5.2 规则 F1、F2)",
        "every message, system included, becomes two lines in order: tag, content (TASK.en.md 1.5.2, rules F1, F2)",
    ),
    "hint.case3": (
        "所有消息之后再写一行生成标签 <|assistant|>，提示词到此为止 (TASK.md 1.5.2 规则 F3)",
        "after all messages add one generation line <|assistant|> and stop there (TASK.en.md 1.5.2, rule F3)",
    ),
    "hint.case4": (
        "输出里没有 <|assistant|> 时，整段输出去掉首尾空白就是回复 (TASK.md 1.5.3 规则 E1)",
        "with no <|assistant|> in the output, the whole output, trimmed, is the reply (TASK.en.md 1.5.3, rule E1)",
    ),
    "hint.case5": (
        "回复从最后一个 <|assistant|> 之后开始 (TASK.md 1.5.3 规则 E2)",
        "the reply starts after the last <|assistant|> (TASK.en.md 1.5.3, rule E2)",
    ),
    "hint.case6": (
        "在回复之后最早出现的 <|user|>、<|assistant|>、<|system|> 或 <|end|> 处截断 (TASK.md 1.5.3 规则 E3)",
        "cut at the earliest <|user|>, <|assistant|>, <|system|> or <|end|> after the reply "
        "(TASK.en.md 1.5.3, rule E3)",
    ),
    "hint.x1": (
        "空列表也要返回生成标签 \"<|assistant|>\\n\" (TASK.md 1.5.2 规则 F3)",
        "an empty list still returns the generation tag \"<|assistant|>\\n\" (TASK.en.md 1.5.2, rule F3)",
    ),
    "hint.unknown_role": (
        "不认识的角色要自己 raise ValueError(...)，并在信息里写出角色名；字典查不到时的 KeyError "
        "不算 (TASK.md 1.5.2 规则 F2)",
        "raise ValueError(...) yourself for an unknown role, naming the role; a KeyError from a "
        "dict lookup does not count (TASK.en.md 1.5.2, rule F2)",
    ),
    "hint.error_names_role": (
        "ValueError 的信息里要写出那个角色，例如 f\"unknown role: {{role}}\" (TASK.md 1.5.2 规则 F2)",
        "the ValueError message must name the role, e.g. f\"unknown role: {{role}}\" (TASK.en.md 1.5.2, rule F2)",
    ),
    "hint.input_modified": (
        "不要修改传进来的列表和字典 (append、pop、赋值)；需要时先复制 (TASK.md 1.5.2 规则 F4)",
        "do not change the list or dicts you were given (append, pop, assignment); copy first "
        "(TASK.en.md 1.5.2, rule F4)",
    ),
    "hint.content_verbatim": (
        "内容原样写出: 不要 strip()，不要替换，空内容也占一行 (TASK.md 1.5.2 规则 F1)",
        "write content verbatim: no strip(), no replacing, empty content still takes a line "
        "(TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.x5": (
        "不管最后一条是谁说的，都要加生成标签 (TASK.md 1.5.2 规则 F3)",
        "add the generation tag whoever spoke last (TASK.en.md 1.5.2, rule F3)",
    ),
    "hint.x7": (
        "用不带参数的 str.strip(): 它去掉 \\r、\\t、全角空格等所有空白 (TASK.md 1.5.3 规则 E4)",
        "use str.strip() with no argument: it removes \\r, \\t, full-width spaces and all other "
        "whitespace (TASK.en.md 1.5.3, rule E4)",
    ),
    "hint.x9": (
        "回复可以是空的: <|assistant|> 后面什么都没有，或紧接着就是边界 (TASK.md 1.5.3 规则 E3、E4)",
        "a reply can be empty: nothing after <|assistant|>, or a boundary right after it "
        "(TASK.en.md 1.5.3, rules E3, E4)",
    ),
    "hint.x10": (
        "只有那四个标签是边界；找不到就取到结尾 (TASK.md 1.5.3 规则 E3)",
        "only the four tags are boundaries; with none, take everything to the end (TASK.en.md 1.5.3, rule E3)",
    ),
    "hint.not_list": ("要返回消息字典的列表，而不是 {type}", "return a list of message dicts, not {type}"),
    "hint.c1": (
        "轮数不超过 max_turns 时，历史原样保留 (TASK.md 1.5.7 规则 T3)",
        "with no more than max_turns turns, the history stays as it is (TASK.en.md 1.5.7, rule T3)",
    ),
    "hint.c2": (
        "按轮裁剪: 一轮 = 一条 user 消息和它后面的 assistant 回复；只留最后 max_turns 轮 (TASK.md 1.5.7 规则 T3)",
        "trim by turns: a turn is a user message and the assistant replies after it; keep the last "
        "max_turns turns (TASK.en.md 1.5.7, rule T3)",
    ),
    "hint.trim_starts_with_assistant": (
        "保留下来的历史不能以 assistant 开头: 按整轮裁剪，而不是按消息条数 (TASK.md 1.5.7 规则 T3)",
        "the kept history must not start with assistant: trim whole turns, not a "
        "number of messages (TASK.en.md 1.5.7, rule T3)",
    ),
    "hint.trim_other_roles": (
        "除了 system，只保留 user 和 assistant；检索结果这类消息要丢掉 (TASK.md 1.5.7 规则 T2)",
        "besides system, keep only user and assistant; drop messages such as retrieval "
        "results (TASK.en.md 1.5.7, rule T2)",
    ),
    "hint.trim_keep_system": (
        "每条 system 消息都要保留，并按原顺序放在最前面 (TASK.md 1.5.7 规则 T1)",
        "keep every system message, in its order, in front (TASK.en.md 1.5.7, rule T1)",
    ),
    "hint.trim_new_list": (
        "返回一个新列表 (例如用列表推导式构造)，不要直接返回或修改传进来的列表 (TASK.md 1.5.7 规则 T4)",
        "return a new list (build it, e.g. with a list comprehension); do not return or change "
        "the list you were given (TASK.en.md 1.5.7, rule T4)",
    ),
    "hint.trim_max_turns": (
        "max_turns 小于 1 时 raise ValueError(...) (TASK.md 1.5.7 规则 T5)",
        "raise ValueError(...) when max_turns is less than 1 (TASK.en.md 1.5.7, rule T5)",
    ),
    "hint.r1": (
        "history 里有 user 消息时，返回两条消息: system (REWRITE_INSTRUCTION) 和 user (历史各行 + 问题行)；"
        "只有没有 user 消息时才返回 None (TASK.md 1.5.8 规则 R1、R2)",
        "when the history holds a user message, return two messages: system (REWRITE_INSTRUCTION) and user "
        "(the history's lines and the question line); None only without a user message (TASK.en.md 1.5.8, "
        "rules R1, R2)",
    ),
    "hint.r2": (
        "每条 user / assistant 消息一行: \"用户：\" 或 \"助手：\" 加原样的内容；最后一行 \"问题：\" 加问题；"
        "用 \"\\n\" 连接，末尾没有换行 (TASK.md 1.5.8 规则 R3)",
        "one line per user / assistant message: \"用户：\" or \"助手：\" and the content as it is; last "
        "the line \"问题：\" and the question; joined with \"\\n\", no newline at the end "
        "(TASK.en.md 1.5.8, rule R3)",
    ),
    "hint.r3": (
        "只写 user 和 assistant 消息；system 和其他角色 (比如检索结果) 不写进改写请求 (TASK.md 1.5.8 规则 R3)",
        "write only user and assistant messages; leave out system and other roles such as retrieval "
        "results (TASK.en.md 1.5.8, rule R3)",
    ),
    "hint.r4": (
        "只写最后 max_turns 轮，一轮从 user 消息开始 (和 trim_history 的 T3 一样，可以直接调用它)；"
        "max_turns < 1 时 raise ValueError (TASK.md 1.5.8 规则 R4)",
        "write only the last max_turns turns, a turn starting at a user message (as trim_history's T3: you "
        "may call it); raise ValueError when max_turns < 1 (TASK.en.md 1.5.8, rule R4)",
    ),
    "hint.r5": (
        "不要修改传进来的列表 (append、pop、赋值)；构造新的列表 (TASK.md 1.5.8 规则 R5)",
        "do not change the list you were given (append, pop, assignment); build new lists (TASK.en.md 1.5.8, rule R5)",
    ),
    "hint.r6": (
        "按行拆开 (str.splitlines())，跳过只有空白的行，第一行用 str.strip() 去掉首尾空白 (TASK.md 1.5.8 规则 R6)",
        "split into lines (str.splitlines()), skip lines of whitespace only, strip the first one "
        "with str.strip() (TASK.en.md 1.5.8, rule R6)",
    ),
    "hint.r7": (
        "没有非空行，或者那一行超过 max_chars 个字符时，返回 question；正好 max_chars 个字符还可以用 "
        "(TASK.md 1.5.8 规则 R7)",
        "with no non-blank line, or when that line is longer than max_chars characters, return question; "
        "exactly max_chars is still fine (TASK.en.md 1.5.8, rule R7)",
    ),
    "hint.returned_empty": (
        "函数返回了空字符串 —— 还没有实现吗？从 TASK.md 1.5.2 开始",
        "the function returned an empty string: not implemented yet? Start at TASK.en.md 1.5.2",
    ),
    "hint.empty_reply": (
        "回复是空的: 还没写就从 TASK.md 1.5.3 开始；写了的话，回复从最后一个 <|assistant|> 之后开始 "
        "(+ len(ASSISTANT_TAG))，边界在那之后找 (规则 E2、E3)",
        "the reply is empty: not written yet? Start at TASK.en.md 1.5.3. Written? The reply starts "
        "after the last <|assistant|> (+ len(ASSISTANT_TAG)); look for boundaries after that point "
        "(rules E2, E3)",
    ),
    "hint.tag_text_left": (
        "回复开头还留着标签的文字: 回复从最后一个 <|assistant|> 的后面开始，切片要从 位置 + "
        "len(ASSISTANT_TAG) 开始；lstrip(标签) 去掉的是这些字符，不是整个标签 (TASK.md 1.5.3 规则 E2)",
        "the reply begins with text of a tag: it starts right after the last <|assistant|>, so "
        "slice from position + len(ASSISTANT_TAG); lstrip(tag) removes those characters, not the "
        "tag (TASK.en.md 1.5.3, rule E2)",
    ),
    "hint.strip_after_cut": (
        "回复末尾还留着空白: 先在边界处截断，再 strip()；先 strip 再截断，标签前面的换行就留下了 "
        "(TASK.md 1.5.3 规则 E4)",
        "whitespace is left at the end of the reply: cut at the boundary first, then strip(); "
        "stripping before the cut leaves the newline in front of the tag "
        "(TASK.en.md 1.5.3, rule E4)",
    ),
    "hint.cut_at_newline": (
        "回复可以有好几行: 只在那四个标签处截断，不要在换行处截断 (TASK.md 1.5.3 规则 E3)",
        "a reply may span several lines: cut only at the four tags, never at a newline (TASK.en.md 1.5.3, rule E3)",
    ),
    "hint.removed_not_cut": (
        "只删掉了标签，它后面的文字还在: 要在标签处截断，标签和它后面的都不属于回复 (TASK.md 1.5.3 规则 E3)",
        "the tag was removed but the text after it kept: cut at the tag; the tag and all after "
        "it are not part of the reply (TASK.en.md 1.5.3, rule E3)",
    ),
    "hint.tag_spelling": (
        "标签写错了: 用 framework.tags 里的常量 SYSTEM_TAG、USER_TAG、ASSISTANT_TAG，不要自己打 "
        "(TASK.md 1.5.2 规则 F2)",
        "a tag is wrong: use the constants SYSTEM_TAG, USER_TAG, ASSISTANT_TAG from framework.tags "
        "instead of typing tags (TASK.en.md 1.5.2, rule F2)",
    ),
    "hint.end_tag_in_prompt": (
        "提示词里不写 <|end|>: 它是模型写出的结束标记。Phi-3 的模板在每条消息后加 <|end|>，"
        "本实验的协议不加: 每条消息只有标签行和内容行 (TASK.md 1.5.2 规则 F1)",
        "no <|end|> in the prompt: it is the end mark the model writes. Phi-3's template adds "
        "<|end|> after each message; this protocol does not: a message is its tag line and "
        "content line (TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.crlf": (
        "只用 \\n 换行，不要 \\r\\n (也不要 os.linesep，它在 Windows 上是 \\r\\n) (TASK.md 1.5.2 规则 F1)",
        "end lines with \\n only, not \\r\\n (nor os.linesep, which is \\r\\n on Windows) (TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.generation_at_start": (
        "生成标签放在所有消息的后面，不是最前面 (TASK.md 1.5.2 规则 F3)",
        "the generation tag goes after all messages, not in front (TASK.en.md 1.5.2, rule F3)",
    ),
    "hint.unbound_tag": (
        "变量在赋值之前就用了: 你的 if/elif 没有覆盖每个角色。system、user、assistant 各对应一个标签，"
        "其他角色 raise ValueError (TASK.md 1.5.2 规则 F2)",
        "a variable was used before it had a value: your if/elif misses a role. system, user and "
        "assistant each have a tag; any other role raises ValueError (TASK.en.md 1.5.2, rule F2)",
    ),
    "hint.role_key_missing": (
        "你的 角色→标签 对照里缺了一个角色: system、user、assistant 三个都要有 (TASK.md 1.5.2 规则 F2)",
        "your role→tag table lacks a role: it needs system, user and assistant (TASK.en.md 1.5.2, rule F2)",
    ),
    "hint.message_keys": (
        "每条消息是 {{\"role\": ..., \"content\": ...}}: 用 message[\"role\"] 和 message[\"content\"] (TASK.md 1.5.1)",
        "each message is {{\"role\": ..., \"content\": ...}}: use message[\"role\"] and "
        "message[\"content\"] (TASK.en.md 1.5.1)",
    ),
    "hint.dict_access": (
        "消息是字典: 用 message[\"role\"] 和 message[\"content\"]，不是 message.role (TASK.md 1.5.1)",
        "messages are dicts: message[\"role\"] and message[\"content\"], not message.role (TASK.en.md 1.5.1)",
    ),
    "hint.split_index": (
        "下标越界: 没有 <|assistant|> 时 split(...) 只得到一段，[1] 不存在。先按规则 E1 处理这种情况；"
        "有好几段时取最后一段 [-1] (TASK.md 1.5.3 规则 E1、E2)",
        "index out of range: with no <|assistant|>, split(...) gives one piece and [1] does not "
        "exist. Handle that case first (rule E1); with several pieces take the last, [-1] "
        "(TASK.en.md 1.5.3, rules E1, E2)",
    ),
    "hint.substring_not_found": (
        "str.index / rindex 找不到时抛出 ValueError: 用 find / rfind (找不到返回 -1)，"
        "没有 <|assistant|> 时按规则 E1 返回 (TASK.md 1.5.3 规则 E1)",
        "str.index / rindex raise ValueError when nothing is found: use find / rfind "
        "(-1 when not found) and return as rule E1 says when there is no <|assistant|> "
        "(TASK.en.md 1.5.3, rule E1)",
    ),
    "hint.printed_not_returned": (
        "函数把结果 print 出来了，但测试只看返回值: 用 return 返回它 (TASK.md 1.5.1)",
        "the function printed its result, but only the returned value counts: return it (TASK.en.md 1.5.1)",
    ),
    "hint.load_reads_input": (
        "文件顶层的代码在读键盘输入 (input())，测试时没有键盘: 把实验代码 (比如聊天循环) 放进 "
        "if __name__ == \"__main__\": 下面 (TASK.md 常见错误 1)",
        "code at the top level of the file reads input(), and the tests have no keyboard: put "
        "experiments such as a chat loop under if __name__ == \"__main__\": "
        "(TASK.en.md, common mistake 1)",
    ),
    "hint.content_before_tag": (
        "每条消息先写标签行，再写内容行，顺序不能反 (TASK.md 1.5.2 规则 F1)",
        "write the tag line first, then the content line (TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.tag_same_line": (
        "标签独占一行: 标签后面先换行，再写内容 (TASK.md 1.5.2 规则 F1)",
        "a tag is a line of its own: newline after the tag, then the content (TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.missing_newline": (
        "内容行末尾也要换行，下一个标签才会另起一行 (TASK.md 1.5.2 规则 F1)",
        "end the content line with a newline so the next tag starts a new line (TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.blank_line": (
        "多了空行: 每条消息正好两行，中间没有空行 (TASK.md 1.5.2 规则 F1)",
        "extra blank line: each message is exactly two lines, no blank lines (TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.whitespace_only_reply": (
        "只差空白字符: 回复中间的换行和空格原样保留，只用不带参数的 strip() 去掉首尾空白 (TASK.md 1.5.3 规则 E4)",
        "only whitespace differs: keep the line breaks and spaces inside the reply, and "
        "trim only its ends with strip() and no argument (TASK.en.md 1.5.3, rule E4)",
    ),
    "hint.system_as_user": (
        "system 消息要用 <|system|> 标签，不是 <|user|> (TASK.md 1.5.2 规则 F2)",
        "a system message takes <|system|>, not <|user|> (TASK.en.md 1.5.2, rule F2)",
    ),
    "hint.role_mapping": (
        "有的消息用错了标签: system→<|system|>，user→<|user|>，assistant→<|assistant|> (TASK.md 1.5.2 规则 F2)",
        "some messages carry the wrong tag: system→<|system|>, user→<|user|>, "
        "assistant→<|assistant|> (TASK.en.md 1.5.2, rule F2)",
    ),
    "hint.system_dropped": (
        "system 消息不见了: 它也要写进提示词，放在原来的位置 (TASK.md 1.5.2 规则 F1、F2)",
        "the system message is missing: it belongs in the prompt, in its place (TASK.en.md 1.5.2, rules F1, F2)",
    ),
    "hint.history_lost": (
        "只剩最后一条消息: 是不是每次循环都覆盖了结果 (= 而不是 +=)？(TASK.md 1.5.2 规则 F1)",
        "only the last message is left: does the loop overwrite the result (= instead of +=)? "
        "(TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.no_generation_tag": (
        "最后还要加一行生成标签 <|assistant|>\\n，模型才知道轮到它说话 (TASK.md 1.5.2 规则 F3)",
        "add the generation line <|assistant|>\\n at the end so the model knows it is its "
        "turn (TASK.en.md 1.5.2, rule F3)",
    ),
    "hint.generation_tag_newline": (
        "生成标签后面也要换行: 结尾是 \"<|assistant|>\\n\" (TASK.md 1.5.2 规则 F3)",
        "the generation tag ends with a newline: \"<|assistant|>\\n\" (TASK.en.md 1.5.2, rule F3)",
    ),
    "hint.generation_tag_twice": (
        "生成标签只在末尾加一次 (TASK.md 1.5.2 规则 F3)",
        "add the generation tag once, at the end (TASK.en.md 1.5.2, rule F3)",
    ),
    "hint.generation_after_every_user": (
        "生成标签只加在整个提示词末尾，不是每条 user 消息后面 —— 真实模板也犯过这个错 (TASK.md 1.5.2 规则 F3)",
        "the generation tag goes at the very end only, not after every user "
        "message; real templates have shipped this bug (TASK.en.md 1.5.2, rule F3)",
    ),
    "hint.empty_when_no_tag": (
        "没有 <|assistant|> 时不要返回空字符串: 整段输出去掉首尾空白就是回复 (TASK.md 1.5.3 规则 E1)",
        "with no <|assistant|>, do not return \"\": the whole output, trimmed, is the reply "
        "(TASK.en.md 1.5.3, rule E1)",
    ),
    "hint.first_not_last": (
        "取的不是最后一个 <|assistant|>: 原始输出包含整段历史，要从后往前找 (rfind) (TASK.md 1.5.3 规则 E2)",
        "that is not the last <|assistant|>: the raw output holds the whole history, search "
        "from the end (rfind) (TASK.en.md 1.5.3, rule E2)",
    ),
    "hint.no_cut_user": (
        "模型接着编了一轮用户的话: 回复要在下一个 <|user|> 处截断 (find 找不到时返回 -1，"
        "-1 不是位置，别让它参与取最小值) (TASK.md 1.5.3 规则 E3)",
        "the model went on to invent a user turn: cut the reply at the next <|user|> (find gives "
        "-1 for a tag it does not find; -1 is no position, keep it out of the minimum) "
        "(TASK.en.md 1.5.3, rule E3)",
    ),
    "hint.no_cut_end": (
        "<|end|> 表示回复结束，要在那里截断 (TASK.md 1.5.3 规则 E3)",
        "<|end|> ends the reply: cut there (TASK.en.md 1.5.3, rule E3)",
    ),
    "hint.no_cut_system": (
        "<|system|> 也是边界，要在那里截断 (TASK.md 1.5.3 规则 E3)",
        "<|system|> is a boundary too: cut there (TASK.en.md 1.5.3, rule E3)",
    ),
    "hint.cut_at_earliest": (
        "要在位置最早的那个边界截断: 按固定顺序找标签、取最大的位置、或贪婪的正则 .* "
        "都会停在更后面的标签 (TASK.md 1.5.3 规则 E3)",
        "cut at the boundary that comes first in the text: looking for the tags in a fixed "
        "order, taking the largest position or a greedy regex .* all stop at a later one "
        "(TASK.en.md 1.5.3, rule E3)",
    ),
    "hint.not_trimmed": (
        "回复首尾的空白 (空格、换行、制表符) 要去掉: str.strip() (TASK.md 1.5.3 规则 E4)",
        "remove whitespace (spaces, newlines, tabs) at both ends: str.strip() (TASK.en.md 1.5.3, rule E4)",
    ),
    "hint.trim_one_side": (
        "只去掉了一边的空白，两边都要去掉: str.strip() (TASK.md 1.5.3 规则 E4)",
        "only one end was trimmed; trim both: str.strip() (TASK.en.md 1.5.3, rule E4)",
    ),
    "hint.none_no_tag": (
        "输出里没有 <|assistant|> 时函数返回了 None: 这个分支也要 return，返回整段输出去掉首尾空白 "
        "(TASK.md 1.5.1；1.5.3 规则 E1)",
        "the function returned None for an output without <|assistant|>: that branch must return "
        "too, the whole output trimmed (TASK.en.md 1.5.1; 1.5.3, rule E1)",
    ),
    "hint.none_empty_reply": (
        "回复为空时函数返回了 None: 空回复也要返回 \"\" (TASK.md 1.5.1；1.5.3 规则 E3、E4)",
        "the function returned None for an empty reply: return \"\" then (TASK.en.md 1.5.1; 1.5.3, rules E3, E4)",
    ),
    "hint.none_no_boundary": (
        "回复后面没有边界标签时函数返回了 None: 一个边界都没有，回复就取到结尾 (TASK.md 1.5.1；1.5.3 规则 E3)",
        "the function returned None for a reply with no boundary after it: with none, the reply "
        "runs to the end (TASK.en.md 1.5.1; 1.5.3, rule E3)",
    ),
    "hint.none_empty_history": (
        "空列表时函数返回了 None: 没有消息也要返回生成标签 \"<|assistant|>\\n\" (TASK.md 1.5.1；1.5.2 规则 F3)",
        "the function returned None for an empty list: with no messages, return the generation "
        "line \"<|assistant|>\\n\" (TASK.en.md 1.5.1; 1.5.2, rule F3)",
    ),
    "hint.literal_backslash_n": (
        "提示词里是反斜杠和 n 两个字符，不是换行: 代码里写 \"\\n\" (一个反斜杠)；"
        "写成 \"\\\\n\" 或 r\"\\n\" 得到的是字面上的 \\n (TASK.md 1.5.2 规则 F1)",
        "the prompt holds a backslash and an n, not a newline: write \"\\n\" (one backslash) "
        "in code; \"\\\\n\" or r\"\\n\" give a literal \\n (TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.after_generation": (
        "提示词到生成标签行 \"<|assistant|>\\n\" 为止: 后面不能再有别的，连空行也不要 (TASK.md 1.5.2 规则 F3)",
        "the prompt ends with the generation line \"<|assistant|>\\n\": nothing after it, not "
        "even a blank line (TASK.en.md 1.5.2, rule F3)",
    ),
    "hint.stops_early": (
        "提示词提前结束了: 每条消息都要写出来 (return 是不是写在了循环里？)，最后再加生成标签行 "
        "(TASK.md 1.5.2 规则 F1、F3)",
        "the prompt stops early: write every message (is the return inside the loop?), then the "
        "generation line (TASK.en.md 1.5.2, rules F1, F3)",
    ),
    "hint.assistant_as_end": (
        "assistant 消息的标签是 ASSISTANT_TAG，不是 END_TAG: <|end|> 是模型写出的结束标记，"
        "不是角色 (TASK.md 1.5.2 规则 F2)",
        "an assistant message takes ASSISTANT_TAG, not END_TAG: <|end|> is the end mark a model "
        "writes, not a role (TASK.en.md 1.5.2, rule F2)",
    ),
    "hint.message_dropped": (
        "少了一条消息: 每条消息 (不管什么角色) 都按原顺序写进提示词 (TASK.md 1.5.2 规则 F1)",
        "a message is missing: every message, whatever its role, goes into the prompt in its "
        "order (TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.message_order": (
        "消息的顺序变了: 每条消息都留在原来的位置，按原顺序写出 (TASK.md 1.5.2 规则 F1)",
        "the messages are out of order: write every message in its place, in the order given "
        "(TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.tag_line_expected": (
        "每条消息从它的标签行开始: system → <|system|>，user → <|user|>，assistant → "
        "<|assistant|>，一行一个标签，下一行才是内容 (TASK.md 1.5.2 规则 F1、F2)",
        "every message starts with its tag line: system → <|system|>, user → <|user|>, "
        "assistant → <|assistant|>, one tag on its line, the content on the next "
        "(TASK.en.md 1.5.2, rules F1, F2)",
    ),
    "hint.tag_line_spaces": (
        "标签行只有标签本身: 前后都不加空格，标签后面紧跟换行 (TASK.md 1.5.2 规则 F1)",
        "a tag line holds the tag alone: no space before or after it, then the newline (TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.end_mark_in_prompt": (
        "本协议的消息没有回合结束标记: 内容行之后直接换行，不写 </s>、<|end|> 之类 (那是别的模板的) "
        "(TASK.md 1.5.2 规则 F1)",
        "this protocol's messages have no end-of-turn mark: the content line ends with its "
        "newline, no </s>, <|end|> or the like (other templates have them) "
        "(TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.no_tag_minus_one": (
        "输出里没有 <|assistant|> 时 rfind 返回 -1，-1 + len(ASSISTANT_TAG) 不是回复的开头: "
        "先判断 -1，这时整段输出去掉首尾空白就是回复 (TASK.md 1.5.3 规则 E1)",
        "with no <|assistant|>, rfind gives -1, and -1 + len(ASSISTANT_TAG) is no start of a "
        "reply: check for -1 first; then the whole output, trimmed, is the reply "
        "(TASK.en.md 1.5.3, rule E1)",
    ),
    "hint.no_tag_no_cut": (
        "输出里没有 <|assistant|> 时整段输出都是回复: 这时 <|user|>、<|end|> 等标签不截断 (TASK.md 1.5.3 规则 E1)",
        "with no <|assistant|>, the whole output is the reply: <|user|>, <|end|> and the other tags "
        "cut nothing then (TASK.en.md 1.5.3, rule E1)",
    ),
    "hint.raised_no_tag": (
        "输出里没有 <|assistant|> 时你的代码出错了: 先处理这种情况，整段输出去掉首尾空白就是回复 "
        "(TASK.md 1.5.3 规则 E1)",
        "your code fails on an output without <|assistant|>: handle that case first; the whole "
        "output, trimmed, is the reply (TASK.en.md 1.5.3, rule E1)",
    ),
    "hint.raised_empty_reply": (
        "回复为空时你的代码出错了: <|assistant|> 后面什么都没有、或紧接着就是边界时，回复是 \"\" "
        "(TASK.md 1.5.3 规则 E3、E4)",
        "your code fails when the reply is empty: with nothing after <|assistant|>, or a "
        "boundary right after it, the reply is \"\" (TASK.en.md 1.5.3, rules E3, E4)",
    ),
    "hint.raised_no_boundary": (
        "回复后面没有边界标签时你的代码出错了: 一个边界都没有，回复就取到结尾；find 找不到时返回 -1，"
        "不会抛出异常 (TASK.md 1.5.3 规则 E3)",
        "your code fails when no boundary follows the reply: with none, the reply runs to the "
        "end; find gives -1 instead of raising (TASK.en.md 1.5.3, rule E3)",
    ),
    "hint.raised_reply": (
        "你的代码在这个输出上出错了: 回复从最后一个 <|assistant|> 之后开始，到位置最早的边界为止；"
        "用 rfind / find 查找，找不到时得到 -1 (TASK.md 1.5.3 规则 E2、E3)",
        "your code fails on this output: the reply starts after the last <|assistant|> and ends at "
        "the earliest boundary; search with rfind / find, which give -1 for nothing found "
        "(TASK.en.md 1.5.3, rules E2, E3)",
    ),
    "hint.raised_empty_history": (
        "空列表时你的代码出错了: 没有消息也要返回生成标签 \"<|assistant|>\\n\" (TASK.md 1.5.2 规则 F3)",
        "your code fails on an empty list: with no messages, return the generation line "
        "\"<|assistant|>\\n\" (TASK.en.md 1.5.2, rule F3)",
    ),
    "hint.raised_empty_content": (
        "内容为空时你的代码出错了: 空内容也原样写出，占一行 (TASK.md 1.5.2 规则 F1)",
        "your code fails on an empty content: write it as it is; it still takes a line (TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.raised_prompt": (
        "你的代码在这个历史上出错了: 每条消息写成标签行和内容行 (F1)，标签按角色选 (F2)，最后一行生成标签 "
        "(F3)；读一读上面那行代码和异常信息 (TASK.md 1.5.2)",
        "your code fails on this history: each message is a tag line and a content line (F1), the "
        "tag chosen by its role (F2), then the generation line (F3); read the line and the message "
        "above (TASK.en.md 1.5.2)",
    ),
    "hint.rewrite_newlines": (
        "行末不要再加 \"\\n\"，行与行之间也没有空行: 用 \"\\n\".join(行) 连接，最后一行后面什么都没有 "
        "(TASK.md 1.5.8 规则 R3)",
        "no \"\\n\" after each line and no blank line between lines: join them with "
        "\"\\n\".join(lines), nothing after the last (TASK.en.md 1.5.8, rule R3)",
    ),
    "hint.rewrite_ascii_colon": (
        "标签里的冒号是全角的 \"：\" (用户：、助手：、问题：)，不是英文的 \":\"；直接用 "
        "REWRITE_LABELS (TASK.md 1.5.8 规则 R3)",
        "the labels' colon is the full-width \"：\" (用户：, 助手：, 问题：), not an ASCII "
        "\":\"; use REWRITE_LABELS (TASK.en.md 1.5.8, rule R3)",
    ),
    "hint.none_returned": (
        "函数返回了 None: 是不是忘了 return，或者某个分支没有 return？(TASK.md 1.5.1)",
        "the function returned None: a missing return, or a branch without one? (TASK.en.md 1.5.1)",
    ),
    "hint.str_subclass": (
        "要返回普通的 str，不是 str 的子类 {type} (TASK.md 1.5.1)",
        "return a plain str, not the str subclass {type} (TASK.en.md 1.5.1)",
    ),
    "hint.not_str": (
        "要返回一个 str，而不是 {type}；列表可以用 \"\".join(...) 拼起来 (TASK.md 1.5.1)",
        "return a str, not {type}; join a list with \"\".join(...) (TASK.en.md 1.5.1)",
    ),
    "hint.name_error": (
        "用到了没定义的名字: 拼写对吗？标签常量要先 from framework.tags import ...",
        "a name is not defined: spelled right? Import the tag constants from framework.tags",
    ),
    "hint.timeout": (
        "可能是死循环: 循环里查找的起点 (find 的第二个参数) 有没有向前移动？(TASK.md 常见错误 11)",
        "probably an endless loop: does the search start (find's second argument) move forward? "
        "(TASK.en.md, common mistake 11)",
    ),
    "hint.timeout_prompt": (
        "可能是死循环: 循环的下标有没有加一 (i += 1)？遍历消息用 for message in messages 最稳妥 (TASK.md 常见错误 11)",
        "probably an endless loop: does the index move on (i += 1)? Looping with "
        "for message in messages is safest (TASK.en.md, common mistake 11)",
    ),
    "hint.missing_function": ("函数名和参数要与 TASK.md 1.5.1 中的完全一致", "use the exact names of TASK.en.md 1.5.1"),
    "hint.not_utf8": (
        "用 UTF-8 重新保存: VS Code 右下角点编码 → “通过编码保存” → UTF-8；PyCharm: File → File "
        "Properties → File Encoding (TASK.md 常见错误 1)",
        "re-save as UTF-8: VS Code: click the encoding in the status bar → Save with Encoding → "
        "UTF-8; PyCharm: File → File Properties → File Encoding (TASK.en.md, common mistake 1)",
    ),
    "hint.syntax_error": (
        "改好这一行 (常见: 缩进、漏了冒号或括号)；python framework/student.py 可以先自查 (TASK.md 常见错误 1)",
        "fix that line (indentation, a missing colon or bracket); python framework/student.py "
        "checks it (TASK.en.md, common mistake 1)",
    ),
    "hint.import_tags": (
        "标签从框架导入: from framework.tags import ...，不是 from tags import ... "
        "(测试从实验根目录加载你的文件) (TASK.md 1.5.1)",
        "import the tags from the framework: from framework.tags import ..., not from tags import "
        "... (the tests load your file from the lab's root) (TASK.en.md 1.5.1)",
    ),
    "hint.import_error": (
        "文件加载时就出错了: 检查顶层代码和 import (本实验只用标准库) (TASK.md 常见错误 1)",
        "the file fails while loading: check top-level code and imports (standard library only) "
        "(TASK.en.md, common mistake 1)",
    ),
    "hint.load_timeout": (
        "文件顶层的代码停不下来: 把测试代码放进 if __name__ == \"__main__\": 下面 (TASK.md 常见错误 1)",
        "top-level code never finishes: put experiments under if __name__ == \"__main__\": "
        "(TASK.en.md, common mistake 1)",
    ),
    "hint.too_large": (
        "只交 student.py 这一个文件，别把数据或模型放进去",
        "submit student.py only, without data or models",
    ),
    # --- property checks (make test-full) and generated checks (the grade): drawn inputs ------------
    "section.properties": (
        "=== 性质检查 (随机生成的输入，按规则判断) ===",
        "=== Property checks (generated inputs, judged by the rules) ===",
    ),
    "section.generated": (
        "=== 生成检查 (为每个学生随机生成的输入，与参考答案对照；只在评分时运行) ===",
        "=== Generated checks (inputs drawn for each student, compared with the reference; grading only) ===",
    ),
    # the property checks as graded (labkit.spec.GRADED_PREFIX + section)
    "section.graded_properties": (
        "=== 性质检查 (评分时为你随机生成的输入，按规则判断；和 make test-full 的输入不同) ===",
        "=== Property checks (inputs drawn for you at grading, judged by the rules; not those of make test-full) ===",
    ),
    "summary.properties": (
        "性质检查: {passed} 通过, {failed} 失败",
        "Property checks: {passed} passed, {failed} failed",
    ),
    "summary.generated": (
        "生成检查: {passed} 通过, {failed} 失败",
        "Generated checks: {passed} passed, {failed} failed",
    ),
    "summary.pointer": (
        "评分还会检查更多: 运行 make test-full (扩展检查、性质检查)；评分时还有为你随机生成的输入 (TASK.md 1.5.4)",
        "The grade checks more: run make test-full (extended and property checks); grading also "
        "draws inputs for you (TASK.en.md 1.5.4)",
    ),
    "case.p1.label": (
        "随机历史: 每条消息一个标签行和原样的内容，最后是生成标签",
        "random histories: a tag line and the verbatim content per message, then the generation line",
    ),
    "case.p2.label": (
        "随机历史中任意位置的未知角色: 抛出 ValueError 并写出角色名",
        "an unknown role anywhere in a random history raises ValueError naming it",
    ),
    "case.p3.label": (
        "提示词 + 回复 + 边界 + 后文: 取回去掉首尾空白的回复 (可以为空)",
        "prompt + reply + boundary + more gives back the reply, trimmed (it may be empty)",
    ),
    "case.p4.label": (
        "没有 <|assistant|> 的随机文本: 去掉首尾空白的全文",
        "random text without <|assistant|>: all of it, trimmed",
    ),
    "case.g1.label": ("为你生成的对话历史: 提示词", "histories drawn for you: the prompt"),
    "case.g2.label": (
        "为你生成的含未知角色的历史: ValueError",
        "histories drawn for you with an unknown role: ValueError",
    ),
    "case.g3.label": ("为你生成的模型原始输出: 回复", "raw model outputs drawn for you: the reply"),
    "hint.p1": (
        "每条消息按原顺序写成标签行和原样的内容行，最后一行生成标签；不修改传入的列表 (TASK.md 1.5.2 规则 F1–F4)",
        "each message, in order, becomes its tag line and its verbatim content line, then the generation "
        "line; the list you were given stays unchanged (TASK.en.md 1.5.2, rules F1–F4)",
    ),
    "hint.p3": (
        "回复从最后一个 <|assistant|> 之后开始，到最早的 <|user|>、<|system|>、<|end|> 为止，再 str.strip() "
        "(TASK.md 1.5.3 规则 E2–E4)",
        "the reply starts after the last <|assistant|> and ends at the earliest <|user|>, <|system|> or "
        "<|end|>, then str.strip() (TASK.en.md 1.5.3, rules E2–E4)",
    ),
    "hint.system_moved": (
        "system 消息留在原来的位置，不要移到最前面 (TASK.md 1.5.2 规则 F1)",
        "a system message stays where it is; do not move it to the front (TASK.en.md 1.5.2, rule F1)",
    ),
    "hint.g1": (
        "按规则逐条写出每条消息: 标签行、原样的内容行；最后一行生成标签 (TASK.md 1.5.2 规则 F1–F4)",
        "write each message by the rules: tag line, verbatim content line; then the generation line "
        "(TASK.en.md 1.5.2, rules F1–F4)",
    ),
    "hint.g3": (
        "没有 <|assistant|> 就取全文；否则从最后一个 <|assistant|> 之后，到最早的边界为止；再 str.strip() "
        "(TASK.md 1.5.3 规则 E1–E4)",
        "with no <|assistant|> take all of it; otherwise from after the last <|assistant|> to the earliest "
        "boundary; then str.strip() (TASK.en.md 1.5.3, rules E1–E4)",
    ),
    # --- make help / python lab.py help ------------------------------------------------------
    "help.challenge": ("选做 trim_history 和问题改写的测试", "the optional cases (trim_history, the rewrite)"),
    "help.lab09_test_full": (
        "{core_cases} + 扩展检查 + 性质检查 (都计入成绩)",
        "{core_cases}, extended and property checks (all graded)",
    ),
}
