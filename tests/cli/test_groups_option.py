"""``--groups COLUMN``: group k-fold, a record that keeps the groups, and one-line user errors."""

import io
import json

import numpy as np
import pytest
from command_line import one_error_line, run

from cvinference import StratifiedEqualSizeGroupKFold
from cvinference.cli import main
from cvinference.cli._data import load_data
from cvinference.cli._groups import RepeatedGroupFolds, group_folds
from cvinference.splitters._group_kfold import EqualSizeGroupKFold

N_GROUPS, PER_GROUP = 30, 6


def grouped_csv(path, *, regression=False):
    """30 patients of 6 rows: a patient-level random effect in x1 drives the label; site is categorical."""
    rng = np.random.default_rng(0)
    lines = ["patient,x1,x2,site,label"]
    for g in range(N_GROUPS):
        effect = rng.normal(scale=1.5)
        for _ in range(PER_GROUP):
            x1, x2 = rng.normal() + effect, rng.normal()
            if regression:
                label = f"{2 * x1 + effect + 0.5 * rng.normal():.4f}"
            else:
                label = ("no", "yes")[int(rng.random() < 1 / (1 + np.exp(-(x1 + 0.5 * x2))))]
            lines.append(f"P{g:02d},{x1:.3f},{x2:.3f},{('north', 'south')[g % 2]},{label}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """The module's folder: its two grouped CSV files (class labels, a quantity) and the reports."""
    folder = tmp_path_factory.mktemp("groups")
    grouped_csv(folder / "visits.csv")
    grouped_csv(folder / "growth.csv", regression=True)
    return folder


@pytest.fixture(scope="module")
def csv_file(workdir):
    return str(workdir / "visits.csv")


@pytest.fixture(scope="module")
def regression_csv(workdir):
    return str(workdir / "growth.csv")


def run_json(argv, directory, name):
    path = directory / f"{name}.json"
    status, text = run([*argv, "--json", str(path)])
    assert status == 0, text
    return text, json.loads(path.read_text(encoding="utf-8"))


def patients(csv_path):
    """Each row's patient, read from the file independently of the command line."""
    with open(csv_path, encoding="utf-8") as handle:
        return np.array([line.split(",")[0] for line in handle.read().splitlines()[1:]])


def assert_groups_whole(fold, groups):
    for group in np.unique(groups):
        assert np.unique(np.asarray(fold)[groups == group]).size == 1, group


@pytest.fixture(scope="module")
def evaluated(workdir, csv_file):
    return run_json(["evaluate", "logreg", "--data", csv_file, "--target", "label", "--groups", "patient",
                     "--cv", "5", "--repeats", "2"], workdir, "evaluate")


@pytest.fixture(scope="module")
def compared(workdir, csv_file):
    return run_json(["compare", "logreg", "tree", "--data", csv_file, "--target", "label", "--groups", "patient",
                     "--cv", "5"], workdir, "compare")


# ---------------------------------------------------------------------------
# The commands succeed on grouped folds and report the groups


def test_evaluate_reports_the_groups_and_recommends_a_cluster_interval(evaluated, csv_file):
    text, report = evaluated
    assert f"\ngrouped: {N_GROUPS} groups of {PER_GROUP} instances\n" in text
    assert report["groups"] == {"n_groups": N_GROUPS, "smallest": PER_GROUP, "largest": PER_GROUP}
    assert report["data"] == {"name": csv_file, "n_samples": N_GROUPS * PER_GROUP, "groups_column": "patient",
                              "n_groups": N_GROUPS}
    recommended = report["estimators"]["A"]["intervals"][0]
    # 30 groups, below the 40 of the benchmark's smallest logistic-regression cells, where the cluster-robust
    # interval covered less than 0.93: the shipped evidence takes its half-sample form
    assert recommended["name"] == "recommended (method='auto')" and recommended["method"] == "cluster-half-sample"
    assert any("covered the kfold error only" in note for note in recommended["notes"])
    assert recommended["df"] == N_GROUPS - 1  # the cluster t counts groups, not rows
    assert report["splitter"].startswith("StratifiedEqualSizeGroupKFold(n_splits=5")
    assert "(cluster-half-sample interval)" in report["verdict"]["text"]


def test_evaluate_folds_keep_every_group_whole(evaluated, csv_file):
    folds = evaluated[1]["estimators"]["A"]["folds"]
    assert_groups_whole(folds["fold"], patients(csv_file))
    np.testing.assert_array_equal(folds["m_j"], np.full((2, 5), 36))  # each repeat: 5 folds of 6 patients


def test_the_group_column_is_not_a_feature(evaluated, csv_file):
    # The categorical site is one-hot encoded; a text patient column used as a feature would be too.
    assert "OneHotEncoder(site)" in evaluated[1]["estimators"]["A"]["description"]
    data = load_data(csv_file, target="label", groups="patient")
    assert data.feature_names == ("x1", "x2", "site") and data.X.shape == (N_GROUPS * PER_GROUP, 3)
    np.testing.assert_array_equal(data.groups, patients(csv_file))
    assert data.n_groups == N_GROUPS and data.groups_column == "patient"


def test_a_numeric_group_column_that_would_give_the_label_away_is_not_used(tmp_path):
    # The label is "patient id >= 15": a tree that saw the id would be right on every row; noise is all it has.
    rng = np.random.default_rng(1)
    lines = ["pid,noise,label"] + [f"{g},{rng.normal():.3f},{int(g >= 15)}" for g in range(30) for _ in range(4)]
    path = tmp_path / "leak.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, _ = run(["evaluate", "tree", "--data", str(path), "--target", "label", "--groups", "pid", "--cv", "5",
                     "--json", str(tmp_path / "leak.json")])
    report = json.loads((tmp_path / "leak.json").read_text(encoding="utf-8"))
    assert status == 0 and report["estimators"]["A"]["accuracy"] < 0.8


@pytest.mark.slow
def test_compare_decides_with_tests_that_count_groups(compared, csv_file):
    text, report = compared
    assert "grouped: 30 groups of 6 instances" in text
    assert all(interval["method"] in ("cluster", "cluster-half-sample") for interval in
               (report["estimators"][name]["intervals"][0] for name in "AB"))
    names = [test["name"] for test in report["tests"]]
    (five_by_two,) = [test for test in report["tests"] if "5x2cv" in test["name"]]
    assert "each half holding whole groups" in five_by_two["assumptions"]
    assert any("whole groups (StratifiedEqualSizeGroupKFold)" in note for note in five_by_two["notes"])
    assert any(name.startswith("clustered McNemar") for name in names)
    assert any(name.startswith("cluster paired t") for name in names)
    assert any("groups" in caveat for caveat in report["decision"]["caveats"])
    assert_groups_whole(report["estimators"]["A"]["folds"]["fold"], patients(csv_file))


@pytest.mark.slow
def test_compare_runs_5x2cv_and_nested_cv_on_folds_of_whole_patients(workdir, csv_file, monkeypatch):
    from cvinference.workflows import _compare as _commands

    seen = {}

    def spying(function, name):
        def spy(*args, **kwargs):
            seen[name] = kwargs.get("groups")
            return function(*args, **kwargs)
        return spy

    monkeypatch.setattr(_commands, "paired_ttest_5x2cv", spying(_commands.paired_ttest_5x2cv, "5x2cv"))
    monkeypatch.setattr(_commands, "nested_cv_interval", spying(_commands.nested_cv_interval, "nested"))
    _, report = run_json(["compare", "logreg", "tree", "--data", csv_file, "--target", "label", "--groups", "patient",
                          "--cv", "5", "--nested", "always"], workdir, "compare-nested")
    for name in ("5x2cv", "nested"):
        np.testing.assert_array_equal(seen[name], patients(csv_file))
    decision = report["decision"]
    tests = [*([decision["rests_on"]] if decision["rests_on"] else []), *decision["context"]]  # "cannot tell": none
    (nested,) = [test for test in tests if test["name"].startswith("nested-cv")]
    assert nested["target"] == "conditional"


@pytest.mark.slow
@pytest.mark.parametrize(("nested_type_i", "fitted"), [(0.04, True), (0.09, False)])
def test_nested_auto_fits_nested_cv_on_grouped_data_only_where_it_was_measured_to_hold(
        workdir, csv_file, monkeypatch, evidence, null_row, nested_type_i, fitted):
    """--nested auto (the default): the fold tests measured above the limit, so the decision cannot tell from
    them; nested CV is fitted (and the decision rests on it) only where its grouped null cells held."""
    from cvinference.workflows import _compare as _commands

    evidence(*(null_row(method, measured, learner=learner, n=N_GROUPS, **design) for learner in ("logistic", "tree")
               for method, measured, design in (("corrected-t", 0.08, {"repeats": 10, "folds": 10}),
                                                ("cluster-paired-t", 0.09, {"repeats": 10}),
                                                ("mcnemar-obuchowski", 0.1, {"repeat": 0}),
                                                ("nested-cv", nested_type_i, {}))))
    calls, fit = [], _commands.nested_cv_interval

    def counted(*args, **kwargs):
        calls.append(kwargs)
        return fit(*args, **kwargs)

    monkeypatch.setattr(_commands, "nested_cv_interval", counted)
    _, report = run_json(["compare", "logreg", "tree", "--data", csv_file, "--target", "label", "--groups", "patient",
                          "--cv", "5"], workdir, f"compare-nested-auto-{fitted}")
    assert bool(calls) == fitted
    decision = report["decision"]
    if fitted:
        assert decision["rests_on"]["name"].startswith("nested-cv")
    else:
        assert decision["answer"] == "cannot tell"
        assert not any(test["name"].startswith("nested-cv") for test in decision["context"])


def test_select_searches_on_group_folds(workdir, csv_file, monkeypatch):
    from sklearn.model_selection import GridSearchCV

    seen, fit = {}, GridSearchCV.fit

    def spy(search, X, y=None, **params):
        seen["splits"], seen["groups"] = list(search.cv.split(X, y, params.get("groups"))), params.get("groups")
        return fit(search, X, y, **params)

    monkeypatch.setattr(GridSearchCV, "fit", spy)
    text, report = run_json(["select", "tree", "--grid", '{"max_depth": [1, 3]}', "--data", csv_file, "--target",
                             "label", "--groups", "patient", "--cv", "5", "--repeats", "3"], workdir, "select")
    assert text.splitlines()[0].startswith(f"{csv_file}: 180 instances in 30 groups (patient);")
    assert report["data"]["groups_column"] == "patient" and report["data"]["n_groups"] == N_GROUPS
    settings = report["result"]["settings"]["mapping"]  # CandidateComparison.to_dict(): its settings, one mapping
    assert (settings["n_splits"], settings["n_repeats"]) == (5, 3)
    groups = patients(csv_file)
    np.testing.assert_array_equal(seen["groups"], groups)
    assert len(seen["splits"]) == 15
    for train, test in seen["splits"]:
        assert not set(groups[train]) & set(groups[test])
    tests = [frozenset(groups[test]) for _, test in seen["splits"]]
    assert len(set(tests[:5]) | set(tests[5:10]) | set(tests[10:])) > 5  # the repeats are not one partition


def test_regression_gets_size_balanced_group_folds_and_the_cluster_loss_interval(workdir, regression_csv):
    text, report = run_json(["evaluate", "ridge", "--data", regression_csv, "--target", "label", "--groups",
                             "patient", "--cv", "4"], workdir, "regression")
    assert report["splitter"].startswith("EqualSizeGroupKFold(n_splits=4")
    first = report["estimators"]["A"]["intervals"][0]
    # method="auto" from the shipped evidence: ridge regression's cluster-robust MSE interval covered as little as
    # 0.885 at G = 40 and its half-sample form at least 0.945 (docs/calibration.md, "Grouped regression")
    assert first["method"] == "cluster-half-sample" and first["df"] == N_GROUPS - 1
    assert f"({first['method']} interval, the groups as units)" in report["verdict"]["text"]
    assert_groups_whole(report["estimators"]["A"]["folds"]["fold"], patients(regression_csv))
    status, text = run(["select", "ridge", "--grid", '{"alpha": [0.1, 100]}', "--data", regression_csv, "--target",
                        "label", "--groups", "patient", "--cv", "4", "--repeats", "2"])
    assert status == 0 and "4-fold" in text


@pytest.mark.parametrize("task, y", [("classification", np.tile([0, 1, 1], 16)),
                                     ("regression", np.linspace(0.0, 1.0, 48))])
def test_repeated_group_folds_draw_a_new_partition_of_whole_groups_per_repeat(task, y):
    groups = np.repeat(np.arange(12), [6, 6, 5, 5, 4, 4, 4, 4, 3, 3, 2, 2])
    X = np.zeros((groups.size, 1))
    cv = group_folds(task, 4, random_state=0, n_repeats=3)
    splits = list(cv.split(X, y, groups))
    assert len(splits) == cv.get_n_splits() == 12
    partitions = []
    for repeat in range(3):
        fold = np.empty(groups.size, dtype=int)
        for j, (train, test) in enumerate(splits[4 * repeat: 4 * repeat + 4]):
            fold[test] = j
            assert not set(groups[train]) & set(groups[test])
        assert_groups_whole(fold, groups)
        partitions.append({frozenset(groups[fold == j]) for j in range(4)})
    assert partitions[0] != partitions[1] or partitions[1] != partitions[2]


def test_equal_size_group_kfold_is_the_toolkit_splitter_with_one_class():
    rng = np.random.default_rng(3)
    groups = rng.integers(0, 15, 90)
    X, y = np.zeros((90, 1)), rng.normal(size=90)
    ours = EqualSizeGroupKFold(5, shuffle=True, random_state=4).split(X, y, groups)
    oracle = StratifiedEqualSizeGroupKFold(5, shuffle=True, random_state=4).split(X, np.zeros(90, int), groups)
    for (_, test), (_, expected) in zip(ours, oracle, strict=True):
        np.testing.assert_array_equal(test, expected)


@pytest.mark.parametrize("command", ["evaluate", "compare", "select"])
def test_help_describes_the_option(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "--groups COLUMN" in capsys.readouterr().out


# ---------------------------------------------------------------------------
# User errors: exit 2, one line, no output file


def _missing_cell_csv(tmp_path):
    text = "patient,x,label\n" + "".join(f"{'' if i in (3, 7) else f'P{i % 5}'},{i},{i % 2}\n" for i in range(20))
    (tmp_path / "holes.csv").write_text(text, encoding="utf-8")
    return str(tmp_path / "holes.csv")


def _one_group_csv(tmp_path):
    text = "patient,x,label\n" + "".join(f"P1,{i},{i % 2}\n" for i in range(20))
    (tmp_path / "one.csv").write_text(text, encoding="utf-8")
    return str(tmp_path / "one.csv")


def _few_groups_csv(tmp_path):
    text = "patient,x,label\n" + "".join(f"P{i % 8},{i},{i % 2}\n" for i in range(40))
    (tmp_path / "few.csv").write_text(text, encoding="utf-8")
    return str(tmp_path / "few.csv")


EVALUATE = ["evaluate", "logreg", "--target", "label"]
COMPARE = ["compare", "logreg", "tree", "--target", "label"]
SELECT = ["select", "tree", "--grid", '{"max_depth": [1, 2]}', "--target", "label"]


@pytest.mark.parametrize("argv, data, fragments", [
    ([*EVALUATE, "--groups", "pateint"], "csv", ["--groups pateint: no such column", "did you mean 'patient'?",
                                                  "its columns are: patient, x1, x2, site, label"]),
    ([*SELECT, "--groups", "nobody"], "csv", ["--groups nobody: no such column", "patient, x1, x2, site, label"]),
    (["evaluate", "logreg", "--groups", "patient"], "iris", ["--groups patient applies to CSV files only",
                                                             "'iris' has no groups", "drop --groups"]),
    (["compare", "logreg", "tree", "--groups", "patient"], "iris", ["'iris' has no groups"]),
    ([*EVALUATE, "--groups", "label"], "csv", ["--groups label is the --target column", "name another column"]),
    ([*EVALUATE, "--groups", "patient"], "holes", ["--groups patient has 2 missing values", "data rows 4, 8",
                                                   "fill them in or drop those rows"]),
    ([*SELECT, "--groups", "patient"], "holes", ["--groups patient has 2 missing values"]),
    ([*EVALUATE, "--groups", "patient"], "one", ["--groups patient holds a single group ('P1')",
                                                 "at least 2 groups"]),
    ([*EVALUATE, "--groups", "patient", "--cv", "40"], "csv", ["--cv 40 is more folds than the 30 groups",
                                                              "use --cv 2 to 30"]),
    ([*COMPARE, "--groups", "patient", "--cv", "31"], "csv", ["--cv 31 is more folds than the 30 groups"]),
    ([*SELECT, "--groups", "patient", "--cv", "35"], "csv", ["--cv 35 is more folds than the 30 groups"]),
    ([*EVALUATE, "--groups", "patient", "--cv", "loo"], "csv", ["--cv loo with --groups patient", "use --cv K"]),
    ([*COMPARE, "--groups", "patient", "--cv", "30", "--repeats", "2"], "csv",
     ["--repeats 2 with --cv 30 and the 30 groups", "no new partition"]),
    ([*COMPARE, "--groups", "patient", "--cv", "4", "--nested", "always"], "few",
     ["--nested always with --groups patient", "5 folds need 2 groups each, 10 groups", "has 8", "drop --nested"]),
])
def test_user_errors_exit_2_with_one_line_and_write_nothing(argv, data, fragments, tmp_path, csv_file, capsys):
    path = {"csv": csv_file, "iris": "iris", "holes": _missing_cell_csv(tmp_path),
            "one": _one_group_csv(tmp_path), "few": _few_groups_csv(tmp_path)}[data]
    output = tmp_path / "report.json"
    assert main([*argv, "--data", path, "--json", str(output)], out=io.StringIO()) == 2
    message = one_error_line(capsys)
    for fragment in fragments:
        assert fragment in message
    assert not output.exists()


@pytest.mark.parametrize("random_state", [0, 7])
def test_repeated_group_folds_draw_as_scikit_learns_repeated_splitters_do(random_state):
    """Oracle: around StratifiedKFold, RepeatedGroupFolds gives scikit-learn's RepeatedStratifiedKFold, split for
    split (one RandomState made from random_state seeds every repeat's splitter)."""
    from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold

    X, y = np.zeros((60, 1)), np.arange(60) % 3
    ours = RepeatedGroupFolds(StratifiedKFold, n_repeats=3, n_splits=4, random_state=random_state)
    sklearns = RepeatedStratifiedKFold(n_splits=4, n_repeats=3, random_state=random_state)
    assert ours.get_n_splits() == sklearns.get_n_splits() == 12
    for (train, test), (train_sk, test_sk) in zip(ours.split(X, y), sklearns.split(X, y), strict=True):
        np.testing.assert_array_equal(test, test_sk)
        np.testing.assert_array_equal(train, train_sk)
