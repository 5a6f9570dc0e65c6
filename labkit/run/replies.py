"""Checks every reply from a child before the parent uses it: shape, types, nesting depth and size.

Anything a child sends may be forged; nothing here recurses on data a student chose.
Why: docs/design.md#labkitrunrepliespy
"""

from __future__ import annotations

from labkit.untrusted import safe_text

MAX_DEPTH = 16  # a list of messages is 3 deep; anything deeper is not an answer
MAX_NODES = 200_000
MAX_ARGUMENTS = 16  # a call has one or two; the indices of those returned as the value
FUNCTION_STATES = ("ok", "missing", "not_callable")
SCALARS = ("int", "float", "bool", "NoneType")  # what a returned value may be as data besides a list or dict


class Invalid(Exception):
    """A reply that is not what the child's code would have sent: the child is not to be trusted any more."""


def check_data(
    value, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES, max_chars: int | None = None
) -> str | None:
    """None if `value` is plain JSON data within the bounds, else what is wrong with it (never raises).
    `max_chars` bounds its size: one per item plus the characters of every str and key (never more than the
    length of its JSON, so whatever the child's own encoder let through fits)."""
    stack, nodes, chars = [(value, 0)], 0, 0
    while stack:
        item, depth = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            return f"more than {max_nodes} items"
        kind = type(item)
        if kind is str:
            chars += len(item)
        if max_chars is not None and chars + nodes > max_chars:
            return f"more than {max_chars} characters"
        if kind in (str, int, float, bool) or item is None:
            continue
        if depth >= max_depth:
            return f"nested more than {max_depth} deep"
        if kind is list:
            stack.extend((child, depth + 1) for child in item)
        elif kind is dict:
            if any(type(key) is not str for key in item):
                return "a dict key that is not a str"
            chars += sum(len(key) for key in item)
            stack.extend((child, depth + 1) for child in item.values())
        else:
            return f"a {kind.__name__}"
    return None


def _text(value, limit: int = 500) -> str:
    return safe_text(value, limit) if type(value) is str else ""


def _int(value) -> int | None:
    return value if type(value) is int and 0 <= value < 1 << 63 else None


def _seconds(value) -> float:
    return float(value) if type(value) in (int, float) and 0 <= value < 1e6 else 0.0


def exception(raised) -> dict:
    """An exception's description with only the known fields, each of its type, its text made safe."""
    if type(raised) is not dict:
        raise Invalid("exception is not an object")
    info: dict[str, object] = {"type": _text(raised.get("type"), 100) or "?", "message": _text(raised.get("message"))}
    kinds = raised.get("kinds")
    info["kinds"] = [_text(k, 100) for k in kinds[:20]] if type(kinds) is list else [info["type"]]
    for key in ("line", "offset"):
        if _int(raised.get(key)) is not None:
            info[key] = raised[key]
    for key, limit in (("code", 300), ("exit_code", 100), ("module", 100)):
        if key in raised:
            info[key] = _text(raised.get(key), limit)
    return info


def _too_large(limits) -> str:
    """What check_data says of data beyond `limits.value_chars`: more than the child's encoder ever sends."""
    return f"more than {limits.value_chars} characters"


def returned(value, limits) -> dict:
    """A returned value: a str exactly as sent, plain data (a list or dict within bounds, or one of SCALARS) as
    sent, otherwise a description; a value larger than the child sends is refused."""
    if type(value) is not dict:
        raise Invalid("returned is not an object")
    kind = value.get("kind")
    if kind == "str":
        text = value.get("value")
        if type(text) is not str:
            raise Invalid("str without text")
        if len(text) > limits.value_chars:
            raise Invalid(f"a returned str of {_too_large(limits)}")
        result = {"kind": "str", "value": text}
        if _int(value.get("length")) is not None:
            result["length"] = value["length"]
        return result
    if kind == "data":
        data, type_name = value.get("value"), value.get("type")
        if type(data) not in (list, dict):
            return _scalar(data, type_name, limits)
        problem = check_data(data, max_chars=limits.value_chars)
        if problem == _too_large(limits):
            raise Invalid(f"returned data of {problem}")
        if problem is None and type_name == type(data).__name__:
            is_argument = value.get("is_argument")
            listed = is_argument[:MAX_ARGUMENTS] if type(is_argument) is list else []
            indices = [i for i in listed if _int(i) is not None]
            return {"kind": "data", "type": type_name, "value": data, "is_argument": indices}
        return {
            "kind": "other",
            "type": type(data).__name__,
            "str_subclass": False,
            "repr": f"<{problem or 'not plain data'}>",
        }
    if kind == "other":
        return {
            "kind": "other",
            "type": _text(value.get("type"), 100) or "?",
            "str_subclass": value.get("str_subclass") is True,
            "repr": _text(value.get("repr"), 300),
        }
    raise Invalid(f"unknown kind {safe_text(str(kind), 20)}")


def _scalar(data, type_name, limits) -> dict:
    """A returned int, finite float, bool or None, which must be the type it claims to be; an int longer than
    the child sends is refused."""
    if type(data) is int and data.bit_length() > 4 * limits.value_chars:  # more digits than value_chars
        raise Invalid(f"a returned int of {_too_large(limits)}")
    if type_name == type(data).__name__ and type_name in SCALARS and (type(data) is not float or data - data == 0):
        return {"kind": "data", "type": type_name, "value": data, "is_argument": []}
    return {"kind": "other", "type": "?", "str_subclass": False, "repr": "<not plain data>"}


def hello(reply) -> dict:
    """The child's first message, sent before any student code ran: what limits and walls it applied."""
    if type(reply) is not dict or reply.get("hello") != 1:
        raise Invalid("not a hello")
    limits = reply.get("limits")
    return {
        "landlock": _int(reply.get("landlock")) or 0,
        "seccomp": reply.get("seccomp") is True,
        "userns": reply.get("userns") is True,
        "pidns": reply.get("pidns") is True,
        "folder": reply.get("folder") is True,
        "signals": reply.get("signals") is True,
        "limits": [name for name in limits[:10] if type(name) is str] if type(limits) is list else [],
    }


def load(reply, functions) -> dict:
    """The answer to a load request."""
    if type(reply) is not dict or type(reply.get("ok")) is not bool:
        raise Invalid("load reply without ok")
    if "internal" in reply:
        return {"internal": exception(reply["internal"])}
    if not reply["ok"]:
        return {"ok": False, "raised": exception(reply.get("raised"))}
    states = reply.get("functions")
    if type(states) is not dict or set(states) != set(functions):  # the child answers about exactly those asked
        raise Invalid("load reply without the functions asked about")
    functions = {name: states.get(name) if states.get(name) in FUNCTION_STATES else "missing" for name in functions}
    defined = reply.get("defined")
    names = [safe_text(n, 100) for n in defined[:200] if type(n) is str] if type(defined) is list else []
    return {"ok": True, "functions": functions, "defined": names}


def call(reply, limits) -> dict:
    """The answer to a call request: what was returned or raised, the arguments afterwards, the time."""
    if type(reply) is not dict:
        raise Invalid("call reply is not an object")
    if "internal" in reply:
        return {"internal": exception(reply["internal"])}
    if ("returned" in reply) == ("raised" in reply):
        raise Invalid("a call reply needs exactly one of returned and raised")
    checked: dict[str, object] = (
        {"returned": returned(reply["returned"], limits)}
        if "returned" in reply
        else {"raised": exception(reply["raised"])}
    )
    checked["args_after"] = arguments_after(reply.get("args_after"), limits)
    checked["seconds"] = _seconds(reply.get("seconds"))
    return checked


def arguments_after(after, limits) -> list | dict:
    """The arguments as the call left them: plain data as sent, or the child's description of them (too large
    to send, or not plain data); arguments larger than the child sends are refused."""
    if type(after) is dict and type(after.get("too_large")) is str:
        return {"too_large": _text(after["too_large"], 100)}
    if type(after) is not list:
        return {"unserializable": _text(after.get("unserializable") if type(after) is dict else None, 300)}
    problem = check_data(after, max_chars=limits.value_chars)
    if problem == _too_large(limits):
        raise Invalid(f"arguments afterwards of {problem}")
    return after if problem is None else {"unserializable": f"<{problem}>"}
