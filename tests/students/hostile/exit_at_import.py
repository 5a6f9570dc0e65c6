"""Hostile: sys.exit(0) while the file loads."""
import sys

sys.exit(0)
