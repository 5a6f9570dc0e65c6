"""Installs what the project's own suite needs beyond a student's requirements (tests/requirements.txt) into the
interpreter that runs `make check`, once; a machine without the network says so and the tests that need it skip
(or fail where CI requires them: LAB_CI_REQUIRES)."""

import importlib.util
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from labkit.setup_venv import pip_environment, run_with_dots, say  # noqa: E402

REQUIREMENTS = Path(__file__).with_name("requirements.txt")
MODULES = {"pytest-xdist": "xdist"}  # a requirement whose module is not its name


def wanted() -> list[str]:
    """The requirements whose module this interpreter cannot import."""
    lines = [line.split("#")[0].strip() for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines()]
    names = {line: re.split(r"[<>=!~ \[]", line)[0] for line in lines if line}
    return [line for line, name in names.items() if importlib.util.find_spec(MODULES.get(name, name)) is None]


def main() -> int:
    missing = wanted()
    if not missing:
        return 0
    say(
        "[setup] 测试套件自己的依赖 (%s) " % ", ".join(missing),
        "[setup] the suite's own requirements (%s) " % ", ".join(missing),
        end="",
    )
    code, last = run_with_dots([sys.executable, "-m", "pip", "install", "-q", *missing], pip_environment(os.environ))
    if code:
        say(
            " 没装上 (%s)；用到它们的测试会跳过" % last[:120],
            " not installed (%s); the tests that use them skip" % last[:120],
        )
    else:
        say(" 装好了", " installed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
