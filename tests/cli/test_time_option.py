"""``--time COLUMN`` (issue 48, item 6): forward validation of a series in a CSV file, its rows sorted by time, with
``--horizon``, ``--window``, ``--gap``, ``--step`` and ``--season``; the report, JSON and figure as for the other
tasks, and one-line user errors. Oracle: the front door called in Python on the rows sorted independently."""

import json
import warnings

import numpy as np
import pytest
from command_line import one_error_line, run

import cvinference as cvi
import cvinference.cli._commands as commands
from cvinference.cli._data import load_data
from cvinference.splitters import ForwardSplit

N = 150


def monthly_rows():
    """A monthly series with a yearly season and AR(1) noise, its lag 12 as a feature: (month, sales, lag12)."""
    rng = np.random.default_rng(5)
    noise = np.zeros(N + 12)
    for t in range(1, N + 12):
        noise[t] = 0.5 * noise[t - 1] + rng.normal()
    sales = 10 + 2 * np.sin(2 * np.pi * np.arange(N + 12) / 12) + noise
    months = [f"{2000 + i // 12}-{i % 12 + 1:02d}" for i in range(N + 12)]
    return [(months[i], f"{sales[i]:.4f}", f"{sales[i - 12]:.4f}") for i in range(12, N + 12)]


@pytest.fixture(scope="module")
def csv_file(tmp_path_factory):
    """The series with its rows shuffled: ``--time`` must sort them."""
    rows = monthly_rows()
    order = np.random.default_rng(0).permutation(len(rows))
    path = tmp_path_factory.mktemp("time") / "sales.csv"
    path.write_text("month,sales,lag12\n" + "".join(",".join(rows[i]) + "\n" for i in order), encoding="utf-8")
    return str(path)


def sorted_arrays():
    rows = monthly_rows()
    return np.array([[float(row[2])] for row in rows]), np.array([float(row[1]) for row in rows])


def test_the_rows_are_sorted_by_time_and_the_time_column_is_no_feature(csv_file):
    data = load_data(csv_file, target="sales", task="regression", time="month")
    X, y = sorted_arrays()
    np.testing.assert_array_equal(data.X, X)
    np.testing.assert_array_equal(data.y, y)
    assert data.feature_names == ("lag12",) and data.time[0] == "2001-01" and data.time_column == "month"


def test_evaluate_prints_the_front_doors_summary_of_the_sorted_series(csv_file, tmp_path, monkeypatch):
    kept, function = [], commands.run_evaluation
    monkeypatch.setattr(commands, "run_evaluation", lambda *a, **k: kept.append(function(*a, **k)) or kept[-1])
    path = tmp_path / "report.json"
    status, text = run(["evaluate", "linreg", "--data", csv_file, "--target", "sales", "--time", "month", "--cv",
                        "12", "--horizon", "3", "--window", "60", "--season", "12", "--json", str(path)])
    assert status == 0
    (answer,) = kept
    assert text == answer.summary() + "\n"
    report = json.loads(path.read_text())
    assert report == json.loads(json.dumps(answer.to_dict()))
    assert report["data"] | {"name": None} == {"name": None, "n_samples": N, "time_column": "month",
                                               "first_time": "2001-01", "last_time": "2013-06"}
    assert report["forecasts"]["season"] == 12 and report["forecasts"]["horizons"] == [1, 2, 3]
    X, y = sorted_arrays()
    from sklearn.linear_model import LinearRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    expected = cvi.evaluate(make_pipeline(StandardScaler(), LinearRegression()), X, y,
                            cv=ForwardSplit(12, horizon=3, window=60), season=12, random_state=0)
    assert answer.result.y_pred.tolist() == pytest.approx(expected.result.y_pred.tolist(), abs=1e-9)
    (quantity, method), (_, same) = answer.recommended, expected.recommended
    assert answer.intervals[quantity][method].low == pytest.approx(expected.intervals[quantity][same].low, abs=1e-9)
    assert "time: month, 2001-01 to 2013-06 (the rows in time order)" in text


def test_compare_decides_on_the_forecasts_and_draws_them(csv_file, tmp_path):
    pytest.importorskip("matplotlib")
    figure = tmp_path / "forecasts.png"
    status, text = run(["compare", "linreg", "dummy_reg", "--data", csv_file, "--target", "sales", "--time", "month",
                        "--cv", "20", "--horizon", "2", "--step", "1", "--gap", "1", "--plot", str(figure)])
    assert status == 0 and figure.read_bytes().startswith(b"\x89PNG")
    assert "splitter: ForwardSplit(gap=1, horizon=2, n_splits=20, step=1, window=None)" in text
    decision = next(line for line in text.splitlines() if line.startswith("decision: "))
    assert decision.endswith("(squared_error; A = linreg, B = dummy_reg)")
    assert "Diebold-Mariano, pre-whitened" in text


@pytest.mark.parametrize("argv, message", [
    (["--horizon", "3"], "--horizon applies to forward validation; pass --time COLUMN"),
    (["--time", "month", "--task", "classification"], "--time month with --task classification"),
    (["--time", "nope"], "--time nope: no such column"),
    (["--time", "sales"], "--time sales is the --target column"),
    (["--time", "month", "--cv", "loo"], "--cv loo with --time month"),
    (["--time", "month", "--repeats", "3"], "--repeats 3 with --time month"),
    (["--time", "month", "--metric", "r2"], "--metric r2 with --time month"),
    (["--time", "month", "--metric", "accuracy"],  # issue 58: decide's default is no metric of forecasts
     "--metric accuracy with --time month: the report and decision are about the forecast loss squared_error "
     "(--metric neg_mean_squared_error); drop --metric, or pass --loss absolute_error"),
    (["--time", "month", "--loss", "absolute_error", "--metric", "accuracy"],
     "the forecast loss absolute_error (--metric neg_mean_absolute_error); drop --metric"),
    (["--time", "month", "--nested", "always"], "--nested always with --time month"),
    (["--time", "month", "--season", "100"], "--season 100: the seasonal naive forecast from the first origin"),
    (["--time", "month", "--cv", "10", "--horizon", "20"], "cannot hold --cv 10 origins"),
    (["--time", "month", "--cv", "2", "--horizon", "1"], "--cv 2 with --time month makes 2 forecasts"),
    (["--time", "month", "--window", "0"], "argument --window: expected a positive integer, got '0'"),
])
def test_a_mistake_with_forward_validation_exits_2_with_one_line(argv, message, csv_file, capsys, tmp_path):
    json_path = tmp_path / "never.json"
    status, _ = run(["compare", "linreg", "dummy_reg", "--data", csv_file, "--target", "sales", *argv,
                     "--json", str(json_path)])
    assert status == 2 and message in one_error_line(capsys)
    assert not json_path.exists()


@pytest.mark.parametrize("cells, message", [
    (["1", "", "3"], "--time t has 1 missing value (data row 2)"),
    (["1", "a", "3"], "--time t holds 'a', neither a number nor an ISO 8601 date"),
    (["2", "1", "2"], "--time t holds '2' in data rows 1, 3"),
    # Issue 58: a number sorted before ISO dates (numpy reads '5' as the year 5) and inf after them, without a word
    (["5", "2024-03", "2024-04"], "--time t holds '5' in data row 1, a number among ISO 8601 dates; a time column "
                                  "holds numbers only or ISO 8601 dates only"),
    (["1", "2", "2024-03"], "--time t holds '2024-03' in data row 3, a date among numbers"),
    (["1", "inf", "3"], "--time t holds 'inf' in data row 2, which is no time a row was observed at (not finite)"),
    (["-inf", "1", "3"], "--time t holds '-inf' in data row 1, which is no time"),
    (["2024-01", "NaT", "2024-03"], "--time t holds 'NaT', neither a number nor an ISO 8601 date or time"),
    (["2024-01", "today", "2024-03"], "--time t holds 'today', neither a number nor an ISO 8601 date or time (such "
                                      "as 2024-03 or 2024-03-31), in data row 2"),
    # Issue 58, finding 15: a time with a zone among times without one (numpy shifts it to UTC and drops the zone)
    (["2021-01-01T00:00:00", "2021-01-01T00:00:00+05:00", "2021-01-01T02:00:00"],
     "--time t holds '2021-01-01T00:00:00+05:00' in data row 2, a time with the zone +05:00; numpy's times hold no "
     "zone, and times of different zones (or a zone among times without one) would sort wrongly: write every time in "
     "one zone without its designator (such as 2021-01-01T00:00:00 in UTC)"),
    (["2021-01-01T00:00Z", "2021-01-01T01:00Z", "2021-01-01T02:00Z"], "a time with the zone Z"),
])
def test_a_time_column_that_is_no_time_order_is_refused(cells, message, tmp_path, capsys):
    path = tmp_path / "bad.csv"
    path.write_text("t,y,x\n" + "".join(f"{cell},{i}.5,{i}\n" for i, cell in enumerate(cells)), encoding="utf-8")
    assert run(["evaluate", "linreg", "--data", str(path), "--target", "y", "--time", "t"])[0] == 2
    assert message in one_error_line(capsys)


def test_a_classifier_forecasts_no_series(csv_file, capsys):
    assert run(["compare", "linreg", "logreg", "--data", csv_file, "--target", "sales", "--time", "month"])[0] == 2
    assert "estimator 'logreg' is a classifier, and --time month forecasts a numeric series" in one_error_line(capsys)


def test_a_bundled_data_set_has_no_time(capsys):
    assert run(["evaluate", "ridge", "--data", "diabetes", "--time", "t"])[0] == 2
    assert "--time t applies to CSV files only" in one_error_line(capsys)


@pytest.mark.parametrize("cells, expected", [
    (["2024-03", "2024-01-15", "2024-02"], ["2024-01-15", "2024-02", "2024-03"]),
    (["3", "-1.5", "1e1"], ["-1.5", "3", "1e1"]),
])
def test_one_kind_of_time_sorts_as_it_reads(cells, expected, tmp_path):
    """Numbers sort as numbers (1e1 = 10 last), dates as dates (of any ISO precision): the check refuses only mixes."""
    path = tmp_path / "good.csv"
    path.write_text("t,y,x\n" + "".join(f"{cell},{i}.5,{i}\n" for i, cell in enumerate(cells)), encoding="utf-8")
    data = load_data(str(path), target="y", task="regression", time="t")
    assert list(data.time) == expected


def test_a_time_column_with_a_break_warns_that_rows_are_taken_as_evenly_spaced(tmp_path):
    """Issue 58, finding 15: a time column that jumps from 59 to 1000 was taken as evenly spaced without a word.
    Rule: a warning when the largest gap is more than UNEVEN_GAP (10) times the median gap; business days (gaps of
    1 and 3 days) load without one. Hand: gaps of 1 and one of 941, 941 times the median."""
    times = [*range(60), *range(1000, 1040)]
    path = tmp_path / "jump.csv"
    path.write_text("t,y,x\n" + "".join(f"{t},{i % 7}.5,{i % 5}\n" for i, t in enumerate(times)), encoding="utf-8")
    with pytest.warns(UserWarning, match=r"--time t jumps from 59 to 1000 \(data rows 60 and 61\), 941 times the "
                                         r"median gap between times; forward validation counts rows, not time"):
        load_data(str(path), target="y", task="regression", time="t")
    days = np.busday_offset("2024-01-01", np.arange(40), roll="forward").astype(str)
    business = tmp_path / "business_days.csv"
    business.write_text("t,y,x\n" + "".join(f"{d},{i % 7}.5,{i % 5}\n" for i, d in enumerate(days)),
                        encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_data(str(business), target="y", task="regression", time="t")


def test_the_command_line_prints_the_uneven_gap_warning_once_and_runs(tmp_path, capsys):
    times = [*range(60), *range(1000, 1040)]
    path = tmp_path / "jump.csv"
    rng = np.random.default_rng(0)
    path.write_text("t,y,x\n" + "".join(f"{t},{rng.normal():.4f},{rng.normal():.4f}\n" for t in times),
                    encoding="utf-8")
    status, _ = run(["evaluate", "linreg", "--data", str(path), "--target", "y", "--time", "t", "--cv", "10"])
    err = capsys.readouterr().err
    assert status == 0 and err.count("cvinference: warning: UserWarning: --time t jumps from 59 to 1000") == 1
