"""Wrong trim_history: hands back the caller's own list when nothing needs trimming."""


def trim_history(messages, max_turns=6):
    if max_turns < 1:
        raise ValueError("max_turns < 1")
    if sum(m["role"] == "user" for m in messages) <= max_turns:
        return messages
    system = [m for m in messages if m["role"] == "system"]
    turns = []
    for m in messages:
        if m["role"] == "user":
            turns.append([m])
        elif m["role"] == "assistant" and turns:
            turns[-1].append(m)
    return system + [m for turn in turns[-max_turns:] for m in turn]
