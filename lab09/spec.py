"""Lab09 · 多轮对话: the lab spec — its files, functions, groups and their points, sections, and every check.

Each check is one entry; `make tables` renders the scheme tables from GROUPS: change a weight here and
nowhere else.  Where labels, hints, draws and detectors live: docs/design.md#lab09specpy
"""

from __future__ import annotations

from pathlib import Path

from lab09.examples import (
    LONG_LINE,
    MULTI_TURN,
    MULTI_TURN_PROMPT,
    SINGLE_TURN_PROMPT,
    SYSTEM,
    TOKEN_TURN,
    msg,
    request,
    turns,
)
from labkit.spec import Case, DrawnCheck, Example, Group, Lab, Option, Section, Target, Text

SIX = Group(id="six", points=30, stage="test", name=Text("{count}个测试", "the {count}"))
EXTENDED = Group(id="extended", points=20, stage="full", name=Text("扩展检查", "extended checks"))
PROPERTIES = Group(id="properties", points=20, stage="full", name=Text("性质检查", "property checks"))
GENERATED = Group(
    id="generated",
    points=30,
    stage="grade",
    count=120,
    name=Text("生成检查", "generated checks"),
    column_label=Text("{first}–{last}: 为每个学生随机生成的输入", "{first}–{last}: inputs drawn for each student"),
)
CHALLENGE = Group(id="challenge", points=0, stage="challenge", name=Text("选做", "optional"))

SECTIONS = tuple(
    Section(id=name)
    for name in (
        "format",
        "extract",
        "extended",
        "properties",
        "graded_properties",
        "generated",
        "challenge",
        "rewrite",
    )
)


def _six(case_id, function, section, *examples, rules, about):
    return Case(
        id=case_id,
        function=function,
        group=SIX,
        section=section,
        hint=f"hint.case{case_id}",
        examples=examples,
        rules=rules,
        about=about,
    )


def _extended(case_id, function, hint, *examples):
    return Case(id=case_id, function=function, group=EXTENDED, section="extended", hint=hint, examples=examples)


def _drawn(case_id, function, group, hint, inputs):
    return DrawnCheck(id=case_id, function=function, group=group, section=group.id, hint=hint, inputs=inputs)


def _challenge(case_id, function, section, hint, *examples):
    return Case(id=case_id, function=function, group=CHALLENGE, section=section, hint=hint, examples=examples)


CHECKS = (
    # --- the six (make test) -------------------------------------------------------------------------------
    _six(
        "1",
        "format_prompt",
        "format",
        Example(([msg("user", "你好")],), SINGLE_TURN_PROMPT),
        rules=("F1", "F2", "F3"),
        about=Text("单轮: 一条 user 消息得到完全正确的提示词", "single turn: the exact prompt for one user message"),
    ),
    _six(
        "2",
        "format_prompt",
        "format",
        Example((MULTI_TURN,), MULTI_TURN_PROMPT),
        rules=("F1", "F2"),
        about=Text(
            "多轮: system + 三轮历史，每个标签、顺序、换行和内容",
            "multi-turn: system + three turns, every tag, order, newline and content",
        ),
    ),
    _six(
        "3",
        "format_prompt",
        "format",
        Example(
            ([msg("system", "只用一句话回答。"), msg("user", "天为什么是蓝的？")],),
            "<|system|>\n只用一句话回答。\n<|user|>\n天为什么是蓝的？\n<|assistant|>\n",
        ),
        Example(
            ([msg("user", "Hi"), msg("assistant", "Hello!"), msg("user", "Tell me a joke.")],),
            "<|user|>\nHi\n<|assistant|>\nHello!\n<|user|>\nTell me a joke.\n<|assistant|>\n",
        ),
        rules=("F3",),
        about=Text(
            "提示词以生成标签结尾，且只在结尾出现一次", "the prompt ends with the generation tag, once, at the end"
        ),
    ),
    _six(
        "4",
        "extract_response",
        "extract",
        Example(("  今天天气不错。  ",), "今天天气不错。", mistakes={"": "hint.empty_when_no_tag"}),
        Example(("\n\t好的，我明白了。\r\n",), "好的，我明白了。", mistakes={"": "hint.empty_when_no_tag"}),
        Example(("第一行\n第二行\n",), "第一行\n第二行", mistakes={"": "hint.empty_when_no_tag"}),
        rules=("E1", "E4"),
        about=Text("没有标签时返回整段输出，去掉首尾空白", "no tag: the whole output, trimmed"),
    ),
    _six(
        "5",
        "extract_response",
        "extract",
        Example(
            ("<|system|>\n简洁回答。\n<|user|>\n1+1=?\n<|assistant|>\n2\n<|user|>\n再加 1 呢？\n<|assistant|>\n3\n",),
            "3",
            mistakes={"2": "hint.first_not_last", "2\n<|user|>\n再加 1 呢？\n<|assistant|>\n3": "hint.first_not_last"},
        ),
        Example(
            (
                "<|user|>\nhi\n<|assistant|>\nhello\n<|user|>\nhow are you?\n<|assistant|>\n"
                "fine, thanks\n<|user|>\nbye\n<|assistant|>\n  Bye!\nSee you.  \n",
            ),
            "Bye!\nSee you.",
            mistakes={"hello": "hint.first_not_last", "fine, thanks": "hint.first_not_last"},
        ),
        rules=("E2", "E4"),
        about=Text("有多个 `<|assistant|>` 时取最后一个", "several `<|assistant|>`: the last one wins"),
    ),
    _six(
        "6",
        "extract_response",
        "extract",
        Example(
            ("<|user|>\n帮我起个名字\n<|assistant|>\n叫“小明”怎么样？\n<|user|>\n再来一个\n",),
            "叫“小明”怎么样？",
            mistakes={"叫“小明”怎么样？\n<|user|>\n再来一个": "hint.no_cut_user"},
        ),
        Example(
            ("<|user|>\n你好\n<|assistant|>\n你好！有什么可以帮你？<|end|>\n",),
            "你好！有什么可以帮你？",
            mistakes={"你好！有什么可以帮你？<|end|>": "hint.no_cut_end"},
        ),
        Example(
            ("<|user|>\n现在几点？\n<|assistant|>\n我看不到时钟。\n<|system|>\n当前时间 10:00\n",),
            "我看不到时钟。",
            mistakes={"我看不到时钟。\n<|system|>\n当前时间 10:00": "hint.no_cut_system"},
        ),
        Example(
            (
                "<|user|>\n讲个笑话\n<|assistant|>\n程序员为什么分不清万圣节和圣诞节？"
                "因为 Oct 31 = Dec 25。<|end|>\n<|user|>\n没听懂\n",
            ),
            "程序员为什么分不清万圣节和圣诞节？因为 Oct 31 = Dec 25。",
            mistakes={"程序员为什么分不清万圣节和圣诞节？因为 Oct 31 = Dec 25。<|end|>": "hint.cut_at_earliest"},
        ),
        Example(
            ("<|assistant|>\n先说结论：可以。\n<|user|>\n为什么？<|end|>\n",),
            "先说结论：可以。",
            mistakes={"先说结论：可以。\n<|user|>\n为什么？": "hint.cut_at_earliest"},
        ),
        rules=("E3", "E4"),
        about=Text(
            "在最早的 `<|user|>`、`<|end|>` 或 `<|system|>` 处截断",
            "cut at the earliest `<|user|>`, `<|end|>` or `<|system|>`",
        ),
    ),
    # --- extended checks (make test-full) --------------------------------------------------------------------
    _extended("x1", "format_prompt", "hint.x1", Example(([],), "<|assistant|>\n", mistakes={"": "hint.x1"})),
    _extended(
        "x2",
        "format_prompt",
        "hint.unknown_role",
        Example(([msg("user", "北京天气？"), msg("tool", "晴，21°C")],), raises="ValueError", mentions="tool"),
        Example(([msg("User", "hi")],), raises="ValueError", mentions="User"),
    ),
    _extended("x3", "format_prompt", "hint.input_modified", Example((MULTI_TURN,), MULTI_TURN_PROMPT, unchanged=True)),
    _extended(
        "x4",
        "format_prompt",
        "hint.content_verbatim",
        Example(
            ([msg("user", "  两边有空格  ")],),
            "<|user|>\n  两边有空格  \n<|assistant|>\n",
            mistakes={"<|user|>\n两边有空格\n<|assistant|>\n": "hint.content_verbatim"},
        ),
        Example(([msg("user", "第一行\n第二行")],), "<|user|>\n第一行\n第二行\n<|assistant|>\n"),
        Example(([msg("user", "")],), "<|user|>\n\n<|assistant|>\n"),
        Example(([msg("user", "写出 <|end|> 这个标记")],), "<|user|>\n写出 <|end|> 这个标记\n<|assistant|>\n"),
    ),
    _extended(
        "x5",
        "format_prompt",
        "hint.x5",
        Example(
            ([msg("user", "讲个笑话"), msg("assistant", "好的。")],),
            "<|user|>\n讲个笑话\n<|assistant|>\n好的。\n<|assistant|>\n",
        ),
    ),
    _extended(
        "x6",
        "format_prompt",
        "hint.case2",
        Example(
            ([msg("user", "你好"), msg("system", "从现在起用英文回答。"), msg("user", "再说一遍")],),
            "<|user|>\n你好\n<|system|>\n从现在起用英文回答。\n<|user|>\n再说一遍\n<|assistant|>\n",
        ),
    ),
    _extended(
        "x7",
        "extract_response",
        "hint.x7",
        Example(("<|user|>\r\nhi\r\n<|assistant|>\r\n\t你好！\t\r\n<|end|>\r\n",), "你好！"),
        Example(("\r\n\t没有标签\r\n",), "没有标签"),
    ),
    _extended(
        "x8",
        "extract_response",
        "hint.x7",
        Example(("<|assistant|>\n\u3000\u3000你好\u3000\n",), "你好", mistakes={"\u3000\u3000你好\u3000": "hint.x7"}),
    ),
    _extended(
        "x9",
        "extract_response",
        "hint.x9",
        Example(("<|user|>\nhi\n<|assistant|>\n好<|end|>\n",), "好"),  # so that `return ""` cannot pass
        Example(("<|user|>\nhi\n<|assistant|>\n",), ""),
        Example(("<|user|>\nhi\n<|assistant|><|end|>\n",), ""),
        Example((" \n\t ",), ""),
    ),
    _extended(
        "x10",
        "extract_response",
        "hint.x10",
        Example(("<|user|>\nhi\n<|assistant|>\nhello there",), "hello there"),
        Example(("<|assistant|>\n用 <|tag|> 表示标签\n",), "用 <|tag|> 表示标签"),
    ),
    # --- property checks (make test-full; the grade draws each student's inputs) -------------------------------
    _drawn("p1", "format_prompt", PROPERTIES, "hint.p1", "lab09.draws"),
    _drawn("p2", "format_prompt", PROPERTIES, "hint.unknown_role", "lab09.draws"),
    _drawn("p3", "extract_response", PROPERTIES, "hint.p3", "lab09.draws"),
    _drawn("p4", "extract_response", PROPERTIES, "hint.case4", "lab09.draws"),
    # --- generated checks (grading only: inputs drawn for each student, answers from the reference) -----------
    _drawn("g1", "format_prompt", GENERATED, "hint.g1", "lab09.generated"),
    _drawn("g2", "format_prompt", GENERATED, "hint.unknown_role", "lab09.generated"),
    _drawn("g3", "extract_response", GENERATED, "hint.g3", "lab09.generated"),
    # --- 选做 (optional): trim_history, TASK.md 1.5.7; make challenge, never part of make test or the grade -----
    _challenge(
        "c1",
        "trim_history",
        "challenge",
        "hint.c1",
        Example(([SYSTEM, msg("user", "问题 1")], 6), [SYSTEM, msg("user", "问题 1")], fresh=True),
    ),
    _challenge(
        "c2",
        "trim_history",
        "challenge",
        "hint.c2",
        Example(([SYSTEM, *turns(1, 8)],), [SYSTEM, *turns(3, 8)]),  # default max_turns=6
        Example(([SYSTEM, *turns(1, 8)], 2), [SYSTEM, *turns(7, 8)]),
    ),
    _challenge(
        "c3",
        "trim_history",
        "challenge",
        "hint.trim_starts_with_assistant",
        Example(([msg("assistant", "你好！我是助手。"), *turns(1, 2)], 6), turns(1, 2)),
        Example(
            ([SYSTEM, *turns(1, 2), msg("assistant", "补充一句。")], 1),
            [SYSTEM, *turns(2, 2), msg("assistant", "补充一句。")],
        ),
    ),
    _challenge(
        "c4",
        "trim_history",
        "challenge",
        "hint.trim_other_roles",
        Example(
            (
                [
                    SYSTEM,
                    msg("user", "北京天气？"),
                    msg("retrieval", "检索结果: 晴，21°C"),
                    msg("assistant", "晴，21°C。"),
                    msg("user", "明天呢？"),
                ],
                6,
            ),
            [SYSTEM, msg("user", "北京天气？"), msg("assistant", "晴，21°C。"), msg("user", "明天呢？")],
        ),
    ),
    _challenge(
        "c5",
        "trim_history",
        "challenge",
        "hint.trim_keep_system",
        Example(
            ([*turns(1, 1), msg("system", "以后用英文回答。"), msg("user", "问题 2")], 1),
            [msg("system", "以后用英文回答。"), msg("user", "问题 2")],
        ),
    ),
    _challenge(
        "c6",
        "trim_history",
        "challenge",
        "hint.trim_new_list",
        Example(([SYSTEM, *turns(1, 1)], 6), [SYSTEM, *turns(1, 1)], unchanged=True, fresh=True),
        Example(([SYSTEM, *turns(1, 3)], 1), [SYSTEM, *turns(3, 3)], unchanged=True, fresh=True),
    ),
    _challenge(
        "c7",
        "trim_history",
        "challenge",
        "hint.trim_max_turns",
        Example(([SYSTEM, *turns(1, 1)], 0), raises="ValueError"),
        Example(([*turns(1, 1)], -1), raises="ValueError"),
    ),
    # --- 选做 2 (optional): query rewriting, TASK.md 1.5.8; make challenge, beside the trim cases ---------------
    _challenge(
        "r1",
        "rewrite_messages",
        "rewrite",
        "hint.r1",
        Example(([], "什么是 token？"), None),
        Example(([SYSTEM], "你好"), None),
        Example(
            (TOKEN_TURN, "那中文呢？"),
            request("用户：什么是 token？", "助手：模型读写文本的最小单位。", "问题：那中文呢？"),
            mistakes={None: "hint.r1"},
        ),
    ),
    _challenge(
        "r2",
        "rewrite_messages",
        "rewrite",
        "hint.r2",
        Example(
            (
                [SYSTEM, *TOKEN_TURN, msg("user", "那中文呢？"), msg("assistant", "一个汉字常常是一到两个 token。")],
                "还有别的吗？",
            ),
            request(
                "用户：什么是 token？",
                "助手：模型读写文本的最小单位。",
                "用户：那中文呢？",
                "助手：一个汉字常常是一到两个 token。",
                "问题：还有别的吗？",
            ),
            mistakes={None: "hint.r1"},
        ),
        Example(
            ([msg("user", "讲个笑话"), msg("assistant", "  好的。  ")], "  再来一个"),
            request("用户：讲个笑话", "助手：  好的。  ", "问题：  再来一个"),
        ),
    ),
    _challenge(
        "r3",
        "rewrite_messages",
        "rewrite",
        "hint.r3",
        Example(
            (
                [
                    SYSTEM,
                    msg("user", "北京天气？"),
                    msg("retrieval", "检索结果: 晴，21°C"),
                    msg("assistant", "晴，21°C。"),
                    msg("system", "以后用英文回答。"),
                ],
                "明天呢？",
            ),
            request("用户：北京天气？", "助手：晴，21°C。", "问题：明天呢？"),
            mistakes={None: "hint.r1"},
        ),
    ),
    _challenge(
        "r4",
        "rewrite_messages",
        "rewrite",
        "hint.r4",
        Example(
            ([SYSTEM, *turns(1, 5)], "问题 6"),  # default max_turns=3
            request(
                *[f"{who}：{what} {n}" for n in range(3, 6) for who, what in (("用户", "问题"), ("助手", "回答"))],
                "问题：问题 6",
            ),
            mistakes={None: "hint.r1"},
        ),
        Example(
            ([msg("assistant", "你好！我是助手。"), *turns(1, 2)], "问题 3", 1),
            request("用户：问题 2", "助手：回答 2", "问题：问题 3"),
        ),
        Example(([msg("assistant", "你好！我是助手。")], "问题 1"), None),
        Example(([*turns(1, 1)], "问题 2", 0), raises="ValueError"),
    ),
    _challenge(
        "r5",
        "rewrite_messages",
        "rewrite",
        "hint.r5",
        Example(
            ([SYSTEM, *TOKEN_TURN], "那中文呢？"),
            request("用户：什么是 token？", "助手：模型读写文本的最小单位。", "问题：那中文呢？"),
            unchanged=True,
            mistakes={None: "hint.r1"},
        ),
    ),
    _challenge(
        "r6",
        "clean_rewrite",
        "rewrite",
        "hint.r6",
        Example(("  中文里一个 token 有多长？  ", "那中文呢？"), "中文里一个 token 有多长？"),
        Example(
            ("\n\n中文里一个 token 有多长？\n（补全了追问里省略的部分）\n", "那中文呢？"), "中文里一个 token 有多长？"
        ),
        Example((" \t\n\u3000What is a token?\r\nIt was a follow-up.", "And that?"), "What is a token?"),
    ),
    _challenge(
        "r7",
        "clean_rewrite",
        "rewrite",
        "hint.r7",
        Example((LONG_LINE, "那中文呢？"), LONG_LINE),  # so that always giving the question back cannot pass
        Example(("", "那中文呢？"), "那中文呢？"),
        Example((" \n \n", "还有别的吗？"), "还有别的吗？"),
        Example((LONG_LINE + "。", "那中文呢？"), "那中文呢？"),
        Example(("中文里一个 token 有多长？", "那中文呢？", 10), "那中文呢？"),
    ),
)

CHAT = Target(  # make chat: the student's functions in a chat with a tiny model (lab09/chat/main.py)
    name="chat",
    module="lab09.chat.main",
    help="help.chat",
    usage="[SEED=n]",
    notes="help.chat_options",
    options=(
        Option(name="DEMO", flag="--demo", off=("", "0"), alone=True),
        Option(name="REWRITE", flag="--no-rewrite", on=("0", "off", "no")),
        Option(name="SEED", flag="--seed"),
        Option(name="REWRITE_DEADLINE", flag="--rewrite-deadline"),
        Option(name="REWRITE_DELAY", flag="--rewrite-delay"),
        Option(name="CHAT_PAGE", flag="--page", path=True),
        Option(name="CHAT_DB", flag="--db", path=True),
    ),
)

LAB = Lab(
    id="lab09",
    name="Lab09",
    root=Path(__file__).resolve().parent.parent,
    student_file="framework/student.py",
    solution="solutions/student.py",
    given="framework.tags",
    sheets={"zh": "TASK.md", "en": "TASK.en.md"},
    title=Text("多轮对话", "multi-turn chat"),
    texts=("lab09.hints", "lab09.chat.texts"),
    targets=(CHAT, Target(name="test-full", help="help.lab09_test_full")),
    clean=("chat-session.html",),
    functions=("format_prompt", "extract_response", "trim_history", "rewrite_messages", "clean_rewrite"),
    groups=(SIX, EXTENDED, PROPERTIES, GENERATED, CHALLENGE),
    sections=SECTIONS,
    checks=CHECKS,
    mistakes="lab09.mistakes:DETECTORS",
    verify="framework/verify.py",
    handout="lab09-step8",
    trees=("framework", "lab09"),
    grading_only=("lab09/generated.py",),
    fixed_inputs="lab09.fixed_inputs",
    network="none",
)
