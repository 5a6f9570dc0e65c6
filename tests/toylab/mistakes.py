"""The toy lab's one mistake detector: operators applied left to right instead of by precedence."""

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


class CalcMistakes(Detectors):
    """Names the precedence slip; everything else gets the core's own hints."""

    def wrong_value(self, case, example, actual, others=()):
        if case.function == "to_rpn" and actual == left_to_right(example.args[0]):
            return "toy.hint.precedence"
        return None


DETECTORS = CalcMistakes()
