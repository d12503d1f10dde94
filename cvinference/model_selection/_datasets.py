"""Several learners on several datasets: Friedman, Nemenyi and Wilcoxon against a control (Demšar 2006)."""

import collections
import collections.abc
import dataclasses
import functools
import math
import sys
import types
import warnings
from typing import NamedTuple

import numpy as np
from scipy import stats

from .._utils._arrays import readonly_array
from .._utils._docstring import fill_doc
from .._utils._kinds import (
    COUNT,
    LEVEL,
    NON_NEGATIVE,
    P_VALUE,
    TEXT,
    TEXTS,
    Array,
    Fields,
    Ordered,
    Sequence,
    proportions,
)
from .._utils._notebook import import_pandas, summary_html
from .._utils._params import PROBABILITY, SIGNIFICANCE_LEVEL, Boolean, validate_params
from .._utils._serialize import Serializable
from .._utils._text import format_level, format_number, format_pvalue, format_table, text_block, wrapped
from .._utils._warnings import Messages, quietly
from ..inference import corrected_resampled_ttest
from ..records import CVResult
from ..report._plot import draw_panels
from ._cd_diagram import cd_diagram_size, draw_cd_diagram
from ._multiple_testing import CORRECTION, adjust_pvalues

"""``alpha``: the level of the Nemenyi and Wilcoxon decisions."""

_SCORES_KINDS = ("a pandas DataFrame or a 2-D array of numbers (rows = datasets, columns = learners), or a mapping "
                 "{dataset name: {learner name: CVResult}}")



def rank_within_datasets(scores, greater_is_better=True):
    """Ranks of the learners on each dataset (a row), 1 for the best; ties share the average of their ranks."""
    scores = np.asarray(scores, dtype=np.float64)
    return stats.rankdata(-scores if greater_is_better else scores, axis=1)


def iman_davenport(chi_square, n_datasets, n_learners):
    """Iman & Davenport's F from Friedman's chi-square: (F, p-value, (df1, df2)); nan F at perfect agreement.

    Examples
    --------
    Demšar (2006), section 3.2.2: chi-square 9.28 on 14 datasets and 4 learners gives F = 3.69.

    >>> statistic, pvalue, df = iman_davenport(9.28, 14, 4)
    >>> round(statistic, 2), df
    (3.69, (3, 39))
    """
    df = (n_learners - 1, (n_learners - 1) * (n_datasets - 1))
    denominator = n_datasets * (n_learners - 1) - chi_square
    if math.isnan(chi_square) or math.isclose(denominator, 0.0, abs_tol=1e-9 * n_datasets * n_learners):
        return math.nan, math.nan, df
    statistic = (n_datasets - 1) * chi_square / denominator
    return float(statistic), float(stats.f.sf(statistic, *df)), df


def nemenyi_q(n_learners, alpha=0.05):
    """q_alpha of the Nemenyi test: the studentized range quantile over sqrt(2) (Demšar 2006, Table 5a).

    Examples
    --------
    >>> round(nemenyi_q(4, 0.05), 3)
    2.569
    """
    return float(stats.studentized_range.ppf(1 - alpha, n_learners, np.inf) / math.sqrt(2))


def _rank_standard_error(n_learners, n_datasets):
    return math.sqrt(n_learners * (n_learners + 1) / (6 * n_datasets))


def critical_difference(n_learners, n_datasets, alpha=0.05):
    """Nemenyi's critical difference of average ranks, CD = q_alpha sqrt(k (k + 1) / (6 N)).

    Examples
    --------
    Demšar (2006), section 3.2.2: 4 learners on 14 datasets.

    >>> round(critical_difference(4, 14, 0.05), 2)
    1.25
    """
    return nemenyi_q(n_learners, alpha) * _rank_standard_error(n_learners, n_datasets)


def nemenyi_pvalues(average_ranks, n_datasets):
    """The k x k matrix of Nemenyi p-values: |R_i - R_j| / sqrt(k (k + 1) / (6 N)) against the studentized range."""
    average_ranks = np.asarray(average_ranks, dtype=np.float64)
    k = average_ranks.size
    z = np.abs(average_ranks[:, None] - average_ranks[None, :]) / _rank_standard_error(k, n_datasets)
    return np.minimum(1.0, stats.studentized_range.sf(z * math.sqrt(2), k, np.inf))


def nemenyi_groups(learners, average_ranks, cd):
    """Maximal runs of learners, in order of average rank, whose ranks differ by less than ``cd``.

    Each group holds at least two learners and is contained in no other.

    Examples
    --------
    >>> nemenyi_groups(("a", "b", "c", "d"), [1.0, 1.5, 2.4, 3.1], 1.0)
    (('a', 'b'), ('b', 'c'), ('c', 'd'))
    """
    average_ranks = np.asarray(average_ranks, dtype=np.float64)
    order = np.argsort(average_ranks, kind="stable")
    ranks = average_ranks[order]
    groups, last_end = [], 0
    for start in range(ranks.size):
        end = start
        while end + 1 < ranks.size and ranks[end + 1] - ranks[start] < cd:
            end += 1
        if end > start and end > last_end:
            groups.append(tuple(learners[i] for i in order[start:end + 1]))
            last_end = end
    return tuple(groups)


def _wilcoxon(differences, learner, control, messages):
    """Wilcoxon's signed-rank statistic and p-value of the differences, zero differences split (zsplit)."""
    if not np.any(differences):
        messages.warn(
            f"{learner} and the control {control} have the same score on every dataset: no Wilcoxon test is "
            "possible, and p = 1 is reported."
        )
        n = differences.size
        return n * (n + 1) / 4, 1.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = stats.wilcoxon(differences, zero_method="zsplit")
    for warning in caught:
        messages.warn(f"Wilcoxon test of {learner} against {control}: scipy says {warning.message}")
    return float(result.statistic), float(result.pvalue)




@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class FriedmanResult(Serializable):
    """Friedman's test that all learners rank alike, and Iman & Davenport's F.

    Attributes
    ----------
    statistic, pvalue : float
        Friedman's chi-square and its p-value, as ``scipy.stats.friedmanchisquare``
        computes them (with its correction for ties); nan with two learners.
    df : int
        k - 1.
    iman_davenport_statistic, iman_davenport_pvalue : float
        F = (N - 1) chi2 / (N (k - 1) - chi2) and its p-value; nan with two
        learners and at perfect agreement (chi2 = N (k - 1)).
    iman_davenport_df : tuple of int
        (k - 1, (k - 1) (N - 1)).
    """

    statistic: float
    pvalue: float
    df: int
    iman_davenport_statistic: float
    iman_davenport_pvalue: float
    iman_davenport_df: tuple

    _kinds = {"pvalue": P_VALUE, "iman_davenport_pvalue": P_VALUE, "iman_davenport_df": Sequence(COUNT, length=2)}

    def __repr__(self):
        return (f"{type(self).__name__}(statistic={format_number(self.statistic)}, "
                f"pvalue={format_number(self.pvalue)}, df={self.df}, "
                f"iman_davenport_statistic={format_number(self.iman_davenport_statistic)}, "
                f"iman_davenport_pvalue={format_number(self.iman_davenport_pvalue)}, "
                f"iman_davenport_df={self.iman_davenport_df})")

    def describe(self):
        """One line: both statistics with their degrees of freedom and p-values."""
        if math.isnan(self.statistic):
            return "Friedman test: not defined (it needs three or more learners, and scores that differ)"
        line = (f"Friedman test: chi2 = {format_number(self.statistic)}, df = {self.df}, "
                f"{format_pvalue(self.pvalue)}")
        if math.isnan(self.iman_davenport_statistic):
            return line + "; Iman-Davenport F: not defined (the learners rank alike on every dataset)"
        df1, df2 = self.iman_davenport_df
        return (line + f"; Iman-Davenport F = {format_number(self.iman_davenport_statistic)}, df = ({df1}, {df2}), "
                f"{format_pvalue(self.iman_davenport_pvalue)}")

    def summary(self):
        """Both statistics in a table, with their degrees of freedom and p-values.

        Returns
        -------
        str

        Examples
        --------
        >>> from cvinference.results import FriedmanResult
        >>> print(FriedmanResult(statistic=7.8, pvalue=0.0503, df=3, iman_davenport_statistic=3.57,
        ...                      iman_davenport_pvalue=0.0261, iman_davenport_df=(3, 27)).summary())
        Friedman's test that the learners rank alike (Demšar 2006, section 3.2.2)
                    test  statistic       df     p-value
           Friedman chi2        7.8        3  p = 0.0503
        Iman-Davenport F       3.57  (3, 27)   p = 0.026
        """
        head = "Friedman's test that the learners rank alike (Demšar 2006, section 3.2.2)"
        if math.isnan(self.statistic) or math.isnan(self.iman_davenport_statistic):
            return "\n".join([head, self.describe()])
        df1, df2 = self.iman_davenport_df
        rows = [["Friedman chi2", format_number(self.statistic), str(self.df), format_pvalue(self.pvalue)],
                ["Iman-Davenport F", format_number(self.iman_davenport_statistic), f"({df1}, {df2})",
                 format_pvalue(self.iman_davenport_pvalue)]]
        return "\n".join([head, format_table(["test", "statistic", "df", "p-value"], rows)])

    _repr_html_ = summary_html


FEW_DATASETS = 5
"""Up to this many datasets, no two-sided exact Wilcoxon p-value can fall below 0.05 (it is at least 2 / 2**N)."""


def _warn_few_datasets(n, messages):
    """Warn that N <= 5 datasets is far fewer than Demšar's approximations want."""
    if n <= FEW_DATASETS:
        messages.warn(
            f"Only N = {n} datasets: Demšar (2006) asks for N > 10 (and k > 5 learners) before trusting the "
            "chi-square distribution of Friedman's statistic and the large-sample one of Nemenyi's test, and "
            f"with N <= {FEW_DATASETS} no two-sided Wilcoxon p-value can fall below 2 / 2**N = {2 / 2**n:.3g}, so "
            "no learner can be shown to differ from the control at the 0.05 level. The scores and average ranks "
            f"still describe these {n} datasets; the tests say little about datasets in general. Add datasets."
        )


def _friedman(scores, ranks, messages):
    n, k = scores.shape
    undefined = FriedmanResult(math.nan, math.nan, k - 1, math.nan, math.nan, (k - 1, (k - 1) * (n - 1)))
    if k < 3:
        messages.warn(
            "Friedman's test needs at least three learners, so its statistic and p-value are nan: with two "
            "learners, the Wilcoxon signed-rank test of one against the other (wilcoxon_pvalue) is the test "
            "(Demšar 2006, section 3.1.3)."
        )
        return undefined
    if np.all(ranks == (k + 1) / 2):
        messages.warn("Every learner has the same score on every dataset: Friedman's test is not defined (nan).")
        return undefined
    result = stats.friedmanchisquare(*scores.T)
    chi_square = float(result.statistic)
    if any(np.unique(row).size < k for row in scores):
        messages.note("Friedman's chi-square is corrected for tied ranks, as scipy computes it (Demšar 2006 "
                      "gives the formula without ties; the two agree when no dataset has ties).")
    if n > FEW_DATASETS and (n <= 10 or k <= 5):
        messages.note(f"With N = {n} datasets and k = {k} learners the chi-square distribution of Friedman's "
                      "statistic is an approximation (Demšar 2006 asks for N > 10 and k > 5); the Iman-Davenport "
                      "F is the less conservative of the two.")
    id_statistic, id_pvalue, id_df = iman_davenport(chi_square, n, k)
    if math.isnan(id_statistic):
        messages.note("The learners rank alike on every dataset (chi2 = N (k - 1)): the Iman-Davenport F is "
                      "infinite and is reported as nan.")
    return FriedmanResult(chi_square, float(result.pvalue), k - 1, id_statistic, id_pvalue, id_df)


def _control_is_a_learner(owner, values):
    if values["control"] not in values["learners"]:
        raise ValueError(f"{owner}.control={values['control']!r} is none of {owner}.learners "
                         f"{values['learners']!r}. Pass the output of to_dict() unchanged.")


_LEARNER_KINDS = {"average_rank": Array("f", ndim=1, low=1), "statistic": Array("f", ndim=1),
                  "pvalue": proportions(1), "pvalue_adjusted": proportions(1)}
"""The per-learner columns every :class:`DatasetComparison` stores, with their kinds."""

_DATASET_KINDS = {"estimate": Array("f", ndim=2), "low": Array("f", ndim=2), "high": Array("f", ndim=2),
                  "pvalue": proportions(2)}
"""The per-dataset columns (rows = datasets, columns = learners) a comparison of CVResults adds."""


def _columns_agree(owner, values):
    """Each learner column has one entry per learner; each dataset column has the shape of ``scores``; low <= high."""
    n, k = len(values["datasets"]), len(values["learners"])
    shapes = {"scores": values["scores"].shape}
    shapes |= {f"learner_columns[{name!r}]": (len(column),) for name, column in values["_learner_columns"].items()}
    shapes |= {f"dataset_columns[{name!r}]": column.shape for name, column in values["_dataset_columns"].items()}
    for name, shape in shapes.items():
        expected = (k,) if name.startswith("learner") else (n, k)
        if shape != expected:
            raise ValueError(f"{owner}.{name} must have the shape {expected} (datasets x learners: {n} x {k}); got "
                             f"{shape}. Pass the output of to_dict() unchanged.")
    columns = values["_dataset_columns"]
    Ordered("low", "high")(f"{owner}.dataset_columns", {name: columns.get(name) for name in ("low", "high")})


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class DatasetComparison(Serializable):
    """What :func:`compare_on_datasets` found: ranks, Friedman, Nemenyi, and Wilcoxon against a control.

    Attributes
    ----------
    learners : tuple of str
        The k learners, in the order of the columns of the arrays.
    datasets : tuple of str
        The N datasets, in the order of the rows.
    scores : ndarray of float, shape (N, k)
        The scores.
    ranks : ndarray of float, shape (N, k)
        The ranks within each dataset (1 = best; ties share their average
        rank), computed from ``scores``: not stored.
    table : mapping of str to ndarray
        The per-learner figures, one entry per learner in the order of
        ``learners``: ``learner``, ``average_rank``, ``mean_score``,
        ``statistic``, ``pvalue`` and ``pvalue_adjusted`` (Wilcoxon's
        signed-rank statistic, the smaller rank sum, and p-value of each
        learner against the control on the per-dataset differences, and the
        p-value adjusted by ``correction`` over the k - 1 comparisons; nan
        for the control), ``different_from_control`` and
        ``nemenyi_different_from_control``. :meth:`to_frame` shows it, best
        average rank first. Stored are ``average_rank``, ``statistic``,
        ``pvalue`` and ``pvalue_adjusted`` (``to_dict()`` writes them under
        ``"learner_columns"``).
    dataset_table : mapping of str to ndarray of shape (N, k)
        The per-dataset figures (rows = datasets, columns = learners):
        ``score`` and ``rank``, and with CVResults ``estimate``, ``low``,
        ``high`` and ``pvalue``: per dataset, each learner's difference in
        accuracy from the control (learner minus control), its corrected
        resampled t interval and p-value; nan in the control's column.
        :meth:`dataset_frame` shows it, one row per dataset and learner.
        The last four are stored (under ``"dataset_columns"``).
    friedman : FriedmanResult
    critical_difference : float
        Nemenyi's CD at ``alpha``: two learners whose average ranks differ
        by at least CD differ significantly.
    nemenyi_pvalues : ndarray of float, shape (k, k)
        Pairwise Nemenyi p-values (1 on the diagonal), computed from the
        average ranks: not stored.
    groups : tuple of tuple of str
        Maximal groups of learners (in order of average rank) whose average
        ranks differ by less than CD: the bars of the diagram. Computed from
        the average ranks and CD: not stored.
    control : str
        The learner the others are tested against.
    alpha : float
    correction : str
    greater_is_better : bool
    confidence_level : float
        The level of the per-dataset intervals.
    notes : tuple of str
    warnings : tuple of str
        Each was also issued as an :class:`InferenceWarning`.
    """

    learners: tuple
    datasets: tuple
    scores: np.ndarray
    friedman: FriedmanResult
    critical_difference: float
    control: str
    _learner_columns: types.MappingProxyType
    alpha: float
    correction: str
    greater_is_better: bool
    confidence_level: float
    _dataset_columns: types.MappingProxyType
    notes: tuple = ()
    warnings: tuple = ()

    _kinds = {"learners": Sequence(TEXT, min_length=2), "datasets": Sequence(TEXT, min_length=2),
              "scores": Array("iuf", ndim=2), "critical_difference": NON_NEGATIVE, "control": TEXT,
              "_learner_columns": Fields(**_LEARNER_KINDS), "alpha": SIGNIFICANCE_LEVEL, "correction": CORRECTION,
              "confidence_level": LEVEL, "_dataset_columns": Fields().or_with(**_DATASET_KINDS),
              "notes": TEXTS, "warnings": TEXTS}
    _rules = (_columns_agree, _control_is_a_learner)

    @property
    def ranks(self):
        """The ranks within each dataset (rows = datasets, columns = learners; 1 = best, ties share their average)."""
        return readonly_array(rank_within_datasets(self.scores, self.greater_is_better))

    @property
    def nemenyi_pvalues(self):
        """The pairwise Nemenyi p-values of the average ranks, shape (k, k) (1 on the diagonal)."""
        return readonly_array(nemenyi_pvalues(self._learner_columns["average_rank"], len(self.datasets)))

    @property
    def groups(self):
        """Maximal groups of learners (in order of average rank) whose average ranks differ by less than CD."""
        return nemenyi_groups(self.learners, self._learner_columns["average_rank"], self.critical_difference)

    @property
    def table(self):
        """The per-learner figures: a read-only mapping of column name to one entry per learner (in the order of
        ``learners``); :meth:`to_frame` shows them, best average rank first."""
        columns = self._learner_columns
        adjusted = columns["pvalue_adjusted"]
        tested = ~np.isnan(adjusted)
        gap = np.abs(columns["average_rank"] - columns["average_rank"][self._control_column])
        return types.MappingProxyType({
            "learner": list(self.learners),
            "average_rank": columns["average_rank"],
            "mean_score": readonly_array(self.scores.mean(axis=0)),
            "statistic": columns["statistic"],
            "pvalue": columns["pvalue"],
            "pvalue_adjusted": adjusted,
            "different_from_control": readonly_array(tested & (adjusted <= self.alpha), np.bool_),
            "nemenyi_different_from_control": readonly_array(gap >= self.critical_difference, np.bool_),
        })

    @property
    def dataset_table(self):
        """The per-dataset figures: a read-only mapping of column name to an array of shape (N, k), rows = datasets,
        columns = learners; :meth:`dataset_frame` shows them, one row per dataset and learner."""
        return types.MappingProxyType({"score": self.scores, "rank": self.ranks, **self._dataset_columns})

    def __repr__(self):
        return (f"{type(self).__name__}(learners={len(self.learners)}, datasets={len(self.datasets)}, "
                f"control={self.control!r}, friedman_pvalue={format_number(self.friedman.pvalue)}, "
                f"critical_difference={format_number(self.critical_difference)})")

    @property
    def _control_column(self):
        return self.learners.index(self.control)

    def _rank_order(self):
        return np.argsort(self._learner_columns["average_rank"], kind="stable")

    def _columns(self):
        """The columns of :attr:`table`, best average rank first."""
        order = self._rank_order()
        return {name: [column[j] for j in order] if isinstance(column, list) else column[order]
                for name, column in self.table.items()}

    def to_frame(self):
        """One row per learner, best average rank first (needs pandas).

        Columns: ``learner``, ``average_rank``, ``mean_score``, ``statistic``
        and ``pvalue`` (Wilcoxon against the control), ``pvalue_adjusted``,
        ``different_from_control`` (adjusted p <= alpha) and
        ``nemenyi_different_from_control`` (average ranks at least CD apart).

        Returns
        -------
        pandas.DataFrame
        """
        return import_pandas().DataFrame(self._columns())

    def dataset_frame(self):
        """One row per dataset and learner (needs pandas).

        Columns: ``dataset``, ``learner``, ``score``, ``rank``, and with
        CVResults ``estimate``, ``low``, ``high`` and ``pvalue``: the
        corrected resampled t of accuracy(learner) - accuracy(control) on
        that dataset (nan for the control).

        Returns
        -------
        pandas.DataFrame
        """
        n, k = self.scores.shape
        columns = {"dataset": np.repeat(self.datasets, k).tolist(), "learner": list(self.learners) * n}
        columns.update((name, column.ravel()) for name, column in self.dataset_table.items())
        return import_pandas().DataFrame(columns)

    def _headline(self):
        n, k = self.scores.shape
        direction = "higher" if self.greater_is_better else "lower"
        alpha, cd = format_number(self.alpha), format_number(self.critical_difference)
        tests = f"Wilcoxon signed-rank tests against it, p-values adjusted by {self.correction!r}"
        return [f"{k} learners on {n} datasets (Demšar 2006); rank 1 = best ({direction} scores are better)",
                self.friedman.describe(),
                f"Nemenyi critical difference (alpha = {alpha}): CD = {cd}",
                f"control: {self.control}; {tests}"]

    def _table(self):
        columns = self._columns()
        rows = []
        for i, learner in enumerate(columns["learner"]):
            is_control = learner == self.control
            rows.append([learner, f"{columns['average_rank'][i]:.3f}", format_number(columns["mean_score"][i]),
                         "" if is_control else format_number(columns["statistic"][i]),
                         "control" if is_control else format_pvalue(columns["pvalue"][i]),
                         "" if is_control else format_pvalue(columns["pvalue_adjusted"][i]),
                         "" if is_control else ("yes" if columns["different_from_control"][i] else "no"),
                         "" if is_control else ("yes" if columns["nemenyi_different_from_control"][i] else "no")])
        return format_table(["learner", "average rank", "mean score", "W", "Wilcoxon", "adjusted", "differs",
                             "Nemenyi"], rows)

    def _findings(self):
        columns = self._columns()
        different = [name for name, flag in zip(columns["learner"], columns["different_from_control"], strict=True)
                     if flag]
        groups = "; ".join("{" + ", ".join(group) + "}" for group in self.groups) or "none"
        findings = [
            f"Different from the control (Wilcoxon, {self.correction}, alpha = {format_number(self.alpha)}): "
            + (", ".join(different) if different else "none") + ".",
            f"Groups whose average ranks differ by less than CD (not different by Nemenyi): {groups}.",
        ]
        return findings + self._noise_findings()

    def _noise_findings(self):
        if "estimate" not in self._dataset_columns:
            return []
        control = self._control_column
        inside = (self._dataset_columns["low"] <= 0) & (self._dataset_columns["high"] >= 0)
        difference = self.scores - self.scores[:, [control]]
        lines = []
        for j, learner in enumerate(self.learners):
            if j == control:
                continue
            wins, losses = difference[:, j] > 0, difference[:, j] < 0
            lines.append(
                f"{learner} against {self.control}: wins {int(wins.sum())}, losses {int(losses.sum())}, ties "
                f"{int((~wins & ~losses).sum())}; inside the noise ({format_level(self.confidence_level)} corrected "
                f"resampled t interval containing 0): {int((wins & inside[:, j]).sum())} of the wins and "
                f"{int((losses & inside[:, j]).sum())} of the losses."
            )
        return lines

    def summary(self):
        """The comparison in text: Friedman, CD, the table, what differs from the control, and what is noise.

        Returns
        -------
        str
        """
        findings = [line for finding in self._findings() for line in wrapped(f"- {finding}")]
        lines = [*self._headline(), "", self._table(), "", *findings]
        return "\n".join(lines + text_block("notes", self.notes) + text_block("warnings", self.warnings))

    def __str__(self):
        return self.summary()

    _repr_html_ = summary_html

    @fill_doc
    def plot(self, ax=None, *, path=None):
        """Demšar's critical-difference diagram (needs the ``plot`` extra: matplotlib).

        The rank axis runs from 1 (best, left) to k; each learner's name is
        joined to its average rank, thick bars join the ``groups`` that
        Nemenyi's test does not separate, and a bar at the top shows CD.

        %(display)s

        Parameters
        ----------
        ax : matplotlib Axes or None, default=None
            Where to draw; None makes a new figure as large as the diagram
            needs. The diagram is laid out in inches and its text keeps its
            size, so it reads best on an Axes at least that large; the Axes
            is turned off and given an equal aspect.
        %(plot_path)s

        Returns
        -------
        %(plot_returns)s
        """
        diagram = {"learners": self.learners, "average_ranks": self._learner_columns["average_rank"],
                   "groups": self.groups,
                   "critical_difference": self.critical_difference}
        return draw_panels([functools.partial(draw_cd_diagram, **diagram, alpha=self.alpha)], ax,
                           figsize=cd_diagram_size(**diagram), path=path, dpi=120)


class _Table(NamedTuple):
    datasets: tuple
    learners: tuple
    scores: np.ndarray
    results: tuple | None  # per dataset, per learner: the CVResult, or None for plain scores


def _names(labels, what, where):
    """Labels as a tuple of distinct str; ``where`` says where they came from, for the message."""
    names = tuple(str(label) for label in labels)
    repeated = [name for name, count in collections.Counter(names).items() if count > 1]
    if repeated:
        raise ValueError(f"{where} must name each {what} once; {repeated[0]!r} appears "
                         f"{names.count(repeated[0])} times. Pass distinct names.")
    return names


def _check_size(n_datasets, n_learners=None):
    too_few = [f"{count} {what}" for count, what in ((n_datasets, "dataset(s)"), (n_learners, "learner(s)"))
               if count is not None and count < 2]
    if too_few:
        raise ValueError(
            "scores must hold at least 2 datasets (rows) and 2 learners (columns); got "
            f"{' and '.join(too_few)}. Comparing learners over datasets needs several of each; on one dataset, "
            "compare two learners with corrected_resampled_ttest."
        )


def _refuse_names(datasets, learners, kind):
    for name, value in (("datasets", datasets), ("learners", learners)):
        if value is not None:
            raise ValueError(f"{name} names the rows or columns of an array of scores; with {kind} the names "
                             f"are its own. Pass {name}=None; got {name}={value!r}.")


def _as_numbers(values, what):
    try:
        array = np.asarray(values)
    except ValueError:
        raise ValueError(f"scores must be 2-D, rows of equal length (rows = datasets, columns = learners); "
                         f"got {what} with rows of different lengths.") from None
    if array.dtype.kind not in "biuf":
        raise TypeError(f"scores must be {_SCORES_KINDS}; got {what} of dtype {array.dtype}. Pass numbers.")
    if array.ndim != 2:
        raise ValueError(f"scores must be 2-D (rows = datasets, columns = learners); got {what} of shape "
                         f"{array.shape}.")
    return array.astype(np.float64)


def _frame_table(frame):
    pandas = import_pandas()
    not_numeric = [str(c) for c, dtype in frame.dtypes.items() if not pandas.api.types.is_numeric_dtype(dtype)]
    if not_numeric:
        raise TypeError(f"scores must hold numbers; the DataFrame's column {not_numeric[0]!r} does not "
                        f"(dtype {frame[not_numeric[0]].dtype}). Pass scores as numbers.")
    values = frame.to_numpy(dtype=np.float64, na_value=np.nan)
    _check_size(*values.shape)
    return _Table(_names(frame.index, "dataset", "scores' index (the datasets)"),
                  _names(frame.columns, "learner", "scores' columns (the learners)"), values, None)


def _array_table(scores, datasets, learners):
    values = _as_numbers(scores, f"a {type(scores).__name__}")
    n, k = values.shape
    _check_size(n, k)
    datasets = [f"dataset {i}" for i in range(n)] if datasets is None else datasets
    learners = [f"learner {j}" for j in range(k)] if learners is None else learners
    for name, labels, size, axis in (("datasets", datasets, n, "rows"), ("learners", learners, k, "columns")):
        if not isinstance(labels, collections.abc.Sized):
            raise TypeError(f"{name} must be a sequence of {size} names, one for each of the {axis} of scores, or "
                            f"None; got {name}={labels!r}.")
        if isinstance(labels, str) or len(labels) != size:
            raise ValueError(f"{name} must hold one name for each of the {size} {axis} of scores; got "
                             f"{name}={labels!r}.")
    return _Table(_names(datasets, "dataset", "datasets"), _names(learners, "learner", "learners"), values, None)


def _checked_result(result, dataset, learner):
    where = f"scores[{dataset!r}][{learner!r}]"
    if not isinstance(result, CVResult):
        raise TypeError(f"a mapping of scores must map each dataset to {{learner: CVResult}}; {where} is a "
                        f"{type(result).__name__}. For plain scores pass a DataFrame (rows = datasets, columns = "
                        "learners).")
    if result.classes is None:
        raise ValueError(f"{where} holds a regression loss ({result.loss_name!r}): the CVResults are compared "
                         "by their accuracy, which needs a classifier's result. Pass a DataFrame of scores "
                         "instead.")
    return result


def _mapping_table(scores):
    datasets = list(scores)
    _check_size(len(datasets))
    rows = []
    for dataset in datasets:
        row = scores[dataset]
        if not isinstance(row, collections.abc.Mapping):
            raise TypeError(f"a mapping of scores must map each dataset to {{learner name: CVResult}}; "
                            f"scores[{dataset!r}] is a {type(row).__name__}.")
        rows.append(row)
    learners = list(rows[0])
    _check_size(len(datasets), len(learners))
    for dataset, row in zip(datasets, rows, strict=True):
        if set(row) != set(learners):
            missing, extra = sorted(map(str, set(learners) - set(row))), sorted(map(str, set(row) - set(learners)))
            raise ValueError(
                f"every dataset must have the same learners; scores[{dataset!r}] lacks {missing} and has {extra} "
                f"beyond those of scores[{datasets[0]!r}] ({[str(name) for name in learners]}). Evaluate every "
                "learner on every dataset, or leave out the learners some datasets lack."
            )
    results = tuple(tuple(_checked_result(row[learner], dataset, learner) for learner in learners)
                    for dataset, row in zip(datasets, rows, strict=True))
    values = np.array([[result.accuracy for result in row] for row in results], dtype=np.float64)
    return _Table(_names(datasets, "dataset", "scores' keys (the datasets)"),
                  _names(learners, "learner", "the learner keys of scores"), values, results)


def _read_scores(scores, datasets, learners):
    pandas = sys.modules.get("pandas")
    if isinstance(scores, collections.abc.Mapping):
        _refuse_names(datasets, learners, "a mapping")
        table = _mapping_table(scores)
    elif pandas is not None and isinstance(scores, pandas.DataFrame):
        _refuse_names(datasets, learners, "a DataFrame")
        table = _frame_table(scores)
    else:
        table = _array_table(scores, datasets, learners)
    _check_finite(table)
    return table


def _check_finite(table):
    bad = ~np.isfinite(table.scores)
    if bad.any():
        i, j = (int(index) for index in np.argwhere(bad)[0])
        raise ValueError(
            f"scores must be finite numbers; {int(bad.sum())} of {bad.size} are nan or infinite, the first "
            f"for dataset {table.datasets[i]!r} and learner {table.learners[j]!r} "
            f"({table.scores[i, j]}). Leave out that dataset, or the learner, or fill in its score."
        )


def _control_index(control, learners, average_ranks):
    if control is None:
        return int(np.argmin(average_ranks))
    if isinstance(control, str) and control in learners:
        return learners.index(control)
    error = ValueError if isinstance(control, str) else TypeError
    raise error(f"control must be one of the learners' names {list(learners)}, or None for the best average rank; "
                f"got control={control!r}.")


def _dataset_intervals(table, control, confidence_level, messages):
    """Per dataset and learner, the corrected resampled t of accuracy(learner) - accuracy(control)."""
    shape = table.scores.shape
    estimate, low, high, pvalue = (np.full(shape, np.nan) for _ in range(4))
    for i, (dataset, row) in enumerate(zip(table.datasets, table.results, strict=True)):
        for j, learner in enumerate(table.learners):
            if j == control:
                continue
            try:
                test = quietly(corrected_resampled_ttest, row[j], row[control])
            except (TypeError, ValueError) as error:
                raise type(error)(f"scores[{dataset!r}]: {learner} against the control "
                                  f"{table.learners[control]}: {error}") from error
            for warning in test.warnings:
                messages.warn(f"{dataset}, {learner} against {table.learners[control]}: {warning}")
            interval = test.confidence_interval(confidence_level)
            estimate[i, j], low[i, j], high[i, j], pvalue[i, j] = test.estimate, interval.low, interval.high, \
                test.pvalue
    return tuple(readonly_array(values) for values in (estimate, low, high, pvalue))


def _wilcoxon_against(scores, learners, control, correction, alpha, messages):
    n, k = scores.shape
    statistic, pvalue = np.full(k, np.nan), np.full(k, np.nan)
    for j in range(k):
        if j != control:
            statistic[j], pvalue[j] = _wilcoxon(scores[:, j] - scores[:, control], learners[j], learners[control],
                                                messages)
    adjusted = adjust_pvalues(pvalue, correction)
    # The exact two-sided p-value when every difference has the same sign, and after the adjustment (which
    # multiplies the smallest p-value by k - 1 under both Holm and Bonferroni).
    smallest = 2.0 / 2**n * (1 if correction == "none" or k == 2 else k - 1)
    if smallest > alpha:
        messages.note(f"With {n} datasets no {'adjusted ' if correction != 'none' and k > 2 else ''}Wilcoxon "
                      f"p-value can fall below {min(smallest, 1):.3g}, so none can reach alpha = {alpha:g}: more "
                      "datasets are needed to find a difference.")
    return statistic, pvalue, adjusted


@validate_params(alpha=SIGNIFICANCE_LEVEL, greater_is_better=Boolean(), correction=CORRECTION,
                 confidence_level=PROBABILITY)
def compare_on_datasets(scores, *, datasets=None, learners=None, control=None, alpha=0.05, greater_is_better=True,
                        correction="holm", confidence_level=0.95):
    """Compare several learners over several datasets: Friedman, Nemenyi, and Wilcoxon against a control.

    The procedure of Demšar (2006): rank the learners on each dataset, test
    whether their average ranks differ (Friedman, Iman-Davenport), find the
    critical difference of average ranks (Nemenyi), and test each learner
    against a control on the per-dataset differences (Wilcoxon signed-rank,
    adjusted for the k - 1 comparisons). Given cross-validation results, it
    also shows on each dataset whether a learner's win or loss against the
    control is within the noise of cross-validation.

    Parameters
    ----------
    scores : DataFrame, array-like of shape (N, k), or mapping
        The score of each learner (column) on each dataset (row): a pandas
        DataFrame, whose index and columns name the datasets and learners,
        or a 2-D array. Or a mapping ``{dataset: {learner: CVResult}}``, each
        dataset's results made on identical folds (``CVEvaluator.compare``,
        or ``CVEvaluator.evaluate`` with the same int ``random_state``); the
        score is then the accuracy, and each dataset gets the corrected
        resampled t interval of each learner's difference from the control.
        At least 2 datasets and 2 learners (5 datasets or fewer warn);
        every dataset has the same learners.
    datasets, learners : sequence of str, optional
        Names of the rows and columns of an array (default ``"dataset 0"``,
        ..., ``"learner 0"``, ...); not with a DataFrame or a mapping.
    control : str, optional
        The learner the others are tested against (Wilcoxon); None takes the
        best average rank.
    alpha : float, default=0.05
        The level of the Nemenyi critical difference and of the decisions
        ``different_from_control``.
    greater_is_better : bool, default=True
        Whether a higher score ranks better (accuracy, AUC); False for an
        error or a loss. Must be True with CVResults (accuracy).
    correction : {"holm", "bonferroni", "none"}, default="holm"
        How the Wilcoxon p-values are adjusted for the k - 1 comparisons.
    confidence_level : float, default=0.95
        The level of the per-dataset intervals (with CVResults).

    Returns
    -------
    DatasetComparison
        ``friedman``, ``critical_difference``, ``groups``,
        ``nemenyi_pvalues``, ``table`` (per learner: ``average_rank``, the
        Wilcoxon ``pvalue`` and ``pvalue_adjusted`` against ``control``),
        ``dataset_table`` (per dataset: ``score``, ``rank`` and with
        CVResults ``estimate``, ``low``, ``high`` and ``pvalue``);
        ``to_frame()``, ``dataset_frame()``, ``summary()`` and ``plot()``
        (the critical-difference diagram).

    Warns
    -----
    InferenceWarning
        With 5 datasets or fewer (far fewer than the N > 10 Demšar asks
        for; no two-sided Wilcoxon p-value can then fall below 0.0625),
        with two learners (no Friedman test), when a learner's scores equal
        the control's on every dataset (p = 1), or when a per-dataset test
        warns.

    Notes
    -----
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple
    data sets. JMLR 7:1-30. Friedman, M. (1937), "The use of ranks to avoid
    the assumption of normality implicit in the analysis of variance", JASA
    32, and (1940), "A comparison of alternative tests of significance for
    the problem of m rankings", Ann. Math. Statist. 11. Iman, R. L. &
    Davenport, J. M. (1980), "Approximations of the critical region of the
    Friedman statistic", Comm. Statist. A 9. Nemenyi, P. B. (1963),
    "Distribution-free multiple comparisons", PhD thesis, Princeton. Holm,
    S. (1979), "A simple sequentially rejective multiple test procedure",
    Scand. J. Statist. 6.

    *Ranks.* On each dataset the best learner has rank 1; tied learners
    share the average of their ranks (``scipy.stats.rankdata``). R_j is
    learner j's average rank over the N datasets.

    *Friedman test* (Friedman 1937, 1940; Demšar section 3.2.2). Under the
    null hypothesis that all learners are equivalent, each dataset's ranking
    is a random permutation, and chi2 = 12 N / (k (k + 1)) [sum R_j^2 -
    k (k + 1)^2 / 4] is about chi-square with k - 1 df. Ranks need no
    common scale across datasets; the datasets must be independent. The
    statistic and
    p-value are scipy's ``friedmanchisquare``, which also corrects for ties
    (it divides by 1 - sum(t^3 - t) / (N k (k^2 - 1)) over the groups of t
    tied scores). Iman & Davenport (1980) found it conservative and proposed
    F = (N - 1) chi2 / (N (k - 1) - chi2), about F with k - 1 and
    (k - 1)(N - 1) df; from the tie-corrected chi2 it is the two-way
    analysis-of-variance F of the ranks. Needs k >= 3; with two learners
    the Wilcoxon test is the test (section 3.1.3).

    *Nemenyi test* (Nemenyi 1963; Demšar section 3.2.2). Two learners
    differ when their average ranks differ by at least the critical
    difference CD = q_alpha sqrt(k (k + 1) / (6 N)), q_alpha the studentized
    range quantile for k groups and infinite df over sqrt(2) (Demšar's
    Table 5a); the pairwise p-values compare ``|R_i - R_j|`` / sqrt(k (k + 1) /
    (6 N)) with the same distribution. It controls the error over all
    k (k - 1) / 2 pairs and is conservative. Demšar proceeds to it only
    when Friedman's test rejects; here it is always computed, and the two
    can disagree (Nemenyi may separate no pair after a significant
    Friedman test, as in Demšar's own example).

    *Wilcoxon signed-rank test* (Demšar section 3.1.3). For each learner,
    the N differences from the control are ranked by absolute value; zero
    differences are split between the two sides (``zero_method="zsplit"``),
    as Demšar does. The statistic is the smaller rank sum; the p-value is
    scipy's, which uses the exact distribution for few datasets and the
    normal approximation for many (``scipy.stats.wilcoxon``). It assumes
    that under the null hypothesis the differences are symmetric about 0,
    and that differences on different datasets can be compared in size
    (Demšar: commensurable, though only qualitatively, since only their
    ranks count); unlike a t-test over datasets, it is not swayed by a few
    large differences. With N <= 5 datasets its two-sided p-value cannot
    fall below 0.0625. The k - 1 p-values are adjusted by Holm's (1979)
    step-down procedure (or Bonferroni's). Benavoli, Corani & Mangili
    (2016), "Should we really use post-hoc tests based on mean-ranks?",
    JMLR 17, show that whether two learners differ by a mean-rank test
    (Nemenyi) depends on which other learners are in the comparison, and
    recommend pairwise tests such as Wilcoxon's, adjusted for multiple
    comparisons: here, each learner against the control.

    *When not to trust these tests.* Each dataset is one observation: the
    datasets must be independent (not variants of one dataset, not one
    dataset split in several) and the conclusions hold for datasets like
    these. The tests take the scores as exact, but each is an estimate from
    cross-validation with its own noise; a win on one dataset may be noise.
    With CVResults, ``dataset_table["low"]`` and ``["high"]`` give the corrected
    resampled t interval (Nadeau & Bengio 2003; Bouckaert & Frank 2004) of
    accuracy(learner) - accuracy(control) on each dataset, and the summary
    counts the wins and losses whose interval contains 0. Few datasets give
    little power to any of these tests.

    Examples
    --------
    Three learners on six datasets (scores: accuracies).

    >>> import pandas as pd
    >>> from cvinference import compare_on_datasets
    >>> scores = pd.DataFrame({"tree": [0.81, 0.75, 0.90, 0.68, 0.77, 0.88],
    ...                        "forest": [0.86, 0.79, 0.93, 0.72, 0.80, 0.91],
    ...                        "bayes": [0.80, 0.77, 0.87, 0.70, 0.74, 0.86]},
    ...                       index=["a", "b", "c", "d", "e", "f"])
    >>> comparison = compare_on_datasets(scores)
    >>> comparison.control, comparison.table["average_rank"].round(3).tolist()
    ('forest', [2.333, 1.0, 2.667])
    >>> round(comparison.friedman.statistic, 3), round(comparison.friedman.pvalue, 4)
    (9.333, 0.0094)
    >>> round(comparison.critical_difference, 3), comparison.groups
    (1.353, (('forest', 'tree'), ('tree', 'bayes')))
    >>> comparison.table["pvalue_adjusted"].round(4).tolist()
    [0.0625, nan, 0.0625]
    >>> comparison.to_frame()[["learner", "average_rank", "pvalue_adjusted", "nemenyi_different_from_control"]]
      learner  average_rank  pvalue_adjusted  nemenyi_different_from_control
    0  forest      1.000000              NaN                           False
    1    tree      2.333333           0.0625                           False
    2   bayes      2.666667           0.0625                            True

    Forest beats the tree on all six datasets, yet with six datasets and two
    comparisons the Holm-adjusted Wilcoxon p-value is 0.0625: six is too few.
    """
    messages = Messages()
    table = _read_scores(scores, datasets, learners)
    if table.results is not None and not greater_is_better:
        raise ValueError("greater_is_better must be True with CVResults, which are compared by their accuracy; "
                         "got greater_is_better=False.")
    n, k = table.scores.shape
    ranks = rank_within_datasets(table.scores, greater_is_better)
    average_ranks = ranks.mean(axis=0)
    control_index = _control_index(control, table.learners, average_ranks)
    if control is None:
        messages.note(f"control: {table.learners[control_index]}, the best average rank")
    _warn_few_datasets(n, messages)
    friedman = _friedman(table.scores, ranks, messages)
    cd = critical_difference(k, n, alpha)
    statistic, pvalue, adjusted = _wilcoxon_against(table.scores, table.learners, control_index, correction,
                                                    alpha, messages)
    dataset_columns = {}
    if table.results is not None:
        dataset_columns = dict(zip(_DATASET_KINDS, _dataset_intervals(table, control_index, confidence_level,
                                                                      messages), strict=True))
    return DatasetComparison(
        learners=table.learners, datasets=table.datasets, scores=readonly_array(table.scores), friedman=friedman,
        critical_difference=float(cd), control=table.learners[control_index],
        _learner_columns=types.MappingProxyType({
            "average_rank": readonly_array(average_ranks), "statistic": readonly_array(statistic),
            "pvalue": readonly_array(pvalue), "pvalue_adjusted": readonly_array(adjusted)}),
        alpha=alpha, correction=correction, greater_is_better=greater_is_better, confidence_level=confidence_level,
        _dataset_columns=types.MappingProxyType(dataset_columns), notes=tuple(messages.notes),
        warnings=tuple(messages.warnings),
    )
