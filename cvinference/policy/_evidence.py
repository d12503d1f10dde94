"""What the calibration benchmark measured, and which of its cells stand for a result.

``benchmarks/calibration.py`` measures, with real fits on populations whose
truth is known, how often every interval covers each target and how often
every comparison test rejects a true null; ``benchmarks/calibration_report.py``
keeps the figures the library needs in ``data/calibration.json``. A *cell* is
one measured learner (a decision tree, logistic regression, ...) at one
sample size N.

A result is matched to cells by two rules, which :class:`Regime` records:

- **the learner, by type**: the final estimator's class (``estimator_type``
  of the record) names a measured learner only when it is that very class;
  a class of the same family (single trees, tree ensembles, boosting,
  linear, kernel, neighbours, naive Bayes) borrows the family's measured
  learners, and any other class every measured learner, each time taking the
  worst of their figures and saying that the evidence is borrowed;
- **the size**: a measured N equal to the result's, or else the two measured
  sizes on either side of it, whose worse figure stands (not the nearest);
  below the smallest or above the largest measured size, that size stands
  and the regime says the result is beyond the measured range.
"""

import dataclasses
import functools
import importlib
import json
from importlib import resources
from typing import NamedTuple

from .._utils._text import listed
from ..inference._methods import display_label, method_ids

_MEASURED_CLASSES = {
    "DecisionTreeClassifier": "tree", "LogisticRegression": "logistic", "KNeighborsClassifier": "knn",
    "GaussianNB": "naive_bayes", "RandomForestClassifier": "forest", "HistGradientBoostingClassifier": "hgb",
    "SVC": "svm", "Ridge": "ridge", "DecisionTreeRegressor": "tree_reg", "LogisticRegressionCV": "logistic_cv",
}
"""scikit-learn classes the benchmark measures, by the key of their cells (the class itself, not a subclass)."""

LEARNER_WORDS = {"tree": "a decision tree", "logistic": "logistic regression", "knn": "k-NN",
                 "naive_bayes": "naive Bayes", "forest": "a random forest", "hgb": "histogram gradient boosting",
                 "svm": "an RBF support vector machine", "ridge": "ridge regression", "tree_reg": "a regression tree",
                 "logistic_cv": "logistic regression with a regularisation path"}

FAMILY_OF_KIND = {"tree": "single trees", "logistic": "linear", "knn": "neighbours", "naive_bayes": "naive Bayes",
                  "forest": "tree ensembles", "hgb": "boosting", "svm": "kernel", "ridge": "linear",
                  "tree_reg": "single trees", "logistic_cv": "linear"}

_FAMILY_OF_CLASS = {
    "RandomForestClassifier": "tree ensembles", "ExtraTreesClassifier": "tree ensembles",
    "BaggingClassifier": "tree ensembles", "IsolationForest": "tree ensembles",
    "GradientBoostingClassifier": "boosting", "HistGradientBoostingClassifier": "boosting",
    "AdaBoostClassifier": "boosting", "SVC": "kernel", "NuSVC": "kernel", "LinearSVC": "linear",
    "RandomForestRegressor": "tree ensembles", "ExtraTreesRegressor": "tree ensembles",
    "BaggingRegressor": "tree ensembles", "GradientBoostingRegressor": "boosting",
    "HistGradientBoostingRegressor": "boosting", "AdaBoostRegressor": "boosting", "SVR": "kernel", "NuSVR": "kernel",
    "LinearSVR": "linear",
}
"""scikit-learn classes whose module does not tell their family (sklearn.ensemble and sklearn.svm hold several)."""

_FAMILY_OF_MODULE = (("sklearn.tree.", "single trees"), ("sklearn.linear_model.", "linear"),
                     ("sklearn.neighbors.", "neighbours"), ("sklearn.naive_bayes.", "naive Bayes"))


@functools.lru_cache(maxsize=1)
def calibration_evidence():
    """The benchmark's rows, as ``data/calibration.json`` holds them (an empty list when absent)."""
    path = resources.files("cvinference.policy") / "data" / "calibration.json"
    if not path.is_file():
        return {"rows": [], "floor": 0.93, "type_i_limit": 0.06, "mode": None}
    return json.loads(path.read_text())


class Learner(NamedTuple):
    """A learner as the evidence sees it: its class name, the measured cells' key and its family."""

    name: str | None
    kind: str | None
    family: str | None

    def describe(self):
        return self.name or "an unnamed learner"


def _class_of(estimator_type):
    """The class ``"module.QualName"`` names, or None when it cannot be imported."""
    module, _, qualname = estimator_type.rpartition(".")
    try:
        found = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError, ValueError):
        return None
    return found if isinstance(found, type) else None


def _ancestry(estimator_type):
    """(module, class name) of the class and of each class it derives from (just its own when not importable)."""
    cls = _class_of(estimator_type)
    if cls is None:
        module, _, name = estimator_type.rpartition(".")
        return [(module + ".", name)]
    return [(c.__module__ + ".", c.__name__) for c in cls.__mro__ if c is not object]


def _family(ancestry):
    for module, name in ancestry:
        if module.startswith("sklearn.") and name in _FAMILY_OF_CLASS:
            return _FAMILY_OF_CLASS[name]
        for prefix, family in _FAMILY_OF_MODULE:
            if module.startswith(prefix):
                return family
    return None


def learner_of(estimator_type):
    """The :class:`Learner` of a final estimator's class, given as ``"module.QualName"`` (None: unknown).

    A subclass of a measured class is of its family but is not the measured
    learner: ``ExtraTreeClassifier`` derives from ``DecisionTreeClassifier``
    and borrows the decision tree's cells.
    """
    if not estimator_type:
        return Learner(None, None, None)
    ancestry = _ancestry(estimator_type)
    module, name = ancestry[0]
    kind = _MEASURED_CLASSES.get(name) if module.startswith("sklearn.") else None
    return Learner(name, kind, _family(ancestry))


def learner_of_result(result):
    """The :class:`Learner` of a record (its ``estimator_type``)."""
    return learner_of(getattr(result, "estimator_type", None))


class Regime(NamedTuple):
    """The measured cells that stand for a result: measured learners and sizes, and what is borrowed."""

    kinds: tuple
    sizes: tuple
    borrowed: tuple = ()
    beyond: str | None = None
    size_name: str = "N"  # "G" where the cells are sized by their groups
    by_kind: tuple = ()  # (kind, sizes) where the measured learners' sizes differ: each learner's own stand
    borrowed_kinds: tuple = ()  # kinds that stand for another learner: only their cells of BORROWED_REPLICATIONS
    stand_ins: tuple = ()  # (learner, kinds) of each learner whose cells are others' (kinds None: every learner's)

    def sizes_of(self, kind):
        """The measured sizes that stand for ``kind``'s cells."""
        return dict(self.by_kind).get(kind, self.sizes)

    def describe(self):
        if not self.sizes:
            return "no measured cell"
        groups = " groups" if self.size_name == "G" else ""
        by_sizes = {}
        for kind in self.kinds:
            by_sizes.setdefault(self.sizes_of(kind), []).append(LEARNER_WORDS.get(kind, kind))
        return ", ".join(f"{listed(who)} at {self.size_name} = {listed(str(n) for n in sizes)}{groups}"
                         for sizes, who in by_sizes.items())

    def stand_in_words(self):
        """Which measured learners stand for which learner ("" when every learner was measured itself): "stand-ins:
        histogram gradient boosting for GradientBoostingClassifier"."""
        if not self.stand_ins:
            return ""
        return "stand-ins: " + "; ".join(
            f"{'every measured learner' if kinds is None else listed(LEARNER_WORDS.get(k, k) for k in kinds)} for {who}"
            for who, kinds in self.stand_ins)

    def caveats(self):
        """Sentences saying what is borrowed and whether the size is beyond the measured range."""
        return [*self.borrowed, *([self.beyond] if self.beyond else [])]


BORROWED_REPLICATIONS = 100
"""The fewest replications of a cell that stands for a learner other than its own: the worst of many small cells
(the --decision run's forests and boosting hold 8-40) is mostly their Monte-Carlo noise, so such cells stand for
their own learner only."""


def _borrowable(row):
    return row.get("replications", BORROWED_REPLICATIONS) >= BORROWED_REPLICATIONS


def _stand_ins(learner, measured, borrowable=None):
    """The measured learners whose cells stand for ``learner``, the sentence when they are borrowed, and whether they
    stand as the worst of every measured learner (only then are their cells limited to the ``borrowable`` ones, those
    of enough replications: a family's learners stand for every member of the family as they stand for themselves)."""
    if learner.kind in measured:
        return (learner.kind,), None, False
    family = sorted(kind for kind in measured if FAMILY_OF_KIND.get(kind) == learner.family)
    who = learner.describe()
    if family:
        words = listed(LEARNER_WORDS.get(kind, kind) for kind in family)
        return tuple(family), (f"The calibration benchmark did not measure this for {who}; the figures are "
                               f"borrowed from its family ({learner.family}: {words})."), False
    measured = measured if borrowable is None else borrowable
    family_words = f" nor its family ({learner.family})" if learner.family else ""
    return tuple(sorted(measured)), (f"The calibration benchmark did not measure this for {who}{family_words}; "
                                     "the figures are the worst of every measured learner."), True


def _sizes(measured_sizes, n_samples, size_name="N"):
    """The measured sizes that stand for ``n_samples``, and a sentence when it is beyond them."""
    sizes = sorted(measured_sizes)
    if n_samples in sizes:
        return (n_samples,), None
    if n_samples < sizes[0]:
        return (sizes[0],), (f"{size_name} = {n_samples} is below the smallest size the calibration measured "
                             f"({sizes[0]}); smaller samples usually fare worse than the figures used.")
    if n_samples > sizes[-1]:
        return (sizes[-1],), (f"{size_name} = {n_samples} is above the largest size the calibration measured "
                              f"({sizes[-1]}); the figures at {size_name} = {sizes[-1]} are used.")
    above = next(n for n in sizes if n > n_samples)
    below = max(n for n in sizes if n < n_samples)
    return (below, above), None


def grouped_task(classification):
    """The task of the evidence's grouped rows: "grouped" for accuracy, "grouped-regression" for a regressor."""
    return "grouped" if classification else "grouped-regression"


def sized_by_groups(task):
    """Whether the cells of ``task`` are sized by their number of groups G (the grouped tasks) rather than N."""
    return task in (grouped_task(True), grouped_task(False))


def _size_name(task):
    """How the cells of ``task`` are sized: "G" (groups) or "N" (instances)."""
    return "G" if sized_by_groups(task) else "N"


def regime_of(rows, learners, n_samples, size_name="N"):
    """The :class:`Regime` of a result whose learners are ``learners`` (a list of :class:`Learner`) among ``rows``;
    ``n_samples`` is the number of groups where ``size_name`` is "G".

    One rule for every learner: a measured class reads its own cells; any other member of a measured family reads
    the family's cells exactly as those learners read them (the same sizes, the same cells); a learner of no measured
    family reads the worst of every measured learner's cells of at least :data:`BORROWED_REPLICATIONS`.
    """
    measured = {row["learner"] for row in rows}
    if not measured:
        return Regime((), ())
    kinds, borrowed, floored, unfloored, stand_ins = [], [], set(), set(), []
    for learner in learners:
        found, sentence, floor = _stand_ins(learner, measured, {row["learner"] for row in rows if _borrowable(row)})
        kinds += found
        (floored if floor else unfloored).update(found)
        if sentence and sentence not in borrowed:
            borrowed.append(sentence)
        if sentence and (learner.describe(), None if floor else found) not in stand_ins:
            stand_ins.append((learner.describe(), None if floor else found))
    kinds = tuple(dict.fromkeys(kinds))
    lent = tuple(kind for kind in kinds if kind in floored and kind not in unfloored)
    rows = [row for row in rows if row["learner"] not in lent or _borrowable(row)]
    sizes, beyond = _sizes({row["n"] for row in rows if row["learner"] in kinds}, n_samples, size_name)
    own = {kind: _sizes({row["n"] for row in rows if row["learner"] == kind}, n_samples, size_name) for kind in kinds}
    if all(found == sizes for found, _ in own.values()):
        return Regime(kinds, sizes, tuple(borrowed), beyond, size_name, borrowed_kinds=lent, stand_ins=tuple(stand_ins))
    # Learners measured over different sizes: each stands at its own sizes, and the sentences say where a learner's
    # figures come from beyond its range.
    sentences = [sentence.replace("the calibration measured", f"the calibration measured for "
                                  f"{LEARNER_WORDS.get(kind, kind)}")
                 for kind, (_, sentence) in own.items() if sentence]
    return Regime(kinds, tuple(sorted({n for found, _ in own.values() for n in found})), tuple(borrowed),
                  " ".join(sentences) or None, size_name, tuple((kind, found) for kind, (found, _) in own.items()),
                  lent, tuple(stand_ins))


def standing_cells(rows, regime, **match):
    """The rows of the cells that stand for ``regime`` (its learners at their sizes, a lent learner's borrowable
    cells only) whose fields equal ``match``."""
    return [row for row in rows if row["learner"] in regime.kinds and row["n"] in regime.sizes_of(row["learner"])
            and (row["learner"] not in regime.borrowed_kinds or _borrowable(row))
            and all(row[key] == value for key, value in match.items())]


class CoverageKey(NamedTuple):
    """The coverage rows of one interval in the evidence: its ``method`` (its id in the table of methods,
    docs/methods.md; ``"auto"``: ``accuracy_interval``'s method="auto") and the qualifiers that tell its rows apart,
    the rows' fields of the same names (None: the rows have no such field).

    Examples
    --------
    >>> str(CoverageKey("t", averaging="fold")), str(CoverageKey("cv-clt", metric="r2", repeats=10))
    ("t with averaging='fold'", "cv-clt with metric='r2', repeats=10")
    """

    method: str
    averaging: str | None = None  # Wong's t, measured at the fold level
    metric: str | None = None  # a regression metric (regression_interval's name)
    variance: str | None = None  # the CV-CLT's variance estimator
    repeats: int | None = None  # the repeats a pooled interval was measured at

    @classmethod
    def of(cls, row):
        """The key of an evidence row."""
        return cls(row["method"], *(row.get(field) for field in cls._fields[1:]))

    def __str__(self):
        qualifiers = ", ".join(f"{field}={value!r}" for field, value in zip(self._fields[1:], self[1:], strict=True)
                               if value is not None)
        return f"{self.method} with {qualifiers}" if qualifiers else self.method


class Measured(NamedTuple):
    """A method's measured coverage in a regime: its worst cell, and whether it falls short anywhere."""

    method: CoverageKey
    worst: float
    deviation: float
    falls_short: bool
    cells: int
    worst_cell: str = ""  # the population, learner and size of the worst cell, in words


def _task_rows(task):
    """The evidence's rows of ``task`` ("classification": accuracy, "regression", or a score metric's name)."""
    return _evidence_index().select(task)


def _cell_words(row, size_name="N", *, population=True):
    """A measured cell in words: "the fair population, a decision tree at N = 300" (without the population)."""
    where = f"the {row['population']} population, " if population else ""
    return f"{where}{LEARNER_WORDS.get(row['learner'], row['learner'])} at {size_name} = {row['n']}"


class _Index:
    """A table of evidence rows indexed once: by (task, quantity, method key, ``detail``), where the method key of a
    coverage row is its :class:`CoverageKey` and of a test's row its method's id (its ``method``), and
    ``detail`` is the row's target (or the margin calibration's alternative); None in a key's place matches every
    value."""

    def __init__(self, rows, detail):
        self.rows, self.by, self.readings = rows, {}, {}
        for row in rows:
            task, quantity = row.get("task", "classification"), row["quantity"]
            key = CoverageKey.of(row) if quantity == "coverage" else row["method"]
            self.by.setdefault((task, None, None, None), []).append(row)
            for method in (None, key):
                for value in (None, row.get(detail)):
                    self.by.setdefault((task, quantity, method, value), []).append(row)

    def select(self, task, quantity=None, method=None, detail=None):
        """The rows of ``task`` (of ``quantity``, of ``method``'s key, of ``detail``), in the table's order."""
        return self.by.get((task, quantity, method, detail), [])


_INDEXES = {}
"""The index of each table of rows read so far, by the table's identity (a test or a benchmark may pass its own)."""


def _index_of(rows, detail="target"):
    found = _INDEXES.get((id(rows), detail))
    if found is None or found.rows is not rows:
        if len(_INDEXES) >= 8:
            _INDEXES.pop(next(iter(_INDEXES)))
        found = _INDEXES[(id(rows), detail)] = _Index(rows, detail)
    return found


def _evidence_index():
    return _index_of(calibration_evidence()["rows"])


@dataclasses.dataclass(frozen=True, eq=False)
class Reading:
    """What the calibration measured for one method, a result's learners, its size and its design.

    :func:`read_evidence` returns it; the plan, the decision, ``method="auto"``, the routes and the margin evidence
    read their figures and their sentence (:attr:`words`) from it.

    Attributes
    ----------
    method : str or CoverageKey
        A test's id, or an interval's :class:`CoverageKey`.
    quantity, task : str
        "coverage" or "type_i", and the rows' task.
    learners : tuple of Learner
    n_samples : int
        The size asked about (groups, where the task's cells are sized by them).
    regime : Regime or None
        The measured learners and sizes read, with what is borrowed and from where (:meth:`Regime.caveats`).
    cells, power_cells : tuple of dict
        The rows that stand (their power rows, for a test).
    repeats : int or None
        The design's number of repeats R asked about (None: any).
    limit : float
        The coverage floor or the type-I limit the figures are judged by.
    """

    method: object
    quantity: str
    task: str
    learners: tuple
    n_samples: int
    regime: Regime | None
    cells: tuple = ()
    power_cells: tuple = ()
    repeats: int | None = None
    target: str | None = None
    limit: float = 0.0

    @property
    def worst_row(self):
        """The cell of the worst figure: the highest type-I error, or the lowest coverage (None: not measured)."""
        if not self.cells:
            return None
        return (min if self.quantity == "coverage" else max)(self.cells, key=lambda row: row["measured"])

    @property
    def worst(self):
        return None if not self.cells else self.worst_row["measured"]

    @property
    def worst_cell(self):
        return None if not self.cells else _cell_words(self.worst_row, self.regime.size_name, population=False)

    @property
    def repeats_read(self):
        """The numbers of repeats R of the R x K-fold cells read, where the rows state their design."""
        return tuple(sorted({r for r in map(repeats_of, self.cells) if r is not None}))

    @property
    def design_measured(self):
        """Whether the cells read are the design's own (its R alone), not the worst over every R measured."""
        return self.repeats is None or not self.repeats_read or self.repeats_read == (self.repeats,)

    @property
    def holds(self):
        """Whether the worst figure is within the limit (False: not measured)."""
        if not self.cells:
            return False
        return self.worst >= self.limit if self.quantity == "coverage" else self.worst <= self.limit

    @property
    def mean_power(self):
        return sum(row["measured"] for row in self.power_cells) / len(self.power_cells) if self.power_cells else None

    @property
    def where(self):
        """The measured learners and sizes read, with the stand-ins for learners not measured themselves."""
        stand_ins = self.regime.stand_in_words() if self.regime is not None else ""
        return self.regime.describe() + (f" ({stand_ins})" if stand_ins else "")

    @property
    def words(self):
        """The one sentence every caller prints about this reading."""
        size = f"{self.regime.size_name if self.regime else 'N'} = {self.n_samples}"
        name = str(self.method) if self.quantity == "coverage" or self.method not in method_ids() else display_label(
            self.method)
        if not self.cells:
            who = listed(learner.describe() for learner in self.learners)
            return f"the calibration benchmark did not measure {name} for {who} at about {size}"
        what = "coverage" if self.quantity == "coverage" else "type-I error"
        bound, beyond = ("at least", "below") if self.quantity == "coverage" else ("at most", "above")
        verdict = (f"{self.worst:.3f} ({bound} {self.limit:g}) for {self.where}" if self.holds
                   else f"{self.worst:.3f} for {self.worst_cell}, {beyond} {self.limit:g}, among {self.where}")
        design = "" if self.design_measured else (
            f", over the cells of R = {listed(str(r) for r in self.repeats_read)} (those of R = {self.repeats} alone "
            "do not hold every learner and size read)")
        return f"the calibration benchmark measured the {what} of {name} at {verdict}{design}"

    text = words


def read_evidence(method, learners, n_samples, *, quantity="type_i", task="classification", target=None,
                  repeats=None, rows=None, detail="target"):
    """What the calibration measured for ``method`` (a test's id; an interval's
    :class:`CoverageKey`, or its id alone for its rows without qualifiers), ``learners`` at ``n_samples``, a design
    of ``repeats`` repeats and the rows of ``task``: the one reader of the evidence (:class:`Reading`).

    A coverage (``quantity="coverage"``) is read for ``target`` in the regime of every interval's rows of that
    target; a test's type-I error (``"type_i"``), its rows found by its id, in the regime of its own rows,
    with its power in the same cells. ``repeats``: where the rows state their R x K-fold design (the corrected t's) and
    measured every cell that stands at R, those cells alone stand; else the worst over every R measured
    (:func:`at_repeats`). ``rows`` (with ``detail``, the field besides the target that keys them: the margin
    calibration's "alternative") replaces the shipped rows. The answer is computed once per table and question,
    and the same object is returned each time.

    Examples
    --------
    Both boosting classes read the same cells (the one not measured itself by the family's rule), and the
    sentence names the stand-in:

    >>> from cvinference.policy._evidence import learner_of, read_evidence
    >>> gb, hgb = (learner_of(f"sklearn.ensemble.{name}")
    ...            for name in ("GradientBoostingClassifier", "HistGradientBoostingClassifier"))
    >>> readings = [read_evidence("corrected-t", (learner,), 1000, repeats=1) for learner in (gb, hgb)]
    >>> readings[0].cells == readings[1].cells, readings[0].regime.sizes
    (True, (1000,))
    >>> readings[0].where
    'histogram gradient boosting at N = 1000 (stand-ins: histogram gradient boosting for GradientBoostingClassifier)'
    """
    index = _evidence_index() if rows is None else _index_of(rows, detail)
    key = (method, tuple(learners), n_samples, quantity, task, target, repeats)
    if key not in index.readings:
        index.readings[key] = _read(index, *key)
    return index.readings[key]


def _read(index, method, learners, n_samples, quantity, task, target, repeats):
    coverage = quantity == "coverage"
    name = (CoverageKey(method) if isinstance(method, str) else method) if coverage else method
    universe = index.select(task, quantity, None if coverage else name, target)
    regime = regime_of(universe, learners, n_samples, _size_name(task))
    own = index.select(task, quantity, name, target) if coverage else universe
    cells = at_repeats(standing_cells(own, regime), regime, repeats)
    power = () if coverage or not cells else at_repeats(
        standing_cells(index.select(task, "power", name, None), regime), regime, repeats)
    limit = coverage_floor() if coverage else type_i_limit()
    return Reading(method, quantity, task, learners, n_samples, regime, tuple(cells), tuple(power), repeats, target,
                   limit)


def measured_coverage(method, target, regime, task="classification"):
    """How the interval ``method`` (a :class:`CoverageKey`, or an id: its rows without qualifiers) covered ``target``
    in the cells of ``regime`` among the rows of ``task`` (see :func:`test_evidence`); None when it was not measured
    there."""
    method = CoverageKey(method) if isinstance(method, str) else method
    cells = standing_cells(_evidence_index().select(task, "coverage", method, target), regime)
    if not cells:
        return None
    worst = min(cells, key=lambda row: row["measured"])
    return Measured(method=method, worst=worst["measured"],
                    deviation=max(abs(row["measured"] - row["nominal"]) for row in cells),
                    falls_short=any(row["wilson_high"] < coverage_floor() for row in cells), cells=len(cells),
                    worst_cell=_cell_words(worst, _size_name(task)))


def coverage_reading(method, target, learner, n_samples, task="classification"):
    """:func:`read_evidence` of an interval's coverage of ``target`` for one learner's result at ``n_samples``, and
    its :class:`Measured` figures (None: not measured)."""
    reading = read_evidence(method, (learner,), n_samples, quantity="coverage", task=task, target=target)
    return reading, (measured_coverage(method, target, reading.regime, task) if reading.cells else None)


def reaches_floor(measured):
    """Whether a :class:`Measured` coverage reached the floor in every cell: its worst cell's coverage itself at or
    above :func:`coverage_floor` (not only its Wilson interval's upper end, which :attr:`Measured.falls_short`
    reads); False when it was not measured (None)."""
    return measured is not None and measured.worst >= coverage_floor()


def coverage_regime(target, learner, n_samples, task="classification"):
    """The regime of one learner's result for the coverage rows of ``target`` among the rows of ``task``."""
    return read_evidence(None, (learner,), n_samples, quantity="coverage", task=task, target=target).regime


def coverage_methods(target, task):
    """The :class:`CoverageKey` of each interval whose coverage of ``target`` the rows of ``task`` hold, in the order
    they first appear."""
    return list(dict.fromkeys(CoverageKey.of(row) for row in _evidence_index().select(task, "coverage", None, target)))


def measured_scheme(result):
    """Whether the benchmark measured results like this one: k-fold cross-validation, not leave-one-out."""
    return result.n_splits >= 2 and not result.is_loo


def coverage_floor():
    """The lowest coverage (of a nominal 95% interval) the evidence accepts."""
    return calibration_evidence()["floor"]


def type_i_limit():
    """The largest type-I error (at alpha = 0.05) the evidence accepts for a test a decision rests on."""
    return calibration_evidence()["type_i_limit"]


def evidence_source():
    """Where the figures come from, in words."""
    evidence = calibration_evidence()
    modes = [evidence["mode"], *evidence.get("further_modes", ())]
    runs = "run" if len(modes) == 1 else "runs"
    return f"the calibration benchmark ({listed(modes)} {runs} of benchmarks/calibration.py, docs/calibration.md)"


class TestEvidence(NamedTuple):
    """A comparison test's measured type-I error and power in the cells that stand for a pair of learners."""

    type_i: float | None
    power: float | None
    regime: Regime | None
    worst_cell: str | None = None  # the cell of the worst type-I error, in words: "a decision tree at N = 100"
    repeats: tuple = ()  # the numbers of repeats R of the R x K-fold cells used, where the rows state them
    power_cells: tuple = ()  # ((learner, n, population), power) of each power cell that stands for the pair
    reading: object = None  # the Reading these figures come from (its words: the sentence every caller prints)


TestEvidence.__test__ = False  # not a pytest test


def _rows_of_test(quantity, test_name, task):
    return _evidence_index().select(task, quantity, test_name)


def repeats_of(row):
    """The repeats R of the R x K-fold design a test's row states in its fields ``repeats`` and ``folds`` (the corrected
    t's cells, measured on the first 1, 3 and 10 repeats of the same fits: {"method": "corrected-t", "repeats": 3,
    "folds": 10}: 3); None for a row of no such design (a coverage row's or a pooled test's ``repeats`` alone, the
    margin calibration's tests of one partition, which read every R alike)."""
    return row.get("repeats") if row.get("folds") is not None else None


def folds_of(row):
    """The folds K of the R x K-fold design a test's row states (:func:`repeats_of`), or None."""
    return row.get("folds") if row.get("repeats") is not None else None


def pair_learners(pair):
    """The :class:`Learner` of each record of a pair, A's then B's."""
    return [learner_of_result(pair.a), learner_of_result(pair.b)]


def at_repeats(cells, regime, repeats):
    """The cells measured at ``repeats`` when they measured every learner and size of ``regime``, else all."""
    if repeats is None:
        return cells
    same = [row for row in cells if repeats_of(row) == repeats]
    covered = {(row["learner"], row["n"]) for row in same}
    wanted = {(row["learner"], row["n"]) for row in cells}
    return same if same and covered == wanted else cells


def test_evidence(test_name, learners, n_samples, task="classification", repeats=None):
    """The worst measured type-I error and the mean power of a test for ``learners`` at ``n_samples``.

    ``test_name``, the test's id, finds its rows;
    ``task`` ("classification": accuracy, "regression", or a score metric's
    name such as "roc_auc", or "grouped", whose cells are sized by their
    number of groups: pass it as ``n_samples``) to the rows' ``"task"``
    (rows without one are classification rows). ``repeats``, the record's
    number of repeats R: where the rows name theirs ("corrected t (1x10-fold)")
    and measured every cell that stands for the pair at R, those cells alone
    stand; otherwise the worst over every R measured. Unmeasured figures are
    None.
    """
    reading = read_evidence(test_name, tuple(learners), n_samples, task=task, repeats=repeats)
    if not reading.cells:
        return TestEvidence(None, None, None, reading=reading)
    return TestEvidence(reading.worst, reading.mean_power, reading.regime, reading.worst_cell, reading.repeats_read,
                        tuple(((row["learner"], row["n"], row["population"]), row["measured"])
                              for row in reading.power_cells), reading)


def measured_rows(quantity, test_name, task="classification"):
    """The evidence's rows of ``quantity`` ("type_i", "power") of a test (by its id) in ``task``."""
    return _rows_of_test(quantity, test_name, task)


def measured_task(task):
    """Whether the evidence holds rows of ``task`` (a label metric's own rows, such as "balanced_accuracy")."""
    return bool(_task_rows(task))


def measured_reach(test_name, task="classification"):
    """A test's worst type-I error over every cell the benchmark measured it in, and those cells in words.

    Returns ``(worst, words)``, or ``(None, None)`` where the test was not measured for ``task``: the
    figures behind a claim such as "nested CV kept its type-I error within the limit wherever measured".
    """
    rows = _rows_of_test("type_i", test_name, task)
    if not rows:
        return None, None
    cells = Regime(tuple(dict.fromkeys(row["learner"] for row in rows)), tuple(sorted({row["n"] for row in rows})),
                   size_name=_size_name(task))
    return max(row["measured"] for row in rows), cells.describe()


test_evidence.__test__ = False  # not a pytest test
