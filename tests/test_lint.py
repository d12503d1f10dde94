"""ruff, configured in ``pyproject.toml`` (``[tool.ruff]``), finds nothing in the checkout's Python files.

The package, the tests, the benchmarks and any other Python file git does not ignore.

ruff is in the ``test`` extra, so CI (``.ci/run``, the README's test command) runs these tests; without
it they are skipped with the command that installs it. To lint by hand: ``ruff check``; to sort imports
and apply the other safe fixes: ``ruff check --fix``.
"""

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff():
    """The command that runs the ruff installed beside this interpreter, or a skip saying how to install it."""
    if importlib.util.find_spec("ruff") is not None:
        return [sys.executable, "-m", "ruff"]
    beside = Path(sys.executable).with_name("ruff.exe" if sys.platform == "win32" else "ruff")
    if beside.is_file():
        return [str(beside)]
    pytest.skip("ruff is not installed; install the test extra: pip install -e '.[test]'")


def _check(*arguments, stdin=None):
    return subprocess.run([*_ruff(), "check", "--no-cache", "--output-format", "concise", *arguments], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=300)


def test_ruff_finds_nothing():
    completed = _check()
    assert completed.returncode == 0, (
        "ruff check found problems (ruff check --fix repairs the import order and other safe fixes):\n"
        f"{completed.stdout}{completed.stderr}")


def test_ruff_reads_the_projects_configuration():
    """Not vacuous: with the project's settings a file in the package gets the findings the rules promise.

    F401 (an unused import) and B905 (zip without strict) are selected rules; the line of 121 columns is
    over the project's 120, the line of 100 columns within it (ruff's default limit, 88, would flag both).
    """
    probe = ("import os\n\n"
             f"PAIRS = list(zip([1], [2]))  # {'x' * 69}\n"
             f"LONG = 1  # {'x' * 109}\n")
    assert [len(line) for line in probe.splitlines()[2:]] == [100, 121]
    completed = _check("--stdin-filename", "cvinference/_lint_probe.py", "-", stdin=probe)
    findings = re.findall(r"^cvinference/_lint_probe\.py:(\d+):\d+: (\w+)", completed.stdout, flags=re.M)
    assert completed.returncode == 1, completed.stdout + completed.stderr
    assert findings == [("1", "F401"), ("3", "B905"), ("4", "E501")], completed.stdout
