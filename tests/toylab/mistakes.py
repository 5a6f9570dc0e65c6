"""The toy lab's one mistake detector: operators applied left to right instead of by precedence (to_rpn, evaluate)."""

from labkit.judge import Detectors


def left_to_right(expr: str) -> str:
    """What `to_rpn` gives when it ignores precedence: each operator after its right operand."""
    tokens = expr.replace(" ", "")
    out, number, pending = [], "", None
    for char in tokens + " ":
        if char.isdigit():
            number += char
            continue
        out.append(number)
        number = ""
        if pending:
            out.append(pending)
        pending = char.strip() or None
    return " ".join(out)


def left_to_right_value(expr: str) -> int:
    """What `evaluate` gives when it ignores precedence: the value of left_to_right's answer."""
    apply = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__, "/": int.__floordiv__}
    stack: list[int] = []
    for token in left_to_right(expr).split():
        if token in apply:
            right = stack.pop()
            stack.append(apply[token](stack.pop(), right))
        else:
            stack.append(int(token))
    return stack[0]


class CalcMistakes(Detectors):
    """Names the precedence slip; everything else gets the core's own hints."""

    def wrong_value(self, case, example, actual, others=()):
        if case.function in SLIPS and actual == SLIPS[case.function](example.args[0]):
            return "toy.hint.precedence"
        return None


SLIPS = {"to_rpn": left_to_right, "evaluate": left_to_right_value}  # what each function gives without precedence
DETECTORS = CalcMistakes()
