"""The Lab09 cases as pytest tests, read from the case table: the six (`make test`), or all (`make test-full`)."""

import pytest

from framework.conftest import selected_cases


def pytest_generate_tests(metafunc):
    if "case" in metafunc.fixturenames:
        cases = selected_cases(metafunc.config)
        metafunc.parametrize("case", cases, ids=[f"TEST{case.id}" for case in cases])


@pytest.mark.timeout(60)  # a backstop only: the engine stops a student's call long before this
def test_case(case, check_case):
    check_case(case)
