"""How often does cross-validation pick the learner whose model is really better? (Vanwinckelen & Blockeel 5.2)"""

import dataclasses

import numpy as np

from .._utils._describe import estimator_description, same_configuration
from .._utils._kinds import POSITIVE, TEXT, Array, SameLength
from .._utils._params import Integer, validate_params
from ..report._plot import set_wrapped_title
from ._population import STUDY_RULES
from ._result import StudyResult
from ._vanwinckelen import n_splits_of, run_algorithm_1

ROWS = ("CV error of a > b", "CV error of a <= b")
COLUMNS = ("conditional error of a > b", "conditional error of a <= b")


def contingency_table(cv_a, cv_b, conditional_a, conditional_b):
    """Vanwinckelen & Blockeel's 2 x 2 table M (section 5.2): rows by the CV errors, columns by the conditional ones."""
    cv_worse = np.asarray(cv_a) > np.asarray(cv_b)
    really_worse = np.asarray(conditional_a) > np.asarray(conditional_b)
    return np.array([[np.sum(cv_worse & really_worse), np.sum(cv_worse & ~really_worse)],
                     [np.sum(~cv_worse & really_worse), np.sum(~cv_worse & ~really_worse)]], dtype=np.int64)


def conditional_probabilities(table):
    """The eight conditional probabilities of section 5.2 from a table M; NaN where the condition never occurred.

    Keys name the event and the condition, "a > b" meaning that a's error is
    the larger: ``"P(conditional a > b | CV a > b)"`` is row 0's share in
    column 0, ``"P(CV a > b | conditional a > b)"`` column 0's share in row 0.
    """
    table = np.asarray(table, dtype=np.float64)
    rows, columns = table.sum(axis=1), table.sum(axis=0)
    names = ("a > b", "a <= b")

    def share(count, total):
        return float(count / total) if total else float("nan")

    probabilities = {}
    for i, cv in enumerate(names):
        for j, conditional in enumerate(names):
            probabilities[f"P(conditional {conditional} | CV {cv})"] = share(table[i, j], rows[i])
    for j, conditional in enumerate(names):
        for i, cv in enumerate(names):
            probabilities[f"P(CV {cv} | conditional {conditional})"] = share(table[i, j], columns[j])
    return probabilities


@dataclasses.dataclass(frozen=True, eq=False)
class WinnerTableResult(StudyResult):
    """What :func:`winner_table` measured.

    Attributes
    ----------
    table : ndarray of int, shape (2, 2)
        With ``n_repeats`` repetitions: rows "CV error of a > b" and
        "CV error of a <= b", columns "conditional error of a > b" and
        "conditional error of a <= b" (Vanwinckelen & Blockeel's M).
    table_one_repeat : ndarray of int, shape (2, 2)
        The same with the first repetition only.
    conditional_error : ndarray of shape (n_draws, 2)
        Per draw, the conditional errors of a and b.
    cv_error : ndarray of shape (n_draws, 2, n_repeats)
        Per draw, each repetition's cross-validation error of a and b (the
        same partitions for both).
    sample_size, n_splits, n_draws, n_repeats : int
    estimator_a, estimator_b : str
    """

    table: np.ndarray
    table_one_repeat: np.ndarray
    conditional_error: np.ndarray
    cv_error: np.ndarray
    sample_size: int
    n_splits: int
    n_draws: int
    n_repeats: int
    estimator_a: str
    estimator_b: str

    _kinds = {"table": Array("iu", shape=(2, 2), low=0), "table_one_repeat": Array("iu", shape=(2, 2), low=0),
              "conditional_error": Array("f", shape=(None, 2), low=0, high=1),
              "cv_error": Array("f", shape=(None, 2, None), low=0, high=1), "sample_size": POSITIVE,
              "n_splits": POSITIVE, "n_draws": POSITIVE, "n_repeats": POSITIVE, "estimator_a": TEXT,
              "estimator_b": TEXT}
    _rules = (SameLength("n_draws", "conditional_error", "cv_error"), SameLength("n_repeats", "cv_error", axis=2))

    @property
    def probabilities(self):
        """The conditional probabilities of section 5.2 from ``table`` (see :func:`conditional_probabilities`)."""
        return conditional_probabilities(self.table)

    @property
    def probabilities_one_repeat(self):
        """The same from ``table_one_repeat``."""
        return conditional_probabilities(self.table_one_repeat)

    @property
    def agreement(self):
        """The share of draws where cross-validation named the same winner as the conditional errors."""
        return float(np.trace(self.table) / self.n_draws)

    def _title(self):
        return (f"Winner table (Vanwinckelen & Blockeel 2012, section 5.2): a = {self.estimator_a}, "
                f"b = {self.estimator_b}; {self.n_draws} samples of {self.sample_size}, {self.n_splits}-fold "
                f"cross-validation, {self.n_repeats} repetition(s)")

    def _columns(self):
        repeats = [1] if self.n_repeats == 1 else [1, self.n_repeats]
        tables = [self.table_one_repeat] if self.n_repeats == 1 else [self.table_one_repeat, self.table]
        columns = {"repeats": [], "cv_row": []}
        for title in COLUMNS:
            columns[title] = []
        for r, table in zip(repeats, tables, strict=True):
            for i, row in enumerate(ROWS):
                columns["repeats"].append(r)
                columns["cv_row"].append(row)
                for j, title in enumerate(COLUMNS):
                    columns[title].append(int(table[i, j]))
        return columns

    def _findings(self):
        p = {key: "n/a (no such sample)" if np.isnan(value) else f"{value:.0%}"
             for key, value in self.probabilities.items()}
        return [
            f"Cross-validation named the winner of the conditional errors in {self.agreement:.0%} of the samples.",
            f"When b's model was really better, CV said so in "
            f"{p['P(CV a > b | conditional a > b)']}; when a's was, in {p['P(CV a <= b | conditional a <= b)']}.",
            f"When CV said b is better it was right in {p['P(conditional a > b | CV a > b)']}; when it said a is "
            f"better, in {p['P(conditional a <= b | CV a <= b)']}.",
        ]

    def _panels(self):
        return (self._agreement_panel,)

    def _agreement_panel(self, axis):
        difference_cv = self.cv_error[:, 0, :].mean(axis=1) - self.cv_error[:, 1, :].mean(axis=1)
        difference_conditional = self.conditional_error[:, 0] - self.conditional_error[:, 1]
        axis.scatter(difference_conditional, difference_cv, s=12)
        axis.axhline(0, color="grey", linewidth=1)
        axis.axvline(0, color="grey", linewidth=1)
        axis.set(xlabel="conditional error of a - b", ylabel=f"CV error of a - b ({self.n_repeats} repetitions)")
        set_wrapped_title(axis, [f"a = {self.estimator_a}; b = {self.estimator_b}",
                                 f"CV named the winner in {self.agreement:.0%} of {self.n_draws} samples of "
                                 f"{self.sample_size} (upper right and lower left)"])


def _check_two_learners(estimator_a, estimator_b):
    """Refuse one learner twice, whose equal errors would all count as ties, "<=", in one cell of the table."""
    if same_configuration(estimator_a, estimator_b):
        raise ValueError(
            f"estimator_b must be a different learner from estimator_a; got "
            f"estimator_b={estimator_description(estimator_b)}, the same class with the same parameters. A "
            "learner compared with itself ties on every draw when it is deterministic, and ties count as \"<=\", "
            "so every draw would fall in the cell (CV error of a <= b, conditional error of a <= b), which reads "
            "as cross-validation always naming the better learner. Pass two different learners (or, to compare "
            "a randomized learner with itself, two different random_state values)."
        )


@validate_params(**STUDY_RULES, n_repeats=Integer(minimum=1))
def winner_table(estimator_a, estimator_b, X, y, *, sample_size, n_draws=100, cv=10, n_repeats=1, random_state=None,
                 n_jobs=None, checkpoint=None, verbose=0):
    """Count how often cross-validation picks the learner whose model is really better on the population.

    ``(X, y)`` plays the population. Each draw takes ``sample_size``
    instances without replacement; both learners are cross-validated on the
    same partitions of the sample, and each is fitted to the whole sample and
    scored on the rest of the population (its conditional error). The draws
    are counted in Vanwinckelen & Blockeel's 2 x 2 table.

    Parameters
    ----------
    estimator_a, estimator_b : estimator instance
        Two different classifiers (one class with equal parameters is
        refused); they are cloned, never fitted.
    X : array-like of shape (n_rows, n_features)
        The population.
    y : array-like of shape (n_rows,)
        Its class labels.
    sample_size : int
        Instances per drawn sample.
    n_draws : int, default=100
        Number of samples (the paper uses 100).
    cv : int or splitter, default=10
        An int k means stratified equal-size k-fold.
    n_repeats : int, default=1
        Repetitions of the cross-validation; ``table`` uses all of them and
        ``table_one_repeat`` the first (the paper reports 1 and 30).
    random_state, n_jobs, checkpoint, verbose
        As in :func:`conditional_error_study`.

    Returns
    -------
    WinnerTableResult

    Notes
    -----
    Vanwinckelen & Blockeel (2012), section 5.2: Algorithm 1 with two
    learners on the same samples and partitions, and the table
    M = [[#(eps^_a > eps^_b, eps_c,a > eps_c,b), #(eps^_a > eps^_b, eps_c,a <= eps_c,b)],
    [#(eps^_a <= eps^_b, eps_c,a > eps_c,b), #(eps^_a <= eps^_b, eps_c,a <= eps_c,b)]]
    (ties count as "<="), from which they read eight conditional
    probabilities: each row's shares of the two columns (is the learner that
    CV names really better?) and each column's shares of the two rows (does
    CV find the learner that is really better?). Their example (NB against
    C4.5 on adult, 2-fold) has M = [[25, 37], [7, 31]] with a = C4.5:
    P(conditional a > b | CV a > b) = 25/62 = 0.40 and
    P(CV a > b | conditional a > b) = 25/32 = 0.78.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from cvinference import winner_table
    >>> X, y = make_classification(2000, 5, random_state=0)
    >>> study = winner_table(GaussianNB(), DecisionTreeClassifier(random_state=0), X, y, sample_size=100,
    ...                      n_draws=5, cv=5, random_state=0)
    >>> int(study.table.sum()), study.table.shape
    (5, (2, 2))
    """
    _check_two_learners(estimator_a, estimator_b)
    conditional, repeat_error = run_algorithm_1(
        {"estimator_a": estimator_a, "estimator_b": estimator_b}, X, y, study="winner_table",
        sample_size=sample_size, n_draws=n_draws, cv=cv, n_repeats=n_repeats, random_state=random_state,
        n_jobs=n_jobs, checkpoint=checkpoint, verbose=verbose,
        arguments={"sample_size": sample_size, "n_draws": n_draws, "cv": cv, "n_repeats": n_repeats})
    averaged = repeat_error.mean(axis=2)
    return WinnerTableResult(
        table=contingency_table(averaged[:, 0], averaged[:, 1], conditional[:, 0], conditional[:, 1]),
        table_one_repeat=contingency_table(repeat_error[:, 0, 0], repeat_error[:, 1, 0], conditional[:, 0],
                                           conditional[:, 1]),
        conditional_error=conditional, cv_error=repeat_error, sample_size=sample_size, n_splits=n_splits_of(cv),
        n_draws=n_draws, n_repeats=n_repeats, estimator_a=estimator_description(estimator_a),
        estimator_b=estimator_description(estimator_b),
    )
