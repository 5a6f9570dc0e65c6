# -*- coding: utf-8 -*-
"""Lab09 · 多轮对话 on any system, with or without make (Windows: py lab.py test).

    python lab.py test                     六个测试 / the six cases          (= make test)
    python lab.py test STUDENT=other.py    测试另一个文件 / another file      (also --student other.py)
    python lab.py help                     所有目标 / every target: test-full, challenge, chat, watch, clean

The targets run in the lab's .venv, made on first use (labkit/setup_venv.py) by the Python
that runs this file or BASE_PYTHON=; PYTHON=/path/to/python uses an interpreter that has pytest instead.
The Makefile runs this file for every target, so both ways behave the same.
"""

import os
import sys

if sys.version_info[0] < 3:  # Python 2 cannot read the rest of the lab
    sys.stderr.write("[setup] Python 3.10+ is needed: python3 lab.py test / 需要 Python 3.10 或更新版本\n")
    sys.exit(2)

LAB = os.path.dirname(os.path.abspath(__file__))
if LAB not in sys.path:  # run by framework/verify.py, whose folder heads the path: the lab's packages come first
    sys.path.insert(0, LAB)
if sys.prefix != sys.base_prefix and os.path.abspath(sys.prefix).startswith(os.path.join(LAB, "")):
    # In the lab's venv the harness's bytecode is kept in the venv: `make clean` (which removes __pycache__)
    # does not make the next run compile the harness again, and no __pycache__ appears beside student.py.
    # This holds under PYTHONDONTWRITEBYTECODE too: that setting keeps bytecode out of source folders, and
    # this keeps it in the venv only (without it every run compiled about 20 modules, some 60 ms).
    # Programs this one starts (watch, chat, make check) inherit the setting.
    sys.pycache_prefix = os.environ.setdefault("PYTHONPYCACHEPREFIX", os.path.join(sys.prefix, "pycache"))
    sys.dont_write_bytecode = False
PYTEST_TARGETS = {"test": [], "test-full": ["--full"], "challenge": ["--challenge"]}
TARGETS = ("test", "test-full", "challenge", "watch", "chat", "clean", "help", "run")
OPTIONS = {"--student": "student", "--python": "python", "--base-python": "base_python", "--venv": "venv",
           "--seed": "seed", "--lab-lang": "lang", "--rewrite": "rewrite", "--rewrite-deadline": "rewrite_deadline",
           "--rewrite-delay": "rewrite_delay", "--chat-page": "chat_page", "--chat-db": "chat_db",
           }  # each takes a value; make's spelling works too: STUDENT=x.py, REWRITE=0
FLAGS = {"--demo": "demo", "--make": "make"}  # --make: started by the Makefile (messages then say `make`)
REPORT = ["-qq", "--tb=no", "-rN", "--no-header", "-p", "no:cacheprovider", "--lab-report"]


def main(argv=None):
    options = parse(sys.argv[1:] if argv is None else argv)
    if options["lang"]:  # LAB_LANG=en as an argument: the one spelling that works in every shell
        os.environ["LAB_LANG"] = options["lang"]
    if options["target"] == "help":
        print(help_text("make" if options["make"] else "python lab.py"))
        return 0
    if options["target"] == "clean":
        clean()
        return 0
    python = interpreter(options)
    return run(python, command(options, python), "make" if options["make"] else "python lab.py")


def parse(argv):
    """Target and options in any order; `run` passes everything after it to Python untouched."""
    options = {"student": "", "python": "", "base_python": "", "venv": ".venv", "seed": "", "lang": "",
               "rewrite": "", "rewrite_deadline": "", "rewrite_delay": "", "chat_page": "", "chat_db": "", "demo": False, "make": False, "target": "", "rest": []}
    args = list(argv)
    while args:
        arg = args.pop(0)
        name, equals, value = arg.partition("=")
        if equals and name.isupper():  # make's spelling: STUDENT=x.py is --student=x.py, DEMO=1 is --demo
            name = "--" + name.lower().replace("_", "-")
            if name == "--demo":
                options["demo"] = value not in ("", "0")
                continue
        if name in OPTIONS and (equals or args):
            options[OPTIONS[name]] = value if equals else args.pop(0)
        elif arg in FLAGS:
            options[FLAGS[arg]] = True
        elif arg in ("-h", "--help"):
            options["target"] = "help"
        elif not options["target"] and arg in TARGETS:
            options["target"] = arg
            if arg == "run":
                options["rest"], args = args, []
        else:
            _usage_error(arg)
    options["target"] = options["target"] or "help"  # like `make` alone
    return options


def _usage_error(arg):
    sys.stderr.write(_text("lab.bad_argument", argument=arg, targets=", ".join(TARGETS)) + "\n")
    sys.exit(2)


def _text(key, **fields):
    from labkit.i18n import text
    return text(key, **fields)


def interpreter(options):
    """PYTHON= if given (it must have pytest), else the lab's venv, made first if it is not ready."""
    from labkit import setup_venv
    name = "make" if options["make"] else "python lab.py"
    setup_venv.check_version(name)
    if options["python"]:
        python = _located(options["python"])
        if _is_this_python(python):
            setup_venv.check_packages(name)
        else:
            _setup(python, ["--check"], name)
        return python
    venv = os.path.join(LAB, options["venv"])  # a relative venv lies in the lab
    if not setup_venv.is_ready(venv, os.path.join(LAB, "requirements.txt")):
        base = _located(options["base_python"]) if options["base_python"] else _base_python()
        _setup(base, [options["venv"], "requirements.txt"], name)
    elif options["base_python"]:  # BASE_PYTHON= given: a venv of another Python is made again with it
        base = _located(options["base_python"])
        if _version_of(base) not in (None, setup_venv.venv_version(venv)):
            _setup(base, ["--rebuild", options["venv"], "requirements.txt"], name, kept=3)
            REBUILT.append(venv)  # this process may be the old venv's Python: the new one must run the target
    elif setup_venv.venv_version(venv) not in (None, setup_venv.this_version()):  # python3.13 lab.py, a 3.11 venv
        sys.stderr.write(_text("lab.other_venv", venv=options["venv"], made=setup_venv.venv_version(venv),
                               this=setup_venv.this_version(), name=name, python=sys.executable) + "\n")
    return setup_venv.venv_python(venv)


REBUILT = []


def _version_of(python):
    """The version ("3.13") of another interpreter, or None if it does not answer."""
    import subprocess
    try:
        found = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                               capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return found.stdout.strip() or None


def _located(python):
    import shutil
    found = python if os.path.dirname(python) else shutil.which(python)
    if not found or not os.path.isfile(found):
        sys.stderr.write(_text("lab.python_not_found", python=python) + "\n")
        sys.exit(2)
    return found


def _base_python():
    """The interpreter running this file, or, inside a venv, the one that venv was made from."""
    base = getattr(sys, "_base_executable", "")
    return base if sys.prefix != sys.base_prefix and os.path.isfile(base) else sys.executable


def _is_this_python(python):
    return os.path.normcase(os.path.abspath(python)) == os.path.normcase(os.path.abspath(sys.executable))


def _setup(python, args, name, kept=None):
    """Run setup_venv.py with `python`; its failure ends this run, but for the exit code `kept` (the old venv
    stays in use)."""
    import subprocess
    script = os.path.join(LAB, "labkit", "setup_venv.py")
    code = subprocess.call([python, script, "--command", name] + args, cwd=LAB)
    if code not in (0, kept):
        sys.exit(code)


def command(options, python):
    """The program a target runs, as a list: pytest on framework/verify.py, the watcher, the chat, or Python."""
    student = _typed_path(options["student"]) or "framework/student.py"  # the default lies in the lab
    test = [python, "-m", "pytest", "framework/verify.py", "--student=" + student] + REPORT
    target = options["target"]
    if target in PYTEST_TARGETS:
        return test + PYTEST_TARGETS[target]
    if target == "watch":
        return [python, "-m", "labkit.watch", "--student", student, "--"] + test
    if target == "chat":
        chat = [python, "-m", "lab09.chat.main", "--student", student] + ["--demo"] * options["demo"]
        chat += ["--no-rewrite"] * (options["rewrite"] in ("0", "off", "no"))
        for option, value in (("--seed", options["seed"]), ("--rewrite-deadline", options["rewrite_deadline"]),
                              ("--rewrite-delay", options["rewrite_delay"]),
                              ("--page", _typed_path(options["chat_page"])),
                              ("--db", _typed_path(options["chat_db"]))):
            chat += [option, value] if value else []
        return chat
    return [python] + options["rest"]  # run


def _typed_path(path):
    """A path as typed, made absolute when typed outside the lab (the run starts in the lab)."""
    if path and not os.path.isabs(path) and not os.path.samefile(os.getcwd(), LAB):
        return os.path.abspath(path)
    return path


def run(python, argv, command_name="make"):
    """Run a target from the lab's folder: in this process when this is the right interpreter and pytest
    does the work (no second start-up), else as a new program: on POSIX in place of this one, elsewhere
    as a child whose exit code is passed on.  LAB_CWD and LAB_COMMAND tell the program where the student
    started it and how (the advice in its messages names the same command and files)."""
    os.environ["LAB_CWD"], os.environ["LAB_COMMAND"] = os.getcwd(), command_name
    os.chdir(LAB)
    if argv[1:3] == ["-m", "pytest"] and _is_this_python(python) and not REBUILT:
        import pytest
        return int(pytest.main(argv[3:]))
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(python, argv)
    import subprocess
    process = subprocess.Popen(argv)
    while True:
        try:
            return process.wait()
        except KeyboardInterrupt:  # the child had the Ctrl-C too; it decides how to end
            continue


def clean():
    """Remove what runs leave behind: __pycache__ folders, .pytest_cache, dist/ and make chat's page; never a
    venv, .git, grades/ or a student's file."""
    for folder, subfolders, _ in os.walk(LAB):
        for name in [name for name in subfolders if name.startswith(".venv") or name in (".git", "__pycache__")]:
            subfolders.remove(name)
            if name == "__pycache__":
                _remove_tree(os.path.join(folder, name))
    for name in (".pytest_cache", "dist"):
        _remove_tree(os.path.join(LAB, name))
    _quietly(os.unlink, os.path.join(LAB, "chat-session.html"))


def _remove_tree(path):
    """shutil.rmtree, without the import time `make clean` would pay for it."""
    for folder, subfolders, files in os.walk(path, topdown=False):
        for name in files:
            _quietly(os.unlink, os.path.join(folder, name))
        for name in subfolders:
            inside = os.path.join(folder, name)
            _quietly(os.unlink if os.path.islink(inside) else os.rmdir, inside)
    _quietly(os.rmdir, path)


def _quietly(remove, path):
    try:
        remove(path)
    except OSError:
        pass


HELP = (  # (usage, catalogue key, only for lab.py)
    ("{cmd} test", "help.test", False),
    ("{cmd} test STUDENT=path.py", "help.student", False),
    ("{cmd} watch", "help.watch", False),
    ("{cmd} chat [SEED=n]", "help.chat", False),
    ("{cmd} test-full", "help.test_full", False),
    ("{cmd} challenge", "help.challenge", False),
    ("{cmd} clean", "help.clean", False),
    ("{cmd} run ARGS", "help.run", True),
)
INSTRUCTOR_HELP = (  # Makefile targets, listed where labkit/instructor/ exists
    ("make grade SUBMISSIONS=dir|zip", "help.grade"),
    ("make dist", "help.dist"),
    ("make gradescope", "help.gradescope"),
    ("make tables", "help.tables"),
    ("make check", "help.check"),
    ("make bench [PART=lab|grading]", "help.bench"),
)


def _help_fields():
    """What the help lines say of the lab, in each language, from its spec: the checks `make test` runs, as the spec
    counts them ("六个测试", "the six"), the student's file, the lab's name and its handout's."""
    try:
        from labkit.spec import active
    except ImportError:  # a Python older than 3.10 cannot load the spec; `help` still answers (`test` says why)
        plain = {"target": "framework/", "target_name": "the student file", "lab": "the lab", "handout": "*"}
        return {"zh": dict(plain, six="基本测试"), "en": dict(plain, six="the core")}
    lab = active()
    first = next(group for group in lab.groups if group.runs == "test")
    plain = {"target": lab.target, "target_name": lab.target_name, "lab": lab.name, "handout": lab.handout_name}
    return {language: dict(plain, six=lab.group_name(first, language)) for language in ("zh", "en")}


def help_text(cmd):
    """What `make help` and `python lab.py help` print: each target in both languages."""
    from labkit.i18n import text
    fields = _help_fields()

    def row(usage, key):
        return "{0:<{1}} {2} / {3}".format(usage, width, *(text(key, language=language, **fields[language])
                                                            for language in ("zh", "en")))

    usages = [(usage.format(cmd=cmd), key) for usage, key, lab_only in HELP if cmd != "make" or not lab_only]
    width = max(len(usage) for usage, _ in usages)
    lines = [row(usage, key) for usage, key in usages]
    lines.append("{0} / {1}".format(text("help.chat_options", language="zh"), text("help.chat_options", language="en")))
    lines.append("options: PYTHON=/path/to/python (已装 pytest / with pytest), BASE_PYTHON=python3.12, LAB_LANG=en")
    if cmd != "make":
        lines.append("{0} / {1}".format(text("help.windows", language="zh"), text("help.windows", language="en")))
    if os.path.exists(os.path.join(LAB, "labkit", "instructor", "grade.py")):
        lines += ["instructors:"] + [row(usage, key) for usage, key in INSTRUCTOR_HELP]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
