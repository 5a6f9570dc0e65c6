# -*- coding: utf-8 -*-
"""Lab09 · 多轮对话 on any system, with or without make (Windows: py lab.py test).

python lab.py test                     六个测试 / the six cases          (= make test)
python lab.py test STUDENT=other.py    测试另一个文件 / another file      (also --student other.py)
python lab.py help                     所有目标 / every target: test-full, challenge, chat, watch, clean
"""

import os
import sys

if sys.version_info[0] < 3:  # Python 2 cannot read the rest of the lab
    sys.stderr.write("[setup] Python 3.10+ is needed: python3 lab.py test / 需要 Python 3.10 或更新版本\n")
    sys.exit(2)

CHECKOUT = os.path.dirname(os.path.abspath(__file__))
if CHECKOUT not in sys.path:  # run by framework/verify.py, whose folder heads the path: the lab's packages come first
    sys.path.insert(0, CHECKOUT)
if sys.prefix != sys.base_prefix and os.path.abspath(sys.prefix).startswith(os.path.join(CHECKOUT, "")):
    # In the lab's venv the harness's bytecode is kept in the venv: `make clean` (which removes __pycache__)
    # does not make the next run compile the harness again, and no __pycache__ appears beside student.py.
    # This holds under PYTHONDONTWRITEBYTECODE too: that setting keeps bytecode out of source folders, and
    # this keeps it in the venv only (without it every run compiled about 20 modules, some 60 ms).
    # Programs this one starts (watch, chat, make check) inherit the setting.
    sys.pycache_prefix = os.environ.setdefault("PYTHONPYCACHEPREFIX", os.path.join(sys.prefix, "pycache"))
    sys.dont_write_bytecode = False
    if os.path.abspath(sys.pycache_prefix).startswith(os.path.join(os.path.abspath(sys.prefix), "")):
        # The venv's bytecode is the owner's alone: it holds the grader's own compiled answer key (solutions/,
        # imported by the generated checks) and the tests', and no student's code run under another uid may read it.
        try:
            os.makedirs(sys.pycache_prefix, mode=0o700, exist_ok=True)
            os.chmod(sys.pycache_prefix, 0o700)
        except OSError:
            pass

if __name__ == "__main__":
    from labkit.entry import main

    sys.exit(main())
