"""The toy lab's wrong solution: tokens right, but operators applied left to right, without precedence
(in to_rpn, and so in evaluate, which computes to_rpn's answer)."""

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


def evaluate(expr):
    """Left to right as well: each operator applied as soon as its right operand is read."""
    tokens = split_tokens(expr)
    value = int(tokens[0])
    for operator, operand in zip(tokens[1::2], tokens[2::2]):
        if operator == "+":
            value += int(operand)
        elif operator == "-":
            value -= int(operand)
        elif operator == "*":
            value *= int(operand)
        else:
            value //= int(operand)
    return value
