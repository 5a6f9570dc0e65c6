"""Hostile: top-level code that never ends."""
while True:
    pass
