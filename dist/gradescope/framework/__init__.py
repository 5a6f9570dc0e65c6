"""Lab09 harness: the student file, the case table, the engine and its pytest face."""
