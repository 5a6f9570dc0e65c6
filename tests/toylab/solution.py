"""The toy lab's reference solution."""

from ops import OPERATORS, PRECEDENCE


def split_tokens(expr):
    """The numbers and operators of `expr`, in order, spaces left out."""
    tokens, number = [], ""
    for char in expr:
        if char.isdigit():
            number += char
            continue
        if number:
            tokens.append(number)
            number = ""
        if char in OPERATORS:
            tokens.append(char)
        elif not char.isspace():
            raise ValueError(f"unknown character {char!r}")
    return tokens + [number] * bool(number)


def to_rpn(expr):
    """`expr` in reverse Polish notation, tokens separated by one space (* and / before + and -)."""
    out, waiting = [], []
    for token in split_tokens(expr):
        if token not in OPERATORS:
            out.append(token)
            continue
        while waiting and PRECEDENCE[waiting[-1]] >= PRECEDENCE[token]:
            out.append(waiting.pop())
        waiting.append(token)
    return " ".join(out + waiting[::-1])


def evaluate(expr):
    """The value of `expr` as an int (* and / before + and -; / divides whole numbers: use //)."""
    stack = []
    for token in to_rpn(expr).split():
        if token in OPERATORS:
            right, left = stack.pop(), stack.pop()
            token = {"+": left + right, "-": left - right, "*": left * right, "/": left // right}[token]
        stack.append(int(token))
    return stack[0]
