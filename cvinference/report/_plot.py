"""PNG figures of a command-line report (the ``plot`` extra: matplotlib)."""

import dataclasses
import functools
import math
import os
from typing import NamedTuple

import numpy as np

from .._utils._paths import unwritable_reason
from .._utils._text import format_figure, format_level, format_pvalue, loss_words, wrapped
from ..inference import Interval
from ..policy import POWER
from ..records._losses import LOSS_METRICS
from ._report import decision_record, record_report


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
    """The decision's metric (compare), else a regressor's loss, else accuracy; a forecaster's loss."""
    record = report["estimators"]["A"]
    if "forecasts" in report:
        return _Quantity(record["loss"], loss_words(record["loss"]), True)
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
    axis.xaxis.set_major_locator(_integer_ticks())
    axis.set_ylabel(quantity.words)
    axis.set_title(f"{quantity.words} per fold (repeat 0)")
    axis.legend(fontsize="small")


def _integer_ticks():
    """A tick locator that puts ticks on whole numbers only (the folds, the horizons, a histogram's counts)."""
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True)


def _difference_panel(axis, report, quantity):
    """The distribution of the fold differences, positive when A is better."""
    a, b = (_fold_values(record, quantity) for record in report["estimators"].values())
    differences = (b - a if quantity.lower_is_better else a - b).ravel()
    differences = differences[np.isfinite(differences)]
    axis.hist(differences, bins=min(20, max(5, differences.size // 2)), color="0.6", edgecolor="black")
    axis.axvline(0.0, color="black", linewidth=1)
    axis.axvline(differences.mean(), color="tab:red", label=f"mean {format_figure(differences.mean(), signed=True)}")
    axis.set_xlabel(quantity.difference("_j"))
    axis.set_ylabel("folds")
    axis.yaxis.set_major_locator(_integer_ticks())  # a count of folds: no 1.25 folds
    repeats = a.shape[0]
    axis.set_title("fold differences" + (f" ({repeats} repeats)" if repeats > 1 else ""))
    axis.legend(fontsize="small")


def _tests_of(report, quantity):
    """The tests drawn: every accuracy test (and nested CV's difference when the decision rests on it), or the
    decision's tests of its metric (the one it rests on first)."""
    decision = report["decision"]
    if quantity.name == "accuracy" or "forecasts" in report:
        rests_on = decision["rests_on"]
        extra = rests_on is not None and all(test["name"] != rests_on["name"] for test in report["tests"])
        return [*report["tests"], rests_on] if extra else report["tests"]
    return [test for test in (decision["rests_on"], *decision["context"]) if test is not None]


def _tests_panel(axis, report, quantity):
    """Each test's estimate of the difference (positive when A is better) with its interval."""
    decision = report.get("decision") or {}
    tests = _tests_of(report, quantity)
    _draw_tests(axis, tests, decision.get("rests_on"), quantity,
                detectable=decision.get("minimum_detectable_difference"))
    _draw_margin(axis, decision, tests)
    axis.set_title("tests: estimate and interval" if quantity.name == "accuracy"
                   else f"the decision's tests of {quantity.words}")


MARGIN_BAND = "margin"
"""The ``gid`` of the band of a decision's margin in its figures: what non-inferiority rules out (differences of
-margin or less) or what equivalence asks (from -margin to +margin)."""


def _draw_margin(axis, decision, tests):
    """With a margin: its band, and the 1 - 2 alpha interval of the test the decision rests on (the one the margin's
    one-sided tests read) over that test's interval."""
    margin, rests_on = decision.get("margin"), decision.get("rests_on")
    if margin is None:
        return
    if decision["question"] == "equivalent":
        band = axis.axvspan(-margin, margin, color="tab:green", alpha=0.12, linewidth=0, zorder=BAND_ZORDER,
                            label=f"within \u00b1{margin:g}: equivalent")
    else:
        band = axis.axvspan(axis.get_xlim()[0] if axis.get_xlim()[0] < -margin else -2 * margin, -margin,
                            color="0.5", alpha=0.2, linewidth=0, zorder=BAND_ZORDER,
                            label=f"worse by {margin:g} or more")
    band.set_gid(MARGIN_BAND)
    shown = axis.get_legend()  # the minimum detectable difference's, when drawn
    handles = [*(getattr(shown, "legend_handles", None) or []), band]
    row = next((y for y, test in enumerate(t for t in tests if t["low"] is not None and t["high"] is not None)
                if rests_on is not None and test["name"] == rests_on["name"]), None)
    if row is not None and decision.get("margin_interval") is not None:
        level = 1 - 2 * (1 - decision["confidence_level"])
        low, high = decision["margin_interval"]
        handles += axis.plot([low, high], [row, row], color="tab:green", linewidth=7, alpha=0.45, zorder=1.5,
                             label=f"its {format_level(level)} interval (the margin's tests)")
    _legend_beside(axis, handles)


def _legend_beside(axis, handles):
    """The legend of a tests panel's bands, beside the panel (right of it), where it covers no test."""
    axis.legend(handles=handles, fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)


BAND_ZORDER = 0.5
"""The drawing order of a tests panel's bands (the minimum detectable difference's, the margin's): under the
intervals and markers of the tests (matplotlib draws lines at 2), so that a band never hides a result."""
TEST_LABEL_WIDTH = 36
"""The characters of a line of a test's name beside its interval; a longer name wraps, so the panel keeps its width."""

MDD_BAND = "minimum detectable difference"
"""The ``gid`` of the band of a decision's minimum detectable difference, -MDD to +MDD around 0, in its figures."""


def _draw_tests(axis, tests, rests_on, quantity, *, detectable=None):
    """Each test's estimate and interval (of those that have one), the one the decision rests on in red, and the
    band from -``detectable`` to +``detectable`` (its minimum detectable difference) when that test is drawn."""
    tests = [t for t in tests if t["low"] is not None and t["high"] is not None]
    rests_on = rests_on or {}
    positions = np.arange(len(tests))
    for y, test in zip(positions, tests, strict=True):
        chosen = test["name"] == rests_on.get("name")
        axis.plot([test["low"], test["high"]], [y, y], color="tab:red" if chosen else "black")
        axis.plot(test["estimate"], y, "o", color="tab:red" if chosen else "tab:blue")
    if (detectable is not None and math.isfinite(detectable)
            and any(test["name"] == rests_on.get("name") for test in tests)):
        band = axis.axvspan(-detectable, detectable, color="tab:red", alpha=0.12, linewidth=0, zorder=BAND_ZORDER,
                            label=f"\u00b1{format_figure(detectable)}: minimum detectable\n"
                                  f"difference (power {POWER:g})")
        band.set_gid(MDD_BAND)
        _legend_beside(axis, [band])
    axis.axvline(0.0, color="black", linewidth=1, linestyle="--")
    axis.set_ylim(-0.75, len(tests) - 0.25)  # room within the panel for the first and last names' lines
    axis.set_yticks(positions, ["\n".join(wrapped(f"{t['name']} ({format_pvalue(t['pvalue'])})",
                                                  width=TEST_LABEL_WIDTH))
                                + ("\nthe decision rests on it" if t["name"] == rests_on.get("name") else "")
                                for t in tests])
    axis.set_xlabel(quantity.difference())


def _intervals_panel(axis, record, quantity):
    """Every interval of the quantity of one estimator; one that warned (on a grouped record, those that count
    every instance as independent) in grey, its label saying so."""
    intervals = _intervals_of(record, quantity)
    positions = np.arange(len(intervals))
    for y, interval in zip(positions, intervals, strict=True):
        warned = bool(interval.get("warnings"))
        axis.plot([interval["low"], interval["high"]], [y, y], color="0.6" if warned else "black")
        axis.plot(interval["estimate"], y, "o", color="0.6" if warned else "tab:blue")
    axis.set_yticks(positions, [interval["name"] + ("\n(warned: see the summary)" if interval.get("warnings") else "")
                                for interval in intervals])
    axis.set_xlabel(quantity.words)
    axis.set_title(f"{quantity.words} intervals")


def _estimator_intervals_panel(axis, report, quantity):
    _intervals_panel(axis, report["estimators"]["A"], quantity)


def _horizon_panel(axis, report, quantity):
    """Each learner's mean loss per horizon (one learner: with its recommended interval) and the naive
    forecast's."""
    records = report["estimators"]
    for offset, (label, record) in zip((-0.08, 0.08), records.items(), strict=False):
        rows = record["horizons"]
        horizons = np.array([row["horizon"] for row in rows], dtype=float) + (offset if len(records) == 2 else 0)
        means = np.array([row["mean_loss"] for row in rows])
        axis.plot(horizons, means, "o-", label=f"{label}: {record['description'] or label}")
        if len(records) == 1:
            low = np.array([np.nan if row["low"] is None else row["low"] for row in rows])
            high = np.array([np.nan if row["high"] is None else row["high"] for row in rows])
            axis.fill_between(horizons, low, high, alpha=0.2, color=axis.lines[-1].get_color(),
                              label=f"{record['intervals'][0]['method']} interval per horizon")
    first = records["A"]
    axis.plot([row["horizon"] for row in first["horizons"]], [row["baseline_loss"] for row in first["horizons"]],
              "s--", color="0.4", label=f"{first['baseline']['baseline']} forecast")
    axis.set_xlabel("horizon (rows after the origin)")
    axis.xaxis.set_major_locator(_integer_ticks())
    axis.set_ylabel(quantity.words)
    axis.set_title(f"{quantity.words} per horizon")
    axis.legend(fontsize="small")


_PANELS = {"evaluate": (_fold_panel, _estimator_intervals_panel),
           "compare": (_fold_panel, _difference_panel, _tests_panel),
           "forecast evaluate": (_horizon_panel, _estimator_intervals_panel),
           "forecast compare": (_horizon_panel, _tests_panel)}
"""The panels of each report's figure; the last is the one drawn on a single Axes (the intervals or the tests)."""

_WIDTH = {"evaluate": 13, "compare": 18, "forecast evaluate": 13, "forecast compare": 13}
"""The width in inches of a figure of all the panels (its height is 5)."""


def _title_lines(report):
    """What the figure is about: the data and scheme, which model is A (and B), and the decision (compare)."""
    data = report["data"]["name"] or f"{report['data']['n_samples']} instances"
    learners = [f"{label} = {record['description'] or 'unnamed'}" for label, record in report["estimators"].items()]
    lines = [f"{data}, {report['scheme']}", "; ".join(learners)]
    if report.get("decision") is not None:
        lines.append(_decision_line(report["decision"]))
    return lines


def _decision_line(decision):
    """The decision of a report's ``"decision"`` record in a line: its metric, its answer and what it rests on."""
    rests_on = decision["rests_on"]
    on = f"resting on {rests_on['name']}" if rests_on is not None else "no calibrated test to rest on"
    margin = "" if decision.get("margin") is None else f", margin {decision['margin']:g}"
    return f"decision on {decision['metric']}{margin}: {decision['answer']} ({on})"


def _wrapped(lines, inches, fontsize):
    """``lines`` wrapped to what ``inches`` of text at ``fontsize`` points hold, so that no title is cut off."""
    return "\n".join(part for line in lines for part in wrapped(line, width=_characters(inches, fontsize)))


def _characters(inches, fontsize):
    """How many characters, roughly, a line of ``inches`` holds at ``fontsize`` points (at least 40)."""
    return max(40, int(inches * 72 / (0.6 * fontsize)))


def set_wrapped_title(axis, lines, fontsize=10):
    """Title ``axis`` with ``lines``, each wrapped to the Axes' width, so that no title is cut off."""
    inches = axis.get_position().width * axis.figure.get_figwidth()
    axis.set_title(_wrapped(lines, inches, fontsize), fontsize=fontsize)


@dataclasses.dataclass(frozen=True, eq=False)
class Plot:
    """What every ``plot()`` of the package returns: the figure and the Axes it drew on.

    scikit-learn's Display attributes (``RocCurveDisplay.figure_`` and
    ``.ax_``), for a figure of one panel or of several alike. It holds
    matplotlib objects only, no result: drawing again is calling ``plot()``
    again.

    Attributes
    ----------
    figure_ : matplotlib.figure.Figure
        The figure drawn on: a new one (closed once saved to ``path``), or
        the figure of the Axes given.
    axes_ : tuple of matplotlib.axes.Axes
        The Axes of every panel drawn, in the figure's order; the main
        panel is the last.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from cvinference import CVResult, accuracy_interval
    >>> result = CVResult(y_true=[0, 1] * 50, y_pred=[0, 1] * 45 + [1, 0] * 5, fold=[0, 1] * 50)
    >>> drawn = result.plot()
    >>> len(drawn.axes_), drawn.ax_.get_title()
    (2, 'accuracy intervals')
    >>> figure, axis = plt.subplots()
    >>> accuracy_interval(result).plot(ax=axis).ax_ is axis
    True
    >>> plt.close("all")
    """

    figure_: object
    axes_: tuple

    @property
    def ax_(self):
        """matplotlib.axes.Axes: the main panel's Axes (the last of ``axes_``)."""
        return self.axes_[-1]

    def __repr__(self):
        return f"Plot(figure_={self.figure_!r}, ax_={self.ax_!r}, {len(self.axes_)} Axes)"


def _axes_of(ax, count):
    """The Axes to draw ``count`` panels on: ``ax`` itself, or None (a new figure of them all)."""
    if ax is None:
        return None
    try:
        axes = list(np.ravel(ax))
    except TypeError:
        axes = [ax]
    if len(axes) not in (1, count) or not all(hasattr(a, "plot") and hasattr(a, "figure") for a in axes):
        many = f" or {count} Axes (one per panel)" if count > 1 else ""
        raise ValueError(f"ax must be a matplotlib Axes (the main panel only){many}; got {ax!r}. Pass ax=None for "
                         f"a new figure{' of every panel' if count > 1 else ''}, and a file name as path=.")
    return axes


def _check_path(path):
    """Refuse, before anything is drawn, a ``path`` that matplotlib's ``savefig`` cannot write a PNG to."""
    if path is None or hasattr(path, "write"):
        return
    if not isinstance(path, str | bytes | os.PathLike):
        raise TypeError(f"path must be None, a file name (str or path-like) or a binary file object to write the "
                        f"PNG to; got {path!r} of type {type(path).__name__}.")
    problem = unwritable_reason(path)
    if problem is not None:
        raise ValueError(f"path={path!r} cannot be written ({problem}); give the name of a file in an existing, "
                         "writable folder, or path=None to draw without saving.")


def draw_panels(panels, ax=None, *, figsize, title=None, path=None, dpi=100):
    """Draw a figure's panels where ``ax`` says and save it to ``path``: the one rule of every ``plot()``.

    ``ax`` and ``path`` are checked before anything is drawn; every
    ``plot()`` of the package comes here, so all take the same ``ax`` and
    ``path`` and return the same :class:`Plot`.

    Parameters
    ----------
    panels : sequence of callables
        Each draws one panel on the Axes it is given; the last is the main one.
    ax : matplotlib Axes, sequence of Axes or None, default=None
        None draws every panel side by side on a new figure of ``figsize``;
        one Axes draws the main panel there; as many Axes as panels draw
        each on its own.
    figsize : (float, float)
        The new figure's size in inches.
    title : str or sequence of str, optional
        The title of a new figure of several panels, wrapped to its width
        (a panel drawn alone carries its own title).
    path : str, path-like, binary file object or None, default=None
        Where to save the figure as a PNG; a new figure is then closed, a
        figure of the Axes given stays open.
    dpi : int, default=100
        The PNG's resolution.

    Returns
    -------
    Plot
        The figure and the Axes of every panel drawn.

    Raises
    ------
    ValueError
        ``ax`` is neither None, one Axes nor one Axes per panel, or no file
        can be written at ``path`` (a directory, a missing or read-only folder).
    TypeError
        ``path`` is neither None, a file name nor a file object.
    """
    axes = _axes_of(ax, len(panels))
    _check_path(path)
    if axes is None:
        figure, axes = pyplot().subplots(1, len(panels), figsize=figsize, layout="constrained", squeeze=False)
        axes = list(axes.ravel())
        if title is not None and len(panels) > 1:
            lines = [title] if isinstance(title, str) else list(title)
            figure.suptitle(_wrapped(lines, figsize[0], 12), fontsize=12)
    for axis, panel in zip(axes, panels[-len(axes):], strict=True):
        panel(axis)
    figure = axes[0].figure
    if path is not None and ax is None:
        save_png(figure, path, dpi=dpi)  # and closed: the figure is the library's
    elif path is not None:
        figure.savefig(path, format="png", dpi=dpi)  # the user's figure stays open
    return Plot(figure, tuple(axes))


def draw_report(report, ax=None, *, path=None):
    """Draw the figure of a report: about the decision's metric (compare), else accuracy or a regressor's loss.

    Parameters
    ----------
    report : dict
        A report of :func:`evaluation_report` or :func:`comparison_report`,
        or of forward validation (the mean loss per horizon beside the naive
        forecast's, then the intervals or the tests).
    ax : matplotlib Axes, sequence of Axes or None, default=None
        None draws every panel on a new figure, titled with the data, the
        learners (which is A, which is B) and the decision; one Axes
        draws the main panel (the intervals of one learner, the tests of
        two) with the learners in its title; as many Axes as panels draw
        them all there.
    path : str, path-like, binary file object or None, default=None
        Where to save the figure as a PNG (see :func:`draw_panels`).

    Returns
    -------
    Plot
    """
    quantity = _quantity(report)
    kind = f"forecast {report['command']}" if "forecasts" in report else report["command"]
    panels = [functools.partial(panel, report=report, quantity=quantity) for panel in _PANELS[kind]]
    lines = _title_lines(report)
    if ax is not None and len(_axes_of(ax, len(panels))) == 1:  # the main panel alone says what it is about
        panels[-1] = functools.partial(_titled, panels[-1], lines[1:])
    return draw_panels(panels, ax, figsize=(_WIDTH[kind], 5), title=lines, path=path)


def _titled(panel, lines, axis):
    """Draw ``panel`` on ``axis``, then add ``lines`` to its title."""
    panel(axis)
    set_wrapped_title(axis, [axis.get_title(), *lines])


def plot_report(report, path):
    """Write the figure of a report (:func:`draw_report`, every panel) to ``path`` as a PNG.

    Parameters
    ----------
    report : dict
        As in :func:`draw_report`.
    path : str, path-like or binary file object
        Where to write the PNG.
    """
    draw_report(report, path=path)


def plot_result(subject, ax=None, *, confidence_level=0.95, nested=None, path=None):
    """The figure of ``CVResult.plot()`` or ``PairedCVResult.plot()``: :func:`draw_report` of the record's report.

    The report is the one ``summary()`` renders (:func:`summary_text`).

    Parameters
    ----------
    subject : CVResult or PairedCVResult
        The record.
    ax
        As in :func:`draw_report`.
    confidence_level : float, default=0.95
        The level of the intervals and tests drawn.
    nested : Interval or None, default=None
        Nested cross-validation's interval, when run.
    path
        As in :func:`draw_report`.

    Returns
    -------
    Plot
        See :func:`draw_report`.
    """
    return draw_report(record_report(subject, confidence_level=confidence_level, nested=nested), ax, path=path)


def plot_estimate(result, ax=None, *, confidence_level=0.95, path=None):
    """The figure of ``Interval.plot()`` and ``TestResult.plot()``: the estimate and its interval on one axis.

    Parameters
    ----------
    result : Interval or TestResult
        A test is drawn with its ``confidence_interval(confidence_level)``
        and the line of no difference.
    ax : matplotlib Axes or None, default=None
        Where to draw; None makes a small new figure.
    confidence_level : float, default=0.95
        A test's interval level (an interval has its own).
    path : str, path-like, binary file object or None, default=None
        Where to save the figure as a PNG (see :func:`draw_panels`).

    Returns
    -------
    Plot
    """
    is_test = hasattr(result, "pvalue")
    interval = result.confidence_interval(confidence_level) if is_test else result
    # an interval's axis is labelled with its estimand, in full: room for its lines
    label_lines = 0 if is_test else len(wrapped(f"estimand: {interval.estimand}", width=_characters(6.4, 8)))
    return draw_panels([functools.partial(_estimate_panel, result=result, interval=interval, is_test=is_test)], ax,
                       figsize=(6.4, 2.0 + 0.14 * label_lines), path=path)


def _estimate_panel(ax, result, interval, is_test):
    """The estimate of ``result`` with its ``interval`` on ``ax`` (a test's with the line of no difference)."""
    estimate, low, high = float(result.estimate), float(interval.low), float(interval.high)
    bounded = np.isfinite(low) and np.isfinite(high)
    errors = [[estimate - low], [high - estimate]] if bounded else None
    ax.errorbar([estimate], [0], xerr=errors, fmt="o", capsize=5, color="tab:blue")
    ax.set_yticks([])
    level = f"{100 * interval.confidence_level:g}%"
    if is_test:
        ax.axvline(0.0, color="black", linewidth=1, linestyle="--")
        ax.set_xlabel(getattr(result, "_difference_words", "difference"))
        title = f"{result.label}: {result.estimate:+.4f}, {format_pvalue(result.pvalue)}; {level} interval"
    else:
        inches = ax.get_position().width * ax.figure.get_figwidth()
        ax.set_xlabel(_wrapped([f"estimand: {interval.estimand}"], inches, 8), fontsize=8)
        averaging = interval.details.get("averaging") if isinstance(interval, Interval) else None
        title = (f"{level} {interval.method} interval" + (f" ({averaging} level)" if averaging else "")
                 + f": {interval.estimate:.4f}")
    target = getattr(interval, "target", None)
    title += (f"\ntarget: {target}" if target else "") + ("" if bounded else "; its bounds are not computable here")
    set_wrapped_title(ax, title.split("\n"))


def plot_posterior(result, ax=None, *, path=None):
    """The figure of ``BayesianResult.plot()``: the posterior of the difference and its three regions.

    The posterior density of mu = accuracy(A) - accuracy(B) (Student's t,
    Corani & Benavoli 2015, section 3) is drawn with the region where B is
    practically better (mu < -margin), the region of practical equivalence
    and the region where A is (mu > margin) filled in their colours; their
    areas are the result's three probabilities. A posterior of scale 0 is
    a point mass, drawn as one line.

    Parameters
    ----------
    result : BayesianResult
        The Bayesian correlated t-test's result.
    ax : matplotlib Axes or None, default=None
        Where to draw; None makes a small new figure.
    path : str, path-like, binary file object or None, default=None
        Where to save the figure as a PNG (see :func:`draw_panels`).

    Returns
    -------
    Plot
    """
    return draw_panels([functools.partial(_posterior_panel, result=result)], ax, figsize=(6.4, 3.2), path=path)


def _posterior_panel(ax, result):
    """The posterior of ``result`` on ``ax``, its three regions filled (see :func:`plot_posterior`)."""
    from scipy import stats

    mean, scale, margin = float(result.posterior_mean), float(result.posterior_scale), float(result.margin)
    probabilities = (("B better", result.prob_b_better, "tab:orange"),
                     ("equivalent", result.prob_equivalent, "0.6"), ("A better", result.prob_a_better, "tab:blue"))
    title = [f"{result.label} (margin = +-{margin:g}): the posterior of accuracy(A) - accuracy(B)"]
    if not (np.isfinite(mean) and np.isfinite(scale)):
        ax.text(0.5, 0.5, "the posterior is not computable here", ha="center", va="center", transform=ax.transAxes)
        ax.set_yticks([])
    elif scale > 0:
        posterior = stats.t(result.df, loc=mean, scale=scale)
        # points spaced by probability, not by distance: a posterior of few differences (df = 1) has long tails
        x = np.union1d(posterior.ppf(np.linspace(0.0005, 0.9995, 801)), [-margin, margin])
        density = posterior.pdf(x)
        ax.plot(x, density, color="black", linewidth=1)
        regions = (x <= -margin, (x >= -margin) & (x <= margin), x >= margin)
        for (words, probability, color), inside in zip(probabilities, regions, strict=True):
            ax.fill_between(x, density, where=inside, color=color, alpha=0.4, label=f"{words}: {probability:.3f}")
        low, high = min(posterior.ppf(0.02), -margin), max(posterior.ppf(0.98), margin)
        pad = 0.05 * (high - low)
        ax.set_xlim(max(-1.0, low - pad), min(1.0, high + pad))
        ax.set_ylabel("posterior density")
    else:
        ax.axvline(mean, color="black", linewidth=2, label=f"posterior: a point mass at {mean:+.4f}")
        ax.set_yticks([])
        title.append(", ".join(f"P({words}) = {probability:.3f}" for words, probability, _ in probabilities))
    for edge in (-margin, margin) if margin > 0 else (0.0,):
        ax.axvline(edge, color="black", linewidth=1, linestyle="--")
    ax.set_xlabel("accuracy(A) - accuracy(B)")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small", title="probability" if scale > 0 else None, title_fontsize="small")
    set_wrapped_title(ax, title)


def plot_decision(decision, ax=None, *, path=None):
    """The figure of ``Decision.plot()``: the test it rests on (in red) and the tests for context.

    Each test's estimate of the difference, positive when A is better, is
    drawn with its interval, and the line of no difference; the title says
    the decision and which learner is A and which is B. A shaded band from
    -MDD to +MDD around 0 (its ``gid`` is ``"minimum detectable
    difference"``) shows the decision's minimum detectable difference: the
    smallest difference the test it rests on would have detected with
    power 0.8 at its observed variance. An interval inside the band is "no
    difference shown", not "equal". A decision about a margin adds its band
    (``gid`` ``"margin"``: the differences of -margin or less that
    non-inferiority rules out, or the +-margin that equivalence asks) and
    the 1 - 2 alpha interval of the test it rests on, which the margin's
    one-sided tests read.

    Parameters
    ----------
    decision : Decision
        The decision to draw.
    ax : matplotlib Axes or None, default=None
        Where to draw; None makes a new figure.
    path : str, path-like, binary file object or None, default=None
        Where to save the figure as a PNG (see :func:`draw_panels`).

    Returns
    -------
    Plot
    """
    record = decision_record(decision)
    tests = [test for test in (record["rests_on"], *record["context"]) if test is not None]
    return draw_panels([functools.partial(_decision_panel, record=record, tests=tests)], ax,
                       figsize=(8, 2.0 + 0.6 * len(tests)), path=path)


def _decision_panel(ax, record, tests):
    """The tests of a decision's ``record`` on ``ax``, the one it rests on in red (see :func:`plot_decision`)."""
    metric = record["metric"]
    _draw_tests(ax, tests, record["rests_on"], _Quantity(metric, metric, record["lower_is_better"]),
                detectable=record.get("minimum_detectable_difference"))
    _draw_margin(ax, record, tests)
    a, b = record["names"]
    set_wrapped_title(ax, [_decision_line(record), f"A = {a}; B = {b}",
                           f"each test's estimate with its {format_level(record['confidence_level'])} interval"])


def plot_forecasts(result, ax=None, *, path=None):
    """The figure of ``ForwardResult.plot()`` and ``PairedForwardResult.plot()``: the series with the forecasts
    and the origins, and the forecast losses over time (for two learners, the difference of their losses).

    Parameters
    ----------
    result : ForwardResult or PairedForwardResult
        The forward record of one learner or two.
    ax : matplotlib Axes, sequence of 2 Axes or None, default=None
        None draws both panels on a new figure; one Axes draws the losses
        there; two draw the series and the losses.
    path : str, path-like, binary file object or None, default=None
        Where to save the figure as a PNG (see :func:`draw_panels`).

    Returns
    -------
    Plot
    """
    records = (result.a, result.b) if hasattr(result, "a") else (result,)
    panels = [functools.partial(_series_panel, records=records), functools.partial(_losses_panel, records=records)]
    title = [f"forward validation: {records[0].n_splits} origins, {records[0].window} window"]
    return draw_panels(panels, ax, figsize=(12.8, 4.0), title=title, path=path)


def _series_panel(ax, records):
    first = records[0]
    ax.plot(np.arange(first.n_samples), first.y, color="black", linewidth=0.8, label="series")
    for record, color in zip(records, ("tab:blue", "tab:orange"), strict=False):
        ax.scatter(record.time, record.y_pred, s=8, color=color, label=f"forecasts: {record.name}")
    for origin in first.origin:
        ax.axvline(origin, color="0.75", linewidth=0.6, linestyle=":")
    ax.set_xlabel("row (time order); dotted: the origins")
    ax.set_ylabel("value")
    # below the panel, in one row: forecasts lie everywhere in the series, so no corner of it is free
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=len(records) + 1,
              borderaxespad=0)
    set_wrapped_title(ax, ["the series and the forecasts"])


def _losses_panel(ax, records):
    first = records[0]
    order = np.lexsort((first.fold, first.time))
    if len(records) == 2:
        difference = (records[1].loss - first.loss)[order]
        ax.plot(first.time[order], difference, marker=".", linewidth=0.6, color="tab:purple")
        ax.axhline(0.0, color="black", linewidth=1, linestyle="--")
        ax.set_ylabel(f"{first.loss_name}: B - A (positive: A better)")
        set_wrapped_title(ax, [f"loss differences, A = {first.name}, B = {records[1].name}"])
    else:
        drawn = ax.scatter(first.time[order], first.loss[order], c=first.horizon[order], s=10, cmap="viridis")
        ax.figure.colorbar(drawn, ax=ax, label="horizon")
        ax.axhline(first.mean_loss, color="black", linewidth=1, linestyle="--", label=f"mean {first.mean_loss:.4g}")
        ax.set_ylabel(first.loss_name)
        ax.legend(fontsize="small")
        set_wrapped_title(ax, [f"forecast losses of {first.name}"])
    ax.set_xlabel("row (time order)")
