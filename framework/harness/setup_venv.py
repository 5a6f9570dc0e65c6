"""Creates the lab's .venv with pytest on first use, or checks a given interpreter; one clear line on failure.

Run by whatever `python3` the machine has, so it stays compatible with old versions long enough to
say that 3.10 or newer is needed.
"""

import os
import subprocess
import sys

MINIMUM = (3, 10)
ENGLISH = os.environ.get("LAB_LANG", "").lower().startswith("en")


def say(zh, en):
    sys.stderr.write((en if ENGLISH else zh) + "\n")
    sys.stderr.flush()


def fail(zh, en):
    say("[setup] " + zh, "[setup] " + en)
    sys.exit(2)


def check_version():
    if sys.version_info < MINIMUM:
        found = "%d.%d" % sys.version_info[:2]
        fail("需要 Python 3.10 或更新版本 (当前 %s)；请用 make test BASE_PYTHON=python3.12 这样指定" % found,
             "Python 3.10 or newer is needed (this is %s); use e.g. make test BASE_PYTHON=python3.12" % found)


def check_packages():
    """PYTHON=... was given: it must already have pytest and pytest-timeout."""
    import importlib.util
    check_version()
    missing = [name for name in ("pytest", "pytest_timeout") if importlib.util.find_spec(name) is None]
    if missing:
        fail("%s 没有安装 %s；请先 %s -m pip install -r requirements.txt，或去掉 PYTHON= 让 make 自动创建 .venv"
             % (sys.executable, ", ".join(missing), sys.executable),
             "%s lacks %s; run %s -m pip install -r requirements.txt, or drop PYTHON= to let make create .venv"
             % (sys.executable, ", ".join(missing), sys.executable))


def create(venv, requirements, stamp):
    check_version()
    say("[setup] 首次运行: 正在创建 %s 并安装 pytest、pytest-timeout (只需一次)…" % venv,
        "[setup] first run: creating %s and installing pytest, pytest-timeout (once)…" % venv)
    made = subprocess.run([sys.executable, "-m", "venv", venv], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if made.returncode != 0:
        fail("无法创建虚拟环境 %s (Debian/Ubuntu 需要 sudo apt install python3-venv)；"
             "或者用 make test PYTHON=/path/to/python 指定已装好 pytest 的解释器" % venv,
             "cannot create the virtual environment %s (Debian/Ubuntu: sudo apt install python3-venv); "
             "or use make test PYTHON=/path/to/python with pytest installed" % venv)
    python = os.path.join(venv, "bin", "python")
    installed = subprocess.run([python, "-m", "pip", "install", "--disable-pip-version-check", "-q", "-r",
                                requirements], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if installed.returncode != 0:
        last = installed.stdout.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        fail("无法安装 pytest (没有网络？%s)；联网后重试，或用 make test PYTHON=/path/to/python "
             "指定已装好 pytest 和 pytest-timeout 的解释器" % last[0][:120],
             "cannot install pytest (offline? %s); retry online, or use make test PYTHON=/path/to/python "
             "that has pytest and pytest-timeout" % last[0][:120])
    with open(stamp, "w") as marker:
        marker.write("ready\n")


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        check_packages()
    elif len(sys.argv) == 4:
        create(*sys.argv[1:])
    else:
        fail("用法: setup_venv.py --check | VENV REQUIREMENTS STAMP", "usage: setup_venv.py --check | VENV REQUIREMENTS STAMP")
