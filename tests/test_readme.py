"""The README's quick start and Python example stay true."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from test_docs import _pattern  # the docs pages' excerpt convention ("..." lines), for the README too

README = Path(__file__).resolve().parents[1] / "README.md"


def _blocks(language):
    return re.findall(rf"^```{language}\n(.*?)^```", README.read_text(), flags=re.S | re.M)


def test_quick_start_has_exactly_two_commands_demo_then_tests():
    commands = [line for line in _blocks("bash")[0].splitlines() if line.strip() and not line.startswith("#")]
    assert len(commands) == 2
    assert "cvinference demo" in commands[0]
    assert "pytest" in commands[1]


def test_python_example_runs(capsys):
    exec(compile(_blocks("python")[0], str(README), "exec"), {})
    printed = capsys.readouterr().out
    assert "569 instances; 10-fold cross-validation" in printed
    assert "r_Aj" in printed
    assert "decision: A better (accuracy" in printed  # the front door's compare ran the calibrated route itself


@pytest.mark.slow
def test_demo_command_runs_and_prints_both_tables():
    completed = subprocess.run([sys.executable, "-m", "cvinference", "demo"], capture_output=True, text=True,
                               check=True)
    rows = re.findall(r"^\s+(\d+)\s+(\d+)\s+\d+\s+[\d.]+\s+\d+\s+[\d.]+\s+[+-][\d.]+\s+(?:yes|NO)$", completed.stdout,
                      flags=re.M)
    # breast_cancer has 569 = 10 * 56 + 9 instances: folds 0-8 hold 57, fold 9 holds 56.
    assert [(int(j), int(m)) for j, m in rows] == [(j, 57) for j in range(9)] + [(9, 56)]
    assert "A: logreg: StandardScaler + LogisticRegression" in completed.stdout and "McNemar" in completed.stdout
    assert "decision: A better (accuracy; A = logreg, B = tree)" in completed.stdout
    # The README's excerpt is the real output whole: every line as printed, "..." lines standing for the lines
    # left out (the convention of tests/test_docs.py).
    readme = README.read_text()
    start = readme.index("An excerpt of the demo's output:")
    opening = readme.index("```text\n", start) + len("```text\n")
    excerpt = readme[opening:readme.index("\n```", opening)] + "\n"
    assert excerpt.startswith("breast_cancer: 569 instances") and excerpt.count("\n") > 40
    assert _pattern(excerpt).search(completed.stdout), "README.md's demo excerpt differs from the demo's output"
