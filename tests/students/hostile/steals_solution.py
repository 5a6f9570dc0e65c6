"""Hostile: looks for the reference solution in parent folders and copies its functions."""
import os

here = os.path.abspath(os.getcwd())
found = None
while True:
    candidate = os.path.join(here, "solutions", "student.py")
    if os.path.exists(candidate):
        found = candidate
        break
    parent = os.path.dirname(here)
    if parent == here:
        break
    here = parent
if found:
    exec(open(found, encoding="utf-8").read())
else:
    def format_prompt(messages):
        return ""

    def extract_response(output):
        return ""
