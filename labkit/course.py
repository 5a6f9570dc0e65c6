# -*- coding: utf-8 -*-
"""The course's labs, discovered: the default lab at the repository's top and every labs/<name>/ holding <name>/spec.py.

`LAB=<name>` (make's, `--lab x`, or the environment) selects one: its spec becomes LAB_SPEC, its root joins sys.path
and PYTHONPATH; without it the default lab runs.  Loads on an old Python 3 (no f-strings, no annotations).
Why: docs/design.md#labkitcoursepy
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the course repository (or a handout's top)
LABS = "labs"  # every further lab: labs/<name>/, laid out as its handout, its package labs/<name>/<name>/
SHARED = ("Makefile", "lab.py", "requirements.txt", ".gitignore")  # the course's top files, in every handout
FACE = ("framework/__init__.py", "framework/conftest.py", "framework/framework.py", "framework/verify.py")  # the
# course's shared face in the top framework/ (the default lab's own files sit beside it)
CORE = "labkit"  # the core, in every handout but for its instructors' part


class Unknown(Exception):
    """LAB= names no lab of the course: (the name, the names there are)."""


def fixed():
    """The spec module a handout fixes (its framework/__init__.py's LAB_SPEC with FIXED), else None."""
    framework = _framework()
    return getattr(framework, "LAB_SPEC", None) if getattr(framework, "FIXED", False) else None


def _framework():
    import importlib

    try:
        return importlib.import_module("framework")
    except ImportError:
        return None


def default_spec():
    """The default lab's spec module (framework.LAB_SPEC): the lab at the course's top."""
    return _framework().LAB_SPEC


def labs():
    """name -> (root relative to the course, its spec module), the default lab first, the rest sorted."""
    default = default_spec()  # its name is its package's
    found = {default.split(".")[0]: (".", default)}
    folder = os.path.join(ROOT, LABS)
    if fixed() is None and os.path.isdir(folder):  # a handout is its one lab
        for name in sorted(os.listdir(folder)):
            if os.path.isfile(os.path.join(folder, name, name, "spec.py")):
                found.setdefault(name, (LABS + "/" + name, name + ".spec"))
    return found


def named(argv, environ=None):
    """The lab `argv` names (LAB=x, --lab x, --lab=x), else the environment's LAB, else ""."""
    environ = os.environ if environ is None else environ
    args = list(argv)
    for index, arg in enumerate(args):
        if arg.startswith("LAB=") or arg.startswith("--lab="):
            return arg.split("=", 1)[1].strip()
        if arg == "--lab" and index + 1 < len(args):
            return args[index + 1].strip()
    return environ.get("LAB", "").strip()


def select(name, environ=None):
    """Make lab `name` the active one for this process and every process it starts: LAB_SPEC, sys.path and
    PYTHONPATH.  "" keeps what there is (LAB_SPEC if set, else the default lab); a handout ignores `name`.
    Returns the spec module, or raises Unknown."""
    environ = os.environ if environ is None else environ
    if fixed() is not None:
        return fixed()
    if not name:
        return environ.get("LAB_SPEC") or next(iter(labs().values()))[1]
    known = labs()
    if name not in known:
        raise Unknown(name, list(known))
    root, spec = known[name]
    environ["LAB_SPEC"] = spec
    environ["LAB"] = name
    if root != ".":
        path = os.path.join(ROOT, *root.split("/"))
        if path not in sys.path:
            sys.path.insert(0, path)
        paths = [entry for entry in environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
        if path not in paths:
            environ["PYTHONPATH"] = os.pathsep.join([path] + paths)
    return spec


def join_face(root):
    """Let `framework.<module>` find the modules of a lab's own framework/ beside the course's shared face (its
    given module, as the lab's reference imports it: framework.<given>), for a lab whose root is not the top."""
    framework = _framework()
    folder = os.path.join(str(root), "framework")
    paths = getattr(framework, "__path__", None)
    if (
        paths is not None
        and os.path.isdir(folder)
        and not any(os.path.samefile(folder, path) for path in paths if os.path.isdir(path))
    ):
        paths.append(folder)


def root_of(name):
    """The folder of lab `name`, from the course's top ("." or labs/<name>)."""
    return labs()[name][0]
