"""The toy lab's wrong solution: tokens right, but operators applied left to right, without precedence."""

from ops import OPERATORS


def split_tokens(expr):
    """The numbers and operators of `expr`, in order, spaces left out."""
    tokens, number = [], ""
    for char in expr.replace(" ", ""):
        if char in OPERATORS:
            tokens += [number, char]
            number = ""
        else:
            number += char
    return tokens + [number] * bool(number)


def to_rpn(expr):
    """Left to right: each operator as soon as its right operand is read."""
    tokens = split_tokens(expr)
    out = tokens[:1]
    for operator, operand in zip(tokens[1::2], tokens[2::2]):
        out += [operand, operator]
    return " ".join(out)
