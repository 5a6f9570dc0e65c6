"""Wrong trim_history: max_turns < 1 is not refused (turns[-0:] keeps everything)."""


def trim_history(messages, max_turns=6):
    system = [m for m in messages if m["role"] == "system"]
    turns = []
    for m in messages:
        if m["role"] == "user":
            turns.append([m])
        elif m["role"] == "assistant" and turns:
            turns[-1].append(m)
    return system + [m for turn in turns[-max_turns:] for m in turn]
