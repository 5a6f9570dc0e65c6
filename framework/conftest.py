"""Loads the pytest face of the lab (options, the course's output layout); the code is in labkit/pytest_face.py."""

from labkit.pytest_face import *  # noqa: F401,F403  (pytest reads hooks and fixtures from here)
