"""Lets `python framework/student.py` (a file of this folder run as a script) import `framework.tags`.

Python puts the script's own folder, this one, first on the import path; so `import framework` finds
this module instead of the package around it.  This module loads that package in its own place,
from the same folder, and the import goes on as usual.  Nothing else uses it.
"""

import importlib.util
import os
import sys

_FOLDER = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "framework", os.path.join(_FOLDER, "__init__.py"), submodule_search_locations=[_FOLDER]
)
_package = importlib.util.module_from_spec(_spec)
sys.modules["framework"] = _package  # the import that found this file returns what sys.modules holds
_spec.loader.exec_module(_package)
