"""verbose=1: a progress line on standard error for calls that fit many models (issue 31, item 3).

The line must say how many fits are done of how many, and the time spent and left; it must not change a result.
"""

import contextlib
import io
import itertools
import re

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi
from cvinference._utils._progress import Progress, duration, is_terminal

X, Y = load_breast_cancer(return_X_y=True)
LINE = re.compile(r"fits (\d+)/(\d+), \d+ s elapsed, about \d+ s left")


def last_line(text):
    """The last update: on a terminal the one drawn after the last carriage return, elsewhere the last line."""
    return text.rstrip("\n").split("\r")[-1].split("\n")[-1]


class Terminal(io.StringIO):
    """Standard error as a terminal: ``isatty()`` is True."""

    def isatty(self):
        return True


def ticking_clock(monkeypatch, step):
    """``time.perf_counter`` as the progress module reads it, advancing ``step`` seconds per reading."""
    ticks = itertools.count()
    monkeypatch.setattr("cvinference._utils._progress.time.perf_counter", lambda: next(ticks) * step)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_nested_cv_reports_its_fits_and_returns_the_same_record(capsys, n_jobs):
    quiet = cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y, n_splits=4, n_repeats=3, random_state=0,
                                                   n_jobs=n_jobs)
    assert capsys.readouterr().err == ""
    shown = cvi.evaluation.nested_cross_validation(GaussianNB(), X, Y, n_splits=4, n_repeats=3, random_state=0,
                                                   n_jobs=n_jobs,
                                                   verbose=1)
    err = capsys.readouterr().err
    match = LINE.fullmatch(last_line(err))
    assert match and match.group(1) == match.group(2) == str(shown.n_fits) and err.endswith("\n")
    np.testing.assert_array_equal(shown.outer, quiet.outer)
    np.testing.assert_array_equal(shown.inner, quiet.inner)


def test_the_evaluator_reports_the_fits_of_both_learners(capsys):
    pair = cvi.CVEvaluator(cv=5, n_repeats=2, random_state=0, verbose=1).compare(GaussianNB(), GaussianNB(), X, Y)
    match = LINE.fullmatch(last_line(capsys.readouterr().err))
    assert match and match.group(2) == "20" and pair.a.n_repeats == 2


def test_on_a_terminal_the_line_is_redrawn_at_most_twice_a_second_and_at_the_end(monkeypatch):
    """1000 steps 0.01 s apart (10 s): a redraw at most every 0.5 s is at most 21, plus the last."""
    ticking_clock(monkeypatch, 0.01)
    terminal = Terminal()
    with contextlib.redirect_stderr(terminal):
        progress = Progress(1000, verbose=1, unit="fits", label="K=3")
        for _ in range(1000):
            progress.step()
    err = terminal.getvalue()
    drawn = err.count("\r")
    assert 2 <= drawn <= 22 and err.count("\n") == 1 and err.endswith("\n")
    assert last_line(err).startswith("K=3: fits 1000/1000, ")


def test_written_to_a_file_each_update_is_a_line_and_a_log_is_not_flooded(monkeypatch, tmp_path):
    """Not a terminal (issue 58): no carriage return, one line per update; 1000 steps 0.05 s apart (50 s) give at
    most one line every 10 s (6) and the last."""
    ticking_clock(monkeypatch, 0.05)
    with open(tmp_path / "log.txt", "w") as log, contextlib.redirect_stderr(log):
        progress = Progress(1000, verbose=1, unit="fits", label="K=3")
        for _ in range(1000):
            progress.step()
    lines = (tmp_path / "log.txt").read_text().splitlines()
    assert "\r" not in (tmp_path / "log.txt").read_text()
    assert 2 <= len(lines) <= 7 and lines[0].startswith("K=3: fits 1/1000, ")
    assert lines[-1].startswith("K=3: fits 1000/1000, ")
    assert all(LINE.fullmatch(line.removeprefix("K=3: ")) for line in lines)
    assert [int(LINE.fullmatch(line.removeprefix("K=3: ")).group(1)) for line in lines] == sorted(
        int(LINE.fullmatch(line.removeprefix("K=3: ")).group(1)) for line in lines)


def test_the_evaluators_progress_in_a_log_file_is_one_line_per_update(tmp_path):
    """The reproduction: CVEvaluator(verbose=1) with standard error written to a file."""
    with open(tmp_path / "log.txt", "w") as log, contextlib.redirect_stderr(log):
        cvi.CVEvaluator(cv=5, random_state=0, verbose=1).evaluate(GaussianNB(), X, Y)
    text = (tmp_path / "log.txt").read_text()
    assert "\r" not in text and text.endswith("\n")
    assert all(LINE.fullmatch(line) for line in text.splitlines())
    assert LINE.fullmatch(text.splitlines()[-1]).group(1) == "5"


def test_a_stream_without_isatty_is_not_a_terminal_and_a_jupyter_cell_is_one():
    assert not is_terminal(object()) and is_terminal(Terminal()) and not is_terminal(io.StringIO())
    closed = io.StringIO()
    closed.close()
    assert not is_terminal(closed)
    cell = type("OutStream", (io.StringIO,), {"__module__": "ipykernel.iostream"})()  # isatty() is False there
    assert is_terminal(cell)


def test_a_resumed_call_extrapolates_from_this_calls_units_only(capsys, monkeypatch):
    """8 of 10 draws were done before (a checkpoint); the 9th takes 4 s here, so 1 left takes about 4 s."""
    clock = iter([100.0, 104.0, 108.0])
    monkeypatch.setattr("cvinference._utils._progress.time.perf_counter", lambda: next(clock))
    progress = Progress(10, verbose=1, done=8, unit="draws")
    progress.step()
    assert last_line(capsys.readouterr().err) == "draws 9/10, 4 s elapsed, about 4 s left"


@pytest.mark.parametrize(("seconds", "words"), [(12.4, "12 s"), (90, "1.5 min"), (5400, "1.5 h")])
def test_durations_in_words(seconds, words):
    assert duration(seconds) == words


@pytest.mark.parametrize(("call", "fits"), [
    (lambda verbose: cvi.conservative_z_interval(GaussianNB(), X, Y, n_pairs=2, n_rounds=3, random_state=0,
                                                 verbose=verbose), 3 * (2 * 2 + 1)),
    (lambda verbose: cvi.bootstrap_accuracy(GaussianNB(), X, Y, n_bootstraps=8, random_state=0, verbose=verbose),
     8 + 1),
])
def test_the_subsampling_and_bootstrap_intervals_report_their_fits(capsys, call, fits):
    """J (2 M + 1) fits for the conservative Z (Nadeau & Bengio 2003), B + 1 for the bootstrap (Efron 1983)."""
    quiet = call(0)
    assert capsys.readouterr().err == ""
    shown = call(1)
    match = LINE.fullmatch(last_line(capsys.readouterr().err))
    assert match and match.group(1) == match.group(2) == str(fits)
    assert (shown.estimate, shown.low, shown.high) == (quiet.estimate, quiet.low, quiet.high)
