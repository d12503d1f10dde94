"""A command writes all of its outputs or changes no file (issue 13, item 15).

Before, ``--json`` was written in place: a failed write left a truncated file and destroyed a
valid report already there, and a failing ``--plot`` left the new JSON behind although the
command exited 2.
"""

import io
import json
import os
import subprocess
import sys
import textwrap

import pytest

import cvinference.cli._commands as commands
from cvinference.cli import main
from cvinference.cli._outputs import staged_outputs

ARGV = ["evaluate", "nb", "--data", "iris", "--cv", "3", "--quiet"]


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
