"""The case table: every graded case defined once, as data (input, exact expected value, theme, hints).

`verify.py` (pytest), the grader and the reports all read this table; the engine runs it and
`judge.py` compares.  An example's `mistakes` maps the exact output of a known wrong implementation
to the hint that names that mistake (slips in a prompt's layout are recognised by the judge itself);
the hint texts live in `i18n.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from framework.tags import ASSISTANT_TAG

GENERATION_LINE = ASSISTANT_TAG + "\n"


@dataclass(frozen=True)
class Example:
    """One call: its arguments and what the protocol demands of it, plus outputs of known mistakes."""

    args: tuple
    expected: str | list | None = None  # the exact value to return, or None when an exception is demanded
    mistakes: dict = field(default_factory=dict)  # exact wrong output -> hint key
    raises: str | None = None  # the exception type to raise instead of returning
    mentions: str | None = None  # a word that exception's message must contain
    unchanged: bool = False  # the arguments must be the same after the call
    fresh: bool = False  # the returned list must be a new object, not an argument


@dataclass(frozen=True)
class Case:
    """One case: a function, its examples, its section, its default hint and the points it is worth."""

    id: str  # "1" … "6" the six, "x1" … extended, "p1" … property checks, "g1" … generated checks,
    #          "c1" … trim_history, "r1" … query rewriting
    section: str  # "format", "extract", "extended", "properties", "generated", "challenge" or "rewrite"
    function: str
    examples: tuple  # empty for a check that draws its inputs (labkit/drawn.py)
    hint: str
    weight: int = 0  # points: 0 here; the grader gives each graded case its share of solutions/grading.ini

    @property
    def label_key(self) -> str:
        return f"case.{self.id}.label"

    @property
    def suite(self) -> str:
        return {"x": "extended", "p": "properties", "g": "generated", "c": "challenge",
                "r": "challenge"}.get(self.id[0], "core")

    @property
    def column(self) -> str:
        """Its column in grades.csv: t1 … t6, x1 …, p1 …, g1 …"""
        return f"t{self.id}" if self.suite == "core" else self.id


def _msg(role: str, content: str) -> dict:
    return {"role": role, "content": content}


MULTI_TURN = [
    _msg("system", "你是一个简洁的助手。"),
    _msg("user", "什么是 token？"),
    _msg("assistant", "模型读写文本的最小单位。"),
    _msg("user", "中文也一样吗？"),
    _msg("assistant", "一个汉字常常是一到两个 token。"),
    _msg("user", "那“你好”呢？"),
]
MULTI_TURN_PROMPT = (
    "<|system|>\n"
    "你是一个简洁的助手。\n"
    "<|user|>\n"
    "什么是 token？\n"
    "<|assistant|>\n"
    "模型读写文本的最小单位。\n"
    "<|user|>\n"
    "中文也一样吗？\n"
    "<|assistant|>\n"
    "一个汉字常常是一到两个 token。\n"
    "<|user|>\n"
    "那“你好”呢？\n"
    "<|assistant|>\n"
)

SINGLE_TURN_PROMPT = "<|user|>\n你好\n<|assistant|>\n"

FORMAT_CASES = (
    Case("1", "format", "format_prompt", hint="hint.case1", examples=(
        Example(([_msg("user", "你好")],), SINGLE_TURN_PROMPT),
    )),
    Case("2", "format", "format_prompt", hint="hint.case2", examples=(
        Example((MULTI_TURN,), MULTI_TURN_PROMPT),
    )),
    Case("3", "format", "format_prompt", hint="hint.case3", examples=(
        Example(([_msg("system", "只用一句话回答。"), _msg("user", "天为什么是蓝的？")],),
                "<|system|>\n只用一句话回答。\n<|user|>\n天为什么是蓝的？\n<|assistant|>\n"),
        Example(([_msg("user", "Hi"), _msg("assistant", "Hello!"), _msg("user", "Tell me a joke.")],),
                "<|user|>\nHi\n<|assistant|>\nHello!\n<|user|>\nTell me a joke.\n<|assistant|>\n"),
    )),
)

EXTRACT_CASES = (
    Case("4", "extract", "extract_response", hint="hint.case4", examples=(
        Example(("  今天天气不错。  ",), "今天天气不错。", mistakes={"": "hint.empty_when_no_tag"}),
        Example(("\n\t好的，我明白了。\r\n",), "好的，我明白了。", mistakes={"": "hint.empty_when_no_tag"}),
        Example(("第一行\n第二行\n",), "第一行\n第二行", mistakes={"": "hint.empty_when_no_tag"}),
    )),
    Case("5", "extract", "extract_response", hint="hint.case5", examples=(
        Example(("<|system|>\n简洁回答。\n<|user|>\n1+1=?\n<|assistant|>\n2\n"
                 "<|user|>\n再加 1 呢？\n<|assistant|>\n3\n",), "3", mistakes={
            "2": "hint.first_not_last",
            "2\n<|user|>\n再加 1 呢？\n<|assistant|>\n3": "hint.first_not_last",
        }),
        Example(("<|user|>\nhi\n<|assistant|>\nhello\n<|user|>\nhow are you?\n<|assistant|>\n"
                 "fine, thanks\n<|user|>\nbye\n<|assistant|>\n  Bye!\nSee you.  \n",), "Bye!\nSee you.",
                mistakes={"hello": "hint.first_not_last", "fine, thanks": "hint.first_not_last"}),
    )),
    Case("6", "extract", "extract_response", hint="hint.case6", examples=(
        Example(("<|user|>\n帮我起个名字\n<|assistant|>\n叫“小明”怎么样？\n<|user|>\n再来一个\n",),
                "叫“小明”怎么样？", mistakes={"叫“小明”怎么样？\n<|user|>\n再来一个": "hint.no_cut_user"}),
        Example(("<|user|>\n你好\n<|assistant|>\n你好！有什么可以帮你？<|end|>\n",),
                "你好！有什么可以帮你？", mistakes={"你好！有什么可以帮你？<|end|>": "hint.no_cut_end"}),
        Example(("<|user|>\n现在几点？\n<|assistant|>\n我看不到时钟。\n<|system|>\n当前时间 10:00\n",),
                "我看不到时钟。", mistakes={"我看不到时钟。\n<|system|>\n当前时间 10:00": "hint.no_cut_system"}),
        Example(("<|user|>\n讲个笑话\n<|assistant|>\n程序员为什么分不清万圣节和圣诞节？"
                 "因为 Oct 31 = Dec 25。<|end|>\n<|user|>\n没听懂\n",),
                "程序员为什么分不清万圣节和圣诞节？因为 Oct 31 = Dec 25。", mistakes={
                    "程序员为什么分不清万圣节和圣诞节？因为 Oct 31 = Dec 25。<|end|>": "hint.cut_at_earliest",
                }),
        Example(("<|assistant|>\n先说结论：可以。\n<|user|>\n为什么？<|end|>\n",), "先说结论：可以。", mistakes={
            "先说结论：可以。\n<|user|>\n为什么？": "hint.cut_at_earliest",
        }),
    )),
)

CORE = FORMAT_CASES + EXTRACT_CASES


def _extended(case_id: str, function: str, hint: str, *examples: Example) -> Case:
    return Case(case_id, "extended", function, examples, hint)


EXTENDED = (
    _extended("x1", "format_prompt", "hint.x1", Example(([],), "<|assistant|>\n", mistakes={"": "hint.x1"})),
    _extended("x2", "format_prompt", "hint.unknown_role",
              Example(([_msg("user", "北京天气？"), _msg("tool", "晴，21°C")],), raises="ValueError", mentions="tool"),
              Example(([_msg("User", "hi")],), raises="ValueError", mentions="User")),
    _extended("x3", "format_prompt", "hint.input_modified", Example((MULTI_TURN,), MULTI_TURN_PROMPT, unchanged=True)),
    _extended("x4", "format_prompt", "hint.content_verbatim",
              Example(([_msg("user", "  两边有空格  ")],), "<|user|>\n  两边有空格  \n<|assistant|>\n",
                      mistakes={"<|user|>\n两边有空格\n<|assistant|>\n": "hint.content_verbatim"}),
              Example(([_msg("user", "第一行\n第二行")],), "<|user|>\n第一行\n第二行\n<|assistant|>\n"),
              Example(([_msg("user", "")],), "<|user|>\n\n<|assistant|>\n"),
              Example(([_msg("user", "写出 <|end|> 这个标记")],), "<|user|>\n写出 <|end|> 这个标记\n<|assistant|>\n")),
    _extended("x5", "format_prompt", "hint.x5",
              Example(([_msg("user", "讲个笑话"), _msg("assistant", "好的。")],),
                      "<|user|>\n讲个笑话\n<|assistant|>\n好的。\n<|assistant|>\n")),
    _extended("x6", "format_prompt", "hint.case2",
              Example(([_msg("user", "你好"), _msg("system", "从现在起用英文回答。"), _msg("user", "再说一遍")],),
                      "<|user|>\n你好\n<|system|>\n从现在起用英文回答。\n<|user|>\n再说一遍\n<|assistant|>\n")),
    _extended("x7", "extract_response", "hint.x7",
              Example(("<|user|>\r\nhi\r\n<|assistant|>\r\n\t你好！\t\r\n<|end|>\r\n",), "你好！"),
              Example(("\r\n\t没有标签\r\n",), "没有标签")),
    _extended("x8", "extract_response", "hint.x7",
              Example(("<|assistant|>\n\u3000\u3000你好\u3000\n",), "你好",
                      mistakes={"\u3000\u3000你好\u3000": "hint.x7"})),
    _extended("x9", "extract_response", "hint.x9",
              Example(("<|user|>\nhi\n<|assistant|>\n好<|end|>\n",), "好"),  # so that `return ""` cannot pass
              Example(("<|user|>\nhi\n<|assistant|>\n",), ""),
              Example(("<|user|>\nhi\n<|assistant|><|end|>\n",), ""),
              Example((" \n\t ",), "")),
    _extended("x10", "extract_response", "hint.x10",
              Example(("<|user|>\nhi\n<|assistant|>\nhello there",), "hello there"),
              Example(("<|assistant|>\n用 <|tag|> 表示标签\n",), "用 <|tag|> 表示标签")),
)


# --- 选做 (optional): trim_history, TASK.md 1.5.7; `make challenge`, never part of `make test` or the grade ---

SYSTEM = _msg("system", "你是一个简洁的助手。")


def _turns(first: int, last: int) -> list:
    return [message for n in range(first, last + 1) for message in (_msg("user", f"问题 {n}"),
                                                                     _msg("assistant", f"回答 {n}"))]


def _challenge(case_id: str, hint: str, *examples: Example) -> Case:
    return Case(case_id, "challenge", "trim_history", examples, hint)


CHALLENGE = (
    _challenge("c1", "hint.c1", Example(([SYSTEM, _msg("user", "问题 1")], 6), [SYSTEM, _msg("user", "问题 1")],
                                        fresh=True)),
    _challenge("c2", "hint.c2",
               Example(([SYSTEM, *_turns(1, 8)],), [SYSTEM, *_turns(3, 8)]),  # default max_turns=6
               Example(([SYSTEM, *_turns(1, 8)], 2), [SYSTEM, *_turns(7, 8)])),
    _challenge("c3", "hint.trim_starts_with_assistant",
               Example(([_msg("assistant", "你好！我是助手。"), *_turns(1, 2)], 6), _turns(1, 2)),
               Example(([SYSTEM, *_turns(1, 2), _msg("assistant", "补充一句。")], 1),
                       [SYSTEM, *_turns(2, 2), _msg("assistant", "补充一句。")])),
    _challenge("c4", "hint.trim_other_roles",
               Example(([SYSTEM, _msg("user", "北京天气？"), _msg("retrieval", "检索结果: 晴，21°C"),
                         _msg("assistant", "晴，21°C。"), _msg("user", "明天呢？")], 6),
                       [SYSTEM, _msg("user", "北京天气？"), _msg("assistant", "晴，21°C。"), _msg("user", "明天呢？")])),
    _challenge("c5", "hint.trim_keep_system",
               Example(([*_turns(1, 1), _msg("system", "以后用英文回答。"), _msg("user", "问题 2")], 1),
                       [_msg("system", "以后用英文回答。"), _msg("user", "问题 2")])),
    _challenge("c6", "hint.trim_new_list",
               Example(([SYSTEM, *_turns(1, 1)], 6), [SYSTEM, *_turns(1, 1)], unchanged=True, fresh=True),
               Example(([SYSTEM, *_turns(1, 3)], 1), [SYSTEM, *_turns(3, 3)], unchanged=True, fresh=True)),
    _challenge("c7", "hint.trim_max_turns",
               Example(([SYSTEM, *_turns(1, 1)], 0), raises="ValueError"),
               Example(([*_turns(1, 1)], -1), raises="ValueError")),
)


# --- 选做 2 (optional): query rewriting, TASK.md 1.5.8; `make challenge` beside the trim cases -------------
# The rewriter's instruction and line labels are part of the protocol (framework/student.py has the same).

REWRITE_INSTRUCTION = "根据对话历史，把最后的问题改写成一个不看历史也能懂的问题。只输出改写后的问题。"
REWRITE_LABELS = {"user": "用户：", "assistant": "助手：", "question": "问题："}
REWRITE_TURNS = 3  # rewrite_messages's default max_turns
REWRITE_MAX_CHARS = 60  # clean_rewrite's default max_chars


def _request(*lines: str) -> list:
    return [_msg("system", REWRITE_INSTRUCTION), _msg("user", "\n".join(lines))]


TOKEN_TURN = [_msg("user", "什么是 token？"), _msg("assistant", "模型读写文本的最小单位。")]
LONG_LINE = "中文里一个 token 有多长？" + "长" * (REWRITE_MAX_CHARS - 16)  # exactly max_chars: still kept


def _rewrite(case_id: str, function: str, hint: str, *examples: Example) -> Case:
    return Case(case_id, "rewrite", function, examples, hint)


REWRITE = (
    _rewrite("r1", "rewrite_messages", "hint.r1",
             Example(([], "什么是 token？"), None),
             Example(([SYSTEM], "你好"), None),
             Example((TOKEN_TURN, "那中文呢？"),
                     _request("用户：什么是 token？", "助手：模型读写文本的最小单位。", "问题：那中文呢？"),
                     mistakes={None: "hint.r1"})),
    _rewrite("r2", "rewrite_messages", "hint.r2",
             Example(([SYSTEM, *TOKEN_TURN, _msg("user", "那中文呢？"), _msg("assistant", "一个汉字常常是一到两个 token。")],
                      "还有别的吗？"),
                     _request("用户：什么是 token？", "助手：模型读写文本的最小单位。", "用户：那中文呢？",
                              "助手：一个汉字常常是一到两个 token。", "问题：还有别的吗？"), mistakes={None: "hint.r1"}),
             Example(([_msg("user", "讲个笑话"), _msg("assistant", "  好的。  ")], "  再来一个"),
                     _request("用户：讲个笑话", "助手：  好的。  ", "问题：  再来一个"))),
    _rewrite("r3", "rewrite_messages", "hint.r3",
             Example(([SYSTEM, _msg("user", "北京天气？"), _msg("retrieval", "检索结果: 晴，21°C"),
                       _msg("assistant", "晴，21°C。"), _msg("system", "以后用英文回答。")], "明天呢？"),
                     _request("用户：北京天气？", "助手：晴，21°C。", "问题：明天呢？"), mistakes={None: "hint.r1"})),
    _rewrite("r4", "rewrite_messages", "hint.r4",
             Example(([SYSTEM, *_turns(1, 5)], "问题 6"),  # default max_turns=3
                     _request(*[f"{who}：{what} {n}" for n in range(3, 6) for who, what in (("用户", "问题"), ("助手", "回答"))],
                              "问题：问题 6"), mistakes={None: "hint.r1"}),
             Example(([_msg("assistant", "你好！我是助手。"), *_turns(1, 2)], "问题 3", 1),
                     _request("用户：问题 2", "助手：回答 2", "问题：问题 3")),
             Example(([_msg("assistant", "你好！我是助手。")], "问题 1"), None),
             Example(([*_turns(1, 1)], "问题 2", 0), raises="ValueError")),
    _rewrite("r5", "rewrite_messages", "hint.r5",
             Example(([SYSTEM, *TOKEN_TURN], "那中文呢？"),
                     _request("用户：什么是 token？", "助手：模型读写文本的最小单位。", "问题：那中文呢？"),
                     unchanged=True, mistakes={None: "hint.r1"})),
    _rewrite("r6", "clean_rewrite", "hint.r6",
             Example(("  中文里一个 token 有多长？  ", "那中文呢？"), "中文里一个 token 有多长？"),
             Example(("\n\n中文里一个 token 有多长？\n（补全了追问里省略的部分）\n", "那中文呢？"), "中文里一个 token 有多长？"),
             Example((" \t\n\u3000What is a token?\r\nIt was a follow-up.", "And that?"), "What is a token?")),
    _rewrite("r7", "clean_rewrite", "hint.r7",
             Example((LONG_LINE, "那中文呢？"), LONG_LINE),  # so that always giving the question back cannot pass
             Example(("", "那中文呢？"), "那中文呢？"),
             Example((" \n \n", "还有别的吗？"), "还有别的吗？"),
             Example((LONG_LINE + "。", "那中文呢？"), "那中文呢？"),
             Example(("中文里一个 token 有多长？", "那中文呢？", 10), "那中文呢？")),
)
OPTIONAL = CHALLENGE + REWRITE  # what `make challenge` runs; never in `make test` or the grade.
# Points are given by the grading scheme (solutions/grading.ini, read by labkit/instructor/config.py), which builds the
# grader's own weighted copies of the graded cases; to grade an optional group, add it there.

ALL_CASES = CORE + EXTENDED  # the table cases `make test-full` runs and the grader scores (with the property checks)

