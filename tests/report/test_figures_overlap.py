"""Every figure the package draws keeps its results in sight (issue 58, item 5): no two labelled artists overlap.

Each ``plot()`` entry point reachable cheaply is drawn on the Agg canvas (the figures are the package's own; the
global backend is left alone) and measured with the renderer's window extents (``get_window_extent``): no two
texts (titles, axis labels, tick labels, texts, legends) overlap, no legend covers a marker or an interval of any
panel, and every labelled band lies under the markers and intervals it spans. A histogram's count axis has whole
ticks only, and a title names a method by its label, not its id.
"""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_diabetes
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference import CVResult, PairedCVResult
from cvinference.splitters import ForwardSplit

plt = pytest.importorskip("matplotlib.pyplot")
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402  (after the importorskip)
from matplotlib.legend import Legend  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

RNG = np.random.default_rng(0)
Y = RNG.integers(0, 2, 400)
SMALL = np.where(RNG.random(400) < 0.70, Y, 1 - Y)
LARGE = np.where(RNG.random(400) < 0.78, Y, 1 - Y)
MIDDLE = np.where(RNG.random(400) < 0.74, Y, 1 - Y)


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


# --------------------------------------------------------------------------- the measure


def _rendered(figure):
    """The figure drawn on an Agg canvas of its own (the user's backend untouched), and its renderer."""
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    return canvas.get_renderer()


def _tick_labels(axis):
    """The tick labels an axis draws: those of its ticks within its view limits, visible and not empty."""
    low, high = sorted(axis.get_view_interval())
    span = (high - low) * 1e-9
    return [tick.label1 for tick, location in zip(axis.get_major_ticks(), axis.get_majorticklocs(), strict=False)
            if low - span <= location <= high + span and tick.label1.get_visible()]


def _texts(figure):
    """Every visible text of the figure that says something: titles, axis and tick labels, texts (not those of a
    legend, which its own box stands for)."""
    found = [figure._suptitle, *figure.texts] if figure._suptitle is not None else list(figure.texts)
    for axes in figure.axes:
        found += [axes.title, axes._left_title, axes._right_title, axes.xaxis.label, axes.yaxis.label, *axes.texts,
                  *_tick_labels(axes.xaxis), *_tick_labels(axes.yaxis)]
    found = list({id(text): text for text in found}.values())  # the suptitle is one of the figure's texts too
    return [text for text in found if text.get_visible() and text.get_text().strip()]


def _legends(figure):
    return [legend for legend in figure.findobj(Legend) if legend.get_visible()]


def _results(axes):
    """The markers and intervals of a panel, as points in display coordinates (intervals sampled along them)."""
    points = []
    for line in axes.get_lines():
        if not line.get_visible() or line.get_gid() is not None:
            continue
        x, y = (np.asarray(v, dtype=float) for v in line.get_data())
        if x.size == 0 or (line.get_linestyle() in ("--", ":") and line.get_marker() in (None, "None", "")):
            continue  # the reference lines (no difference, origins), not results
        if x.size == 2 and np.all(np.isfinite(x)):
            x, y = np.linspace(x[0], x[1], 25), np.linspace(y[0], y[1], 25)
        points.append(axes.transData.transform(np.column_stack([x, y])))
    for collection in axes.collections:
        offsets = collection.get_offsets()
        if len(offsets) and hasattr(collection, "get_sizes") and len(collection.get_sizes()):
            points.append(collection.get_offset_transform().transform(offsets))
    return np.vstack(points) if points else np.empty((0, 2))


def _inside(box, points):
    return (points[:, 0] > box.x0) & (points[:, 0] < box.x1) & (points[:, 1] > box.y0) & (points[:, 1] < box.y1)


def overlaps(figure):
    """What hides what in ``figure``: pairs of overlapping texts, legends over texts or results, bands over
    results (a list of words; empty when nothing is hidden)."""
    renderer = _rendered(figure)
    texts = [(text, text.get_window_extent(renderer)) for text in _texts(figure)]
    legends = [legend.get_window_extent(renderer) for legend in _legends(figure)]
    found = []
    for i, (first, box) in enumerate(texts):
        for second, other in texts[i + 1:]:
            if box.overlaps(other) and box.width > 0 and other.width > 0:
                found.append(f"text {first.get_text()!r} overlaps text {second.get_text()!r}")
    for box in legends:
        for text, other in texts:
            if box.overlaps(other):
                found.append(f"a legend overlaps text {text.get_text()!r}")
        for axes in figure.axes:
            covered = int(_inside(box, _results(axes)).sum())
            if covered:
                found.append(f"a legend covers {covered} points of the results of {axes.get_title()!r}")
    for axes in figure.axes:
        results = [line for line in axes.get_lines() if line.get_gid() is None]
        for band in axes.patches:
            if isinstance(band, Rectangle) and (band.get_label() or "").strip("_") and band.get_gid():
                above = [line for line in results if line.get_zorder() <= band.get_zorder()]
                if above:
                    found.append(f"the band {band.get_gid()!r} is drawn over {len(above)} results")
    return found


# --------------------------------------------------------------------------- the figures


@pytest.fixture(scope="module")
def classifiers():
    X, y = load_breast_cancer(return_X_y=True)
    return X[:150, :5], y[:150]


def _forward():
    """A ridge against a stronger one on the autoregressive series of docs/forward-validation.md: the pair of
    records, and the front door's comparison."""
    rng = np.random.default_rng(0)
    x, noise = rng.standard_normal(300), np.zeros(300)
    for t in range(1, 300):
        noise[t] = 0.7 * noise[t - 1] + rng.standard_normal()
    X, y = x.reshape(-1, 1), 1.5 * x + noise
    splitter = ForwardSplit(20, horizon=3, window=120)
    pair = _quiet(cvi.CVEvaluator(cv=splitter, loss="squared_error").compare, Ridge(), Ridge(alpha=30.0), X, y)
    return pair, _quiet(cvi.compare, Ridge(), Ridge(alpha=30.0), X, y, cv=splitter)


@pytest.fixture(scope="module")
def one_set():
    """Two models on one evaluation set: the decision rests on McNemar's test by design, with no evidence read."""
    return PairedCVResult(CVResult.from_predictions(Y, SMALL, name="small"),
                          CVResult.from_predictions(Y, LARGE, name="large"))


def _figures(classifiers, one_set):
    X, y = classifiers
    nb, tree = GaussianNB(), DecisionTreeClassifier(max_depth=2, random_state=0)
    evaluation = _quiet(cvi.evaluate, nb, X, y, cv=5, random_state=0)
    comparison = _quiet(cvi.compare, nb, tree, X, y, cv=5, random_state=0)
    pair = _quiet(cvi.CVEvaluator(5, n_repeats=2, random_state=0).compare, nb, tree, X, y)
    Xr, yr = load_diabetes(return_X_y=True)
    regressors = _quiet(cvi.CVEvaluator(5, loss="squared_error", random_state=0).compare, Ridge(), LinearRegression(),
                        Xr, yr)
    models = cvi.compare_models({name: CVResult.from_predictions(Y, correct) for name, correct in
                                 (("small", SMALL), ("middle", MIDDLE), ("large", LARGE))})
    forecasts, forecasting = _forward()
    candidates = cvi.model_selection.compare_candidates(
        {f"depth {depth}": _quiet(cvi.CVEvaluator(5, random_state=0).evaluate,
                                  DecisionTreeClassifier(max_depth=depth, random_state=0), X, y)
         for depth in (1, 2, 3)})
    scores = RNG.uniform(0.6, 0.9, (8, 4))
    datasets = cvi.model_selection.compare_on_datasets(scores, learners=["nb", "tree", "forest", "knn"])
    study = _quiet(cvi.studies.fold_size_study, nb, X, y, sample_size=60, n_draws=4, random_state=0)
    return {
        "forecasts": lambda: forecasts.a.plot(),
        "paired forecasts": lambda: forecasts.plot(),
        "forward comparison": lambda: forecasting.plot(),
        "candidates": lambda: candidates.plot(),
        "datasets": lambda: datasets.plot(),
        "fold-size study": lambda: study.plot(),
        "evaluation": lambda: evaluation.plot(),
        "comparison": lambda: comparison.plot(),
        "CVResult": lambda: pair.a.plot(),
        "PairedCVResult": lambda: pair.plot(),
        "decision": lambda: cvi.decide(one_set).plot(),
        "decision, non-inferiority margin": lambda: cvi.decide(one_set, margin=0.05).plot(),
        "decision, equivalence margin": lambda: cvi.decide(one_set, margin=0.2, question="equivalent").plot(),
        "decision, regressors": lambda: _quiet(cvi.decide, regressors).plot(),
        # margins in the mean squared error's units that the test the decision rests on answers: both bands drawn
        "decision, regressors' margin": lambda: _quiet(cvi.decide, regressors, margin=500).plot(),
        "decision, regressors' equivalence": lambda: _quiet(cvi.decide, regressors, margin=900,
                                                            question="equivalent").plot(),
        "regressors' comparison": lambda: regressors.plot(),
        "plan": lambda: _quiet(cvi.plan, pilot=pair, n_repeats=1, difference=0.05).plot(),
        "interval": lambda: cvi.accuracy_interval(pair.a).plot(),
        "test": lambda: _quiet(cvi.mcnemar_test, pair, repeat=0).plot(),
        "posterior": lambda: _quiet(cvi.bayesian_correlated_ttest, pair, margin=0.01).plot(),
        "models": lambda: models.plot(),
    }


FIGURES = ("evaluation", "comparison", "CVResult", "PairedCVResult", "decision", "decision, non-inferiority margin",
           "decision, equivalence margin", "decision, regressors", "decision, regressors' margin",
           "decision, regressors' equivalence", "regressors' comparison", "plan", "interval",
           "test", "posterior", "models", "forecasts", "paired forecasts", "forward comparison", "candidates",
           "datasets", "fold-size study")


@pytest.fixture(scope="module")
def figures(classifiers, one_set):
    return _figures(classifiers, one_set)


@pytest.mark.parametrize("name", FIGURES)
def test_no_labelled_artist_hides_another(figures, name):
    drawn = figures[name]()
    assert overlaps(drawn.figure_) == []


def test_a_decision_resting_on_a_test_draws_both_bands_under_its_intervals(figures):
    """The minimum detectable difference's band and the margin's, both under every interval, both in the legend."""
    drawn = figures["decision, regressors' margin"]()
    bands = {patch.get_gid(): patch for patch in drawn.ax_.patches if patch.get_gid()}
    assert set(bands) == {"minimum detectable difference", "margin"}
    results = [line for line in drawn.ax_.get_lines() if line.get_gid() is None]
    assert max(band.get_zorder() for band in bands.values()) < min(line.get_zorder() for line in results)
    labels = [text.get_text() for text in drawn.ax_.get_legend().get_texts()]
    assert any("minimum detectable" in label for label in labels) and any("worse by 500" in label for label in labels)


def test_the_measure_sees_a_legend_over_a_marker_and_two_texts_on_one_another():
    """The check itself, on a figure made to fail it: a legend on the only marker, two titles in one place."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(4, 3))
    axes = figure.subplots()
    axes.plot([0.0], [0.0], "o", label="a result")
    axes.set_xlim(-1, 1)
    axes.set_ylim(-1, 1)
    axes.legend(loc="center")
    axes.text(0.5, 0.9, "one", transform=axes.transAxes)
    axes.text(0.5, 0.9, "two", transform=axes.transAxes)
    found = overlaps(figure)
    assert any("covers 1 points" in words for words in found)
    assert any("'one' overlaps text 'two'" in words for words in found)


def test_a_histogram_of_fold_differences_counts_in_whole_folds(figures):
    """The count axis of the fold differences (comparison, panel 2) has whole ticks only."""
    drawn = figures["comparison"]()
    histogram = drawn.axes_[1]
    _rendered(drawn.figure_)
    ticks = histogram.get_yticks()
    assert np.all(ticks == np.round(ticks))


def test_a_title_names_a_method_by_its_label_not_its_id(figures):
    drawn = figures["models"]()
    title = drawn.ax_.get_title()
    assert "Cochran's Q" in title and "cochran-q" not in title
