"""The command line: user mistakes exit with status 2 and one line, never a traceback."""

import io
import os
import pathlib
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


def test_demo_with_other_folds_and_seed():
    out = io.StringIO()
    assert main(["demo", "--cv", "5", "--seed", "3"], out=out) == 0
    text = out.getvalue()
    assert "569 instances; 5-fold cross-validation, 5 repeats" in text and "random_state=3" in text


def _cpu_seconds(pid):
    """The CPU seconds process ``pid`` has used (Linux's /proc/PID/stat: utime and stime, fields 14 and 15)."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_ctrl_c_prints_one_line_and_exits_130():
    """Issue 13, item 5: Ctrl-C printed a 55-67 line traceback and exited -2."""
    import resource
    import signal
    import subprocess
    import time

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "import cvinference.cli"], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    import_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    command = [sys.executable, "-m", "cvinference", "evaluate", "rf", "--data", "breast_cancer", "--cv", "loo"]
    # A terminal's default for SIGINT: an ignored signal is inherited, and a library of an earlier test may have
    # left this process ignoring it (Python then starts without its KeyboardInterrupt handler).
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONWARNINGS": "ignore"},
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # Past the imports (an interrupt during them is Python's own, issue 28): the process's own CPU time, not
    # the wall clock, says when, so a loaded machine cannot make the signal arrive early. 569 forest fits take
    # far longer than the two seconds of fits waited for.
    if pathlib.Path(f"/proc/{process.pid}/stat").exists():
        deadline = time.monotonic() + 300
        while process.poll() is None and _cpu_seconds(process.pid) < import_cpu + 2 and time.monotonic() < deadline:
            time.sleep(0.1)
    else:
        time.sleep(4 + 4 * import_cpu)
    assert process.poll() is None, "the command ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, f"exit {process.returncode}; standard error ends: {stderr[-1500:]!r}"
    assert stderr == "cvinference: interrupted\n" and stdout == ""
