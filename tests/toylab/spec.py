"""A toy lab, the proof that the core is lab-independent: a small calculator with three functions of its own.

`split_tokens(expr)` returns the numbers and operators of an expression as a list of str, `to_rpn(expr)` the
expression in reverse Polish notation as a str, `evaluate(expr)` its value as an int: * and / before + and -,
each from left to right, and / an integer division (//) that the checks use only where it is exact (8/4), so a
solution that divides with / fails them only by returning a float.  The given module is ops.py (plain data),
the student's file calc.py (the stub), solution.py the reference, wrong.py a solution without precedence that
the one detector (mistakes.py) names.  Its texts are its own (TEXTS below, named by LAB.texts, every key under
"toy." but the section and summary lines the core asks for by group and section).  The lab's `make test` is
Lab09's, with LAB_SPEC naming this module: framework/verify.py and the pytest face read whichever spec is active.
"""

from __future__ import annotations

from pathlib import Path

from labkit.spec import Case, Example, Group, Lab, Section, Target, Text

TEXTS = {  # the lab's layer of sentences (LAB.texts names this module)
    "section.toy_tokens": Text("词法", "tokens"),
    "section.toy_rpn": Text("逆波兰式", "reverse Polish"),
    "section.toy_more": Text("更多", "more"),
    "summary.more": Text("更多检查: {passed} 通过, {failed} 失败", "More checks: {passed} passed, {failed} failed"),
    "summary.pointer": Text("评分还会检查更多: 运行 make test-full", "The grade checks more: run make test-full"),
    "summary.stub_elsewhere": Text(
        "注意: {file} 还和初始代码一样，而旁边的 {other} 不一样: 测试它: {command} test STUDENT={other}",
        "NOTE: {file} still behaves like the stub, but {other} nearby differs: test it: {command} test STUDENT={other}",
    ),
    "toy.label.digits": Text("split_tokens: 数和运算符", "split_tokens: numbers and operators"),
    "toy.label.spaces": Text("split_tokens: 空格不算", "split_tokens: spaces are left out"),
    "toy.label.simple": Text("to_rpn: 一个运算符", "to_rpn: one operator"),
    "toy.label.precedence": Text("to_rpn: 先乘除后加减", "to_rpn: * and / before + and -"),
    "toy.label.long": Text("split_tokens: 多位数", "split_tokens: numbers of several digits"),
    "toy.label.chain": Text("to_rpn: 两个乘法", "to_rpn: two products"),
    "toy.label.evaluate": Text("evaluate: 先乘除后加减, 得到一个 int", "evaluate: * and / before + and -, an int back"),
    "toy.help.test_full": Text("{core_cases} + 更多 (都计入成绩)", "{core_cases} and more checks (all graded)"),
    "toy.hint.tokens": Text("每个数是一个 token, 每个运算符也是", "every number is one token, so is every operator"),
    "toy.hint.rpn": Text(
        "操作数按顺序写, 运算符写在它的两个操作数之后", "operands in order, an operator after its two operands"
    ),
    "toy.hint.evaluate": Text(
        "按优先级算出值, 返回 int (除法用 //)", "compute the value by precedence and return an int (divide with //)"
    ),
    "toy.hint.precedence": Text(
        "运算符是从左到右用的: * 和 / 要先于 + 和 -",
        "the operators were applied left to right: * and / come before + and -",
    ),
}

BASIC = Group(id="basic", points=60, stage="test", name=Text("基本", "basic"))
MORE = Group(id="more", points=40, stage="full", name=Text("更多", "more"))


def _case(case_id, function, group, section, label, hint, *examples):
    return Case(
        id=case_id,
        function=function,
        group=group,
        section=section,
        label=f"toy.label.{label}",
        hint=f"toy.hint.{hint}",
        examples=examples,
    )


CHECKS = (
    _case(
        "1",
        "split_tokens",
        BASIC,
        "toy_tokens",
        "digits",
        "tokens",
        Example(("1+2",), ["1", "+", "2"]),
        Example(("12*34",), ["12", "*", "34"]),
    ),
    _case("2", "split_tokens", BASIC, "toy_tokens", "spaces", "tokens", Example((" 7 - 3 ",), ["7", "-", "3"])),
    _case("3", "to_rpn", BASIC, "toy_rpn", "simple", "rpn", Example(("1+2",), "1 2 +")),
    _case(
        "4",
        "to_rpn",
        BASIC,
        "toy_rpn",
        "precedence",
        "rpn",
        Example(("8/4-1",), "8 4 / 1 -"),
        Example(("1+2*3",), "1 2 3 * +"),
    ),
    _case(
        "x1",
        "split_tokens",
        MORE,
        "toy_more",
        "long",
        "tokens",
        Example(("100 * 20",), ["100", "*", "20"]),
        Example(("",), []),
    ),
    _case("x2", "to_rpn", MORE, "toy_more", "chain", "rpn", Example(("2*3+4*5",), "2 3 * 4 5 * +")),
    _case(
        "x3",
        "evaluate",
        MORE,
        "toy_more",
        "evaluate",
        "evaluate",
        Example(("12",), 12),
        Example(("8/4-1",), 1),
        Example(("7-2-1",), 4),
        Example(("1+2*3",), 7),
        Example(("2*3+4*5",), 26),
    ),
)

LAB = Lab(
    id="toycalc",
    name="Calc",
    root=Path(__file__).resolve().parent,
    student_file="calc.py",
    solution="solution.py",
    given="ops",
    functions=("split_tokens", "to_rpn", "evaluate"),
    sheets={},
    groups=(BASIC, MORE),
    sections=tuple(Section(id=name) for name in ("toy_tokens", "toy_rpn", "toy_more")),
    checks=CHECKS,
    mistakes="toylab.mistakes:DETECTORS",
    handout="toycalc",
    texts=("toylab.spec",),
    targets=(Target(name="test-full", help="toy.help.test_full"),),  # its own words for a core target's line
)
