"""Creates the lab's .venv with pytest on first use (saying what it does), or checks a given interpreter.

Runs on old Pythons (no f-strings) to say 3.10+ is needed; each problem is one [setup] line, exit code 2.
Usage and why: docs/design.md#labkitsetup_venvpy
"""

import os
import sys
import time

MINIMUM = (3, 10)
PACKAGES = ("pytest", "pytest_timeout")
STAMP = ".labkit-ready"  # written into the venv once pytest is installed
# pip gives up quickly when there is no network (its defaults retry for many seconds); a user's own
# PIP_RETRIES / PIP_TIMEOUT win.  Index, proxy and certificates stay whatever pip is configured with.
PIP_DEFAULTS = {"PIP_RETRIES": "1", "PIP_TIMEOUT": "10", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def english():
    return os.environ.get("LAB_LANG", "").lower().startswith("en")


def say(zh, en, end="\n"):
    sys.stderr.write((en if english() else zh) + end)
    sys.stderr.flush()


def fail(zh, en):
    say("[setup] " + zh, "[setup] " + en)
    sys.exit(2)


def venv_python(venv):
    """The interpreter of a virtual environment: Scripts\\python.exe on Windows, bin/python elsewhere."""
    candidates = [os.path.join(venv, "Scripts", "python.exe"), os.path.join(venv, "bin", "python")]
    if os.name != "nt":
        candidates.reverse()
    for candidate in candidates:
        if os.path.isfile(candidate):
            return candidate
    return candidates[0]


def venv_version(venv):
    """The Python version ("3.11") a virtual environment was made with, from its pyvenv.cfg; None if unknown."""
    try:
        with open(os.path.join(venv, "pyvenv.cfg")) as config:
            for line in config:
                key, _, value = line.partition("=")
                if key.strip() in ("version", "version_info"):
                    return ".".join(value.strip().split(".")[:2])
    except OSError:
        pass
    return None


def this_version():
    return "%d.%d" % tuple(sys.version_info[:2])


def is_ready(venv, requirements):
    """The venv was completed after requirements.txt last changed (what make's prerequisite said)."""
    try:
        return os.path.getmtime(os.path.join(venv, STAMP)) >= os.path.getmtime(requirements) and os.path.isfile(
            venv_python(venv)
        )
    except OSError:
        return False


def check_version(command="make"):
    if sys.version_info[:2] < MINIMUM:
        found = "%d.%d" % tuple(sys.version_info[:2])
        if command == "make":
            zh_use, en_use = "make test BASE_PYTHON=python3.12", "make test BASE_PYTHON=python3.12"
        else:
            zh_use = en_use = "python3.12 lab.py test (Windows: py -3.12 lab.py test)"
        fail(
            "需要 Python 3.10 或更新版本 (当前 %s)；请这样指定: %s" % (found, zh_use),
            "Python 3.10 or newer is needed (this is %s); pick one like this: %s" % (found, en_use),
        )


def check_packages(command="make"):
    """PYTHON=... was given: it must already have pytest and pytest-timeout."""
    import importlib.util

    check_version(command)
    missing = [name for name in PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        me = sys.executable
        fail(
            "%s 没有安装 %s；请先 \"%s\" -m pip install -r requirements.txt，或去掉 PYTHON= 让 %s 自动创建 .venv"
            % (me, ", ".join(missing), me, command),
            "%s lacks %s; run \"%s\" -m pip install -r requirements.txt, or drop PYTHON= to let %s create .venv"
            % (me, ", ".join(missing), me, command),
        )


def pip_environment(environ):
    """The environment pip runs in: PIP_DEFAULTS where the user has not set those variables."""
    env = dict(environ)
    for name, value in PIP_DEFAULTS.items():
        env.setdefault(name, value)
    return env


def run_with_dots(command, env=None):
    """Run `command`, writing a dot each second while it works; (exit code, its last line of output)."""
    import subprocess  # here, not above: lab.py imports this module on every run, and needs these only once
    import tempfile

    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        while True:
            try:
                code = process.wait(timeout=1)
                break
            except subprocess.TimeoutExpired:
                sys.stderr.write(".")
                sys.stderr.flush()
        log.seek(0)
        lines = log.read().decode("utf-8", "replace").strip().splitlines()
    errors = [line for line in lines if line.startswith("ERROR")]
    return code, (errors or lines or [""])[-1].strip()


def create(venv, requirements, command="make", replacing=None):
    """Make the venv `venv` and install the requirements into it, on one progress line; `replacing` names
    the venv (and its Python version) this one is made to replace."""
    check_version(command)
    started = time.time()
    if replacing:
        say(
            "[setup] %s 是 Python %s 建的，用 Python %s 重新创建 " % (replacing[0], replacing[1], this_version()),
            "[setup] %s was made by Python %s; making it again with Python %s "
            % (replacing[0], replacing[1], this_version()),
            end="",
        )
    else:
        say(
            "[setup] 首次运行 (只需一次): 创建 %s " % venv, "[setup] first run (once only): creating %s " % venv, end=""
        )
    python = venv_python(venv)
    if not os.path.isfile(python):  # a venv that only needs its packages again is kept as it is
        code, last = run_with_dots([sys.executable, "-m", "venv", venv])
        python = venv_python(venv)
        if code != 0 or not os.path.isfile(python):
            say("", "")
            fail(
                "无法创建虚拟环境 %s (%s；Debian/Ubuntu 需要 sudo apt install python3-venv)；"
                "或者用 %s test PYTHON=/path/to/python 指定已装好 pytest 的解释器" % (venv, last[:100], command),
                "cannot create the virtual environment %s (%s; Debian/Ubuntu: sudo apt install python3-venv); "
                "or use %s test PYTHON=/path/to/python with pytest installed" % (venv, last[:100], command),
            )
    say("，安装 pytest、pytest-timeout ", ", installing pytest, pytest-timeout ", end="")
    code, last = run_with_dots([python, "-m", "pip", "install", "-q", "-r", requirements], pip_environment(os.environ))
    if code != 0:
        say("", "")
        if replacing:  # the new venv goes; pip's setting is the user's, set from the venv that stays
            python = venv_python(replacing[0])
        fail(
            "无法安装 pytest (没有网络，或连不上 PyPI？%s)；联网后重试；用镜像: \"%s\" -m pip config set "
            "global.index-url https://pypi.tuna.tsinghua.edu.cn/simple (或你们学校的镜像)；或用 %s test "
            "PYTHON=/path/to/python 指定已装好 pytest 和 pytest-timeout 的解释器" % (last[:120], python, command),
            "cannot install pytest (offline, or PyPI out of reach? %s); retry online; for a mirror: \"%s\" -m pip "
            "config set global.index-url https://pypi.tuna.tsinghua.edu.cn/simple (or your school's); or use %s test "
            "PYTHON=/path/to/python that has pytest and pytest-timeout" % (last[:120], python, command),
        )
    with open(os.path.join(venv, STAMP), "w") as marker:
        marker.write("ready\n")
    seconds = int(time.time() - started + 0.5)
    say(" 完成 (%d 秒)" % seconds, " done (%d s)" % seconds)


def rebuild(venv, requirements, command="make"):
    """Make the venv again with this Python, next to the old one, and put it in its place only once it is
    complete: the old one stays (and says so, exit code 3) if the new one cannot be made, e.g. offline."""
    import shutil

    old, new = venv_version(venv) or "?", venv + ".new"
    shutil.rmtree(new, ignore_errors=True)
    try:
        create(new, requirements, command, replacing=(venv, old))
    except SystemExit:  # create said why in one line
        shutil.rmtree(new, ignore_errors=True)
        say(
            "[setup] 原来的 %s (Python %s) 没有动，这次还用它；要换: 删掉 %s 再运行 %s test BASE_PYTHON=..."
            % (venv, old, venv, command),
            "[setup] the old %s (Python %s) is kept and used this time; to switch, remove %s and run %s test "
            "BASE_PYTHON=..." % (venv, old, venv, command),
        )
        sys.exit(3)
    try:
        os.rename(venv, venv + ".old")
        os.rename(new, venv)
    except OSError as error:  # Windows: a venv whose python is running cannot be moved
        shutil.rmtree(new, ignore_errors=True)
        say(
            "[setup] 没能换掉 %s (%s)；删掉它再运行 %s test BASE_PYTHON=..." % (venv, error, command),
            "[setup] could not replace %s (%s); remove it and run %s test BASE_PYTHON=..." % (venv, error, command),
        )
        sys.exit(3)
    shutil.rmtree(venv + ".old", ignore_errors=True)


def main(argv):
    command = "make"
    if argv[:1] == ["--command"] and len(argv) >= 2:
        command, argv = argv[1], argv[2:]
    if argv == ["--check"]:
        check_packages(command)
    elif len(argv) == 3 and argv[0] == "--rebuild":
        rebuild(argv[1], argv[2], command)
    elif len(argv) == 2:
        create(argv[0], argv[1], command)
    else:
        fail(
            "用法: setup_venv.py [--command CMD] --check | VENV REQUIREMENTS",
            "usage: setup_venv.py [--command CMD] --check | VENV REQUIREMENTS",
        )


if __name__ == "__main__":
    main(sys.argv[1:])
