"""PNG figures of a command-line report (the ``plot`` extra: matplotlib)."""

from typing import NamedTuple

import numpy as np

from .._utils._text import format_pvalue
from ..inference._regression import LOSS_METRICS, loss_words


def pyplot():
    """matplotlib's pyplot, on whatever backend the user (or the command line) chose; ImportError with the
    install command when matplotlib is missing. Library code never selects a backend: that is the user's state.
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plotting needs matplotlib; install it with pip install 'cvinference[plot]'") from None
    return plt


def save_png(figure, path, dpi=100):
    """Write ``figure`` to ``path`` as a PNG and close it, also when writing fails."""
    plt = pyplot()
    try:
        figure.savefig(path, format="png", dpi=dpi)
    finally:
        plt.close(figure)


class _Quantity(NamedTuple):
    """What a figure shows: the intervals' ``quantity``, its words, and whether lower is better."""

    name: str
    words: str
    lower_is_better: bool

    def difference(self, fold=""):
        """The difference positive when A is better, in words (``fold="_j"``: per fold)."""
        if self.name == "accuracy":
            return f"d{fold} = p_A{fold[1:]} - p_B{fold[1:]}" if fold else "accuracy(A) - accuracy(B)"
        first, second = ("B", "A") if self.lower_is_better else ("A", "B")
        return f"{self.words}({first}) - {self.words}({second})" + (" per fold" if fold else "")


_ACCURACY = _Quantity("accuracy", "accuracy", False)


def _quantity(report):
    """The decision's metric (compare), else a regressor's loss, else accuracy."""
    record = report["estimators"]["A"]
    decision = report.get("decision")
    if decision is not None and decision["metric"] in record["folds"].get("metric_j", {}):
        return _Quantity(decision["metric"], decision["metric"], decision["lower_is_better"])
    if record["accuracy"] is None:
        return _Quantity(LOSS_METRICS.get(record["loss"], record["loss"]), loss_words(record["loss"]), True)
    return _ACCURACY


def _fold_values(record, quantity):
    """The (repeats, folds) values of ``quantity`` in an estimator record (NaN for a null)."""
    folds = record["folds"]
    if quantity.name == "accuracy":
        return np.array(folds["p_j"], dtype=float)
    return np.array(folds.get("metric_j", {}).get(quantity.name, folds["mean_loss_j"]), dtype=float)


def _intervals_of(record, quantity):
    """The estimator's intervals of ``quantity`` (for a regressor's loss, its cluster interval too), in order."""
    return [interval for interval in record["intervals"] if interval["quantity"] in (quantity.name, record["loss"])
            and (quantity.name != "accuracy" or interval["quantity"] == "accuracy")]


def _band(record, quantity):
    """The interval drawn behind the fold values: accuracy's recommended one, else the first at the fold level (of
    the fold values drawn), else the first of the quantity; None when there is none."""
    intervals = _intervals_of(record, quantity)
    if quantity.name != "accuracy":
        intervals = [i for i in intervals if i["averaging"] == "fold"] or intervals
    return intervals[0] if intervals else None


def _fold_panel(axis, report, quantity):
    """Per-fold values of each estimator (repeat 0), with its first interval of the quantity as a band."""
    # one or two estimators: the first offsets, one per estimator
    for offset, (label, record) in zip((-0.15, 0.15), report["estimators"].items(), strict=False):
        values = _fold_values(record, quantity)[0]
        folds = np.arange(values.size)
        what = "fold accuracy p_j" if quantity.name == "accuracy" else f"fold {quantity.words}"
        axis.plot(folds + offset, values, "o", label=f"{label}: {what}")
        band = _band(record, quantity)
        if band is not None:
            axis.axhspan(band["low"], band["high"], alpha=0.15, color=axis.lines[-1].get_color(),
                         label=f"{label}: {band['method']} interval")
    axis.set_xlabel("fold")
    axis.set_ylabel(quantity.words)
    axis.set_title(f"{quantity.words} per fold (repeat 0)")
    axis.legend(fontsize="small")


def _difference_panel(axis, report, quantity):
    """The distribution of the fold differences, positive when A is better."""
    a, b = (_fold_values(record, quantity) for record in report["estimators"].values())
    differences = (b - a if quantity.lower_is_better else a - b).ravel()
    differences = differences[np.isfinite(differences)]
    axis.hist(differences, bins=min(20, max(5, differences.size // 2)), color="0.6", edgecolor="black")
    axis.axvline(0.0, color="black", linewidth=1)
    axis.axvline(differences.mean(), color="tab:red", label=f"mean {differences.mean():+.4g}")
    axis.set_xlabel(quantity.difference("_j"))
    axis.set_ylabel("folds")
    repeats = a.shape[0]
    axis.set_title("fold differences" + (f" ({repeats} repeats)" if repeats > 1 else ""))
    axis.legend(fontsize="small")


def _tests_of(report, quantity):
    """The tests drawn: every accuracy test, or the decision's tests of its metric (the one it rests on first)."""
    if quantity.name == "accuracy":
        return report["tests"]
    decision = report["decision"]
    return [test for test in (decision["rests_on"], *decision["context"]) if test is not None]


def _tests_panel(axis, report, quantity):
    """Each test's estimate of the difference (positive when A is better) with its interval."""
    tests = [t for t in _tests_of(report, quantity) if t["low"] is not None and t["high"] is not None]
    positions = np.arange(len(tests))
    for y, test in zip(positions, tests, strict=True):
        axis.plot([test["low"], test["high"]], [y, y], color="black")
        axis.plot(test["estimate"], y, "o", color="tab:blue")
    axis.axvline(0.0, color="black", linewidth=1, linestyle="--")
    axis.set_yticks(positions, [f"{t['name']} ({format_pvalue(t['pvalue'])})" for t in tests])
    axis.set_xlabel(quantity.difference())
    axis.set_title("tests: estimate and interval" if quantity.name == "accuracy"
                   else f"the decision's tests of {quantity.words}")


def _intervals_panel(axis, record, quantity):
    """Every interval of the quantity of one estimator."""
    intervals = _intervals_of(record, quantity)
    positions = np.arange(len(intervals))
    for y, interval in zip(positions, intervals, strict=True):
        axis.plot([interval["low"], interval["high"]], [y, y], color="black")
        axis.plot(interval["estimate"], y, "o", color="tab:blue")
    axis.set_yticks(positions, [interval["name"] for interval in intervals])
    axis.set_title(f"{quantity.words} intervals")


def plot_report(report, path):
    """Write the figure of a report to ``path`` (PNG): about the decision's metric (compare), else accuracy or a
    regressor's loss."""
    plt = pyplot()
    quantity = _quantity(report)
    if report["command"] == "compare":
        figure, axes = plt.subplots(1, 3, figsize=(18, 5), layout="constrained")
        _fold_panel(axes[0], report, quantity)
        _difference_panel(axes[1], report, quantity)
        _tests_panel(axes[2], report, quantity)
    else:
        figure, axes = plt.subplots(1, 2, figsize=(13, 5), layout="constrained")
        _fold_panel(axes[0], report, quantity)
        _intervals_panel(axes[1], report["estimators"]["A"], quantity)
    save_png(figure, path)
