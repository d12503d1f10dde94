"""The command line's commands end to end: mistakes, reports (text, JSON, PNG), quiet, progress, demo.

Every command runs in-process through ``cvinference.cli.main(argv, out=...)``; a
subprocess is used only where the console entry point or the process itself
matters. The runs are small (iris, wine, a 60-row CSV, 3 or 5 folds) and each
report is computed once per module and shared by the tests that read it.
"""

import importlib
import io
import json
import math
import re
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from command_line import one_error_line, run

import cvinference as cvi
import cvinference.cli._commands as commands
import cvinference.workflows._compare as front_compare
from cvinference._utils._text import format_pvalue
from cvinference.cli import main
from cvinference.evaluation import CVEvaluator
from cvinference.report import render_text
from cvinference.report._report import WIDTH

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def mixed_csv(path, rows=60):
    """A CSV with a categorical column, two numeric ones with missing cells, and string labels."""
    rng = np.random.default_rng(0)
    lines = ["color,size,weight,label"]
    for i in range(rows):
        size = "" if i % 11 == 4 else f"{rng.normal() + (i % 2):.3f}"
        weight = "NA" if i % 13 == 6 else f"{rng.normal():.3f}"
        lines.append(f"{('red', 'blue', 'green')[i % 3]},{size},{weight},{('no', 'yes')[i % 2]}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------------------
# Reports computed once and shared (each is (argv, status, text, json dict)).


class Run:
    def __init__(self, argv, status, text, report, stdout=None):
        self.argv, self.status, self.text, self.report = argv, status, text, report
        self.stdout = text if stdout is None else stdout


def _run_with_json(argv, directory, name):
    path = directory / f"{name}.json"
    status, text = run([*argv, "--json", str(path)])
    report = json.loads(path.read_text(encoding="utf-8"), parse_constant=_no_constants) if status == 0 else None
    return Run(argv, status, text, report)


def _no_constants(name):
    raise AssertionError(f"the JSON holds {name}, which is not valid JSON")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("cli_commands")


@pytest.fixture(scope="module")
def csv_file(workdir):
    return mixed_csv(workdir / "mixed.csv")


RUNS = {
    "evaluate_iris": ["evaluate", "nb", "--data", "iris", "--cv", "5"],
    "evaluate_wine_repeats": ["evaluate", "logreg", "--data", "wine", "--cv", "3", "--repeats", "2",
                              "--loss", "log_loss", "--metric", "f1_macro"],
    "compare_iris": ["compare", "logreg", "tree", "--data", "iris", "--cv", "5", "--repeats", "2"],
    "compare_wine": ["compare", "knn", "nb", "--data", "wine", "--cv", "3"],
    "compare_csv": ["compare", "logreg", "tree", "--data", "{csv}", "--target", "label", "--impute", "--cv", "3"],
    "evaluate_csv": ["evaluate", "nb", "--data", "{csv}", "--target", "label", "--impute", "--cv", "5"],
    "compare_loo": ["compare", "nb", "tree", "--data", "iris", "--cv", "loo"],
    "evaluate_loo": ["evaluate", "nb", "--data", "wine", "--cv", "loo"],
}


@pytest.fixture(scope="module")
def runs(workdir, csv_file):
    cache = {}

    def get(name):
        if name not in cache:
            argv = [csv_file if arg == "{csv}" else arg for arg in RUNS[name]]
            cache[name] = _run_with_json(argv, workdir, name)
        return cache[name]

    return get


@pytest.fixture(scope="module")
def demo(workdir):
    """The demo with its default options, run once."""
    path = workdir / "demo.json"
    status, stdout = run(["demo", "--json", str(path)])
    report = json.loads(path.read_text(encoding="utf-8"), parse_constant=_no_constants)
    _, _, text = stdout.partition("\nbreast_cancer: ")
    return Run(["demo"], status, "breast_cancer: " + text, report, stdout=stdout)


# ---------------------------------------------------------------------------
# 1. User mistakes: status 2, one line naming the value and the fix, nothing on stdout


USER_MISTAKES = [
    (["evaluate", "nb", "--data", "iris", "--cv", "0"], ["--cv", "got 0", "at least 2 folds"]),
    (["evaluate", "nb", "--data", "iris", "--cv", "1"], ["--cv", "got 1", "at least 2 folds"]),
    (["evaluate", "nb", "--data", "iris", "--cv", "x"], ["--cv", "got 'x'", "integer number of folds or 'loo'"]),
    (["evaluate", "nb", "--data", "iris", "--cv", "151"],
     ["--cv 151 is more folds than the 150 instances of iris", "use 2 to 150, or --cv loo"]),
    (["compare", "nb", "tree", "--data", "wine", "--cv", "200"],
     ["--cv 200 is more folds than the 178 instances of wine", "use 2 to 178, or --cv loo"]),
    (["evaluate", "nb", "--data", "{tmp}/missing.csv", "--target", "y"],
     ["--data {tmp}/missing.csv: no such file", "check the path"]),
    (["evaluate", "nb", "--data", "{csv}"],
     ["--target is required with a CSV file", "one of: color, size, weight, label"]),
    (["evaluate", "nb", "--data", "{csv}", "--target", "lable", "--impute"],
     ["--target lable: no such column", "did you mean 'label'?", "its columns are: color, size, weight, label"]),
    (["evaluate", "nb", "--data", "{csv}", "--target", "label"],
     ["missing feature values", "size (6), weight (5)", "pass --impute"]),
    (["evaluate", "lgreg", "--data", "iris"],
     ["unknown estimator 'lgreg'", "did you mean 'logreg'?", "logreg, tree, nb, knn, svm, rf, gb, dummy"]),
    (["compare", "nb", "forest", "--data", "iris"], ["unknown estimator 'forest'", "or the dotted path"]),
    (["evaluate", "sklearn.ensemble.ExtraTreeClassifier", "--data", "iris"],
     ["'sklearn.ensemble.ExtraTreeClassifier'", "has no attribute 'ExtraTreeClassifier'",
      "did you mean 'ExtraTreesClassifier'?"]),
    (["evaluate", "nosuch.module.Classifier", "--data", "iris"],
     ["'nosuch.module.Classifier'", "cannot import module 'nosuch.module'", "check the spelling"]),
    (["evaluate", "sklearn.linear_model.LinearRegression", "--data", "iris"],
     ["'sklearn.linear_model.LinearRegression' is a regressor", "sklearn.ensemble.ExtraTreesClassifier"]),
    (["compare", "nb", "sklearn.linear_model.LinearRegression", "--data", "iris"],
     ["'sklearn.linear_model.LinearRegression' is a regressor", "use an alias"]),
    (["evaluate", "logreg", "--data", "iris", "--params", "{C: 1}"],
     ["invalid JSON", "'{C: 1}'", "line 1 column 2", "write a JSON object"]),
    (["compare", "logreg", "tree", "--data", "iris", "--params-a", "{'C': 1}"],
     ["invalid JSON", "of 'logreg'", "\"{'C': 1}\"", "double quotes"]),
    (["compare", "logreg", "tree", "--data", "iris", "--params-b", '{"max_depth": 3,}'],
     ["invalid JSON", "of 'tree'", "'{\"max_depth\": 3,}'", "write a JSON object"]),
    (["evaluate", "logreg", "--data", "iris", "--params", '{"c": 1}'],
     ["estimator 'logreg' has no hyper-parameter 'c'", "did you mean 'C'?", "its hyper-parameters are: C,"]),
    (["compare", "logreg", "tree", "--data", "iris", "--params-b", '{"depth": 3}'],
     ["estimator 'tree' has no hyper-parameter 'depth'", "max_depth"]),
    (["evaluate", "nb", "--data", "iris", "--confidence", "1.5"],
     ["--confidence", "got '1.5'", "strictly between 0 and 1, such as 0.95"]),
    (["compare", "nb", "tree", "--data", "iris", "--repeats", "0"], ["--repeats", "got '0'", "positive integer"]),
    (["evaluate", "nb", "--data", "iris", "--repeats", "3", "--cv", "loo"],
     ["--repeats needs k-fold cross-validation", "drop --repeats or use --cv K"]),
    (["evaluate", "svm", "--data", "iris", "--loss", "brier"],
     ["--loss brier needs predicted probabilities", "svm has no predict_proba", "use --loss zero_one"]),
    (["compare", "nb", "svm", "--data", "iris", "--loss", "log_loss"],
     ["--loss log_loss", "svm has no predict_proba"]),
    (["evaluate", "nb", "--data", "iris", "--loss", "hinge"], ["--loss", "invalid choice: 'hinge'"]),
    (["evaluate", "logreg", "--data", "iris", "--cv", "loo", "--metric", "f1_macro"],
     ["--metric f1_macro is computed on each fold", "each of the 150 folds of iris holds a single instance",
      "such as --cv 10, or drop --metric"]),
    (["compare", "logreg", "tree", "--data", "iris", "--cv", "150", "--metric", "accuracy"],
     ["--metric accuracy is computed on each fold", "leave-one-out", "such as --cv 10, or drop --metric"]),
    (["evaluate", "nb", "--data", "wine", "--cv", "178", "--metric", "balanced_accuracy", "--metric", "f1_macro"],
     ["--metric balanced_accuracy", "178 folds of wine"]),
    (["evaluate", "svm", "--data", "breast_cancer", "--metric", "neg_log_loss"],
     ["--metric neg_log_loss needs predicted probabilities", "svm has no predict_proba", "such as logreg"]),
    (["compare", "nb", "sklearn.linear_model.RidgeClassifier", "--data", "breast_cancer", "--metric", "roc_auc",
      "--metric", "neg_brier_score"],
     ["--metric neg_brier_score needs predicted probabilities", "RidgeClassifier has no predict_proba"]),
    (["evaluate", "nb", "--data", "iris", "--metric", "roc_auc"],
     ["--metric roc_auc is for two classes", "iris has 3", "use roc_auc_ovr"]),
    (["evaluate", "nb", "--data", "iris", "--metric", "roc_aucc"],
     ["--metric roc_aucc: unknown", "roc_auc_ovr", "f1_macro"]),
]


def _fill(argv, tmp_path, csv_path):
    return [arg.replace("{tmp}", str(tmp_path)).replace("{csv}", csv_path) for arg in argv]


@pytest.mark.parametrize("argv, fragments", USER_MISTAKES, ids=lambda v: " ".join(v) if v and v[0] in (
    "evaluate", "compare") else None)
def test_user_mistakes_exit_2_with_one_line_naming_the_value_and_the_fix(argv, fragments, tmp_path, csv_file,
                                                                         capsys, monkeypatch):
    def no_fit(*args, **kwargs):
        raise AssertionError("a user mistake must be reported before any fit")

    monkeypatch.setattr(CVEvaluator, "evaluate", no_fit)
    monkeypatch.setattr(CVEvaluator, "compare", no_fit)
    status, text = run(_fill(argv, tmp_path, csv_file))
    line = one_error_line(capsys)
    assert status == 2, line
    assert text == ""
    for fragment in _fill(fragments, tmp_path, csv_file):
        assert fragment in line


def test_plot_to_an_unwritable_path_exits_2(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    target = tmp_path / "no such directory" / "figure.png"
    status, _ = run(["evaluate", "nb", "--data", "iris", "--cv", "3", "--plot", str(target)])
    line = one_error_line(capsys)
    assert status == 2
    assert f"--plot {target}" in line and "no such folder" in line and "existing folder" in line
    assert not target.exists()


def _csv_of(path, X, y):
    """Write features X and a ``target`` column y (every float as Python writes it) to ``path``."""
    rows = zip(X, y, strict=True)
    lines = ["a,b,c,target"] + [",".join(map(repr, [*map(float, row), y_value])) for row, y_value in rows]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _few_positives(tmp_path):
    """60 rows, 3 of class 1 (rows 6, 21 and 41): 10 stratified folds leave 7 without the class."""
    y = np.zeros(60, dtype=int)
    y[[5, 20, 40]] = 1
    return _csv_of(tmp_path / "few.csv", np.random.default_rng(0).normal(size=(60, 3)), y.tolist())


def _huge_target(tmp_path):
    """A regression target of about 1e200, whose squared errors overflow float64."""
    X = np.random.default_rng(0).normal(size=(60, 3))
    return _csv_of(tmp_path / "huge.csv", X, (X[:, 0] * 1e200).tolist())


@pytest.mark.parametrize("argv, fragments", [
    (["evaluate", "nb", "--data", "iris", "--cv", "3", "--metric", "roc_auc_ovo"],
     ["--metric roc_auc_ovo: roc_auc_ovo is a scikit-learn scorer", "does not compute", "roc_auc_ovr is the "
      "one-vs-rest AUC"]),
    (["evaluate", "nb", "--data", "{few}", "--target", "target", "--metric", "roc_auc"],
     ["--metric roc_auc is computed on every test fold", "would hold no instance of class(es) [1]",
      "(the 60 instances hold 3 of class 1); use --cv 3 or fewer folds"]),
    (["compare", "nb", "logreg", "--data", "{few}", "--target", "target", "--metric", "average_precision"],
     ["--metric average_precision is computed on every test fold", "use --cv 3 or fewer folds"]),
    (["evaluate", "linreg", "--data", "{huge}", "--target", "target", "--task", "regression"],
     ["--target target spreads over {spread}", "beyond the 1e+60", "divide the column by 1e+201"]),
    (["compare", "linreg", "ridge", "--data", "{huge}", "--target", "target", "--task", "regression"],
     ["--target target spreads over"]),
], ids=["roc_auc_ovo", "fold-without-class", "fold-without-class-compare", "huge-target", "huge-target-compare"])
def test_mistakes_the_fits_would_meet_are_refused_before_any_fit(argv, fragments, tmp_path, capsys, monkeypatch):
    """Issue 46: these exited 1 ("internal error") after every fit."""
    files = {"{few}": _few_positives(tmp_path), "{huge}": _huge_target(tmp_path)}

    def no_fit(*args, **kwargs):
        raise AssertionError("a user mistake must be reported before any fit")

    monkeypatch.setattr(CVEvaluator, "evaluate", no_fit)
    monkeypatch.setattr(CVEvaluator, "compare", no_fit)
    status, text = run([files.get(arg, arg) for arg in argv])
    line = one_error_line(capsys)
    assert status == 2 and text == "", line
    spread = np.ptp(np.random.default_rng(0).normal(size=(60, 3))[:, 0]) * 1e200  # _huge_target's max - min
    for fragment in fragments:
        assert fragment.replace("{spread}", f"{spread:.3g}") in line, line


@pytest.mark.parametrize("argv, fragments", [
    (["evaluate", "nb", "--data", "iris", "--cv", "3", "--json", "{tmp}/no such directory/report.json"],
     ["--json {tmp}/no such directory/report.json"]),
    (["evaluate", "nb", "--data", "iris", "--cv", "3", "--json", "{tmp}"], ["--json {tmp}"]),
    (["evaluate", "nb", "--data", "iris", "--cv", "3", "--metric", "f1"], ["--metric f1", "f1_macro"]),
    (["evaluate", "nb", "--data", "iris", "--cv", "3", "--metric", "bogus"], ["--metric bogus", "f1_macro"]),
], ids=["json-missing-dir", "json-is-dir", "binary-metric-multiclass", "unknown-metric"])
def test_other_user_mistakes_are_user_errors_too(argv, fragments, tmp_path, capsys):
    status, _ = run(_fill(argv, tmp_path, ""))
    line = capsys.readouterr().err.rstrip("\n")
    assert status == 2 and line.startswith("cvinference: error: ") and "\n" not in line, line
    for fragment in _fill(fragments, tmp_path, ""):
        assert fragment in line


@pytest.mark.slow
def test_console_script_reports_a_user_mistake_in_one_line():
    script = Path(sys.executable).with_name("cvinference")
    if not script.exists():
        pytest.skip("the cvinference console script is not installed next to this interpreter")
    completed = subprocess.run([str(script), "evaluate", "lgreg", "--data", "iris"], capture_output=True,
                               text=True, timeout=120)
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr.startswith("cvinference: error: unknown estimator 'lgreg' (did you mean 'logreg'?)")
    assert completed.stderr.count("\n") == 1


# ---------------------------------------------------------------------------
# 2. Internal errors: status 1 and one line; --traceback re-raises


class Boom(ValueError):
    pass


def _boom(*args, **kwargs):
    exc = Boom("simulated\nfailure inside")
    exc.add_note("a note")
    raise exc


@pytest.mark.parametrize("module, where, argv", [
    ("report._answer_report", "evaluation_report", ["evaluate", "nb", "--data", "iris", "--cv", "3"]),
    ("report._answer_report", "comparison_report", ["compare", "nb", "tree", "--data", "iris", "--cv", "3"]),
    ("workflows._answer", "render_text", ["evaluate", "nb", "--data", "iris", "--cv", "3"]),
])
def test_an_internal_error_exits_1_with_one_line(module, where, argv, monkeypatch, capsys):
    monkeypatch.setattr(importlib.import_module(f"cvinference.{module}"), where, _boom)
    status, text = run(argv)
    line = one_error_line(capsys, prefix="cvinference: internal error: ")
    assert status == 1 and text == ""
    assert line == ("cvinference: internal error: Boom: simulated failure inside a note "
                    "(rerun with --traceback for details)")
    with pytest.raises(Boom, match="simulated"):
        main(["--traceback", *argv], out=io.StringIO())


def test_an_internal_error_in_the_fits_exits_1(monkeypatch, capsys):
    monkeypatch.setattr(CVEvaluator, "compare", _boom)
    assert run(["compare", "nb", "tree", "--data", "iris", "--cv", "3"])[0] == 1
    assert "Boom: simulated failure inside" in one_error_line(capsys, prefix="cvinference: internal error: ")


def test_traceback_is_accepted_after_the_command_as_the_error_message_suggests(monkeypatch, capsys):
    # The one-line message says "rerun with --traceback"; appending it to the command should work.
    monkeypatch.setattr(importlib.import_module("cvinference.report._answer_report"), "evaluation_report", _boom)
    with pytest.raises(Boom):
        main(["evaluate", "nb", "--data", "iris", "--cv", "3", "--traceback"], out=io.StringIO())


# ---------------------------------------------------------------------------
# 3. Reports: sections and width


ESTIMATOR_INTERVALS = ["recommended (method='auto')", "dataset level, normal (Wong Theorem 1)",
                       "fold level, t (Wong 4.3.3)", "Wilson", "Clopper-Pearson (exact)"]


def _sections(text):
    return [line for line in text.splitlines() if line and not line.startswith(" ")]


def fold_rows(text):
    """The rows of the per-fold table as lists of cells (no cell holds a space but the last header)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("per fold"))
    rows = []
    for line in lines[start + 2:]:
        if not line.strip():
            break
        rows.append(line.split())
    return rows


@pytest.mark.parametrize("name, data, n, k", [
    ("evaluate_iris", "iris", 150, 5), ("evaluate_wine_repeats", "wine", 178, 3),
    ("evaluate_csv", "mixed.csv", 60, 5),
])
@pytest.mark.slow
def test_evaluate_report_sections(runs, name, data, n, k):
    result = runs(name)
    assert result.status == 0
    text = result.text
    first = text.splitlines()[0]
    assert first.startswith(f"{result.report['data']['name']}: {n} instances; {k}-fold cross-validation")
    assert result.report["data"]["name"].endswith(data)
    assert ("per fold (repeat 0)" if "--repeats" in result.argv else "per fold") in text.splitlines()
    rows = fold_rows(text)
    assert [row[0] for row in rows] == [str(j) for j in range(k)]
    assert sum(int(row[1]) for row in rows) == n
    assert "\nA: " in text and "\nB: " not in text and "tests of accuracy" not in text
    for interval in ESTIMATOR_INTERVALS:
        assert f"  {interval}  " in text
    assert "large-sample conditions: " in text
    assert "\nverdict: Accuracy " in text and "Vanwinckelen & Blockeel 2015" in text


@pytest.mark.slow
def test_evaluate_with_a_loss_and_a_metric_lists_their_intervals(runs):
    text = runs("evaluate_wine_repeats").text
    assert "mean log_loss, half-sample (Nedel'ko)" in text and "f1_macro, fold level t" in text
    assert "2 repeats" in text.splitlines()[0]


@pytest.mark.parametrize("name, tests", [
    ("compare_iris", ["matched-sample t (repeat 0)", "independent-sample z (repeat 0)", "McNemar (repeat 0)",
                      "corrected t (2x5-fold)", "5x2cv t"]),
    ("compare_wine", ["matched-sample t", "independent-sample z", "McNemar", "corrected t (1x3-fold)", "5x2cv t"]),
    ("compare_csv", ["matched-sample t", "independent-sample z", "McNemar", "corrected t (1x3-fold)", "5x2cv t"]),
    ("compare_loo", ["matched-sample t", "independent-sample z", "McNemar"]),
])
@pytest.mark.slow
def test_compare_report_sections(runs, name, tests):
    result = runs(name)
    assert result.status == 0
    text = result.text
    assert [t["name"] for t in result.report["tests"]] == tests
    assert "\nA: " in text and "\nB: " in text
    assert "tests of accuracy(A) = accuracy(B); A - B > 0 when A is more accurate" in text
    for test in tests:
        assert re.search(rf"^ *{re.escape(test)}  ", text, re.M), test
    assert "\nscheme independence: phi = " in text
    assert "\ndecision: " in text and "Vanwinckelen & Blockeel 2015" in text
    sections = _sections(text)
    order = [next(i for i, s in enumerate(sections) if s.startswith(prefix))
             for prefix in ("A: ", "B: ", "tests of accuracy", "scheme independence", "decision: ")]
    assert order == sorted(order)


@pytest.mark.slow
def test_loo_report_has_no_fold_table_and_no_fold_level_interval(runs):
    for name in ("compare_loo", "evaluate_loo"):
        text = runs(name).text
        assert "leave-one-out" in text.splitlines()[0]
        assert "per fold" not in text and "fold level, t" not in text
        assert "corrected t" not in text and "5x2cv" not in text


@pytest.mark.slow
@pytest.mark.parametrize("name", ["evaluate_iris", "compare_iris", "compare_loo", "evaluate_loo"])
def test_sections_are_separated_by_one_blank_line(name, runs):
    text = runs(name).text
    assert "\n\n\n" not in text, "an empty section leaves two blank lines in a row"


@pytest.mark.slow
def test_csv_report_shows_the_encoding_and_imputation_pipeline(runs):
    result = runs("compare_csv")
    descriptions = [record["description"] for record in result.report["estimators"].values()]
    assert descriptions[0].startswith("logreg: SimpleImputer(median; most_frequent for categorical) + "
                                      "OneHotEncoder(color) + StandardScaler(numeric) + LogisticRegression(")
    assert descriptions[1].endswith("DecisionTreeClassifier(random_state=0)")
    assert result.report["estimators"]["A"]["n_samples"] == 60


REPORTS = ["evaluate_iris", "evaluate_wine_repeats", "evaluate_csv", "compare_iris", "compare_wine",
           "compare_csv", "compare_loo", "evaluate_loo", "demo"]


def _get(name, runs, demo):
    return demo if name == "demo" else runs(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", REPORTS)
def test_every_printed_line_fits_100_columns(name, runs, demo):
    stdout = _get(name, runs, demo).stdout
    assert stdout.strip()
    too_long = [line for line in stdout.splitlines() if len(line) > 100]
    assert WIDTH == 100 and too_long == []


@pytest.mark.slow
@pytest.mark.parametrize("name", REPORTS)
def test_no_printed_line_is_cut_short(name, runs, demo):
    """Fitting 100 columns by wrapping, not by cutting the end of a line off."""
    stdout = _get(name, runs, demo).stdout
    cut = [line for line in stdout.splitlines() if len(line) == WIDTH and line.endswith("...")]
    assert cut == []
    header = " ".join(_get(name, runs, demo).text.split("\n\n")[0].split())
    assert header.endswith("% confidence")  # the header keeps its end even after a long CSV path
    for record in _get(name, runs, demo).report["estimators"].values():
        classifier = record["description"].rsplit(" + ", 1)[-1].split("(")[0]
        assert classifier in stdout


# ---------------------------------------------------------------------------
# 4. p-values


P_CELL = re.compile(r"^(p = (?:0\.\d{3}|1\.000)|p < 0\.001)$")


@pytest.mark.slow
def test_pvalues_are_printed_as_p_equals_or_p_less_than(runs, demo):
    for result in (runs("compare_iris"), runs("compare_csv"), demo):
        rows = test_table(result.text)
        assert len(rows) == len(result.report["tests"])
        for row, record in zip(rows, result.report["tests"], strict=True):
            assert P_CELL.match(row["p"]), row["p"]
            assert row["p"] == format_pvalue(record["pvalue"])
            if record["pvalue"] < 0.0005:
                assert row["p"] == "p < 0.001"
            else:
                assert row["p"] == f"p = {record['pvalue']:.3f}"
        assert not re.search(r"p = 0\.000|p = \d(\.\d+)?e-", result.stdout)
    # the demo has both kinds in the table, and the decision quotes its test's p-value the same way
    assert "p < 0.001" in demo.text and re.search(r"p = 0\.\d{3}", demo.text)
    assert re.search(r"p [=<] 0\.\d{3} \(nested-cv difference;", " ".join(demo.report["decision"]["text"].split()))


def test_format_pvalue_examples():
    assert [format_pvalue(p) for p in (0.0321, 0.0004, 0.0006, 0.5, 1.0)] == [
        "p = 0.032", "p < 0.001", "p = 0.001", "p = 0.500", "p = 1.000"]


# ---------------------------------------------------------------------------
# 5. JSON: schema, per-fold arrays, the same numbers as the text, round trip


TEST_ROW = re.compile(
    r"^\s*(?P<name>\S.*?)\s{2,}(?P<statistic>n/a|[-+]?[\d.]+(?:e[-+]?\d+)?)"
    r"(?:\s+(?P<df>[\d.]+(?:, [\d.]+)?))?\s+(?P<p>p [=<] (?:[\d.]+|nan))\s+(?P<estimate>[-+]\d+\.\d{4})"
    r"\s+(?P<interval>\[[-+]\d+\.\d{4}, [-+]\d+\.\d{4}\]|n/a)\s+(?P<conditions>hold|FAIL|not checked)$")


def test_table(text):
    """The rows of the terminal's table of tests, parsed into dicts of cells."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("tests of accuracy(A)"))
    assert lines[start + 1].split() == ["test", "statistic", "df", "2-sided", "p", "A", "-", "B", "interval",
                                        "conditions"]
    rows = []
    for line in lines[start + 2:]:
        match = TEST_ROW.match(line)
        if match is None:
            break
        rows.append(match.groupdict())
    return rows


test_table.__test__ = False


def _close(text, value, decimals):
    return value is not None and abs(float(text) - value) <= 0.5 * 10 ** -decimals + 1e-12


def _interval(text):
    low, high = text.strip("[]").split(", ")
    return float(low), float(high)


REQUIRED_TEST_KEYS = {"name", "pvalue", "statistic", "estimate", "low", "high", "df", "method",
                      "confidence_level", "conditions_hold"}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["evaluate_iris", "evaluate_wine_repeats", "compare_iris", "compare_csv",
                                  "compare_loo", "demo"])
def test_json_schema_and_per_fold_arrays(name, runs, demo):
    result = _get(name, runs, demo)
    report = result.report
    assert report["format"] == "cvinference.report"
    assert isinstance(report["version"], int) and report["version"] >= 1
    assert report["command"] == ("evaluate" if name.startswith("evaluate") else "compare")
    assert set(report["estimators"]) == ({"A"} if report["command"] == "evaluate" else {"A", "B"})
    assert report["confidence_level"] == 0.95
    if report["command"] == "evaluate":
        assert report["tests"] == [] and report["diagnostic"] is None
    else:
        assert report["tests"]
        for test in report["tests"]:
            assert REQUIRED_TEST_KEYS <= set(test)
            assert 0 <= test["pvalue"] <= 1 and test["low"] <= test["estimate"] <= test["high"]
        assert set(report["diagnostic"]) >= {"phi", "high", "note", "table"}
        table = report["diagnostic"]["table"]
        assert sum(table.values()) == report["data"]["n_samples"]
    n = report["data"]["n_samples"]
    for record in report["estimators"].values():
        folds = record["folds"]
        m, r, p = (np.asarray(folds[key], dtype=float) for key in ("m_j", "r_j", "p_j"))
        assert m.shape == r.shape == p.shape == (record["n_repeats"], record["n_splits"])
        assert np.all(m.sum(axis=1) == n) and np.all((0 <= r) & (r <= m))
        np.testing.assert_allclose(p, r / m)
        assert math.isclose(record["accuracy"], r.sum() / m.sum())
        assert len(folds["fold"]) == n
        assert sorted(set(folds["fold"])) == list(range(record["n_splits"]))
        for interval in record["intervals"]:
            assert {"name", "estimate", "low", "high", "method", "confidence_level"} <= set(interval)
    if "decision" in report:
        assert report["decision"]["answer"] in cvi.policy.ANSWERS and report["decision"]["text"]
    else:
        assert report["verdict"]["text"] and report["verdict"]["caveats"]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["compare_iris", "compare_wine", "compare_csv", "compare_loo", "demo"])
def test_every_number_of_the_tests_table_equals_the_json(name, runs, demo):
    result = _get(name, runs, demo)
    rows = test_table(result.text)
    records = result.report["tests"]
    assert [row["name"] for row in rows] == [record["name"] for record in records]
    for row, record in zip(rows, records, strict=True):
        statistic = record["statistic"]
        assert math.isclose(float(row["statistic"]), statistic, rel_tol=5e-4, abs_tol=5e-5), row
        assert row["statistic"] == f"{statistic:.4g}"
        if record["df_denominator"] is not None:
            assert [float(x) for x in row["df"].split(", ")] == [record["df"], record["df_denominator"]]
        elif record["df"] is None:
            assert row["df"] is None
        else:
            assert math.isclose(float(row["df"]), record["df"], rel_tol=5e-4)
        if row["p"] == "p < 0.001":
            assert record["pvalue"] < 0.001
        else:
            assert _close(row["p"].split()[-1], record["pvalue"], 3)
        assert _close(row["estimate"], record["estimate"], 4)
        low, high = _interval(row["interval"])
        assert _close(low, record["low"], 4) and _close(high, record["high"], 4)
        assert row["conditions"] == {True: "hold", False: "FAIL", None: "not checked"}[record["conditions_hold"]]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["evaluate_iris", "evaluate_wine_repeats", "compare_iris", "compare_csv",
                                  "evaluate_loo", "demo"])
def test_every_number_of_the_estimator_tables_equals_the_json(name, runs, demo):
    result = _get(name, runs, demo)
    text = result.text
    for label, record in result.report["estimators"].items():
        block = text.split(f"\n{label}: ", 1)[1].split("\n\n", 1)[0]
        accuracy = re.search(r"^  accuracy (\d\.\d{4}) \((\d+) of (\d+) tested instances correct\)", block, re.M)
        assert _close(accuracy.group(1), record["accuracy"], 4)
        assert int(accuracy.group(2)) == record["n_correct"]
        assert int(accuracy.group(3)) == record["n_tested"] == record["n_samples"] * record["n_repeats"]
        for interval in record["intervals"]:
            row = re.search(rf"^ +{re.escape(interval['name'])}  +(-?\d+\.\d{{4}})  +(\[[^\]]+\])  +(\w+)$",
                            block, re.M)
            assert row, interval["name"]
            assert row.group(3) == interval["target"]
            assert _close(row.group(1), interval["estimate"], 4)
            low, high = _interval(row.group(2))
            assert _close(low, interval["low"], 4) and _close(high, interval["high"], 4)
    if "per fold" in text:
        rows = fold_rows(text)
        records = list(result.report["estimators"].values())
        for j, row in enumerate(rows):
            assert int(row[1]) == records[0]["folds"]["m_j"][0][j]
            for k, record in enumerate(records):
                assert int(row[2 + 2 * k]) == record["folds"]["r_j"][0][j]
                assert _close(row[3 + 2 * k], record["folds"]["p_j"][0][j], 4)
            if len(records) == 2:
                a, b = (rec["folds"]["p_j"][0][j] for rec in records)
                assert _close(row[6], a - b, 4)
    diagnostic = result.report["diagnostic"]
    if diagnostic is not None:
        assert f"scheme independence: phi = {diagnostic['phi']:.2f}" in text


@pytest.mark.slow
@pytest.mark.parametrize("name", REPORTS)
def test_json_round_trips_to_the_printed_report(name, runs, demo):
    result = _get(name, runs, demo)
    assert render_text(result.report) + "\n" == result.text
    again = json.loads(json.dumps(result.report, allow_nan=False))
    assert again == result.report


def test_json_follows_the_confidence_level(tmp_path):
    path = tmp_path / "r.json"
    status, text = run(["compare", "nb", "tree", "--data", "iris", "--cv", "3", "--confidence", "0.9",
                        "--json", str(path)])
    report = json.loads(path.read_text())
    assert status == 0 and report["confidence_level"] == 0.9 and "; 90% confidence" in text.splitlines()[0]
    assert all(test["confidence_level"] == 0.9 for test in report["tests"])
    assert all(i["confidence_level"] == 0.9 for r in report["estimators"].values() for i in r["intervals"])
    assert report["decision"]["confidence_level"] == 0.9


# ---------------------------------------------------------------------------
# 6. PNG


def _png_size(data):
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("argv", [
    ["evaluate", "nb", "--data", "iris", "--cv", "3"],
    ["compare", "nb", "tree", "--data", "wine", "--cv", "3"],
    ["compare", "nb", "tree", "--data", "iris", "--cv", "3", "--repeats", "2"],
])
def test_plot_writes_a_png(argv, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "figure.png"
    status, text = run([*argv, "--plot", str(path)])
    assert status == 0 and ("verdict:" in text if argv[0] == "evaluate" else "decision:" in text)
    data = path.read_bytes()
    width, height = _png_size(data)
    assert width > height > 100 and len(data) > 10_000


def test_plot_without_matplotlib_exits_2_with_a_hint(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    path = tmp_path / "figure.png"
    status, _ = run(["compare", "nb", "tree", "--data", "iris", "--cv", "3", "--plot", str(path)])
    line = one_error_line(capsys)
    assert status == 2 and not path.exists()
    assert line == "cvinference: error: --plot needs matplotlib; install it with pip install 'cvinference[plot]'"


# ---------------------------------------------------------------------------
# 7. Quiet and progress


class _TTY(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.slow
def test_quiet_prints_nothing_but_still_writes_the_json(tmp_path, capsys, runs):
    path = tmp_path / "q.json"
    argv = list(RUNS["compare_wine"])
    status, text = run([*argv, "--quiet", "--json", str(path)])
    captured = capsys.readouterr()
    assert status == 0 and text == "" and captured.out == "" and captured.err == ""
    assert json.loads(path.read_text()) == runs("compare_wine").report


def test_quiet_demo_prints_nothing(monkeypatch, capsys):
    def fake_compare(args, dataset, estimators, descriptions, out, names=None):
        assert args.quiet
        return 0

    monkeypatch.setattr(commands, "compare_estimators", fake_compare)
    status, text = run(["demo", "--quiet"])
    assert status == 0 and text == "" and capsys.readouterr().out == ""


@pytest.mark.parametrize("argv, expected, fits", [
    (["evaluate", "nb", "--data", "iris", "--cv", "3", "--repeats", "2"],
     ["fitting nb: GaussianNB() on 2 x 3 folds (6 fits, 0.6 times one 10-fold cross-validation; no budget set)"],
     [6]),
    # N = 150: nested CV's difference exceeded 0.06 in a cell that stands for these learners, so auto skips it, and
    # the plan (one planner, issue 59) counts no route it would not run
    (["compare", "nb", "tree", "--data", "iris", "--cv", "3"],
     ["plan: at most 26 fits (1.3 times one 10-fold cross-validation; no budget set): 6 for the cross-validation, "
      "20 for 5x2cv",
      "fitting A and B on 1 x 3 identical folds (6 fits)", "fitting A and B for 5x2cv (20 fits)"], [6]),
    (["compare", "nb", "tree", "--data", "iris", "--cv", "3", "--nested", "always"],
     ["plan: at most 176 fits (8.8 times one 10-fold cross-validation; no budget set): 6 for the cross-validation, "
      "20 for 5x2cv, 150 for nested cross-validation",
      "fitting A and B on 1 x 3 identical folds (6 fits)", "fitting A and B for 5x2cv (20 fits)",
      "fitting A and B for nested cross-validation (5 x 5 folds, 150 fits)"], [6, 150]),
    (["compare", "nb", "tree", "--data", "iris", "--cv", "5", "--repeats", "5", "--nested", "always"],
     ["plan: at most 170 fits (8.5 times one 10-fold cross-validation; no budget set): 50 for the "
      "cross-validation, 20 for 5x2cv, 100 for nested cross-validation",
      "fitting A and B on 5 x 5 identical folds (50 fits)", "fitting A and B for 5x2cv (20 fits)",
      "fitting A and B for nested cross-validation (5 x 5 folds, 100 fits; the outer fits are those of the folds "
      "above)"], [50, 100]),
    (["compare", "nb", "tree", "--data", "iris", "--cv", "3", "--budget", "10"],
     ["plan: at most 6 fits (0.3 times one 10-fold cross-validation; budget 10 fits): 6 for the cross-validation",
      "fitting A and B on 1 x 3 identical folds (6 fits)"], [6]),
    (["select", "tree", "--data", "iris", "--grid", '{"max_depth": [1, 2, 3]}', "--cv", "3", "--repeats", "2"],
     ["fitting 3 candidates on 2 x 3 folds (18 fits)"], [18]),
])
def test_progress_goes_to_a_terminal_stderr_only_and_never_under_quiet(argv, expected, fits, monkeypatch):
    """Each batch is announced on a line of its own; the evaluator's and nested CV's fits are then counted on a
    line redrawn after carriage returns (the library's verbose=1), which ends at "fits n/n"."""
    stderr = _TTY()
    monkeypatch.setattr(sys, "stderr", stderr)
    status, text = run(argv)
    assert status == 0
    lines = stderr.getvalue().rstrip("\n").split("\n")  # not splitlines(), which splits at the "\r" too
    assert [line for line in lines if not line.startswith("\r")] == [f"cvinference: {line}" for line in expected]
    counted = [re.fullmatch(r"fits (\d+)/(\d+), \d+ s elapsed, about \d+ s left", line.split("\r")[-1])
               for line in lines if line.startswith("\r")]
    assert all(counted) and [(int(m.group(1)), int(m.group(2))) for m in counted] == [(n, n) for n in fits]
    assert "cvinference: fitting" not in text and not re.search(r"fits \d+/\d+", text)  # never in the report

    quiet = _TTY()
    monkeypatch.setattr(sys, "stderr", quiet)
    assert run([*argv, "--quiet"]) == (0, "")
    assert quiet.getvalue() == ""

    piped = io.StringIO()  # not a terminal
    monkeypatch.setattr(sys, "stderr", piped)
    assert run(argv) == (0, text)
    assert piped.getvalue() == ""


@pytest.mark.slow
def test_quiet_process_writes_nothing_to_stderr_either(tmp_path):
    # more folds than the smallest class has members: the splitter's UserWarning must not reach a
    # terminal under --quiet ("print nothing but errors")
    completed = subprocess.run(
        [sys.executable, "-m", "cvinference", "evaluate", "nb", "--data", "iris", "--cv", "60", "--quiet",
         "--json", str(tmp_path / "r.json")], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0 and (tmp_path / "r.json").exists()
    assert completed.stdout == "" and completed.stderr == ""


# ---------------------------------------------------------------------------
# 8. Same seed, same report, whatever the number of jobs


def test_same_seed_gives_the_same_json_for_one_and_two_jobs(tmp_path):
    argv = ["compare", "rf", "nb", "--data", "iris", "--cv", "3", "--repeats", "2", "--params-a",
            '{"n_estimators": 5}', "--quiet"]
    texts = {}
    for seed, jobs in (("4", "1"), ("4", "2"), ("5", "1")):
        path = tmp_path / f"s{seed}j{jobs}.json"
        assert run([*argv, "--seed", seed, "--n-jobs", jobs, "--json", str(path)]) == (0, "")
        texts[seed, jobs] = path.read_text()
    assert texts["4", "1"] == texts["4", "2"]
    assert texts["4", "1"] != texts["5", "1"]  # the seed matters, so the equality above says something


# ---------------------------------------------------------------------------
# 9. The demo


@pytest.mark.slow
def test_demo_prints_every_test_the_phi_note_and_a_verdict_with_caveats(demo):
    assert demo.status == 0
    stdout, text, report = demo.stdout, demo.text, demo.report
    assert stdout.startswith("cvinference demo: scaled logistic regression (A) against a decision tree (B)")
    assert "breast_cancer: 569 instances; 10-fold cross-validation, 5 repeats; 95% confidence" in text
    assert "A: logreg: StandardScaler + LogisticRegression(max_iter=1000)" in text
    assert "B: tree: DecisionTreeClassifier(random_state=0)" in text
    for name in ("dataset level, normal (Wong Theorem 1)", "fold level, t (Wong 4.3.3)"):
        assert text.count(f"  {name}  ") == 2
    assert "r_j, m_j - r_j >= 5" in text and "large-sample conditions: " in text
    names = [t["name"] for t in report["tests"]]
    assert names == ["matched-sample t (repeat 0)", "independent-sample z (repeat 0)", "McNemar (repeat 0)",
                     "corrected t (5x10-fold)", "5x2cv t"]
    assert [row["name"] for row in test_table(text)] == names
    assert report["tests"][4]["df"] == 5 and report["tests"][3]["df"] == 49
    phi = report["diagnostic"]["phi"]
    assert f"scheme independence: phi = {phi:.2f}" in text
    notes = " ".join(text[text.index("\nnotes:") + 1:text.index("\ndecision: ")].split())
    assert "scheme independence" in notes and f"phi = {phi:.2f}" in notes
    assert "Vanwinckelen & Blockeel" in notes and "not how it would do on another dataset" in notes
    decision = " ".join(text[text.index("\ndecision: ") + 1:].split())
    assert decision.startswith("decision: A better (accuracy; A = logreg, B = tree) rests on nested-cv difference: "
                               "accuracy A - B = ")  # at most five lines (issue 58): the details in the JSON
    assert report["decision"]["rests_on"]["name"] == "nested-cv difference"
    assert [t["name"] for t in report["decision"]["context"]] == names


@pytest.mark.slow
def test_nested_cv_on_the_folds_of_the_comparison_reuses_their_fits_and_answers_the_same(monkeypatch):
    # breast cancer (N = 569): nested CV's difference held its type-I error in the cells that stand for it there
    argv = ["compare", "nb", "tree", "--data", "breast_cancer", "--cv", "5", "--repeats", "6", "--nested", "always",
            "--json", "-", "--quiet"]
    calls = []
    reusable = front_compare._reusable
    monkeypatch.setattr(front_compare, "_reusable", lambda *a: calls.append(reusable(*a)) or calls[-1])
    status, reused = run(argv)
    assert status == 0 and isinstance(calls[0], cvi.PairedCVResult)
    monkeypatch.setattr(front_compare, "_reusable", lambda *a: None)
    status, fitted = run(argv)
    assert status == 0
    assert json.loads(reused)["decision"] == json.loads(fitted)["decision"]
    assert json.loads(reused)["decision"]["rests_on"]["name"] == "nested-cv difference"


# --------------------------------------------------------------------------- review regressions


@pytest.mark.parametrize("argv, fragment", [
    (["compare", "nb", "tree", "--data", "iris", "--cv", "3", "--metric", "f1_macro", "--nested", "always"],
     "--nested always: nested cross-validation's interval is for accuracy"),
    (["evaluate", "knn", "--data", "iris", "--cv", "3", "--params", '{"n_neighbors": 200}'], "--params"),
    (["evaluate", "tree", "--data", "iris", "--metric", "positive_likelihood_ratio"], "is for two classes"),
    (["evaluate", "nb", "--data", "iris", "--seed", "99999999999"], "--seed"),
])
def test_review_user_mistakes_exit_2(argv, fragment, capsys):
    status, _ = run(argv)
    assert status == 2 and fragment in one_error_line(capsys)


@pytest.mark.parametrize("command", [["evaluate", "nb"], ["compare", "nb", "tree"]])
def test_a_metric_under_leave_one_out_writes_no_file(command, tmp_path, capsys):
    target = tmp_path / "report.json"
    status, text = run([*command, "--data", "iris", "--cv", "loo", "--metric", "f1_macro", "--json", str(target)])
    assert status == 2 and text == ""
    assert "--metric f1_macro" in one_error_line(capsys)
    assert not target.exists()


def test_a_metric_with_folds_of_two_instances_is_still_computed(capsys):
    status, text = run(["evaluate", "nb", "--data", "iris", "--cv", "75", "--metric", "accuracy"])
    assert status == 0 and "accuracy, fold level t" in text


def test_as_many_folds_as_instances_is_leave_one_out():
    status, text = run(["compare", "tree", "nb", "--data", "iris", "--cv", "150"])
    assert status == 0 and "leave-one-out" in text and "5x2cv" not in text.split("decision:")[0]


def test_a_negative_phi_is_described_as_such():
    status, text = run(["compare", "dummy", "dummy", "--data", "breast_cancer", "--cv", "3",
                        "--params-a", '{"strategy": "constant", "constant": 0}',
                        "--params-b", '{"strategy": "constant", "constant": 1}'])
    assert status == 0 and "right where the other is wrong" in " ".join(text.split())
    assert "nearly uncorrelated" not in text


def test_plot_needs_a_png_file_name(capsys):
    status, _ = run(["evaluate", "nb", "--data", "iris", "--plot", "figure.txt"])
    assert status == 2 and "ending in .png" in one_error_line(capsys)


def test_a_semicolon_separated_csv_gets_a_separator_hint(tmp_path, capsys):
    path = tmp_path / "semi.csv"
    path.write_text("a;b;y\n1;2;0\n3;4;1\n")
    status, _ = run(["evaluate", "nb", "--data", str(path), "--target", "y"])
    assert status == 2 and "separate columns with ';'" in one_error_line(capsys)


def test_library_warnings_take_one_line_each(capsys):
    status, _ = run(["evaluate", "nb", "--data", "iris", "--cv", "60"])  # 50 per class < 60 folds
    err = capsys.readouterr().err
    assert status == 0 and "cvinference: warning: UserWarning: The least populated class" in err
    assert "warnings.warn(" not in err and ".py:" not in err


def test_a_failing_command_prints_its_error_alone_not_the_warnings_before_it(tmp_path, capsys):
    """Issue 13, item 14: a one-member class printed the splitter's warning and then the error line."""
    lines = ["a,b,label"] + [f"{i % 7},{i % 5},{'x' if i < 30 else 'y'}" for i in range(31)]
    (tmp_path / "one.csv").write_text("\n".join(lines) + "\n")
    status, _ = run(["evaluate", "logreg", "--data", str(tmp_path / "one.csv"), "--target", "label", "--cv", "5"])
    assert status == 2
    line = one_error_line(capsys)
    assert "fitting estimator failed" in line


def test_the_decision_rests_on_a_calibrated_test_without_nested_fits_when_one_is_eligible():
    # Two decision trees at N = 569: the corrected t's measured type-I error for a decision tree is 0.032 at
    # N = 300 and 0.012 at N = 1000 (docs/calibration.md), so --nested auto fits nothing more.
    status, text = run(["compare", "tree", "tree", "--params-b", '{"max_depth": 1}', "--data", "breast_cancer",
                        "--repeats", "1", "--json", "-", "--quiet"])
    decision = json.loads(text)["decision"]
    assert status == 0 and decision["rests_on"]["name"] == "corrected t (1x10-fold)"
    assert decision["answer"] in ("A better", "B better", "no difference shown")
    assert decision["rests_on"]["measured_type_i"] == 0.032


def test_nested_never_leaves_an_uncalibrated_pair_at_cannot_tell():
    status, text = run(["compare", "nb", "tree", "--data", "iris", "--cv", "3", "--nested", "never", "--json", "-",
                        "--quiet"])
    decision = json.loads(text)["decision"]
    assert status == 0 and decision["answer"] == "cannot tell" and decision["rests_on"] is None
    assert "nested_cv_interval(estimator_a, X, y, estimator_b=estimator_b, n_splits=5, n_repeats=5)" in (
        decision["route"])


@pytest.mark.parametrize("metrics, kept", [
    ([], None), (["f1"], None), (["roc_auc"], "auto"), (["average_precision", "f1"], "auto"),
    (["roc_auc", "neg_log_loss"], "predict_proba"), (["neg_brier_score"], "predict_proba"),
])
def test_a_metric_of_scores_makes_the_evaluator_keep_them(metrics, kept, monkeypatch):
    # what sklearn's scorer of each name calls: roc_auc and average_precision rank any scores,
    # neg_log_loss and neg_brier_score need probabilities (sklearn.metrics._scorer)
    seen = []

    def keep_settings(evaluator, *args, **kwargs):
        seen.append(evaluator.response_method)
        raise Boom("stop before fitting")

    monkeypatch.setattr(CVEvaluator, "evaluate", keep_settings)
    argv = ["evaluate", "nb", "--data", "breast_cancer", "--cv", "3"] + [f"--metric={m}" for m in metrics]
    assert run(argv)[0] == 1 and seen == [kept]


# --------------------------------------------------------------------------- --pos-label (issue 29, item 5)


def _f1_interval(report):
    return next(i for i in report["estimators"]["A"]["intervals"] if i["quantity"] == "f1")


def test_pos_label_names_a_string_class_as_recoding_it_to_1_would(csv_file, workdir):
    # Oracle: the same CSV with the label recoded yes -> 1, no -> 0, where sklearn's default pos_label=1 is "yes".
    recoded = workdir / "recoded.csv"
    lines = Path(csv_file).read_text(encoding="utf-8").splitlines()
    recoded.write_text("\n".join([lines[0], *(line[:-3] + "1" if line.endswith(",yes") else line[:-2] + "0"
                                              for line in lines[1:])]) + "\n", encoding="utf-8")
    common = ["nb", "--target", "label", "--impute", "--cv", "3", "--metric", "f1"]
    named = _run_with_json(["evaluate", "--data", csv_file, *common, "--pos-label", "yes"], workdir, "pos_yes")
    coded = _run_with_json(["evaluate", "--data", str(recoded), *common], workdir, "pos_coded")
    assert named.status == coded.status == 0
    assert _f1_interval(named.report)["estimate"] == pytest.approx(_f1_interval(coded.report)["estimate"])
    assert "(positive class 'yes')" in _f1_interval(named.report)["estimand"]


def test_pos_label_1_is_the_integer_class_of_numeric_labels(workdir):
    default = _run_with_json(["evaluate", "nb", "--cv", "3", "--metric", "recall"], workdir, "pos_default")
    one = _run_with_json(["evaluate", "nb", "--cv", "3", "--metric", "recall", "--pos-label", "1"], workdir, "pos_1")
    zero = _run_with_json(["evaluate", "nb", "--cv", "3", "--metric", "recall", "--pos-label", "0"], workdir, "pos_0")
    estimates = [next(i for i in run.report["estimators"]["A"]["intervals"] if i["quantity"] == "recall")["estimate"]
                 for run in (default, one, zero)]
    assert estimates[0] == estimates[1] != estimates[2]


@pytest.mark.parametrize("argv, fragment", [
    (["--metric", "f1", "--pos-label", "maybe"], "--pos-label maybe: not a class of {csv}, whose classes are no, yes"),
    (["--metric", "f1"], "--metric f1 needs to know the positive class, and the classes of {csv} are ['no', 'yes']; "
                         "pass --pos-label"),
    (["--metric", "f1_macro", "--pos-label", "yes"], "--pos-label yes: it is the positive class of --metric f1"),
])
def test_pos_label_mistakes_exit_2_naming_the_classes(argv, fragment, csv_file, capsys):
    status, text = run(["compare", "nb", "tree", "--data", csv_file, "--target", "label", "--impute", *argv])
    assert status == 2 and text == ""
    assert fragment.format(csv=csv_file) in one_error_line(capsys)


# --------------------------------------------------------------------------- --metric roc_auc (issue 29, item 2)


@pytest.mark.slow
def test_evaluate_roc_auc_is_sklearns_auc_of_the_out_of_fold_probabilities(workdir):
    # Oracle: sklearn's roc_auc_score of cross_val_predict(method="predict_proba") on the report's own folds
    # (its splitter, as the JSON names it), pooled (the DeLong row) and fold by fold (the corrected t row).
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    done = _run_with_json(["evaluate", "logreg", "--data", "breast_cancer", "--cv", "5", "--metric", "roc_auc"],
                          workdir, "roc_auc")
    assert done.status == 0
    rows = {i["method"]: i for i in done.report["estimators"]["A"]["intervals"] if i["quantity"] == "roc_auc"}
    X, y = load_breast_cancer(return_X_y=True)
    splitter = eval(done.report["splitter"], {"StratifiedEqualSizeKFold": cvi.StratifiedEqualSizeKFold})
    folds = list(splitter.split(X, y))
    proba = cross_val_predict(make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000, random_state=0)), X,
                              y, cv=folds, method="predict_proba")[:, 1]
    assert rows["delong"]["estimate"] == pytest.approx(roc_auc_score(y, proba), abs=1e-4)
    per_fold = [roc_auc_score(y[test], proba[test]) for _, test in folds]
    assert rows["corrected-t"]["estimate"] == pytest.approx(np.mean(per_fold), abs=1e-4)
    assert "roc_auc, fold level corrected t" in done.text and "roc_auc, DeLong pooled (repeat 0)" in done.text


@pytest.mark.slow
def test_compare_roc_auc_decides_on_the_corrected_t_with_delong_as_context(workdir):
    done = _run_with_json(["compare", "logreg", "nb", "--data", "breast_cancer", "--cv", "5", "--metric", "roc_auc"],
                          workdir, "compare_roc_auc")
    decision = done.report["decision"]
    assert done.status == 0 and decision["metric"] == "roc_auc"
    # Both tests are weighed on the shipped evidence's ROC AUC rows (logistic regression measured, naive
    # Bayes borrowing every measured learner): the decision rests on one within 0.06 or cannot tell.
    tests = [t for t in [decision["rests_on"], *decision["context"]] if t is not None]
    assert [t["name"] for t in tests] in (
        ["corrected t on fold roc_auc (1x5-fold)", "DeLong paired z (pooled scores, repeat 0)"],
        ["DeLong paired z (pooled scores, repeat 0)", "corrected t on fold roc_auc (1x5-fold)"])
    from cvinference.policy._evidence import learner_of, test_evidence
    learners = [learner_of("sklearn.linear_model._logistic.LogisticRegression"),
                learner_of("sklearn.naive_bayes.GaussianNB")]
    for test in tests:
        assert test["measured_type_i"] == test_evidence(test["method"], learners, 569, task="roc_auc").type_i
        assert test["measured_type_i"] is not None
    eligible = [t for t in tests if t["measured_type_i"] <= 0.06]
    assert (decision["answer"] == "cannot tell") == (not eligible)
    assert not any(c.startswith("Not calibrated") for c in decision["caveats"])
    assert any("did not measure this for GaussianNB" in c for c in decision["caveats"])
