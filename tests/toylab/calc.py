"""The toy lab's stub: the student writes the three functions here."""

from ops import OPERATORS, PRECEDENCE  # noqa: F401


def split_tokens(expr):
    """The numbers and operators of `expr`, in order, spaces left out."""
    return []


def to_rpn(expr):
    """`expr` in reverse Polish notation, tokens separated by one space (* and / before + and -)."""
    return ""


def evaluate(expr):
    """The value of `expr` as an int (* and / before + and -; / divides whole numbers: use //)."""
    return 0
