"""Wrong trim_history: keeps retrieval results and other roles in the history."""


def trim_history(messages, max_turns=6):
    if max_turns < 1:
        raise ValueError("max_turns < 1")
    system = [m for m in messages if m["role"] == "system"]
    turns = []
    for m in messages:
        if m["role"] == "user":
            turns.append([m])
        elif m["role"] != "system" and turns:
            turns[-1].append(m)
    return system + [m for turn in turns[-max_turns:] for m in turn]
