#!/usr/bin/env bash
# Gradescope image set-up: Python 3.10+ for the grader (standard library only) and bubblewrap, the sandbox
# the engine runs students' code in where the image allows it. Package lists are fetched first: a fresh
# image has none, and `apt-get install` without them fails.
set -euo pipefail
# The lab is root's alone: where the image refuses bubblewrap's namespaces and has no Landlock, the student's
# code runs under a uid of its own (the level run_autograder chooses to accept), and these modes are what keeps
# the answer key, the grading scheme with its secret and the grader's bytecode from it (the grader audits
# them, and refuses to grade where that code could read any of them).
cd "$(dirname "$0")"
chmod -R go-rwx solutions
chmod go-rwx .
export DEBIAN_FRONTEND=noninteractive
need=""
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null || need="$need python3"
command -v bwrap >/dev/null 2>&1 || need="$need bubblewrap"
if [ -n "$need" ]; then
  apt-get update
  apt-get install -y --no-install-recommends $need
fi
