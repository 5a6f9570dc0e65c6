"""Wrong trim_history: keeps the last 2 * max_turns messages, like the course's framework (by messages)."""


def trim_history(messages, max_turns=6):
    if max_turns < 1:
        raise ValueError("max_turns < 1")
    system = [m for m in messages if m["role"] == "system"]
    rest = [m for m in messages if m["role"] in ("user", "assistant")]
    return system + rest[-2 * max_turns:]
