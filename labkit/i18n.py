"""Every sentence the harness itself says, in Chinese and English (`LAB_LANG=en` picks English), and the lookup.

The core's sentences and default hints live here; the grader registers its own; the active lab installs its layer.
A key is defined once (a lab may restate a default hint).  Why: docs/design.md#labkiti18npy
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping

# key: (中文, English).
CORE = {
    # --- layout of `make test` -------------------------------------------------------------
    "summary": ("测试结果: {passed} 通过, {failed} 失败", "Result: {passed} passed, {failed} failed"),
    "summary.file": ("测试的文件: {file}", "tested: {file}"),
    # --- labels of the detail block under a [FAIL] ---------------------------------------------
    "field.call": ("调用", "call"),
    "field.expected": ("期望", "expected"),
    "field.actual": ("实际", "actual"),
    "field.raised": ("异常", "raised"),
    "field.where": ("位置", "where"),
    "field.printed": ("打印", "printed"),
    "field.problem": ("问题", "problem"),
    "field.before": ("原值", "before"),
    "field.after": ("现值", "after"),
    "field.hint": ("提示", "hint"),
    "example.of": ("(例 {index}/{total})", "(example {index}/{total})"),
    "diff.at": ("第 {line} 行第 {column} 个字符起不同", "first difference: line {line}, character {column}"),
    "diff.missing": ("实际到这里就结束了，还缺: {rest}", "actual stops here; still missing: {rest}"),
    "diff.extra": ("从这里起是多出来的: {rest}", "from here on it is extra: {rest}"),
    "diff.item": ("← 第 {n} 项起不同", "← first difference: item {n}"),
    "diff.list_end": ("← 到这里就结束了 (共 {count} 项)", "← ends here ({count} items)"),
    "list.same": ("… 前 {count} 项两边相同", "… {count} items the same on both sides"),
    "list.more": ("… 后面还有 {count} 项", "… {count} more"),
    "value.more_items": ("… 还有 {count} 项", "… {count} more"),
    "diff.item_at": ("第 {n} 项的第 {column} 个字符起不同", "first difference: item {n}, character {column}"),
    "diff.path": (
        "第一处不同在 {path}: 期望 {expected}，实际 {actual}",
        "first difference at {path}: expected {expected}, actual {actual}",
    ),
    "diff.path_missing": (
        "第一处不同在 {path}: 实际里没有这个键 (期望 {expected})",
        "first difference at {path}: actual has no such key (expected {expected})",
    ),
    "diff.path_extra": (
        "第一处不同在 {path}: 实际多了这个键 ({actual})，期望里没有",
        "first difference at {path}: actual has this key ({actual}), expected has not",
    ),
    "value.unchanged": (
        "参数保持原样 (不修改传进来的列表和字典)",
        "the arguments as they were (the list and dicts unchanged)",
    ),
    "value.new_list": ("一个新列表 (不是传进来的那个)", "a new list (not the one it was given)"),
    "value.wrong_type": ("{shown}  (类型是 {type})", "{shown}  (of type {type})"),
    "value.raises": ("抛出 {type}，信息里写出 \"{word}\"", "raise {type} whose message names \"{word}\""),
    "value.raises_any": ("抛出 {type}", "raise {type}"),
    "value.returned": ("没有抛出异常，返回了 {shown}", "no exception; it returned {shown}"),
    "value.cut": (
        "(共 {length} 个字符，只收回了前 {kept} 个)",
        "({length} characters; only the first {kept} came back)",
    ),
    "value.after_too_large": (
        "(太大了，没有收回: 超过 {limit} 个字符，一个值最多这么大)",
        "(too large to come back: more than {limit} characters, the most a value may have)",
    ),
    "value.after_unserializable": (
        "(不是普通数据，没有收回: {shown})",
        "(not plain data, so it did not come back: {shown})",
    ),
    "printed.more": ("… 后面还有输出，没有显示", "… more output not shown"),
    "same_load_failure": ("同上: 文件没有加载成功", "same as above: the file did not load"),
    # --- problems: why no value came back ------------------------------------------------------
    "problem.timeout": ("{seconds:g} 秒内没有返回，已被终止", "no answer within {seconds:g} s; stopped"),
    "problem.budget": (
        "整个文件的 {seconds:g} 秒时间预算用完了，这个测试没有运行完",
        "the whole file's budget of {seconds:g} s ran out before this case finished",
    ),
    "problem.same_object": (
        "返回的就是传进来的那个列表，不是新列表",
        "it returned the very list it was given, not a new one",
    ),
    "problem.modified_input": ("函数修改了传进来的参数", "the function changed the arguments it was given"),
    "problem.exited": ("程序在调用中途退出了 (退出码 {code})", "the program exited during the call (exit code {code})"),
    "problem.signal": ("程序在调用中途崩溃了 (信号 {signal})", "the program crashed during the call (signal {signal})"),
    "problem.no_answer": ("没有收到函数的返回值", "no return value came back"),
    "problem.invalid_reply": (
        "测试进程收到了一个不是你的函数返回的回复 ({reason})，不算数",
        "the test process got a reply your functions did not return ({reason}); it does not count",
    ),
    "problem.memory": (
        "内存超过了 {limit} MiB 的上限，程序被终止了",
        "memory passed the limit of {limit} MiB; stopped",
    ),
    "problem.disk": (
        "写在自己文件夹里的文件超过了上限 ({megabytes} MiB 或 {files} 个)，程序被终止了",
        "the files it wrote in its folder passed the limit ({megabytes} MiB or {files} files); stopped",
    ),
    "problem.broken_child": (
        "你的代码破坏了测试进程: {type}: {message}",
        "your code broke the test process: {type}: {message}",
    ),
    "problem.missing_function": ("{file} 里没有函数 {function}", "{file} has no function {function}"),
    "problem.missing_function_near": (
        "{file} 里没有函数 {function}，是不是写成了 {near}？",
        "{file} has no function {function}; did you mean {near}?",
    ),
    "problem.not_callable": ("{file} 里的 {function} 不是函数", "{function} in {file} is not a function"),
    "load.missing_file": ("找不到文件 {path}", "file not found: {path}"),
    "load.too_large": (
        "{file} 太大了 (超过 {limit} 字节)，没有运行",
        "{file} is too large (over {limit} bytes); not run",
    ),
    "load.not_utf8": ("{file} 不是 UTF-8 编码 (第 {line} 行附近)", "{file} is not UTF-8 (near line {line})"),
    "load.not_utf8_guess": (
        "{file} 不是 UTF-8 编码，看起来是 {guess} (第 {line} 行附近)",
        "{file} is not UTF-8; it looks like {guess} (near line {line})",
    ),
    "load.syntax_error": ("{file} 第 {line} 行有语法错误: {message}", "syntax error in {file}, line {line}: {message}"),
    "load.import_error": ("加载 {file} 时出错: {type}: {message}", "loading {file} failed: {type}: {message}"),
    "load.memory": ("加载 {file} 时内存超限: {type}", "loading {file} ran out of memory: {type}"),
    "load.timeout": (
        "加载 {file} 超过 {seconds:g} 秒还没结束，已被终止",
        "loading {file} did not finish within {seconds:g} s; stopped",
    ),
    "load.system_error": (
        "测试机没能运行 {file}: {error} (不是你的代码的问题；请老师重新评分)",
        "the machine could not run {file}: {error} (not your code's fault; ask for a regrade)",
    ),
    "load.crashed": ("加载 {file} 时程序退出了 ({how})", "the program exited while loading {file} ({how})"),
    # --- default hints (RESTATABLE): the judge's own, in words that fit any lab; a lab restates them citing its sheet
    "hint.not_list": ("要返回一个列表，而不是 {type}", "return a list, not {type}"),
    "hint.printed_not_returned": (
        "函数把结果 print 出来了，但测试只看返回值: 用 return 返回它",
        "the function printed its result, but only the returned value counts: return it",
    ),
    "hint.load_reads_input": (
        "文件顶层的代码在读键盘输入 (input())，测试时没有键盘: 把实验代码放进 if __name__ == \"__main__\": 下面",
        "code at the top level of the file reads input(), and the tests have no keyboard: put "
        "experiments under if __name__ == \"__main__\":",
    ),
    "hint.none_returned": (
        "函数返回了 None: 是不是忘了 return，或者某个分支没有 return？",
        "the function returned None: a missing return, or a branch without one?",
    ),
    "hint.str_subclass": (
        "要返回普通的 str，不是 str 的子类 {type}",
        "return a plain str, not the str subclass {type}",
    ),
    "hint.not_str": (
        "要返回一个 str，而不是 {type}；列表可以用 \"\".join(...) 拼起来",
        "return a str, not {type}; join a list with \"\".join(...)",
    ),
    "hint.raised": (
        "读一读上面那行代码和异常信息；可以在 python 里用同样的输入试一试",
        "read the line and the message above; try the same input in python",
    ),
    "hint.name_error": (
        "用到了没定义的名字: 拼写对吗？要用的名字先定义或 import",
        "a name is not defined: spelled right? Define or import it first",
    ),
    "hint.raised_exit": (
        "不要在函数里调用 exit() / sys.exit()，用 return 返回结果",
        "do not call exit() / sys.exit() in your functions; return the result",
    ),
    "hint.raised_interrupt": (
        "函数里抛出了 KeyboardInterrupt，不要这样做",
        "your function raised KeyboardInterrupt; don't",
    ),
    "hint.reads_input": (
        "函数不要读键盘输入 (input())，数据都在参数里",
        "do not read input(); everything is in the arguments",
    ),
    "hint.recursion": (
        "递归没有尽头: 每次递归调用离结束更近了吗？用循环更简单",
        "unbounded recursion: does each call get closer to the end? A loop is simpler",
    ),
    "hint.memory": (
        "内存超限 ({limit} MiB): 是不是在循环里不停地拼接或复制？",
        "out of memory ({limit} MiB): something growing inside a loop?",
    ),
    "hint.disk": (
        "函数不需要写文件: 数据都在参数里，结果用 return 返回",
        "your functions need not write files: everything is in the arguments; return the result",
    ),
    "hint.timeout": (
        "可能是死循环: 循环的条件最后会不成立吗？",
        "probably an endless loop: does the loop's condition ever turn false?",
    ),
    "hint.crashed": (
        "不要调用 os._exit() / exit()，也不要结束进程；函数用 return 返回结果",
        "do not call os._exit() / exit() or end the process; return the result",
    ),
    "hint.crashed_signal": (
        "进程崩溃通常来自无限递归 (调高了递归上限?) 或 C 扩展的错误",
        "a crash usually means unbounded recursion (raised recursion limit?) or a broken C extension",
    ),
    "hint.missing_function": ("函数名和参数要与任务说明中的完全一致", "use the exact names of the task sheet"),
    "hint.not_utf8": (
        "用 UTF-8 重新保存: VS Code 右下角点编码 → “通过编码保存” → UTF-8；PyCharm: File → File "
        "Properties → File Encoding",
        "re-save as UTF-8: VS Code: click the encoding in the status bar → Save with Encoding → "
        "UTF-8; PyCharm: File → File Properties → File Encoding",
    ),
    "hint.syntax_error": (
        "改好这一行 (常见: 缩进、漏了冒号或括号)",
        "fix that line (indentation, a missing colon or bracket)",
    ),
    "hint.import_tags": (
        "实验给的模块要按它的完整名字导入 (测试从实验根目录加载你的文件)",
        "import the module the lab gives by its full name (the tests load your file from the lab's root)",
    ),
    "hint.import_error": (
        "文件加载时就出错了: 检查顶层代码和 import",
        "the file fails while loading: check top-level code and imports",
    ),
    "hint.load_timeout": (
        "文件顶层的代码停不下来: 把实验代码放进 if __name__ == \"__main__\": 下面",
        "top-level code never finishes: put experiments under if __name__ == \"__main__\":",
    ),
    "hint.system_error": (
        "这是测试机的问题 (进程数或磁盘空间用完了)；过一会儿重新运行",
        "a problem of the machine (no processes or disk space left); run it again later",
    ),
    "hint.too_large": ("只交你的代码，别把数据或模型放进去", "submit your code only, without data or models"),
    "hint.missing_file": ("检查 STUDENT= 后面的路径", "check the path given as STUDENT="),
    "hint.forged_reply": (
        "不要往测试框架的管道里写东西；函数用 return 返回结果",
        "do not write to the harness's pipes; return the result from your function",
    ),
    "hint.broken_child": ("不要修改 sys、builtins 或测试进程本身", "do not change sys, builtins or the test process"),
    "hint.internal": (
        "测试框架内部出错，请把上面的信息发给老师或助教",
        "internal error in the harness; please send the text above to your instructor",
    ),
    "internal.error": ("测试框架内部错误: {message}", "internal harness error: {message}"),
    "bounds.stale_folder": (
        "{lab}: 有 {count} 个之前留下的临时文件夹删不掉，例如 {folder}；请手动删除 (测试照常进行)",
        "{lab}: {count} folder(s) left by an earlier run could not be removed, e.g. {folder}; "
        "remove them by hand (this run goes on)",
    ),
    # --- property checks (make test-full) and generated checks (the grade): drawn inputs ------------
    "drawn.minimal": (
        "(第 {tried} 个随机输入出错；上面是化简后仍然出错的最小输入)",
        "(random input {tried} failed; shown above shrunk to the smallest input that still fails)",
    ),
    "drawn.budget": (
        "(第 {tried} 个随机输入出错；上面是化简到次数上限时仍然出错的输入)",
        "(random input {tried} failed; shown above shrunk as far as the allowed tries went)",
    ),
    "drawn.stopped": (
        "(第 {tried} 个随机输入出错；没有返回或进程结束了，所以不再化简: 每试一次都可能要等满时限)",
        "(random input {tried} failed; with no answer, or the process gone, it is not shrunk: each "
        "try could take the whole time limit)",
    ),
    # --- make help / python lab.py help ------------------------------------------------------
    "help.test": ("运行{core_cases} ({student_file})", "run {core_cases} cases ({student_file})"),
    "help.student": ("测试另一个文件", "test another file"),
    "help.watch": ("保存 {student_file_name} 就自动重新测试", "re-run the cases on every save of {student_file_name}"),
    "help.test_full": ("{core_cases} + {more_checks} (都计入成绩)", "{core_cases}, {more_checks} (all graded)"),
    "help.clean": (
        "删除运行产物 (不删 {student_file_name} 和 .venv)",
        "remove run artefacts (never {student_file_name} or .venv)",
    ),
    "help.run": ("用实验的 Python (.venv) 运行", "run the lab's Python (.venv) with ARGS"),
    "help.windows": (
        "没有 make (例如 Windows): py lab.py test 或 python lab.py test",
        "without make (e.g. Windows): py lab.py test or python lab.py test",
    ),
    "help.grade": (
        "给全班评分 [OUT=grades] [JOBS=n] [ROSTER=成绩册.csv] [ATTEMPT=latest|best] [MERGE=1] [TITLE={lab}] "
        "[NEW_COLUMN=1] [UNSAFE=level|1] [CONFIG={config}]",
        "grade a class (titled {lab} unless TITLE= says otherwise; the course file {config} unless "
        "CONFIG= names another)",
    ),
    "help.dist": (
        "学生发放包 dist/{handout}.tar.gz/.zip (已提交的版本)",
        "the student handout, dist/{handout}.tar.gz/.zip (the committed tree)",
    ),
    "help.gradescope": ("Gradescope 自动评分包", "dist/gradescope-autograder.zip"),
    "help.tables": (
        "重写过时的生成内容: 任务说明和 README 的表格与输出示例，固定输入及参考答案的数据",
        "rewrite what is generated and stale: the sheets' and README's tables and transcripts, the fixed inputs' data",
    ),
    "help.new_lab": (
        "课程的新实验 labs/<name>/: 一个能通过 make check 和 make dist 的脚手架",
        "a new lab of the course, labs/<name>/: a scaffold that passes make check and make dist",
    ),
    "help.check": ("测试框架自身的测试 (CI)", "the harness's own test suite"),
    "help.expected": (
        "重算测试套件的预期数据 tests/expected.json (先看差异再提交)",
        "recompute the suite's expected data, tests/expected.json (review the diff before committing)",
    ),
    "help.bench": ("计时目标", "timing goals of make test and make grade"),
    "help.labs": (
        "课程的实验: {labs} (默认 {default}；选一个: {command} test LAB={example})",
        "the course's labs: {labs} ({default} unless LAB= says otherwise: {command} test LAB={example})",
    ),
    "lab.bad_argument": (
        "看不懂 {argument}: 用法 python lab.py 目标 [STUDENT=文件]，目标是 {targets} 之一",
        "cannot use {argument}: python lab.py TARGET [STUDENT=file], TARGET one of {targets}",
    ),
    "lab.instructor_only": (
        "python lab.py {target}: 评分等老师用的目标不在学生发放包里 (可用的目标见 python lab.py help)",
        "python lab.py {target}: grading and the other instructors' targets are not part of the "
        "student handout (python lab.py help lists the ones it has)",
    ),
    "lab.make_only": (
        "python lab.py {target}: 这是 make 的目标，请用 make {target} (python lab.py 只代替 make grade)",
        "python lab.py {target}: a make target; run make {target} (python lab.py stands in for make grade only)",
    ),
    "lab.unknown_lab": (
        "LAB={name}: 课程里没有这个实验 (有: {labs})",
        "LAB={name}: the course has no such lab (it has: {labs})",
    ),
    "lab.no_target": (
        "{command} {target}: 这个实验没有 {target} 这个目标 (它有: {targets})",
        "{command} {target}: this lab has no {target} target (it has: {targets})",
    ),
    "lab.other_venv": (
        "[setup] {venv} 是 Python {made} 建的，这次照样用它 (不是 Python {this})；要换成 {this}: "
        "{name} test BASE_PYTHON=\"{python}\"",
        "[setup] {venv} was made by Python {made} and runs this time (not Python {this}); to switch to "
        "{this}: {name} test BASE_PYTHON=\"{python}\"",
    ),
    "lab.python_not_found": (
        "[setup] 找不到 {python}: 请安装 Python 3.10+，或用 PYTHON= / BASE_PYTHON= 指定解释器",
        "[setup] {python} not found: install Python 3.10+, or name an interpreter with PYTHON= / BASE_PYTHON=",
    ),
    # --- make watch ---------------------------------------------------------------------------
    "watch.passed": (
        "[{time}] 全部通过。继续保存 {file} 会自动重新测试；Ctrl-C 退出。",
        "[{time}] all passed. Saving {file} again re-runs the cases; Ctrl-C leaves.",
    ),
    "watch.failed": (
        "[{time}] 还有没通过的测试。保存 {file} 会自动重新测试；Ctrl-C 退出。",
        "[{time}] some cases still fail. Saving {file} re-runs them; Ctrl-C leaves.",
    ),
    "watch.running": (
        "[{time}] 还在测试 {file} …；文件顶层如果有停不下来的代码 (比如 while True)，加载超时后会说明。",
        "[{time}] still testing {file} …; if top-level code never ends (a while True, say), the load "
        "time limit will say so.",
    ),
    "watch.stopped": ("watch 已停止。", "watch stopped."),
}

RESTATABLE = frozenset(
    f"hint.{name}"
    for name in (  # the judge's default hints: a lab may restate these
        "printed_not_returned",
        "none_returned",
        "str_subclass",
        "not_str",
        "not_list",
        "raised",
        "raised_exit",
        "raised_interrupt",
        "reads_input",
        "recursion",
        "memory",
        "name_error",
        "import_tags",
        "load_reads_input",
        "forged_reply",
        "broken_child",
        "load_timeout",
        "crashed",
        "crashed_signal",
        "timeout",
        "missing_function",
        "missing_file",
        "too_large",
        "not_utf8",
        "syntax_error",
        "import_error",
        "system_error",
        "internal",
    )
)

_PARTS: dict = {}  # register()ed parts: the grader's sentences
_LAB: dict = {"lab": None, "texts": {}}  # the installed lab and its layer
_VIEW: dict = {}  # CORE, the parts and the lab's layer over them: what text() reads
_ACTIVE: list = [None]  # how to find the active lab: labkit.spec says (find_lab_with), so i18n imports no spec


def current_language() -> str:
    """`en` when LAB_LANG asks for English, otherwise Chinese (the course's language)."""
    return "en" if os.environ.get("LAB_LANG", "").lower().startswith("en") else "zh"


def register(entries: dict) -> None:
    """Add another part's sentences (the grader's live in labkit/instructor/texts.py, a spec's inline labels come
    from labkit/spec.py); a key is defined once (the same sentence again, as a spec built twice gives, is no clash)."""
    defined = {**CORE, **_LAB["texts"], **_PARTS}
    clash = {key for key in entries if key in defined and tuple(defined[key]) != tuple(entries[key])}
    if clash:
        raise KeyError(f"defined twice: {sorted(clash)}")
    _PARTS.update(entries)
    _VIEW.update(entries)


def wanted(lab) -> set:
    """The keys the core looks up in a lab's layer: each check's label and hints, each section's header, each
    group's summary line (the six's and the optional ones' are the core's "summary"), and the lines under the
    summary (what else the grade checks; a stub tested while an edited file sits nearby), and make help's lines of
    the lab's own targets and of its make challenge."""
    keys = {"summary.pointer", "summary.stub_elsewhere"}
    keys |= {check.label_key for check in lab.checks} | {check.hint for check in lab.checks}
    keys |= {hint for check in lab.checks for example in check.examples for hint in example.mistakes.values()}
    keys |= {f"section.{section.id}" for section in lab.sections}
    keys |= {
        f"section.{check.graded_section}"
        for check in lab.checks  # a drawn check on fixed inputs, drawn
        if getattr(check, "graded_section", None)
    }  # per student when graded (labkit.spec.GRADED_PREFIX)
    keys |= {key for target in lab.targets for key in (target.help, target.notes) if key}  # make help's lines
    keys |= {"help.challenge"} if lab.has_challenge else set()
    return keys | {f"summary.{group.id}" for group in lab.groups if group.stage not in ("test", "challenge")}


def use(lab) -> None:
    """Install `lab`'s layer: the TEXTS of every module its spec names in `texts` and the labels its spec gives
    inline, replacing another lab's (two labs may both define case.1.label: only the active one's is installed).
    A key defined twice (in two of them, or by the core or a registered part) fails here, unless it is a
    default hint the core lets a lab restate; so does a key the core will look up (`wanted`) and nobody defines."""
    texts: dict = {}
    for name in lab.texts:
        entries = importlib.import_module(name).TEXTS
        clash = set(entries) & (set(texts) | set(_PARTS) | (set(CORE) - RESTATABLE))
        if clash:
            raise KeyError(f"{name}: defined twice: {sorted(clash)}")
        texts.update(entries)
    inline = {check.label_key: tuple(check.label) for check in lab.checks if not isinstance(check.label, str)}
    clash = set(inline) & (set(texts) | set(_PARTS) | set(CORE))  # a label given inline in the spec is the lab's too
    if clash:
        raise KeyError(f"{lab.id}: defined twice: {sorted(clash)} (inline in its spec and in {', '.join(lab.texts)})")
    texts.update(inline)
    missing = wanted(lab) - set(texts) - set(CORE) - set(_PARTS)
    if missing:
        raise KeyError(f"{lab.id}: no text for {sorted(missing)} in {', '.join(lab.texts) or 'no module'}")
    _LAB.update(lab=lab, texts=texts)
    _VIEW.clear()
    _VIEW.update(CORE)
    _VIEW.update(_PARTS)
    _VIEW.update(texts)


def find_lab_with(find) -> None:
    """`find()` gives the active lab (labkit.spec.active): its layer is installed on the first lookup that needs
    it, and again when it gives another lab (a test switched labs)."""
    _ACTIVE[0] = find


def _lab_view() -> dict:
    """Every sentence, with the active lab's layer installed (the core's own sentences need no lab: lab.py's
    set-up lines run before one is loaded)."""
    find = _ACTIVE[0]
    if find is None:  # no spec module imported: the core's sentences and the registered parts only
        return {**CORE, **_PARTS}
    lab = find()
    if _LAB["lab"] is not lab:
        use(lab)
    return _VIEW


def _entry(key: str) -> tuple:
    if key not in RESTATABLE:
        found = CORE.get(key) or _PARTS.get(key)
        if found:
            return found
    return _lab_view()[key]


class _Catalogue(Mapping):
    """Every sentence as `text` reads it: the core's, the registered parts' and the active lab's layer."""

    def __getitem__(self, key):
        return _entry(key)

    def __iter__(self):
        return iter(_lab_view())

    def __len__(self):
        return len(_lab_view())


CATALOGUE = _Catalogue()


_NUMBER_WORDS = {
    "zh": "零一二三四五六七八九十",
    "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"),
}


def number_word(count: int, language: str | None = None) -> str:
    """`count` as a word of the current language (or `language`), digits past twelve ("七", "seven", "13")."""
    words = _NUMBER_WORDS["en" if (language or current_language()) == "en" else "zh"]
    return words[count] if 0 <= count < len(words) else str(count)


def text(key: str, language: str | None = None, **fields) -> str:
    """The catalogue entry `key` in the current language (or `language`), with `{fields}` filled in."""
    zh, en = _entry(key)
    template = en if (language or current_language()) == "en" else zh
    return template.format(**fields)
