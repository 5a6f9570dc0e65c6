"""Wrong trim_history: keeps turns only, so the system prompt is lost."""


def trim_history(messages, max_turns=6):
    if max_turns < 1:
        raise ValueError("max_turns < 1")
    turns = []
    for m in messages:
        if m["role"] == "user":
            turns.append([m])
        elif m["role"] == "assistant" and turns:
            turns[-1].append(m)
    return [m for turn in turns[-max_turns:] for m in turn]
