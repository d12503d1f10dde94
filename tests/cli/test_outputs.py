"""A command writes all of its outputs or changes no file (issue 13, item 15).

Before, ``--json`` was written in place: a failed write left a truncated file and destroyed a
valid report already there, and a failing ``--plot`` left the new JSON behind although the
command exited 2. Two options naming one file (``--json out.png --plot out.png``) are refused
before any fit, and ``--json -`` prints the JSON report to standard output instead of the text.
"""

import io
import json
import os
import subprocess
import sys
import textwrap

import pytest
from sklearn.model_selection import GridSearchCV

import cvinference.cli._commands as commands
import cvinference.cli._study as study
from cvinference.cli import main
from cvinference.cli._outputs import staged_outputs
from cvinference.evaluation import CVEvaluator

ARGV = ["evaluate", "nb", "--data", "iris", "--cv", "3", "--quiet"]


@pytest.mark.slow
def test_a_write_that_hits_the_file_size_limit_leaves_the_old_report_and_no_other_file(tmp_path):
    target = tmp_path / "report.json"
    target.write_text('{"old": true}')
    script = textwrap.dedent(f"""
        import resource, signal, sys
        from cvinference.cli import main
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))
        sys.exit(main({ARGV + ["--json", str(target)]!r}))
    """)
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 2, completed.stderr
    assert completed.stderr.startswith(f"cvinference: error: --json {target}: cannot write the report (")
    assert completed.stderr.count("\n") == 1
    assert target.read_text() == '{"old": true}'
    assert os.listdir(tmp_path) == ["report.json"]


def test_a_failing_plot_leaves_no_json_behind(tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib")

    def fail(report, path):
        with open(path, "wb") as stream:
            stream.write(b"half a png")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(commands, "plot_report", fail)
    status = main(ARGV + ["--json", str(tmp_path / "r.json"), "--plot", str(tmp_path / "f.png")], out=io.StringIO())
    assert status == 2
    assert "--plot" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


def test_outputs_that_succeed_are_all_moved_into_place_with_ordinary_permissions(tmp_path):
    pytest.importorskip("matplotlib")
    (tmp_path / "r.json").write_text("old")
    assert main(ARGV + ["--json", str(tmp_path / "r.json"), "--plot", str(tmp_path / "f.png")],
                out=io.StringIO()) == 0
    assert sorted(os.listdir(tmp_path)) == ["f.png", "r.json"]
    assert json.loads((tmp_path / "r.json").read_text())["command"] == "evaluate"
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "r.json").stat().st_mode & 0o777 == 0o666 & ~umask


def test_an_interruption_removes_the_staged_files(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        with staged_outputs() as stage:
            with open(stage(str(tmp_path / "a.json")), "w") as stream:
                stream.write("{}")
            raise KeyboardInterrupt
    assert os.listdir(tmp_path) == []


# --------------------------------------------------------------------------- clashing paths and "-"

COMMANDS = {
    "evaluate": ARGV,
    "compare": ["compare", "nb", "tree", "--data", "iris", "--cv", "3", "--quiet"],
    "select": ["select", "tree", "--grid", '{"max_depth": [1, 2]}', "--data", "iris", "--cv", "3", "--repeats", "1",
               "--quiet"],
    "study": ["study", "fold-size", "nb", "--data", "iris", "--sample-size", "40", "--draws", "2", "--cv", "2",
              "--quiet"],
}


def _no_fit(monkeypatch):
    """Make every command's fits fail the test: a refusal must come before them."""
    def no_fit(*args, **kwargs):
        raise AssertionError("a user mistake must be reported before any fit")

    monkeypatch.setattr(CVEvaluator, "evaluate", no_fit)
    monkeypatch.setattr(CVEvaluator, "compare", no_fit)
    monkeypatch.setattr(GridSearchCV, "fit", no_fit)
    monkeypatch.setattr(study, "_run", no_fit)


def _one_error_line(capsys):
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("cvinference: error: ") and captured.err.count("\n") == 1, captured.err
    return captured.err.rstrip("\n")


@pytest.mark.parametrize("command", COMMANDS)
def test_json_and_plot_naming_the_same_file_are_refused_before_any_fit(command, tmp_path, monkeypatch, capsys):
    _no_fit(monkeypatch)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    argv = [*COMMANDS[command], "--json", "sub/../out.png", "--plot", str(tmp_path / "out.png")]
    assert main(argv, out=io.StringIO()) == 2
    line = _one_error_line(capsys)
    assert f"--json sub/../out.png and --plot {tmp_path / 'out.png'} name the same file" in line
    assert "give --plot a file name of its own" in line
    assert sorted(os.listdir(tmp_path)) == ["sub"]


def test_a_checkpoint_that_is_also_the_json_report_is_refused(tmp_path, monkeypatch, capsys):
    _no_fit(monkeypatch)
    target = tmp_path / "study.json"
    argv = [*COMMANDS["study"], "--checkpoint", str(target), "--json", str(target)]
    assert main(argv, out=io.StringIO()) == 2
    assert f"--json {target} and --checkpoint {target} name the same file" in _one_error_line(capsys)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("command", COMMANDS)
def test_plot_to_standard_output_is_refused(command, tmp_path, monkeypatch, capsys):
    _no_fit(monkeypatch)
    monkeypatch.chdir(tmp_path)
    assert main([*COMMANDS[command], "--plot", "-"], out=io.StringIO()) == 2
    line = _one_error_line(capsys)
    assert line == ("cvinference: error: --plot -: a PNG image cannot go to standard output (only --json can); "
                    "give a file name ending in .png")
    assert os.listdir(tmp_path) == []


def test_a_checkpoint_on_standard_output_is_refused(tmp_path, monkeypatch, capsys):
    _no_fit(monkeypatch)
    monkeypatch.chdir(tmp_path)
    assert main([*COMMANDS["study"], "--checkpoint", "-"], out=io.StringIO()) == 2
    assert _one_error_line(capsys).startswith("cvinference: error: --checkpoint -: ")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("quiet", [True, False], ids=["quiet", "not-quiet"])
def test_json_dash_prints_the_json_report_alone_the_same_as_the_file(command, quiet, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = [arg for arg in COMMANDS[command] if quiet or arg != "--quiet"]
    assert main([*argv, "--quiet", "--json", "report.json"], out=io.StringIO()) == 0
    out = io.StringIO()
    assert main([*argv, "--json", "-"], out=out) == 0
    written = (tmp_path / "report.json").read_text(encoding="utf-8")
    assert out.getvalue() == written + "\n"  # the JSON and nothing else: no text report before or after it
    assert json.loads(out.getvalue()) == json.loads(written)
    assert os.listdir(tmp_path) == ["report.json"]  # no file named "-"


@pytest.mark.slow
def test_json_dash_of_the_demo_prints_no_introduction(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert main(["demo", "--cv", "3", "--repeats", "1", "--json", "-"], out=out) == 0
    assert json.loads(out.getvalue())["command"] == "compare"
    assert os.listdir(tmp_path) == []


def test_json_dash_with_a_plot_writes_the_figure_and_prints_the_json(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert main([*ARGV, "--json", "-", "--plot", "f.png"], out=out) == 0
    assert json.loads(out.getvalue())["command"] == "evaluate"
    assert os.listdir(tmp_path) == ["f.png"]
    assert (tmp_path / "f.png").read_bytes().startswith(b"\x89PNG")


def test_json_dash_prints_nothing_when_the_plot_fails(tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib")

    def fail(report, path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(commands, "plot_report", fail)
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert main([*ARGV, "--json", "-", "--plot", "f.png"], out=out) == 2
    assert out.getvalue() == ""
    assert "--plot" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []
