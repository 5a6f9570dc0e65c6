"""The Lab09 cases as pytest tests, read from the lab spec: the six (`make test`), or all (`make test-full`).

`python framework/verify.py` is `python lab.py test`: the six in the course's layout, with the lab's .venv.
"""

if __name__ == "__main__":  # run as a script: hand over to lab.py before anything needs pytest
    import os
    import runpy
    import sys

    sys.argv[1:1] = ["test"]
    runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lab.py"), run_name="__main__")

import pytest  # noqa: E402

from framework.conftest import selected_cases


def pytest_generate_tests(metafunc):
    if "case" in metafunc.fixturenames:
        cases = selected_cases(metafunc.config)
        metafunc.parametrize("case", cases, ids=[f"TEST{case.id}" for case in cases])


@pytest.mark.timeout(60)  # a backstop only: the engine stops a student's call long before this
def test_case(case, check_case):
    check_case(case)
