# -*- coding: utf-8 -*-
"""What `make TARGET` and `python lab.py TARGET` do: the targets of the active lab, their options, the interpreter
they run with, and `make help`.

Loads on an old Python 3, so that one is told which version it needs (no f-strings, no annotations).
Why: docs/design.md#labkitentrypy
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the checkout: Makefile, lab.py, .venv
VERIFY = "framework/verify.py"  # the checkout's pytest file of the checks (it reads whichever spec is active)
PYTEST_TARGETS = {"test": [], "test-full": ["--full"], "challenge": ["--challenge"]}
# the core's options, each with a value; make's spelling works too: STUDENT=x.py
OPTIONS = {
    "--student": "student",
    "--python": "python",
    "--base-python": "base_python",
    "--venv": "venv",
    "--lab-lang": "lang",
    "--lab": "lab",
}
DEFAULTS = {"venv": ".venv"}  # the others default to ""
REPORT_FLAG = "--lab-report"  # the course's output layout: the checks run (test, test-full, challenge, watch's runs)
REPORT = ["-qq", "--tb=no", "-rN", "--no-header", "-p", "no:cacheprovider", "-p", "pytest_timeout", REPORT_FLAG]
# The checks run with the plugins they name and no other: whatever else the interpreter has installed (a
# plugin that reorders tests, rewrites the report, or costs a second of imports) changes neither what make test
# prints nor how long it takes.  The variable, not a flag, so that pytest 8.0 knows it and watch's runs inherit it.
OWN_PLUGINS_ONLY = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
REBUILT = []  # type: list[str]  # the venv remade by this run: its (new) Python must run the target, not this process
# the Makefile's, instructors only
INSTRUCTOR_TARGETS = ("grade", "dist", "gradescope", "tables", "new-lab", "check", "expected", "bench")
GRADE = "grade"  # the one of them lab.py runs too (python lab.py grade SUBMISSIONS=…, in make's spelling)
PASSED_ON = ("run", GRADE)  # the targets that hand every argument after them on untouched (to Python, to the grader)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    _select(argv)
    try:  # `make clean` runs before every `make test`: it needs no spec (loading one would cost it 40 ms of 60)
        options = _parsed(argv, None)
    except _Refused:
        options = None
    if options is None or options["target"] != "clean":
        lab = _active_lab(argv)
        options = parse(argv, lab)
    if options["lang"]:  # LAB_LANG=en as an argument: the one spelling that works in every shell
        os.environ["LAB_LANG"] = options["lang"]
    if options["target"] == "clean":
        clean()
        return 0
    _remember_leftovers(lab)
    if options["target"] == "help":
        try:
            print(help_text(_command_name(options), lab))
            sys.stdout.flush()
        except (ImportError, SyntaxError):  # a Python too old for the core's texts: it is told which one to use
            from labkit import setup_venv

            setup_venv.check_version(_command_name(options))
            raise
        except BrokenPipeError:  # `make help | head`: the reader left; so do we, without a traceback
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    python = interpreter(options)
    program = command(options, python, lab)
    if REPORT_FLAG in program:
        os.environ.update(OWN_PLUGINS_ONLY)
    return run(python, program, _command_name(options))


def _select(argv):
    """Make the lab LAB= (or --lab, or the environment's LAB) names the active one (labkit.course); an unknown name
    ends the run with one line naming the course's labs, exit code 2."""
    from labkit import course

    try:
        course.select(course.named(argv))
    except course.Unknown as unknown:
        name, known = unknown.args
        _fail("lab.unknown_lab", name=name, labs=", ".join(known))


def _command_name(options):
    return "make" if options["make"] else "python lab.py"


def _active_lab(argv):
    """The active lab's spec; None on a Python too old to load it, where only `help` still answers (anything else
    is told which Python it needs)."""
    try:
        from labkit.spec import active
    except (ImportError, SyntaxError):
        if argv and not {"help", "-h", "--help"} & set(argv):
            from labkit import setup_venv

            setup_venv.check_version("make" if "--make" in argv else "python lab.py")
        return None
    try:
        return active()
    except KeyError as missing:  # a text the lab lacks (labkit.spec.load names it): the instructor's, one line
        sys.stderr.write(str(missing.args[0]) + "\n")
        sys.exit(2)


# --- the targets ---------------------------------------------------------------------------------------------


def _core_names(lab):
    """The core's targets this lab has, in the order of the usage line (a lab's own come after watch)."""
    has_challenge = lab is not None and lab.has_challenge  # (its help line is the lab's: none without a spec)
    return [name for name in ("test", "test-full", "challenge", "watch") if name != "challenge" or has_challenge]


def target_names(lab):
    """Every target of `lab`: the core's, its own, then clean, help and run."""
    own = [target.name for target in lab.targets if target.module] if lab is not None else []
    return _core_names(lab) + own + ["clean", "help", "run"]


def _lab_options(lab):
    """lab.py's spelling ("--seed") -> the Option, for every option of the lab's own targets."""
    found = {}
    for target in lab.targets if lab is not None else ():
        for option in target.options:
            found["--" + option.name.lower().replace("_", "-")] = option
    return found


class _Refused(Exception):
    """An argument parse cannot use: (catalogue key, its fields)."""


def parse(argv, lab=None):
    """Target and options in any order; `run` passes everything after it to Python untouched.  The lab's
    settings (SEED=3, --seed 3) are kept by their make name in options["settings"].  An argument it cannot use
    ends the run with one line and exit code 2."""
    try:
        return _parsed(argv, lab if lab is not None else _active_lab(argv))
    except _Refused as refused:
        key, fields = refused.args
        _fail(key, **fields)


def _parsed(argv, lab):
    """parse's work, on argparse; `lab` None: the core's targets and options only."""
    names, settings = target_names(lab), _lab_options(lab)
    parser = _parser(settings, names)
    for cut in [at + 1 for at, arg in enumerate(argv) if arg in PASSED_ON] + [len(argv)]:  # after run, untouched
        known, words = parser.parse_known_args(_as_flags(argv[:cut], settings))
        if cut == len(argv) or argv[cut - 1] in words:  # (else that "run" was an option's value: --student run)
            break
    given = vars(known)
    missing = [flag for flag, dest in _value_flags(settings) if given[dest] is _MISSING]
    if missing:  # --student as the last argument, or before another option
        raise _Refused("lab.bad_argument", dict(argument=missing[0], targets=", ".join(names)))
    options = {dest: given[dest] for dest in OPTIONS.values()}
    options.update(
        make=given["make"],
        target="",
        rest=[],
        settings={
            option.name: given["setting " + option.name]
            for option in settings.values()
            if given["setting " + option.name] is not None
        },
    )
    for word in words:
        options["target"] = _target(word, options, names)
        if word in PASSED_ON:
            options["rest"] = argv[cut:]
    options["target"] = "help" if given["help"] or not options["target"] else options["target"]  # as `make` alone
    if options["make"]:  # `make chat SEED=3`: make hands lab.py the variables of its command line in the environment
        for option in _target_options(lab, options["target"]):
            if option.name not in options["settings"] and os.environ.get(option.name):
                options["settings"][option.name] = os.environ[option.name]
    return options


_MISSING = object()  # what an option given without its value parses to


class _Parser(argparse.ArgumentParser):
    """argparse, refusing in the course's words (labkit.i18n) instead of printing its usage and exiting."""

    targets = ""  # the lab's targets, for the one line

    def error(self, message):  # "argument --make: ignored explicit argument '1'" (the one refusal left to argparse)
        flag = message.partition(": ")[0].replace("argument ", "", 1)
        raise _Refused("lab.bad_argument", dict(argument=flag, targets=self.targets))


def _parser(settings, names):
    """The core's options, --make, -h and the lab's settings (`settings`: lab.py's spelling -> the Option)."""
    parser = _Parser(prog="lab.py", add_help=False, allow_abbrev=False)
    parser.targets = ", ".join(names)
    for flag, dest in _value_flags(settings):
        default = DEFAULTS.get(dest, "") if dest in OPTIONS.values() else None  # None: a setting not given
        parser.add_argument(flag, dest=dest, nargs="?", const=_MISSING, default=default)
    parser.add_argument("--make", action="store_true")  # started by the Makefile (messages then say `make`)
    parser.add_argument("-h", "--help", action="store_true")
    return parser


def _value_flags(settings):
    """(flag, where argparse keeps its value) for the core's options and the lab's settings."""
    return list(OPTIONS.items()) + [(flag, "setting " + option.name) for flag, option in settings.items()]


def _as_flags(args, settings):
    """make's spelling as the flag it stands for (STUDENT=x.py: --student=x.py, DEMO=1: --demo=1), and a switch
    of the lab given alone (--demo) as --demo=1; anything else as it was."""
    flags = []
    for arg in args:
        name, equals, value = arg.partition("=")
        flag = "--" + name.lower().replace("_", "-")
        if equals and name.isupper() and (flag in OPTIONS or flag in settings):
            arg = flag + "=" + value
        elif arg in settings and settings[arg].alone:
            arg += "=1"
        flags.append(arg)
    return flags


def _target(word, options, names):
    """The target `word` names, when no other was named before it; else the one line that refuses it."""
    if options["target"]:
        raise _Refused("lab.bad_argument", dict(argument=word, targets=", ".join(names)))
    if word == GRADE and _instructor():
        return word  # the grader reads make's spelling itself
    if word in INSTRUCTOR_TARGETS:
        raise _Refused("lab.instructor_only" if not _instructor() else "lab.make_only", dict(target=word))
    if word in names:
        return word
    if options["make"] and not word.startswith("-") and "=" not in word:
        raise _Refused("lab.no_target", dict(command="make", target=word, targets=", ".join(names)))  # the
        # Makefile has it, this lab has not
    raise _Refused("lab.bad_argument", dict(argument=word, targets=", ".join(names)))


def _target_options(lab, name):
    """The options of the lab's own target `name` (none for the core's targets)."""
    return [
        option
        for target in (lab.targets if lab is not None else ())
        if target.name == name
        for option in target.options
    ]


def _instructor():
    """Whether this checkout has the instructors' part (labkit/instructor/: never in the student handout)."""
    return os.path.exists(os.path.join(ROOT, "labkit", "instructor", "grade.py"))


def _fail(key, **fields):
    sys.stderr.write(_text(key, **fields) + "\n")
    sys.exit(2)


def _text(key, **fields):
    from labkit.i18n import text

    return text(key, **fields)


def command(options, python, lab=None):
    """The program a target runs, as a list: pytest on the checks, the watcher, a lab's own program, or Python."""
    lab = lab if lab is not None else _active_lab([])
    student = _typed_path(options["student"]) or _relative(os.path.join(str(lab.root), lab.student_file))
    verify = _relative(os.path.join(str(lab.root), lab.verify)) if lab.verify else VERIFY
    test = [python, "-m", "pytest", verify, "--student=" + student] + REPORT
    target = options["target"]
    if target in PYTEST_TARGETS:
        return test + PYTEST_TARGETS[target]
    if target == "watch":
        return [python, "-m", "labkit.watch", "--student", student, "--"] + test
    if target == GRADE:
        return [python, "-m", "labkit.instructor.grade"] + options["rest"]
    own = lab.own_target(target)
    if own is not None:
        return [python, "-m", own.module, "--student", student] + _flags(own, options["settings"])
    return [python] + options["rest"]  # run


def _flags(target, settings):
    """The flags of `target`'s program for the settings given, in the order the target declares its options."""
    flags = []
    for option in target.options:
        value = settings.get(option.name, "")
        if option.switch:
            flags += [option.flag] * option.given(value)
        elif value:
            flags += [option.flag, _typed_path(value) if option.path else value]
    return flags


def _relative(path):
    """A path inside the checkout as the run names it: relative to the checkout, with "/"."""
    return os.path.relpath(os.path.realpath(path), os.path.realpath(ROOT)).replace(os.sep, "/")


def _typed_path(path):
    """A path as typed, made absolute when typed outside the checkout (the run starts in the checkout)."""
    if path and not os.path.isabs(path) and not os.path.samefile(os.getcwd(), ROOT):
        return os.path.abspath(path)
    return path


# --- the interpreter -----------------------------------------------------------------------------------------


def interpreter(options):
    """PYTHON= if given (it must have pytest), else the lab's venv, made first if it is not ready."""
    from labkit import setup_venv

    name = _command_name(options)
    setup_venv.check_version(name)
    if options["python"]:
        python = _located(options["python"])
        if _is_this_python(python):
            setup_venv.check_packages(name)
        else:
            _setup(python, ["--check"], name)
        return python
    venv = os.path.join(ROOT, options["venv"])  # a relative venv lies in the checkout
    if not setup_venv.is_ready(venv, os.path.join(ROOT, "requirements.txt")):
        base = _located(options["base_python"]) if options["base_python"] else _base_python()
        _setup(base, [options["venv"], "requirements.txt"], name)
    elif options["base_python"]:  # BASE_PYTHON= given: a venv of another Python is made again with it
        base = _located(options["base_python"])
        if _version_of(base) not in (None, setup_venv.venv_version(venv)):
            _setup(base, ["--rebuild", options["venv"], "requirements.txt"], name, kept=3)
            REBUILT.append(venv)  # this process may be the old venv's Python: the new one must run the target
    elif setup_venv.venv_version(venv) not in (None, setup_venv.this_version()):  # python3.13 lab.py, a 3.11 venv
        sys.stderr.write(
            _text(
                "lab.other_venv",
                venv=options["venv"],
                made=setup_venv.venv_version(venv),
                this=setup_venv.this_version(),
                name=name,
                python=sys.executable,
            )
            + "\n"
        )
    return setup_venv.venv_python(venv)


def _version_of(python):
    """The version ("3.13") of another interpreter, or None if it does not answer."""
    import subprocess

    try:
        found = subprocess.run(
            [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return found.stdout.strip() or None


def _located(python):
    import shutil

    found = python if os.path.dirname(python) else shutil.which(python)
    if not found or not os.path.isfile(found):
        _fail("lab.python_not_found", python=python)
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

    script = os.path.join(ROOT, "labkit", "setup_venv.py")
    code = subprocess.call([python, script, "--command", name] + args, cwd=ROOT)
    if code not in (0, kept):
        sys.exit(code)


# --- running a target ----------------------------------------------------------------------------------------


def run(python, argv, command_name="make"):
    """Run a target from the checkout: in this process when this is the right interpreter and pytest does the
    work (no second start-up), else as a new program: on POSIX in place of this one, elsewhere as a child whose
    exit code is passed on.  LAB_CWD and LAB_COMMAND tell the program where the student started it and how (the
    advice in its messages names the same command and files)."""
    os.environ["LAB_CWD"], os.environ["LAB_COMMAND"] = os.getcwd(), command_name
    os.chdir(ROOT)
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
    """Remove what runs leave behind: __pycache__ folders, .pytest_cache, dist/ and the files the lab's targets
    leave (Lab.clean: make chat's page); never a venv, .git, grades/ or a student's file."""
    leftovers = _leftovers()  # first: loading the spec may write bytecode, which the walk below then removes
    for folder, subfolders, _ in os.walk(ROOT):
        for name in [name for name in subfolders if name.startswith(".venv") or name in (".git", "__pycache__")]:
            subfolders.remove(name)
            if name == "__pycache__":
                _remove_tree(os.path.join(folder, name))
    for name in (".pytest_cache", "dist"):
        _remove_tree(os.path.join(ROOT, name))
    for name in leftovers:
        _quietly(os.unlink, os.path.join(ROOT, name))


def _leftovers():
    """The active lab's Lab.clean: as the last run in this venv noted it (_remember_leftovers), else from the
    spec."""
    note = _leftovers_note()
    if note is not None:
        try:
            with open(note, encoding="utf-8") as stream:
                lines = stream.read().split("\n")
        except OSError:
            lines = []
        if lines and lines[0] == _spec_key():
            return [line for line in lines[1:] if line]
    lab = _active_lab([])
    return lab.clean if lab is not None else ()


def _remember_leftovers(lab):
    """Note `lab`'s Lab.clean in the lab's venv, when that is what runs, so that `make clean` need not load the
    spec (the note is of the spec LAB_SPEC names; the lab's bytecode is kept in the venv too, lab.py)."""
    note = _leftovers_note()
    if note is None or lab is None:
        return
    text = "\n".join([_spec_key()] + list(lab.clean)) + "\n"
    try:
        with open(note, encoding="utf-8") as stream:
            if stream.read() == text:
                return
    except OSError:
        pass
    written = "{0}.{1}".format(note, os.getpid())  # whole or not at all: another run may read it meanwhile
    try:
        with open(written, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(written, note)
    except OSError:
        _quietly(os.unlink, written)


def _leftovers_note():
    """The note's path: in the running venv when it is one of the checkout's, else None."""
    if sys.prefix != sys.base_prefix and os.path.abspath(sys.prefix).startswith(os.path.join(ROOT, "")):
        return os.path.join(sys.prefix, "labkit-clean")
    return None


def _spec_key():
    return "LAB_SPEC=" + os.environ.get("LAB_SPEC", "")


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


# --- make help -----------------------------------------------------------------------------------------------

HELP = (  # the core's rows: (usage after the command, target, catalogue key, only for lab.py); a lab's own rows
    ("test", "test", "help.test", False),  # come after watch
    ("test STUDENT=path.py", None, "help.student", False),
    ("watch", "watch", "help.watch", False),
    ("test-full", "test-full", "help.test_full", False),
    ("challenge", "challenge", "help.challenge", False),
    ("clean", "clean", "help.clean", False),
    ("run ARGS", "run", "help.run", True),
)
INSTRUCTOR_HELP = (  # Makefile targets, listed where labkit/instructor/ exists
    ("make grade SUBMISSIONS=dir|zip", "help.grade"),
    ("make dist", "help.dist"),
    ("make gradescope", "help.gradescope"),
    ("make tables", "help.tables"),
    ("make new-lab NAME=name", "help.new_lab"),
    ("make check", "help.check"),
    ("make expected", "help.expected"),
    ("make bench [PART=lab|grading|suite]", "help.bench"),
)


def _help_rows(cmd, lab):
    """(usage, catalogue key) of every target `make help` lists for `lab`, in order."""
    names = target_names(lab)
    rows = []
    for usage, target, key, lab_only in HELP:
        if (lab_only and cmd == "make") or (target is not None and target not in names):
            continue
        restated = lab.own_target(target) if lab is not None and target else None
        rows.append((cmd + " " + usage, restated.help if restated else key))
        if target == "watch" and lab is not None:
            rows += [
                (" ".join(filter(None, (cmd, own.name, own.usage))), own.help) for own in lab.targets if own.module
            ]
    return rows


def _help_fields(lab):
    """What the help lines say of the lab, in each language, from its spec: the checks `make test` runs, as the spec
    counts them ("六个测试", "the six"), the student's file, the lab's name and its handout's."""
    if lab is None:  # a Python older than 3.10 cannot load the spec; `help` still answers (`test` says why)
        plain = {
            "student_file": "framework/",
            "student_file_name": "the student file",
            "lab": "the lab",
            "handout": "*",
            "config": "solutions/grading.ini",
        }
        return {
            "zh": dict(plain, core_cases="基本测试", more_checks="更多检查"),
            "en": dict(plain, core_cases="the core", more_checks="more checks"),
        }
    first = next(group for group in lab.groups if group.stage == "test")
    full = [group for group in lab.groups if group.stage == "full"]  # what make test-full adds
    plain = {
        "student_file": lab.student_file,
        "student_file_name": lab.student_file_name,
        "lab": lab.name,
        "handout": lab.handout_name,
        "config": _relative(os.path.join(str(lab.solution_path.parent), "grading.ini")),
    }
    return {
        language: dict(
            plain,
            core_cases=lab.group_name(first, language),
            more_checks=_listed([lab.group_name(group, language) for group in full], language),
        )
        for language in ("zh", "en")
    }


def _listed(names, language):
    """ "a + b + c" in Chinese, "a, b and c" in English."""
    if language != "en" or len(names) < 2:
        return " + ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _labs_line(cmd, lab):
    """make help's line naming the course's labs (none in a handout, or in a course of one lab)."""
    from labkit import course
    from labkit.i18n import text

    names = list(course.labs())
    if len(names) < 2:
        return []
    fields = dict(
        labs=", ".join(names),
        default=names[0],
        command=cmd,
        example=next((name for name in names if lab is None or name != lab.id), names[-1]),
    )
    return ["{0} / {1}".format(*(text("help.labs", language=language, **fields) for language in ("zh", "en")))]


def help_text(cmd, lab=None):
    """What `make help` and `python lab.py help` print: each target of the lab in both languages."""
    from labkit.i18n import text

    lab = lab if lab is not None else _active_lab(["help"])
    fields = _help_fields(lab)

    def both(key):
        return [text(key, language=language, **fields[language]) for language in ("zh", "en")]

    def row(usage, key):
        return "{0:<{1}} {2} / {3}".format(usage, width, *both(key))

    rows = _help_rows(cmd, lab)
    width = max(len(usage) for usage, _ in rows)
    lines = [row(usage, key) for usage, key in rows]
    notes = [own.notes for own in (lab.targets if lab is not None else ()) if own.notes]
    lines += ["{0} / {1}".format(*both(key)) for key in notes]
    lines.append("options: PYTHON=/path/to/python (已装 pytest / with pytest), BASE_PYTHON=python3.12, LAB_LANG=en")
    if cmd != "make":
        lines.append("{0} / {1}".format(*both("help.windows")))
    lines += _labs_line(cmd, lab)
    if _instructor():
        lines += ["instructors:"] + [
            row(usage.replace("make", cmd, 1) if usage.split()[:2] == ["make", GRADE] else usage, key)
            for usage, key in INSTRUCTOR_HELP
        ]
    return "\n".join(lines)
