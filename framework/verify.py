"""The six Lab09 cases as pytest tests, read from the case table (`make test`, or any pytest runner)."""

import pytest

from framework.cases import CORE


@pytest.mark.timeout(60)  # a backstop only: the engine stops a student's call long before this
@pytest.mark.parametrize("case", CORE, ids=lambda case: f"TEST{case.id}")
def test_case(case, check_case):
    check_case(case)
