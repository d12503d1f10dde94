"""What a result estimates, in words, and the warning that the large-sample conditions fail."""

from .._utils._params import Options
from .._utils._text import wrapped
from .._utils._warnings import Caution, ConditionsWarning

CONDITIONS_FAIL = "The large-sample conditions fail"
"""How every warning about failing large-sample conditions starts (its code, not its text, says what it is:
:func:`conditions_warning`)."""

PAIRED_ESTIMAND = "difference in expected "
"""How the estimand of two learners' nested-CV interval begins (its details say ``n_learners``: nothing reads this
text)."""

AUTO_NOTE = "method='auto' chose"
"""How the note of ``accuracy_interval(method="auto")`` starts."""


def conditions_warning(details):
    """The warning that Wong's large-sample conditions fail, ``details`` saying where and what follows: a
    :class:`Caution` coded "conditions", which reports show apart from the other warnings."""
    return Caution(f"{CONDITIONS_FAIL} {details}", ConditionsWarning.code)


def training_size_phrase(result):
    """What each fold's model was trained on, in words."""
    if result.n_train is not None:
        return f"{result.n_train} instances of this dataset"
    if result.is_loo:
        return f"n - 1 = {result.n_samples - 1} instances of this dataset"
    k = result.n_splits
    return f"{k - 1}/{k} of this dataset (about {round(result.n_samples * (k - 1) / k)} instances)"


GIVEN_THIS_DATASET = "given this dataset, not averaged over other datasets of its size (Vanwinckelen & Blockeel 2015)"


def is_single_set(result):
    """Whether ``result`` is one evaluation set of a model trained elsewhere: one fold, no training size given."""
    return result.n_splits == 1 and result.n_train is None


SINGLE_SET_ESTIMAND = ("on the population the rows are drawn from, of the model that made these predictions, as it "
                       "is (one evaluation set: the model trained elsewhere, on data not given here)")


def accuracy_estimand(result):
    if is_single_set(result):
        return f"accuracy {SINGLE_SET_ESTIMAND}"
    return (
        f"accuracy on the population of the models the learner fits to {training_size_phrase(result)}; "
        f"{GIVEN_THIS_DATASET}"
    )


def difference_estimand(a, b):
    if is_single_set(a) and is_single_set(b):
        return ("difference in accuracy (A minus B) on the population the rows are drawn from, of the two models that "
                "made these predictions, as they are (one evaluation set: the models trained elsewhere, on data not "
                "given here)")
    trained_a, trained_b = training_size_phrase(a), training_size_phrase(b)
    if trained_a == trained_b:
        trained = f"fitted to {trained_a}"
    else:
        trained = f"A's fitted to {trained_a}, B's to {trained_b}"
    return (
        f"difference in accuracy on the population (A minus B) of the two learners' models ({trained}); "
        f"{GIVEN_THIS_DATASET}"
    )


LEARNER_TARGETS = {
    "kfold": ("the mean population error of the models fitted in the folds, each to part of this dataset "
              "(Bayle et al. 2020's target; what Wong's intervals estimate)"),
    "conditional": "the population error of the model fitted to the whole dataset (Err_XY)",
    "unconditional": ("the expected population error of the learner over datasets of this size (Err; "
                      "Vanwinckelen & Blockeel's learner error)"),
}
"""The targets of a cross-validated learner, in words, from the easiest to cover to the hardest."""

TARGETS = {
    **LEARNER_TARGETS,
    "model": ("the population error of the model that made the predictions, as it is: one evaluation set, the "
              "model's training data not given here, so no learner's error is estimated"),
    "forward": ("the expected loss of the forecasts the learner makes when refitted at each origin on its window "
                "(these horizons, this window), on a series whose losses are stationary"),
}
"""What each ``target`` of a result means, in words (accuracy is 1 minus the error)."""


TARGET = Options(*TARGETS)
"""The field kind of a result's ``target``: one of :data:`TARGETS`."""


def for_the_model(result, *records):
    """``result``, whose target becomes "model" when every record it was computed from is one evaluation set
    (:func:`is_single_set`): the models are then fixed and no learner's error is estimated, whatever the method's
    target on cross-validated records."""
    single = records and all(getattr(record, "n_splits", None) == 1 and is_single_set(record) for record in records)
    if single and hasattr(result, "target"):
        object.__setattr__(result, "target", "model")  # a frozen result's field, set once as it is returned
    return result


def check_target(result):
    """Refuse a result whose ``target`` is not one of :data:`TARGETS`."""
    if result.target not in TARGETS:
        raise ValueError(f"target={result.target!r} is not a known target; pass one of {sorted(TARGETS)}.")


def target_line(target):
    """The report's line that names a result's target."""
    return f"target: {target} ({TARGETS[target]})"


def described_lines(result):
    """A summary's lines of what ``result`` estimates, its target and what it assumes, each wrapped."""
    return [line for text in (f"estimand: {result.estimand}", target_line(result.target),
                              f"assumptions: {result.assumptions}") for line in wrapped(text)]
