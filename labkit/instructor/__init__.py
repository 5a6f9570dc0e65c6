"""The instructors' half of the core: grading, LMS downloads, outputs, the handout, Gradescope (never handed out)."""

from labkit.instructor import texts  # noqa: E402,F401  (registers the grader's sentences with the catalogue)
