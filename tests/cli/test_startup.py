"""The command line's help and ``import cvinference`` import nothing heavy (issue 31, item 4).

How long they take is measured in ``benchmarks/startup.py``, never here; this checks the cause of a slow start:
which modules a fresh interpreter has imported once the help is printed, or the package imported.
"""

import json
import subprocess
import sys

import pytest

HEAVY = ("numpy", "scipy", "sklearn", "joblib", "matplotlib", "pandas")

_HELP = """
import json, sys
from cvinference.cli._entry import run
sys.argv = ["cvinference", *sys.argv[1:]]
try:
    run()
except SystemExit:
    pass
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] in {heavy})), file=sys.stderr)
"""


def imported_heavy(code, *argv):
    """The heavy modules a fresh interpreter holds after running ``code`` (it prints them last on stderr)."""
    done = subprocess.run([sys.executable, "-c", code.replace("{heavy}", repr(set(HEAVY))), *argv],
                          capture_output=True, text=True, timeout=120, check=False)
    return json.loads(done.stderr.strip().splitlines()[-1]), done.stdout


@pytest.mark.parametrize("argv", [["--help"], ["evaluate", "--help"], ["compare", "--help"], ["study", "--help"],
                                  ["select", "--help"], ["demo", "--help"]])
def test_the_help_imports_nothing_heavy(argv):
    heavy, printed = imported_heavy(_HELP, *argv)
    assert "usage: cvinference" in printed
    assert heavy == []


def test_importing_the_package_imports_nothing_heavy():
    heavy, _ = imported_heavy("import cvinference, json, sys\n"
                              "print(json.dumps(sorted(n for n in sys.modules if n.split('.')[0] in {heavy})),"
                              " file=sys.stderr)")
    assert heavy == []


def test_the_first_use_of_a_name_imports_what_it_needs():
    """The control: the check above sees an import when there is one."""
    heavy, _ = imported_heavy("import cvinference, json, sys\ncvinference.EqualSizeKFold\n"
                              "print(json.dumps(sorted(n for n in sys.modules if n.split('.')[0] in {heavy})),"
                              " file=sys.stderr)")
    assert "numpy" in heavy and "sklearn" in heavy
