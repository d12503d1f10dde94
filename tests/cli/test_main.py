"""The command line: user mistakes exit with status 2 and one line, never a traceback."""

import io
import subprocess
import sys

import pytest

from cvinference.cli import main


@pytest.mark.parametrize("argv, message", [
    ([], "a command is required"),
    (["fly"], "invalid choice: 'fly'"),
    (["demo", "--cv", "zero"], "expected an integer number of folds or 'loo', got 'zero'"),
    (["demo", "--cv", "1"], "cross-validation needs at least 2 folds, got 1"),
    (["demo", "--cv", "600"], "--cv 600 is more folds than the 569 instances of breast_cancer"),
    (["demo", "--seed", "x"], "argument --seed: expected an integer from 0 to 2**32 - 1, got 'x'"),
    (["demo", "--seed", "-1"], "argument --seed: expected an integer from 0 to 2**32 - 1, got '-1'"),
    (["demo", "--n-jobs", "0"], "expected a non-zero integer (-1 for all cores), got '0'"),
])
def test_user_mistakes_exit_2_with_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cvinference: error: ")
    assert message in err


def test_user_mistake_through_the_console_entry_point_has_no_traceback():
    completed = subprocess.run([sys.executable, "-m", "cvinference", "demo", "--cv", "1"], capture_output=True,
                               text=True)
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr
    assert completed.stderr.strip() == (
        "cvinference: error: argument --cv: cross-validation needs at least 2 folds, got 1"
    )


@pytest.mark.parametrize("argv", [["--help"], ["evaluate", "--help"], ["study", "conditional", "--help"]])
def test_help_imports_neither_scikit_learn_nor_scipy(argv):
    """Issue 31, item 4: --help waited some 1.5 s for every layer and scikit-learn to be imported; the
    packages now import a name's module when it is first used, and the arguments are parsed first."""
    completed = subprocess.run([sys.executable, "-X", "importtime", "-m", "cvinference", *argv], capture_output=True,
                               text=True)
    assert completed.returncode == 0 and completed.stdout.startswith("usage: cvinference")
    imported = {line.rsplit("|", 1)[1].strip() for line in completed.stderr.splitlines()
                if line.startswith("import time:")}
    assert "cvinference.cli._main" in imported
    assert not sorted(name for name in imported if name.split(".")[0] in {"sklearn", "scipy", "joblib"})


def test_an_internal_error_exits_1_with_one_line_or_the_traceback_on_request(monkeypatch, capsys):
    import cvinference.cli._main as cli

    def broken(*args, **kwargs):
        raise RuntimeError("simulated failure")

    monkeypatch.setattr(cli, "_demo_estimators", broken)
    assert main(["demo"]) == 1
    err = capsys.readouterr().err
    assert err == "cvinference: internal error: RuntimeError: simulated failure (rerun with --traceback for details)\n"
    with pytest.raises(RuntimeError, match="simulated failure"):
        main(["--traceback", "demo"])


@pytest.mark.slow
def test_demo_with_other_folds_and_seed():
    out = io.StringIO()
    assert main(["demo", "--cv", "5", "--seed", "3"], out=out) == 0
    text = out.getvalue()
    assert "569 instances; 5-fold cross-validation, 5 repeats" in text and "random_state=3" in text
