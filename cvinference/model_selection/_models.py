"""Many models on the same rows: Cochran's Q, then McNemar's test of each pair, adjusted for the family."""

import dataclasses
import functools
import types
from collections.abc import Mapping

import numpy as np

from .._utils._docstring import fill_doc
from .._utils._kinds import COUNT, P_VALUE, TEXT, TEXTS, Array, Fields, Sequence
from .._utils._notebook import import_pandas, summary_html
from .._utils._params import PROBABILITY, Nullable, Options, validate_params
from .._utils._serialize import Serializable
from .._utils._text import format_level, format_number, format_pvalue, format_table, text_block, wrapped
from .._utils._warnings import Messages, quietly
from ..inference import mcnemar_test
from ..inference._cochran import cochrans_q
from ..records import CVResult
from ..report._plot import draw_panels
from ._multiple_testing import CORRECTION, adjust_pvalues

AGAINST = Options("best", "all")
"""``against``: the pairs tested, each model against the most accurate or every pair."""

_PAIR_COLUMNS = {"a": Array("i", ndim=1), "b": Array("i", ndim=1), "estimate": Array("f", ndim=1),
                 "low": Array("f", ndim=1), "high": Array("f", ndim=1), "statistic": Array("f", ndim=1),
                 "pvalue": Array("f", ndim=1), "pvalue_adjusted": Array("f", ndim=1), "different": Array("b", ndim=1)}


def _pairs_agree(owner, values):
    """Every column of ``pairs`` has one entry per pair, and names models that exist."""
    pairs, k = values["_pairs"], len(values["models"])
    lengths = {len(column) for column in pairs.values()}
    if len(lengths) != 1:
        raise ValueError(f"{owner}.pairs must hold columns of one length; got lengths {sorted(lengths)}.")
    if any(not 0 <= index < k for index in (*pairs["a"], *pairs["b"])):
        raise ValueError(f"{owner}.pairs names a model outside 0 .. {k - 1}.")
    if len(values["accuracy"]) != k:
        raise ValueError(f"{owner}.accuracy must hold one entry per model ({k}); got {len(values['accuracy'])}.")
    if not 0 <= values["best"] < k:
        raise ValueError(f"{owner}.best must be the index of a model, 0 .. {k - 1}; got {values['best']}.")


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class ModelComparison(Serializable):
    """k models on the same rows: Cochran's Q, and McNemar's test of each pair, as :func:`compare_models` made it.

    Attributes
    ----------
    models : tuple of str
        The models' names, in the order given.
    accuracy : ndarray of float
        Each model's share of rows predicted right.
    best : int
        The index of the most accurate model (the first of ties).
    statistic, pvalue : float
        The omnibus test that all k accuracies are equal: Cochran's Q, or
        with groups its clustered Wald form, and its chi-square p-value.
    df : int
        Its degrees of freedom.
    method : str
        ``"cochran-q"`` or ``"clustered-wald"``.
    pairs : mapping of str to ndarray
        One entry per pair tested: ``a`` and ``b`` (the models' indices),
        ``estimate`` accuracy(a) - accuracy(b) and its interval ``low``,
        ``high`` (McNemar's, per pair, not adjusted), ``statistic`` and
        ``pvalue`` (McNemar's test, Obuchowski's with groups),
        ``pvalue_adjusted`` (``correction``) and ``different``
        (adjusted p <= alpha); :meth:`to_frame` shows them with names.
    against : str
        ``"best"``: each model against the most accurate; ``"all"``: every pair.
    correction : str
    alpha, confidence_level : float
    n_samples : int
        The rows every model was tested on.
    n_groups : int or None
        The groups of the rows, None without groups.
    estimand, assumptions : str
    notes, warnings : tuple of str
    """

    models: tuple
    accuracy: np.ndarray
    best: int
    statistic: float
    df: int
    pvalue: float
    method: str
    _pairs: types.MappingProxyType
    against: str
    correction: str
    alpha: float
    confidence_level: float
    n_samples: int
    n_groups: int | None
    estimand: str
    assumptions: str
    notes: tuple = ()
    warnings: tuple = ()

    _kinds = {"models": Sequence(TEXT, min_length=2), "accuracy": Array("f", ndim=1), "best": COUNT,
              "df": COUNT, "pvalue": P_VALUE, "method": Options("cochran-q", "clustered-wald"),
              "_pairs": Fields(**_PAIR_COLUMNS), "against": AGAINST, "correction": CORRECTION, "alpha": PROBABILITY,
              "confidence_level": PROBABILITY, "n_samples": COUNT, "n_groups": Nullable(COUNT), "notes": TEXTS,
              "warnings": TEXTS}
    _rules = (_pairs_agree,)

    @property
    def pairs(self):
        """The pairs' columns (a read-only mapping of name to array): see the class's Attributes."""
        return self._pairs

    def __repr__(self):
        return (f"ModelComparison(models={len(self.models)}, n_samples={self.n_samples}, "
                f"best={self.models[self.best]!r}, {self.method}={format_number(self.statistic)}, "
                f"pvalue={format_number(self.pvalue)})")

    def to_frame(self):
        """One row per pair tested, in the order tested (needs pandas).

        Columns: ``model_a``, ``model_b``, ``accuracy_a``, ``accuracy_b``,
        ``estimate``, ``low``, ``high``, ``statistic``, ``pvalue``,
        ``pvalue_adjusted`` and ``different``.

        Returns
        -------
        pandas.DataFrame
        """
        return import_pandas().DataFrame(self._rows())

    def _rows(self):
        a, b = self._pairs["a"], self._pairs["b"]
        return {"model_a": [self.models[i] for i in a], "model_b": [self.models[j] for j in b],
                "accuracy_a": self.accuracy[a], "accuracy_b": self.accuracy[b],
                **{name: self._pairs[name] for name in ("estimate", "low", "high", "statistic", "pvalue",
                                                         "pvalue_adjusted", "different")}}

    def summary(self):
        """The comparison in text: the omnibus test, each model's accuracy, and the table of pairs.

        Returns
        -------
        str
        """
        test = OMNIBUS_LABELS[self.method]
        rows = self._rows()
        table = format_table(
            ["A", "B", "accuracy A - B", f"{format_level(self.confidence_level)} interval",
             "McNemar" if self.n_groups is None else "Obuchowski",
             f"{self.correction}", "differs"],
            [[rows["model_a"][i], rows["model_b"][i], f"{rows['estimate'][i]:+.4f}",
              f"[{rows['low'][i]:+.4f}, {rows['high'][i]:+.4f}]", format_pvalue(rows["pvalue"][i]),
              format_pvalue(rows["pvalue_adjusted"][i]), "yes" if rows["different"][i] else "no"]
             for i in range(len(rows["model_a"]))])
        accuracies = format_table(["model", "accuracy"], [[name, f"{value:.4f}"]
                                                          for name, value in zip(self.models, self.accuracy,
                                                                                 strict=True)])
        rows_words = f"{self.n_samples} rows" + ("" if self.n_groups is None else f" in {self.n_groups} groups")
        lines = [f"{len(self.models)} models on the same {rows_words}",
                 f"{test}: chi2 = {format_number(self.statistic)}, df = {self.df}, {format_pvalue(self.pvalue)}",
                 "", accuracies, "",
                 f"pairs ({'each against ' + self.models[self.best] if self.against == 'best' else 'every pair'}; "
                 f"p-values adjusted by {self.correction!r}, alpha = {format_number(self.alpha)}):", table, "",
                 *wrapped(f"estimand: {self.estimand}"), *wrapped(f"assumptions: {self.assumptions}")]
        return "\n".join(lines + text_block("notes", self.notes) + text_block("warnings", self.warnings))

    def __str__(self):
        return self.summary()

    _repr_html_ = summary_html

    @fill_doc
    def plot(self, ax=None, *, path=None):
        """Each model's accuracy, most accurate first, those shown to differ from the best marked (needs the
        ``plot`` extra: matplotlib).

        %(display)s

        Parameters
        ----------
        %(plot_ax)s
        %(plot_path)s

        Returns
        -------
        %(plot_returns)s
        """
        return draw_panels([functools.partial(_draw_accuracies, self)], ax,
                           figsize=(6.4, 1.2 + 0.4 * len(self.models)), path=path)


OMNIBUS_LABELS = {"cochran-q": "Cochran's Q", "clustered-wald": "Cochran's Q, clustered (Wald, groups as units)"}
"""How the summary and the figure name the omnibus test of each ``method`` id."""


def _draw_accuracies(comparison, axis):
    order = np.argsort(-comparison.accuracy, kind="stable")
    different = set()
    for a, b, flag in zip(comparison.pairs["a"], comparison.pairs["b"], comparison.pairs["different"], strict=True):
        if flag and comparison.best in (a, b):
            different.add(int(b if a == comparison.best else a))
    positions = np.arange(len(order))[::-1]
    colours = ["tab:red" if j in different else "tab:blue" for j in order]
    axis.barh(positions, comparison.accuracy[order], color=colours)
    axis.set_yticks(positions, [comparison.models[j] for j in order])
    axis.set_xlabel("accuracy (red: shown to differ from the best)")
    axis.set_xlim(0, 1)
    axis.set_title(f"{len(comparison.models)} models on {comparison.n_samples} rows; "
                   f"{OMNIBUS_LABELS[comparison.method]} {format_pvalue(comparison.pvalue)}")


def _named_records(records):
    """``records`` as (names, CVResults): a mapping of names to records, (name, record) pairs, or records."""
    if isinstance(records, CVResult):
        raise TypeError("records must hold two or more CVResults (a mapping of names to records, or a list); got "
                        "one CVResult.")
    if isinstance(records, Mapping):
        pairs = list(records.items())
    elif isinstance(records, (list, tuple)):
        pairs = [entry if isinstance(entry, tuple) and len(entry) == 2 else
                 (getattr(entry, "name", None) or f"model {i}", entry) for i, entry in enumerate(records)]
    else:
        raise TypeError(f"records must be a mapping of names to CVResults or a list of CVResults; got "
                        f"{type(records).__name__}.")
    if len(pairs) < 2:
        raise ValueError(f"records holds {len(pairs)} model; compare_models compares two or more.")
    for name, record in pairs:
        if not isinstance(record, CVResult):
            raise TypeError(f"records[{name!r}] must be a CVResult; got {type(record).__name__}.")
        if record.classes is None:
            raise ValueError(f"records[{name!r}] holds a regression loss ({record.loss_name!r}); compare_models "
                             "compares how often classifiers are right on each row.")
    names = [str(name) for name, _ in pairs]
    if len(set(names)) != len(names):
        raise ValueError(f"records' names must differ; got {names}.")
    return names, [record for _, record in pairs]


def _check_same_rows(names, records):
    first = records[0]
    for name, record in zip(names[1:], records[1:], strict=True):
        if record.n_samples != first.n_samples or not np.array_equal(record.y_true, first.y_true):
            raise ValueError(f"records[{name!r}] is not on the rows of records[{names[0]!r}] (their y_true differ); "
                             "every model must be tested on the same rows, in one order.")
        same_groups = (record.groups is None) == (first.groups is None) and (
            record.groups is None or np.array_equal(record.groups, first.groups))
        if not same_groups:
            raise ValueError(f"records[{name!r}] and records[{names[0]!r}] hold other groups; give every record the "
                             "same group of each row, or none.")


@validate_params(against=AGAINST, correction=CORRECTION, alpha=PROBABILITY, confidence_level=PROBABILITY)
def compare_models(records, *, against="best", correction="holm", alpha=0.05, confidence_level=0.95):
    """Do k models on the same rows differ in accuracy, and which pairs?

    The usual table of an evaluation, k models answering the same rows
    (questions, images, patients), tested as a whole by Cochran's Q and pair
    by pair by McNemar's test, with the p-values adjusted for the family.
    With groups (several questions about one passage) both take the groups
    as the independent units: the clustered Wald form of Cochran's Q and
    Obuchowski's clustered McNemar test.

    Parameters
    ----------
    records : mapping of str to CVResult, or list of CVResult or (name, CVResult)
        The models' records on the same rows (one evaluation set, or
        cross-validation on any folds), such as
        ``CVResult.from_predictions(y, predictions)`` makes them; with
        several repeats, repeat 0.
    against : {"best", "all"}, default="best"
        Test each model against the most accurate, or every pair.
    correction : {"holm", "bonferroni", "none"}, default="holm"
        The adjustment of the pairs' p-values for the family.
    alpha : float, default=0.05
        The family-wise level at which a pair is said to differ.
    confidence_level : float, default=0.95
        The level of each pair's interval (per pair, not simultaneous).

    Returns
    -------
    ModelComparison

    See Also
    --------
    compare_candidates : the candidates of a search against the best, on
        their fold scores.
    mcnemar_test : one pair.

    Notes
    -----
    Cochran (1950) for Q (:func:`~cvinference.inference._cochran.cochrans_q`
    gives the formula and its clustered form); McNemar (1947) and
    Obuchowski (1998) for the pairs (:func:`~cvinference.mcnemar_test`);
    Holm (1979) for the adjustment. The rows are a sample of the rows the
    models will meet, and the models are fixed: the figures are about these
    models, not about the learners that made them.

    Examples
    --------
    >>> import numpy as np
    >>> from cvinference import CVResult
    >>> from cvinference.model_selection import compare_models
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> records = {name: CVResult.from_predictions(y, np.where(rng.random(500) < rate, y, 1 - y))
    ...            for name, rate in (("small", 0.70), ("medium", 0.75), ("large", 0.85))}
    >>> comparison = compare_models(records)
    >>> comparison.models[comparison.best], comparison.df, bool(comparison.pvalue < 0.001)
    ('large', 2, True)
    >>> comparison.to_frame()[["model_a", "model_b", "different"]].values.tolist()
    [['large', 'small', True], ['large', 'medium', True]]
    """
    names, records = _named_records(records)
    _check_same_rows(names, records)
    notes = []
    if any(record.n_repeats > 1 for record in records):
        notes.append("Some records hold several repeats; every test here reads repeat 0 (pooling repeats would count "
                     "each row several times).")
    correct = np.column_stack([record.correct[0] for record in records])
    groups = records[0].groups
    omnibus = cochrans_q(correct, groups)
    accuracy = correct.mean(axis=0)
    best = int(np.argmax(accuracy))
    k = len(records)
    pairs = ([(best, j) for j in range(k) if j != best] if against == "best"
             else [(i, j) for i in range(k) for j in range(i + 1, k)])
    repeat = 0 if any(record.n_repeats > 1 for record in records) else None
    method = "mcnemar" if groups is None else "mcnemar-obuchowski"
    tests = [quietly(mcnemar_test, records[i], records[j], method=method, repeat=repeat) for i, j in pairs]
    intervals = [test.confidence_interval(confidence_level) for test in tests]
    pvalues = np.array([test.pvalue for test in tests])
    adjusted = adjust_pvalues(pvalues, correction)
    columns = {"a": np.array([i for i, _ in pairs]), "b": np.array([j for _, j in pairs]),
               "estimate": accuracy[[i for i, _ in pairs]] - accuracy[[j for _, j in pairs]],
               "low": np.array([interval.low for interval in intervals]),
               "high": np.array([interval.high for interval in intervals]),
               "statistic": np.array([test.statistic for test in tests]), "pvalue": pvalues,
               "pvalue_adjusted": adjusted, "different": adjusted <= alpha}
    messages = Messages()
    if omnibus.pvalue > alpha and columns["different"].any():
        messages.warn(f"A pair differs at alpha = {format_number(alpha)} while Cochran's Q does not reject "
                      f"({format_pvalue(omnibus.pvalue)}): the pairwise tests and the omnibus test answer different "
                      "questions; report both.")
    rows_are = "rows independent" if groups is None else f"{len(np.unique(groups))} groups independent"
    return ModelComparison(
        models=tuple(names), accuracy=accuracy, best=best, statistic=omnibus.statistic, df=omnibus.df,
        pvalue=omnibus.pvalue, method=omnibus.method,
        _pairs=types.MappingProxyType({name: np.asarray(column) for name, column in columns.items()}),
        against=against, correction=correction, alpha=alpha, confidence_level=confidence_level,
        n_samples=records[0].n_samples, n_groups=None if groups is None else len(np.unique(groups)),
        estimand=("each model's accuracy on the population of rows these are drawn from, the models as they are "
                  "(not the learners that made them)"),
        assumptions=f"the {rows_are}; the models fixed (their errors on other rows are what is inferred)",
        notes=tuple(notes), warnings=tuple(messages.warnings))
