"""make chat's sentences (the chat, chat-sessions.db, chat-session.html, its make help lines), zh and en.

labkit.i18n installs them with Lab09's other texts (LAB.texts names this module).
"""

# key: (中文, English)
TEXTS = {
    # --- make chat ----------------------------------------------------------------------------
    "chat.welcome": (
        "Lab09 聊天: 一个很小的语言模型，用你在 {file} 里写的函数。/help 列出命令，/quit 或 Ctrl-D 退出。",
        "Lab09 chat: a tiny language model, driven by your functions in {file}. /help lists the "
        "commands, /quit or Ctrl-D leaves.",
    ),
    "chat.tiny_note": (
        "它很小: 照着每一轮检索到的资料回答；没有资料时只懂它读过的几百段对话 (token、提示词、标签、"
        "历史……)，别的就说不知道。答得不好是模型太小，不是你的函数错了。",
        "It is tiny: it answers from the evidence each turn retrieves; without evidence it knows only "
        "the few hundred dialogues it has read (token, prompt, tag, history…) and says it does not "
        "know the rest. A poor answer comes from a tiny model, not from your functions.",
    ),
    "chat.seed": ("种子 {seed}: 同样的种子得到同样的对话。", "Seed {seed}: the same seed gives the same conversation."),
    "chat.no_seed": (
        "没有固定种子，每次的对话可能不同；make chat SEED=7 可以重现同一段对话。",
        "No fixed seed, so each run may differ; make chat SEED=7 replays the same conversation.",
    ),
    "chat.knowledge_on": (
        "资料: 每一轮在 {sheet} 的 {count} 段 (各节正文、规则、常见错误) 里检索，最相关的 3 段"
        "和问题一起发给模型 (TASK.md 1.5.8)。",
        "Evidence: every turn searches the {count} passages of {sheet} (sections, rules, common "
        "mistakes) and sends the best 3 with the question (TASK.en.md 1.5.8).",
    ),
    "chat.knowledge_off": (
        "资料: 找不到 {sheet}，这次聊天不检索。",
        "Evidence: {sheet} is missing, so nothing is searched.",
    ),
    "chat.trim_ready": (
        "历史超过 {n} 轮时，trim_history 只把最后 {n} 轮发给模型 (max_turns={n})。",
        "Once the history is longer than {n} turns, trim_history sends only the last {n} to the model (max_turns={n}).",
    ),
    "chat.trim_stub": (
        "trim_history 还没有实现 (初始代码原样返回历史): 每一轮都发完整的历史；选做 TASK.md 1.5.7。",
        "trim_history is not implemented yet (the stub returns the history as it is): every turn "
        "sends the whole history; optional, TASK.en.md 1.5.7.",
    ),
    "chat.trim_missing": (
        "trim_history 不在你的文件里: 每一轮都发完整的历史；选做 TASK.md 1.5.7。",
        "trim_history is not in your file: every turn sends the whole history; optional, TASK.en.md 1.5.7.",
    ),
    "chat.trim_failed": (
        "(trim_history 没能裁剪: {reason}；这样的轮次发完整的历史)",
        "(trim_history did not trim: {reason}; such turns send the whole history)",
    ),
    "chat.trim_same_list": (
        "返回了传入的列表 (规则 T4: 返回一个新列表)",
        "it returned the list it was given (rule T4: return a new list)",
    ),
    "chat.rewrite_ready": (
        "追问先由 rewrite_messages 和 clean_rewrite 改写 (选做 TASK.md 1.5.8)，时限 {ms} ms；REWRITE=0 关闭。",
        "Follow-ups are rewritten first with rewrite_messages and clean_rewrite (optional, "
        "TASK.en.md 1.5.8), deadline {ms} ms; REWRITE=0 turns it off.",
    ),
    "chat.rewrite_off": (
        "改写已关闭 (REWRITE=0): 问题原样发给模型，检索也只用原句。",
        "Rewriting is off (REWRITE=0): questions go to the search and the model as typed.",
    ),
    "chat.system": ("你是一个简洁的助手。", "You are a concise assistant."),
    "chat.rewrite_label": ("改写: ", "rewrite: "),
    "chat.rewrite_done": ("{question} → {rewrite} ({time})", "{question} → {rewrite} ({time})"),
    "chat.rewrite_same": ("{question} (不用改写, {time})", "{question} (kept as it is, {time})"),
    "chat.rewrite_none": ("{question} (没有历史，不用改写)", "{question} (no history, nothing to rewrite)"),
    "chat.rewrite_fallback": ("{question} (降级: {reason})", "{question} (fallback: {reason})"),
    "chat.within": ("≤ {ms} ms", "≤ {ms} ms"),
    "chat.reason.timeout": ("超时 {ms} ms", "timed out at {ms} ms"),
    "chat.reason.raised": ("{function} 抛出了 {type}", "{function} raised {type}"),
    "chat.reason.wrong_type": ("{function} 返回了 {type}", "{function} returned {type}"),
    "chat.reason.not_list": ("rewrite_messages 返回的不是消息列表", "rewrite_messages returned no list of messages"),
    "chat.reason.not_str": ("clean_rewrite 返回的不是 str", "clean_rewrite returned no str"),
    "chat.reason.none": ("rewrite_messages 有历史时返回了 None", "rewrite_messages returned None with a history"),
    "chat.rewrite_stub": (
        "{function} 还没有实现 (还是初始代码): 追问不改写，检索只用原句；选做 TASK.md 1.5.8。",
        "{function} is not implemented yet (still the stub): follow-ups go to the search and the "
        "model as typed; optional, TASK.en.md 1.5.8.",
    ),
    "chat.rewrite_missing": (
        "{function} 不在你的文件里: 追问不改写，检索只用原句；选做 TASK.md 1.5.8。",
        "{function} is not in your file: follow-ups go to the search and the model as typed; "
        "optional, TASK.en.md 1.5.8.",
    ),
    "chat.search_original": ("检索 (原句): ", "search (original): "),
    "chat.search_rewritten": ("检索 (改写): ", "search (rewrite): "),
    "chat.search_fallback": ("检索 (降级，用原句): ", "search (fallback, the original): "),
    "chat.search_none": ("没有找到相关的段落", "no passage found"),
    "chat.evidence": ("资料 (检索自 {sheet}):", "Evidence (retrieved from {sheet}):"),
    "chat.evidence_question": ("问题：", "Question: "),
    "chat.help": (
        "命令: /help 列出命令；/reset 清空历史，开始新的一段对话；/quit 或 /exit (或 Ctrl-D) 退出。"
        "别的话都作为问题发给模型。",
        "Commands: /help lists them; /reset clears the history and starts a new conversation; /quit or "
        "/exit (or Ctrl-D) leaves. Anything else goes to the model as a question.",
    ),
    "chat.unknown_command": (
        "没有 {command} 这个命令；/help 列出命令。",
        "There is no command {command}; /help lists them.",
    ),
    "chat.page": ("每一轮的细节: {path} (用浏览器打开)", "Every turn in detail: {path} (open it in a browser)"),
    "chat.page_failed": ("没能写出 {path} ({problem})。", "Could not write {path} ({problem})."),
    "chat.stored": (
        "会话存进了 {path} (第 {session} 次会话，共 {count} 次；make clean 不会删掉它)。",
        "The session is kept in {path} (session {session} of {count}; make clean keeps it).",
    ),
    # --- chat-sessions.db ---------------------------------------------------------------------
    "store.old": (
        "{path} 是旧版本的会话库，已改名为 {aside}，另建了一个新的。",
        "{path} is a sessions database of an older version: it is now {aside}, and a new one was started.",
    ),
    "store.newer": (
        "{path} 是更新版本的会话库，已改名为 {aside}，另建了一个新的。",
        "{path} is a sessions database of a newer version: it is now {aside}, and a new one was started.",
    ),
    "store.corrupt": (
        "{path} 不是能读的会话库 (损坏了？)，已改名为 {aside}，另建了一个新的。",
        "{path} is not a sessions database that can be read (damaged?): it is now {aside}, and a new one was started.",
    ),
    "store.unavailable": (
        "会话库 {path} 用不了 ({problem})，这次聊天不保存。",
        "The sessions database {path} cannot be used ({problem}), so this chat is not kept.",
    ),
    "store.failed": (
        "(会话库 {path} 写不进去 ({problem})，后面的轮次不再保存)",
        "(the sessions database {path} cannot be written ({problem}); later turns are not kept)",
    ),
    # --- chat-session.html --------------------------------------------------------------------
    "page.title": ("Lab09 聊天记录", "Lab09 chat session"),
    "page.meta": (
        "学生文件 {file} · 种子 {seed} · 改写: {rewrite} · 裁剪: {trim} · 资料: {knowledge}",
        "student file {file} · seed {seed} · rewrite: {rewrite} · trim: {trim} · evidence: {knowledge}",
    ),
    "page.no_seed": ("无", "none"),
    "page.rewrite_ready": ("开，时限 {deadline} ms，延迟 {delay} ms", "on, deadline {deadline} ms, delay {delay} ms"),
    "page.rewrite_off": ("关 (REWRITE=0)", "off (REWRITE=0)"),
    "page.rewrite_stub": ("{function} 还没有实现", "{function} not implemented yet"),
    "page.rewrite_missing": ("{function} 不在文件里", "{function} is not in the file"),
    "page.trim_ready": ("trim_history，max_turns={n}", "trim_history, max_turns={n}"),
    "page.trim_stub": ("trim_history 还没有实现", "trim_history not implemented yet"),
    "page.trim_missing": ("trim_history 不在文件里", "trim_history is not in the file"),
    "page.knowledge": ("每轮从 {sheet} 检索 3 段", "3 passages of {sheet} per turn"),
    "page.knowledge_off": ("不检索", "none"),
    "page.chart": ("每一轮提示词的 token 数", "Prompt tokens per turn"),
    "page.chart_trimmed": (
        "从第 {first} 轮起，trim_history 只发最后 {n} 轮: 实线 (发出的提示词) 低于虚线 (不裁剪时)。",
        "From turn {first} on, trim_history sends only the last {n} turns: the solid line (the "
        "prompt sent) is below the dashed one (untrimmed).",
    ),
    "page.chart_short": (
        "这 {count} 轮都没有超过 max_turns={n} 轮，trim_history 还没裁掉什么，两条线重合；聊到第 {next} 轮"
        "就能看到裁剪。",
        "None of these {count} turns went past max_turns={n}, so trim_history has not cut anything "
        "yet and the two lines coincide; chat on to turn {next} to see it trim.",
    ),
    "page.chart_no_trim": (
        "{trim}，所以两条线重合 (选做 TASK.md 1.5.7)。",
        "{trim}, so the two lines coincide (optional, TASK.en.md 1.5.7).",
    ),
    "page.chart_evidence": (
        "绿线: 这一轮的资料占了多少 token。资料只在这一轮的消息里；历史只存原句和回复，所以下一轮的"
        "提示词不再为它付费。",
        "Green: the tokens this turn's evidence took. The evidence is in this turn's message only; "
        "the history keeps the question and the reply, so the next prompt no longer pays for it.",
    ),
    "page.untrimmed": ("不裁剪", "untrimmed"),
    "page.trimmed": ("发出的 (trim_history 之后)", "sent (after trim_history)"),
    "page.evidence_series": ("其中资料", "of which evidence"),
    "page.turn_axis": ("轮", "turn"),
    "page.tokens_axis": ("token", "tokens"),
    "page.summary": ("概览", "Overview"),
    "page.col_turn": ("轮", "turn"),
    "page.col_question": ("原句", "question"),
    "page.col_rewrite": ("改写 (或降级原因)", "rewrite (or why not)"),
    "page.col_top_original": ("原句检索的第一段", "top hit of the question"),
    "page.col_top_rewritten": ("改写检索的第一段", "top hit of the rewrite"),
    "page.col_evidence": ("资料 token: 本轮 → 下一轮", "evidence tokens: this turn → next"),
    "page.col_messages": ("消息数 裁剪前 → 后", "messages before → after trim"),
    "page.col_tokens": ("token 数 裁剪前 → 后", "tokens before → after trim"),
    "page.turn": ("第 {n} 轮", "Turn {n}"),
    "page.rewriter": (
        "改写模型: format_prompt(rewrite_messages(…)) 与它的原始输出",
        "The rewriter: format_prompt(rewrite_messages(…)) and its raw output",
    ),
    "page.no_rewrite": ("(这一轮没有改写)", "(no rewrite this turn)"),
    "page.hits_original": ("检索 (原句)", "Search (the question)"),
    "page.hits_rewritten": ("检索 (改写)", "Search (the rewrite)"),
    "page.hits_fallback": ("检索 (降级: 两次都用原句)", "Search (fallback: the question both times)"),
    "page.hits_none": ("没有找到相关的段落", "no passage found"),
    "page.hits_not_run": ("没有第二次检索: 这一轮没有改写", "no second search: nothing was rewritten this turn"),
    "page.gained": ("改写找到、原句没找到", "found by the rewrite, missed by the question"),
    "page.lost": ("原句找到、改写丢了", "found by the question, lost by the rewrite"),
    "page.evidence_cost": (
        "资料: 这一轮的消息里 {tokens} 个 token；下一轮的提示词里还剩 {carried} 个。",
        "Evidence: {tokens} tokens in this turn's message; {carried} of them left in the next prompt.",
    ),
    "page.evidence_last": (
        "资料: 这一轮的消息里 {tokens} 个 token (这是最后一轮)。",
        "Evidence: {tokens} tokens in this turn's message (the last turn).",
    ),
    "page.prompt": ("format_prompt(历史) 拼出的提示词", "The prompt format_prompt(history) built"),
    "page.raw": (
        "model.generate 的原始输出 (灰色: 提示词；黑色: 模型的续写)",
        "Raw output of model.generate (grey: the prompt; black: what the model wrote)",
    ),
    "page.reply": ("extract_response 取出的回复", "The reply extract_response cut out"),
    "page.counts": (
        "发给模型: {after} 条消息、{tokens_after} 个 token (不裁剪是 {before} 条、{tokens_before} 个)",
        "sent to the model: {after} messages, {tokens_after} tokens (untrimmed: {before} messages, "
        "{tokens_before} tokens)",
    ),
    "page.legend": (
        "↵ 是换行，→ 是制表符，\\xNN 是控制字符；标签用颜色标出。",
        "↵ is a newline, → a tab, \\xNN a control character; tags are coloured.",
    ),
    "page.insight": ("多轮改写", "Rewrites across sessions"),
    "page.insight_note": (
        "{path} 里每次会话的每个追问，最新的会话在前: 原句和改写 (或为什么没有改写)，以及各自检索到的"
        "段落；★ 标出改写找到、原句没找到的段落，✗ 标出原句找到、改写丢了的段落。",
        "Every follow-up of every session in {path}, newest session first: the question and its "
        "rewrite (or why there was none), and the passages each one found; ★ marks what the "
        "rewrite found and the question missed, ✗ what the question found and the rewrite lost.",
    ),
    "page.insight_none": ("会话库里还没有追问。", "No follow-up stored yet."),
    "page.insight_no_store": (
        "没有会话库 (见聊天开头的说明)，这里只有本次会话的追问。",
        "No sessions database (the chat said why at its start): only this session's follow-ups.",
    ),
    "page.insight_more": ("还有 {count} 个更早的追问在会话库里。", "{count} older follow-ups are in the database."),
    "page.insight_session": (
        "会话 #{session} · {started} · {student} · 改写: {rewrite}",
        "session #{session} · {started} · {student} · rewrite: {rewrite}",
    ),
    "page.insight_this": ("(本次)", "(this one)"),
    "page.insight_fallback": (
        "降级: {reason}；两次检索都用原句",
        "fallback: {reason}; both searches used the question",
    ),
    "page.insight_off": ("没有改写: {reason}", "not rewritten: {reason}"),
    "page.rewrite_setting_ready": ("开", "on"),
    "chat.you": ("你> ", "you> "),
    "chat.assistant": ("助手> ", "assistant> "),
    "chat.prompt": ("format_prompt(历史) 拼出的提示词:", "the prompt format_prompt(history) built:"),
    "chat.raw": (
        "model.generate(提示词) 的原始输出 = 提示词 ({count} 个字符) + 下面的续写:",
        "raw output of model.generate(prompt) = the prompt ({count} characters) + this continuation:",
    ),
    "chat.reply": ("extract_response(原始输出) 取出的回复:", "the reply extract_response(raw output) cut out:"),
    "chat.reset": ("(历史已清空)", "(history cleared)"),
    "chat.format_empty": (
        "format_prompt 返回了空字符串，还没有实现吧？先完成 TASK.md 1.5.2 (make test 的 TEST 1–3)，再来聊天。",
        "format_prompt returned an empty string: not implemented yet? Do TASK.en.md 1.5.2 "
        "(make test's TEST 1–3) first, then chat.",
    ),
    "chat.extract_empty": (
        "(回复是空字符串: 要么模型一开口就写了边界标签，要么 extract_response 还没有实现，见 TASK.md 1.5.3)",
        "(the reply is empty: either the model began with a boundary tag, or extract_response is "
        "not implemented yet; see TASK.en.md 1.5.3)",
    ),
    "chat.problem": (
        "{function} 没能给出结果: {problem}。运行 make test 看详情。",
        "{function} gave no result: {problem}. Run make test for details.",
    ),
    "chat.problem.load_failed": ("文件加载失败", "the file did not load"),
    "chat.problem.missing_function": ("找不到这个函数", "the function is missing"),
    "chat.problem.timeout": ("超时 (死循环?)", "it timed out (an endless loop?)"),
    "chat.problem.crashed": ("进程退出了", "the process ended"),
    "chat.problem.no_answer": ("没有返回值", "no value came back"),
    "chat.raised": (
        "{function} 抛出了 {type}: {message}{where}。运行 make test 看详情。",
        "{function} raised {type}: {message}{where}. Run make test for details.",
    ),
    "chat.not_str": (
        "{function} 返回的不是 str 而是 {type}。运行 make test 看详情。",
        "{function} returned {type}, not a str. Run make test for details.",
    ),
    # --- make help / python lab.py help ------------------------------------------------------
    "help.chat": (
        "和一个小语言模型聊天 (用你的函数); DEMO=1 演示三轮",
        "chat with a tiny model through your functions; DEMO=1 replays three turns",
    ),
    "help.chat_options": (
        "chat: REWRITE=0 不改写, REWRITE_DELAY=ms 看降级, REWRITE_DEADLINE=ms (默认 500); 结束时写 "
        "chat-session.html, 每一轮存进 chat-sessions.db (CHAT_DB=)",
        "chat: REWRITE=0 no rewrite, REWRITE_DELAY=ms shows the fallback, REWRITE_DEADLINE=ms "
        "(default 500); writes chat-session.html at the end, keeps every turn in chat-sessions.db "
        "(CHAT_DB=)",
    ),
}
