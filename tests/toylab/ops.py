"""The toy lab's given module: what a student's calc.py imports (sent to the child as plain data)."""

OPERATORS = "+-*/"
PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
