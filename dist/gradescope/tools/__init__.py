"""Instructor-only tools: grading, Gradescope, benchmarks (not part of the student handout)."""
