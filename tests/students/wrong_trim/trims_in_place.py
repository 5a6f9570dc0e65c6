"""Wrong trim_history: trims the caller's list in place and returns a copy of it."""


def trim_history(messages, max_turns=6):
    if max_turns < 1:
        raise ValueError("max_turns < 1")
    system = [m for m in messages if m["role"] == "system"]
    turns = []
    for m in messages:
        if m["role"] == "user":
            turns.append([m])
        elif m["role"] == "assistant" and turns:
            turns[-1].append(m)
    messages[:] = system + [m for turn in turns[-max_turns:] for m in turn]
    return list(messages)
