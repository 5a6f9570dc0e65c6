"""The engine: a student's file in a child process of its own, contained; the parent owns the clock."""
