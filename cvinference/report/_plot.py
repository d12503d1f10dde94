"""PNG figures of a command-line report (the ``plot`` extra: matplotlib)."""

import numpy as np

from .._utils._text import format_pvalue


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


def _fold_panel(axis, report):
    """Per-fold accuracies of each estimator (repeat 0), with the recommended interval as a band."""
    # one or two estimators: the first offsets, one per estimator
    for offset, (label, record) in zip((-0.15, 0.15), report["estimators"].items(), strict=False):
        accuracies = np.asarray(record["folds"]["p_j"][0])
        folds = np.arange(accuracies.size)
        axis.plot(folds + offset, accuracies, "o", label=f"{label}: fold accuracy p_j")
        interval = record["intervals"][0]
        axis.axhspan(interval["low"], interval["high"], alpha=0.15, color=axis.lines[-1].get_color(),
                     label=f"{label}: {interval['method']} interval")
    axis.set_xlabel("fold")
    axis.set_ylabel("accuracy")
    axis.set_title("accuracy per fold (repeat 0)")
    axis.legend(fontsize="small")


def _difference_panel(axis, report):
    """The distribution of the fold differences d_j = p_Aj - p_Bj."""
    a, b = (np.asarray(record["folds"]["p_j"]) for record in report["estimators"].values())
    differences = (a - b).ravel()
    axis.hist(differences, bins=min(20, max(5, differences.size // 2)), color="0.6", edgecolor="black")
    axis.axvline(0.0, color="black", linewidth=1)
    axis.axvline(differences.mean(), color="tab:red", label=f"mean {differences.mean():+.4f}")
    axis.set_xlabel("d_j = p_Aj - p_Bj")
    axis.set_ylabel("folds")
    repeats = a.shape[0]
    axis.set_title("fold differences" + (f" ({repeats} repeats)" if repeats > 1 else ""))
    axis.legend(fontsize="small")


def _tests_panel(axis, report):
    """Each test's estimate of accuracy(A) - accuracy(B) with its interval."""
    tests = [t for t in report["tests"] if t["low"] is not None and t["high"] is not None]
    positions = np.arange(len(tests))
    for y, test in zip(positions, tests, strict=True):
        axis.plot([test["low"], test["high"]], [y, y], color="black")
        axis.plot(test["estimate"], y, "o", color="tab:blue")
    axis.axvline(0.0, color="black", linewidth=1, linestyle="--")
    axis.set_yticks(positions, [f"{t['name']} ({format_pvalue(t['pvalue'])})" for t in tests])
    axis.set_xlabel("accuracy(A) - accuracy(B)")
    axis.set_title("tests: estimate and interval")


def _intervals_panel(axis, record):
    """Every accuracy interval of one estimator."""
    intervals = [interval for interval in record["intervals"] if interval["quantity"] == "accuracy"]
    positions = np.arange(len(intervals))
    for y, interval in zip(positions, intervals, strict=True):
        axis.plot([interval["low"], interval["high"]], [y, y], color="black")
        axis.plot(interval["estimate"], y, "o", color="tab:blue")
    axis.set_yticks(positions, [interval["name"] for interval in intervals])
    axis.set_title("accuracy intervals")


def plot_report(report, path):
    """Write the figure of a report to ``path`` (PNG)."""
    plt = pyplot()
    if report["command"] == "compare":
        figure, axes = plt.subplots(1, 3, figsize=(18, 5), layout="constrained")
        _fold_panel(axes[0], report)
        _difference_panel(axes[1], report)
        _tests_panel(axes[2], report)
    else:
        figure, axes = plt.subplots(1, 2, figsize=(13, 5), layout="constrained")
        _fold_panel(axes[0], report)
        _intervals_panel(axes[1], report["estimators"]["A"])
    save_png(figure, path)
