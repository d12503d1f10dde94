"""verbose=1: a progress line on standard error for calls that fit many models (issue 31, item 3).

The line must say how many fits are done of how many, and the time spent and left; it must not change a result.
"""

import re

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB

import cvinference as cvi
from cvinference._utils._progress import Progress, duration

X, Y = load_breast_cancer(return_X_y=True)
LINE = re.compile(r"fits (\d+)/(\d+), \d+ s elapsed, about \d+ s left")


def last_line(text):
    """The line as a terminal shows it once the call has returned: the last one drawn after a carriage return."""
    return text.rstrip("\n").split("\r")[-1]


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


def test_the_line_is_redrawn_at_most_twice_a_second_and_at_the_end(capsys):
    progress = Progress(1000, verbose=1, unit="fits", label="K=3")
    for _ in range(1000):
        progress.step()
    err = capsys.readouterr().err
    drawn = err.count("\r")
    assert 1 <= drawn < 10 and last_line(err).startswith("K=3: fits 1000/1000, ") and err.endswith("\n")


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
