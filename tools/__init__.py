"""Instructor-only tools: grading, Gradescope, benchmarks (not part of the student handout)."""

from tools import texts  # noqa: E402,F401  (registers the grader's sentences with the catalogue)
