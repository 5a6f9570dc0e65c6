"""Lab10's own tests find the lab's package as `make` does with PYTHONPATH (its root on the path); their helpers
are in lab10_support.py."""

import sys
from pathlib import Path

LAB_ROOT = Path(__file__).resolve().parents[1]
if str(LAB_ROOT) not in sys.path:
    sys.path.insert(0, str(LAB_ROOT))

from lab10_support import lab10  # noqa: E402,F401  (the fixture that makes Lab10 active in a test)
