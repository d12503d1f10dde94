"""Every public ``plot()`` of the package: one return type, one rule for ``ax`` and ``path`` (issue 44, item 5).

Each takes ``ax=None`` and keyword ``path=None``, checks them by ``cvinference.report._plot.draw_panels`` before
drawing, and returns a ``cvinference.report.Plot`` (scikit-learn's Display attributes ``figure_`` and ``ax_``, and
``axes_``). A figure the library made is closed once saved; the figure of the user's Axes stays open.
"""

import functools
import importlib
import inspect
import io
import pkgutil
import warnings

import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference
import cvinference as cvi
from cvinference.report import Plot

from result_cases import result_cases

plt = pytest.importorskip("matplotlib.pyplot")

PNG = b"\x89PNG\r\n\x1a\n"


def _public_classes_with_plot():
    """``{name: class}``: every class of a public ``__all__`` (the top level's and each subpackage's) with ``plot``."""
    modules = [cvinference] + [importlib.import_module(f"cvinference.{info.name}")
                               for info in pkgutil.iter_modules(cvinference.__path__)
                               if info.ispkg and not info.name.startswith("_")]
    found = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)  # no name is on its way to another home
        for module in modules:
            for name in getattr(module, "__all__", ()):
                obj = getattr(module, name)
                if inspect.isclass(obj) and callable(getattr(obj, "plot", None)):
                    found[obj.__name__] = obj
    return found


CLASSES = _public_classes_with_plot()


@functools.cache
def _instances():
    """One instance of every public class with ``plot``: the shared result cases and the front door's two."""
    found = {}
    for _, result in result_cases():
        found.setdefault(type(result).__name__, result)
    X, y = load_iris(return_X_y=True)
    found["Evaluation"] = cvi.evaluate(GaussianNB(), X, y, cv=3, random_state=0)
    found["Comparison"] = cvi.compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X, y, cv=3,
                                      random_state=0, nested="never")
    return found


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_the_rule_covers_every_public_plot():
    # the classes the issue names, and nothing drawn outside the rule: a new class with plot() joins this list
    assert {"CVResult", "PairedCVResult", "Interval", "TestResult", "BayesianResult", "Decision", "Evaluation",
            "Comparison", "CandidateComparison", "DatasetComparison", "ConditionalErrorStudyResult",
            "WinnerTableResult", "PrecisionStudyResult", "FoldSizeStudyResult"} <= set(CLASSES)
    missing = sorted(name for name, cls in CLASSES.items()
                     if not any(isinstance(instance, cls) for instance in _instances().values()))
    assert not missing, f"no instance to draw for {missing}: add a case to tests/result_cases.py"


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_every_plot_takes_ax_and_a_keyword_path_and_says_so_once(name):
    parameters = inspect.signature(CLASSES[name].plot).parameters
    assert list(parameters)[:2] == ["self", "ax"] and parameters["ax"].default is None
    assert parameters["path"].kind is inspect.Parameter.KEYWORD_ONLY and parameters["path"].default is None
    doc = " ".join(CLASSES[name].plot.__doc__.split())
    assert "returns a ``cvinference.report.Plot`` (``figure_``, ``ax_``, ``axes_``)" in doc  # SHARED["display"]
    assert "path : str, path-like, binary file object or None, default=None" in doc  # SHARED["plot_path"]


def _instance_of(name):
    return next(instance for instance in _instances().values() if isinstance(instance, CLASSES[name]))


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_every_plot_returns_a_plot_and_closes_the_figure_it_saved(name, tmp_path):
    instance = _instance_of(name)
    drawn = instance.plot()
    assert type(drawn) is Plot
    assert drawn.ax_ is drawn.axes_[-1] and all(axis.figure is drawn.figure_ for axis in drawn.axes_)
    assert set(drawn.axes_) <= set(drawn.figure_.axes) and plt.fignum_exists(drawn.figure_.number)

    saved = instance.plot(path=tmp_path / "new.png")
    assert type(saved) is Plot and (tmp_path / "new.png").read_bytes()[:8] == PNG
    assert not plt.fignum_exists(saved.figure_.number)  # the library's figure: closed once saved
    written = io.BytesIO()
    instance.plot(path=written)  # a file object, as savefig takes it
    assert written.getvalue()[:8] == PNG

    figure, axis = plt.subplots()
    mine = instance.plot(ax=axis, path=str(tmp_path / "mine.png"))
    assert mine.ax_ is axis and mine.axes_ == (axis,) and mine.figure_ is figure
    assert (tmp_path / "mine.png").read_bytes()[:8] == PNG
    assert plt.fignum_exists(figure.number)  # the user's figure stays open


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_every_plot_refuses_a_path_it_cannot_write_before_drawing(name, tmp_path):
    """A directory, a missing folder and a folder refusing the save (simulated: root writes anywhere) are refused
    with the path and the fix, before a figure is made, and no file is left behind."""
    instance = _instance_of(name)
    figures = plt.get_fignums()
    for path, problem in [(tmp_path, "a directory"), (tmp_path / "missing" / "figure.png", "no such folder")]:
        with pytest.raises(ValueError, match=rf"^path=.* cannot be written \({problem}\); give the name of a file in "
                                             r"an existing, writable folder, or path=None to draw without saving\.$"):
            instance.plot(path=path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("tempfile.mkstemp", lambda *args, **kwargs: (_ for _ in ()).throw(PermissionError(13, "no")))
        with pytest.raises(ValueError, match=r"cannot be written \(the folder is not writable: no\)"):
            instance.plot(path=tmp_path / "figure.png")
    assert plt.get_fignums() == figures and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_every_plot_refuses_a_bad_ax_or_path_before_drawing(name):
    instance = _instance_of(name)
    _, axis = plt.subplots()
    figures = plt.get_fignums()
    with pytest.raises(TypeError, match=r"^path must be None, a file name \(str or path-like\) or a binary file "
                                        r"object to write the PNG to; got 3 of type int\.$"):
        instance.plot(path=3)
    with pytest.raises(TypeError, match=r"^path must be None"):
        instance.plot(ax=axis, path=["figure.png"])
    with pytest.raises(ValueError, match=r"^ax must be a matplotlib Axes \(the main panel only\)"):
        instance.plot(ax=object())
    assert plt.get_fignums() == figures and not axis.has_data() and axis.get_title() == ""  # nothing drawn


def test_a_plot_says_what_it_holds():
    drawn = _instance_of("Interval").plot()
    assert repr(drawn).startswith("Plot(figure_=<Figure size ") and repr(drawn).endswith(", 1 Axes)")
    with pytest.raises(AttributeError):
        drawn.figure_ = None  # frozen: it records what was drawn
